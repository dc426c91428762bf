//! Study `actor-pram-hotspot`: every PPU of the wrapped butterfly reads one cell, on the
//! lockstep reference router (Baude, Section 5, Theorem 2: combining makes concurrent reads
//! cost no more than a permutation). With combining the forward pass takes `3n` rounds, within
//! a constant of the empty pass `3n − 1`; without combining the `N` requests reach the host
//! one by one and the pass grows like `N / (3n − 1)`.
//!
//! The same router also serves a hot spot of fetch-and-adds (every PPU adds `pid + 1` to one
//! cell, combined in network order, Choice 19) and an EREW permutation read (a random
//! permutation of the `N` cells), both with the default placement and ranked keys (Choice
//! 21; a permutation under identity placement and destination-major keys congests): Theorem 2 counts on combining for every concurrent access,
//! so a fetch-and-add step costs at most a constant times a permutation step
//! (`fetch_over_perm`, lockstep rounds of both passes).

use netcore::pram::{Access, AccessKind, FetchOp, Variant};
use netcore::rng::SimRng;
use netcore::study::{Claim, Column, Law, ModelError, ParamError, Plot, Study};
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use super::log_more;
use crate::hash::{HashFamily, KeyOrder};
use crate::ranade::{FetchOrder, LockstepRouter, PassStats};

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
    /// The same butterfly with the default placement and ranked keys (Choice 21): the
    /// fetch-and-add and permutation steps of `fetch_over_perm`.
    /// With combining only.
    hashed: Option<LockstepRouter>,
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
    /// With combining: rounds (forward + reverse) of the hot spot of `N` fetch-and-adds,
    /// network order (without, the `N` requests queue at one host, as the reads do).
    pub fetch_rounds: Option<u64>,
    /// Combines of that pass.
    pub fetch_combines: Option<u64>,
    /// With combining: rounds (forward + reverse) of an EREW permutation read of the `N`
    /// cells.
    pub perm_rounds: Option<u64>,
    /// `fetch_rounds / perm_rounds`.
    pub fetch_over_perm: Option<f64>,
    /// Every PPU received the cell's value once, and arrivals + combines = N; every
    /// fetch-and-add's reply is the cell's value plus the contributions before it in the
    /// reported serialization, the cell their total; every permutation read its cell.
    pub verified: bool,
}

/// The hot spot of fetch-and-adds (PPU `p` adds `p + 1` to cell 0, holding 42) in network
/// order, and whether its replies are the prefixes of its serialization (Choice 19).
fn fetch_hot_spot(router: &LockstepRouter) -> Result<(PassStats, bool), ModelError> {
    let nn = router.routers();
    let add = FetchOp::Add;
    let accesses: Vec<Access> = (0..nn)
        .map(|pid| Access { pid, kind: AccessKind::Fetch(add), addr: 0, value: i64::from(pid) + 1 })
        .collect();
    let mut memory = vec![42, 0];
    let s =
        router.step_pass(Variant::CrcwFetchOp(add), &accesses, &mut memory, FetchOrder::Network)?;
    let mut replies: Vec<(u32, i64)> = s.deliveries.iter().map(|d| (d.0, d.2)).collect();
    replies.sort_unstable();
    let mut x = 42;
    let mut ok = s.serialization.len() == 1 && replies.len() == nn as usize;
    for &pid in s.serialization.first().map_or(&[][..], |c| &c.1) {
        ok &= replies.get(pid as usize) == Some(&(pid, x));
        x += i64::from(pid) + 1;
    }
    Ok((s, ok && memory[0] == x && x == 42 + i64::from(nn) * (i64::from(nn) + 1) / 2))
}

