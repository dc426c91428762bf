//! The runs: one library instance on the reference interpreter and on every emulating
//! machine, each result compared with the instance's plain-Rust reference.
//!
//! Costs are in each machine's own unit (instructions, actor time, D-BSP cost, H-PRAM
//! phase-refined cost); the slowdown divides them by the reference's `T`, and a bound, where a
//! paper gives one, is converted to the same unit (`docs/models/cross-pram.md`, Choices).

use actor_pram::actor::Scheduler;
use actor_pram::butterfly::{ButterflyConfig, simulate_butterfly_actors};
use actor_pram::limits::{PPUS_FIELD, STEPS_FIELD};
use dbsp_hmos::bounds::theorem3_bound;
use dbsp_hmos::protocol::{Delivery, Selection};
use dbsp_hmos::scheme::{Pricing, Scheme};
use dbsp_hmos::simulation::{PramParams, simulate};
use hpram::algs::{FftForm, TreeForm};
use hpram::{Builtin, BuiltinParams, CostTree, Formula, MemoryVariant, Preset};
use hpram::{run_builtin, run_program};
use netcore::fault::{Classify, Fault};
use netcore::pram::library::{Algorithm, Instance};
use netcore::pram::{Cost, Limits, NoTrace, PramRun, run_traced};
use netcore::pram::{Difference, first_differing_cell};
use netcore::study::{ModelError, ParamError};
use serde::Serialize;

use crate::machine::{DbspExponents, HpramPreset, Machine};

/// Copy selection of the D-BSP runs: threshold culling at every level with the constants of
/// the dbsp-hmos studies (`a = 2`, `eps = 0.3`).
const CULL: Selection = Selection::Cull { a: 2.0, eps: 0.3 };

/// A run that cannot be priced or checked: an invariant of a machine's crate broken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CrossError {
    /// The butterfly run returned no actor measures, though it ran with a scheduler.
    #[error("actor: the butterfly run must report its actor measures with a scheduler (got none)")]
    NoActorMeasures,
    /// A library instance's input is shorter than the `n` data words its hierarchical form
    /// reads.
    #[error(
        "input: {program}'s instance must hold the n = {n} data words its hierarchical form reads (got {len} words)"
    )]
    ShortInput {
        /// The library program.
        program: &'static str,
        /// The words the hierarchical form reads.
        n: usize,
        /// The input's length.
        len: usize,
    },
    /// The reference interpreter's output differs from the instance's expected output, so no
    /// emulation is run (none would be to blame).
    #[error(
        "output: the reference interpreter's cell {} must equal the instance's expected {} before any emulation runs (got {})",
        .0.cell,
        .0.expected,
        .0.got.map_or_else(|| "outside memory".to_string(), |g| g.to_string())
    )]
    ReferenceDiffers(Difference),
    /// An emulating machine's run ended with an output other than the one it is checked
    /// against: a failed run (`cargo xtask run` exits 1 instead of printing the table; the
    /// reference run's own difference is netcore's `NotVerified`).
    #[error("verified: the {machine} run's output must equal {against} (got a different output)")]
    EmulationNotVerified {
        /// The machine whose run failed its check.
        machine: &'static str,
        /// What its output is checked against.
        against: &'static str,
    },
}

impl Classify for CrossError {
    fn fault(&self) -> Fault {
        Fault::Run
    }
}

/// One machine's run of one instance: a row of the study before its parameters.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MachineRun {
    /// The machine, named by [`Machine::as_str`]: `reference`, `actor-butterfly`,
    /// `dbsp-hmos a=.. b=..`, `hpram-flat <preset>` or `hpram-hier <preset>`.
    pub machine: Machine,
    /// The processors of the machine: PPUs `S`, butterfly routers `N`, D-BSP processors,
    /// H-PRAM processors `P`.
    pub procs: u64,
    /// The reference's time `T` (instructions).
    pub t: u64,
    /// The reference's work `W`.
    pub w: u64,
    /// The reference's global steps `G`.
    pub g: u64,
    /// The machine's cost in its own unit.
    pub cost: f64,
    /// `cost / T`.
    pub slowdown: f64,
    /// The paper's bound on the slowdown, where the machine has one.
    pub bound: Option<f64>,
    /// `slowdown / bound`.
    pub over_bound: Option<f64>,
    /// Messages sent (actor butterfly only).
    pub messages: Option<u64>,
    /// Lockstep rounds, forward and reverse passes summed (actor butterfly only).
    pub rounds: Option<u64>,
    /// The machine's output equals the instance's plain-Rust reference.
    pub verified: bool,
}

