//! The cycle simulation of δ-LogP on BSP (paper §4, Theorem 2, Corollary 1), fully executed
//! on netcore's [`BspMachine`].
//!
//! BSP processor `B_i` runs the *same* [`LogpProcess`] code as LogP processor `P_i`, in
//! cycles of `C = max{G, δ}` steps. Each cycle (paper §4, steps 1-6, as supersteps; the BSP
//! implementation is `docs/models/logp-stall.md`, Choices):
//!
//! 1. `sim-local` (1 superstep): apply last cycle's notifications (step 5: `w_i`, and the undo
//!    when `δ < G`), take delivered messages into `Q_in(i)` and the share of the pool S, then
//!    simulate the next `C(k+1) - max{t_i, w_i}` steps of `P_i`: a submit appends to `Q_out(i)`,
//!    a receive pops `Q_in(i)`.
//! 2. `sort`: bitonic sort of `S ∪ ⋃ Q_out(i)` by `(destination, submission step, source)`
//!    ([`sort_supersteps`] counts its supersteps).
//! 3. `rank-scan`: a d-ary segmented prefix scan gives each message its rank `r` within its
//!    destination group; its delivery time is `C (k + ceil(r / ceil(L/G)))`, fixed at the
//!    first ranking (netcore's scan, [`scan_levels`]).
//! 4. `s-scan`: a prefix count of the retained messages (`r > ceil(L/G)`) and `|S|`.
//! 5. `route` (1 superstep): messages for cycle `k+1` go to `Q_in(dest)`; the others form S,
//!    evenly redistributed (`<= ceil(|S|/p)` per processor, step 6); the source of every
//!    message that newly entered S is notified of its delivery time.
//!
//! Step 5 of the paper then sets `w_i = t̄ + 1` (strict rule, `docs/models/logp-stall.md`,
//! Choices: strict unstall; `t̄` with
//! [`UnstallOffset::PaperLiteral`]) and, when `δ < G`, undoes the steps after the first submit
//! that ended in S. The simulated execution is returned as a [`crate::trace::Trace`] that passes
//! `check_legal` and that replays on the direct machine to identical final states.
//!
//! Restrictions (reported, not clamped; `docs/models/logp-stall.md`, Choices): `p` must be a
//! power of two (the bitonic sort), overhead mode `Folded` only, gap violations are errors.

pub mod bounds;
mod node;
mod sort;
mod trace;
mod wire;
pub mod workload;

pub use bounds::{corollary1_delta_l, corollary1_delta1, theorem2_cycle_bound};
pub use netcore::bsp::primitives::scan_levels;
pub use sort::sort_supersteps;

use std::collections::VecDeque;

use netcore::Step;
use netcore::bsp::primitives::TreeScan;
use netcore::bsp::{BspMachine, BspParams};
use netcore::cost::Ledger;
use serde::{Deserialize, Serialize};

use crate::error::Error;
use node::{EpisodeRec, Item, LogOp, Node, Snapshot};
use wire::{RunSummary, Wire};

use crate::{Action, LogpProcess};

/// When a stalled processor becomes operational again (`docs/models/logp-stall.md`, Choices:
/// strict unstall).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnstallOffset {
    /// `w_i = t̄ + 1`: legal under the strict rule `t̄ < t''`.
    #[default]
    Strict,
    /// `w_i = t̄` as the paper's step 5(a) writes it; legal only with `lenient_unstall`.
    PaperLiteral,
}

