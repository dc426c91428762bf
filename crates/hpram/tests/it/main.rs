//! The one integration-test binary of `hpram`.

mod count;
mod fft;
mod fixtures;
mod instances;
mod lockstep;
mod machine;
mod props;
mod specs;
mod studies;
