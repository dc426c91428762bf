//! The constructs of a network execution whose cost is measured (paper Sections 3.1-3.2), and
//! one measurement of each.

use serde::Serialize;

/// The constructs whose network cost is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Construct {
    /// A communication step: requests routed to the modules and replies back (`ℓ(P')`).
    PramStep,
    /// An α-synchronisation: a scan over the sub-network (`s_α(P')`).
    Barrier,
    /// A β-synchronisation: a scan over the children's designated nodes (`s_β(Q, P')`).
    BetaSync,
    /// A partition step's two permutations, unhash + rehash in and out (paper Section 3.2's
    /// `O((N'/P')ℓ(P'))` each).
    Permutation,
}

impl std::fmt::Display for Construct {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Construct::PramStep => "PRAM step",
            Construct::Barrier => "barrier (alpha-sync)",
            Construct::BetaSync => "beta-sync",
            Construct::Permutation => "partition permutations (in + out)",
        })
    }
}

/// One construct's measurements at one level and size.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measured {
    /// The construct.
    pub construct: Construct,
    /// The level of the sub-PRAM (for β and permutations: of the parent).
    pub level: u32,
    /// `P'` (the parent's for β and permutations).
    pub procs: u64,
    /// `Q` (β and permutations).
    pub q: Option<u64>,
    /// How many were executed.
    pub count: u64,
    /// Their mean time.
    pub mean: f64,
    /// Their largest time.
    pub max: u64,
}
