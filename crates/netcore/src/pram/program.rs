//! A PRAM program: the machine's header (variant and sizes) and its code, built by
//! [`crate::pram::ProgramBuilder`] or parsed from assembly by [`Program::parse`].

use std::collections::BTreeMap;
use std::fmt;

use crate::pram::error::PramError;
use crate::pram::isa::{Instr, REGISTERS, Variant};

/// The largest global memory, `M <= 2^32` cells.
pub const MAX_MEM: u64 = 1 << 32;
/// The largest number of PPUs, `S_max <= 2^24`.
pub const MAX_PPUS: u32 = 1 << 24;
/// The largest local memory per PPU, `LM <= 2^16` cells.
pub const MAX_LMEM: u32 = 1 << 16;
/// Line of the first code item in printed assembly: four header lines come first.
pub(crate) const FIRST_CODE_LINE: u32 = 5;

/// One line of code: a label definition or an instruction.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Item {
    /// `name:`, naming the next instruction.
    Label(String),
    /// An instruction.
    Instr(Instr),
}

/// A program for the SIMD PRAM (paper §2.1): header and code, with the source line of each
/// code item (the builder numbers lines as [`Program`]'s `Display` prints them, so printing
/// and parsing gives an equal program).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Program {
    pub(crate) variant: Variant,
    pub(crate) mem: u64,
    pub(crate) ppus: u32,
    pub(crate) lmem: u32,
    pub(crate) code: Vec<Item>,
    pub(crate) lines: Vec<u32>,
}

/// A validated program in the form the interpreter runs: instructions, their source lines and
/// each jump's target program counter.
#[derive(Debug, Clone)]
pub(crate) struct Compiled<'p> {
    pub(crate) instrs: Vec<&'p Instr>,
    pub(crate) lines: Vec<u32>,
    /// `targets[pc]`: where the jump at `pc` goes (0 for other instructions).
    pub(crate) targets: Vec<u32>,
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl Program {
    /// The memory variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// `M`, the number of global memory cells.
    pub fn mem(&self) -> u64 {
        self.mem
    }

    /// `S_max`, the number of PPUs.
    pub fn ppus(&self) -> u32 {
        self.ppus
    }

    /// `LM`, the number of local memory cells per PPU.
    pub fn lmem(&self) -> u32 {
        self.lmem
    }

    /// The code: labels and instructions in order.
    pub fn code(&self) -> &[Item] {
        &self.code
    }

    /// The instructions, without labels; the program counter indexes this.
    pub fn instrs(&self) -> impl Iterator<Item = &Instr> {
        self.code.iter().filter_map(|item| match item {
            Item::Instr(instr) => Some(instr),
            Item::Label(_) => None,
        })
    }

    /// The same program under another variant (e.g. to run an EREW program on a CRCW machine).
    pub fn with_variant(&self, variant: Variant) -> Program {
        Program { variant, ..self.clone() }
    }

    /// Checks every static rule: sizes, register numbers, labels, and that `p.fop` uses the
    /// variant's operator.
    pub fn validate(&self) -> Result<(), PramError> {
        self.compile().map(|_| ())
    }

    pub(crate) fn compile(&self) -> Result<Compiled<'_>, PramError> {
        check_size("mem", "1 <= mem <= 2^32", self.mem, 1, MAX_MEM)?;
        check_size("ppus", "1 <= ppus <= 2^24", u64::from(self.ppus), 1, u64::from(MAX_PPUS))?;
        check_size("lmem", "lmem <= 2^16", u64::from(self.lmem), 0, u64::from(MAX_LMEM))?;
        let mut labels = BTreeMap::new();
        let mut compiled = Compiled { instrs: Vec::new(), lines: Vec::new(), targets: Vec::new() };
        for (item, &line) in self.code.iter().zip(&self.lines) {
            match item {
                Item::Label(label) => {
                    if !is_identifier(label) {
                        return Err(PramError::InvalidLabel { line, label: label.clone() });
                    }
                    let pc = compiled.instrs.len() as u32;
                    if labels.insert(label.as_str(), pc).is_some() {
                        return Err(PramError::DuplicateLabel { line, label: label.clone() });
                    }
                }
                Item::Instr(instr) => {
                    self.check_instr(instr, line)?;
                    compiled.instrs.push(instr);
                    compiled.lines.push(line);
                }
            }
        }
        for (instr, &line) in compiled.instrs.iter().zip(&compiled.lines) {
            let target = match instr.label() {
                Some(label) => *labels
                    .get(label)
                    .ok_or_else(|| PramError::UnknownLabel { line, label: label.to_string() })?,
                None => 0,
            };
            compiled.targets.push(target);
        }
        Ok(compiled)
    }

    fn check_instr(&self, instr: &Instr, line: u32) -> Result<(), PramError> {
        let out_of_range = |reg: String| PramError::RegisterOutOfRange { line, reg };
        if let Some(reg) = instr.cpu_regs().into_iter().find(|reg| reg.0 >= REGISTERS) {
            return Err(out_of_range(reg.to_string()));
        }
        if let Some(reg) = instr.ppu_regs().into_iter().find(|reg| reg.0 >= REGISTERS) {
            return Err(out_of_range(reg.to_string()));
        }
        if let Some(label) = instr.label().filter(|label| !is_identifier(label)) {
            return Err(PramError::InvalidLabel { line, label: label.to_string() });
        }
        if let Instr::PFop { op, .. } = instr
            && self.variant != Variant::CrcwFetchOp(*op)
        {
            return Err(PramError::FetchOpNotAllowed { line, variant: self.variant, op: *op });
        }
        Ok(())
    }
}

fn check_size(
    field: &'static str,
    rule: &'static str,
    value: u64,
    min: u64,
    max: u64,
) -> Result<(), PramError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(PramError::InvalidConfig { field, rule, got: value.to_string() })
    }
}

/// Prints parseable assembly: the four headers, then one label or instruction per line.
impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, ".variant {}", self.variant)?;
        writeln!(f, ".mem {}", self.mem)?;
        writeln!(f, ".ppus {}", self.ppus)?;
        writeln!(f, ".lmem {}", self.lmem)?;
        for item in &self.code {
            match item {
                Item::Label(label) => writeln!(f, "{label}:")?,
                Item::Instr(instr) => writeln!(f, "    {instr}")?,
            }
        }
        Ok(())
    }
}
