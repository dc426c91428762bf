//! Study `actor-pram-hotspot`: every PPU of the wrapped butterfly reads one cell, on the
//! lockstep reference router (Baude, Section 5, Theorem 2: combining makes concurrent reads
//! cost no more than a permutation). With combining the forward pass takes `3n` rounds, within
//! a constant of the empty pass `3n − 1`; without combining the `N` requests reach the host
//! one by one and the pass grows like `N / (3n − 1)`.

use netcore::rng::SimRng;
use netcore::study::{Claim, Column, Law, ModelError, ParamError, Plot, Study};
use serde::{Deserialize, Serialize};

use crate::ranade::LockstepRouter;

/// The study.
#[derive(Debug, Clone, Copy, Default)]
pub struct Hotspot;

/// One point.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HotspotParams {
    /// Butterfly dimension, `2..=9`.
    pub n: u32,
    /// Buffer capacity, `1..=64`.
    pub b: u32,
    /// Combine requests for one cell.
    pub combining: bool,
}

/// A validated point.
#[derive(Debug, Clone)]
pub struct HotspotPoint {
    router: LockstepRouter,
    n: u32,
}

/// One row.
#[derive(Debug, Clone, Serialize)]
pub struct HotspotRow {
    /// Routers `N`.
    pub routers: u32,
    /// Forward rounds.
    pub r_fwd: u64,
    /// Reverse rounds.
    pub r_rev: u64,
    /// Host arrivals.
    pub arrivals: u64,
    /// Combines.
    pub combines: u64,
    /// `r_fwd / (3n − 1)`.
    pub fwd_ratio: f64,
    /// Every PPU received the cell's value once, and arrivals + combines = N.
    pub verified: bool,
}

impl Study for Hotspot {
    type Params = HotspotParams;
    type Point = HotspotPoint;
    type Row = HotspotRow;

    fn name(&self) -> &'static str {
        "actor-pram-hotspot"
    }
    fn about(&self) -> &'static str {
        "Theorem 2 / combining: all N PPUs read one cell on the lockstep butterfly router; forward rounds vs 3n - 1"
    }
    fn point(&self, p: &HotspotParams) -> Result<HotspotPoint, ModelError> {
        if !(2..=9).contains(&p.n) {
            return Err(ParamError::new("n", "2 <= n <= 9", p.n).into());
        }
        if !(1..=64).contains(&p.b) {
            return Err(ParamError::new("b", "1 <= b <= 64", p.b).into());
        }
        Ok(HotspotPoint { router: LockstepRouter::new(p.n, p.b, p.combining)?, n: p.n })
    }
    fn run(&self, p: &HotspotPoint, _rng: &mut SimRng) -> Result<Vec<HotspotRow>, ModelError> {
        let nn = p.router.routers();
        let reads: Vec<(u32, u32)> = (0..nn).map(|pid| (pid, 1)).collect();
        let s = p.router.read_pass(&reads, &[0, 42])?;
        let mut pids: Vec<u32> = s.deliveries.iter().map(|d| d.0).collect();
        pids.sort_unstable();
        let verified = pids.iter().copied().eq(0..nn)
            && s.deliveries.iter().all(|d| d.2 == 42)
            && s.arrivals + s.combines == u64::from(nn);
        Ok(vec![HotspotRow {
            routers: nn,
            r_fwd: s.r_fwd,
            r_rev: s.r_rev,
            arrivals: s.arrivals,
            combines: s.combines,
            fwd_ratio: s.r_fwd as f64 / f64::from(3 * p.n - 1),
            verified,
        }])
    }
    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim::within(
                "Theorem 2 (combining serves concurrent reads without further time-loss): with combining, forward rounds / (3n - 1) stay within [1, 1.25] (the rival, log2 N more, spreads x3.3 over n = 2..7)",
                "fwd_ratio",
                1.0,
                1.25,
            )
            .only("combining", true)
            .result(Law::new("log N rounds (constant ratio)"))
            .rival(Law::new("log^2 N rounds (log2 N more)").log2("routers", 1.0))
            .of("Theorem 2"),
            Claim::grows(
                "the worst case without combining (the project's baseline): forward rounds / (3n - 1) grow with N (x3 at least)",
                "fwd_ratio",
                "n",
                3.0,
            )
            .only("combining", false)
            .illustration(),
        ]
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("n", "butterfly dimension n (levels)"),
            Column::new("b", "buffer capacity b (packets per edge)"),
            Column::new("combining", "combine requests for one cell"),
            Column::new("routers", "routers N"),
            Column::new("r_fwd", "forward rounds"),
            Column::new("r_rev", "reverse rounds"),
            Column::new("arrivals", "host arrivals"),
            Column::new("combines", "combines"),
            Column::new("fwd_ratio", "r_fwd / (3n − 1)"),
            Column::new(
                "verified",
                "every PPU received the cell's value once, and arrivals + combines = N",
            ),
        ]
    }

    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new("fwd-ratio", "hot spot: forward rounds / (3n - 1)", "n", &["fwd_ratio"])
                .series("combining"),
        ]
    }
}
