//! The butterfly translation of whole PRAM programs (Baude, Section 5, Theorem 2): the
//! program runs step by step on `S` PPU replicas (Theorem 1's construction: each replicates
//! the CPU and executes one PPU), and every global step is served by the lockstep reference
//! router ([`LockstepRouter::step_pass`]) on the wrapped butterfly: the accesses travel to
//! their memory hosts with Ranade's forward pass, combining by the variant's rule, the hosts
//! apply it, and the replies retrace the paths. `cread` is a concurrent internal read by every
//! replica (never a conflict), `cwrite` a write by replica 0 (Choice 6 of
//! `docs/models/actor-pram.md`); PPU `j` sits at router `j mod N` and address `a` at router
//! `h(a)` of the configured placement, with ranked or destination-major keys (Choices 20,
//! 21 and 23).
//!
//! The reference interpreter runs first: a program it rejects returns its error (Choice 5).
//! The translated run's final memory, CPU registers (every replica's) and PPU registers are
//! then compared with the reference's (`verified`).

#![warn(clippy::cast_possible_truncation)]

mod budget;
mod delay;
mod fetch;

use netcore::pram::{Access, AccessKind, Cost, Instr, Limits, PramRun, Program, Variant};
use serde::{Deserialize, Serialize};

use crate::actor::{ActorMetrics, Scheduler};
use crate::direct::{Code, Dest, Effect, PpuActor};
use crate::error::Error;
use crate::hash::{HashFamily, KeyOrder};
use crate::limits::{PPUS_FIELD, check_butterfly_memory, check_butterfly_work};
use crate::ranade::{
    Buffers, FetchOrder, Held, LockstepRouter, Multiplex, PassPlan, PassRecord, PassStats,
    SlotDigest, op_of,
};
pub use budget::pass_budget;
use delay::DelayLog;
pub use delay::{
    DelayReport, MAX_DELAY_DIM, MAX_DELAY_SEQUENCES, SlowPass, diameter, excess, sequence_bound,
};
use fetch::FetchLog;
pub use fetch::{FetchCell, FetchReport, MAX_FETCH_REQUESTS};

/// How the global steps of a program run on actors (Choice 22).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Steps {
    /// Every pass is its own actor run, separated by a barrier: the program's actor time is
    /// `(T − G) + Σ` of the passes' actor times.
    #[default]
    Barrier,
    /// Also one actor system for the whole program, passes overlapping (its actor time is
    /// the run's DAG depth), reported next to the barrier measure.
    Overlapping,
}
netcore::display_config_name!(Steps);

/// How the butterfly translation is set up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ButterflyConfig {
    /// The butterfly's dimension `n` (default: the least `n >= 2` with `n · 2^n >= S`); a
    /// smaller one puts `ceil(S / N)` PPUs on a router (Section 5's remark, Choice 23).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dim: Option<u32>,
    /// Buffer size `b >= 1` per input, or unbounded (baseline B6).
    pub b: Buffers,
    /// Requests for one cell combine (`tag = 0`); without, `tag = pid` (Choice 13).
    pub combining: bool,
    /// How the hosts serialize fetch-and-ops (Choice 19).
    pub fetch_order: FetchOrder,
    /// The placement of addresses on the routers (Choice 21).
    pub hash: HashFamily,
    /// The key order: random ranks or destination-major (Choice 21).
    pub keys: KeyOrder,
    /// The seed of the placement and rank polynomials.
    pub hash_seed: u64,
    /// How a router's PPUs share it when `S > N` (Choice 23).
    pub multiplex: Multiplex,
    /// How the global steps run on actors (Choice 22; only with a scheduler).
    pub steps: Steps,
    /// Report the router of every address the program accessed (`address_routers`).
    pub report_routers: bool,
    /// Extract the delay sequence of every slow pass (Theorem 3 of the Appendix, Choice 28).
    pub delay_sequence: bool,
}

impl Default for ButterflyConfig {
    /// The least dimension, `b = 2`, combining, network fetch order, a polynomial placement with
    /// `k = max(2, ceil(log2 N))` and ranked keys, hash seed 0.
    fn default() -> Self {
        Self {
            dim: None,
            b: Buffers::Slots(2),
            combining: true,
            fetch_order: FetchOrder::Network,
            hash: HashFamily::Poly,
            keys: KeyOrder::Ranked,
            hash_seed: 0,
            multiplex: Multiplex::Pipelined,
            steps: Steps::Barrier,
            report_routers: false,
            delay_sequence: false,
        }
    }
}

