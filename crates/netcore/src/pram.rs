//! The shared PRAM core: the SIMD PRAM of Baude's paper (§2.1, "PRAM"), its assembly and
//! builder, the reference interpreter over a pluggable global memory, and a program library.
//!
//! The machine has one CPU and PPUs `0..S_max`; the CPU holds the only program counter and
//! every active PPU (`pid < nact`) executes each parallel instruction in lockstep. Memory
//! variants (EREW, CREW, CRCW common / arbitrary / priority / fetch-and-op) decide what
//! concurrent accesses to one cell do. See `docs/models/pram.md` for the ISA, the costs, the
//! back-end contract and the choices made where the paper is silent.
//!
//! - [`isa`]: registers, operations, variants, instructions.
//! - [`Program`], [`ProgramBuilder`], [`Program::parse`]: one representation, built two ways.
//! - [`run`], [`run_with`]: the interpreter; [`GlobalMemory`] is the back end,
//!   [`ArrayMemory`] the reference one; [`TraceSink`] receives the per-step accesses.
//! - [`run_serialized`]: the interpreter replaying a given serialization of the fetch-and-ops
//!   (an emulation's, e.g. Ranade's combining in actor-pram).
//! - [`resolve_step`], [`combine_fetch`]: the variants' conflict rules for one step, shared
//!   with executors that resolve steps themselves (hpram).
//! - [`library`]: programs with plain-Rust references and textbook bounds.

mod builder;
mod error;
mod interp;
pub mod isa;
pub mod library;
mod memory;
mod output;
mod parse;
pub mod picture;
mod program;
mod replay;
mod resolve;
mod trace;

pub use builder::ProgramBuilder;
pub use error::PramError;
pub use interp::{
    Cost, Limits, MAX_WORK, PramRun, estimate_bytes, run, run_serialized, run_traced, run_with,
};
pub use isa::{
    CAddr, COperand, CReg, FetchOp, Instr, Op, PAddr, POperand, PReg, REGISTERS, Variant, c, r,
};
pub use memory::{Access, AccessKind, ArrayMemory, CPU_PID, GlobalMemory};
pub use output::{Difference, first_differing_cell};
pub use program::{Item, MAX_LMEM, MAX_MEM, MAX_PPUS, Program};
pub use replay::{Serialization, StepOrder};
pub use resolve::{EMPTY, StepConflict, combine_fetch, resolve_step};
pub use trace::{CollectTrace, NoTrace, PictureTrace, StepAccess, TraceSink};
