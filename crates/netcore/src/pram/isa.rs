//! The instruction set of the SIMD PRAM (paper §2.1): registers, ALU operations, the memory
//! variants and the instructions themselves.
//!
//! The CPU holds the only program counter; a parallel (`p.`) instruction is executed in lockstep
//! by every active PPU (`pid < nact`). Values are `i64` and arithmetic wraps.

use std::fmt;

/// Number of CPU registers (`c0..c15`) and of registers per PPU (`r0..r15`).
pub const REGISTERS: u8 = 16;

/// A CPU register `cN`; valid when `N < 16` (checked by [`crate::pram::Program::validate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CReg(pub u8);

/// A PPU register `rN`; valid when `N < 16` (checked by [`crate::pram::Program::validate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PReg(pub u8);

/// CPU register `cN`.
pub const fn c(n: u8) -> CReg {
    CReg(n)
}

/// PPU register `rN`.
pub const fn r(n: u8) -> PReg {
    PReg(n)
}

impl CReg {
    /// The address `[cN+off]`.
    pub const fn at(self, off: i64) -> CAddr {
        CAddr { base: self, off }
    }
}

impl PReg {
    /// The address `[rN+off]`.
    pub const fn at(self, off: i64) -> PAddr {
        PAddr { base: self, off }
    }
}

/// The second source of a CPU `op` or of `active`: a register or an immediate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum COperand {
    /// A CPU register.
    Reg(CReg),
    /// An immediate value.
    Imm(i64),
}

/// The second source of a `p.op`: a PPU register or an immediate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum POperand {
    /// A PPU register.
    Reg(PReg),
    /// An immediate value.
    Imm(i64),
}

impl From<CReg> for COperand {
    fn from(reg: CReg) -> Self {
        Self::Reg(reg)
    }
}

impl From<i64> for COperand {
    fn from(imm: i64) -> Self {
        Self::Imm(imm)
    }
}

impl From<PReg> for POperand {
    fn from(reg: PReg) -> Self {
        Self::Reg(reg)
    }
}

impl From<i64> for POperand {
    fn from(imm: i64) -> Self {
        Self::Imm(imm)
    }
}

/// A global address computed by the CPU: `[cA+off]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CAddr {
    /// The base register.
    pub base: CReg,
    /// The constant offset.
    pub off: i64,
}

/// An address computed by each PPU: `[rA+off]` (global or local memory).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PAddr {
    /// The base register.
    pub base: PReg,
    /// The constant offset.
    pub off: i64,
}

impl From<CReg> for CAddr {
    fn from(base: CReg) -> Self {
        base.at(0)
    }
}

impl From<PReg> for PAddr {
    fn from(base: PReg) -> Self {
        base.at(0)
    }
}

/// A binary ALU operation (`op OP d,a,b` means `d := a OP b`).
///
/// Arithmetic wraps; `div` and `mod` truncate toward zero (a zero divisor is an error, checked
/// by the interpreter before it applies the operation); shift counts are masked to 0..63 and
/// `shr` is arithmetic; comparisons give 0 or 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// Wrapping addition.
    Add,
    /// Wrapping subtraction.
    Sub,
    /// Wrapping multiplication.
    Mul,
    /// Division truncating toward zero (wrapping at `i64::MIN / -1`).
    Div,
    /// Remainder of the truncating division.
    Mod,
    /// Minimum.
    Min,
    /// Maximum.
    Max,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
    /// Shift left by `b & 63`.
    Shl,
    /// Arithmetic shift right by `b & 63`.
    Shr,
    /// 1 if equal, else 0.
    Eq,
    /// 1 if different, else 0.
    Ne,
    /// 1 if `a < b`, else 0.
    Lt,
    /// 1 if `a <= b`, else 0.
    Le,
}

/// A computation generic over one binary `i64` function, so that a kernel over all PPUs is
/// monomorphised per operation (see [`Op::dispatch`]).
pub trait OpVisitor {
    /// What the computation returns.
    type Output;
    /// Runs the computation with `f`, the operation's semantics.
    fn visit<F: Fn(i64, i64) -> i64 + Copy>(self, f: F) -> Self::Output;
}