/// What a butterfly run reports: the PRAM costs and the router's measures over every pass.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ButterflyReport {
    /// The reference's `T`, `S`, `G`, `W`.
    pub pram: Cost,
    /// The butterfly's dimension.
    pub dim: u32,
    /// Routers `N = n · 2^n`.
    pub routers: u32,
    /// Buffer size.
    pub b: Buffers,
    /// Requests for one cell combine.
    pub combining: bool,
    /// How the hosts serialize fetch-and-ops.
    pub fetch_order: FetchOrder,
    /// The placement family.
    pub hash: HashFamily,
    /// The key order.
    pub keys: KeyOrder,
    /// The seed of the placement and ranks.
    pub hash_seed: u64,
    /// The placement used, always, as a `hash` value that reproduces it whatever the seed:
    /// `{ fixed = ... }` for a polynomial (drawn or given), `identity`, or the `{ table = ...
    /// }` (Choice 21).
    pub hash_used: HashFamily,
    /// With `report_routers`: how many distinct addresses the program's global steps
    /// accessed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub addresses_accessed: Option<u64>,
    /// With `report_routers`: the router of each accessed address, ascending, the lowest
    /// [`MAX_ADDRESS_ROUTERS`] of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address_routers: Option<Vec<AddressRouter>>,
    /// How a router's PPUs share it.
    pub multiplex: Multiplex,
    /// PPUs per router: `ceil(S / N)`.
    pub ppus_per_router: u32,
    /// Passes run: one per global step (`G`), or `ppus_per_router` per step in sequential
    /// mode.
    pub passes: u64,
    /// Forward rounds summed over the passes.
    pub rounds_fwd: u64,
    /// Reverse rounds summed over the passes.
    pub rounds_rev: u64,
    /// The longest forward pass.
    pub max_r_fwd: u64,
    /// The longest reverse pass.
    pub max_r_rev: u64,
    /// `(rounds_fwd + rounds_rev) / passes`.
    pub rounds_per_pass: f64,
    /// The mean forward pass over the empty pass: `rounds_fwd / (passes · (3n − 1))`.
    pub fwd_over_3n_1: f64,
    /// Combines over all passes.
    pub combines: u64,
    /// Host arrivals over all passes.
    pub arrivals: u64,
    /// The most arrivals at one host in one pass.
    pub max_arrivals: u64,
    /// The largest buffer occupancy (`<= b`).
    pub max_occupancy: u64,
    /// The longest direction queue.
    pub max_dq: u64,
    /// Packet hops over all passes: forward packets and replies sent on an edge.
    pub hops: u64,
    /// The fetch-and-op steps: their serialization, replies and combines (Choice 19), when
    /// the program has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fetch: Option<FetchReport>,
    /// The actor run's measures (with a scheduler: every step also served by actors).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actor: Option<ButterflyActors>,
    /// With `delay_sequence`: the slow passes and their delay sequences (Choice 28).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delay: Option<DelayReport>,
    /// Final memory, CPU registers of every replica and PPU registers equal the reference's,
    /// with the fetch-and-ops served in the router's serialization (Choice 19).
    pub verified: bool,
    /// The final global memory.
    #[serde(skip)]
    pub memory: Vec<i64>,
}

/// The most addresses `address_routers` lists (the lowest ones; `addresses_accessed` counts
/// them all): a report stays small, and a longer list is the reported `hash_used` evaluated
/// at every address.
pub const MAX_ADDRESS_ROUTERS: usize = 4096;

/// An address the program accessed and the router `h(a)` hosting it (Choice 21).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct AddressRouter {
    /// The global address.
    pub address: u32,
    /// Its router, in `[0, N)`.
    pub router: u32,
}

/// What the butterfly translation measured on actors (Choice 22): every global step is one
/// actor run (PPU actors, hash actors, virtual-node actors, hosts) whose slots equal the lockstep
/// router's; the steps are sequenced by a barrier, so the program's actor time is the sum of
/// the steps' plus one event per local instruction. With `steps = "overlapping"` the
/// program also runs as one actor system, passes overlapping (`overlapping`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ButterflyActors {
    /// The scheduler of every step's run.
    pub scheduler: String,
    /// How the steps ran: the barrier measure alone, or the overlapping run too.
    pub steps: Steps,
    /// `(T − G) + Σ_steps actor time`.
    pub actor_time: u64,
    /// The longest step's actor time.
    pub max_step_actor_time: u64,
    /// `actor_time / T`.
    pub actor_time_over_t: f64,
    /// `actor_time / (T · log2 N)` (Theorem 2: bounded with high probability).
    pub actor_time_over_t_log_n: f64,
    /// `Σ_steps actor time / Σ_steps (R_fwd + R_rev)`: depth per lockstep round (at most
    /// about 4, Property 1 of the Appendix).
    pub actor_time_per_round: f64,
    /// The least and greatest actor time of one pass over its lockstep rounds
    /// `R = R_fwd + R_rev` (Property 1, the Appendix's cadence: within `[1, 4 + 1/R]` for the
    /// rounds alone, plus the hand-offs of [`pass_budget`] over `R`; for a
    /// pass run alone).
    pub pass_per_round_min: f64,
    /// See `pass_per_round_min`.
    pub pass_per_round_max: f64,
    /// Every pass's actor time `A` lies in `[R, pass_budget(R, k, a)]` (Property 1, the
    /// Appendix's cadence `4R + 1` plus the hand-offs outside the rounds: [`pass_budget`];
    /// it was `[R, 4R + 1]` before, which a pass can exceed). Named `theorem3` until
    /// 2026-12-02; the paper's Theorem 3 is the delay-sequence bound (Choice 28).
    pub cadence: bool,
    /// The greatest `A − (4R + 1)` of a pass, signed: how far the hand-offs took a pass past
    /// the cadence alone (negative when every pass stayed below `4R + 1`).
    pub max_over_cadence: i64,
    /// The largest actor space of a step.
    pub actor_space: u64,
    /// Events over all steps.
    pub events: u64,
    /// Messages over all steps.
    pub messages: u64,
    /// Actors of one step: `(3n − 1) · 2^n` virtual nodes, `N` hosts, `N` hash actors, `S` PPUs.
    pub actors: u64,
    /// The largest mailbox.
    pub max_mailbox: u64,
    /// The overlapping run (`steps = "overlapping"`), next to the barrier measure above.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overlapping: Option<OverlapActors>,
}

