//! The [`Model`] through which `xtask` lists, runs and sweeps this crate, and the single-run
//! configs of `cargo xtask run dbsp-hmos CONFIG.toml`.

#![warn(clippy::cast_possible_truncation)]

use netcore::bsp::DbspParams;
use netcore::cost::Ledger;
use netcore::picture::Picture;
use netcore::rng::seeded;
use netcore::study::{
    AnyStudy, CommittedPicture, ConfigFile, EmbeddedSweep, Manifest, Model, ModelError, Paper,
    RunReport, to_json,
};
use serde::{Deserialize, Serialize};

use netcore::pram::library::Algorithm;
use netcore::pram::{Limits, NoTrace, run, run_with};

use crate::driver::studies::primitives::bound;
use crate::hmos::{Hmos, HmosConfig, Lemma1Check, Level0, chain, k_max, lemma1};
use crate::protocol::{Delivery, HmosMemory, LevelStats, Selection};
use crate::run::{Direction, Primitive, PrimitiveRun};
use crate::scheme::{Pricing, Scheme};
use crate::{Error, limits};

/// The `dbsp-hmos` model.
#[derive(Debug, Clone, Copy, Default)]
pub struct DbspHmos;

/// A single-run config, dispatched by its `kind`.
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RunConfig {
    /// One primitive on a random input.
    Primitive(PrimitiveConfig),
    /// Build an HMOS and report its structure.
    Hmos(HmosBuildConfig),
    /// Run a library PRAM program with the HMOS access protocol as its memory.
    Pram(PramConfig),
}

fn three() -> u32 {
    3
}

/// `kind = "hmos"`: the HMOS for `n` processors and `m` variables.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HmosBuildConfig {
    /// Processors (= 0-modules), a power of two <= 2^20.
    pub n: u64,
    /// Variables, m >= n, m r <= 2^24.
    pub m: u64,
    /// Copies per variable at level 0, odd. Default 3.
    #[serde(default = "three")]
    pub r: u32,
    /// Levels, k <= k_max(n). Default 0.
    #[serde(default)]
    pub k: u32,
    /// Seed of the level-0 graph. Default 0.
    #[serde(default)]
    pub seed: u64,
    /// The level-0 graph: shuffled_balanced (default), hashed, modulo or polarity.
    #[serde(default)]
    pub level0: Level0,
}

/// One level's Lemma 1 graph in a report.
#[derive(Debug, Serialize)]
pub struct LevelReport {
    /// |X| = m_(i-1).
    pub w: u32,
    /// Points of AG(j, 3).
    pub z: u32,
    /// Bundle size d_i.
    pub d: u32,
    /// |Y| = m_i.
    pub ny: u32,
    /// Lemma 1's properties.
    pub properties: Lemma1Check,
}

/// The report of an HMOS build.
#[derive(Debug, Serialize)]
pub struct HmosReport {
    /// The largest valid k for n.
    pub k_max: u32,
    /// m_0..m_k.
    pub m_levels: Vec<u64>,
    /// d_1..d_k.
    pub d_levels: Vec<u64>,
    /// t_1..t_k.
    pub t_levels: Vec<u64>,
    /// The Lemma 1 graphs.
    pub levels: Vec<LevelReport>,
    /// Copies per variable, r 3^k.
    pub copies: u64,
    /// The processors of every copy of variable 0, by copy index.
    pub loc_variable_0: Vec<u64>,
    /// Largest number of copies a processor holds.
    pub capacity_max: u64,
    /// Mean copies per processor, r 3^k m / n.
    pub capacity_mean: f64,
    /// Processors holding no copy.
    pub empty_processors: usize,
}

