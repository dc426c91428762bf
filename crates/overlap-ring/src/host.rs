//! The host: a linear array of processors with per-link delays and the bandwidth `B` (paper
//! Section 2; `docs/models/overlap-ring.md`, Choices: `log n`), a host ring cut at its slowest link, and the array as a [`Fabric`] for the engine.
//!
//! A pebble injected at step `s` over a link of delay `d` is known at the start of step
//! `s + d`, so `P` pebbles ready at step 1 are all known after `d + ceil(P/B) - 1` steps
//! (paper, Section 1; [`crate::engine`]).

use netcore::delay::{DelayLaw, LinkDelays};
use netcore::fabric::{self, Fabric};
use netcore::rng::SimRng;
use netcore::topology::Topology;
use serde::Serialize;

use crate::error::{Error, Result};

/// `L = max(1, ceil(log2 n))` (`docs/models/overlap-ring.md`, Choices: `log n`).
pub fn log_n(n: usize) -> u32 {
    if n <= 2 { 1 } else { usize::BITS - (n - 1).leading_zeros() }
}

/// A host linear array `p_0..p_{n-1}`; link `i` joins `p_i` and `p_{i+1}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Host {
    /// `d_i >= 1` for the `n-1` links.
    delays: Vec<u32>,
    /// Bandwidth `B >= 1`: pebbles entering one directed link per step.
    bandwidth: u32,
}

impl Host {
    /// A host of `n` processors with the given link delays and bandwidth (`docs/models/overlap-ring.md`, Choices: errors).
    pub fn new(n: usize, delays: Vec<u32>, bandwidth: u32) -> Result<Self> {
        if n == 0 {
            return Err(Error::EmptyHost);
        }
        if delays.len() != n - 1 {
            return Err(Error::DelayCount { expected: n - 1, got: delays.len() });
        }
        if let Some(link) = delays.iter().position(|&d| d == 0) {
            return Err(Error::ZeroDelay { link });
        }
        if bandwidth == 0 {
            return Err(Error::ZeroBandwidth);
        }
        Ok(Self { delays, bandwidth })
    }

    /// A host of `n` processors whose delays are drawn from `law` on netcore's linear array
    /// (a single processor has no link to draw, as with explicit `delays = []`).
    pub fn from_law(n: usize, law: &DelayLaw, bandwidth: u32, rng: &mut SimRng) -> Result<Self> {
        match (n, law) {
            (0, _) => return Err(Error::EmptyHost),
            (1, DelayLaw::Explicit { delays }) => return Self::new(1, delays.clone(), bandwidth),
            (1, _) => {
                law.validate()?;
                return Self::new(1, Vec::new(), bandwidth);
            }
            _ => {}
        }
        let topo = Topology::linear_array(n as u32)?;
        let delays = LinkDelays::from_law(&topo, law, rng)?;
        Self::new(n, delays.as_slice().to_vec(), bandwidth)
    }

    /// The delays `d_i >= 1` of the `n - 1` links, link `i` joining `p_i` and `p_(i+1)`.
    pub fn delays(&self) -> &[u32] {
        &self.delays
    }

    /// Bandwidth `B >= 1`: pebbles entering one directed link per step.
    pub fn bandwidth(&self) -> u32 {
        self.bandwidth
    }

    /// Number of processors.
    pub fn n(&self) -> usize {
        self.delays.len() + 1
    }

    /// `d_max` (0 for a single processor).
    pub fn d_max(&self) -> u32 {
        self.delays.iter().copied().max().unwrap_or(0)
    }

    /// `d_ave` (0 for a single processor).
    pub fn d_ave(&self) -> f64 {
        if self.delays.is_empty() {
            return 0.0;
        }
        self.delays.iter().map(|&d| f64::from(d)).sum::<f64>() / self.delays.len() as f64
    }
}

impl Host {
    /// A host ring of `n` processors with `n` link delays (link `i` joins `p_i` and
    /// `p_(i+1 mod n)`), cut at its largest-delay link (lowest index on ties) and relabelled as
    /// a linear array starting just after the cut (`docs/models/overlap-ring.md`, Choices: ring and host ring; the cut link
    /// is never used).
    /// Returns the array and the ring position of array processor 0.
    pub fn from_ring(delays: &[u32], bandwidth: u32) -> Result<(Self, usize)> {
        let n = delays.len();
        if n == 0 {
            return Err(Error::EmptyHost);
        }
        if let Some(link) = delays.iter().position(|&d| d == 0) {
            return Err(Error::ZeroDelay { link });
        }
        let max = delays.iter().copied().max().unwrap_or(1);
        let cut = delays.iter().position(|&d| d == max).unwrap_or(0);
        let start = (cut + 1) % n;
        let array = (0..n - 1).map(|k| delays[(start + k) % n]).collect();
        Ok((Self::new(n, array, bandwidth)?, start))
    }
}

impl Fabric for Host {
    fn n(&self) -> usize {
        self.delays.len() + 1
    }
    fn bandwidth(&self) -> u32 {
        self.bandwidth
    }
    /// Directed link `2i` goes right over link `i` (`p_i -> p_(i+1)`), `2i+1` goes left.
    fn directed_delays(&self) -> Vec<u32> {
        fabric::directed_delays(&self.delays)
    }
    fn route(&self, from: usize, to: usize, out: &mut Vec<u32>) {
        fabric::linear_route(from, to, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_n_matches_spec() {
        assert_eq!([1, 2, 3, 4, 5, 8, 9].map(log_n), [1, 1, 2, 2, 3, 3, 4]);
    }

    /// Ring delays `[2, 9, 3, 9]`: cut at link 1 (the first 9), the array starts at `p_2`:
    /// links `3, 9, 2` (ring links 2, 3, 0).
    #[test]
    fn ring_cut_at_slowest_link() {
        let (host, start) = Host::from_ring(&[2, 9, 3, 9], 1).unwrap();
        assert_eq!((host.delays(), start), (&[3, 9, 2][..], 2));
        let mut route = Vec::new();
        Host::new(4, vec![1, 1, 1], 1).unwrap().route(3, 1, &mut route);
        assert_eq!(route, vec![5, 3]);
    }
}