/// What the overlapping run measured (Choice 22): one actor system for the whole program,
/// every pass checked against the lockstep router's (Property 1).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OverlapActors {
    /// The run's DAG depth.
    pub actor_time: u64,
    /// The barrier measure minus this one, signed: negative when the overlapping run is
    /// deeper than the barrier measure, which is measured, not proved, to be rare (Choice 22;
    /// it was a saturating difference before, which reported such a run as 0 below).
    pub below_barrier: i64,
    /// `actor_time / T`.
    pub actor_time_over_t: f64,
    /// `actor_time / (T · log2 N)`.
    pub actor_time_over_t_log_n: f64,
    /// Actor space of the run.
    pub actor_space: u64,
    /// Events of the run.
    pub events: u64,
    /// Messages of the run.
    pub messages: u64,
    /// Actors: `(3n − 1) · 2^n` virtual nodes, `N` hosts, `N` hash actors, `S` replicas.
    pub actors: u64,
    /// The largest mailbox.
    pub max_mailbox: u64,
}

/// Property 1 for pass `pass` (1-based) run by actors: its slots, rounds, deliveries,
/// serialization, combines, arrivals and buffer occupancy equal the lockstep pass's.
fn check_pass(
    pass: u64,
    what: &str,
    a: &PassRecord,
    s: &PassStats,
    slots: &SlotDigest,
) -> Result<(), Error> {
    let differs = |part: &str| Error::Mismatch {
        program: format!("pass {pass} {what}"),
        what: format!("{part} (Property 1: the lockstep router's)"),
    };
    if a.slots != *slots || (a.r_fwd, a.r_rev) != (s.r_fwd, s.r_rev) {
        return Err(differs("slots"));
    }
    if a.deliveries != s.deliveries {
        return Err(differs("replies"));
    }
    if a.serialization != s.serialization
        || (a.combines, a.arrivals, a.max_occupancy, a.max_dq)
            != (s.combines, s.arrivals, s.max_occupancy, s.max_dq)
    {
        return Err(differs("serialization, combines, buffers or direction queues"));
    }
    Ok(())
}

/// The least dimension `n >= 2` with `n · 2^n >= s`, or the given one if `2 <= n <= 16`, else
/// an error naming the `[butterfly]` key `dim` (a smaller `N` than `S` multiplexes,
/// Choice 23).
pub(crate) fn dimension(dim: Option<u32>, s: u32) -> Result<u32, Error> {
    let fits = |n: u32| (u64::from(n) << n) >= u64::from(s);
    match dim {
        Some(n) if (2..=16).contains(&n) => Ok(n),
        Some(n) => {
            Err(Error::InvalidConfig { field: "dim", rule: "2 <= dim <= 16", got: n.to_string() })
        }
        None => (2..=16).find(|&n| fits(n)).ok_or_else(|| Error::InvalidConfig {
            field: "program",
            rule: "S <= 16 · 2^16 PPUs",
            got: s.to_string(),
        }),
    }
}

fn diverged(pid: u32, what: impl Into<String>) -> Error {
    Error::Diverged { pid, what: what.into() }
}

