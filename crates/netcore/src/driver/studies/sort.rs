//! Study `bsp-sort`: the BSP sorts of [`SortAlgorithm`] (Batcher's bitonic sort and Cole's
//! cascading merge sort) on `N = n p` keys, `n` per processor, against Goodrich's bound of
//! `O(log N / log(h + 1))` rounds with `h = N / p = n` (Goodrich, Communication-Efficient
//! Parallel Sorting; the sort step 2 of the LogP-on-BSP cycle simulation names, Bilardi, Herley,
//! Pietracaprina, Pucci, proof of Theorem 2). The bound is taken as `log2 p / log2(n + 1)`
//! with constant 1 (`docs/models/netcore.md`, Choices, "The sort study's bound").

use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::bsp::primitives::SortAlgorithm;
use crate::bsp::{Bsp, BspMachine, BspParams};
use crate::rng::SimRng;
use crate::study::{Claim, Column, JsonObject, Law, ModelError, ParamError, Plot, Study};

mod findings;

/// The `bsp-sort` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct SortStudy;

/// Smallest and largest `log2 p`.
const LOG_P: std::ops::RangeInclusive<u32> = 4..=16;
/// Smallest and largest keys per processor `n`.
const N: std::ops::RangeInclusive<u32> = 1..=1024;
/// The values of a duplicate-heavy key draw: `0..DUPLICATE_VALUES`.
const DUPLICATE_VALUES: u64 = 16;

/// How the keys are drawn from the point's seeded stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KeyDraw {
    /// Uniform 64-bit keys (distinct with overwhelming probability).
    Uniform,
    /// Uniform over 16 values: every key has about `N / 16` equal ones.
    Duplicates,
}
crate::display_config_name!(KeyDraw => as_str);

impl KeyDraw {
    /// The config name.
    pub const fn as_str(self) -> &'static str {
        match self {
            KeyDraw::Uniform => "uniform",
            KeyDraw::Duplicates => "duplicates",
        }
    }

    /// One key from the point's stream.
    fn draw(self, rng: &mut SimRng) -> u64 {
        match self {
            KeyDraw::Uniform => rng.random::<u64>(),
            KeyDraw::Duplicates => rng.random_range(0..DUPLICATE_VALUES),
        }
    }
}

/// One point: `p = 2^log_p` processors with `n` keys each, sorted by `sort` on BSP(g, l).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SortParams {
    /// log2 of the number of processors, 4..=16.
    pub log_p: u32,
    /// Keys per processor, 1..=1024 (every block holds exactly `n` keys).
    pub n: u32,
    /// The sort.
    pub sort: SortAlgorithm,
    /// How the keys are drawn.
    pub keys: KeyDraw,
    /// BSP gap g.
    pub g: u64,
    /// BSP latency l.
    pub l: u64,
}

/// One row of `bsp-sort`.
#[derive(Debug, Clone, Serialize)]
pub struct SortRow {
    /// Processors p.
    pub p: u32,
    /// Keys in total, N = n p.
    pub keys_total: u64,
    /// Supersteps executed (the machine's ledger).
    pub supersteps: usize,
    /// The ledger's supersteps equal `SortAlgorithm::supersteps(p)`.
    pub steps_as_stated: bool,
    /// The largest h of any superstep.
    pub max_h: u64,
    /// Total local work, sum of w over the ledger.
    pub work: u64,
    /// Communication cost, sum of g h + l over the supersteps.
    pub comm: f64,
    /// Total BSP cost, work + comm.
    pub cost: f64,
    /// Goodrich's round bound with constant 1: `log2 p / log2(n + 1)`.
    pub bound: f64,
    /// supersteps / bound.
    pub steps_over_bound: f64,
    /// The output is the sequential sort of the same keys, `n` per block from processor 0.
    pub verified: bool,
}

/// A validated point.
#[derive(Debug, Clone)]
pub struct SortPoint {
    bsp: BspParams,
    n: u32,
    sort: SortAlgorithm,
    keys: KeyDraw,
}

/// The peak memory of a sort of `keys` 64-bit keys on `p` processors, from this study's runs:
/// the bitonic sort moves blocks (70 bytes per key: 4.4 GB for 2^26 keys); the cascade holds
/// every list element and several messages per element in flight, and every processor its
/// lists of every height (8 KiB per processor and 1300 bytes per key: measured 534 MB at
/// p = 2^16 with one key each, 5.48 GB at p = 2^16 with 64, 0.88 GB at p = 2^10 with 1024);
/// the point is refused above [`crate::limits::DEFAULT_MEMORY`] (`docs/models/netcore.md`,
/// Limits). `bsp-bitonic` refuses its points by the bitonic sort's estimate too.
pub(super) fn memory_estimate(sort: SortAlgorithm, p: u64, keys: u64) -> u64 {
    match sort {
        SortAlgorithm::Bitonic => keys.saturating_mul(70),
        SortAlgorithm::Cascade => p.saturating_mul(8192).saturating_add(keys.saturating_mul(1300)),
    }
}

impl Study for SortStudy {
    type Params = SortParams;
    type Point = SortPoint;
    type Row = SortRow;