fn run_hmos(config: &HmosBuildConfig) -> Result<RunReport, ModelError> {
    let hc =
        HmosConfig::with_graph(config.n, config.m, config.r, config.k, config.seed, config.level0)?;
    let hmos = Hmos::build(&hc)?;
    let c = chain(config.n, config.k).ok_or(Error::KTooLarge {
        k: config.k,
        k_max: k_max(config.n),
        n: config.n,
    })?;
    let levels = (0..config.k as usize)
        .map(|i| {
            let g = lemma1(u32::try_from(c.m[i]).unwrap_or(u32::MAX));
            LevelReport { w: g.w, z: g.z, d: g.d, ny: g.ny, properties: g.check() }
        })
        .collect();
    let cap = hmos.capacities()?;
    let loc_variable_0 =
        (0..hmos.copies()).map(|copy| hmos.loc(0, copy)).collect::<Result<Vec<_>, _>>()?;
    let report = HmosReport {
        k_max: k_max(config.n),
        m_levels: c.m.clone(),
        d_levels: c.d.clone(),
        t_levels: c.t.clone(),
        levels,
        copies: hmos.copies(),
        loc_variable_0,
        capacity_max: cap.iter().copied().max().unwrap_or(0),
        capacity_mean: cap.iter().sum::<u64>() as f64 / cap.len() as f64,
        empty_processors: cap.iter().filter(|&&c| c == 0).count(),
    };
    let summary = format!(
        "HMOS n = {}, m = {}, r = {}, k = {} (k_max {}): m_i {:?}, d_i {:?}, t_i {:?}, {} copies per variable, capacity max {} mean {:.2}",
        config.n,
        config.m,
        config.r,
        config.k,
        report.k_max,
        report.m_levels,
        report.d_levels,
        report.t_levels,
        report.copies,
        report.capacity_max,
        report.capacity_mean
    );
    Ok(RunReport { summary, report: to_json(&report)? })
}

/// `kind = "pram"`: a library PRAM program whose global memory is the HMOS access protocol.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PramConfig {
    /// The library program.
    pub algorithm: Algorithm,
    /// Its size (number of PPUs / items).
    pub size: u32,
    /// D-BSP processors, a power of two.
    pub n: u32,
    /// The memory scheme: hmos (default), flat_majority, single_copy_hashed or
    /// single_copy_modulo.
    #[serde(default)]
    pub scheme: Scheme,
    /// The level-0 graph of a majority scheme (hmos, flat_majority): shuffled_balanced
    /// (default), hashed, modulo or polarity; a single copy's graph is fixed.
    #[serde(default)]
    pub level0: Option<Level0>,
    /// Copies per variable at level 0, odd. Default 3 (1 for a single copy, which allows
    /// only 1).
    #[serde(default)]
    pub r: Option<u32>,
    /// HMOS levels. Default 0 (the only value a flat scheme allows).
    #[serde(default)]
    pub k: Option<u32>,
    /// g_i = (n/2^i)^alpha.
    pub alpha: f64,
    /// l_i = (n/2^i)^beta.
    pub beta: f64,
    /// Seed of the program's input and of the level-0 graph. Default 0.
    #[serde(default)]
    pub seed: u64,
    /// Copy selection: "naive" (default) or { cull = { a, eps } } (every level).
    #[serde(default = "naive")]
    pub selection: Selection,
    /// Delivery: "staged" (default, Theorem 3), "two_phase" (one routing, the baseline) or
    /// "greedy" (one superstep, Proposition 3's baseline).
    #[serde(default)]
    pub delivery: Delivery,
    /// How the trace is priced: "dbsp" (default) or "flat_bsp" (every level at g_0, l_0).
    #[serde(default)]
    pub pricing: Pricing,
}

fn naive() -> Selection {
    Selection::Naive
}

/// The report of a PRAM run on HMOS.
#[derive(Debug, Serialize)]
pub struct PramReport {
    /// The memory scheme.
    pub scheme: Scheme,
    /// Copies per variable at level 0.
    pub r: u32,
    /// HMOS levels.
    pub k: u32,
    /// Copies per variable, r 3^k (the redundancy).
    pub copies: u64,
    /// The pricing of every cost below.
    pub pricing: Pricing,
    /// PRAM time T (instructions).
    pub pram_t: u64,
    /// PRAM global-access steps G.
    pub pram_g: u64,
    /// D-BSP supersteps of the protocol.
    pub supersteps: usize,
    /// D-BSP communication cost.
    pub comm: f64,
    /// D-BSP local work.
    pub work: u64,
    /// Cost per ledger phase (combine, select/0..select/k, deliver, reply, uncombine).
    pub by_phase: Vec<(String, f64)>,
    /// D-BSP cost per global step.
    pub cost_per_step: f64,
    /// Culling: most rounds any protocol round needed (0 without culling).
    pub cull_rounds_max: u32,
    /// Culling: some parents were completed by force.
    pub cull_forced: bool,
    /// Per selection iteration i = 0..=k, the most culling rounds it needed.
    pub rounds_by_level: Vec<u64>,
    /// Per level i = 0..=k, the largest module weight w(u) of any step.
    pub w_max_by_level: Vec<u64>,
    /// Per selection iteration i = 0..=k and culling round rho = 1, 2, ..., the most parents
    /// active at the start of the round over the run's cullings (Lemma 2's halving:
    /// `|A_(rho+1)| <= n / 2^rho`; empty without culling).
    pub active_by_level: Vec<Vec<u64>>,
    /// The delivery: staged or two-phase.
    pub delivery: Delivery,
    /// delta_(k+1), ..., delta_0: the largest per-processor load at the start of every stage
    /// (and at the end), over all protocol rounds.
    pub delta_max: Vec<u64>,
    /// The output equals the library's plain-Rust reference.
    pub verified: bool,
}