/// Runs `program` on `input` with every global step served by the lockstep router.
///
/// # Examples
///
/// ```
/// use actor_pram::butterfly::{ButterflyConfig, simulate_butterfly};
/// use actor_pram::netcore::pram::{Limits, library::Algorithm};
///
/// // Prefix sums of 8 items; 8 PPUs fit the butterfly of dimension 2 (2 · 2^2 routers).
/// let prefix = Algorithm::PrefixSums.instance(8, 0)?;
/// let config = ButterflyConfig::default();
/// let report = simulate_butterfly(&prefix.program, &prefix.input, &config, &Limits::default())?;
/// assert!(report.verified);
/// assert_eq!(report.dim, 2);
/// assert_eq!(report.passes, report.pram.g); // one routing pass per global step
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// - [`Error::Pram`] if the program breaks a static rule or the reference run fails (an
///   out-of-range address, a conflict, the step limit, ...);
/// - [`Error::InvalidConfig`] for a configuration the router refuses (e.g. `dim` out of
///   range, `b = 0`, more than `16 · 2^16` PPUs);
/// - [`Error::TooLarge`] past the memory or work limits of [`crate::limits`];
/// - [`Error::Conflict`] if a step's accesses conflict under the program's variant;
/// - [`Error::RoundLimit`], [`Error::Diverged`] or [`Error::Routing`] if the routing breaks
///   its invariants (reported rather than a panic);
/// - [`Error::OutOfMemory`] if the system refuses the global memory or the PPUs.
pub fn simulate_butterfly(
    program: &Program,
    input: &[i64],
    config: &ButterflyConfig,
    limits: &Limits,
) -> Result<ButterflyReport, Error> {
    run_butterfly(program, input, config, None, limits, None)
}

/// [`simulate_butterfly`] that also returns every pass's hops and combines, in pass order
/// (for the run's picture).
///
/// # Errors
///
/// As [`simulate_butterfly`].
pub fn simulate_butterfly_recorded(
    program: &Program,
    input: &[i64],
    config: &ButterflyConfig,
    limits: &Limits,
) -> Result<(ButterflyReport, Vec<PassStats>), Error> {
    let mut passes = Vec::new();
    let report = run_butterfly(program, input, config, None, limits, Some(&mut passes))?;
    Ok((report, passes))
}

/// Runs `program` on `input` with every global step served by actors under `scheduler`
/// (forward pass, host exchange, reply pass: Choice 22), each step checked against the
/// lockstep router (Property 1: equal slots in both passes, rounds, deliveries and memory,
/// else [`Error::Mismatch`]).
///
/// # Errors
///
/// As [`simulate_butterfly`], and:
/// - [`Error::Actor`] if the actor runtime refuses an event (a limit of
///   [`crate::actor::Limits`]) or is left stuck;
/// - [`Error::Mismatch`] if a step differs from the lockstep router's.
pub fn simulate_butterfly_actors(
    program: &Program,
    input: &[i64],
    config: &ButterflyConfig,
    scheduler: Scheduler,
    limits: &Limits,
) -> Result<ButterflyReport, Error> {
    run_butterfly(program, input, config, Some(scheduler), limits, None)
}

