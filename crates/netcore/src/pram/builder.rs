//! [`ProgramBuilder`]: writes a [`Program`] from Rust, one method per mnemonic (paper §2.1).

use crate::pram::isa::{CAddr, COperand, CReg, FetchOp, Instr, Op, PAddr, POperand, PReg, Variant};
use crate::pram::program::{FIRST_CODE_LINE, Item, Program};

/// Builds a [`Program`] instruction by instruction.
///
/// Each method appends the instruction of the same mnemonic (`p_read` for `p.read`); lines are
/// numbered as the program prints, so `Program::parse(&built.to_string()) == Ok(built)`.
///
/// ```
/// use netcore::pram::{Limits, Op, ProgramBuilder, Variant, c, r, run};
///
/// // Every PPU doubles the cell it owns.
/// let mut b = ProgramBuilder::new(Variant::Erew, 4, 4);
/// b.active(4).p_pid(r(0)).p_read(r(1), r(0), None).p_op(Op::Add, r(1), r(1), r(1));
/// b.p_write(r(0), r(1), None).halt();
/// let program = b.build();
/// let done = run(&program, &[1, 2, 3, 4], &Limits::default())?;
/// assert_eq!(done.memory, vec![2, 4, 6, 8]);
/// # Ok::<(), netcore::pram::PramError>(())
/// ```
#[derive(Debug, Clone)]
pub struct ProgramBuilder {
    program: Program,
}

impl ProgramBuilder {
    /// An empty program for `ppus` PPUs and `mem` global cells, without local memory.
    pub fn new(variant: Variant, mem: u64, ppus: u32) -> Self {
        let program = Program { variant, mem, ppus, lmem: 0, code: Vec::new(), lines: Vec::new() };
        Self { program }
    }

    /// Sets `LM`, the local memory cells per PPU.
    pub fn lmem(&mut self, lmem: u32) -> &mut Self {
        self.program.lmem = lmem;
        self
    }

    /// The program so far (unvalidated: run it or call [`Program::validate`]).
    pub fn build(&self) -> Program {
        self.program.clone()
    }

    fn push(&mut self, item: Item) -> &mut Self {
        let line = FIRST_CODE_LINE + self.program.code.len() as u32;
        self.program.code.push(item);
        self.program.lines.push(line);
        self
    }

    fn instr(&mut self, instr: Instr) -> &mut Self {
        self.push(Item::Instr(instr))
    }

    /// `name:` labels the next instruction.
    pub fn label(&mut self, name: &str) -> &mut Self {
        self.push(Item::Label(name.to_string()))
    }

    /// `set cD,imm`.
    pub fn set(&mut self, d: CReg, imm: i64) -> &mut Self {
        self.instr(Instr::Set { d, imm })
    }

    /// `op OP cD,cA,cB|imm`.
    pub fn op(&mut self, op: Op, d: CReg, a: CReg, b: impl Into<COperand>) -> &mut Self {
        self.instr(Instr::Op { op, d, a, b: b.into() })
    }

    /// `jmp L`.
    pub fn jmp(&mut self, label: &str) -> &mut Self {
        self.instr(Instr::Jmp { label: label.to_string() })
    }

    /// `jz cA,L`.
    pub fn jz(&mut self, a: CReg, label: &str) -> &mut Self {
        self.instr(Instr::Jz { a, label: label.to_string() })
    }

    /// `jnz cA,L`.
    pub fn jnz(&mut self, a: CReg, label: &str) -> &mut Self {
        self.instr(Instr::Jnz { a, label: label.to_string() })
    }

    /// `active cA|imm`.
    pub fn active(&mut self, n: impl Into<COperand>) -> &mut Self {
        self.instr(Instr::Active { n: n.into() })
    }

    /// `cread cD,[cA+imm]`.
    pub fn cread(&mut self, d: CReg, addr: impl Into<CAddr>) -> &mut Self {
        self.instr(Instr::CRead { d, addr: addr.into() })
    }

    /// `cwrite [cA+imm],cS`.
    pub fn cwrite(&mut self, addr: impl Into<CAddr>, s: CReg) -> &mut Self {
        self.instr(Instr::CWrite { addr: addr.into(), s })
    }

    /// `halt`.
    pub fn halt(&mut self) -> &mut Self {
        self.instr(Instr::Halt)
    }

    /// `p.set rD,imm`.
    pub fn p_set(&mut self, d: PReg, imm: i64) -> &mut Self {
        self.instr(Instr::PSet { d, imm })
    }

    /// `p.pid rD`.
    pub fn p_pid(&mut self, d: PReg) -> &mut Self {
        self.instr(Instr::PPid { d })
    }

    /// `p.nact rD`.
    pub fn p_nact(&mut self, d: PReg) -> &mut Self {
        self.instr(Instr::PNact { d })
    }

    /// `p.bcast rD,cA`.
    pub fn p_bcast(&mut self, d: PReg, a: CReg) -> &mut Self {
        self.instr(Instr::PBcast { d, a })
    }

    /// `p.op OP rD,rA,rB|imm`.
    pub fn p_op(&mut self, op: Op, d: PReg, a: PReg, b: impl Into<POperand>) -> &mut Self {
        self.instr(Instr::POp { op, d, a, b: b.into() })
    }

    /// `p.sel rD,rC,rA,rB`.
    pub fn p_sel(&mut self, d: PReg, c: PReg, a: PReg, b: PReg) -> &mut Self {
        self.instr(Instr::PSel { d, c, a, b })
    }

    /// `p.lload rD,[rA+imm]`.
    pub fn p_lload(&mut self, d: PReg, addr: impl Into<PAddr>) -> &mut Self {
        self.instr(Instr::PLload { d, addr: addr.into() })
    }

    /// `p.lstore [rA+imm],rS`.
    pub fn p_lstore(&mut self, addr: impl Into<PAddr>, s: PReg) -> &mut Self {
        self.instr(Instr::PLstore { addr: addr.into(), s })
    }

    /// `p.read rD,[rA+imm] ?rP`.
    pub fn p_read(&mut self, d: PReg, addr: impl Into<PAddr>, pred: Option<PReg>) -> &mut Self {
        self.instr(Instr::PRead { d, addr: addr.into(), pred })
    }

    /// `p.write [rA+imm],rS ?rP`.
    pub fn p_write(&mut self, addr: impl Into<PAddr>, s: PReg, pred: Option<PReg>) -> &mut Self {
        self.instr(Instr::PWrite { addr: addr.into(), s, pred })
    }

    /// `p.fop OP rD,[rA+imm],rS ?rP`.
    pub fn p_fop(
        &mut self,
        op: FetchOp,
        d: PReg,
        addr: impl Into<PAddr>,
        s: PReg,
        pred: Option<PReg>,
    ) -> &mut Self {
        self.instr(Instr::PFop { op, d, addr: addr.into(), s, pred })
    }
}
