//! Study `actor-pram-permutation`: every PPU of the wrapped butterfly reads the cell of a
//! random permutation, on the lockstep reference router (Baude, Section 5, Theorem 2: with
//! memory placed by universal hashing, `N` requests are routed in `O(log N)` rounds with high
//! probability). With Ranade's random ranks (Choice 21 of `docs/models/actor-pram.md`) the
//! forward pass stays within a constant factor of the empty pass `3n − 1`; with
//! destination-major keys (rank 0, Choice 13), the baseline, it grows faster. "With high
//! probability" is read as a tail: a row runs `trials` independent reads (each its own hash
//! seed and permutation) and gives the median, 90th and 99th percentile and maximum of the
//! forward rounds over `3n − 1`.

use netcore::rng::SimRng;
use netcore::study::{Claim, Column, Law, ModelError, ParamError, Plot, Study, Verdict};
use rand::Rng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use super::{THEOREM2_BAND, log_more, sqrt_log_more};
use crate::hash::{HashFamily, KeyOrder};
use crate::ranade::LockstepRouter;

/// The study.
#[derive(Debug, Clone, Copy, Default)]
pub struct Permutation;

/// One point.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PermutationParams {
    /// Butterfly dimension, `2..=14`.
    pub n: u32,
    /// Buffer capacity, `1..=64`.
    pub b: u32,
    /// Independent reads per row, `1..=1000` (default 1): each draws its own hash seed and
    /// permutation from the row's stream; the row gives their means and tail quantiles.
    #[serde(default = "default_trials")]
    pub trials: u32,
    /// The key order (default: ranked).
    #[serde(default)]
    pub keys: KeyOrder,
    /// The placement (default: the polynomial family with `k = max(2, ceil(log2 N))`); the
    /// hash seed is drawn from the row's stream.
    #[serde(default)]
    pub hash: HashFamily,
}

fn default_trials() -> u32 {
    1
}

/// The largest butterfly dimension of the study (a lockstep pass at `n = 14` holds about
/// 530 MB and takes about 10 s of one core).
pub const MAX_N: u32 = 14;

/// A validated point.
#[derive(Debug, Clone)]
pub struct PermutationPoint {
    router: LockstepRouter,
    n: u32,
    trials: u32,
    keys: KeyOrder,
    hash: HashFamily,
}

/// One row: `trials` random permutations, drawn from the point's stream.
#[derive(Debug, Clone, Serialize)]
pub struct PermutationRow {
    /// Routers `N`.
    pub routers: u32,
    /// Forward rounds (mean over the trials).
    pub r_fwd: f64,
    /// Reverse rounds (mean over the trials).
    pub r_rev: f64,
    /// The largest buffer occupancy over the trials.
    pub max_occupancy: u64,
    /// `r_fwd / (3n − 1)` (mean over the trials).
    pub fwd_ratio: f64,
    /// `r_rev / (3n − 1)` (mean over the trials).
    pub rev_ratio: f64,
    /// The median over the trials of the forward rounds over `3n − 1` (nearest rank).
    pub fwd_q50: f64,
    /// The 90th percentile (nearest rank).
    pub fwd_q90: f64,
    /// The 99th percentile (nearest rank; the maximum below 100 trials).
    pub fwd_q99: f64,
    /// The maximum.
    pub fwd_max: f64,
    /// Every PPU received the value of its cell once, in every trial.
    pub verified: bool,
}

/// The nearest-rank `q`-quantile of `sorted` (ascending, not empty): the least value with at
/// least a fraction `q` of the values at or below it.
pub fn nearest_rank(sorted: &[u64], q: f64) -> u64 {
    let rank = (q * sorted.len() as f64).ceil().max(1.0) as usize;
    sorted[rank.min(sorted.len()) - 1]
}

impl Permutation {
    /// One read of a random permutation: `(N, r_fwd, r_rev, max_occupancy, verified)`.
    fn trial(
        &self,
        p: &PermutationPoint,
        rng: &mut SimRng,
    ) -> Result<(u32, u64, u64, u64, bool), ModelError> {
        let router = p.router.clone().with_hashing(&p.hash, p.keys, rng.next_u64())?;
        let nn = router.routers();
        let mut perm: Vec<u32> = (0..nn).collect();
        perm.shuffle(rng);
        let reads: Vec<(u32, u32)> =
            perm.iter().copied().zip(0..).map(|(a, pid)| (pid, a)).collect();
        // Cell a holds 10 a + 1, so every reply names its cell.
        let memory: Vec<i64> = (0..i64::from(nn)).map(|a| 10 * a + 1).collect();
        let s = router.read_pass(&reads, &memory)?;
        let mut got: Vec<(u32, i64)> = s.deliveries.iter().map(|d| (d.0, d.2)).collect();
        got.sort_unstable();
        let verified = got
            .iter()
            .map(|&(pid, v)| (pid, v))
            .eq(reads.iter().map(|&(pid, a)| (pid, 10 * i64::from(a) + 1)));
        Ok((nn, s.r_fwd, s.r_rev, s.max_occupancy, verified))
    }
}