/// One butterfly run: the limits, the replicas' instruction loop, the totals, and the check
/// against the reference.
fn run_butterfly(
    program: &Program,
    input: &[i64],
    config: &ButterflyConfig,
    scheduler: Option<Scheduler>,
    limits: &Limits,
    recorded: Option<&mut Vec<PassStats>>,
) -> Result<ButterflyReport, Error> {
    let code = Code::new(program)?;
    let dim = dimension(config.dim, code.ppus)?;
    let mut router = build_router(config, dim, recorded.is_some())?;
    if config.delay_sequence && dim > MAX_DELAY_DIM {
        return Err(Error::InvalidConfig {
            field: "butterfly.delay_sequence",
            rule: "dim <= 7 (every forward round of a pass is recorded, Choice 28)",
            got: dim.to_string(),
        });
    }
    if config.delay_sequence {
        router = router.delaying();
    }
    let (reference, per_step) = checked_reference(
        program,
        input,
        config,
        &code,
        (dim, &router),
        scheduler.is_some(),
        limits,
    )?;
    use netcore::limits::{collect_exact, vec_filled, vec_with_capacity};
    let cells = reference.memory.len();
    let mut memory = vec_filled("the global memory", cells, 0i64)?;
    memory.iter_mut().zip(input).for_each(|(m, &x)| *m = x);
    let ppus = (0..code.ppus).map(|pid| PpuActor::new(pid, program.lmem()));
    let ppus: Vec<PpuActor> = collect_exact("the PPUs", code.ppus as usize, ppus)?;
    let waits: Vec<Option<Dest>> = vec_filled("the PPUs' waits", ppus.len(), None)?;
    let report = empty_report(reference.cost, dim, &router, config, code.ppus, scheduler);
    // The overlapping run (Choice 22): its scheduler, the passes' plan and the lockstep
    // passes it is checked against, and the memory it starts from.
    let overlap = scheduler.filter(|_| config.steps == Steps::Overlapping);
    let mut initial = vec_with_capacity("the global memory", cells)?;
    initial.extend_from_slice(&memory);
    let mut run = Run {
        code: &code,
        config,
        scheduler,
        router,
        memory,
        ppus,
        waits,
        report,
        overlap: overlap.is_some(),
        plan: Vec::new(),
        lock_passes: Vec::new(),
        recorded,
        used: if config.report_routers {
            Some(vec_filled("the accessed addresses", cells, false)?)
        } else {
            None
        },
        fetch: FetchLog::default(),
        delay: config.delay_sequence.then(|| DelayLog::new(dim, config.b)),
    };
    let steps = run.execute(reference.cost.t)?;
    let Run { router, memory, ppus, mut report, plan, lock_passes, used, fetch, delay, .. } = run;
    report.delay = delay.map(DelayLog::finish);
    // The reference in the router's serialization of the fetch-and-ops (Choice 19): the
    // reference itself in pid order, else its replay in the reported order.
    let reference = if fetch.is_empty() {
        reference
    } else {
        let (fetch, serialization) = fetch.finish();
        let pid_order = fetch.pid_order;
        report.fetch = Some(fetch);
        if pid_order {
            reference
        } else {
            netcore::pram::run_serialized(program, input, limits, &serialization)?
        }
    };
    if let Some(used) = used {
        let hashing = router.hashing();
        let accessed = (0u32..).zip(&used).filter(|&(_, &u)| u).map(|(address, _)| address);
        report.addresses_accessed = Some(accessed.clone().count() as u64);
        report.address_routers = Some(
            accessed
                .take(MAX_ADDRESS_ROUTERS)
                .map(|address| AddressRouter { address, router: hashing.dest(address) })
                .collect(),
        );
    }
    let passes = report.passes.max(1) as f64;
    report.rounds_per_pass = (report.rounds_fwd + report.rounds_rev) as f64 / passes;
    report.fwd_over_3n_1 = report.rounds_fwd as f64 / (passes * f64::from(3 * dim - 1));
    let (routers, report_passes) = (report.routers, report.passes);
    let rounds = report.rounds_fwd + report.rounds_rev;
    if let Some(act) = report.actor.as_mut() {
        actor_totals(act, reference.cost.t, steps, routers, rounds, report_passes)?;
        if let Some(sched) = overlap {
            let barrier = Barrier { code: &code, initial: &initial, memory: &memory, ppus: &ppus };
            let fetch_order = config.fetch_order;
            let run =
                Overlapping { router: &router, plan, lock_passes, per_step, fetch_order, sched };
            let barrier_time = act.actor_time;
            act.overlapping = Some(run.check(&barrier, barrier_time, reference.cost.t, routers)?);
        }
    }
    let regs_ok = ppus.iter().all(|p| {
        p.cpu == reference.cpu_regs
            && p.regs
                .iter()
                .zip(&reference.ppu_regs)
                .all(|(x, col)| col.get(p.pid as usize) == Some(x))
    });
    report.verified = regs_ok && memory == reference.memory;
    report.memory = memory;
    Ok(report)
}

/// The lockstep router of `config` on the butterfly of dimension `dim`, recording its
/// passes' hops when `recording` (for the picture).
fn build_router(
    config: &ButterflyConfig,
    dim: u32,
    recording: bool,
) -> Result<LockstepRouter, Error> {
    let mut router = LockstepRouter::with_buffers(dim, config.b, config.combining)?.with_hashing(
        &config.hash,
        config.keys,
        config.hash_seed,
    )?;
    if recording {
        router = router.recording();
    }
    Ok(router)
}

/// The stated limits (`crate::limits`): the memory before anything runs, the work once the
/// reference has counted the global steps. Returns the reference run and the passes per
/// global step.
fn checked_reference(
    program: &Program,
    input: &[i64],
    config: &ButterflyConfig,
    code: &Code,
    (dim, router): (u32, &LockstepRouter),
    actors: bool,
    limits: &Limits,
) -> Result<(PramRun, u64), Error> {
    let dim_field = if config.dim.is_some() { "butterfly.dim" } else { PPUS_FIELD };
    check_butterfly_memory(
        code.ppus,
        program.lmem(),
        program.mem(),
        dim,
        actors,
        dim_field,
        limits.max_bytes,
    )?;
    let reference = netcore::pram::run(program, input, limits)?;
    let per_step = match config.multiplex {
        Multiplex::Pipelined => 1,
        Multiplex::Sequential => u64::from(code.ppus.div_ceil(router.routers()).max(1)),
    };
    let max_events = crate::actor::Limits::default().max_events;
    check_butterfly_work(
        reference.cost.g.saturating_mul(per_step),
        dim,
        actors,
        dim_field,
        max_events,
    )?;
    Ok((reference, per_step))
}

