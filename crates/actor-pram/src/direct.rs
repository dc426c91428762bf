//! The direct translation of a PRAM program into an actor program (Baude, Section 3,
//! Definition 3 and the remark on communication-predictable programs; Theorem 1's
//! construction of PPU actors that replicate the CPU).
//!
//! Actors: one serialized PPU actor per PPU `0..S_max` and one serialized *cell actor* per
//! global cell the run touches. Each PPU actor holds a replica of the CPU (registers, program
//! counter, `nact`) and its own PPU registers and local memory; it spends one event per
//! executed instruction, chained by a `Step` message to itself, so instruction `k` is the
//! behaviour the actor has after `k` steps. At a global instruction a participating PPU sends
//! `Req{g_step, kind, value}` to the cell; a read or fetch-and-op waits for the `Reply`
//! (select-accept) and completes in a separate event, which sends the next `Step`; a write
//! continues at once (no acknowledgement). `cread`: every PPU actor reads the cell (internal
//! reads never conflict); `cwrite`: PPU actor 0 writes for the CPU.
//!
//! A cell holds its *schedule* `[(g_step, count)]`, taken from the reference interpreter's
//! access trace (the paper's communication-predictable programs have a schedule independent
//! of the data; for the others this is the oracle of Choice 5 of `docs/models/actor-pram.md`).
//! It accepts only requests of its current scheduled step; reads are answered at once with
//! the value before the step; writes are resolved by the variant's rule when the step's count
//! is complete; fetch-and-op replies go out in pid order when the count is complete (the
//! reference's serialization), at most `F − 1` per event and a `Flush` to itself for the
//! rest (Choice 7).
//!
//! *Broadcast-sync* (baseline B2, Theorem 1's construction, [`simulate_broadcast_sync`]):
//! the same PPU and cell actors, but no PPU actor chains its own steps. A CPU actor starts
//! every instruction by a `Go` to PPU actor 0; PPU actor `i` passes it on to `2i + 1` and
//! `2i + 2` (a fan-out-2 tree), executes the instruction, and sends `Done` to its parent once
//! its own instruction is complete (a read's reply has come) and both children have sent
//! `Done`; the CPU actor starts the next instruction when PPU actor 0's `Done` comes, until it
//! reports the halt. Every PRAM step then costs about `2 log2 S` depth: the `Θ(T log S)` of
//! Theorem 1.
//!
//! The result is checked against the reference: final global memory, CPU registers and every
//! PPU register. A program the reference rejects (a conflict, a range error) returns the
//! reference's error: the same kind and global step (Choice 5).

mod actors;
mod replica;
mod schedule;

use netcore::limits::{OutOfMemory, check, collect_exact, vec_filled};
use netcore::pram::{Limits as PramLimits, PramRun, Program};
use serde::Serialize;

use actors::children;
pub use actors::{CellActor, CpuActor, Env, Msg, Node, TreePpu};
pub use replica::PpuActor;
use replica::too_long;
pub(crate) use replica::{Code, Dest, Effect};
pub use schedule::ScheduleSource;
use schedule::{Schedules, max_acquaintances, reference_schedules};

use crate::actor::{ActorId, ActorMetrics, EventDag, Limits, Runtime, Scheduler};
use crate::error::Error;
use crate::limits::{BYTES, DIRECT_BYTES_PER_PPU, PPUS_FIELD};

/// How the PPU actors' instructions are sequenced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sync {
    /// Each PPU actor chains its own instructions (`Step` to itself): the direct translation.
    Chained,
    /// A CPU actor synchronises every instruction through a fan-out-2 tree of the PPU actors
    /// and back (baseline B2, Theorem 1's construction).
    Broadcast,
}
netcore::display_config_name!(Sync);

/// What a direct run reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DirectReport {
    /// How the instructions were sequenced.
    pub sync: Sync,
    /// The reference's `T`, `S`, `G`, `W`.
    pub pram: netcore::pram::Cost,
    /// The actor run's measures.
    pub actor: ActorMetrics,
    /// PPU actors (`S_max`).
    pub ppu_actors: u64,
    /// Cell actors (cells touched by the run).
    pub cell_actors: u64,
    /// The largest number of cells one PPU actor is acquainted with.
    pub max_acquaintances: u64,
    /// The largest number of reads (and fetch-and-ops) issued by one PPU actor.
    pub max_reads: u64,
    /// The program passes the static test of Definition 3.
    pub predictable: bool,
    /// Where the cells' schedules came from.
    pub schedule: ScheduleSource,
    /// Final memory, CPU and PPU registers equal the reference's.
    pub verified: bool,
    /// The final global memory of the actor run.
    #[serde(skip)]
    pub memory: Vec<i64>,
    /// The event DAG and every actor's name (`PPU i`, `cell a`, `CPU`), recorded only for a
    /// picture ([`simulate_recorded`]).
    #[serde(skip)]
    pub recorded: Option<(EventDag, Vec<String>)>,
}