/// Runs the library program of `config` with the HMOS access protocol as its global memory
/// (Sections 3-4) and prices its D-BSP trace; a result that differs from the library's
/// plain-Rust reference is [`Error::Mismatch`].
///
/// # Examples
///
/// ```
/// use dbsp_hmos::netcore::pram::library::Algorithm;
/// use dbsp_hmos::protocol::{Delivery, Selection};
/// use dbsp_hmos::scheme::{Pricing, Scheme};
/// use dbsp_hmos::{PramConfig, pram_report};
///
/// // Prefix sums of 16 items on a 16-processor D-BSP with g_i = l_i = (n / 2^i)^(1/2).
/// let config = PramConfig {
///     algorithm: Algorithm::PrefixSums,
///     size: 16,
///     n: 16,
///     scheme: Scheme::Hmos,
///     level0: None,
///     r: None,
///     k: None,
///     alpha: 0.5,
///     beta: 0.5,
///     seed: 0,
///     selection: Selection::Naive,
///     delivery: Delivery::Staged,
///     pricing: Pricing::Dbsp,
/// };
/// let report = pram_report(&config)?;
/// assert!(report.verified);
/// assert_eq!(report.copies, 3); // r = 3 copies, k = 0 levels
/// # Ok::<(), dbsp_hmos::netcore::study::ModelError>(())
/// ```
///
/// # Errors
///
/// A [`ModelError`] wrapping, as its source, the crate's [`Error`]:
/// - [`Error::Bsp`] for parameters D-BSP refuses (`n` not a power of two, `alpha` or `beta`
///   outside `[0, 1]`);
/// - [`Error::Param`], [`Error::EvenRedundancy`], [`Error::RedundancyTooLarge`],
///   [`Error::TooFewVariables`], [`Error::KTooLarge`] or [`Error::PolarityUnavailable`] for
///   a scheme, `r`, `k` or `level0` the HMOS cannot build;
/// - [`Error::TooLarge`] past the crate's stated limits (`docs/models/dbsp-hmos.md`, Limits);
/// - [`Error::Pram`] if the program fails to build or run;
/// - [`Error::Mismatch`] if the output differs from the reference.
pub fn pram_report(config: &PramConfig) -> Result<PramReport, ModelError> {
    pram_run(config).map(|(report, ..)| report)
}

