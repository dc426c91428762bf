//! Study `actor-pram-direct`: the direct translation of PRAM programs (Baude, Section 3,
//! Definition 3 and the remark on a constant time-loss for communication-predictable programs). For EREW programs in
//! which no cell is touched by two PPUs in one step, a PPU actor spends one event per
//! instruction and two more per read, so `actor_time / T` stays flat in `n` (the constant
//! time loss); a hot spot (CREW, every PPU reads one cell) serializes at the cell actor, so
//! the ratio grows like `S / T` there. Permutation read fails Definition 3's static test (its
//! read address depends on global memory), so its cells are scheduled from the reference
//! run's trace, an oracle (Choice 5): its flat ratio is claimed apart, as an illustration.

use netcore::pram::Limits;
use netcore::pram::library::Algorithm;
use netcore::rng::SimRng;
use netcore::study::{Claim, Column, Law, ModelError, ParamError, Plot, Study};
use rand::Rng;
use serde::{Deserialize, Serialize};

use super::axis::SchedulerAxis;
use crate::direct::{ScheduleSource, simulate_direct};

/// The study.
#[derive(Debug, Clone, Copy, Default)]
pub struct Direct;

/// One point.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DirectParams {
    /// A library program.
    pub program: Algorithm,
    /// `log2 n`, `1..=14`.
    pub log_n: u32,
    /// The delivery order.
    pub scheduler: SchedulerAxis,
}

/// A validated point.
#[derive(Debug, Clone)]
pub struct DirectPoint {
    program: Algorithm,
    n: u32,
    scheduler: SchedulerAxis,
}

/// One row.
#[derive(Debug, Clone, Serialize)]
pub struct DirectRow {
    /// `n`.
    pub n: u32,
    /// PRAM time.
    #[serde(rename = "T")]
    pub t: u64,
    /// PRAM global steps.
    #[serde(rename = "G")]
    pub g: u64,
    /// Actor time.
    pub actor_time: u64,
    /// `actor_time / T`.
    pub time_ratio: f64,
    /// Actor space (words).
    pub actor_space: u64,
    /// Events.
    pub events: u64,
    /// Messages.
    pub messages: u64,
    /// The largest mailbox.
    pub max_mailbox: u64,
    /// The largest number of cells one PPU actor knows.
    pub max_acquaintances: u64,
    /// `max_acquaintances / log2 n` (Definition 3's condition: at most about `log n` cells
    /// per PPU).
    pub cells_per_log_n: f64,
    /// The program passes the static test of Definition 3.
    pub predictable: bool,
    /// Where the cells' schedules came from (Choice 5).
    pub schedule: ScheduleSource,
    /// `predictable` and the schedules from a zero-input run (no oracle).
    pub static_schedule: bool,
    /// Not `predictable` and the schedules from the reference run's trace (the oracle).
    pub oracle_schedule: bool,
    /// Memory and registers equal the reference's and the output its plain Rust reference.
    pub verified: bool,
}

/// The predictable programs whose ratio must stay flat (Section 3's remark): EREW, every
/// cell touched by one PPU per step, passing Definition 3's static test.
pub const FLAT_PROGRAMS: [Algorithm; 3] =
    [Algorithm::PrefixSums, Algorithm::BitonicSort, Algorithm::TreeReduction];

/// The bound on `cells_per_log_n` (Definition 3's "log(n) or less", read as `O(log n)`).
pub const CELLS_PER_LOG_N: f64 = 2.0;

/// The spread of `actor_time / T` over the sizes that still counts as flat.
pub const FLAT: f64 = 1.5;

impl Study for Direct {
    type Params = DirectParams;
    type Point = DirectPoint;
    type Row = DirectRow;