struct Apply(i64, i64);

impl OpVisitor for Apply {
    type Output = i64;
    fn visit<F: Fn(i64, i64) -> i64 + Copy>(self, f: F) -> i64 {
        f(self.0, self.1)
    }
}

impl Op {
    /// Every operation, in assembly order.
    pub const ALL: [Op; 16] = [
        Op::Add,
        Op::Sub,
        Op::Mul,
        Op::Div,
        Op::Mod,
        Op::Min,
        Op::Max,
        Op::And,
        Op::Or,
        Op::Xor,
        Op::Shl,
        Op::Shr,
        Op::Eq,
        Op::Ne,
        Op::Lt,
        Op::Le,
    ];

    /// The assembly name.
    pub const fn name(self) -> &'static str {
        match self {
            Op::Add => "add",
            Op::Sub => "sub",
            Op::Mul => "mul",
            Op::Div => "div",
            Op::Mod => "mod",
            Op::Min => "min",
            Op::Max => "max",
            Op::And => "and",
            Op::Or => "or",
            Op::Xor => "xor",
            Op::Shl => "shl",
            Op::Shr => "shr",
            Op::Eq => "eq",
            Op::Ne => "ne",
            Op::Lt => "lt",
            Op::Le => "le",
        }
    }

    /// The operation named `name` in assembly.
    pub fn from_name(name: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|op| op.name() == name)
    }

    /// Whether a zero second operand is an error (`div`, `mod`).
    pub const fn divides(self) -> bool {
        matches!(self, Op::Div | Op::Mod)
    }

    /// Runs `visitor` with this operation's semantics as a statically known function.
    ///
    /// This is the one place that defines what each operation computes; a zero divisor gives
    /// 0 here, but the interpreter reports it as an error before it calls this.
    pub fn dispatch<V: OpVisitor>(self, visitor: V) -> V::Output {
        match self {
            Op::Add => visitor.visit(i64::wrapping_add),
            Op::Sub => visitor.visit(i64::wrapping_sub),
            Op::Mul => visitor.visit(i64::wrapping_mul),
            Op::Div => visitor.visit(|a: i64, b: i64| if b == 0 { 0 } else { a.wrapping_div(b) }),
            Op::Mod => visitor.visit(|a: i64, b: i64| if b == 0 { 0 } else { a.wrapping_rem(b) }),
            Op::Min => visitor.visit(std::cmp::min::<i64>),
            Op::Max => visitor.visit(std::cmp::max::<i64>),
            Op::And => visitor.visit(|a: i64, b: i64| a & b),
            Op::Or => visitor.visit(|a: i64, b: i64| a | b),
            Op::Xor => visitor.visit(|a: i64, b: i64| a ^ b),
            Op::Shl => visitor.visit(|a: i64, b: i64| a.wrapping_shl((b & 63) as u32)),
            Op::Shr => visitor.visit(|a: i64, b: i64| a.wrapping_shr((b & 63) as u32)),
            Op::Eq => visitor.visit(|a: i64, b: i64| i64::from(a == b)),
            Op::Ne => visitor.visit(|a: i64, b: i64| i64::from(a != b)),
            Op::Lt => visitor.visit(|a: i64, b: i64| i64::from(a < b)),
            Op::Le => visitor.visit(|a: i64, b: i64| i64::from(a <= b)),
        }
    }

    /// `a OP b` (a zero divisor gives 0; see [`Op::dispatch`]).
    pub fn apply(self, a: i64, b: i64) -> i64 {
        self.dispatch(Apply(a, b))
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The combining operator of CRCW fetch-and-op (paper §2.1, "CRCW-Fetch-&-∗").
///
/// Only commutative and associative operators are allowed, so the fold does not depend on the
/// order in which a network combines requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FetchOp {
    /// Wrapping addition.
    Add,
    /// Minimum.
    Min,
    /// Maximum.
    Max,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
}