/// [`pram_report`] with the run's ledger and the pricing its costs use (for its picture).
pub(crate) fn pram_run(
    config: &PramConfig,
) -> Result<(PramReport, Ledger, DbspParams), ModelError> {
    let params = DbspParams::power_law(config.n, config.alpha, config.beta).map_err(Error::from)?;
    let (level0, r, k) = config.scheme.resolve(config.level0, config.r, config.k)?;
    limits::check_pram_memory(config.algorithm, config.size, config.n, r, k)?;
    let instance = config.algorithm.instance(config.size, config.seed).map_err(Error::from)?;
    let program = &instance.program;
    // The plain reference run gives the global steps and work the work estimate needs.
    let plain = run(program, &instance.input, &Limits::default()).map_err(Error::from)?;
    limits::check_pram_work(plain.cost.g, plain.cost.w, config.n, r, k)?;
    let n = u64::from(config.n);
    let m = program.mem().max(n);
    let hmos = Hmos::build(&HmosConfig::with_graph(n, m, r, k, config.seed, level0)?)?;
    let copies = hmos.copies();
    let mut memory = HmosMemory::with_hmos(
        params.clone(),
        hmos,
        program.mem(),
        &instance.input,
        config.selection,
    )?
    .with_delivery(config.delivery);
    let done =
        run_with(program, &mut memory, &Limits::default(), &mut NoTrace).map_err(Error::from)?;
    if let Some(e) = memory.error() {
        return Err(e.clone().into());
    }
    let got = &done.memory[instance.output.clone()];
    if let Some((index, (&g, &e))) =
        got.iter().zip(&instance.expected).enumerate().find(|(_, (g, e))| g != e)
    {
        return Err(Error::Mismatch { index, got: g, expected: e }.into());
    }
    let ledger = memory.ledger();
    let priced = config.pricing.apply(&params)?;
    let cost = ledger.cost(&priced).map_err(Error::from)?;
    let levels = || memory.stats().iter().flat_map(|s| &s.levels);
    let per_level = |f: &dyn Fn(&LevelStats) -> u64| {
        (0..=k)
            .map(|i| levels().filter(|l| l.level == i).map(f).max().unwrap_or(0))
            .collect::<Vec<u64>>()
    };
    let mut active_by_level: Vec<Vec<u64>> = vec![Vec::new(); k as usize + 1];
    for l in levels() {
        if let Some(most) = active_by_level.get_mut(l.level as usize) {
            if most.len() < l.active.len() {
                most.resize(l.active.len(), 0);
            }
            for (m, &a) in most.iter_mut().zip(&l.active) {
                *m = (*m).max(a);
            }
        }
    }
    let mut delta_max = vec![0_u64; k as usize + 2];
    for deltas in memory.stats().iter().flat_map(|s| &s.deltas) {
        for (most, &d) in delta_max.iter_mut().zip(deltas) {
            *most = (*most).max(d);
        }
    }
    let report = PramReport {
        scheme: config.scheme,
        r,
        k,
        copies,
        pricing: config.pricing,
        pram_t: done.cost.t,
        pram_g: done.cost.g,
        supersteps: ledger.supersteps(),
        comm: ledger.comm(&priced).map_err(Error::from)?,
        work: ledger.work(),
        by_phase: ledger.by_phase(&priced).map_err(Error::from)?,
        cost_per_step: cost / done.cost.g.max(1) as f64,
        cull_rounds_max: levels().map(|l| l.rounds).max().unwrap_or(0),
        cull_forced: levels().any(|l| l.forced),
        rounds_by_level: per_level(&|l| u64::from(l.rounds)),
        w_max_by_level: per_level(&|l| l.w_max),
        active_by_level,
        delivery: config.delivery,
        delta_max,
        verified: true,
    };
    Ok((report, ledger.clone(), priced))
}

fn run_pram(config: &PramConfig) -> Result<RunReport, ModelError> {
    let report = pram_report(config)?;
    let (r, k) = (report.r, report.k);
    let summary = format!(
        "{:?} (size {}) on D-BSP n = {} with {} r = {}, k = {}: {} global steps, {} supersteps, comm {:.1} ({} pricing), verified {}",
        config.algorithm,
        config.size,
        config.n,
        config.scheme.name(),
        r,
        k,
        report.pram_g,
        report.supersteps,
        report.comm,
        config.pricing.name(),
        report.verified
    );
    Ok(RunReport { summary, report: to_json(&report)? })
}

fn one() -> u32 {
    1
}

/// `kind = "primitive"`: one primitive on `n` processors priced with the power law.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrimitiveConfig {
    /// The primitive.
    pub primitive: Primitive,
    /// Number of processors, a power of two, 2..=2^20.
    pub n: u32,
    /// Items per processor (routing: k_min). Default 1.
    #[serde(default = "one")]
    pub k: u32,
    /// Routing only: k_max / k_min. Default 1.
    #[serde(default = "one")]
    pub skew: u32,
    /// Routing only: gather or scatter. Default gather.
    #[serde(default)]
    pub direction: Direction,
    /// g_i = (n/2^i)^alpha, 0 <= alpha <= 1.
    pub alpha: f64,
    /// l_i = (n/2^i)^beta, 0 <= beta <= 1.
    pub beta: f64,
    /// Seed of the random input. Default 0.
    #[serde(default)]
    pub seed: u64,
}

