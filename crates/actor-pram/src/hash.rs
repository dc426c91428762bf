//! Placement of global memory and packet ranks (Baude, Section 5, proof of Theorem 2: memory
//! is distributed by universal hashing \[MV84\] so that Ranade's routing \[Ran87\] needs
//! `O(log N)` rounds with high probability; Choice 21 of `docs/models/actor-pram.md`).
//!
//! *Placement* `h: addr -> [0, N)` puts address `a` at router `h(a)` (router
//! `<h mod n, h div n>`): a polynomial of degree `k - 1` over the field of `P = 2^61 - 1`
//! with coefficients drawn from `netcore::rng::seeded(seed, 0)`, reduced `mod N`; or the
//! identity `a mod N` and a table, for hand cases and adversarial placement; or a given
//! polynomial over a given prime field ([`FixedPoly`], a published hash: `hash = { fixed =
//! ... }`), which the seed does not touch. [`Hashing::used`] returns the placement in use as a
//! config value (a drawn polynomial as `fixed`), so a seeded run's placement can be fixed in a
//! config.
//!
//! *Rank* `g: addr -> [0, 2^32)`: the first field of a packet's key (Ranade's random rank, so
//! that the order in which packets meet is random and independent of their destinations),
//! a polynomial with coefficients from `netcore::rng::seeded(seed, 1)`; rank 0 on every
//! address gives the destination-major order of Choice 13, kept as a baseline.

#![warn(clippy::cast_possible_truncation)]
use netcore::rng::seeded;
use serde::{Deserialize, Serialize};

use crate::error::Error;

mod poly;
pub use poly::{FixedPoly, MIN_MODULUS};

/// The Mersenne prime `2^61 - 1`, the field of the polynomial families.
pub const P61: u64 = (1 << 61) - 1;

/// How addresses are placed on the routers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HashFamily {
    /// Address `a` at router `a mod N`.
    Identity,
    /// Address `a` at router `table[a mod len]` (every entry `< N`).
    Table(Vec<u32>),
    /// A degree-1 polynomial (pairwise independent only).
    Linear,
    /// A polynomial with `k = max(2, ceil(log2 N))` coefficients (`k`-wise independence, as
    /// the high-probability analyses assume).
    #[default]
    Poly,
    /// A polynomial with `k` coefficients, `2 <= k <= 64`.
    PolyK(u32),
    /// The given polynomial (a published hash: no coefficient drawn from the seed).
    Fixed(FixedPoly),
}

impl std::fmt::Display for HashFamily {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HashFamily::Identity => f.write_str("identity"),
            HashFamily::Table(t) => write!(f, "table of {}", t.len()),
            HashFamily::Linear => f.write_str("linear"),
            HashFamily::Poly => f.write_str("poly"),
            HashFamily::PolyK(k) => write!(f, "poly-k {k}"),
            HashFamily::Fixed(p) => write!(f, "fixed degree-{}", p.degree()),
        }
    }
}

/// The order of packet keys (Choice 13, Choice 21).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KeyOrder {
    /// `(rank, dest, addr, tag)` with a random rank per address (Ranade's keys).
    #[default]
    Ranked,
    /// Rank 0 on every address: packets sorted by destination.
    DestinationMajor,
}

impl std::fmt::Display for KeyOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            KeyOrder::Ranked => "ranked",
            KeyOrder::DestinationMajor => "destination-major",
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Place {
    Identity,
    Table(Vec<u32>),
    Poly(FixedPoly),
}

/// A drawn placement and rank function for `N` routers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hashing {
    routers: u32,
    place: Place,
    rank: Option<FixedPoly>,
}

/// `max(2, ceil(log2 n))`.
fn default_k(routers: u32) -> u32 {
    (u32::BITS - routers.saturating_sub(1).leading_zeros()).max(2)
}

impl Hashing {
    /// Identity placement and destination-major keys (the hand cases of Choice 13).
    pub fn identity(routers: u32) -> Self {
        Self { routers, place: Place::Identity, rank: None }
    }