impl FetchOp {
    /// Every fetch operator, in assembly order.
    pub const ALL: [FetchOp; 6] =
        [FetchOp::Add, FetchOp::Min, FetchOp::Max, FetchOp::And, FetchOp::Or, FetchOp::Xor];

    /// The ALU operation with the same semantics.
    pub const fn op(self) -> Op {
        match self {
            FetchOp::Add => Op::Add,
            FetchOp::Min => Op::Min,
            FetchOp::Max => Op::Max,
            FetchOp::And => Op::And,
            FetchOp::Or => Op::Or,
            FetchOp::Xor => Op::Xor,
        }
    }

    /// The identity element: `apply(identity, x) == x`.
    pub const fn identity(self) -> i64 {
        match self {
            FetchOp::Add | FetchOp::Or | FetchOp::Xor => 0,
            FetchOp::Min => i64::MAX,
            FetchOp::Max => i64::MIN,
            FetchOp::And => -1,
        }
    }

    /// `a OP b`.
    pub fn apply(self, a: i64, b: i64) -> i64 {
        self.op().apply(a, b)
    }

    /// The assembly name (`add`, `min`, ...).
    pub const fn name(self) -> &'static str {
        self.op().name()
    }

    /// The fetch operator named `name` in assembly.
    pub fn from_name(name: &str) -> Option<FetchOp> {
        FetchOp::ALL.into_iter().find(|op| op.name() == name)
    }
}

impl fmt::Display for FetchOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How concurrent accesses to one global cell in one instruction are treated (paper §2.1).
///
/// | variant | reads | writes | `p.fop` |
/// |---|---|---|---|
/// | `Erew` | error | error | not allowed |
/// | `Crew` | ok | error | not allowed |
/// | `CrcwCommon` | ok | ok iff all values equal | not allowed |
/// | `CrcwArbitrary` | ok | one wins: the highest pid (Choices) | not allowed |
/// | `CrcwPriority` | ok | the lowest pid wins | not allowed |
/// | `CrcwFetchOp(op)` | ok | cell := op-fold of the written values | `op` only |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Exclusive read, exclusive write.
    Erew,
    /// Concurrent read, exclusive write.
    Crew,
    /// Concurrent writers must agree on the value.
    CrcwCommon,
    /// One concurrent writer wins; the reference rule is "the highest pid wins" (Choice 1 of
    /// `docs/models/pram.md`).
    CrcwArbitrary,
    /// The lowest pid wins.
    CrcwPriority,
    /// Concurrent writes are folded with the operator; `p.fop` with this operator is allowed.
    CrcwFetchOp(FetchOp),
}

impl Variant {
    /// Every variant, fetch-op variants in [`FetchOp::ALL`] order.
    pub const ALL: [Variant; 11] = [
        Variant::Erew,
        Variant::Crew,
        Variant::CrcwCommon,
        Variant::CrcwArbitrary,
        Variant::CrcwPriority,
        Variant::CrcwFetchOp(FetchOp::Add),
        Variant::CrcwFetchOp(FetchOp::Min),
        Variant::CrcwFetchOp(FetchOp::Max),
        Variant::CrcwFetchOp(FetchOp::And),
        Variant::CrcwFetchOp(FetchOp::Or),
        Variant::CrcwFetchOp(FetchOp::Xor),
    ];

    /// Whether several PPUs may read one cell in one instruction.
    pub const fn concurrent_read(self) -> bool {
        !matches!(self, Variant::Erew)
    }

    /// The variant named `name` in assembly (`erew`, ..., `crcw-fetch-add`).
    pub fn parse(name: &str) -> Option<Variant> {
        match name {
            "erew" => Some(Variant::Erew),
            "crew" => Some(Variant::Crew),
            "crcw-common" => Some(Variant::CrcwCommon),
            "crcw-arbitrary" => Some(Variant::CrcwArbitrary),
            "crcw-priority" => Some(Variant::CrcwPriority),
            _ => name
                .strip_prefix("crcw-fetch-")
                .and_then(FetchOp::from_name)
                .map(Variant::CrcwFetchOp),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Variant::Erew => f.write_str("erew"),
            Variant::Crew => f.write_str("crew"),
            Variant::CrcwCommon => f.write_str("crcw-common"),
            Variant::CrcwArbitrary => f.write_str("crcw-arbitrary"),
            Variant::CrcwPriority => f.write_str("crcw-priority"),
            Variant::CrcwFetchOp(op) => write!(f, "crcw-fetch-{op}"),
        }
    }
}

