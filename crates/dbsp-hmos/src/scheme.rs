//! The memory schemes a PRAM run or the `dbsp-slowdown` study can use, and the flat-BSP
//! re-pricing: the baselines set side by side with the HMOS (docs/models/dbsp-hmos.md,
//! Choices: baselines).
//!
//! Every scheme runs the same access protocol (combine, select, deliver, reply, uncombine) on
//! the same machine; they differ only in the level-0 graph, the redundancy r and the levels k:
//!
//! - [`Scheme::Hmos`]: Section 3's HMOS with any `k <= k_max(n)` and odd r;
//! - [`Scheme::FlatMajority`]: `k = 0`, r copies of which a majority `mu = (r+1)/2` is
//!   accessed (the paper's scheme without hierarchy, Lemma 2 alone);
//! - [`Scheme::SingleCopyHashed`]: `r = 1, k = 0`, the copy at a hashed module;
//! - [`Scheme::SingleCopyModulo`]: `r = 1, k = 0`, variable v at module `v mod n`, whose
//!   trivial adversary `{i n + c}` puts every request of a step on one module.
//!
//! [`Pricing::FlatBsp`] prices any trace with every level at level 0's `g_0`, `l_0`: what the
//! D-BSP's submachine locality buys.

use netcore::bsp::DbspParams;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::hmos::Level0;

/// The memory scheme.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scheme {
    /// The HMOS (Section 3): balanced shuffled level-0 graph, r odd (default 3), k levels
    /// (default 0).
    #[default]
    Hmos,
    /// The flat majority scheme: the HMOS with k = 0, r odd (default 3).
    FlatMajority,
    /// One copy per variable at a hashed module (r = 1, k = 0).
    SingleCopyHashed,
    /// One copy per variable at module `v mod n` (r = 1, k = 0).
    SingleCopyModulo,
}
netcore::display_config_name!(Scheme => name);

impl Scheme {
    /// The level-0 graph, r and k of this scheme from the optional `level0`, `r`, `k` given:
    /// defaults balanced shuffled (a majority scheme may name any graph; a single copy's
    /// graph is its own and may be named only as itself), r = 3 (1 for a single copy) and k = 0; a flat
    /// scheme refuses `k != 0`, a single copy `r != 1`. The HMOS rules (r odd,
    /// k <= k_max(n), the graph's own) are checked by [`crate::hmos::HmosConfig`].
    pub fn resolve(
        self,
        level0: Option<Level0>,
        r: Option<u32>,
        k: Option<u32>,
    ) -> Result<(Level0, u32, u32), Error> {
        let flat = |k: Option<u32>| match k {
            None | Some(0) => Ok(0),
            Some(k) => Err(Error::param("k", format!("k = 0 for scheme {}", self.name()), k)),
        };
        let single = |r: Option<u32>| match r {
            None | Some(1) => Ok(1),
            Some(r) => Err(Error::param("r", format!("r = 1 for scheme {}", self.name()), r)),
        };
        let own = |graph: Level0| match level0 {
            None => Ok(graph),
            Some(g) if g == graph => Ok(graph),
            Some(g) => {
                let rule =
                    format!("{graph:?} or not set for scheme {} (its graph is fixed)", self.name());
                Err(Error::param("level0", rule, format!("{g:?}")))
            }
        };
        let majority = level0.unwrap_or_default();
        match self {
            Scheme::Hmos => Ok((majority, r.unwrap_or(3), k.unwrap_or(0))),
            Scheme::FlatMajority => Ok((majority, r.unwrap_or(3), flat(k)?)),
            Scheme::SingleCopyHashed => Ok((own(Level0::Hashed)?, single(r)?, flat(k)?)),
            Scheme::SingleCopyModulo => Ok((own(Level0::Modulo)?, single(r)?, flat(k)?)),
        }
    }

    /// The scheme as configs write it.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Hmos => "hmos",
            Scheme::FlatMajority => "flat_majority",
            Scheme::SingleCopyHashed => "single_copy_hashed",
            Scheme::SingleCopyModulo => "single_copy_modulo",
        }
    }
}

/// How a trace is priced.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pricing {
    /// D-BSP: an i-superstep costs `w + g_i h + l_i`.
    #[default]
    Dbsp,
    /// Flat BSP: every superstep at level 0's prices, `w + g_0 h + l_0`.
    FlatBsp,
}
netcore::display_config_name!(Pricing => name);

impl Pricing {
    /// The parameters a trace of a machine with `params` is priced with: `params` itself,
    /// or every level at `g_0`, `l_0`.
    pub fn apply(self, params: &DbspParams) -> Result<DbspParams, Error> {
        match self {
            Pricing::Dbsp => Ok(params.clone()),
            Pricing::FlatBsp => {
                let levels = params.g_levels().len();
                let g = vec![params.g_levels()[0]; levels];
                let l = vec![params.l_levels()[0]; levels];
                Ok(DbspParams::explicit(params.n(), g, l)?)
            }
        }
    }

    /// The pricing as configs write it.
    pub fn name(self) -> &'static str {
        match self {
            Pricing::Dbsp => "dbsp",
            Pricing::FlatBsp => "flat_bsp",
        }
    }
}
