//! [`HmosConfig::with_graph_and_sizes`]: an HMOS configuration with its level-0 graph and the
//! chain's sizes at once, its refusals naming the `k_max` of those sizes.

use super::{HmosConfig, Level0, Sizes, k_max_with};
use crate::Error;

impl HmosConfig {
    /// [`HmosConfig::with_graph`] with the chain's sizes chosen by `sizes`
    /// ([`HmosConfig::with_sizes`]): a `k` past `k_max` names the largest valid `k` under
    /// `sizes` (a tracking chain's `k_max` is at most the paper's).
    ///
    /// # Errors
    ///
    /// Those of [`HmosConfig::with_graph`] and [`HmosConfig::with_sizes`].
    pub fn with_graph_and_sizes(
        n: u64,
        m: u64,
        r: u32,
        k: u32,
        seed: u64,
        level0: Level0,
        sizes: Sizes,
    ) -> Result<Self, Error> {
        let config = Self::with_graph(n, m, r, k, seed, level0).map_err(|e| match e {
            Error::KTooLarge { k, n, .. } => Error::KTooLarge { k, k_max: k_max_with(n, sizes), n },
            e => e,
        })?;
        config.with_sizes(sizes)
    }
}
