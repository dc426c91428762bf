//! The one integration-test binary of `hpram`.

mod fixtures;
mod machine;
mod specs;