impl MachineRun {
    fn new(machine: Machine, procs: u64, reference: &Cost) -> Self {
        Self {
            machine,
            procs,
            t: reference.t,
            w: reference.w,
            g: reference.g,
            cost: 0.0,
            slowdown: 0.0,
            bound: None,
            over_bound: None,
            messages: None,
            rounds: None,
            verified: false,
        }
    }

    /// Sets the cost (and the slowdown), the bound on the slowdown and the verdict.
    fn priced(mut self, cost: f64, bound: Option<f64>, verified: bool) -> Self {
        self.cost = cost;
        // T >= 1: a run of netcore's interpreter that returns has executed its `halt`, which
        // `Cost::t` counts (a program without one fails with `PcOutOfRange`), and every row's
        // `t` is such a run's.
        self.slowdown = cost / self.t as f64;
        self.bound = bound;
        // A program without global steps has a zero bound (`G / T = 0`): no ratio to it.
        self.over_bound = bound.filter(|&b| b > 0.0).map(|b| self.slowdown / b);
        self.verified = verified;
        self
    }
}

/// Whether `memory` holds the instance's expected output in its output range.
fn output_ok(instance: &Instance, memory: &[i64]) -> bool {
    memory.get(instance.output.clone()) == Some(instance.expected.as_slice())
}

/// The reference interpreter: cost `T`, slowdown 1; and its `T`, `S`, `G`, `W`.
pub fn reference(instance: &Instance) -> Result<(MachineRun, Cost), ModelError> {
    let done = run_traced(&instance.program, &instance.input, &Limits::default(), &mut NoTrace)?;
    Ok(reference_row(instance, &done))
}

/// The reference row of the run `done` of `instance`.
fn reference_row(instance: &Instance, done: &PramRun) -> (MachineRun, Cost) {
    let row = MachineRun::new(Machine::Reference, u64::from(instance.program.ppus()), &done.cost);
    let t = done.cost.t as f64;
    (row.priced(t, None, output_ok(instance, &done.memory)), done.cost)
}

/// The first output cell where the reference run's final `memory` differs from the instance's
/// expected output, as the error that stops the comparison before any emulation runs.
pub fn reference_difference(instance: &Instance, memory: &[i64]) -> Option<CrossError> {
    first_differing_cell(instance.output.clone(), &instance.expected, memory)
        .map(CrossError::ReferenceDiffers)
}

/// Refuses a program with more PPUs `S` than the D-BSP's `n` processors: Theorem 3 (Fantozzi
/// et al., Section 4) bounds the access of an `n`-tuple by `n` processors, so its bound says
/// nothing of a step of `S > n` accesses.
///
/// # Errors
///
/// A [`ParamError`] on `n` naming the program's `S`.
pub fn check_ppus(program: &netcore::pram::Program, n: u32) -> Result<(), ParamError> {
    let s = program.ppus();
    if s > n {
        return Err(ParamError::new(
            "n",
            format!(
                "at least the program's S = {s} PPUs (Theorem 3 bounds n-tuples on n D-BSP processors)"
            ),
            n,
        ));
    }
    Ok(())
}

