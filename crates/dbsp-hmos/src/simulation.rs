//! The PRAM simulation of Fantozzi, Pietracaprina and Pucci (Sections 3-4): a netcore library
//! PRAM program run on a D-BSP whose global memory is the HMOS access protocol
//! ([`HmosMemory`]) or one of the baselines beside it ([`Scheme`]), its D-BSP trace priced
//! and summarised ([`PramReport`]).
//!
//! [`PramParams`] are the validated machine and memory; [`PramParams::library_instance`]
//! builds a library program within the crate's stated limits; [`simulate`] runs it.

use netcore::bsp::DbspParams;
use netcore::cost::Ledger;
use netcore::pram::library::{Algorithm, Instance};
use netcore::pram::{Access, AccessKind, Limits, NoTrace, Program, run, run_with};
use serde::Serialize;

use crate::Error;
use crate::hmos::{Hmos, HmosConfig, Level0};
use crate::limits;
use crate::protocol::{Delivery, HmosMemory, LevelStats, Selection, StepStats};
use crate::scheme::{Pricing, Scheme};

/// The machine and the memory of a PRAM simulation: the D-BSP of `n` processors with
/// `g_i = (n/2^i)^alpha`, `l_i = (n/2^i)^beta` (Section 2), the memory scheme with its
/// level-0 graph, redundancy r and levels k resolved, the graph's seed, the copy selection,
/// the delivery and the pricing of the trace.
///
/// Built valid: the D-BSP parameters are checked and the scheme's defaults and rules applied
/// ([`Scheme::resolve`]); the HMOS's own rules (r odd, `k <= k_max(n)`, the graph's) are
/// checked when [`simulate`] builds it for the program's variables.
#[derive(Debug, Clone)]
pub struct PramParams {
    machine: DbspParams,
    scheme: Scheme,
    level0: Level0,
    r: u32,
    k: u32,
    seed: u64,
    selection: Selection,
    delivery: Delivery,
    pricing: Pricing,
}

impl PramParams {
    /// The HMOS (balanced shuffled level-0 graph, r = 3, k = 0, seed 0) on the D-BSP of `n`
    /// processors with `g_i = (n/2^i)^alpha`, `l_i = (n/2^i)^beta`, with naive selection,
    /// staged delivery (Theorem 3) and D-BSP pricing.
    ///
    /// # Errors
    ///
    /// [`Error::Bsp`] for parameters D-BSP refuses (`n` not a power of two, `alpha` or `beta`
    /// outside `[0, 1]`).
    pub fn new(n: u32, alpha: f64, beta: f64) -> Result<Self, Error> {
        let machine = DbspParams::power_law(n, alpha, beta)?;
        let (level0, r, k) = Scheme::Hmos.resolve(None, None, None)?;
        Ok(Self {
            machine,
            scheme: Scheme::Hmos,
            level0,
            r,
            k,
            seed: 0,
            selection: Selection::Naive,
            delivery: Delivery::Staged,
            pricing: Pricing::Dbsp,
        })
    }

    /// The memory `scheme` with the `level0` graph, `r` and `k` given, each defaulted by the
    /// scheme when `None` ([`Scheme::resolve`]).
    ///
    /// # Errors
    ///
    /// [`Error::Param`] for a `level0`, `r` or `k` the scheme does not allow.
    pub fn with_scheme(
        self,
        scheme: Scheme,
        level0: Option<Level0>,
        r: Option<u32>,
        k: Option<u32>,
    ) -> Result<Self, Error> {
        let (level0, r, k) = scheme.resolve(level0, r, k)?;
        Ok(Self { scheme, level0, r, k, ..self })
    }

    /// The seed of the level-0 graph.
    #[must_use]
    pub fn with_seed(self, seed: u64) -> Self {
        Self { seed, ..self }
    }

    /// The copy selection (Section 4.1).
    #[must_use]
    pub fn with_selection(self, selection: Selection) -> Self {
        Self { selection, ..self }
    }

    /// The delivery (Section 4.2).
    #[must_use]
    pub fn with_delivery(self, delivery: Delivery) -> Self {
        Self { delivery, ..self }
    }

    /// How the trace is priced.
    #[must_use]
    pub fn with_pricing(self, pricing: Pricing) -> Self {
        Self { pricing, ..self }
    }

    /// The D-BSP machine.
    pub fn machine(&self) -> &DbspParams {
        &self.machine
    }

    /// Processors.
    pub fn n(&self) -> u32 {
        self.machine.n()
    }