/// The report of a primitive run.
#[derive(Debug, Serialize)]
pub struct PrimitiveReport {
    /// The primitive.
    pub primitive: Primitive,
    /// Number of processors.
    pub n: u32,
    /// `(label, h)` of every superstep, in order.
    pub trace: Vec<(u32, u64)>,
    /// Supersteps per label `0..=deepest`.
    pub label_histogram: Vec<u64>,
    /// Communication cost `sum (g_i h + l_i)`.
    pub comm: f64,
    /// Local work `sum w`.
    pub work: u64,
    /// The proposition's bound (see the `dbsp-primitives` study).
    pub bound: f64,
    /// comm / bound.
    pub ratio: f64,
    /// The output equals the sequential reference.
    pub verified: bool,
}

/// Runs the primitive of `config`: its pricing, the run, its ledger and whether its output
/// equals the sequential reference.
pub(crate) fn primitive_run(
    config: &PrimitiveConfig,
) -> Result<(DbspParams, PrimitiveRun, Ledger, bool), ModelError> {
    let params = DbspParams::power_law(config.n, config.alpha, config.beta).map_err(Error::from)?;
    if config.n < 2 {
        return Err(Error::param("n", "2 <= n <= 2^20", config.n).into());
    }
    let log_n = params.log_n();
    let run = PrimitiveRun::new(config.primitive, log_n, config.k, config.skew, config.direction)?;
    let mut rng = seeded(config.seed, 0);
    let (ledger, verified) = run.execute(&params, &mut rng)?;
    Ok((params, run, ledger, verified))
}

fn run_primitive(config: &PrimitiveConfig) -> Result<RunReport, ModelError> {
    let (params, run, ledger, verified) = primitive_run(config)?;
    let comm = ledger.comm(&params).map_err(Error::from)?;
    let (bound, _) = bound(&run, config.alpha, config.beta);
    let report = PrimitiveReport {
        primitive: config.primitive,
        n: config.n,
        trace: ledger.records.iter().filter_map(|r| r.level.map(|l| (l, r.h))).collect(),
        label_histogram: ledger.label_histogram(),
        comm,
        work: ledger.work(),
        bound,
        ratio: comm / bound,
        verified,
    };
    let summary = format!(
        "{:?} on n = {}: {} supersteps, comm {:.3}, work {}, comm / bound {:.3}, verified {}",
        report.primitive,
        report.n,
        report.trace.len(),
        report.comm,
        report.work,
        report.ratio,
        report.verified
    );
    Ok(RunReport { summary, report: to_json(&report)? })
}

impl Model for DbspHmos {
    fn name(&self) -> &'static str {
        "dbsp-hmos"
    }
    fn about(&self) -> &'static str {
        "D-BSP primitives (Propositions 1-3) and the HMOS PRAM simulation (Fantozzi, Pietracaprina, Pucci)"
    }
    fn manifest(&self) -> Manifest {
        Manifest {
            paper: Paper {
                title: "Fantozzi, Pietracaprina and Pucci: A General PRAM Simulation Scheme for Clustered \
                 Machines",
                docs: "dbsp-hmos.md",
            },
            sweep: Some(EmbeddedSweep {
                file: "fixtures/sweeps/dbsp-hmos.toml",
                text: include_str!("../../../../fixtures/sweeps/dbsp-hmos.toml"),
            }),
            pictures: &[
                CommittedPicture {
                    config: "fixtures/dbsp-hmos/prim-route-gather.toml",
                    picture: "dbsp-hmos-prim-route-gather.svg",
                },
                CommittedPicture {
                    config: "fixtures/dbsp-hmos/pram-hot-spot-read-n4.toml",
                    picture: "dbsp-hmos-pram-hot-spot-read-n4.svg",
                },
            ],
        }
    }
    fn studies(&self) -> Vec<Box<dyn AnyStudy>> {
        vec![
            Box::new(crate::driver::studies::PrimitivesStudy),
            Box::new(crate::driver::studies::Lemma2Study),
            Box::new(crate::driver::studies::Lemma3Study),
            Box::new(crate::driver::studies::SlowdownStudy),
            Box::new(crate::driver::studies::Theorem3Study),
        ]
    }
    fn run_config(&self, config: &ConfigFile<'_>) -> Result<RunReport, ModelError> {
        match config.parse::<RunConfig>()? {
            RunConfig::Primitive(p) => run_primitive(&p),
            RunConfig::Hmos(h) => run_hmos(&h),
            RunConfig::Pram(p) => run_pram(&p),
        }
    }
    fn picture(&self, config: &ConfigFile<'_>) -> Result<Picture, ModelError> {
        crate::picture::picture(self, config)
    }
}
