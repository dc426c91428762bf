//! A PPU replica (Baude, Section 3, Theorem 1's construction: each PPU actor replicates the
//! CPU and executes one PPU): the program as the replicas execute it ([`Code`]) and one
//! executed instruction's effect on the memory ([`Effect`]), shared by the direct and the
//! butterfly translations.

use netcore::pram::{AccessKind, Instr, Item, Op, Program, Variant};

use crate::error::Error;

/// A program as the PPU replicas execute it: instructions, jump targets and sizes.
#[derive(Debug, Clone)]
pub(crate) struct Code {
    code: Vec<Instr>,
    targets: Vec<u32>,
    pub(crate) variant: Variant,
    mem: u64,
    pub(crate) ppus: u32,
    pub(crate) lmem: u32,
}

impl Code {
    pub(crate) fn new(program: &Program) -> Result<Self, Error> {
        let (code, targets) = compile(program)?;
        Ok(Code {
            code,
            targets,
            variant: program.variant(),
            mem: program.mem(),
            ppus: program.ppus(),
            lmem: program.lmem(),
        })
    }

    /// The instruction at `pc`.
    pub(crate) fn at(&self, pc: u32) -> Option<&Instr> {
        self.code.get(pc as usize)
    }
}

/// Where a reply goes in a waiting PPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dest {
    Cpu(u8),
    Ppu(u8),
}

/// A PPU actor: the replicated CPU and one PPU.
#[derive(Debug, Clone)]
pub struct PpuActor {
    pub(crate) pid: u32,
    pub(crate) pc: u32,
    pub(super) nact: u32,
    pub(super) g: u64,
    pub(crate) cpu: [i64; 16],
    pub(crate) regs: [i64; 16],
    pub(super) local: Vec<i64>,
    pub(super) waiting: Option<(u64, Dest)>,
    pub(crate) halted: bool,
}

/// What one executed instruction asks of the memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Effect {
    /// Go on with the next instruction.
    Next,
    /// `halt`.
    Halt,
    /// An access of the current global step; a read or fetch-and-op waits for its reply,
    /// which goes to `wait`.
    Access { addr: u64, kind: AccessKind, value: i64, wait: Option<Dest> },
}

fn addr_of(base: i64, off: i64, mem: u64) -> Option<u64> {
    let a = base.checked_add(off)?;
    let a = u64::try_from(a).ok()?;
    (a < mem).then_some(a)
}

impl PpuActor {
    fn active(&self) -> bool {
        self.pid < self.nact
    }

    fn pred(&self, pred: Option<netcore::pram::PReg>) -> bool {
        pred.is_none_or(|p| self.regs[usize::from(p.0)] != 0)
    }

    /// A PPU actor of `pid` before its first instruction.
    pub(crate) fn new(pid: u32, lmem: u32) -> Self {
        PpuActor {
            pid,
            pc: 0,
            nact: 0,
            g: 0,
            cpu: [0; 16],
            regs: [0; 16],
            local: vec![0; lmem as usize],
            waiting: None,
            halted: false,
        }
    }

    /// The state in words (Choice 9): 16 CPU and 16 PPU registers, pc, nact, pid, step, and
    /// the local memory.
    pub(crate) fn words(&self) -> u64 {
        36 + self.local.len() as u64
    }

    /// Stores a reply where the access that waits for it said.
    pub(crate) fn store(&mut self, dest: Dest, value: i64) {
        match dest {
            Dest::Cpu(d) => self.cpu[usize::from(d)] = value,
            Dest::Ppu(d) => self.regs[usize::from(d)] = value,
        }
    }

