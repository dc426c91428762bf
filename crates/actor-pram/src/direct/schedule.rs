//! The cells' step schedules (Baude, Section 3, Definition 3; Choice 5): taken from a
//! reference run's access trace, on a zero input for a predictable program, else this run's
//! trace as an oracle; refused past the memory limit before they are stored.

use netcore::limits::{OutOfMemory, TooLarge, check, push, vec_filled};
use netcore::pram::{AccessKind, CPU_PID, Limits as PramLimits, PramRun, Program};
use serde::Serialize;

use super::replica::too_long;
use crate::error::Error;
use crate::limits::{BYTES, DIRECT_BYTES_PER_CELL, DIRECT_BYTES_PER_ENTRY};

/// Where the cells' schedules came from (Choice 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScheduleSource {
    /// A reference run on a zero input (predictable programs, Definition 3).
    ZeroInput,
    /// The reference trace of this run (an oracle, for unpredictable programs or when the
    /// zero-input run fails).
    ReferenceTrace,
}
netcore::display_config_name!(ScheduleSource);

/// Builds the cells' schedules from a reference run's trace, counting its bytes and
/// stopping (with `overflow`) once they exceed the budget, so a huge run is refused without
/// storing its trace; an entry the system refuses to store stops it too, the refusal kept in
/// `refused`.
#[derive(Debug)]
struct ScheduleSink {
    ppus: u32,
    budget: u64,
    bytes: u64,
    overflow: bool,
    /// (addr, g_step, count).
    per_cell: Vec<(u64, u64, u32)>,
    /// (pid, addr).
    acq: Vec<(u32, u64)>,
    reads: Vec<u64>,
    refused: Option<OutOfMemory>,
}

impl ScheduleSink {
    fn new(ppus: u32, budget: u64) -> Result<Self, OutOfMemory> {
        Ok(ScheduleSink {
            ppus,
            budget,
            bytes: 0,
            overflow: false,
            per_cell: Vec::new(),
            acq: Vec::new(),
            reads: vec_filled("the PPUs' read counts", ppus as usize, 0)?,
            refused: None,
        })
    }

    /// Stores access `a` of step `g_step`: its schedule and acquaintance entries, and the
    /// reads it counts.
    fn record(&mut self, g_step: u64, a: &netcore::pram::Access) -> Result<(), OutOfMemory> {
        let (what, acq) = ("the cells' schedules", "the PPUs' acquaintances");
        if a.pid == CPU_PID {
            let cpu_read = a.kind == AccessKind::Read;
            let count = if cpu_read { self.ppus } else { 1 };
            push(what, &mut self.per_cell, (a.addr, g_step, count))?;
            if cpu_read {
                for pid in 0..self.ppus {
                    push(acq, &mut self.acq, (pid, a.addr))?;
                    self.reads[pid as usize] += 1;
                }
            } else {
                push(acq, &mut self.acq, (0, a.addr))?;
            }
        } else {
            push(what, &mut self.per_cell, (a.addr, g_step, 1))?;
            push(acq, &mut self.acq, (a.pid, a.addr))?;
            if a.kind != AccessKind::Write {
                self.reads[a.pid as usize] += 1;
            }
        }
        Ok(())
    }
}

impl netcore::pram::TraceSink for ScheduleSink {
    fn step(&mut self, g_step: u64, _pc: u32, accesses: &[netcore::pram::Access]) {
        if self.overflow {
            return;
        }
        for a in accesses {
            let cpu_read = a.pid == CPU_PID && a.kind == AccessKind::Read;
            let entries = if cpu_read { 1 + u64::from(self.ppus) } else { 2 };
            self.bytes = self.bytes.saturating_add(entries * DIRECT_BYTES_PER_ENTRY);
            if self.bytes > self.budget {
                self.overflow = true;
                return;
            }
            if let Err(refused) = self.record(g_step, a) {
                self.refused = Some(refused);
                self.overflow = true;
                return;
            }
        }
    }
}

/// What the reference run tells the actors: the touched cells (sorted) and each one's
/// schedule `[(g_step, count)]`, the cells each PPU knows `(pid, addr)` (sorted, without
/// repeats), each PPU's reads, and where the schedules came from.
#[derive(Debug)]
pub(super) struct Schedules {
    pub(super) cells: Vec<u64>,
    pub(super) schedules: Vec<Vec<(u64, u32)>>,
    pub(super) acq: Vec<(u32, u64)>,
    pub(super) reads: Vec<u64>,
    pub(super) source: ScheduleSource,
}

/// The reference run of `program` on `input` and the cells' schedules (Definition 3: a
/// predictable program's schedule is that of a run on a zero input, Choice 5; the others get
/// the reference trace of this run as an oracle). `fixed` bytes (the PPU actors') are
/// already taken from `limits.max_bytes`; refused past it with the trace or the cell actors.
pub(super) fn reference_schedules(
    program: &Program,
    input: &[i64],
    limits: &PramLimits,
    predictable: bool,
    fixed: u64,
) -> Result<(PramRun, Schedules), Error> {
    let ppus = program.ppus();
    let budget = limits.max_bytes - fixed;
    let mut sink = ScheduleSink::new(ppus, budget)?;
    let mut source = ScheduleSource::ZeroInput;
    let reference =
        if predictable && netcore::pram::run_traced(program, &[], limits, &mut sink).is_ok() {
            netcore::pram::run_traced(program, input, limits, &mut netcore::pram::NoTrace)?
        } else {
            sink = ScheduleSink::new(ppus, budget)?;
            source = ScheduleSource::ReferenceTrace;
            netcore::pram::run_traced(program, input, limits, &mut sink)?
        };
    if let Some(refused) = sink.refused {
        return Err(refused.into());
    }
    if sink.overflow {
        let needed = fixed.saturating_add(sink.bytes);
        return Err(TooLarge {
            field: "accesses",
            limit: limits.max_bytes,
            estimate: needed,
            unit: BYTES,
        }
        .into());
    }
    let ScheduleSink { mut per_cell, mut acq, reads, bytes: sink_bytes, .. } = sink;
    per_cell.sort_unstable();
    let mut cells: Vec<u64> = Vec::new();
    let mut schedules: Vec<Vec<(u64, u32)>> = Vec::new();
    for &(addr, g, count) in &per_cell {
        if cells.last() != Some(&addr) {
            push("the touched cells", &mut cells, addr)?;
            push("the cells' schedules", &mut schedules, Vec::new())?;
        }
        let s = schedules.last_mut().ok_or_else(too_long)?;
        match s.last_mut() {
            Some((lg, c)) if *lg == g => *c = c.saturating_add(count),
            _ => s.push((g, count)),
        }
    }
    acq.sort_unstable();
    acq.dedup();
    // One cell actor per touched cell: checked before any actor is spawned.
    let cell_bytes = (cells.len() as u64).saturating_mul(DIRECT_BYTES_PER_CELL);
    check(
        "cells",
        fixed.saturating_add(sink_bytes).saturating_add(cell_bytes),
        limits.max_bytes,
        BYTES,
    )?;
    Ok((reference, Schedules { cells, schedules, acq, reads, source }))
}

/// The most cells one PPU actor knows, in `acq` (sorted by pid).
pub(super) fn max_acquaintances(acq: &[(u32, u64)]) -> u64 {
    let mut best = 0u64;
    let mut i = 0;
    while i < acq.len() {
        let j = acq[i..].iter().take_while(|x| x.0 == acq[i].0).count();
        best = best.max(j as u64);
        i += j;
    }
    best
}