/// The report before the run: the configuration, every tally zero.
fn empty_report(
    pram: Cost,
    dim: u32,
    router: &LockstepRouter,
    config: &ButterflyConfig,
    ppus: u32,
    scheduler: Option<Scheduler>,
) -> ButterflyReport {
    ButterflyReport {
        pram,
        dim,
        routers: router.routers(),
        b: config.b,
        combining: config.combining,
        fetch_order: config.fetch_order,
        hash: config.hash.clone(),
        keys: config.keys,
        hash_seed: config.hash_seed,
        hash_used: router.hashing().used(),
        addresses_accessed: None,
        address_routers: None,
        multiplex: config.multiplex,
        ppus_per_router: ppus.div_ceil(router.routers()).max(1),
        passes: 0,
        rounds_fwd: 0,
        rounds_rev: 0,
        max_r_fwd: 0,
        max_r_rev: 0,
        rounds_per_pass: 0.0,
        fwd_over_3n_1: 0.0,
        combines: 0,
        arrivals: 0,
        max_arrivals: 0,
        max_occupancy: 0,
        max_dq: 0,
        hops: 0,
        fetch: None,
        delay: None,
        actor: scheduler.map(|sched| ButterflyActors {
            scheduler: sched.to_string(),
            steps: config.steps,
            actor_time: 0,
            max_step_actor_time: 0,
            actor_time_over_t: 0.0,
            actor_time_over_t_log_n: 0.0,
            actor_time_per_round: 0.0,
            pass_per_round_min: f64::INFINITY,
            pass_per_round_max: 0.0,
            cadence: true,
            max_over_cadence: i64::MIN,
            actor_space: 0,
            events: 0,
            messages: 0,
            actors: 0,
            max_mailbox: 0,
            overlapping: None,
        }),
        verified: false,
        memory: Vec::new(),
    }
}

/// A pass's deliveries to the waiting PPUs: (pid, reverse round, value).
type Deliveries = Vec<(u32, u64, i64)>;

/// The barrier run in progress: the PPU replicas in lockstep, the router serving their global
/// steps pass by pass, and the report tallying the passes.
struct Run<'a> {
    code: &'a Code,
    config: &'a ButterflyConfig,
    scheduler: Option<Scheduler>,
    router: LockstepRouter,
    memory: Vec<i64>,
    ppus: Vec<PpuActor>,
    /// Per PPU: where the reply of its pending access goes.
    waits: Vec<Option<Dest>>,
    report: ButterflyReport,
    /// Whether the overlapping run follows: the passes' plan and lockstep passes are kept.
    overlap: bool,
    plan: Vec<PassPlan>,
    lock_passes: Vec<(PassStats, SlotDigest)>,
    recorded: Option<&'a mut Vec<PassStats>>,
    /// With `report_routers`: per global address, whether a step accessed it so far.
    used: Option<Vec<bool>>,
    /// The fetch-and-op steps' serialization and replies (Choice 19).
    fetch: FetchLog,
    /// With `delay_sequence`: the slow passes' delay sequences (Choice 28).
    delay: Option<DelayLog>,
}

