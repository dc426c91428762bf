//! The global memory as a back end behind [`GlobalMemory`], so that an emulator (e.g. the
//! `dbsp-hmos` access protocol) can stand in for the array the PRAM of paper §2.1 assumes.
//!
//! Contract. The interpreter checks addresses and the variant's conflict rules itself and
//! resolves concurrent writes and fetch-ops; per global step it hands the back end one slice of
//! [`Access`]es that
//! - is homogeneous: all [`AccessKind::Read`], all [`AccessKind::Write`] or all
//!   [`AccessKind::Fetch`] (one instruction is all-reads, all-writes or all-fetch-ops);
//! - is sorted by `pid` (the CPU's accesses carry [`CPU_PID`]), every `addr < size()`;
//! - holds at most one `Write` or `Fetch` per address, whose `pid` is the representative (the
//!   lowest pid that accessed the address) and whose `value` is the resolved value (the
//!   winner's, or the fold); several `Read`s of one address occur only under concurrent-read
//!   variants.
//!
//! The back end must let every read see the memory as it was before the step, then apply the
//! writes, and fill in `value`: for a `Read` the cell's value; for a `Fetch(op)` the cell's old
//! value, while the cell becomes `op(old, value)`. A back end need not be an array.

use crate::pram::isa::FetchOp;

/// The pid that CPU accesses (`cread`, `cwrite`) carry; it sorts after every PPU (Choice 4 of
/// `docs/models/pram.md`).
pub const CPU_PID: u32 = u32::MAX;

/// What an access does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AccessKind {
    /// Read the cell into `value`.
    Read,
    /// Write `value` to the cell.
    Write,
    /// Fetch-and-op: the cell becomes `op(old, value)`; `value` receives the old value (back
    /// end) — in a trace, `value` is the PPU's own contribution (Choices 3 and 12 of
    /// `docs/models/pram.md`).
    Fetch(FetchOp),
}

/// One access of one global step (paper §2.1: the n-tuple of accesses of a PRAM step).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Access {
    /// The PPU, or [`CPU_PID`].
    pub pid: u32,
    /// Read, write or fetch-and-op.
    pub kind: AccessKind,
    /// The global address, `< M`.
    pub addr: u64,
    /// The value written, or read (see [`AccessKind`]).
    pub value: i64,
}

/// A global memory of `size()` cells that executes PRAM steps (see the module documentation
/// for the contract).
pub trait GlobalMemory {
    /// `M`, the number of cells.
    fn size(&self) -> u64;
    /// Executes global step `g_step` (1-based): all reads see the memory before the step.
    fn step(&mut self, g_step: u64, accesses: &mut [Access]);
    /// The interpreter starts its `t`-th instruction (1-based: `T` so far, this one
    /// included), global or not, before executing it. A back end that charges every
    /// instruction overrides it (`hpram` counts the instructions between global steps as
    /// computation steps of a flat H-PRAM); the default does nothing.
    fn instruction(&mut self, _t: u64) {}
    /// The contents of every cell, for the run's result.
    fn contents(&self) -> Vec<i64>;
}

/// The reference back end: a plain array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArrayMemory {
    cells: Vec<i64>,
}

impl ArrayMemory {
    /// `max(size, input.len())` cells, the first ones holding `input` and the rest 0 (`run`
    /// refuses an input longer than `M` before it gets here).
    ///
    /// # Errors
    ///
    /// [`OutOfMemory`](crate::limits::OutOfMemory) if the system refuses the cells.
    pub fn new(size: usize, input: &[i64]) -> Result<Self, crate::limits::OutOfMemory> {
        let mut cells = crate::limits::vec_filled("the global memory", size.max(input.len()), 0)?;
        cells[..input.len()].copy_from_slice(input);
        Ok(Self { cells })
    }
}

impl GlobalMemory for ArrayMemory {
    fn size(&self) -> u64 {
        self.cells.len() as u64
    }

    /// A step is homogeneous and writes are resolved to one per address, so applying the
    /// accesses in order lets every read see the memory before the step.
    fn step(&mut self, _g_step: u64, accesses: &mut [Access]) {
        for access in accesses {
            let cell = &mut self.cells[access.addr as usize];
            match access.kind {
                AccessKind::Read => access.value = *cell,
                AccessKind::Write => *cell = access.value,
                AccessKind::Fetch(op) => {
                    let old = *cell;
                    *cell = op.apply(old, access.value);
                    access.value = old;
                }
            }
        }
    }

    fn contents(&self) -> Vec<i64> {
        self.cells.clone()
    }
}