/// An EREW permutation read of the `N` cells (PPU `p` reads cell `perm[p]`, holding
/// `perm[p]`), and whether every PPU got its cell.
fn permutation(router: &LockstepRouter, rng: &mut SimRng) -> Result<(PassStats, bool), ModelError> {
    let nn = router.routers();
    let mut perm: Vec<u32> = (0..nn).collect();
    perm.shuffle(rng);
    let accesses: Vec<Access> = (0..nn)
        .map(|pid| Access {
            pid,
            kind: AccessKind::Read,
            addr: u64::from(perm[pid as usize]),
            value: 0,
        })
        .collect();
    let mut memory: Vec<i64> = (0..i64::from(nn)).collect();
    let s = router.step_pass(Variant::Erew, &accesses, &mut memory, FetchOrder::Network)?;
    let ok = s.deliveries.len() == nn as usize
        && s.deliveries.iter().all(|d| perm.get(d.0 as usize).map(|&a| i64::from(a)) == Some(d.2));
    Ok((s, ok))
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
        let router = LockstepRouter::new(p.n, p.b, p.combining)?;
        let hashed = if p.combining {
            Some(router.clone().with_hashing(&HashFamily::Poly, KeyOrder::Ranked, 0)?)
        } else {
            None
        };
        Ok(HotspotPoint { router, hashed, n: p.n })
    }
    fn run(&self, p: &HotspotPoint, rng: &mut SimRng) -> Result<Vec<HotspotRow>, ModelError> {
        let nn = p.router.routers();
        let reads: Vec<(u32, u32)> = (0..nn).map(|pid| (pid, 1)).collect();
        let s = p.router.read_pass(&reads, &[0, 42])?;
        let mut pids: Vec<u32> = s.deliveries.iter().map(|d| d.0).collect();
        pids.sort_unstable();
        let verified = pids.iter().copied().eq(0..nn)
            && s.deliveries.iter().all(|d| d.2 == 42)
            && s.arrivals + s.combines == u64::from(nn);
        let (mut fetch, mut perm, mut ok) = (None, None, true);
        if let Some(hashed) = &p.hashed {
            let (f, fetch_ok) = fetch_hot_spot(hashed)?;
            let (q, perm_ok) = permutation(hashed, rng)?;
            ok = fetch_ok && perm_ok;
            (fetch, perm) = (Some(f), Some(q));
        }
        let fetch_rounds = fetch.as_ref().map(|f| f.r_fwd + f.r_rev);
        let perm_rounds = perm.as_ref().map(|q| q.r_fwd + q.r_rev);
        Ok(vec![HotspotRow {
            routers: nn,
            r_fwd: s.r_fwd,
            r_rev: s.r_rev,
            arrivals: s.arrivals,
            combines: s.combines,
            fwd_ratio: s.r_fwd as f64 / f64::from(3 * p.n - 1),
            fetch_rounds,
            fetch_combines: fetch.map(|f| f.combines),
            perm_rounds,
            fetch_over_perm: fetch_rounds.zip(perm_rounds).map(|(f, q)| f as f64 / q.max(1) as f64),
            verified: verified && ok,
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
            .rival(log_more("log^2 N rounds"))
            .of("Theorem 2"),
            Claim::grows(
                "the worst case without combining (the project's baseline): forward rounds / (3n - 1) grow with N (x3 at least)",
                "fwd_ratio",
                "n",
                3.0,
            )
            .only("combining", false)
            .illustration(),
            // An upper bound, not a result against rivals: the paper says combining serves
            // the fetch-and-ops "without any further time-loss", i.e. at most a constant times
            // a permutation step, and that is what the band checks (a slope above 0.25, e.g.
            // the log N-more law's +0.57, fails it). The measured ratio falls (slopes -0.47
            // and -0.31), nearer the law "log N less" (-0.70, inside the band) than the
            // constant law (0), so as a REPRODUCED result it could not tell the two apart;
            // both are still scored in the report (it was a result claim before).
            Claim::slope(
                "Theorem 2 (combining serves every concurrent access, fetch-and-ops included): with combining, a step of N fetch-and-adds to one cell (network order) costs at most a constant times an EREW permutation step: rounds / permutation rounds has a relative slope per doubling of n of at most 0.25 (an upper bound: the constant law 0 and the law log N less, -0.70, both meet it; the log N-more law, +0.57 on n = 2..7, does not)",
                "fetch_over_perm",
                "n",
                -1.0,
                0.25,
            )
            .only("combining", true)
            .result(Law::new("a constant times a permutation step"))
            .rival(Law::new("log N times a permutation step").log2("routers", 1.0))
            .rival(Law::new("a permutation step / log N").log2("routers", -1.0))
            .bound()
            .of("Theorem 2"),
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
                "fetch_rounds",
                "rounds (forward + reverse) of N fetch-and-adds to one cell, network order",
            ),
            Column::new("fetch_combines", "combines of the fetch-and-add pass"),
            Column::new(
                "perm_rounds",
                "rounds (forward + reverse) of an EREW permutation read of the N cells",
            ),
            Column::new("fetch_over_perm", "fetch_rounds / perm_rounds"),
            Column::new(
                "verified",
                "every PPU received the cell's value once, and arrivals + combines = N; fetch-and-add replies are the prefixes of the reported serialization; every permutation read got its cell",
            ),
        ]
    }

    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new("fwd-ratio", "hot spot: forward rounds / (3n - 1)", "n", &["fwd_ratio"])
                .series("combining"),
            Plot::new(
                "fetch-over-perm",
                "hot spot of fetch-and-adds: rounds / rounds of a permutation read",
                "n",
                &["fetch_over_perm"],
            )
            .series("combining"),
        ]
    }
}