    /// The memory scheme.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The level-0 graph.
    pub fn level0(&self) -> Level0 {
        self.level0
    }

    /// Copies per variable at level 0.
    pub fn r(&self) -> u32 {
        self.r
    }

    /// HMOS levels.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// The seed of the level-0 graph.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The copy selection.
    pub fn selection(&self) -> Selection {
        self.selection
    }

    /// The delivery.
    pub fn delivery(&self) -> Delivery {
        self.delivery
    }

    /// The pricing.
    pub fn pricing(&self) -> Pricing {
        self.pricing
    }

    /// `algorithm`'s library program of `size` with the input of `seed`, refused first if its
    /// memory estimate on this machine and memory is past the crate's stated limits
    /// ([`limits::check_pram_memory`]) or its HMOS breaks a rule or limit; every error names
    /// `size` where the size is at fault.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] past the limits (`docs/models/dbsp-hmos.md`, Limits), the HMOS's
    /// errors of [`HmosConfig::with_graph`], [`Error::Pram`] if the program cannot be built
    /// at `size`.
    pub fn library_instance(
        &self,
        algorithm: Algorithm,
        size: u32,
        seed: u64,
    ) -> Result<Instance, Error> {
        limits::check_pram_memory(algorithm, size, self.n(), self.r, self.k)?;
        self.check_hmos(limits::library_cells(algorithm, size))
            .map_err(|e| e.renamed("m", "size"))?;
        algorithm.instance(size, seed).map_err(|e| Error::from(e).renamed("n", "size"))
    }

    /// Refuses, before it is run, a program of the user's own (its `M` cells and `S_max`
    /// PPUs) whose run would exceed the limits or whose HMOS of `max(M, n)` variables breaks
    /// a rule or limit.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] past the limits (`docs/models/dbsp-hmos.md`, Limits), the HMOS's
    /// errors of [`HmosConfig::with_graph`].
    pub fn check_program(&self, program: &Program) -> Result<(), Error> {
        let ppus = u64::from(program.ppus());
        limits::check_program_memory(program.mem(), ppus, self.n(), self.r, self.k)?;
        self.check_hmos(program.mem()).map_err(|e| e.renamed("m", "size"))
    }