/// Parameters of one simulation run, validated: built only by [`SimConfig::new`] (then the
/// `with_*` methods) or by deserialisation, which checks the same rules.
///
/// The LogP parameters are `p`, `L` ([`SimConfig::latency`]), `G` ([`SimConfig::gap`]), `o`
/// and δ; the BSP machine's are `g` and `l` (the naming scheme of `docs/ARCHITECTURE.md`,
/// Naming). Config keys are the paper's letters: `p`, `G`, `L`, `o`, `delta`, `g`, `l`, and
/// `unstall`, `scan_fanin`, `max_cycles`.
///
/// # Examples
///
/// ```
/// use logp_stall::LogpParams;
/// use logp_stall::sim::{SimConfig, UnstallOffset};
///
/// // LogP p = 4, L = 4, G = 2, o = 1 with δ = 2, simulated on BSP with g = l = 1.
/// let cfg = SimConfig::new(&LogpParams::new(4, 4, 2, 1)?, 2, 1, 1)?
///     .with_unstall(UnstallOffset::Strict)
///     .with_max_cycles(1000)?;
/// assert_eq!((cfg.cycle(), cfg.capacity(), cfg.max_cycles()), (2, 2, 1000));
/// // δ above L is refused, naming the rule and the values.
/// assert_eq!(
///     SimConfig::new(&LogpParams::new(4, 4, 2, 1)?, 5, 1, 1).unwrap_err().to_string(),
///     "delta must satisfy 1 <= delta <= L (got delta=5, L=4)"
/// );
/// # Ok::<(), logp_stall::Error>(())
/// ```
///
/// Its fields are private, so a configuration the simulation cannot run (here `p` not a power
/// of two) cannot be written by hand:
///
/// ```compile_fail
/// use logp_stall::LogpParams;
/// use logp_stall::sim::SimConfig;
/// let cfg = SimConfig::new(&LogpParams::new(4, 4, 2, 1).unwrap(), 2, 1, 1).unwrap();
/// let bad = SimConfig { p: 6, ..cfg };
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawSimConfig")]
pub struct SimConfig {
    /// Processors p (a power of two, >= 2).
    pub(crate) p: u32,
    /// LogP gap G.
    #[serde(rename = "G")]
    pub(crate) gap: u64,
    /// LogP latency L.
    #[serde(rename = "L")]
    pub(crate) latency: u64,
    /// LogP overhead o (validated, folded; default 1).
    pub(crate) o: u64,
    /// Stall lag δ, `1 <= δ <= L`.
    pub(crate) delta: u64,
    /// BSP bandwidth gap g.
    pub(crate) g: u64,
    /// BSP barrier latency l.
    pub(crate) l: u64,
    /// Unstall rule.
    pub(crate) unstall: UnstallOffset,
    /// Fan-in d of the scans (default `max(2, min(ceil(C/G), floor(l/g)))`).
    pub(crate) scan_fanin: Option<u32>,
    /// Cycle limit.
    pub(crate) max_cycles: u64,
    /// Memory the run's logs and messages may take, in bytes (estimated per logged
    /// processor-step and per message, `limits::sim_run_estimate`); checked after every
    /// cycle. Not a config key: a single run sets it from the memory limit.
    #[serde(skip)]
    pub(crate) memory_budget: u64,
}

/// [`SimConfig`] as written, before validation.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSimConfig {
    p: u32,
    #[serde(rename = "G")]
    gap: u64,
    #[serde(rename = "L")]
    latency: u64,
    #[serde(default = "default_o")]
    o: u64,
    delta: u64,
    g: u64,
    l: u64,
    #[serde(default)]
    unstall: UnstallOffset,
    #[serde(default)]
    scan_fanin: Option<u32>,
    #[serde(default = "default_max_cycles")]
    max_cycles: u64,
}

impl TryFrom<RawSimConfig> for SimConfig {
    type Error = Error;
    fn try_from(r: RawSimConfig) -> Result<Self, Error> {
        let cfg = Self {
            p: r.p,
            gap: r.gap,
            latency: r.latency,
            o: r.o,
            delta: r.delta,
            g: r.g,
            l: r.l,
            unstall: r.unstall,
            scan_fanin: r.scan_fanin,
            max_cycles: r.max_cycles,
            memory_budget: u64::MAX,
        };
        cfg.validate()?;
        Ok(cfg)
    }
}

fn default_o() -> u64 {
    1
}

fn default_max_cycles() -> u64 {
    1_000_000
}

impl SimConfig {
    /// The simulation of the LogP machine `params` with stall lag `delta` on a BSP machine
    /// with gap `g` and barrier latency `l`; strict unstall, the default scan fan-in,
    /// `max_cycles = 10^6` and no memory budget.
    ///
    /// # Errors
    ///
    /// [`Error::SimParam`] or [`Error::DeltaOutOfRange`] naming the first rule broken, in the
    /// order of `docs/models/logp-stall.md`, Choices: `p >= 2`, `p <= 2^20`, `G >= 2`,
    /// `o <= G`, `G <= L`, `L <= p` (so [`LogpParams::relaxed`](crate::LogpParams::relaxed)
    /// parameters outside the paper's assumptions are refused), `1 <= δ <= L`, `p` a power of
    /// two, `1 <= g, l <= 2^32`.
    pub fn new(params: &crate::LogpParams, delta: u64, g: u64, l: u64) -> Result<Self, Error> {
        let cfg = Self {
            p: params.p(),
            gap: params.gap(),
            latency: params.latency(),
            o: params.o(),
            delta,
            g,
            l,
            unstall: UnstallOffset::Strict,
            scan_fanin: None,
            max_cycles: default_max_cycles(),
            memory_budget: u64::MAX,
        };
        cfg.validate()?;
        Ok(cfg)
    }

    /// With unstall rule `unstall` (default [`UnstallOffset::Strict`]).
    #[must_use]
    pub fn with_unstall(mut self, unstall: UnstallOffset) -> Self {
        self.unstall = unstall;
        self
    }

    /// With scan fan-in `d` instead of the default.
    ///
    /// # Errors
    ///
    /// [`Error::SimParam`] if `d < 2`.
    pub fn with_scan_fanin(mut self, d: u32) -> Result<Self, Error> {
        self.scan_fanin = Some(d);
        self.validate()?;
        Ok(self)
    }

    /// With cycle limit `max_cycles` (default `10^6`).
    ///
    /// # Errors
    ///
    /// [`Error::SimParam`] if `max_cycles = 0`.
    pub fn with_max_cycles(mut self, max_cycles: u64) -> Result<Self, Error> {
        self.max_cycles = max_cycles;
        self.validate()?;
        Ok(self)
    }

