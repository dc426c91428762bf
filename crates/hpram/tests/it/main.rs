//! The one integration-test binary of `hpram`.

mod count;
mod fft;
mod fixtures;
mod instances;
mod library;
mod lockstep;
mod machine;
mod network;
mod props;
mod specs;
mod studies;
