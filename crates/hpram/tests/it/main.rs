//! The one integration-test binary of `hpram`.

mod machine;
mod specs;
