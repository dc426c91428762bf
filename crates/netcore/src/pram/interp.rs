//! The reference interpreter: executes a [`Program`] literally (paper §2.1) and measures its
//! costs. It is the ground truth that every simulator of the PRAM is compared with.
//!
//! PPU registers are kept as struct-of-arrays (`regs[r][pid]`), so a parallel ALU instruction
//! is one tight loop over the active PPUs; access buffers are allocated once per run.

use crate::pram::error::PramError;
use crate::pram::isa::{
    COperand, CReg, FetchOp, Instr, Op, OpVisitor, PAddr, POperand, PReg, REGISTERS, Variant,
};
use crate::pram::memory::{Access, AccessKind, ArrayMemory, CPU_PID, GlobalMemory};
use crate::pram::program::{Compiled, Program};
use crate::pram::replay::{Serialization, reorder};
use crate::pram::resolve::{EMPTY, StepConflict, combine_fetch, resolve_step};
use crate::pram::trace::{NoTrace, TraceSink};

/// The limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest `T`: executing more instructions is a [`PramError::StepLimit`].
    pub max_steps: u64,
    /// The byte budget for registers, local memory, buffers and (in [`run`]) the global array;
    /// a larger estimate is refused with [`PramError::MemoryBudget`] before allocating.
    pub max_bytes: u64,
    /// The largest work `T + W` (instructions plus PPU-instructions): no instruction starts
    /// once `T + W` has reached it ([`PramError::WorkLimit`]). It bounds the run's time where `max_steps` cannot: one step
    /// of `2^24` PPUs is `2^24` units.
    pub max_work: u64,
}

/// The stated work limit of every PRAM run, `T + W <= 2^36` (`docs/models/pram.md`, Limits):
/// at the slowest measured rates (about 3.8 * 10^8 units per second for a scalar loop and for a
/// concurrent read and write of one cell by `2^20` PPUs) a run within it ends in about three
/// minutes; parallel arithmetic runs some ten times faster.
pub const MAX_WORK: u64 = 1 << 36;

impl Default for Limits {
    /// 10^9 instructions, 1 GiB and [`MAX_WORK`].
    fn default() -> Self {
        Self { max_steps: 1_000_000_000, max_bytes: 1 << 30, max_work: MAX_WORK }
    }
}

/// The costs of a run (paper §2.1; see `docs/models/pram.md`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Cost {
    /// Executed instructions, `halt` included.
    pub t: u64,
    /// The largest `nact` over executed parallel instructions.
    pub s: u64,
    /// Executed global-access instructions (`cread`, `cwrite`, `p.read`, `p.write`, `p.fop`).
    pub g: u64,
    /// Work: the sum of `nact` over executed parallel instructions.
    pub w: u64,
}

/// The result of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PramRun {
    /// The global memory at `halt`.
    pub memory: Vec<i64>,
    /// The CPU registers `c0..c15` at `halt`.
    pub cpu_regs: [i64; REGISTERS as usize],
    /// `ppu_regs[r][pid]`: register `r` of every PPU at `halt`.
    pub ppu_regs: Vec<Vec<i64>>,
    /// `T`, `S`, `G`, `W`.
    pub cost: Cost,
}

/// Bytes per PPU besides local memory: 16 registers, a scratch value, two access buffers and
/// an index.
const BYTES_PER_PPU: u64 = 8 * REGISTERS as u64 + 8 + 2 * size_of::<Access>() as u64 + 4;
/// Bytes per global cell of the conflict table.
const BYTES_PER_CELL: u64 = 4;

/// The estimated bytes of a run of `program`, without the global memory itself.
pub fn estimate_bytes(program: &Program) -> u64 {
    let ppus = u64::from(program.ppus());
    ppus * (BYTES_PER_PPU + 8 * u64::from(program.lmem())) + BYTES_PER_CELL * program.mem()
}

fn check_budget(needed: u64, limits: &Limits) -> Result<(), PramError> {
    if needed > limits.max_bytes {
        return Err(PramError::MemoryBudget { needed, budget: limits.max_bytes });
    }
    Ok(())
}