    /// With memory budget `bytes` for the run's logs and messages (default unbounded; a run
    /// past it fails with [`Error::SimMemoryLimit`]).
    #[must_use]
    pub fn with_memory_budget(mut self, bytes: u64) -> Self {
        self.memory_budget = bytes;
        self
    }

    /// Processors `p`.
    pub fn p(&self) -> u32 {
        self.p
    }
    /// LogP latency `L`.
    pub fn latency(&self) -> u64 {
        self.latency
    }
    /// LogP gap `G`.
    pub fn gap(&self) -> u64 {
        self.gap
    }
    /// LogP overhead `o`.
    pub fn o(&self) -> u64 {
        self.o
    }
    /// Stall lag δ.
    pub fn delta(&self) -> u64 {
        self.delta
    }
    /// BSP bandwidth gap `g`.
    pub fn g(&self) -> u64 {
        self.g
    }
    /// BSP barrier latency `l`.
    pub fn l(&self) -> u64 {
        self.l
    }
    /// The unstall rule.
    pub fn unstall(&self) -> UnstallOffset {
        self.unstall
    }
    /// The scan fan-in set by [`SimConfig::with_scan_fanin`], if any ([`SimConfig::fanin`]
    /// is the one used).
    pub fn scan_fanin(&self) -> Option<u32> {
        self.scan_fanin
    }
    /// The cycle limit.
    pub fn max_cycles(&self) -> u64 {
        self.max_cycles
    }
    /// The memory budget in bytes.
    pub fn memory_budget(&self) -> u64 {
        self.memory_budget
    }

    /// Capacity `K = ceil(L/G)`.
    pub fn capacity(&self) -> u64 {
        self.latency.div_ceil(self.gap)
    }

    /// Cycle length `C = max{G, δ}`.
    pub fn cycle(&self) -> u64 {
        self.gap.max(self.delta)
    }

    /// Slot capacity `b = 2 ceil(C/G)` (bounds `|Q_out(i)| + |S_i|`).
    pub fn slot_capacity(&self) -> u64 {
        2 * self.cycle().div_ceil(self.gap)
    }

    /// Scan fan-in d.
    pub fn fanin(&self) -> u32 {
        self.scan_fanin.unwrap_or_else(|| {
            let by_gap = self.cycle().div_ceil(self.gap);
            let by_bsp = self.l.checked_div(self.g).unwrap_or(by_gap);
            by_gap.min(by_bsp).clamp(2, 1 << 16) as u32
        })
    }

    /// Supersteps per cycle: `1 + (1 + k(k+1)/2) + 2 (2 ceil(log_d p) + 1) + 1`.
    pub fn schedule_len(&self) -> u64 {
        let scan = 2 * u64::from(scan_levels(self.p, self.fanin())) + 1;
        1 + sort_supersteps(self.p) + 2 * scan + 1
    }

    /// The BSP machine's parameters `(p, g, l)`.
    pub fn bsp_params(&self) -> Result<BspParams, Error> {
        Ok(BspParams::new(self.p, self.g, self.l)?)
    }

    /// Validates the parameters in the order of `docs/models/logp-stall.md`, Choices:
    /// `p >= 2`, `G >= 2`, `o <= G`, `G <= L`,
    /// `L <= p` (the paper's standing assumption `max{2, o} <= G <= L <= p`), `p <= 2^20`, then
    /// `1 <= δ <= L`, `p` a power of two, `1 <= g, ℓ <= 2^32`, `scan_fanin >= 2`,
    /// `max_cycles >= 1`.
    pub(crate) fn validate(&self) -> Result<(), Error> {
        let rules: [(bool, &'static str, &'static str, String); 6] = [
            (self.p >= 2, "p", "p >= 2", format!("p={}", self.p)),
            (self.p <= 1 << 20, "p", "p <= 2^20 (the simulation's limit)", format!("p={}", self.p)),
            (self.gap >= 2, "G", "G >= 2", format!("G={}", self.gap)),
            (self.o <= self.gap, "o", "o <= G", format!("o={}, G={}", self.o, self.gap)),
            (
                self.gap <= self.latency,
                "L",
                "G <= L",
                format!("G={}, L={}", self.gap, self.latency),
            ),
            (
                self.latency <= u64::from(self.p),
                "L",
                "L <= p",
                format!("L={}, p={}", self.latency, self.p),
            ),
        ];
        for (ok, field, rule, value) in rules {
            if !ok {
                return Err(Error::SimParam { field, rule, value });
            }
        }
        if !(1..=self.latency).contains(&self.delta) {
            return Err(Error::DeltaOutOfRange { delta: self.delta, latency: self.latency });
        }
        if !self.p.is_power_of_two() {
            return Err(Error::SimParam {
                field: "p",
                rule: "p a power of two (the simulation's bitonic sort)",
                value: self.p.to_string(),
            });
        }
        for (field, rule, v) in [("g", "1 <= g <= 2^32", self.g), ("l", "1 <= l <= 2^32", self.l)] {
            if v == 0 || v > 1 << 32 {
                return Err(Error::SimParam { field, rule, value: format!("{field}={v}") });
            }
        }
        if self.scan_fanin.is_some_and(|d| d < 2) {
            return Err(Error::SimParam {
                field: "scan_fanin",
                rule: "scan_fanin >= 2",
                value: format!("{:?}", self.scan_fanin),
            });
        }
        if self.max_cycles == 0 {
            return Err(Error::SimParam {
                field: "max_cycles",
                rule: "max_cycles >= 1",
                value: "0".into(),
            });
        }
        Ok(())
    }
}

