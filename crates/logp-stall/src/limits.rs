//! Input limits: the memory a single run may take, estimated from the input before anything
//! of its size is allocated, with the bytes per unit of work measured by `tests/mem`
//! (`docs/models/logp-stall.md`, Limits). A run over a limit is [`Error::MemoryLimit`]
//! (a config error naming the field, the estimate and the limit); the LogP machine's trace,
//! whose size only the run reveals, is bounded during the run ([`Error::TraceLimit`]).

use crate::error::Error;
use crate::goal::Generator;
use netcore::bsp::primitives::SortAlgorithm;

/// Memory a single run may take: 2 GiB.
pub const MEMORY_LIMIT: u64 = 1 << 31;

/// Processor-steps a `kind = "logp"` run may take, `p * max_steps <= 2^33` (about a minute at
/// the measured 150-200 M processor-steps/s); the default `max_steps` is
/// `min(10^7, 2^33 / p)`.
pub const LOGP_WORK_LIMIT: u64 = 1 << 33;

/// LogP machine: bytes per trace event (op-log run or message), through the run, the
/// legality check and the JSON report with the trace (measured: see the Limits section).
pub const LOGP_BYTES_PER_EVENT: u64 = 1024;
/// LogP machine: bytes per processor besides its program and its trace: 2.1-2.3 kB
/// measured (peak resident set and address space of `p = 2^18` scripts that halt at once;
/// see the Limits section).
pub const LOGP_BYTES_PER_PROC: u64 = 2560;

/// GOAL: bytes per operation, dependency or distinct operation shape (its text, the parsed
/// schedule, the engine's state and its share of the event queue).
pub const GOAL_BYTES_PER_OP: u64 = 150;
/// GOAL: bytes per rank.
pub const GOAL_BYTES_PER_RANK: u64 = 200;

/// Cycle simulation: bytes per processor.
pub const SIM_BYTES_PER_PROC: u64 = 4096;
/// Cycle simulation: bytes per message.
pub const SIM_BYTES_PER_MSG: u64 = 2048;

/// Cycle simulation of a program: bytes per logged processor-step (the simulation's op log,
/// the report's, the trace built from it, the checker's expanded copy, and in the worst case
/// one op run of the JSON trace per step; measured: see the Limits section).
pub const SIM_BYTES_PER_STEP: u64 = 1024;

/// Cycle simulation: bytes per superstep record of the BSP ledger (the record, its label and
/// the vector's growth room; 220-230 B measured: 10^5 cycles of 16 supersteps at p = 4 took
/// 361 MB).
pub const SIM_BYTES_PER_RECORD: u64 = 256;

/// Cycle simulation: the work a single run may take from a config, in units of
/// `schedule_len (p + SIM_SUPERSTEP_UNITS) + p C` per cycle (a superstep costs about as much as
/// 64 processors' share of it, whatever `p`; step 1 of the paper's §4 simulates up to `C`
/// steps of each of the `p` processors): `2^29`, under a minute at the slowest measured
/// rate (1.1 * 10^7 units/s: a script on p = 2^16, 10 cycles of 205 supersteps in 12.6 s;
/// random traffic there, 21 cycles in 16.6 s with its checks; at p = 4, 10^5 cycles of 16
/// supersteps take 0.8 s). A given `max_cycles` past it is a config error; the default is
/// `min(10^6, 2^29 / (schedule_len (p + 64) + p C))`. (Before, the `p C` local steps were not
/// counted.)
pub const SIM_WORK_LIMIT: u64 = 1 << 29;
/// Cycle simulation: the work units of a superstep besides one per processor.
pub const SIM_SUPERSTEP_UNITS: u64 = 64;

/// The work units of one simulated cycle of `schedule_len` supersteps on `p` processors with
/// cycle length `c`: `schedule_len (p + 64) + p c`.
pub fn sim_cycle_work(p: u64, schedule_len: u64, c: u64) -> u64 {
    schedule_len
        .saturating_mul(p.saturating_add(SIM_SUPERSTEP_UNITS))
        .saturating_add(p.saturating_mul(c))
}

/// A cycle-simulation job of a study (`logp-theorem2`, `logp-corollary1`) may take 8 GiB,
/// more than a single run's [`MEMORY_LIMIT`]: the sweep is where the large sizes run, and the
/// large preset's largest job (`p = 2^16`, `C = 32`, Cole's cascading sort) peaks at 4.7 GB
/// (estimated 6.7 GB for the whole run). Two such jobs on the development machine's two
/// threads take 16 of its 24 GiB (`docs/models/logp-stall.md`, Limits).
pub const STUDY_MEMORY_LIMIT: u64 = 8 << 30;

/// Cycle simulation of a generated workload: bytes per logged processor-step (its op log and
/// the trace its checks build; its report carries no trace). Measured: at most about 75 B (the
/// bitonic rows of the Limits section's table).
pub const SIM_WORKLOAD_BYTES_PER_STEP: u64 = 256;