/// Runs `program` on the reference [`ArrayMemory`] holding `input` (then zeros), without a
/// trace.
///
/// ```
/// use netcore::pram::{Limits, library::Algorithm, run};
///
/// let prefix = Algorithm::PrefixSums.instance(8, 0)?;
/// let done = run(&prefix.program, &prefix.input, &Limits::default())?;
/// assert_eq!(done.memory, vec![1, 3, 6, 10, 15, 21, 28, 36]);
/// assert_eq!((done.cost.t, done.cost.s, done.cost.g, done.cost.w), (40, 8, 9, 216));
/// # Ok::<(), netcore::pram::PramError>(())
/// ```
///
/// # Errors
///
/// - the error of [`Program::validate`] if the program breaks a static rule;
/// - [`PramError::InvalidConfig`] if `input` is longer than the program's global memory;
/// - [`PramError::MemoryBudget`] if the run would need more bytes than `limits` allows;
/// - at run time, the first rule the program breaks, naming its `pc` and line:
///   [`PramError::AddressOutOfRange`], [`PramError::LocalAddressOutOfRange`],
///   [`PramError::ExclusiveReadConflict`], [`PramError::ExclusiveWriteConflict`],
///   [`PramError::CommonWriteMismatch`] (for the program's [`Variant`](crate::pram::Variant)),
///   [`PramError::DivisionByZero`], [`PramError::TooManyProcessors`],
///   [`PramError::PcOutOfRange`], or [`PramError::StepLimit`] / [`PramError::WorkLimit`]
///   after `limits`' step or work budget.
pub fn run(program: &Program, input: &[i64], limits: &Limits) -> Result<PramRun, PramError> {
    run_traced(program, input, limits, &mut NoTrace)
}

/// [`run`] with every global step's accesses sent to `sink`.
///
/// # Examples
///
/// ```
/// use netcore::pram::{CollectTrace, Limits, library::Algorithm, run_traced};
///
/// let prefix = Algorithm::PrefixSums.instance(4, 0)?;
/// let mut trace = CollectTrace::default();
/// let done = run_traced(&prefix.program, &prefix.input, &Limits::default(), &mut trace)?;
/// assert_eq!(trace.steps.len() as u64, done.cost.g); // one entry per global step
/// # Ok::<(), netcore::pram::PramError>(())
/// ```
///
/// # Errors
///
/// As [`run`].
pub fn run_traced<T: TraceSink>(
    program: &Program,
    input: &[i64],
    limits: &Limits,
    sink: &mut T,
) -> Result<PramRun, PramError> {
    let mut memory = array_memory(program, input, limits)?;
    run_with(program, &mut memory, limits, sink)
}

/// The reference memory of a run of `program` on `input`, after the static checks and the
/// budget.
fn array_memory(
    program: &Program,
    input: &[i64],
    limits: &Limits,
) -> Result<ArrayMemory, PramError> {
    program.validate()?;
    if input.len() as u64 > program.mem() {
        return Err(PramError::InvalidConfig {
            field: "input",
            rule: "input length <= mem",
            got: input.len().to_string(),
        });
    }
    check_budget(estimate_bytes(program).saturating_add(8 * program.mem()), limits)?;
    Ok(ArrayMemory::new(program.mem() as usize, input)?)
}

/// Runs `program` on `input` like [`run`](crate::pram::run), but serves the requests of every
/// fetch-and-op step for each cell in the order `serialization` gives (instead of pid order):
/// each PPU gets the cell's value before the step op-folded with the contributions of the PPUs
/// before it in that order, and the cell the fold of all of them. Every other step is the
/// reference's.
///
/// # Examples
///
/// ```
/// use netcore::pram::{Limits, Serialization, StepOrder, library::Algorithm, run_serialized};
///
/// // Four PPUs fetch-and-add their items to the counter g[0] at global step 2 (after the
/// // read of the items); serve them in the order 2, 0, 3, 1.
/// let counter = Algorithm::FetchAddCounter.instance(4, 0)?;
/// let order = Serialization { steps: vec![StepOrder { g_step: 2, cells: vec![(0, vec![2, 0, 3, 1])] }] };
/// let done = run_serialized(&counter.program, &counter.input, &Limits::default(), &order)?;
/// let v = &counter.input[1..5];
/// // PPU i stores what it got in g[1 + i]: PPU 2 came first and got the counter's old value.
/// assert_eq!(done.memory[3], counter.input[0]);
/// assert_eq!(done.memory[1], counter.input[0] + v[2]);
/// assert_eq!(done.memory[0], counter.input[0] + v.iter().sum::<i64>());
/// # Ok::<(), netcore::pram::PramError>(())
/// ```
///
/// # Errors
///
/// As [`run`](crate::pram::run), and [`PramError::InvalidConfig`] naming `serialization` if a
/// fetch-and-op step's cell has no order, or its order is not a permutation of the pids that
/// accessed the cell.
pub fn run_serialized(
    program: &Program,
    input: &[i64],
    limits: &Limits,
    serialization: &Serialization,
) -> Result<PramRun, PramError> {
    let mut memory = array_memory(program, input, limits)?;
    let code = program.compile()?;
    check_budget(estimate_bytes(program), limits)?;
    let mut sink = NoTrace;
    let mut machine = Machine::new(program, &code, &mut memory, &mut sink)?;
    machine.orders = Some(serialization);
    machine.run(limits)?;
    Ok(machine.finished())
}