impl serde::Serialize for Variant {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Variant {
    /// The assembly names: `erew`, `crew`, `crcw-common`, ..., `crcw-fetch-add`.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Variant::parse(&name).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "variant must be one of {} (got {name:?})",
                Variant::ALL.map(|v| v.to_string()).join(", ")
            ))
        })
    }
}

/// One instruction. CPU instructions first, then the parallel (`p.`) ones.
///
/// Jumps name their label; [`crate::pram::Program::validate`] checks that it is defined.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Instr {
    /// `set cD,imm`.
    Set {
        /// Destination.
        d: CReg,
        /// Value.
        imm: i64,
    },
    /// `op OP cD,cA,cB|imm`.
    Op {
        /// Operation.
        op: Op,
        /// Destination.
        d: CReg,
        /// First source.
        a: CReg,
        /// Second source.
        b: COperand,
    },
    /// `jmp L`.
    Jmp {
        /// Target label.
        label: String,
    },
    /// `jz cA,L`: jump if `cA == 0`.
    Jz {
        /// Tested register.
        a: CReg,
        /// Target label.
        label: String,
    },
    /// `jnz cA,L`: jump if `cA != 0`.
    Jnz {
        /// Tested register.
        a: CReg,
        /// Target label.
        label: String,
    },
    /// `active cA|imm`: sets `nact`, the number of active PPUs.
    Active {
        /// The new `nact`.
        n: COperand,
    },
    /// `cread cD,[cA+imm]`: the CPU reads global memory.
    CRead {
        /// Destination.
        d: CReg,
        /// Address.
        addr: CAddr,
    },
    /// `cwrite [cA+imm],cS`: the CPU writes global memory.
    CWrite {
        /// Address.
        addr: CAddr,
        /// Source.
        s: CReg,
    },
    /// `halt`.
    Halt,
    /// `p.set rD,imm`.
    PSet {
        /// Destination.
        d: PReg,
        /// Value.
        imm: i64,
    },
    /// `p.pid rD`: the PPU's own id.
    PPid {
        /// Destination.
        d: PReg,
    },
    /// `p.nact rD`: the number of active PPUs.
    PNact {
        /// Destination.
        d: PReg,
    },
    /// `p.bcast rD,cA`: every active PPU receives a CPU register.
    PBcast {
        /// Destination.
        d: PReg,
        /// Source CPU register.
        a: CReg,
    },
    /// `p.op OP rD,rA,rB|imm`.
    POp {
        /// Operation.
        op: Op,
        /// Destination.
        d: PReg,
        /// First source.
        a: PReg,
        /// Second source.
        b: POperand,
    },
    /// `p.sel rD,rC,rA,rB`: `rD := rC != 0 ? rA : rB`.
    PSel {
        /// Destination.
        d: PReg,
        /// Condition.
        c: PReg,
        /// Taken when the condition is non-zero.
        a: PReg,
        /// Taken when the condition is zero.
        b: PReg,
    },
    /// `p.lload rD,[rA+imm]`: reads the PPU's local memory.
    PLload {
        /// Destination.
        d: PReg,
        /// Local address.
        addr: PAddr,
    },
    /// `p.lstore [rA+imm],rS`: writes the PPU's local memory.
    PLstore {
        /// Local address.
        addr: PAddr,
        /// Source.
        s: PReg,
    },
    /// `p.read rD,[rA+imm] ?rP`: global read by every active PPU whose predicate is non-zero.
    PRead {
        /// Destination.
        d: PReg,
        /// Global address.
        addr: PAddr,
        /// Predicate (none: every active PPU takes part).
        pred: Option<PReg>,
    },
    /// `p.write [rA+imm],rS ?rP`: global write.
    PWrite {
        /// Global address.
        addr: PAddr,
        /// Source.
        s: PReg,
        /// Predicate.
        pred: Option<PReg>,
    },
    /// `p.fop OP rD,[rA+imm],rS ?rP`: fetch-and-op (only under `crcw-fetch-OP`).
    PFop {
        /// The combining operator; must be the variant's.
        op: FetchOp,
        /// Receives the old value op-folded with the values of lower pids.
        d: PReg,
        /// Global address.
        addr: PAddr,
        /// Contributed value.
        s: PReg,
        /// Predicate.
        pred: Option<PReg>,
    },
}

