//! The machines a library instance runs on, a closed set: the reference interpreter, the actor
//! butterfly, the D-BSP with HMOS under each pair of [`DbspExponents`], and the flat and
//! hierarchical H-PRAM under each [`HpramPreset`]. A row names its machine by
//! [`Machine::as_str`] (`docs/models/cross-pram.md`).

use std::fmt;

use hpram::{Preset, SyncScale};
use serde::{Serialize, Serializer};

/// The `(alpha, beta)` pairs of the D-BSP runs: `g_i = (n/2^i)^alpha`, `l_i = (n/2^i)^beta`.
/// Both satisfy Theorem 3's `eps < alpha / (2 - alpha)` at `eps = 0.3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DbspExponents {
    /// `(1/2, 1/2)`: the 2-D mesh the paper's running example prices.
    Mesh,
    /// `(3/4, 1/2)`: a machine whose bandwidth degrades faster than its latency
    /// (`alpha >= beta`, Corollary 1's second case).
    SteepBandwidth,
}

impl DbspExponents {
    /// Every pair, in the order of the rows.
    pub const ALL: [DbspExponents; 2] = [DbspExponents::Mesh, DbspExponents::SteepBandwidth];

    /// `(alpha, beta)`.
    pub const fn alpha_beta(self) -> (f64, f64) {
        match self {
            DbspExponents::Mesh => (0.5, 0.5),
            DbspExponents::SteepBandwidth => (0.75, 0.5),
        }
    }
}

/// The H-PRAM presets: the hypercube and the 2-D mesh, synchronisation scaled by the diameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HpramPreset {
    /// [`Preset::Hypercube`] with [`SyncScale::Diam`].
    Hypercube,
    /// [`Preset::Mesh2D`] with [`SyncScale::Diam`].
    Mesh2d,
}

impl HpramPreset {
    /// Every preset, in the order of the rows.
    pub const ALL: [HpramPreset; 2] = [HpramPreset::Hypercube, HpramPreset::Mesh2d];

    /// The cost model.
    pub const fn preset(self) -> Preset {
        match self {
            HpramPreset::Hypercube => Preset::Hypercube(SyncScale::Diam),
            HpramPreset::Mesh2d => Preset::Mesh2D(SyncScale::Diam),
        }
    }
}

/// The machine of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Machine {
    /// netcore's reference interpreter.
    Reference,
    /// actor-pram's butterfly translation on actors.
    ActorButterfly,
    /// dbsp-hmos's D-BSP with the HMOS access protocol, priced with the exponents.
    Dbsp(DbspExponents),
    /// The program as a flat H-PRAM (hpram), priced under the preset.
    HpramFlat(HpramPreset),
    /// hpram's hierarchical algorithm for the same function, priced under the preset.
    HpramHier(HpramPreset),
}

impl Machine {
    /// The machine's name in a row: `reference`, `actor-butterfly`, `dbsp-hmos a=.. b=..`,
    /// `hpram-flat <preset>` or `hpram-hier <preset>`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Machine::Reference => "reference",
            Machine::ActorButterfly => "actor-butterfly",
            Machine::Dbsp(DbspExponents::Mesh) => "dbsp-hmos a=0.5 b=0.5",
            Machine::Dbsp(DbspExponents::SteepBandwidth) => "dbsp-hmos a=0.75 b=0.5",
            Machine::HpramFlat(HpramPreset::Hypercube) => "hpram-flat hypercube",
            Machine::HpramFlat(HpramPreset::Mesh2d) => "hpram-flat mesh2d",
            Machine::HpramHier(HpramPreset::Hypercube) => "hpram-hier hypercube",
            Machine::HpramHier(HpramPreset::Mesh2d) => "hpram-hier mesh2d",
        }
    }

    /// What the machine's bound on the slowdown is, where it has one: a paper's `O()` taken
    /// with constant 1, so a slowdown above it is a constant, not a violation.
    pub const fn bound_name(self) -> Option<&'static str> {
        match self {
            Machine::ActorButterfly => Some("Baude Theorem 2's log2 N, constant 1"),
            Machine::Dbsp(_) => {
                Some("Fantozzi et al. Theorem 3's cost per step x G / T, constant 1")
            }
            Machine::Reference | Machine::HpramFlat(_) | Machine::HpramHier(_) => None,
        }
    }
}

impl fmt::Display for Machine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl Serialize for Machine {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A D-BSP machine's name carries its exponents as Rust prints them.
    #[test]
    fn dbsp_names_carry_the_exponents() {
        for exponents in DbspExponents::ALL {
            let (alpha, beta) = exponents.alpha_beta();
            let name = format!("dbsp-hmos a={alpha} b={beta}");
            assert_eq!(Machine::Dbsp(exponents).as_str(), name);
        }
    }
}