/// Per-cycle measurements.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CycleStats {
    /// Cycle index k.
    pub cycle: u64,
    /// Messages submitted in the cycle (`⋃ Q_out(i)`).
    pub submitted: u64,
    /// Largest `|Q_out(i)|`.
    pub max_q_out: u64,
    /// `|S|` after the cycle.
    pub s_size: u64,
    /// Largest S share per processor after redistribution.
    pub max_s_share: u64,
    /// Largest number of deliveries to one destination at the end of the cycle.
    pub max_deliveries: u64,
    /// h of the route superstep.
    pub route_h: u64,
    /// LogP actions undone at the start of this cycle (step 5(b) of the previous one, δ < G).
    pub undone: u64,
    /// BSP supersteps of the cycle.
    pub supersteps: u64,
    /// BSP cost of the cycle.
    pub cost: f64,
}

/// A message of the simulated execution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SimMessage {
    /// Global id: messages numbered by (submission step, source, per-source order).
    pub id: u64,
    /// Source.
    pub src: u32,
    /// Destination.
    pub dest: u32,
    /// Submission step.
    pub submit: Step,
    /// Delivery step.
    pub deliver: Step,
    /// Step of the receive that took it, if any.
    pub received_at: Option<Step>,
}

/// One operation of a simulated processor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SimOp {
    /// Local computation.
    Compute,
    /// No action.
    Idle,
    /// Submit of message `id`.
    Submit(u64),
    /// Receive of message `id` or of nothing.
    Receive(Option<u64>),
    /// Stalled.
    Stalled,
}

/// A stall episode of the simulated execution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SimEpisode {
    /// Stalled processor.
    pub proc: u32,
    /// Its violating submission that started the episode.
    pub trigger_msg: u64,
    /// Signal step t'.
    pub signal: Step,
    /// Unstall step t''.
    pub unstall: Step,
    /// Actions of the processor after its trigger that step 5(b) undid (δ < G; they are
    /// logged as stalled steps from `t' = trigger + 1` on), 0 when δ >= G.
    pub undone: u64,
}

/// The outcome of [`simulate`].
#[derive(Debug, Clone, Serialize)]
pub struct SimReport<S> {
    /// Final process states.
    pub states: Vec<S>,
    /// Actions executed per processor (ρ).
    pub rho: Vec<u64>,
    /// LogP running time `T = 1 + last action step`.
    pub t: Step,
    /// Cycles simulated.
    pub cycles: u64,
    /// `T_LogP = C * cycles`, the simulated LogP time span.
    pub simulated_steps: Step,
    /// Messages.
    pub messages: Vec<SimMessage>,
    /// Per-processor op logs `(step, op)`.
    pub ops: Vec<Vec<(Step, SimOp)>>,
    /// Stall episodes.
    pub episodes: Vec<SimEpisode>,
    /// Per-cycle measurements.
    pub cycle_stats: Vec<CycleStats>,
    /// The BSP cost ledger.
    pub ledger: Ledger,
    /// The BSP cost of the run, `sum (w + g h + l)` over its supersteps.
    pub cost: f64,
    /// Invariant checks that failed (empty when the run is sound).
    pub broken_invariants: Vec<String>,
}

/// A simulated run with its two judges: the legality checker on its [`Trace`](crate::Trace),
/// and a [`Replay`](crate::Replay) of that trace on the direct machine, which must reproduce the
/// op logs and the final states.
#[derive(Debug, Clone)]
pub struct Judged<S> {
    /// The simulated run.
    pub report: SimReport<S>,
    /// Its trace.
    pub trace: crate::Trace,
    /// The trace passes [`check_legal`](crate::check_legal).
    pub legal: bool,
    /// The replay on the direct machine gives identical op logs and final states.
    pub replay_equal: bool,
}

/// Runs [`simulate`] and judges the run (see [`Judged`]).
pub fn simulate_and_judge<P: LogpProcess>(
    cfg: &SimConfig,
    procs: Vec<P>,
) -> Result<Judged<P::State>, Error> {
    let report = simulate(cfg, procs.clone())?;
    let trace = report.to_trace(cfg)?;
    let legal = crate::check_legal(&trace, crate::CheckOpts::default()).is_ok();
    let direct =
        crate::MachineConfig::new(trace.params, crate::StallRule::Delta { delta: cfg.delta })?;
    let replay_equal = crate::run(&direct, procs, &mut crate::Replay::new(&trace))
        .is_ok_and(|d| d.states == report.states && d.trace.ops == trace.ops);
    Ok(Judged { report, trace, legal, replay_equal })
}