impl Instr {
    /// The mnemonic.
    pub const fn mnemonic(&self) -> &'static str {
        match self {
            Instr::Set { .. } => "set",
            Instr::Op { .. } => "op",
            Instr::Jmp { .. } => "jmp",
            Instr::Jz { .. } => "jz",
            Instr::Jnz { .. } => "jnz",
            Instr::Active { .. } => "active",
            Instr::CRead { .. } => "cread",
            Instr::CWrite { .. } => "cwrite",
            Instr::Halt => "halt",
            Instr::PSet { .. } => "p.set",
            Instr::PPid { .. } => "p.pid",
            Instr::PNact { .. } => "p.nact",
            Instr::PBcast { .. } => "p.bcast",
            Instr::POp { .. } => "p.op",
            Instr::PSel { .. } => "p.sel",
            Instr::PLload { .. } => "p.lload",
            Instr::PLstore { .. } => "p.lstore",
            Instr::PRead { .. } => "p.read",
            Instr::PWrite { .. } => "p.write",
            Instr::PFop { .. } => "p.fop",
        }
    }

    /// Whether every active PPU executes it (it counts towards `S` and `W`).
    pub const fn is_parallel(&self) -> bool {
        matches!(
            self,
            Instr::PSet { .. }
                | Instr::PPid { .. }
                | Instr::PNact { .. }
                | Instr::PBcast { .. }
                | Instr::POp { .. }
                | Instr::PSel { .. }
                | Instr::PLload { .. }
                | Instr::PLstore { .. }
                | Instr::PRead { .. }
                | Instr::PWrite { .. }
                | Instr::PFop { .. }
        )
    }

    /// Whether it accesses global memory (it counts towards `G` and is a global step).
    pub const fn is_global(&self) -> bool {
        matches!(
            self,
            Instr::CRead { .. }
                | Instr::CWrite { .. }
                | Instr::PRead { .. }
                | Instr::PWrite { .. }
                | Instr::PFop { .. }
        )
    }

    /// The label it jumps to, if it is a jump.
    pub fn label(&self) -> Option<&str> {
        match self {
            Instr::Jmp { label } | Instr::Jz { label, .. } | Instr::Jnz { label, .. } => {
                Some(label)
            }
            _ => None,
        }
    }

    /// Every CPU register it names.
    pub fn cpu_regs(&self) -> Vec<CReg> {
        let operand = |b: &COperand| match b {
            COperand::Reg(reg) => Some(*reg),
            COperand::Imm(_) => None,
        };
        match self {
            Instr::Set { d, .. } => vec![*d],
            Instr::Op { d, a, b, .. } => {
                [Some(*d), Some(*a), operand(b)].into_iter().flatten().collect()
            }
            Instr::Jz { a, .. } | Instr::Jnz { a, .. } | Instr::PBcast { a, .. } => vec![*a],
            Instr::Active { n } => operand(n).into_iter().collect(),
            Instr::CRead { d, addr } => vec![*d, addr.base],
            Instr::CWrite { addr, s } => vec![addr.base, *s],
            _ => Vec::new(),
        }
    }

    /// Every PPU register it names.
    pub fn ppu_regs(&self) -> Vec<PReg> {
        match self {
            Instr::PSet { d, .. }
            | Instr::PPid { d }
            | Instr::PNact { d }
            | Instr::PBcast { d, .. } => {
                vec![*d]
            }
            Instr::POp { d, a, b, .. } => {
                let mut regs = vec![*d, *a];
                if let POperand::Reg(b) = b {
                    regs.push(*b);
                }
                regs
            }
            Instr::PSel { d, c, a, b } => vec![*d, *c, *a, *b],
            Instr::PLload { d, addr } => vec![*d, addr.base],
            Instr::PLstore { addr, s } => vec![addr.base, *s],
            Instr::PRead { d, addr, pred } => {
                [Some(*d), Some(addr.base), *pred].into_iter().flatten().collect()
            }
            Instr::PWrite { addr, s, pred } => {
                [Some(addr.base), Some(*s), *pred].into_iter().flatten().collect()
            }
            Instr::PFop { d, addr, s, pred, .. } => {
                [Some(*d), Some(addr.base), Some(*s), *pred].into_iter().flatten().collect()
            }
            _ => Vec::new(),
        }
    }
}