/// Step 2's cascading sort (Cole, netcore's `SortAlgorithm::Cascade`) on blocks of
/// `b = 2 ceil(C/G)` slots: bytes per processor besides one per slot. Measured over the bitonic
/// sort's runs of the same points: 21.6 kB per processor at `b` = 8, 57.8 (four messages per
/// processor) to 64.3 kB (sixteen) at `b` = 32, and about 183 kB at `b` = 128 (the Limits
/// section's table).
pub const SIM_CASCADE_BYTES_PER_PROC: u64 = 8 << 10;
/// The cascading sort's bytes per slot of a block (see [`SIM_CASCADE_BYTES_PER_PROC`]).
pub const SIM_CASCADE_BYTES_PER_SLOT: u64 = 2 << 10;

/// What a cycle simulation's memory checks price per logged processor-step and per message.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SimLogs {
    /// A program's run, whose report may carry the whole trace ([`SIM_BYTES_PER_STEP`]); its
    /// messages are counted as they are sent ([`SIM_BYTES_PER_MSG`]).
    #[default]
    Program,
    /// A generated workload's run, without a trace in its report
    /// ([`SIM_WORKLOAD_BYTES_PER_STEP`]); its messages are counted before the run
    /// ([`sim_estimate`]), so the checks of its cycles add none.
    Workload,
}

impl SimLogs {
    /// Bytes per logged processor-step.
    pub fn per_step(self) -> u64 {
        match self {
            SimLogs::Program => SIM_BYTES_PER_STEP,
            SimLogs::Workload => SIM_WORKLOAD_BYTES_PER_STEP,
        }
    }

    /// Bytes per message counted by the run's checks.
    pub fn per_message(self) -> u64 {
        match self {
            SimLogs::Program => SIM_BYTES_PER_MSG,
            SimLogs::Workload => 0,
        }
    }

    /// Estimated bytes of `steps` logged processor-steps and `messages` messages.
    pub fn run_estimate(self, steps: u64, messages: u64) -> u64 {
        steps
            .saturating_mul(self.per_step())
            .saturating_add(messages.saturating_mul(self.per_message()))
    }
}

/// The memory of step 2's sort of one cycle on `p` processors with blocks of `b` slots, beyond
/// the blocks themselves: the cascading sort's lists (measured, [`SIM_CASCADE_BYTES_PER_PROC`]);
/// the bitonic sort merges two blocks in place of one (`b` slots of 64 bytes).
pub fn sim_sort_estimate(sort: SortAlgorithm, p: u64, b: u64) -> u64 {
    let per_proc = match sort {
        SortAlgorithm::Bitonic => b.saturating_mul(64),
        SortAlgorithm::Cascade => {
            SIM_CASCADE_BYTES_PER_PROC.saturating_add(b.saturating_mul(SIM_CASCADE_BYTES_PER_SLOT))
        }
    };
    p.saturating_mul(per_proc)
}

/// `Ok` if `estimate` is within [`MEMORY_LIMIT`], else the error naming `field = value`.
pub fn check(
    field: &'static str,
    value: impl FnOnce() -> String,
    estimate: u64,
) -> Result<(), Error> {
    check_within(field, value, estimate, MEMORY_LIMIT)
}

/// `Ok` if `estimate` is within `limit`, else the error naming `field = value`.
pub fn check_within(
    field: &'static str,
    value: impl FnOnce() -> String,
    estimate: u64,
    limit: u64,
) -> Result<(), Error> {
    if estimate > limit {
        return Err(Error::MemoryLimit { field, value: value(), estimate, limit });
    }
    Ok(())
}

/// Operations (plus dependencies) of a generated schedule with `p` ranks.
pub fn generated_units(generator: Generator, p: u32) -> u64 {
    let p = u64::from(p);
    match generator {
        // p - 1 sends, p - 1 recvs, at most p - 1 dependencies.
        Generator::BinomialBroadcast => 3 * p.saturating_sub(1),
        // 2 ops per round and rank, one dependency per later round.
        Generator::Dissemination => {
            let rounds = u64::from(64 - p.saturating_sub(1).leading_zeros());
            p * (3 * rounds).saturating_sub(1)
        }
        Generator::LinearAlltoall => 2 * p * p.saturating_sub(1),
    }
}

/// Estimated bytes of a GOAL run with `ranks` ranks and `units` operations plus dependencies.
pub fn goal_estimate(ranks: u64, units: u64) -> u64 {
    ranks
        .saturating_mul(GOAL_BYTES_PER_RANK)
        .saturating_add(units.saturating_mul(GOAL_BYTES_PER_OP))
}

/// Estimated bytes of a LogP run on `p` processors whose programs total `code_bytes`, with
/// `events` trace events.
pub fn logp_estimate(p: u64, code_bytes: u64, events: u64) -> u64 {
    p.saturating_mul(LOGP_BYTES_PER_PROC)
        .saturating_add(code_bytes)
        .saturating_add(events.saturating_mul(LOGP_BYTES_PER_EVENT))
}

/// Estimated bytes of a cycle simulation on `p` processors with `messages` messages.
pub fn sim_estimate(p: u64, messages: u64) -> u64 {
    p.saturating_mul(SIM_BYTES_PER_PROC).saturating_add(messages.saturating_mul(SIM_BYTES_PER_MSG))
}