/// Runs the cycle simulation of `procs` (one per LogP processor) on a BSP(p, g, ℓ) machine.
///
/// # Examples
///
/// The ping-pong of [`run`](crate::run)'s example, simulated with `p = 4`, `G = 2`, `L = 4`,
/// `δ = 2` on a BSP machine with `g = ℓ = 1`:
///
/// ```
/// use logp_stall::goal::{goal_programs, parse};
/// use logp_stall::LogpParams;
/// use logp_stall::sim::{SimConfig, simulate};
///
/// let schedule = parse(
///     "num_ranks 4\nrank 0 {\na: send 8b to 1\nb: recv 8b from 1\nb requires a\n}\n\
///      rank 1 {\na: recv 8b from 0\nb: send 8b to 0\nb requires a\n}\n",
/// )?;
/// let cfg = SimConfig::new(&LogpParams::new(4, 4, 2, 1)?, 2, 1, 1)?;
/// let report = simulate(&cfg, goal_programs(&schedule, 2))?;
/// assert_eq!(report.messages.len(), 2);
/// # Ok::<(), logp_stall::Error>(())
/// ```
///
/// # Errors
///
/// `procs.len() != p` ([`Error::SimParam`] naming `procs`), a program fault, more than
/// `max_cycles` cycles, or the memory budget passed ([`Error::SimMemoryLimit`]).
pub fn simulate<P: LogpProcess>(
    cfg: &SimConfig,
    procs: Vec<P>,
) -> Result<SimReport<P::State>, Error> {
    if procs.len() != cfg.p as usize {
        return Err(Error::SimParam {
            field: "procs",
            rule: "one process per processor",
            value: format!("{} processes for p = {}", procs.len(), cfg.p),
        });
    }
    Sim::new(cfg, procs)?.run()
}

/// The BSP machine of the simulation.
type SimMachine<P> =
    BspMachine<Node<P, <P as LogpProcess>::Payload>, Wire<Item<<P as LogpProcess>::Payload>>>;

struct Sim<P: LogpProcess> {
    cfg: SimConfig,
    k_cap: u64,
    c: u64,
    b: usize,
    d: u32,
    m: SimMachine<P>,
    stats: Vec<CycleStats>,
    broken: Vec<String>,
}

impl<P: LogpProcess> Sim<P> {
    fn new(cfg: &SimConfig, procs: Vec<P>) -> Result<Self, Error> {
        let nodes = procs
            .into_iter()
            .map(|process| Node {
                process,
                rho: 0,
                t: 0,
                w: 0,
                last_comm: None,
                q_in: VecDeque::new(),
                items: Vec::new(),
                sent: 0,
                snapshot: None,
                log: Vec::new(),
                notified: Vec::new(),
                episodes: Vec::new(),
                delivered: Vec::new(),
                received: Vec::new(),
                total_s: 0,
                error: None,
            })
            .collect();
        let m = BspMachine::new(cfg.bsp_params()?, nodes)?;
        Ok(Self {
            cfg: cfg.clone(),
            k_cap: cfg.capacity(),
            c: cfg.cycle(),
            b: cfg.slot_capacity() as usize,
            d: cfg.fanin(),
            m,
            stats: Vec::new(),
            broken: Vec::new(),
        })
    }

    fn run(mut self) -> Result<SimReport<P::State>, Error> {
        let mut k = 0u64;
        loop {
            if k >= self.cfg.max_cycles {
                return Err(Error::SimCycleLimit { max_cycles: self.cfg.max_cycles });
            }
            let before = self.m.ledger().supersteps();
            let undone = self.local(k)?;
            let done = self
                .m
                .states()
                .iter()
                .all(|n| n.process.is_halted() && n.items.is_empty() && n.notified.is_empty());
            if done {
                self.record(k, before, undone);
                k += 1;
                break;
            }
            self.exchange(k)?;
            self.record(k, before, undone);
            self.check_memory(k)?;
            k += 1;
        }
        Ok(self.report(k))
    }

    /// The run's logs and messages after cycle `k` against [`SimConfig::memory_budget`].
    fn check_memory(&self, k: u64) -> Result<(), Error> {
        if self.cfg.memory_budget == u64::MAX {
            return Ok(());
        }
        let nodes = self.m.states();
        let steps: u64 = nodes.iter().map(|n| n.log.len() as u64).sum();
        let messages: u64 = nodes.iter().map(|n| u64::from(n.sent)).sum();
        let estimate = crate::limits::sim_run_estimate(steps, messages);
        if estimate > self.cfg.memory_budget {
            return Err(Error::SimMemoryLimit {
                cycle: k,
                steps,
                messages,
                estimate,
                limit: self.cfg.memory_budget,
            });
        }
        Ok(())
    }