impl Run<'_> {
    /// The instruction loop: every replica executes the instruction at the common pc, a
    /// global step's accesses are routed; until every replica halts. Returns the number of
    /// global steps.
    fn execute(&mut self, t: u64) -> Result<u64, Error> {
        let code = self.code;
        let mut executed = 0u64;
        let mut steps = 0u64;
        loop {
            let pc = self.ppus.first().map_or(0, |p| p.pc);
            let instr = code.at(pc).ok_or_else(|| diverged(0, format!("pc {pc} out of range")))?;
            let (global, cread) = (instr.is_global(), matches!(instr, Instr::CRead { .. }));
            executed += 1;
            if executed > t {
                return Err(diverged(0, format!("ran past the reference's T = {t}")));
            }
            let (accesses, halted) = self.exec_replicas()?;
            // The replicas of the CPU take the same branch (Theorem 1's construction).
            let ppus = &self.ppus;
            if let Some(p) = ppus.iter().find(|p| p.pc != ppus[0].pc) {
                return Err(diverged(
                    p.pid,
                    format!("at pc {} while replica 0 is at {}", p.pc, ppus[0].pc),
                ));
            }
            if global {
                // Internal reads of the CPU's replicas never conflict (Choice 6).
                let variant = if cread { Variant::Crew } else { code.variant };
                steps += 1;
                self.global_step(variant, &accesses, steps)?;
            }
            let replicas = self.ppus.len();
            if halted == replicas {
                return Ok(steps);
            }
            if halted > 0 {
                return Err(diverged(
                    0,
                    format!("{halted} of {replicas} replicas halted at pc {pc}"),
                ));
            }
        }
    }

    /// Every replica executes one instruction: the accesses of a global step (each
    /// replica's reply destination noted in `waits`) and how many replicas halted.
    fn exec_replicas(&mut self) -> Result<(Vec<Access>, usize), Error> {
        let mut accesses = Vec::new();
        let mut halted = 0usize;
        for p in &mut self.ppus {
            match p.exec(self.code).map_err(|what| diverged(p.pid, what))? {
                Effect::Next => {}
                Effect::Halt => halted += 1,
                Effect::Access { addr, kind, value, wait } => {
                    accesses.push(Access { pid: p.pid, kind, addr, value });
                    self.waits[p.pid as usize] = wait;
                }
            }
        }
        Ok((accesses, halted))
    }

    /// Global step `g_step` (1-based): its passes (one, or `ceil(S / N)` multiplexed), each
    /// served, tallied and its replies delivered to the waiting replicas.
    fn global_step(
        &mut self,
        variant: Variant,
        accesses: &[Access],
        g_step: u64,
    ) -> Result<(), Error> {
        let fetch = accesses.first().is_some_and(|a| matches!(a.kind, AccessKind::Fetch(_)));
        let passes = self.config.multiplex.passes(accesses, self.code.ppus, self.router.routers());
        let mut held = Held::new(false);
        for (t, (pids, mine)) in passes.iter().enumerate() {
            let last = t + 1 == passes.len();
            held.set_last(last);
            let (s, deliveries) = match (self.scheduler, self.report.actor.is_some()) {
                (Some(sched), true) => {
                    self.actor_pass(variant, mine, pids, last, &mut held, sched)?
                }
                _ => {
                    let (s, _) = self.router.step_pass_traced(
                        variant,
                        mine,
                        &mut self.memory,
                        self.config.fetch_order,
                        &mut held,
                    )?;
                    let deliveries = s.deliveries.clone();
                    (s, deliveries)
                }
            };
            tally_pass(&mut self.report, &s);
            if fetch {
                self.fetch.pass(&s, &deliveries);
            }
            if let Some(passes) = self.recorded.as_deref_mut() {
                passes.push(s);
            }
            for (pid, _, value) in deliveries {
                if let Some(dest) = self.waits.get_mut(pid as usize).and_then(Option::take) {
                    self.ppus[pid as usize].store(dest, value);
                }
            }
        }
        if fetch {
            self.fetch.end_step(g_step);
        }
        if let Some((pid, _)) = (0u32..).zip(&self.waits).find(|(_, w)| w.is_some()) {
            return Err(diverged(pid, format!("no reply at pass {}", self.report.passes)));
        }
        if let Some(used) = self.used.as_mut() {
            for a in accesses {
                // The reference ran the step, so the address is inside the memory.
                if let Some(u) = used.get_mut(LockstepRouter::addr32(a)? as usize) {
                    *u = true;
                }
            }
        }
        Ok(())
    }

    /// One pass on actors, checked against the lockstep router's (Property 1: slots,
    /// memory and held writes); its actor measures tallied.
    fn actor_pass(
        &mut self,
        variant: Variant,
        mine: &[Access],
        pids: &std::ops::Range<u32>,
        last: bool,
        held: &mut Held,
        sched: Scheduler,
    ) -> Result<(PassStats, Deliveries), Error> {
        let fetch_order = self.config.fetch_order;
        let mut lock_memory = self.memory.clone();
        let mut lock_held = held.clone();
        let (s, slots) = self.router.step_pass_traced(
            variant,
            mine,
            &mut lock_memory,
            fetch_order,
            &mut lock_held,
        )?;
        let max_events = self.router.pass_event_limit(pids.len() as u64);
        let a = self.router.actor_step_pass(
            variant,
            mine,
            &mut self.memory,
            fetch_order,
            pids.clone(),
            held,
            sched,
            max_events,
        )?;
        let pass = self.report.passes + 1;
        check_pass(pass, "on actors", &a.pass, &s, &slots)?;
        if self.memory != lock_memory || held.len() != lock_held.len() {
            return Err(Error::Mismatch {
                program: format!("pass {pass} on actors"),
                what: "memory or held writes (the lockstep router's)".into(),
            });
        }
        if self.overlap {
            self.lock_passes.push((s.clone(), slots));
            self.plan.push(PassPlan { variant, op: op_of(mine), ppus: pids.clone(), last });
        }
        if let Some(act) = self.report.actor.as_mut() {
            let k = (pids.len() as u64).div_ceil(u64::from(self.router.routers()));
            tally_actor_pass(act, &a.actor, s.r_fwd + s.r_rev, k, s.arrivals_max);
        }
        if let Some(log) = self.delay.as_mut() {
            log.pass(pass, &s, a.actor.actor_time);
        }
        Ok((s, a.pass.deliveries))
    }
}

/// Adds one pass's rounds, combines, arrivals and hops to the report.
fn tally_pass(report: &mut ButterflyReport, s: &PassStats) {
    report.passes += 1;
    report.rounds_fwd += s.r_fwd;
    report.rounds_rev += s.r_rev;
    report.max_r_fwd = report.max_r_fwd.max(s.r_fwd);
    report.max_r_rev = report.max_r_rev.max(s.r_rev);
    report.combines += s.combines;
    report.arrivals += s.arrivals;
    report.max_arrivals = report.max_arrivals.max(s.arrivals_max);
    report.max_occupancy = report.max_occupancy.max(s.max_occupancy);
    report.max_dq = report.max_dq.max(s.max_dq);
    report.hops += s.hops;
}