/// Runs `program` on any global memory back end, sending every global step's accesses to
/// `sink`.
///
/// # Errors
///
/// - the error of [`Program::validate`] if the program breaks a static rule;
/// - [`PramError::InvalidConfig`] if `memory`'s size is not the program's `mem`;
/// - [`PramError::MemoryBudget`] if the registers and tables would exceed `limits`;
/// - at run time, the first rule the program breaks, naming its `pc` and line:
///   [`PramError::AddressOutOfRange`], [`PramError::LocalAddressOutOfRange`],
///   [`PramError::ExclusiveReadConflict`], [`PramError::ExclusiveWriteConflict`],
///   [`PramError::CommonWriteMismatch`] (for the program's [`Variant`](crate::pram::Variant)),
///   [`PramError::DivisionByZero`], [`PramError::TooManyProcessors`],
///   [`PramError::PcOutOfRange`], or [`PramError::StepLimit`] / [`PramError::WorkLimit`]
///   after `limits`' step or work budget.
pub fn run_with<M: GlobalMemory, T: TraceSink>(
    program: &Program,
    memory: &mut M,
    limits: &Limits,
    sink: &mut T,
) -> Result<PramRun, PramError> {
    let code = program.compile()?;
    if memory.size() != program.mem() {
        return Err(PramError::InvalidConfig {
            field: "memory",
            rule: "back end size == mem",
            got: memory.size().to_string(),
        });
    }
    check_budget(estimate_bytes(program), limits)?;
    let mut machine = Machine::new(program, &code, memory, sink)?;
    machine.run(limits)?;
    Ok(machine.finished())
}

struct Machine<'a, M, T> {
    program: &'a Program,
    code: &'a Compiled<'a>,
    memory: &'a mut M,
    sink: &'a mut T,
    cpu: [i64; REGISTERS as usize],
    regs: Vec<Vec<i64>>,
    local: Vec<i64>,
    nact: usize,
    cost: Cost,
    pc: u32,
    /// Accesses of the current step, one per participating PPU, sorted by pid.
    raw: Vec<Access>,
    /// Accesses after resolution, one per written address.
    resolved: Vec<Access>,
    /// `rix[k]`: index in `resolved` of `raw[k]` (fetch-ops).
    rix: Vec<u32>,
    /// Per-PPU scratch values (`p.sel` results, fetch-op prefixes).
    scratch: Vec<i64>,
    /// `slot[addr]`: index in `resolved` (or first pid) of the address in this step; EMPTY
    /// between steps.
    slot: Vec<u32>,
    /// The fetch-and-op serialization to replay instead of pid order (`run_serialized`).
    orders: Option<&'a Serialization>,
}

/// One parallel ALU instruction over the first `n` PPUs, monomorphised per operation.
struct Kernel<'a> {
    regs: &'a mut [Vec<i64>],
    d: usize,
    a: usize,
    b: POperand,
    n: usize,
}

impl OpVisitor for Kernel<'_> {
    type Output = ();

    fn visit<F: Fn(i64, i64) -> i64 + Copy>(self, f: F) {
        let Kernel { regs, d, a, b, n } = self;
        let mut dst = std::mem::take(&mut regs[d]);
        let out = &mut dst[..n];
        match b {
            POperand::Imm(v) if a == d => out.iter_mut().for_each(|x| *x = f(*x, v)),
            POperand::Imm(v) => out.iter_mut().zip(&regs[a][..n]).for_each(|(x, &y)| *x = f(y, v)),
            POperand::Reg(PReg(b)) => match (a == d, usize::from(b) == d) {
                (true, true) => out.iter_mut().for_each(|x| *x = f(*x, *x)),
                (true, false) => {
                    out.iter_mut().zip(&regs[usize::from(b)][..n]).for_each(|(x, &z)| *x = f(*x, z))
                }
                (false, true) => {
                    out.iter_mut().zip(&regs[a][..n]).for_each(|(x, &y)| *x = f(y, *x))
                }
                (false, false) => out
                    .iter_mut()
                    .zip(&regs[a][..n])
                    .zip(&regs[usize::from(b)][..n])
                    .for_each(|((x, &y), &z)| *x = f(y, z)),
            },
        }
        regs[d] = dst;
    }
}