    /// Superstep `sim-local` of cycle k: steps 5 (of cycle k-1), 4's delivery, 6's share, 1.
    fn local(&mut self, k: u64) -> Result<u64, Error> {
        let (c, delta, gap, unstall) = (self.c, self.cfg.delta, self.cfg.gap, self.cfg.unstall);
        let p = self.cfg.p;
        let mut undone_total = 0;
        self.m.superstep("sim-local", |ctx, node| {
            let pid = ctx.pid();
            let now = c * k;
            // Deliveries for this cycle boundary and this processor's share of S.
            for (_, w) in ctx.drain_inbox() {
                match w {
                    Wire::Item(item) if item.deliver == Some(now) => node.q_in.push_back(item),
                    Wire::Item(item) => node.items.push(item),
                    Wire::Notify(seq, deliver) => node.notified.push((seq as u32, deliver)),
                    _ => {}
                }
                ctx.charge(1);
            }
            // Step 5 of the previous cycle: stall (and undo when δ < G).
            if !node.notified.is_empty() {
                let t_bar = node.notified.iter().map(|&(_, d)| d).max().unwrap_or(now);
                let trigger = node.notified.iter().map(|&(s, _)| s).min().unwrap_or(0);
                node.w = match unstall {
                    UnstallOffset::Strict => t_bar + 1,
                    UnstallOffset::PaperLiteral => t_bar,
                };
                let mut signal = now;
                let mut undone = 0;
                if delta < gap {
                    if let Some(snap) = node.snapshot.take().filter(|s| s.seq == trigger) {
                        let redo = node.log.len() - snap.log_len;
                        node.process = snap.process;
                        node.rho = snap.rho;
                        node.last_comm = snap.last_comm;
                        node.log.truncate(snap.log_len);
                        signal = snap.submit_step + 1;
                        if !node.process.is_halted() {
                            node.log.extend((signal..now).map(|s| (s, LogOp::Stalled)));
                        }
                        ctx.charge(redo as u64);
                        undone = redo as u64;
                        undone_total += undone;
                    } else {
                        node.error = Some(format!(
                            "undo of P{pid}: no snapshot of its submit #{trigger} (two submits in one cycle with delta < G)"
                        ));
                    }
                }
                ctx.charge(node.notified.len() as u64);
                node.episodes.push(EpisodeRec {
                    trigger_seq: trigger,
                    signal,
                    unstall: node.w,
                    undone,
                });
                node.notified.clear();
            }
            node.snapshot = None;
            // Step 1: simulate steps max(t_i, w_i) .. C(k+1) - 1.
            let end = c * (k + 1);
            let stall_end = node.w.min(end);
            for s in node.t..stall_end {
                if node.process.is_halted() {
                    break;
                }
                node.log.push((s, LogOp::Stalled));
            }
            let start = node.t.max(node.w);
            for step in start..end {
                if node.process.is_halted() || node.error.is_some() {
                    break;
                }
                ctx.charge(1);
                node.rho += 1;
                match node.process.next(step) {
                    Action::Compute => node.log.push((step, LogOp::Compute)),
                    Action::Idle => node.log.push((step, LogOp::Idle)),
                    Action::Submit { dest, payload } => {
                        if let Err(e) = check_comm(node.last_comm, step, gap, pid) {
                            node.error = Some(e);
                            break;
                        }
                        if dest >= p || dest == pid {
                            node.error = Some(format!(
                                "P{pid} submits to P{dest} at step {step} (destination must be another processor < p = {p})"
                            ));
                            break;
                        }
                        let seq = node.sent;
                        node.sent += 1;
                        node.items.push(Item {
                            dest,
                            submit: step,
                            src: pid,
                            seq,
                            deliver: None,
                            rank: 0,
                            s_index: 0,
                            payload,
                        });
                        node.log.push((step, LogOp::Submit(seq)));
                        node.last_comm = Some(step);
                        if delta < gap && node.snapshot.is_none() {
                            node.snapshot = Some(Snapshot {
                                process: node.process.clone(),
                                rho: node.rho,
                                log_len: node.log.len(),
                                submit_step: step,
                                seq,
                                last_comm: node.last_comm,
                            });
                        }
                    }
                    Action::Receive => {
                        if let Err(e) = check_comm(node.last_comm, step, gap, pid) {
                            node.error = Some(e);
                            break;
                        }
                        node.last_comm = Some(step);
                        match node.q_in.pop_front() {
                            Some(item) => {
                                node.received.push((item.src, item.seq, step));
                                node.log.push((step, LogOp::Receive(Some((item.src, item.seq)))));
                                node.process.on_receive(
                                    Some(crate::Delivered {
                                        src: item.src,
                                        payload: item.payload,
                                    }),
                                    step,
                                );
                            }
                            None => {
                                node.log.push((step, LogOp::Receive(None)));
                                node.process.on_receive(None, step);
                            }
                        }
                    }
                }
            }
            if node.error.is_none()
                && let Some(fault) = node.process.fault()
            {
                node.error = Some(format!("P{pid}: {fault}"));
            }
            node.t = end;
        })?;
        if let Some((pid, e)) =
            self.m.states().iter().enumerate().find_map(|(i, n)| n.error.clone().map(|e| (i, e)))
        {
            return Err(Error::SimRun { proc: pid as u32, message: e });
        }
        Ok(undone_total)
    }

