//! The static test for communication-predictable programs (Baude, Section 3, Definition 3):
//! a program is predictable when which PPU accesses which cell at which step does not depend
//! on the data. Values that come from global memory (`p.read`, `p.fop`, `cread`) are
//! *tainted*; taint flows through operations, `p.sel`, `p.bcast` and local memory (a tainted
//! `p.lstore`, or one at a tainted address, taints every later `p.lload` of the PPU: one
//! flag; a load from a tainted address is tainted, Choice 17). The program is
//! predictable iff no reachable global address, predicate, branch condition or `active`
//! operand is tainted. The analysis is a forward data-flow fixpoint over the program counter
//! (join = union of tainted registers), so loops are handled.

use netcore::pram::{COperand, Instr, Item, POperand, Program};
use serde::Serialize;

/// Why a program is not predictable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unpredictable {
    /// The program counter of the first (smallest) offending instruction.
    pub pc: u32,
    /// What depends on data read from global memory.
    pub reason: String,
}

/// Taint state: CPU registers, PPU registers (bit masks) and the local-memory flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Taint {
    cpu: u16,
    ppu: u16,
    local: bool,
}

impl Taint {
    fn join(self, o: Taint) -> Taint {
        Taint { cpu: self.cpu | o.cpu, ppu: self.ppu | o.ppu, local: self.local || o.local }
    }
    fn c(&self, r: u8) -> bool {
        self.cpu >> r & 1 == 1
    }
    fn p(&self, r: u8) -> bool {
        self.ppu >> r & 1 == 1
    }
    fn set_c(&mut self, r: u8, t: bool) {
        self.cpu = if t { self.cpu | 1 << r } else { self.cpu & !(1 << r) };
    }
    fn set_p(&mut self, r: u8, t: bool) {
        self.ppu = if t { self.ppu | 1 << r } else { self.ppu & !(1 << r) };
    }
}

fn cop(t: &Taint, b: COperand) -> bool {
    match b {
        COperand::Reg(r) => t.c(r.0),
        COperand::Imm(_) => false,
    }
}

/// Checks Definition 3 statically: `Ok(())` for a predictable program, else the first
/// offending instruction.
pub fn predictability(program: &Program) -> Result<(), Unpredictable> {
    let mut labels: Vec<(&str, usize)> = Vec::new();
    let mut code: Vec<&Instr> = Vec::new();
    for item in program.code() {
        match item {
            Item::Label(l) => labels.push((l.as_str(), code.len())),
            Item::Instr(i) => code.push(i),
        }
    }
    let target = |l: &str| labels.iter().find(|(k, _)| *k == l).map(|x| x.1);
    let mut state: Vec<Option<Taint>> = vec![None; code.len() + 1];
    if code.is_empty() {
        return Ok(());
    }
    state[0] = Some(Taint::default());
    let mut work = vec![0usize];
    let mut bad: Vec<Unpredictable> = Vec::new();
    while let Some(pc) = work.pop() {
        let Some(mut t) = state[pc] else { continue };
        let Some(instr) = code.get(pc) else { continue };
        let mut next: Vec<usize> = vec![pc + 1];
        let flag = |what: String| Unpredictable {
            pc: u32::try_from(pc).unwrap_or(u32::MAX),
            reason: what,
        };
        match instr {
            Instr::Halt => next.clear(),
            Instr::Set { d, .. } => t.set_c(d.0, false),
            Instr::Op { d, a, b, .. } => {
                let v = t.c(a.0) || cop(&t, *b);
                t.set_c(d.0, v);
            }
            Instr::Jmp { label } => next = target(label).into_iter().collect(),
            Instr::Jz { a, label } | Instr::Jnz { a, label } => {
                if t.c(a.0) {
                    bad.push(flag(format!("branch condition c{} depends on global memory", a.0)));
                }
                next.extend(target(label));
            }
            Instr::Active { n } => {
                if cop(&t, *n) {
                    bad.push(flag("the active count depends on global memory".into()));
                }
            }
            Instr::CRead { d, addr } => {
                if t.c(addr.base.0) {
                    bad.push(flag(format!(
                        "cread address register c{} depends on global memory",
                        addr.base.0
                    )));
                }
                t.set_c(d.0, true);
            }
            Instr::CWrite { addr, .. } => {
                if t.c(addr.base.0) {
                    bad.push(flag(format!(
                        "cwrite address register c{} depends on global memory",
                        addr.base.0
                    )));
                }
            }
            Instr::PSet { d, .. } | Instr::PPid { d } | Instr::PNact { d } => t.set_p(d.0, false),
            Instr::PBcast { d, a } => {
                let v = t.c(a.0);
                t.set_p(d.0, v);
            }
            Instr::POp { d, a, b, .. } => {
                let v = t.p(a.0)
                    || match b {
                        POperand::Reg(r) => t.p(r.0),
                        POperand::Imm(_) => false,
                    };
                t.set_p(d.0, v);
            }
            Instr::PSel { d, c, a, b } => {
                let v = t.p(c.0) || t.p(a.0) || t.p(b.0);
                t.set_p(d.0, v);
            }
            // A tainted local address makes the slot data dependent: the load's value, and
            // after a store every later load (Choice 17).
            Instr::PLload { d, addr } => {
                let v = t.local || t.p(addr.base.0);
                t.set_p(d.0, v);
            }
            Instr::PLstore { s, addr } => t.local |= t.p(s.0) || t.p(addr.base.0),
            Instr::PRead { d, addr, pred } | Instr::PFop { d, addr, pred, .. } => {
                if t.p(addr.base.0) {
                    bad.push(flag(format!(
                        "address register r{} depends on global memory",
                        addr.base.0
                    )));
                }
                if let Some(p) = pred
                    && t.p(p.0)
                {
                    bad.push(flag(format!("predicate r{} depends on global memory", p.0)));
                }
                t.set_p(d.0, true);
            }
            Instr::PWrite { addr, pred, .. } => {
                if t.p(addr.base.0) {
                    bad.push(flag(format!(
                        "address register r{} depends on global memory",
                        addr.base.0
                    )));
                }
                if let Some(p) = pred
                    && t.p(p.0)
                {
                    bad.push(flag(format!("predicate r{} depends on global memory", p.0)));
                }
            }
        }
        for n in next {
            if n >= state.len() {
                continue;
            }
            let joined = state[n].map_or(t, |s| s.join(t));
            if state[n] != Some(joined) {
                state[n] = Some(joined);
                work.push(n);
            }
        }
    }
    bad.sort_by_key(|b| b.pc);
    match bad.into_iter().next() {
        Some(b) => Err(b),
        None => Ok(()),
    }
}