fn reg(r: PReg) -> usize {
    usize::from(r.0)
}

fn cpu(r: CReg) -> usize {
    usize::from(r.0)
}

impl<'a, M: GlobalMemory, T: TraceSink> Machine<'a, M, T> {
    /// The run's result once [`Machine::run`] has returned: final memory, registers and cost.
    fn finished(self) -> PramRun {
        PramRun {
            memory: self.memory.contents(),
            cpu_regs: self.cpu,
            ppu_regs: self.regs,
            cost: self.cost,
        }
    }

    /// The machine's registers, local memories and step buffers, each allocated once through
    /// [`crate::limits`]' fallible allocation.
    fn new(
        program: &'a Program,
        code: &'a Compiled<'a>,
        memory: &'a mut M,
        sink: &'a mut T,
    ) -> Result<Self, PramError> {
        use crate::limits::{vec_filled, vec_with_capacity};
        let ppus = program.ppus() as usize;
        let mut regs = vec_with_capacity("the PPU registers", usize::from(REGISTERS))?;
        for _ in 0..REGISTERS {
            regs.push(vec_filled("the PPU registers", ppus, 0)?);
        }
        Ok(Self {
            program,
            code,
            memory,
            sink,
            cpu: [0; REGISTERS as usize],
            regs,
            local: vec_filled("the local memories", ppus * program.lmem() as usize, 0)?,
            nact: 0,
            cost: Cost::default(),
            pc: 0,
            raw: vec_with_capacity("the step buffers", ppus + 1)?,
            resolved: vec_with_capacity("the step buffers", ppus + 1)?,
            rix: vec_filled("the step buffers", ppus, 0)?,
            scratch: vec_filled("the step buffers", ppus, 0)?,
            slot: vec_filled("the conflict table", program.mem() as usize, EMPTY)?,
            orders: None,
        })
    }

    fn run(&mut self, limits: &Limits) -> Result<(), PramError> {
        loop {
            let pc = self.pc;
            let Some(&instr) = self.code.instrs.get(pc as usize) else {
                return Err(PramError::PcOutOfRange { pc });
            };
            if self.cost.t == limits.max_steps {
                return Err(PramError::StepLimit { limit: limits.max_steps, pc });
            }
            if self.cost.t.saturating_add(self.cost.w) >= limits.max_work {
                return Err(PramError::WorkLimit { limit: limits.max_work, t: self.cost.t, pc });
            }
            self.cost.t += 1;
            self.memory.instruction(self.cost.t);
            if instr.is_parallel() {
                self.cost.w += self.nact as u64;
                self.cost.s = self.cost.s.max(self.nact as u64);
            }
            if instr.is_global() {
                self.cost.g += 1;
            }
            self.pc = pc + 1;
            if self.execute(instr)? {
                return Ok(());
            }
        }
    }

    fn coperand(&self, b: COperand) -> i64 {
        match b {
            COperand::Reg(reg) => self.cpu[usize::from(reg.0)],
            COperand::Imm(imm) => imm,
        }
    }