    /// Steps 2-4 and 6 of cycle k: sort, rank, S count, route.
    fn exchange(&mut self, k: u64) -> Result<(), Error> {
        let (c, kc) = (self.c, self.k_cap);
        let b = self.b;
        if let Some(n) = self.m.states().iter().find(|n| n.items.len() > b) {
            self.broken.push(format!("cycle {k}: a block holds {} > b = {b} items", n.items.len()));
        }
        sort::bitonic_sort(&mut self.m, b)?;
        let broken = std::cell::RefCell::new(Vec::new());
        let one =
            |it: &Item<P::Payload>| RunSummary { n: 1, first: it.dest, last: it.dest, trail: 1 };
        TreeScan {
            fanin: self.d,
            label: "rank-scan",
            identity: RunSummary::EMPTY,
            op: &RunSummary::then,
            get: &|n: &Node<P, P::Payload>| {
                n.items.iter().fold(RunSummary::EMPTY, |acc, it| RunSummary::then(&acc, &one(it)))
            },
            put: &|n: &mut Node<P, P::Payload>, mut run: RunSummary, _| {
                for it in &mut n.items {
                    it.rank = if run.n > 0 && run.last == it.dest { run.trail + 1 } else { 1 };
                    run = RunSummary::then(&run, &one(it));
                    let t_m = c * (k + it.rank.div_ceil(kc));
                    match it.deliver {
                        None => it.deliver = Some(t_m),
                        Some(d) if d != t_m => broken.borrow_mut().push(format!(
                            "cycle {k}: delivery time of P{}'s message #{} moved from {d} to {t_m}",
                            it.src, it.seq
                        )),
                        Some(_) => {}
                    }
                }
                n.items.len() as u64
            },
        }
        .run(&mut self.m, Wire::RankScan, |w| match w {
            Wire::RankScan(msg) => Some(msg),
            _ => None,
        })?;
        TreeScan {
            fanin: self.d,
            label: "s-scan",
            identity: 0u64,
            op: &|x: &u64, y: &u64| x + y,
            get: &|n: &Node<P, P::Payload>| n.items.iter().filter(|it| it.rank > kc).count() as u64,
            put: &|n: &mut Node<P, P::Payload>, mut s: u64, total: u64| {
                for it in n.items.iter_mut().filter(|it| it.rank > kc) {
                    it.s_index = s;
                    s += 1;
                }
                n.total_s = total;
                n.items.len() as u64
            },
        }
        .run(&mut self.m, Wire::CountScan, |w| match w {
            Wire::CountScan(msg) => Some(msg),
            _ => None,
        })?;
        self.broken.extend(broken.into_inner());
        let p = u64::from(self.cfg.p);
        let now = c * k;
        self.m.superstep("route", |ctx, node| {
            let share = node.total_s.div_ceil(p).max(1);
            for it in std::mem::take(&mut node.items) {
                ctx.charge(1);
                if it.rank <= kc {
                    node.delivered.push((
                        it.src,
                        it.seq,
                        it.dest,
                        it.submit,
                        it.deliver.unwrap_or(0),
                    ));
                    ctx.send(it.dest, Wire::Item(it));
                } else {
                    if it.submit >= now {
                        ctx.send(it.src, Wire::Notify(u64::from(it.seq), it.deliver.unwrap_or(0)));
                    }
                    ctx.send((it.s_index / share) as u32, Wire::Item(it));
                }
            }
        })?;
        Ok(())
    }