    /// Executes the instruction at `pc` (Theorem 1's construction: the replica of the CPU and
    /// one PPU); an error names what broke.
    pub(crate) fn exec(&mut self, env: &Code) -> Result<Effect, String> {
        let pc = self.pc;
        let Some(instr) = env.code.get(pc as usize) else {
            return Err(format!("pc {pc} out of range"));
        };
        self.pc += 1;
        let cop = |cpu: &[i64; 16], b: netcore::pram::COperand| match b {
            netcore::pram::COperand::Reg(r) => cpu[usize::from(r.0)],
            netcore::pram::COperand::Imm(i) => i,
        };
        let active = self.active();
        let mut effect = Effect::Next;
        match *instr {
            Instr::Halt => {
                self.halted = true;
                effect = Effect::Halt;
            }
            Instr::Set { d, imm } => self.cpu[usize::from(d.0)] = imm,
            Instr::Op { op, d, a, b } => {
                let b = cop(&self.cpu, b);
                if op.divides() && b == 0 {
                    return Err(format!("division by zero at pc {pc}"));
                }
                self.cpu[usize::from(d.0)] = op.apply(self.cpu[usize::from(a.0)], b);
            }
            Instr::Jmp { .. } => self.pc = env.targets[pc as usize],
            Instr::Jz { a, .. } => {
                if self.cpu[usize::from(a.0)] == 0 {
                    self.pc = env.targets[pc as usize];
                }
            }
            Instr::Jnz { a, .. } => {
                if self.cpu[usize::from(a.0)] != 0 {
                    self.pc = env.targets[pc as usize];
                }
            }
            Instr::Active { n } => {
                let n = cop(&self.cpu, n);
                self.nact = u32::try_from(n)
                    .ok()
                    .filter(|&n| n <= env.ppus)
                    .ok_or_else(|| format!("active {n} out of range"))?;
            }
            Instr::CRead { d, addr } => {
                self.g += 1;
                let a = addr_of(self.cpu[usize::from(addr.base.0)], addr.off, env.mem)
                    .ok_or_else(|| "cread address out of range".to_string())?;
                let wait = Some(Dest::Cpu(d.0));
                effect = Effect::Access { addr: a, kind: AccessKind::Read, value: 0, wait };
            }
            Instr::CWrite { addr, s } => {
                self.g += 1;
                if self.pid == 0 {
                    let a = addr_of(self.cpu[usize::from(addr.base.0)], addr.off, env.mem)
                        .ok_or_else(|| "cwrite address out of range".to_string())?;
                    let v = self.cpu[usize::from(s.0)];
                    effect =
                        Effect::Access { addr: a, kind: AccessKind::Write, value: v, wait: None };
                }
            }
            _ if !active => {
                if instr.is_global() {
                    self.g += 1;
                }
            }
            Instr::PSet { d, imm } => self.regs[usize::from(d.0)] = imm,
            Instr::PPid { d } => self.regs[usize::from(d.0)] = i64::from(self.pid),
            Instr::PNact { d } => self.regs[usize::from(d.0)] = i64::from(self.nact),
            Instr::PBcast { d, a } => self.regs[usize::from(d.0)] = self.cpu[usize::from(a.0)],
            Instr::POp { op, d, a, b } => {
                let b = match b {
                    netcore::pram::POperand::Reg(r) => self.regs[usize::from(r.0)],
                    netcore::pram::POperand::Imm(i) => i,
                };
                if op.divides() && b == 0 {
                    return Err(format!("division by zero at pc {pc}"));
                }
                self.regs[usize::from(d.0)] = apply(op, self.regs[usize::from(a.0)], b);
            }
            Instr::PSel { d, c, a, b } => {
                let r = &self.regs;
                self.regs[usize::from(d.0)] = if r[usize::from(c.0)] != 0 {
                    r[usize::from(a.0)]
                } else {
                    r[usize::from(b.0)]
                };
            }
            Instr::PLload { d, addr } => {
                let at =
                    addr_of(self.regs[usize::from(addr.base.0)], addr.off, u64::from(env.lmem))
                        .ok_or_else(|| "local address out of range".to_string())?;
                self.regs[usize::from(d.0)] = self.local[usize::try_from(at).unwrap_or(0)];
            }
            Instr::PLstore { addr, s } => {
                let at =
                    addr_of(self.regs[usize::from(addr.base.0)], addr.off, u64::from(env.lmem))
                        .ok_or_else(|| "local address out of range".to_string())?;
                self.local[usize::try_from(at).unwrap_or(0)] = self.regs[usize::from(s.0)];
            }
            Instr::PRead { d, addr, pred } => {
                self.g += 1;
                if self.pred(pred) {
                    let a = addr_of(self.regs[usize::from(addr.base.0)], addr.off, env.mem)
                        .ok_or_else(|| "read address out of range".to_string())?;
                    let wait = Some(Dest::Ppu(d.0));
                    effect = Effect::Access { addr: a, kind: AccessKind::Read, value: 0, wait };
                }
            }
            Instr::PWrite { addr, s, pred } => {
                self.g += 1;
                if self.pred(pred) {
                    let a = addr_of(self.regs[usize::from(addr.base.0)], addr.off, env.mem)
                        .ok_or_else(|| "write address out of range".to_string())?;
                    let v = self.regs[usize::from(s.0)];
                    effect =
                        Effect::Access { addr: a, kind: AccessKind::Write, value: v, wait: None };
                }
            }
            Instr::PFop { op, d, addr, s, pred } => {
                self.g += 1;
                if self.pred(pred) {
                    let a = addr_of(self.regs[usize::from(addr.base.0)], addr.off, env.mem)
                        .ok_or_else(|| "fetch address out of range".to_string())?;
                    let v = self.regs[usize::from(s.0)];
                    let wait = Some(Dest::Ppu(d.0));
                    effect =
                        Effect::Access { addr: a, kind: AccessKind::Fetch(op), value: v, wait };
                }
            }
        }
        Ok(effect)
    }
}

fn apply(op: Op, a: i64, b: i64) -> i64 {
    op.apply(a, b)
}

/// Jump targets: `targets[pc]` is where the jump at `pc` goes.
fn compile(program: &Program) -> Result<(Vec<Instr>, Vec<u32>), Error> {
    let mut labels: Vec<(&str, u32)> = Vec::new();
    let mut code = Vec::new();
    for item in program.code() {
        match item {
            Item::Label(l) => {
                let at = u32::try_from(code.len()).map_err(|_| too_long())?;
                labels.push((l.as_str(), at));
            }
            Item::Instr(i) => code.push(i.clone()),
        }
    }
    labels.sort_unstable();
    let targets = code
        .iter()
        .map(|i| {
            i.label()
                .and_then(|l| labels.binary_search_by(|(k, _)| k.cmp(&l)).ok())
                .map_or(0, |k| labels[k].1)
        })
        .collect();
    Ok((code, targets))
}

pub(super) fn too_long() -> Error {
    Error::InvalidConfig { field: "program", rule: "at most 2^32 instructions", got: "more".into() }
}