/// The butterfly translation on actors (Baude, Section 5) with the default configuration
/// (combining, network fetch order) but the hash seed `seed`, and FIFO delivery: cost = actor
/// time; bound = `log2 N` (Theorem 2's `T log n` over `T`, with the routing's `log N` for
/// `log n`: `docs/models/cross-pram.md`, Choice 5).
///
/// A refusal names `field`, the config's field that sets the program (`n` for a library
/// program, `file` for one's own), where actor-pram names its `[pram]` table.
pub fn actor_butterfly(
    instance: &Instance,
    seed: u64,
    field: &'static str,
) -> Result<MachineRun, ModelError> {
    let config = ButterflyConfig { hash_seed: seed, ..ButterflyConfig::default() };
    let report = simulate_butterfly_actors(
        &instance.program,
        &instance.input,
        &config,
        Scheduler::Fifo,
        &Limits::default(),
    )
    .map_err(|e| match e {
        actor_pram::Error::TooLarge(t) if [PPUS_FIELD, STEPS_FIELD].contains(&t.field) => {
            actor_pram::Error::TooLarge(netcore::limits::TooLarge { field, ..t })
        }
        e => e,
    })?;
    let mut row = MachineRun::new(Machine::ActorButterfly, u64::from(report.routers), &report.pram);
    // Fetch-and-ops served off pid order (combined, actor-pram's Choice 19) are checked by
    // the butterfly against the reference interpreter replaying their serialization
    // (`report.verified`), as actor-pram's own runs are: the instance's expected output is
    // the pid order's, and which of its cells another serialization leaves unchanged depends
    // on the program (a fetch-add counter's total does; the old values handed out do not).
    let reordered = report.fetch.as_ref().is_some_and(|f| !f.pid_order);
    let verified = report.verified && (reordered || output_ok(instance, &report.memory));
    let actor = report.actor.as_ref().ok_or(CrossError::NoActorMeasures)?;
    let (time, messages) = (actor.actor_time, actor.messages);
    row.messages = Some(messages);
    row.rounds = Some(report.rounds_fwd + report.rounds_rev);
    let log_n = f64::from(report.routers).log2();
    Ok(row.priced(time as f64, Some(log_n), verified))
}

/// HMOS levels of the D-BSP runs: one, the least hierarchy (`k = 0` is the flat majority
/// scheme); `k_max(n) >= 1` from `n = 64` on (`docs/models/dbsp-hmos.md`, Choices), so the
/// study starts there.
pub const LEVELS: u32 = 1;

/// The D-BSP machine and memory of [`dbsp`] under `exponents`.
fn dbsp_params(
    n: u32,
    seed: u64,
    exponents: DbspExponents,
) -> Result<PramParams, dbsp_hmos::Error> {
    let (alpha, beta) = exponents.alpha_beta();
    Ok(PramParams::new(n, alpha, beta)?
        .with_scheme(Scheme::Hmos, None, None, Some(LEVELS))?
        .with_seed(seed)
        .with_selection(CULL)
        .with_delivery(Delivery::default())
        .with_pricing(Pricing::Dbsp))
}