/// Runs `program` on `input` through the direct translation under `scheduler`.
///
/// # Examples
///
/// ```
/// use actor_pram::actor::Scheduler;
/// use actor_pram::direct::simulate_direct;
/// use actor_pram::netcore::pram::{Limits, library::Algorithm};
///
/// let prefix = Algorithm::PrefixSums.instance(8, 0)?;
/// let report = simulate_direct(&prefix.program, &prefix.input, Scheduler::Fifo, &Limits::default())?;
/// assert!(report.verified);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// - [`Error::Pram`] if the program breaks a static rule or the reference run fails;
/// - [`Error::InvalidConfig`] for a program the translation cannot take (e.g. more than
///   `2^32` instructions);
/// - [`Error::TooLarge`] past the memory limits of [`crate::limits`];
/// - [`Error::Actor`] if the actor runtime refuses an event or is left stuck;
/// - [`Error::Mismatch`] if the actor run's result differs from the reference.
pub fn simulate_direct(
    program: &Program,
    input: &[i64],
    scheduler: Scheduler,
    limits: &PramLimits,
) -> Result<DirectReport, Error> {
    run_direct(program, input, scheduler, limits, Sync::Chained, None)
}

/// Runs `program` on `input` as broadcast-sync (baseline B2, Theorem 1's construction): the
/// direct translation's PPU and cell actors, every instruction started by a CPU actor down a
/// fan-out-2 tree of the PPU actors and completed back up it.
///
/// # Errors
///
/// As [`simulate_direct`].
pub fn simulate_broadcast_sync(
    program: &Program,
    input: &[i64],
    scheduler: Scheduler,
    limits: &PramLimits,
) -> Result<DirectReport, Error> {
    run_direct(program, input, scheduler, limits, Sync::Broadcast, None)
}

/// Runs `program` as [`simulate_direct`] (`Sync::Chained`) or [`simulate_broadcast_sync`]
/// (`Sync::Broadcast`) do, recording the event DAG and the actors' names in the report's
/// `recorded` (for a picture of the run), with at most `max_events` events (the recorded DAG
/// grows with them; past it, `ActorError::EventLimit`).
pub fn simulate_recorded(
    program: &Program,
    input: &[i64],
    scheduler: Scheduler,
    limits: &PramLimits,
    sync: Sync,
    max_events: u64,
) -> Result<DirectReport, Error> {
    run_direct(program, input, scheduler, limits, sync, Some(max_events))
}

fn run_direct(
    program: &Program,
    input: &[i64],
    scheduler: Scheduler,
    limits: &PramLimits,
    sync: Sync,
    record: Option<u64>,
) -> Result<DirectReport, Error> {
    let ppus = program.ppus();
    // The PPU actors' state is known before anything runs: refuse early (`crate::limits`).
    let per_ppu = DIRECT_BYTES_PER_PPU + 8 * u64::from(program.lmem());
    let fixed = u64::from(ppus).saturating_mul(per_ppu);
    check(PPUS_FIELD, fixed, limits.max_bytes, BYTES)?;
    let predictable = crate::predict::predictability(program).is_ok();
    let (reference, plan) = reference_schedules(program, input, limits, predictable, fixed)?;
    let Schedules { cells, schedules, acq, reads, source } = plan;
    let cell_base = ppus;
    let ncells = u32::try_from(cells.len()).map_err(|_| too_long())?;
    let env = Env {
        code: Code::new(program)?,
        cells,
        cell_base,
        f_send: Limits::default().f_send as usize,
        ppus,
        cpu: ActorId(cell_base.checked_add(ncells).ok_or_else(too_long)?),
    };
    // Recording the DAG (for a picture) caps the events at the caller's number.
    let actor_limits = match record {
        Some(max_events) => Limits { record_dag: true, max_events, ..Limits::default() },
        None => Limits::default(),
    };
    let mut rt: Runtime<Node> = Runtime::new(scheduler, actor_limits);
    // The PPU and cell actors, and broadcast-sync's CPU actor.
    rt.reserve(ppus as usize + env.cells.len() + 1)?;
    spawn_ppus(&mut rt, &env, &acq, sync, program.lmem())?;
    let max_acquaintances = max_acquaintances(&acq);
    spawn_cells(&mut rt, &env, schedules, input)?;
    start(&mut rt, &env, sync)?;
    let actor = rt.run(&env)?;
    let (memory, verified) = results(&rt, &reference, input, ppus)?;
    let recorded = rt.take_dag().map(|dag| names(&rt).map(|names| (dag, names))).transpose()?;
    Ok(DirectReport {
        sync,
        pram: reference.cost,
        actor,
        ppu_actors: u64::from(ppus),
        cell_actors: env.cells.len() as u64,
        max_acquaintances,
        max_reads: reads.iter().copied().max().unwrap_or(0),
        predictable,
        schedule: source,
        verified,
        memory,
        recorded,
    })
}