impl Study for Permutation {
    type Params = PermutationParams;
    type Point = PermutationPoint;
    type Row = PermutationRow;

    fn name(&self) -> &'static str {
        "actor-pram-permutation"
    }
    fn about(&self) -> &'static str {
        "Theorem 2: a random permutation read on the lockstep butterfly router, hashed placement, ranked vs destination-major keys; rounds vs 3n - 1, with their tail over a row's trials"
    }
    fn point(&self, p: &PermutationParams) -> Result<PermutationPoint, ModelError> {
        if !(2..=MAX_N).contains(&p.n) {
            return Err(ParamError::new("n", "2 <= n <= 14", p.n).into());
        }
        if !(1..=64).contains(&p.b) {
            return Err(ParamError::new("b", "1 <= b <= 64", p.b).into());
        }
        if !(1..=1000).contains(&p.trials) {
            return Err(ParamError::new("trials", "1 <= trials <= 1000", p.trials).into());
        }
        let router = LockstepRouter::new(p.n, p.b, true)?;
        // The family is checked once here (a table must fit N); each row draws its own seed.
        router.clone().with_hashing(&p.hash, p.keys, 0)?;
        Ok(PermutationPoint {
            router,
            n: p.n,
            trials: p.trials,
            keys: p.keys,
            hash: p.hash.clone(),
        })
    }
    fn run(
        &self,
        p: &PermutationPoint,
        rng: &mut SimRng,
    ) -> Result<Vec<PermutationRow>, ModelError> {
        let mut fwd = Vec::with_capacity(p.trials as usize);
        let (mut rev, mut max_occupancy, mut verified) = (0u64, 0u64, true);
        let mut routers = 0;
        for _ in 0..p.trials {
            let s = self.trial(p, rng)?;
            routers = s.0;
            fwd.push(s.1);
            rev += s.2;
            max_occupancy = max_occupancy.max(s.3);
            verified &= s.4;
        }
        fwd.sort_unstable();
        let empty = f64::from(3 * p.n - 1);
        let trials = f64::from(p.trials);
        let r_fwd = fwd.iter().sum::<u64>() as f64 / trials;
        let r_rev = rev as f64 / trials;
        let ratio = |q: f64| nearest_rank(&fwd, q) as f64 / empty;
        Ok(vec![PermutationRow {
            routers,
            r_fwd,
            r_rev,
            max_occupancy,
            fwd_ratio: r_fwd / empty,
            rev_ratio: r_rev / empty,
            fwd_q50: ratio(0.5),
            fwd_q90: ratio(0.9),
            fwd_q99: ratio(0.99),
            fwd_max: ratio(1.0),
            verified,
        }])
    }
    fn claims(&self) -> Vec<Claim> {
        // Theorem 2's routing: N requests in O(log N) rounds with high probability, so the
        // forward rounds over the empty pass's 3n - 1 stay bounded. The rivals: one log N
        // more (relative slope 0.53 per doubling of n on n = 2..10) and the nearest,
        // sqrt(log N) more (0.29), whose halfway point sets the slope bands (THEOREM2_BAND,
        // Choice 29). Until the 2026-12-02 review the bands were halfway to log N more only
        // and the b = 1 rows were read by no claim (docs/models/actor-pram.md#theorem-2-routing-rounds).
        let constant = || Law::new("log N rounds (constant ratio)");
        let log_more_rounds = || log_more("log^2 N rounds");
        let sqrt_more = || sqrt_log_more("log^1.5 N rounds");
        let why = "docs/models/actor-pram.md#theorem-2-routing-rounds";
        let band = THEOREM2_BAND;
        vec![
            Claim::all_true("every PPU gets the value of its cell once", "verified").correctness(),
            Claim::within(
                "Theorem 2: with random ranks, b = 2, forward rounds / (3n - 1) stays within [1, 3] on every trial (the largest trial 2.55 on n = 2..10, 5 trials per row; the rival log^2 N spreads x4.4 there, log^1.5 N stays inside)",
                "fwd_max",
                1.0,
                3.0,
            )
            .only("keys", "ranked")
            .only("b", 2)
            .result(constant())
            .rival(sqrt_more())
            .rival(log_more_rounds())
            .of("Theorem 2")
            .expect(Verdict::Inconclusive, why),
            Claim::slope(
                "Theorem 2: with random ranks, b = 2, forward rounds / (3n - 1) changes by at most 0.145 of its level per doubling of n (halfway to the nearest rival log^1.5 N, 0.29 on n = 2..10; log2 N more gives 0.53)",
                "fwd_ratio",
                "n",
                -band,
                band,
            )
            .only("keys", "ranked")
            .only("b", 2)
            .result(constant())
            .rival(sqrt_more())
            .rival(log_more_rounds())
            .of("Theorem 2")
            .expect(Verdict::NotReproduced, why),
            Claim::slope(
                "Theorem 2 at b = 1 (a constant buffer, as the theorem allows): with random ranks, forward rounds / (3n - 1) changes by at most 0.145 of its level per doubling of n (rivals as above)",
                "fwd_ratio",
                "n",
                -band,
                band,
            )
            .only("keys", "ranked")
            .only("b", 1)
            .result(constant())
            .rival(sqrt_more())
            .rival(log_more_rounds())
            .of("Theorem 2")
            .expect(Verdict::NotReproduced, why),
            tail_claim(
                "Theorem 2 with high probability, as a tail: with random ranks, b = 2, polynomial placement, the 99th percentile over a row's trials of forward rounds / (3n - 1) (nearest rank: the maximum below 100 trials) changes by at most 0.145 of its level per doubling of n (halfway to the nearest rival log^1.5 N, 0.29 on n = 2..10; log2 N more scores 0.53 there, 0.50 on n = 2..14)",
                "fwd_q99",
                "tail",
            )
            .expect(Verdict::NotReproduced, why),
            tail_claim(
                "Theorem 2 with high probability, the 90th percentile: with random ranks, b = 2, polynomial placement, the 90th percentile over a row's trials of forward rounds / (3n - 1) changes by at most 0.145 of its level per doubling of n (rivals as for the 99th)",
                "fwd_q90",
                "p90",
            )
            .expect(Verdict::NotReproduced, why),
            Claim::grows(
                "the project's baseline: with destination-major keys, forward rounds / (3n - 1) grows with n, b = 2 (x1.5 at least)",
                "fwd_ratio",
                "n",
                1.5,
            )
            .only("keys", "destination-major")
            .only("b", 2)
            .illustration(),
        ]
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("n", "butterfly dimension n (levels)"),
            Column::new("b", "buffer capacity b (packets per edge)"),
            Column::new("keys", "the key order (default: ranked)"),
            Column::new(
                "hash",
                "the placement (default: the polynomial family with k = max(2, ceil(log2 N))); the hash seed is drawn from the row's stream",
            ),
            Column::new(
                "trials",
                "independent reads per row (each its own hash seed and permutation)",
            ),
            Column::new("routers", "routers N"),
            Column::new("r_fwd", "forward rounds (mean over the trials)"),
            Column::new("r_rev", "reverse rounds (mean over the trials)"),
            Column::new("max_occupancy", "the largest buffer occupancy over the trials"),
            Column::new("fwd_ratio", "r_fwd / (3n − 1) (mean over the trials)"),
            Column::new("rev_ratio", "r_rev / (3n − 1) (mean over the trials)"),
            Column::new("fwd_q50", "median over the trials of forward rounds / (3n − 1)"),
            Column::new("fwd_q90", "90th percentile of forward rounds / (3n − 1)"),
            Column::new("fwd_q99", "99th percentile of forward rounds / (3n − 1)"),
            Column::new("fwd_max", "maximum over the trials of forward rounds / (3n − 1)"),
            Column::new("verified", "every PPU received the value of its cell once, every trial"),
        ]
    }

    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new(
                "fwd-ratio",
                "permutation read: forward rounds / (3n - 1)",
                "n",
                &["fwd_ratio"],
            )
            .series("keys")
            .only("b", 2)
            .only("hash", "poly"),
            Plot::new(
                "tails",
                "permutation read, random ranks, b = 2: quantiles over the trials of forward rounds / (3n - 1)",
                "n",
                &["fwd_q50", "fwd_q90", "fwd_q99", "fwd_max"],
            )
            .only("keys", "ranked")
            .only("b", 2)
            .only("hash", "poly"),
        ]
    }
}

/// A quantile `y` of forward rounds / (3n - 1) over a row's trials (random ranks, b = 2,
/// polynomial placement) changes by at most [`THEOREM2_BAND`] of its level per doubling of
/// n: Theorem 2's `log N` rounds with high probability, against `sqrt(log2 N)` and one
/// `log2 N` more (`what` names the quantile in the laws).
fn tail_claim(statement: &str, y: &str, what: &str) -> Claim {
    Claim::slope(statement, y, "n", -THEOREM2_BAND, THEOREM2_BAND)
        .only("keys", "ranked")
        .only("b", 2)
        .only("hash", "poly")
        .result(Law::new(&format!("log N rounds, {what} (constant ratio)")))
        .rival(sqrt_log_more(&format!("log^1.5 N rounds, {what}")))
        .rival(log_more(&format!("log^2 N rounds, {what}")))
        .of("Theorem 2")
}