    /// Draws the placement of `family` and, for ranked keys, the rank polynomial (with the
    /// default `k`) from `seed` for `routers >= 1` routers.
    pub fn new(
        family: &HashFamily,
        keys: KeyOrder,
        seed: u64,
        routers: u32,
    ) -> Result<Self, Error> {
        let poly_k = |k: u32| -> Result<Place, Error> {
            if !(2..=64).contains(&k) {
                return Err(Error::InvalidConfig {
                    field: "hash",
                    rule: "poly-k with 2 <= k <= 64",
                    got: k.to_string(),
                });
            }
            Ok(Place::Poly(FixedPoly::draw(k, &mut seeded(seed, 0))))
        };
        let place = match family {
            HashFamily::Identity => Place::Identity,
            HashFamily::Table(t) => {
                if t.is_empty() {
                    return Err(Error::InvalidConfig {
                        field: "hash",
                        rule: "a non-empty table",
                        got: "[]".into(),
                    });
                }
                if let Some(&bad) = t.iter().find(|&&x| x >= routers) {
                    return Err(Error::InvalidConfig {
                        field: "hash",
                        rule: "table entries < N",
                        got: format!("{bad} for N = {routers}"),
                    });
                }
                Place::Table(t.clone())
            }
            HashFamily::Linear => poly_k(2)?,
            HashFamily::Poly => poly_k(default_k(routers))?,
            HashFamily::PolyK(k) => poly_k(*k)?,
            HashFamily::Fixed(p) => Place::Poly(p.clone()),
        };
        let rank = match keys {
            KeyOrder::Ranked => Some(FixedPoly::draw(default_k(routers), &mut seeded(seed, 1))),
            KeyOrder::DestinationMajor => None,
        };
        Ok(Self { routers, place, rank })
    }

    /// Routers `N`.
    pub fn routers(&self) -> u32 {
        self.routers
    }

    /// The router hosting address `addr`.
    pub fn dest(&self, addr: u32) -> u32 {
        let n = u64::from(self.routers.max(1));
        match &self.place {
            Place::Identity => addr % self.routers.max(1),
            // The table is non-empty; the index is below its length.
            Place::Table(t) => t[addr as usize % t.len()],
            // The value is below N <= u32::MAX (the fallback, no router, is refused by the
            // router as a routing error).
            Place::Poly(p) => u32::try_from(p.eval(u64::from(addr), n)).unwrap_or(u32::MAX),
        }
    }

    /// The parameters in words, as a hash actor `H_i` holds them (Section 5: "one is
    /// dedicated to apply the hash function"): the placement's coefficients (a table's
    /// entries, none for identity) and the rank's coefficients (none for destination-major).
    pub fn words(&self) -> u64 {
        let place = match &self.place {
            Place::Identity => 0,
            Place::Table(t) => t.len(),
            Place::Poly(p) => p.coefficients().len(),
        };
        (place + self.rank.as_ref().map_or(0, |p| p.coefficients().len())) as u64
    }

    /// The placement in use as a `hash` config value that reproduces it, whatever the seed:
    /// `fixed` with the polynomial for every polynomial family (drawn or given), `identity`,
    /// or the `table` (Choice 21).
    pub fn used(&self) -> HashFamily {
        match &self.place {
            Place::Identity => HashFamily::Identity,
            Place::Table(t) => HashFamily::Table(t.clone()),
            Place::Poly(p) => HashFamily::Fixed(p.clone()),
        }
    }

    /// The rank of address `addr` (0 under destination-major keys).
    pub fn rank(&self, addr: u32) -> u32 {
        // The value is below 2^32, so the fallback is never taken.
        self.rank
            .as_ref()
            .map_or(0, |p| u32::try_from(p.eval(u64::from(addr), 1 << 32)).unwrap_or(u32::MAX))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Horner's rule by hand: `3 + 5x + 7x^2` at `x = 2` is `3 + 10 + 28 = 41`; `mod 10` is 1;
    /// at `x = P + 2` the same (the argument is reduced mod P first).
    #[test]
    fn poly_eval_by_hand() {
        let p = FixedPoly::new(2, P61, vec![3, 5, 7]).expect("valid");
        assert_eq!(p.eval(2, 1000), 41);
        assert_eq!(p.eval(2, 10), 1);
        assert_eq!(p.eval(P61 + 2, 1000), 41);
        // (P - 1)^2 = 1 mod P: coefficients [0, 0, P - 1] at x = P - 1 give (P - 1)^3 = P - 1.
        let q = FixedPoly::new(2, P61, vec![0, 0, P61 - 1]).expect("valid");
        assert_eq!(q.eval(P61 - 1, u64::MAX), u128::from(P61 - 1));
    }

    #[test]
    fn default_k_is_ceil_log2() {
        assert_eq!(default_k(1), 2);
        assert_eq!(default_k(8), 3);
        assert_eq!(default_k(9), 4);
        assert_eq!(default_k(24), 5);
    }
}