/// Adds one pass's actor measures (a pass of `rounds` lockstep rounds, at most `k` PPUs per
/// router, at most `arrivals` at one host) to the run's, and checks Property 1's band
/// `rounds <= actor time <= pass_budget(rounds, k, arrivals)`.
fn tally_actor_pass(
    act: &mut ButterflyActors,
    a: &ActorMetrics,
    rounds: u64,
    k: u64,
    arrivals: u64,
) {
    let per_round = a.actor_time as f64 / rounds.max(1) as f64;
    act.pass_per_round_min = act.pass_per_round_min.min(per_round);
    act.pass_per_round_max = act.pass_per_round_max.max(per_round);
    let budget = pass_budget(rounds, k, arrivals);
    act.cadence &= (rounds..=budget).contains(&a.actor_time);
    let over = i128::from(a.actor_time) - i128::from(4 * rounds + 1);
    act.max_over_cadence = act.max_over_cadence.max(i64::try_from(over).unwrap_or(i64::MAX));
    act.actor_time += a.actor_time;
    act.max_step_actor_time = act.max_step_actor_time.max(a.actor_time);
    act.actor_space = act.actor_space.max(a.actor_space);
    act.events += a.events;
    act.messages += a.messages;
    act.actors = act.actors.max(a.actors);
    act.max_mailbox = act.max_mailbox.max(a.max_mailbox);
}

/// The barrier run's actor time: the passes' actor times plus one event per local
/// instruction (Choice 22), and its ratios to `T`, `T log2 N` and the lockstep rounds.
fn actor_totals(
    act: &mut ButterflyActors,
    t: u64,
    steps: u64,
    routers: u32,
    rounds: u64,
    passes: u64,
) -> Result<(), Error> {
    let steps_time = act.actor_time;
    // Local instructions: one event each in the replicas' chains (Choice 22).
    let local = t
        .checked_sub(steps)
        .ok_or_else(|| diverged(0, format!("{steps} global steps for T = {t}")))?;
    act.actor_time = steps_time + local;
    let t = t.max(1) as f64;
    act.actor_time_over_t = act.actor_time as f64 / t;
    act.actor_time_over_t_log_n = act.actor_time as f64 / (t * f64::from(routers).log2());
    act.actor_time_per_round = steps_time as f64 / rounds.max(1) as f64;
    if passes == 0 {
        act.pass_per_round_min = 0.0;
        act.max_over_cadence = 0;
    }
    Ok(())
}

/// What the barrier run ended with, which the overlapping run must equal.
struct Barrier<'a> {
    code: &'a Code,
    initial: &'a [i64],
    memory: &'a [i64],
    ppus: &'a [PpuActor],
}

/// The overlapping run of the whole program in one actor system (Choice 22): the passes'
/// plan and the lockstep passes each of its passes is checked against.
struct Overlapping<'a> {
    router: &'a LockstepRouter,
    plan: Vec<PassPlan>,
    lock_passes: Vec<(PassStats, SlotDigest)>,
    per_step: u64,
    fetch_order: FetchOrder,
    sched: Scheduler,
}

impl Overlapping<'_> {
    /// Runs it and checks it pass by pass and at the end against the barrier run; its
    /// measures, `below_barrier` against the barrier run's actor time `barrier_time`, the
    /// ratios to the program's `T` on `routers` routers.
    fn check(
        self,
        barrier: &Barrier<'_>,
        barrier_time: u64,
        t: u64,
        routers: u32,
    ) -> Result<OverlapActors, Error> {
        let per_step = u32::try_from(self.per_step).map_err(|_| Error::InvalidConfig {
            field: "butterfly.multiplex",
            rule: "at most 2^32 - 1 passes per step",
            got: self.per_step.to_string(),
        })?;
        let run = self.router.actor_program(
            barrier.code,
            barrier.initial,
            self.plan,
            per_step,
            self.fetch_order,
            self.sched,
            t,
        )?;
        for (i, (a, (s, slots))) in (1u64..).zip(run.passes.iter().zip(&self.lock_passes)) {
            check_pass(i, "of the overlapping run", a, s, slots)?;
        }
        let ppus = barrier.ppus;
        let same_ppus = run.replicas.len() == ppus.len()
            && run.replicas.iter().zip(ppus).all(|(a, b)| a.cpu == b.cpu && a.regs == b.regs);
        if run.passes.len() != self.lock_passes.len() || run.memory != barrier.memory || !same_ppus
        {
            return Err(Error::Mismatch {
                program: "the overlapping run".into(),
                what: "passes, final memory or registers (the barrier run's)".into(),
            });
        }
        let time = run.actor.actor_time;
        let t = t.max(1) as f64;
        Ok(OverlapActors {
            actor_time: time,
            below_barrier: i64::try_from(i128::from(barrier_time) - i128::from(time))
                .unwrap_or(i64::MIN),
            actor_time_over_t: time as f64 / t,
            actor_time_over_t_log_n: time as f64 / (t * f64::from(routers).log2()),
            actor_space: run.actor.actor_space,
            events: run.actor.events,
            messages: run.actor.messages,
            actors: run.actor.actors,
            max_mailbox: run.actor.max_mailbox,
        })
    }
}