    fn name(&self) -> &'static str {
        "actor-pram-direct"
    }
    fn about(&self) -> &'static str {
        "the direct translation of PRAM programs: actor_time / T flat for EREW programs, growing at a hot spot"
    }
    fn point(&self, p: &DirectParams) -> Result<DirectPoint, ModelError> {
        if !(1..=14).contains(&p.log_n) {
            return Err(ParamError::new("log_n", "1 <= log_n <= 14", p.log_n).into());
        }
        let n = 1u32 << p.log_n;
        p.program.check_size(n)?;
        Ok(DirectPoint { program: p.program, n, scheduler: p.scheduler })
    }
    fn run(&self, p: &DirectPoint, rng: &mut SimRng) -> Result<Vec<DirectRow>, ModelError> {
        let instance = p.program.instance(p.n, rng.next_u64())?;
        let scheduler = p.scheduler.scheduler(rng);
        let r = simulate_direct(&instance.program, &instance.input, scheduler, &Limits::default())?;
        let output_ok = r.memory.get(instance.output.clone()) == Some(&instance.expected[..]);
        let zero_input = r.schedule == ScheduleSource::ZeroInput;
        Ok(vec![DirectRow {
            n: p.n,
            t: r.pram.t,
            g: r.pram.g,
            actor_time: r.actor.actor_time,
            time_ratio: r.actor.actor_time as f64 / r.pram.t.max(1) as f64,
            actor_space: r.actor.actor_space,
            events: r.actor.events,
            messages: r.actor.messages,
            max_mailbox: r.actor.max_mailbox,
            max_acquaintances: r.max_acquaintances,
            cells_per_log_n: r.max_acquaintances as f64 / f64::from(p.n).log2(),
            predictable: r.predictable,
            schedule: r.schedule,
            static_schedule: r.predictable && zero_input,
            oracle_schedule: !r.predictable && !zero_input,
            verified: r.verified && output_ok,
        }])
    }
    fn claims(&self) -> Vec<Claim> {
        let mut claims = constant_loss_claims();
        claims.extend(definition3_claims());
        claims.push(
            Claim::grows(
                "hot-spot-read, the worst case on the project's direct translation: actor_time / T grows with n (the cell actor serializes S reads; x2 at least)",
                "time_ratio",
                "n",
                2.0,
            )
            .only("program", Algorithm::HotSpotRead.name())
            .pool("log_n")
            .illustration(),
        );
        claims
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("program", "a library program"),
            Column::new("log_n", "log2 n"),
            Column::new("scheduler", "the delivery order"),
            Column::new("n", "n"),
        ]
        .into_iter()
        .chain(super::pram_cost_columns())
        .chain([
            Column::new("actor_time", "actor time"),
            Column::new("time_ratio", "actor_time / T"),
            Column::new("actor_space", "actor space (words)"),
            Column::new("events", "events"),
            Column::new("messages", "messages"),
            Column::new("max_mailbox", "the largest mailbox"),
            Column::new("max_acquaintances", "the largest number of cells one PPU actor knows"),
            Column::new("cells_per_log_n", "max_acquaintances / log2 n"),
            Column::new("predictable", "the program passes the static test of Definition 3"),
            Column::new(
                "schedule",
                "where the cells' schedules came from: zero-input (a reference run on a zero input) or reference-trace (this run's reference trace, an oracle)",
            ),
            Column::new("static_schedule", "predictable, and scheduled from a zero-input run"),
            Column::new(
                "oracle_schedule",
                "not predictable, and scheduled from the reference trace (the oracle)",
            ),
            Column::new(
                "verified",
                "memory and registers equal the reference's and the output its plain Rust reference",
            ),
        ])
        .collect()
    }

    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new(
                "time-ratio",
                "direct translation: actor time / PRAM time",
                "n",
                &["time_ratio"],
            )
            .series("program")
            .log_x(),
        ]
    }
}

/// Section 3's remark: a constant time-loss (actor time ~ T) where every cell a PPU touches is
/// an acquaintance; the nearest rival is the general case's T log n (Theorem 1's lower bound),
/// one log n more, which spreads x2.5 over log_n = 4..10. Each predictable program is claimed
/// on its own; permutation-read, scheduled by the oracle, in a claim of its own (an
/// illustration: the paper's remark assumes the acquaintances are known without one).
fn constant_loss_claims() -> Vec<Claim> {
    let mut claims: Vec<Claim> = FLAT_PROGRAMS
        .into_iter()
        .map(|program| {
            let name = program.name();
            Claim::flat(
                format!(
                    "Section 3's constant time-loss, {name}: actor_time / T is flat in n (within x{FLAT}; the rival T log n spreads x2.5)"
                ),
                "time_ratio",
                FLAT,
            )
            .only("program", name)
            .result(Law::new("T (constant ratio)"))
            .rival(Law::new("T log n (log n more)").pow("log_n", 1.0))
            .of("Remark (Section 3, constant time-loss)")
        })
        .collect();
    claims.push(
        Claim::flat(
            format!(
                "oracle-scheduled permutation-read (unpredictable, its cells scheduled from the reference run's trace): actor_time / T is flat in n (within x{FLAT}); what the direct translation gives with the oracle, not the remark's predictable case"
            ),
            "time_ratio",
            FLAT,
        )
        .only("program", Algorithm::PermutationRead.name())
        .illustration(),
    );
    claims
}

/// Definition 3 on the grid: the static test accepts the programs of the constant time-loss
/// claims (their cells scheduled from a zero-input run) and rejects permutation-read (the
/// oracle); a predictable program's PPU actor knows `O(log n)` cells.
fn definition3_claims() -> Vec<Claim> {
    let mut claims: Vec<Claim> = FLAT_PROGRAMS
        .into_iter()
        .map(|program| {
            let name = program.name();
            Claim::all_true(
                format!(
                    "Definition 3, {name}: the static test finds it predictable and its cells are scheduled from a zero-input run (no oracle) on every row, the premise of its constant time-loss claim"
                ),
                "static_schedule",
            )
            .only("program", name)
            .consistency()
            .of("Definition 3")
        })
        .collect();
    claims.push(
        Claim::all_true(
            "Definition 3, permutation-read: the static test finds it unpredictable (its read address depends on global memory) and its cells are scheduled from the reference run's trace (the oracle) on every row",
            "oracle_schedule",
        )
        .only("program", Algorithm::PermutationRead.name())
        .consistency()
        .of("Definition 3"),
    );
    claims.push(
        Claim::within(
            format!(
                "Definition 3's acquaintance condition ('log(n) or less', read as O(log n)): a PPU actor of a predictable program knows at most {CELLS_PER_LOG_N} log2 n cells (max_acquaintances / log2 n within [0, {CELLS_PER_LOG_N}])"
            ),
            "cells_per_log_n",
            0.0,
            CELLS_PER_LOG_N,
        )
        .only("predictable", true)
        .consistency()
        .of("Definition 3"),
    );
    claims
}
