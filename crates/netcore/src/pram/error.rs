//! The PRAM's one error type: static errors found by the parser and
//! [`crate::pram::Program::validate`], and run-time errors of the interpreter.

use crate::fault::{Classify, Fault};
use crate::pram::isa::{FetchOp, Variant};

/// Who issued a global access: a PPU, or the CPU (`None`).
fn who(pid: &Option<u32>) -> String {
    match pid {
        Some(pid) => format!("pid {pid}"),
        None => "the cpu".to_string(),
    }
}

/// Everything that can go wrong with a PRAM program (paper §2.1 machine).
///
/// Static errors name the source line; run-time errors name the program counter, its source
/// line and, for global accesses, the 1-based global step; conflicts name the smallest
/// conflicting address and its two smallest pids.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PramError {
    /// The assembly text is malformed.
    #[error("line {line}: {msg}")]
    Parse {
        /// 1-based source line.
        line: u32,
        /// What is wrong.
        msg: String,
    },
    /// An instruction's mnemonic is not in the ISA.
    #[error("line {line}: unknown mnemonic `{mnemonic}`")]
    UnknownMnemonic {
        /// 1-based source line.
        line: u32,
        /// The offending word.
        mnemonic: String,
    },
    /// A required header (`.variant`, `.mem`, `.ppus`) is missing (Choice 9 of
    /// `docs/models/pram.md`).
    #[error("missing header `.{header}`")]
    MissingHeader {
        /// The header's name.
        header: &'static str,
    },
    /// A jump names a label that is not defined.
    #[error("line {line}: unknown label `{label}`")]
    UnknownLabel {
        /// Line of the jump.
        line: u32,
        /// The label.
        label: String,
    },
    /// A label is defined twice.
    #[error("line {line}: label `{label}` is already defined")]
    DuplicateLabel {
        /// Line of the second definition.
        line: u32,
        /// The label.
        label: String,
    },
    /// A label is not an identifier (`[A-Za-z_][A-Za-z0-9_]*`), so it could not be printed
    /// and parsed back.
    #[error("line {line}: label `{label}` must match [A-Za-z_][A-Za-z0-9_]*")]
    InvalidLabel {
        /// Line of the label or of the jump naming it.
        line: u32,
        /// The label.
        label: String,
    },
    /// A register number is 16 or more.
    #[error("line {line}: register {reg} out of range (registers are numbered 0..16)")]
    RegisterOutOfRange {
        /// Line of the instruction.
        line: u32,
        /// The register as written, e.g. `r16`.
        reg: String,
    },
    /// `p.fop` under a variant that does not allow it, or with another operator.
    #[error("line {line}: p.fop {op} is not allowed under variant {variant}")]
    FetchOpNotAllowed {
        /// Line of the instruction.
        line: u32,
        /// The program's variant.
        variant: Variant,
        /// The instruction's operator.
        op: FetchOp,
    },
    /// A machine size breaks its rule.
    #[error("{field} must satisfy {rule} (got {got})")]
    InvalidConfig {
        /// The header or parameter.
        field: &'static str,
        /// The rule.
        rule: &'static str,
        /// The offending value.
        got: String,
    },
    /// The run's registers and memory would exceed the byte budget of its [`Limits`].
    ///
    /// [`Limits`]: crate::pram::Limits
    #[error("run needs about {needed} bytes of registers and memory, over the budget of {budget}")]
    MemoryBudget {
        /// The estimate.
        needed: u64,
        /// The budget.
        budget: u64,
    },
    /// A global access falls outside `0..M`.
    #[error(
        "global step {g_step} (pc {pc}, line {line}): address {addr} out of range 0..{mem} for {}",
        who(pid)
    )]
    AddressOutOfRange {
        /// 1-based global step.
        g_step: u64,
        /// Program counter.
        pc: u32,
        /// Source line.
        line: u32,
        /// The smallest offending pid, or `None` for the CPU.
        pid: Option<u32>,
        /// The address.
        addr: i128,
        /// `M`.
        mem: u64,
    },
    /// A local access falls outside `0..LM`.
    #[error("pc {pc} (line {line}): local address {addr} out of range 0..{lmem} for pid {pid}")]
    LocalAddressOutOfRange {
        /// Program counter.
        pc: u32,
        /// Source line.
        line: u32,
        /// The smallest offending pid.
        pid: u32,
        /// The address.
        addr: i128,
        /// `LM`.
        lmem: u32,
    },
    /// Two PPUs read one cell in one step under EREW.
    #[error(
        "global step {g_step} (pc {pc}, line {line}): exclusive read conflict at address {addr} \
         between pids {} and {}",
        pids[0], pids[1]
    )]
    ExclusiveReadConflict {
        /// 1-based global step.
        g_step: u64,
        /// Program counter.
        pc: u32,
        /// Source line.
        line: u32,
        /// The smallest conflicting address.
        addr: u64,
        /// Its two smallest pids.
        pids: [u32; 2],
    },
    /// Two PPUs write one cell in one step under EREW or CREW.
    #[error(
        "global step {g_step} (pc {pc}, line {line}): exclusive write conflict at address {addr} \
         between pids {} and {}",
        pids[0], pids[1]
    )]
    ExclusiveWriteConflict {
        /// 1-based global step.
        g_step: u64,
        /// Program counter.
        pc: u32,
        /// Source line.
        line: u32,
        /// The smallest conflicting address.
        addr: u64,
        /// Its two smallest pids.
        pids: [u32; 2],
    },
    /// Concurrent writers disagree under CRCW common.
    #[error(
        "global step {g_step} (pc {pc}, line {line}): common write mismatch at address {addr}: \
         pid {} writes {}, pid {} writes {}",
        pids[0], values[0], pids[1], values[1]
    )]
    CommonWriteMismatch {
        /// 1-based global step.
        g_step: u64,
        /// Program counter.
        pc: u32,
        /// Source line.
        line: u32,
        /// The smallest conflicting address.
        addr: u64,
        /// Its lowest writer and the lowest writer of a different value.
        pids: [u32; 2],
        /// Their values.
        values: [i64; 2],
    },
    /// `div` or `mod` by zero.
    #[error("pc {pc} (line {line}): division by zero for {}", who(pid))]
    DivisionByZero {
        /// Program counter.
        pc: u32,
        /// Source line.
        line: u32,
        /// The smallest offending pid, or `None` for the CPU.
        pid: Option<u32>,
    },
    /// `active` asks for more PPUs than `.ppus` (or a negative number).
    #[error("pc {pc} (line {line}): active {requested} outside 0..={max}")]
    TooManyProcessors {
        /// Program counter.
        pc: u32,
        /// Source line.
        line: u32,
        /// The requested `nact`.
        requested: i64,
        /// `S_max`.
        max: u32,
    },
    /// Control reached a program counter without an instruction (no implicit halt: Choice 8
    /// of `docs/models/pram.md`).
    #[error("pc {pc} has no instruction (a program ends with halt)")]
    PcOutOfRange {
        /// Program counter.
        pc: u32,
    },
    /// The run executed its step limit without halting.
    #[error("step limit of {limit} instructions reached at pc {pc}")]
    StepLimit {
        /// The limit on `T`.
        limit: u64,
        /// The next instruction.
        pc: u32,
    },
    /// The system refused the memory of a run within its budget (a failed run).
    #[error(transparent)]
    OutOfMemory(#[from] crate::limits::OutOfMemory),
    /// The run reached its work limit `T + W` without halting.
    #[error(
        "work limit of {limit} instructions and PPU-instructions (T + W) reached after \
         T = {t} instructions, at pc {pc}"
    )]
    WorkLimit {
        /// The limit on `T + W`.
        limit: u64,
        /// The instructions executed.
        t: u64,
        /// The next instruction.
        pc: u32,
    },
}

impl Classify for PramError {
    fn fault(&self) -> Fault {
        match self {
            PramError::Parse { .. }
            | PramError::UnknownMnemonic { .. }
            | PramError::MissingHeader { .. }
            | PramError::UnknownLabel { .. }
            | PramError::DuplicateLabel { .. }
            | PramError::InvalidLabel { .. }
            | PramError::RegisterOutOfRange { .. }
            | PramError::FetchOpNotAllowed { .. }
            | PramError::InvalidConfig { .. }
            | PramError::MemoryBudget { .. } => Fault::Input,
            PramError::AddressOutOfRange { .. }
            | PramError::LocalAddressOutOfRange { .. }
            | PramError::ExclusiveReadConflict { .. }
            | PramError::ExclusiveWriteConflict { .. }
            | PramError::CommonWriteMismatch { .. }
            | PramError::DivisionByZero { .. }
            | PramError::TooManyProcessors { .. }
            | PramError::PcOutOfRange { .. }
            | PramError::StepLimit { .. }
            | PramError::WorkLimit { .. }
            | PramError::OutOfMemory(_) => Fault::Run,
        }
    }
}