/// Spawns the PPU actors `0..S`, each knowing the cells it accesses (`acq`, sorted by pid)
/// and, under broadcast-sync, its children and its parent in the fan-out-2 tree.
fn spawn_ppus(
    rt: &mut Runtime<Node>,
    env: &Env,
    acq: &[(u32, u64)],
    sync: Sync,
    lmem: u32,
) -> Result<(), Error> {
    let ppus = env.ppus;
    let mut k = 0;
    for pid in 0..ppus {
        let mut mine = Vec::new();
        while k < acq.len() && acq[k].0 == pid {
            if let Some(c) = env.cell(acq[k].1) {
                mine.push(c);
            }
            k += 1;
        }
        let ppu = PpuActor::new(pid, lmem);
        match sync {
            Sync::Chained => rt.spawn(Node::Ppu(ppu), &mine)?,
            Sync::Broadcast => {
                mine.extend(children(pid, ppus));
                mine.push(if pid == 0 { env.cpu } else { ActorId((pid - 1) / 2) });
                let t = TreePpu { ppu, in_step: false, own_done: false, pending: 0 };
                rt.spawn(Node::TreePpu(t), &mine)?
            }
        };
    }
    Ok(())
}

/// Spawns one cell actor per touched cell, holding the input's value and its schedule.
fn spawn_cells(
    rt: &mut Runtime<Node>,
    env: &Env,
    schedules: Vec<Vec<(u64, u32)>>,
    input: &[i64],
) -> Result<(), Error> {
    for (addr, schedule) in env.cells.iter().zip(schedules) {
        let value = usize::try_from(*addr).ok().and_then(|a| input.get(a)).copied().unwrap_or(0);
        rt.spawn(
            Node::Cell(CellActor {
                addr: *addr,
                value,
                schedule,
                at: 0,
                got: 0,
                pending: Vec::new(),
                outbox: Vec::new(),
            }),
            &[],
        )?;
    }
    Ok(())
}

/// Starts the run: a `Step` to every PPU actor, or (broadcast-sync) the CPU actor spawned
/// over the tree's root and sent its first `Step`.
fn start(rt: &mut Runtime<Node>, env: &Env, sync: Sync) -> Result<(), Error> {
    let ppus = env.ppus;
    match sync {
        Sync::Chained => {
            for pid in 0..ppus {
                rt.inject(ActorId(pid), Msg::Step)?;
            }
        }
        Sync::Broadcast => {
            let root: Vec<ActorId> = (ppus > 0).then_some(ActorId(0)).into_iter().collect();
            rt.spawn(Node::Cpu(CpuActor { steps: 0, halted: false }), &root)?;
            rt.inject(env.cpu, Msg::Step)?;
        }
    }
    Ok(())
}

/// The run's final memory (the input overlaid with the cells) and whether it, the CPU and PPU
/// registers and every actor's end state match the reference ([`OutOfMemory`] when the
/// system refuses the memory or the registers).
fn results(
    rt: &Runtime<Node>,
    reference: &PramRun,
    input: &[i64],
    ppus: u32,
) -> Result<(Vec<i64>, bool), OutOfMemory> {
    let mut memory = vec_filled("the final memory", reference.memory.len(), 0)?;
    for (m, v) in memory.iter_mut().zip(input) {
        *m = *v;
    }
    let mut ok = true;
    let mut regs =
        vec_filled("the PPU registers", 16, vec_filled("the PPU registers", ppus as usize, 0i64)?)?;
    for b in rt.behaviours() {
        match b {
            Node::Cell(c) => {
                if let Some(m) = usize::try_from(c.addr).ok().and_then(|a| memory.get_mut(a)) {
                    *m = c.value;
                }
                ok &= c.at == c.schedule.len();
            }
            Node::Cpu(c) => ok &= c.halted,
            Node::Ppu(p) | Node::TreePpu(TreePpu { ppu: p, .. }) => {
                ok &= p.halted;
                ok &= p.cpu == reference.cpu_regs;
                for (r, reg) in regs.iter_mut().enumerate() {
                    reg[p.pid as usize] = p.regs[r];
                }
            }
        }
    }
    let verified = ok && memory == reference.memory && regs == reference.ppu_regs;
    Ok((memory, verified))
}

/// The actors' names, for a picture's lanes ([`OutOfMemory`] when the system refuses them).
fn names(rt: &Runtime<Node>) -> Result<Vec<String>, OutOfMemory> {
    let actors = rt.behaviours();
    collect_exact(
        "the actors' names",
        actors.len(),
        actors.iter().map(|b| match b {
            Node::Ppu(p) | Node::TreePpu(TreePpu { ppu: p, .. }) => format!("PPU {}", p.pid),
            Node::Cell(c) => format!("cell {}", c.addr),
            Node::Cpu(_) => String::from("CPU"),
        }),
    )
}