/// Refuses, before any emulation runs, a program whose D-BSP runs would pass dbsp-hmos's
/// limits (its memory with the ledger of the reference's `g` global steps,
/// `docs/models/dbsp-hmos.md`, Limits), naming `field`: the D-BSP runs come after the actor
/// butterfly, which could otherwise run for many minutes first.
fn check_dbsp(
    n: u32,
    seed: u64,
    (instance, field): (&Instance, &'static str),
    g: u64,
) -> Result<(), dbsp_hmos::Error> {
    let params = dbsp_params(n, seed, DbspExponents::ALL[0])?;
    let program = &instance.program;
    params.check_program(program).map_err(|e| e.renamed("size", field))?;
    let ppus = u64::from(program.ppus());
    dbsp_hmos::limits::check_run_memory(program.mem(), ppus, g, n, params.r(), params.k())
        .map_err(|e| dbsp_hmos::Error::from(e).renamed("size", field))
}

/// The D-BSP with the HMOS access protocol (Sections 3-4) on `n` processors for an instance of
/// size `n`, [`LEVELS`] levels, `r = 3`, culling and staged delivery, priced with the
/// `(alpha, beta)` of `exponents`: cost = the D-BSP cost of the whole run; bound =
/// Theorem 3's cost per step times `G / T`. A wrong result fails the run
/// ([`dbsp_hmos::Error::Mismatch`]). A refusal names `field`, the config's field that sets
/// the program (`n` or `file`), where dbsp-hmos names its `size`.
pub fn dbsp(
    n: u32,
    seed: u64,
    exponents: DbspExponents,
    (instance, field): (&Instance, &'static str),
    reference: &Cost,
) -> Result<MachineRun, ModelError> {
    let (alpha, beta) = exponents.alpha_beta();
    let k = LEVELS;
    let params = dbsp_params(n, seed, exponents)?;
    let report = simulate(&params, instance).map_err(|e| e.renamed("size", field))?.report;
    let row = MachineRun::new(Machine::Dbsp(exponents), u64::from(n), reference);
    let cost = report.comm + report.work as f64;
    let (per_step, _) = theorem3_bound(n, k, alpha, beta);
    // T >= 1, as in `MachineRun::priced`: `reference` is a returned run's cost.
    let bound = per_step * report.pram_g as f64 / reference.t as f64;
    Ok(row.priced(cost, Some(bound), report.verified))
}

/// The phase-refined, non-uniform cost of `tree` under `preset` (paper Section 2.3.2); hpram's
/// checked pricing refuses a cost past `u64`.
fn price(tree: &CostTree, preset: &Preset) -> Result<f64, hpram::HpramError> {
    Ok(tree.eval(preset, MemoryVariant::NonUniform, Formula::PhaseRefined)?.total as f64)
}

/// The program as a flat H-PRAM (`hpram::run_program`) on `P = S` processors, priced under
/// the hypercube and the 2-D mesh: one row per preset.
pub fn hpram_flat(instance: &Instance) -> Result<Vec<MachineRun>, ModelError> {
    let done =
        run_program("cross-pram", &instance.program, &instance.input, &Limits::default(), 0)?;
    let verified = output_ok(instance, &done.run.memory);
    let procs = u64::from(instance.program.ppus());
    let mut rows = Vec::new();
    for preset in HpramPreset::ALL {
        let cost = price(&done.run.cost, &preset.preset())?;
        let row = MachineRun::new(Machine::HpramFlat(preset), procs, &done.pram.cost);
        rows.push(row.priced(cost, None, verified));
    }
    Ok(rows)
}

/// hpram's hierarchical algorithm for the same function as `algorithm`, if it has one whose
/// input and output are the library instance's: tree prefix sums for prefix sums, the FFT for
/// the NTT (the same transform, `X_k = sum_j x_j w^(jk)`, `w = 3^((p-1)/n)`), tree reduction
/// for tree reduction, each in its hierarchical form.
pub fn hier_form(algorithm: Algorithm) -> Option<Builtin> {
    match algorithm {
        Algorithm::PrefixSums => Some(Builtin::TreePrefix(TreeForm::Hier)),
        Algorithm::Ntt => Some(Builtin::Fft(FftForm::Hier)),
        Algorithm::TreeReduction => Some(Builtin::TreeReduce(TreeForm::Hier)),
        _ => None,
    }
}

/// The hierarchical H-PRAM algorithm of [`hier_form`] on `P = n/2` processors (`r = 2` words
/// each, the least the FFT takes), on the instance's `n` data words, priced under the hypercube
/// and the 2-D mesh: one row per preset, none without a hierarchical form.
pub fn hpram_hier(
    algorithm: Algorithm,
    n: u32,
    instance: &Instance,
    reference: &Cost,
) -> Result<Vec<MachineRun>, ModelError> {
    let Some(builtin) = hier_form(algorithm) else {
        return Ok(Vec::new());
    };
    // A u32 fits a usize on every target of at least 32 bits; were it not to, `usize::MAX`
    // words exceed any input and the read below fails with `ShortInput`, not silently.
    let len = usize::try_from(n).unwrap_or(usize::MAX);
    // No clamp: `n < 2` gives `P = 0`, which hpram's `BuiltinParams::new` refuses (a power
    // of two is required) with its typed error.
    let procs = len / 2;
    let data = instance.input.get(..len).ok_or(CrossError::ShortInput {
        program: algorithm.name(),
        n: len,
        len: instance.input.len(),
    })?;
    let params = BuiltinParams::new(builtin, procs, data.len())?;
    let done = run_builtin(&params, data, 0)?;
    let verified = done.output == instance.expected;
    let mut rows = Vec::new();
    for preset in HpramPreset::ALL {
        let cost = price(&done.cost, &preset.preset())?;
        let row = MachineRun::new(Machine::HpramHier(preset), procs as u64, reference);
        rows.push(row.priced(cost, None, verified));
    }
    Ok(rows)
}

/// Every machine's run of `algorithm` at size `n` with the input of `seed`: the reference,
/// the actor butterfly, the D-BSP under every pair of [`DbspExponents`], the flat H-PRAM and
/// (where there is one) the hierarchical H-PRAM under both presets.
///
/// # Examples
///
/// ```
/// use cross_pram::machine::Machine;
/// use cross_pram::machines::compare;
/// use cross_pram::netcore::pram::library::Algorithm;
///
/// let rows = compare(Algorithm::PrefixSums, 64, 0)?;
/// assert_eq!(rows[0].machine, Machine::Reference);
/// assert!(rows.iter().all(|row| row.verified));
/// for row in &rows {
///     println!("{:<28} slowdown {:8.2}", row.machine, row.slowdown);
/// }
/// # Ok::<(), cross_pram::netcore::study::ModelError>(())
/// ```
///
/// # Errors
///
/// A [`ModelError`] whose source is the first machine's error, in the order above:
/// [`PramError`](netcore::pram::PramError) if the instance cannot be built (e.g. `n` outside
/// the algorithm's sizes) or the reference run fails; [`actor_pram::Error`] from the
/// butterfly; [`dbsp_hmos::Error`] from the D-BSP runs (e.g.
/// [`KTooLarge`](dbsp_hmos::Error::KTooLarge) when `n` is too small for one HMOS level, as
/// for `n = 8`, or past its limits, or
/// [`Mismatch`](dbsp_hmos::Error::Mismatch)); [`hpram::HpramError`] from the H-PRAM runs. A
/// machine whose output differs from the reference without an error has `verified = false`.
pub fn compare(algorithm: Algorithm, n: u32, seed: u64) -> Result<Vec<MachineRun>, ModelError> {
    compare_instance(&algorithm.instance(n, seed)?, Some(algorithm), n, seed)
}

/// Every machine's run of `instance` (a library program's, or a program of the user's own with
/// its expected output): as [`compare`], the D-BSP on `n` processors, the hierarchical H-PRAM
/// only for a library `algorithm` that has a hierarchical form.
///
/// # Errors
///
/// As [`compare`]; and a [`ParamError`] on `n` (the user's input) if the program has more
/// PPUs than `n` (Theorem 3 accesses `n`-tuples on `n` processors), a
/// [`CrossError::ReferenceDiffers`] if the reference run's output is not the instance's
/// expected one (before any emulation runs).
pub fn compare_instance(
    instance: &Instance,
    algorithm: Option<Algorithm>,
    n: u32,
    seed: u64,
) -> Result<Vec<MachineRun>, ModelError> {
    check_ppus(&instance.program, n)?;
    let done = run_traced(&instance.program, &instance.input, &Limits::default(), &mut NoTrace)?;
    compare_run(instance, &done, algorithm, n, seed)
}

/// [`compare_instance`] after its check of `n` and its reference run `done` of `instance`
/// (for a caller that ran the reference itself, e.g. traced for a picture): the reference's
/// row, then every emulation's.
///
/// # Errors
///
/// As [`compare_instance`] after its reference run.
pub fn compare_run(
    instance: &Instance,
    done: &PramRun,
    algorithm: Option<Algorithm>,
    n: u32,
    seed: u64,
) -> Result<Vec<MachineRun>, ModelError> {
    if let Some(e) = reference_difference(instance, &done.memory) {
        return Err(e.into());
    }
    let (reference, cost) = reference_row(instance, done);
    let mut rows = vec![reference];
    rows.extend(emulations(algorithm, n, seed, instance, &cost)?);
    Ok(rows)
}

/// The rows of [`compare`] after the reference's, given its `instance` (of `algorithm`, if a
/// library program, at size `n` with the input of `seed`) and the reference run's `cost`: the
/// actor butterfly, the D-BSP under every pair of [`DbspExponents`], the flat and (for a
/// library program with one) the hierarchical H-PRAM.
///
/// # Errors
///
/// As [`compare`], from the machines after the reference.
pub fn emulations(
    algorithm: Option<Algorithm>,
    n: u32,
    seed: u64,
    instance: &Instance,
    cost: &Cost,
) -> Result<Vec<MachineRun>, ModelError> {
    let field = if algorithm.is_some() { "n" } else { "file" };
    check_dbsp(n, seed, (instance, field), cost.g)?;
    let mut rows = vec![actor_butterfly(instance, seed, field)?];
    for exponents in DbspExponents::ALL {
        rows.push(dbsp(n, seed, exponents, (instance, field), cost)?);
    }
    rows.extend(hpram_flat(instance)?);
    if let Some(algorithm) = algorithm {
        rows.extend(hpram_hier(algorithm, n, instance, cost)?);
    }
    Ok(rows)
}
