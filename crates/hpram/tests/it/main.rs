//! The one integration-test binary of `hpram`.

mod fixtures;
mod machine;
mod props;
mod specs;