    /// Per-cycle measurements and the invariants (paper §4, steps 3-6 and the proof of
    /// Theorem 2; `docs/models/logp-stall.md`, Choices: per-cycle invariants).
    fn record(&mut self, k: u64, before: usize, undone: u64) {
        let records = &self.m.ledger().records[before..];
        let route_h = records.iter().filter(|r| r.label == "route").map(|r| r.h).max().unwrap_or(0);
        let (c, p) = (self.c, self.cfg.p);
        let next = c * (k + 1);
        let mut deliveries = vec![0u64; p as usize];
        let mut shares = vec![0u64; p as usize];
        for pid in 0..p {
            for (_, w) in self.m.pending(pid) {
                if let Wire::Item(it) = w {
                    if it.deliver == Some(next) {
                        deliveries[it.dest as usize] += 1;
                    } else {
                        shares[pid as usize] += 1;
                    }
                }
            }
        }
        let s_size: u64 = shares.iter().sum();
        let max_s_share = shares.iter().copied().max().unwrap_or(0);
        let max_deliveries = deliveries.iter().copied().max().unwrap_or(0);
        let q_out: Vec<u64> = self
            .m
            .states()
            .iter()
            .map(|n| {
                let first = n.log.partition_point(|&(s, _)| s < c * k);
                n.log[first..].iter().filter(|(_, op)| matches!(op, LogOp::Submit(_))).count()
                    as u64
            })
            .collect();
        let max_q_out = q_out.iter().copied().max().unwrap_or(0);
        let per_cycle = c.div_ceil(self.cfg.gap);
        let mut check = |ok: bool, what: String| {
            if !ok {
                self.broken.push(format!("cycle {k}: {what}"));
            }
        };
        check(
            max_q_out <= per_cycle,
            format!("|Q_out(i)| = {max_q_out} > ceil(C/G) = {per_cycle}"),
        );
        check(
            max_s_share <= s_size.div_ceil(u64::from(p)),
            format!("an S share of {max_s_share} > ceil(|S|/p) with |S| = {s_size}"),
        );
        check(
            max_deliveries <= self.k_cap,
            format!("{max_deliveries} deliveries to one destination > K = {}", self.k_cap),
        );
        let full = records.len() as u64 == self.cfg.schedule_len();
        check(
            full || records.len() == 1,
            format!("{} supersteps, schedule_len = {}", records.len(), self.cfg.schedule_len()),
        );
        self.stats.push(CycleStats {
            cycle: k,
            submitted: q_out.iter().sum(),
            max_q_out,
            s_size,
            max_s_share,
            max_deliveries,
            route_h,
            undone,
            supersteps: records.len() as u64,
            cost: self.m.cost_since(before),
        });
    }

    fn report(self, cycles: u64) -> SimReport<P::State> {
        let cost = self.m.cost();
        let (nodes, ledger) = self.m.finish();
        // Global ids: messages numbered by (submit step, source, per-source order).
        let mut all: Vec<(Step, u32, u32, u32, Step)> = nodes
            .iter()
            .flat_map(|n| {
                n.delivered.iter().map(|&(src, seq, dest, submit, d)| (submit, src, seq, dest, d))
            })
            .collect();
        all.sort_unstable();
        let mut ids: Vec<Vec<u64>> =
            nodes.iter().map(|n| vec![u64::MAX; n.sent as usize]).collect();
        for (i, &(_, src, seq, _, _)) in all.iter().enumerate() {
            ids[src as usize][seq as usize] = i as u64;
        }
        let id_of = |src: u32, seq: u32| -> u64 { ids[src as usize][seq as usize] };
        let mut messages: Vec<SimMessage> = all
            .iter()
            .enumerate()
            .map(|(i, &(submit, src, _, dest, deliver))| SimMessage {
                id: i as u64,
                src,
                dest,
                submit,
                deliver,
                received_at: None,
            })
            .collect();
        for n in &nodes {
            for &(src, seq, step) in &n.received {
                let id = id_of(src, seq);
                if let Some(m) = messages.get_mut(id as usize) {
                    m.received_at = Some(step);
                }
            }
        }
        let ops: Vec<Vec<(Step, SimOp)>> = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| {
                n.log
                    .iter()
                    .map(|&(s, op)| {
                        let op = match op {
                            LogOp::Compute => SimOp::Compute,
                            LogOp::Idle => SimOp::Idle,
                            LogOp::Stalled => SimOp::Stalled,
                            LogOp::Submit(seq) => SimOp::Submit(id_of(i as u32, seq)),
                            LogOp::Receive(r) => {
                                SimOp::Receive(r.map(|(src, seq)| id_of(src, seq)))
                            }
                        };
                        (s, op)
                    })
                    .collect()
            })
            .collect();
        let episodes = nodes
            .iter()
            .enumerate()
            .flat_map(|(i, n)| n.episodes.iter().map(move |e| (i as u32, *e)))
            .map(|(proc, e)| SimEpisode {
                proc,
                trigger_msg: id_of(proc, e.trigger_seq),
                signal: e.signal,
                unstall: e.unstall,
                undone: e.undone,
            })
            .collect();
        let t = ops
            .iter()
            .filter_map(|log| {
                log.iter().rev().find(|(_, op)| *op != SimOp::Stalled).map(|(s, _)| s + 1)
            })
            .max()
            .unwrap_or(0);
        SimReport {
            states: nodes.iter().map(|n| n.process.state()).collect(),
            rho: nodes.iter().map(|n| n.rho).collect(),
            t,
            cycles,
            simulated_steps: self.c * cycles,
            messages,
            ops,
            episodes,
            cycle_stats: self.stats,
            ledger,
            cost,
            broken_invariants: self.broken,
        }
    }
}

fn check_comm(last: Option<Step>, step: Step, gap: u64, pid: u32) -> Result<(), String> {
    match last {
        Some(prev) if step - prev < gap => Err(format!(
            "gap rule: P{pid} communicates at steps {prev} and {step} (need step - previous >= G = {gap})"
        )),
        _ => Ok(()),
    }
}