    /// Checks the HMOS over `max(cells, n)` variables that [`simulate`] would build, before
    /// anything is built (its level-0 graph's limit names `m`).
    fn check_hmos(&self, cells: u64) -> Result<(), Error> {
        let n = u64::from(self.n());
        HmosConfig::with_graph(n, cells.max(n), self.r, self.k, self.seed, self.level0)?;
        Ok(())
    }
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
    /// Cost per ledger phase ([`Phase`](crate::phase::Phase): combine, select/0..select/k,
    /// deliver, reply, uncombine).
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

/// A PRAM simulation run: its report, the memory that served it (whose ledger holds the
/// protocol's D-BSP trace) and the parameters its costs are priced with (the machine's, or
/// level 0's at every level for [`Pricing::FlatBsp`]).
#[derive(Debug)]
pub struct PramRun {
    /// The report.
    pub report: PramReport,
    /// The memory, kept for its ledger (one record per superstep: not copied).
    memory: HmosMemory,
    /// The parameters the report's costs are priced with.
    pub priced: DbspParams,
}

impl PramRun {
    /// The protocol's ledger, one phase per part of every protocol round.
    pub fn ledger(&self) -> &Ledger {
        self.memory.ledger()
    }
}

/// Runs the library program `instance` on the D-BSP of `params` with the HMOS access
/// protocol as its global memory (Sections 3-4), over `max(mem, n)` variables, and prices its
/// trace; a result that differs from the instance's plain-Rust reference is
/// [`Error::Mismatch`].
///
/// # Examples
///
/// ```
/// use dbsp_hmos::netcore::pram::library::Algorithm;
/// use dbsp_hmos::simulation::{PramParams, simulate};
///
/// // Prefix sums of 16 items on a 16-processor D-BSP with g_i = l_i = (n / 2^i)^(1/2).
/// let params = PramParams::new(16, 0.5, 0.5)?;
/// let instance = params.library_instance(Algorithm::PrefixSums, 16, 0)?;
/// let report = simulate(&params, &instance)?.report;
/// assert!(report.verified);
/// assert_eq!(report.copies, 3); // r = 3 copies, k = 0 levels
/// # Ok::<(), dbsp_hmos::Error>(())
/// ```
///
/// # Errors
///
/// - [`Error::TooLarge`] past the crate's stated work or memory limit, the latter with the
///   ledger of the program's global steps (`docs/models/dbsp-hmos.md`, Limits);
/// - [`Error::Param`], [`Error::EvenRedundancy`], [`Error::RedundancyTooLarge`],
///   [`Error::TooFewVariables`], [`Error::KTooLarge`] or [`Error::PolarityUnavailable`] for
///   an `r`, `k` or `level0` the HMOS cannot build;
/// - [`Error::Pram`] if the program fails to run;
/// - [`Error::Mismatch`] if the output differs from the reference.
pub fn simulate(params: &PramParams, instance: &Instance) -> Result<PramRun, Error> {
    let (r, k) = (params.r, params.k);
    let program = &instance.program;
    // The plain reference run gives the global steps and work the work estimate needs.
    let plain = run(program, &instance.input, &Limits::default())?;
    limits::check_pram_work(plain.cost.g, plain.cost.w, params.n(), r, k)?;
    let ppus = u64::from(program.ppus());
    limits::check_run_memory(program.mem(), ppus, plain.cost.g, params.n(), r, k)?;
    let n = u64::from(params.n());
    let m = program.mem().max(n);
    let hmos = Hmos::build(&HmosConfig::with_graph(n, m, r, k, params.seed, params.level0)?)?;
    let copies = hmos.copies();
    let mut memory = HmosMemory::with_hmos(
        params.machine.clone(),
        hmos,
        program.mem(),
        &instance.input,
        params.selection,
    )?
    .with_delivery(params.delivery);
    let done = run_with(program, &mut memory, &Limits::default(), &mut NoTrace)?;
    if let Some(e) = memory.error() {
        return Err(e.clone());
    }
    let got = &done.memory[instance.output.clone()];
    if let Some((index, (&g, &e))) =
        got.iter().zip(&instance.expected).enumerate().find(|(_, (g, e))| g != e)
    {
        return Err(Error::Mismatch { index, got: g, expected: e });
    }
    let ledger = memory.ledger();
    let priced = params.pricing.apply(&params.machine)?;
    let cost = ledger.cost(&priced)?;
    let summary = Summary::of(memory.stats(), k);
    let report = PramReport {
        scheme: params.scheme,
        r,
        k,
        copies,
        pricing: params.pricing,
        pram_t: done.cost.t,
        pram_g: done.cost.g,
        supersteps: ledger.supersteps(),
        comm: ledger.comm(&priced)?,
        work: ledger.work(),
        by_phase: ledger.by_phase(&priced)?,
        cost_per_step: cost / done.cost.g.max(1) as f64,
        cull_rounds_max: summary.rounds_max,
        cull_forced: summary.forced,
        rounds_by_level: summary.rounds_by_level,
        w_max_by_level: summary.w_max_by_level,
        active_by_level: summary.active_by_level,
        delivery: params.delivery,
        delta_max: summary.delta_max,
        verified: true,
    };
    Ok(PramRun { report, memory, priced })
}

/// The protocol rounds' statistics summed up for a [`PramReport`]: the culling per selection
/// iteration and the delivery's loads per stage.
struct Summary {
    rounds_max: u32,
    forced: bool,
    rounds_by_level: Vec<u64>,
    w_max_by_level: Vec<u64>,
    active_by_level: Vec<Vec<u64>>,
    delta_max: Vec<u64>,
}

impl Summary {
    /// The summary of the rounds `stats` of an HMOS with `k` levels.
    fn of(stats: &[StepStats], k: u32) -> Self {
        let levels = || stats.iter().flat_map(|s| &s.levels);
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
        for deltas in stats.iter().flat_map(|s| &s.deltas) {
            for (most, &d) in delta_max.iter_mut().zip(deltas) {
                *most = (*most).max(d);
            }
        }
        Self {
            rounds_max: levels().map(|l| l.rounds).max().unwrap_or(0),
            forced: levels().any(|l| l.forced),
            rounds_by_level: per_level(&|l| u64::from(l.rounds)),
            w_max_by_level: per_level(&|l| l.w_max),
            active_by_level,
            delta_max,
        }
    }
}

/// One read per processor `0..n` of an address drawn uniformly from `0..n` by the stream
/// `seeded(seed, 0)`: the PRAM step the benches and `examples/pram_step.rs` time.
pub fn random_reads(n: u32, seed: u64) -> Vec<Access> {
    use rand::RngExt;
    let mut rng = netcore::rng::seeded(seed, 0);
    (0..n)
        .map(|pid| Access {
            pid,
            kind: AccessKind::Read,
            addr: rng.random_range(0..u64::from(n)),
            value: 0,
        })
        .collect()
}