    fn name(&self) -> &'static str {
        "bsp-sort"
    }
    fn about(&self) -> &'static str {
        "bitonic and cascading merge sort on the BSP engine: supersteps against Goodrich's O(log N / log(h + 1)) rounds, and BSP cost"
    }
    fn point(&self, params: &SortParams) -> Result<SortPoint, ModelError> {
        if !LOG_P.contains(&params.log_p) {
            return Err(ParamError::new("log_p", "4 <= log_p <= 16", params.log_p).into());
        }
        if !N.contains(&params.n) {
            return Err(ParamError::new("n", "1 <= n <= 1024", params.n).into());
        }
        let bsp = BspParams::new(Bsp { p: 1 << params.log_p, g: params.g, l: params.l })?;
        let keys = u64::from(params.n) << params.log_p;
        let estimate = memory_estimate(params.sort, 1 << params.log_p, keys);
        crate::limits::check("n", estimate, crate::limits::DEFAULT_MEMORY, "bytes (estimated)")?;
        Ok(SortPoint { bsp, n: params.n, sort: params.sort, keys: params.keys })
    }
    fn run(&self, point: &SortPoint, rng: &mut SimRng) -> Result<Vec<SortRow>, ModelError> {
        let (p, n) = (point.bsp.p(), point.n as usize);
        let blocks: Vec<Vec<u64>> =
            (0..p).map(|_| (0..n).map(|_| point.keys.draw(rng)).collect()).collect();
        let mut reference: Vec<u64> = blocks.concat();
        reference.sort_unstable();
        let mut machine = BspMachine::new(point.bsp.clone(), blocks)?;
        point.sort.sort_blocks(&mut machine, n, "sort", |key| key, Some)?;
        let cost = machine.cost();
        let (blocks, ledger) = machine.finish();
        let verified =
            blocks.iter().all(|b| b.len() == n) && blocks.iter().flatten().eq(reference.iter());
        let work = ledger.work();
        let supersteps = ledger.supersteps();
        let bound = f64::from(p).log2() / f64::from(point.n + 1).log2();
        Ok(vec![SortRow {
            p,
            keys_total: u64::from(p) * u64::from(point.n),
            supersteps,
            steps_as_stated: u64::try_from(supersteps) == Ok(point.sort.supersteps(p, n)),
            max_h: ledger.records.iter().map(|r| r.h).max().unwrap_or(0),
            work,
            comm: cost - work as f64,
            cost,
            bound,
            steps_over_bound: supersteps as f64 / bound,
            verified,
        }])
    }
    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim::exponent(
                "cascade: supersteps / (log2 p / log2(n + 1)) does not grow with p at fixed n (Goodrich's O(log N / log(h + 1)) rounds, h = n): its fitted exponent in log2 p lies in [-0.5, 0.5] (the law gives 0; the rival, one log p factor more as bitonic has, gives 1)",
                "steps_over_bound",
                "log_p",
                -0.5,
                0.5,
            )
            .only("sort", SortAlgorithm::Cascade)
            .result(Law::new("O(log p / log(n + 1)) supersteps (constant ratio)"))
            .rival(Law::new("one log p more (as bitonic)").log2("p", 1.0)),
            Claim::exponent(
                "bitonic: supersteps / (log2 p / log2(n + 1)) grows like log p at fixed n (1 + k (k + 1) / 2 supersteps on p = 2^k): its fitted exponent in log2 p lies in [0.7, 1] (the closed form gives 0.75 on log2 p = 4..8, 0.80 on 4..12, 0.82 on 4..16)",
                "steps_over_bound",
                "log_p",
                0.7,
                1.0,
            )
            .only("sort", SortAlgorithm::Bitonic)
            .consistency(),
            Claim::all_true(
                "every sort's output equals the sequential sort of the same keys, n per block from processor 0",
                "verified",
            )
            .correctness(),
            Claim::all_true(
                "the supersteps the ledger counts equal SortAlgorithm::supersteps(p)",
                "steps_as_stated",
            )
            .consistency(),
        ]
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("log_p", "log2 of the processor count p"),
            Column::new("n", "keys per processor n (h = N / p)"),
            Column::new("sort", "the BSP sort (bitonic or cascade)"),
            Column::new("keys", "key draw (uniform 64-bit, or duplicates: 16 values)"),
            Column::new("g", "BSP gap g (time units per message)"),
            Column::new("l", "BSP latency l (time units per superstep)"),
            Column::new("p", "processors p"),
            Column::new("keys_total", "keys in total N = n p"),
            Column::new("supersteps", "supersteps executed (ledger)"),
            Column::new("steps_as_stated", "ledger supersteps = SortAlgorithm::supersteps(p)"),
            Column::new("max_h", "largest h of any superstep (messages)"),
            Column::new("work", "local work, sum of w (operations)"),
            Column::new("comm", "communication cost, sum of g h + l (time units)"),
            Column::new("cost", "BSP cost, work + g h + l summed (time units)"),
            Column::new("bound", "Goodrich's rounds log2 p / log2(n + 1) (supersteps)"),
            Column::new("steps_over_bound", "supersteps / (log2 p / log2(n + 1))"),
            Column::new("verified", "output = sequential sort, packed from processor 0"),
        ]
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new(
                "cost",
                "BSP cost of bitonic and cascade sort against p, per n (uniform keys); the findings say from which p the cascade is cheaper, if it is",
                "p",
                &["cost"],
            )
            .series("sort")
            .only("keys", KeyDraw::Uniform.as_str())
            .log_x()
            .log_y(),
            Plot::new(
                "steps-over-bound",
                "supersteps / Goodrich's log2 p / log2(n + 1) against p, per n (uniform keys)",
                "p",
                &["steps_over_bound"],
            )
            .series("sort")
            .only("keys", KeyDraw::Uniform.as_str())
            .log_x(),
        ]
    }
    fn findings(&self, rows: &[JsonObject]) -> Vec<String> {
        findings::crossovers(rows)
    }
}
