//! The one integration-test binary of `hpram`.

mod count;
mod fft;
mod fixtures;
mod lockstep;
mod machine;
mod props;
mod specs;
mod studies;