    /// Executes one instruction (the program counter already points past it); true at `halt`.
    fn execute(&mut self, instr: &Instr) -> Result<bool, PramError> {
        let pc = self.pc - 1;
        let line = self.code.lines[pc as usize];
        let n = self.nact;
        match *instr {
            Instr::Halt => return Ok(true),
            Instr::Set { d, imm } => self.cpu[cpu(d)] = imm,
            Instr::Op { op, d, a, b } => {
                let b = self.coperand(b);
                if op.divides() && b == 0 {
                    return Err(PramError::DivisionByZero { pc, line, pid: None });
                }
                self.cpu[cpu(d)] = op.apply(self.cpu[cpu(a)], b);
            }
            Instr::Jmp { .. } => self.pc = self.code.targets[pc as usize],
            Instr::Jz { a, .. } => {
                if self.cpu[cpu(a)] == 0 {
                    self.pc = self.code.targets[pc as usize];
                }
            }
            Instr::Jnz { a, .. } => {
                if self.cpu[cpu(a)] != 0 {
                    self.pc = self.code.targets[pc as usize];
                }
            }
            Instr::Active { n } => {
                let requested = self.coperand(n);
                let max = self.program.ppus();
                if !(0..=i64::from(max)).contains(&requested) {
                    return Err(PramError::TooManyProcessors { pc, line, requested, max });
                }
                self.nact = requested as usize;
            }
            Instr::CRead { d, addr } => {
                let addr = self.global_addr(self.cpu[cpu(addr.base)], addr.off, None)?;
                self.raw.clear();
                self.raw.push(Access { pid: CPU_PID, kind: AccessKind::Read, addr, value: 0 });
                self.memory.step(self.cost.g, &mut self.raw);
                self.cpu[cpu(d)] = self.raw[0].value;
                self.sink.step(self.cost.g, pc, &self.raw);
            }
            Instr::CWrite { addr, s } => {
                let addr = self.global_addr(self.cpu[cpu(addr.base)], addr.off, None)?;
                let value = self.cpu[cpu(s)];
                self.raw.clear();
                self.raw.push(Access { pid: CPU_PID, kind: AccessKind::Write, addr, value });
                self.memory.step(self.cost.g, &mut self.raw);
                self.sink.step(self.cost.g, pc, &self.raw);
            }
            Instr::PSet { d, imm } => self.regs[reg(d)][..n].fill(imm),
            Instr::PPid { d } => {
                self.regs[reg(d)][..n].iter_mut().zip(0..).for_each(|(x, pid)| *x = pid);
            }
            Instr::PNact { d } => self.regs[reg(d)][..n].fill(n as i64),
            Instr::PBcast { d, a } => self.regs[reg(d)][..n].fill(self.cpu[cpu(a)]),
            Instr::POp { op, d, a, b } => self.p_op(op, d, a, b)?,
            Instr::PSel { d, c, a, b } => {
                let out = &mut self.scratch[..n];
                let (c, a, b) = (&self.regs[reg(c)], &self.regs[reg(a)], &self.regs[reg(b)]);
                for (pid, x) in out.iter_mut().enumerate() {
                    *x = if c[pid] != 0 { a[pid] } else { b[pid] };
                }
                self.regs[reg(d)][..n].copy_from_slice(out);
            }
            Instr::PLload { d, addr } => {
                self.check_local(addr)?;
                let lmem = self.program.lmem() as usize;
                for pid in 0..n {
                    let at = (self.regs[reg(addr.base)][pid] + addr.off) as usize;
                    self.regs[reg(d)][pid] = self.local[pid * lmem + at];
                }
            }
            Instr::PLstore { addr, s } => {
                self.check_local(addr)?;
                let lmem = self.program.lmem() as usize;
                for pid in 0..n {
                    let at = (self.regs[reg(addr.base)][pid] + addr.off) as usize;
                    self.local[pid * lmem + at] = self.regs[reg(s)][pid];
                }
            }
            Instr::PRead { d, addr, pred } => {
                self.gather(addr, pred, AccessKind::Read, None)?;
                if !self.program.variant().concurrent_read() {
                    self.resolve()?;
                }
                self.memory.step(self.cost.g, &mut self.raw);
                let dst = &mut self.regs[reg(d)];
                for access in &self.raw {
                    dst[access.pid as usize] = access.value;
                }
                self.sink.step(self.cost.g, pc, &self.raw);
            }
            Instr::PWrite { addr, s, pred } => {
                self.gather(addr, pred, AccessKind::Write, Some(s))?;
                self.resolve()?;
                self.memory.step(self.cost.g, &mut self.resolved);
                self.sink.step(self.cost.g, pc, &self.raw);
            }
            Instr::PFop { op, d, addr, s, pred } => {
                self.gather(addr, pred, AccessKind::Fetch(op), Some(s))?;
                self.combine(op);
                if let Some(orders) = self.orders {
                    let n = self.raw.len();
                    let (raw, rix) = (&self.raw, &self.rix[..n]);
                    let prefix = &mut self.scratch[..n];
                    reorder(op, self.cost.g, orders, raw, &mut self.resolved, rix, prefix)?;
                }
                self.memory.step(self.cost.g, &mut self.resolved);
                let dst = &mut self.regs[reg(d)];
                for (k, access) in self.raw.iter().enumerate() {
                    let old = self.resolved[self.rix[k] as usize].value;
                    dst[access.pid as usize] = op.apply(old, self.scratch[k]);
                }
                self.sink.step(self.cost.g, pc, &self.raw);
            }
        }
        Ok(false)
    }

