//! The one integration-test binary of `hpram`.

mod count;
mod fft;
mod fixtures;
mod machine;
mod props;
mod specs;
mod studies;
