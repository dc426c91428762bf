//! The algorithms built so far (`docs/models/hpram.md`, Choices: Algorithms are ours): the paper's
//! `Alg1` hierarchy, remapping, tree reduction and prefix sums in their flat, two-level and
//! hierarchical forms, and the number-theoretic FFT in its flat, two-level and hierarchical forms.

mod alg1;
mod fft;
mod permute;
mod prefix;
mod tree;

pub use alg1::{Alg1, Empty};
pub use fft::{FftForm, MAX_N, MODULUS, fft, fft_output, ntt_reference};
pub use permute::{permute, remap_partition};
pub use prefix::{prefix_layout, prefix_output, tree_prefix};
pub use tree::{TreeForm, tree_reduce};