    fn p_op(&mut self, op: Op, d: PReg, a: PReg, b: POperand) -> Result<(), PramError> {
        let n = self.nact;
        if op.divides() {
            let zero = match b {
                POperand::Imm(0) if n > 0 => Some(0),
                POperand::Imm(_) => None,
                POperand::Reg(b) => self.regs[reg(b)][..n].iter().position(|&x| x == 0),
            };
            if let Some(pid) = zero {
                let (pc, line) = (self.pc - 1, self.line());
                return Err(PramError::DivisionByZero { pc, line, pid: Some(pid as u32) });
            }
        }
        op.dispatch(Kernel { regs: &mut self.regs, d: reg(d), a: reg(a), b, n });
        Ok(())
    }

    /// The source line of the executing instruction (the program counter points past it).
    fn line(&self) -> u32 {
        self.code.lines[self.pc as usize - 1]
    }

    /// Checks that every active PPU's local address is in `0..LM`.
    fn check_local(&self, addr: PAddr) -> Result<(), PramError> {
        let lmem = i64::from(self.program.lmem());
        let base = &self.regs[reg(addr.base)][..self.nact];
        let bad = base
            .iter()
            .position(|&x| x.checked_add(addr.off).is_none_or(|a| !(0..lmem).contains(&a)));
        match bad {
            None => Ok(()),
            Some(pid) => Err(PramError::LocalAddressOutOfRange {
                pc: self.pc - 1,
                line: self.line(),
                pid: pid as u32,
                addr: i128::from(base[pid]) + i128::from(addr.off),
                lmem: self.program.lmem(),
            }),
        }
    }

    /// `base + off` if it is a global address, else the error for `pid`.
    fn global_addr(&self, base: i64, off: i64, pid: Option<u32>) -> Result<u64, PramError> {
        let mem = self.program.mem();
        match base.checked_add(off) {
            Some(addr) if addr >= 0 && (addr as u64) < mem => Ok(addr as u64),
            _ => Err(PramError::AddressOutOfRange {
                g_step: self.cost.g,
                pc: self.pc - 1,
                line: self.line(),
                pid,
                addr: i128::from(base) + i128::from(off),
                mem,
            }),
        }
    }

    /// Fills `raw` with the accesses of the participating PPUs, in pid order.
    fn gather(
        &mut self,
        addr: PAddr,
        pred: Option<PReg>,
        kind: AccessKind,
        value: Option<PReg>,
    ) -> Result<(), PramError> {
        let mut raw = std::mem::take(&mut self.raw);
        raw.clear();
        let base = &self.regs[reg(addr.base)];
        let result = (0..self.nact)
            .filter(|&pid| pred.is_none_or(|p| self.regs[reg(p)][pid] != 0))
            .try_for_each(|pid| {
                let at = self.global_addr(base[pid], addr.off, Some(pid as u32))?;
                let value = value.map_or(0, |s| self.regs[reg(s)][pid]);
                raw.push(Access { pid: pid as u32, kind, addr: at, value });
                Ok(())
            });
        self.raw = raw;
        result
    }

    /// Resolves `raw` into `resolved` by the variant's rules (one access per written address),
    /// or reports the step's first conflict. For exclusive reads it only checks.
    fn resolve(&mut self) -> Result<(), PramError> {
        let variant = self.program.variant();
        let conflict = resolve_step(variant, &self.raw, &mut self.slot, &mut self.resolved);
        let Some(StepConflict { addr, pids, values }) = conflict else { return Ok(()) };
        let (g_step, pc, line) = (self.cost.g, self.pc - 1, self.line());
        Err(match (self.raw[0].kind, variant) {
            (AccessKind::Read, _) => {
                PramError::ExclusiveReadConflict { g_step, pc, line, addr, pids }
            }
            (_, Variant::CrcwCommon) => {
                PramError::CommonWriteMismatch { g_step, pc, line, addr, pids, values }
            }
            _ => PramError::ExclusiveWriteConflict { g_step, pc, line, addr, pids },
        })
    }

    /// Combines the fetch-ops of `raw` into one per address in `resolved`; `scratch[k]` gets
    /// the fold of the contributions of lower pids at `raw[k]`'s address.
    fn combine(&mut self, op: FetchOp) {
        let n = self.raw.len();
        combine_fetch(
            op,
            &self.raw,
            &mut self.slot,
            &mut self.resolved,
            &mut self.scratch[..n],
            &mut self.rix[..n],
        );
    }
}
