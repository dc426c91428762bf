//! The parameter studies built so far (`docs/models/hpram.md`, Choices: Exact cases and studies are
//! ours).

pub mod fft_locality;
pub mod tree_r;
pub mod usable;