fn write_off(f: &mut fmt::Formatter<'_>, off: i64) -> fmt::Result {
    match off {
        0 => Ok(()),
        off if off < 0 => write!(f, "-{}", off.unsigned_abs()),
        off => write!(f, "+{off}"),
    }
}

impl fmt::Display for CReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "c{}", self.0)
    }
}

impl fmt::Display for PReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}", self.0)
    }
}

impl fmt::Display for COperand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            COperand::Reg(reg) => reg.fmt(f),
            COperand::Imm(imm) => imm.fmt(f),
        }
    }
}

impl fmt::Display for POperand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            POperand::Reg(reg) => reg.fmt(f),
            POperand::Imm(imm) => imm.fmt(f),
        }
    }
}

impl fmt::Display for CAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}", self.base)?;
        write_off(f, self.off)?;
        f.write_str("]")
    }
}

impl fmt::Display for PAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}", self.base)?;
        write_off(f, self.off)?;
        f.write_str("]")
    }
}

struct Pred(Option<PReg>);

impl fmt::Display for Pred {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(reg) => write!(f, " ?{reg}"),
            None => Ok(()),
        }
    }
}

/// Prints the instruction in the assembly syntax the parser reads.
impl fmt::Display for Instr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.mnemonic();
        match self {
            Instr::Set { d, imm } => write!(f, "{m} {d},{imm}"),
            Instr::Op { op, d, a, b } => write!(f, "{m} {op} {d},{a},{b}"),
            Instr::Jmp { label } => write!(f, "{m} {label}"),
            Instr::Jz { a, label } | Instr::Jnz { a, label } => write!(f, "{m} {a},{label}"),
            Instr::Active { n } => write!(f, "{m} {n}"),
            Instr::CRead { d, addr } => write!(f, "{m} {d},{addr}"),
            Instr::CWrite { addr, s } => write!(f, "{m} {addr},{s}"),
            Instr::Halt => f.write_str(m),
            Instr::PSet { d, imm } => write!(f, "{m} {d},{imm}"),
            Instr::PPid { d } | Instr::PNact { d } => write!(f, "{m} {d}"),
            Instr::PBcast { d, a } => write!(f, "{m} {d},{a}"),
            Instr::POp { op, d, a, b } => write!(f, "{m} {op} {d},{a},{b}"),
            Instr::PSel { d, c, a, b } => write!(f, "{m} {d},{c},{a},{b}"),
            Instr::PLload { d, addr } => write!(f, "{m} {d},{addr}"),
            Instr::PLstore { addr, s } => write!(f, "{m} {addr},{s}"),
            Instr::PRead { d, addr, pred } => write!(f, "{m} {d},{addr}{}", Pred(*pred)),
            Instr::PWrite { addr, s, pred } => write!(f, "{m} {addr},{s}{}", Pred(*pred)),
            Instr::PFop { op, d, addr, s, pred } => {
                write!(f, "{m} {op} {d},{addr},{s}{}", Pred(*pred))
            }
        }
    }
}
