//! The assembly parser (paper §2.1 ISA): headers `.variant`, `.mem`, `.ppus`, `.lmem`; `label:`;
//! `;` comments; one instruction per line. Errors name the 1-based source line.
#![warn(clippy::cast_possible_truncation)]

use crate::pram::error::PramError;
use crate::pram::isa::{CAddr, COperand, CReg, FetchOp, Instr, Op, PAddr, POperand, PReg, Variant};
use crate::pram::program::{Item, Program};

type Res<T> = Result<T, String>;

fn register(text: &str, prefix: char, kind: &str) -> Res<u8> {
    let digits = text
        .strip_prefix(prefix)
        .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| format!("expected a {kind} register {prefix}N, got `{text}`"))?;
    digits.parse().map_err(|_| format!("register number too large in `{text}`"))
}

fn creg(text: &str) -> Res<CReg> {
    register(text, 'c', "cpu").map(CReg)
}

fn preg(text: &str) -> Res<PReg> {
    register(text, 'r', "ppu").map(PReg)
}

fn imm(text: &str) -> Res<i64> {
    text.parse().map_err(|_| format!("expected an integer in i64, got `{text}`"))
}

fn coperand(text: &str) -> Res<COperand> {
    if text.starts_with('c') { creg(text).map(COperand::Reg) } else { imm(text).map(COperand::Imm) }
}

fn poperand(text: &str) -> Res<POperand> {
    if text.starts_with('r') { preg(text).map(POperand::Reg) } else { imm(text).map(POperand::Imm) }
}

/// `[base]`, `[base+imm]` or `[base-imm]`, split into the base's text and the offset.
fn address(text: &str) -> Res<(&str, i64)> {
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| format!("expected an address [reg+imm], got `{text}`"))?
        .trim();
    let Some(at) = inner.find(['+', '-']) else { return Ok((inner, 0)) };
    let (base, off) = inner.split_at(at);
    let magnitude: i128 = off[1..]
        .trim()
        .parse()
        .ok()
        .filter(|m: &i128| *m >= 0)
        .ok_or_else(|| format!("expected an offset after `{}` in `{text}`", &off[..1]))?;
    let off = if off.starts_with('-') { -magnitude } else { magnitude };
    let off = i64::try_from(off).map_err(|_| format!("offset out of i64 range in `{text}`"))?;
    Ok((base.trim(), off))
}

fn caddr(text: &str) -> Res<CAddr> {
    let (base, off) = address(text)?;
    Ok(creg(base)?.at(off))
}

fn paddr(text: &str) -> Res<PAddr> {
    let (base, off) = address(text)?;
    Ok(preg(base)?.at(off))
}

fn alu(text: &str) -> Res<Op> {
    Op::from_name(text).ok_or_else(|| format!("unknown operation `{text}`"))
}

fn label(text: &str) -> Res<String> {
    if text.is_empty() { Err("expected a label".to_string()) } else { Ok(text.to_string()) }
}

/// The operands after the mnemonic (and after the operation, for `op`, `p.op`, `p.fop`).
struct Operands<'a> {
    list: Vec<&'a str>,
    pred: Option<PReg>,
}

impl<'a> Operands<'a> {
    fn split(text: &'a str) -> Res<Self> {
        let (list, pred) = match text.split_once('?') {
            Some((list, pred)) => (list, Some(preg(pred.trim())?)),
            None => (text, None),
        };
        let list = list.trim();
        let list =
            if list.is_empty() { Vec::new() } else { list.split(',').map(str::trim).collect() };
        Ok(Self { list, pred })
    }

    fn exactly<const N: usize>(&self) -> Res<[&'a str; N]> {
        <[&str; N]>::try_from(self.list.as_slice())
            .map_err(|_| format!("expected {N} operands, got {}", self.list.len()))
    }

    fn no_pred(&self, mnemonic: &str) -> Res<()> {
        match self.pred {
            Some(_) => Err(format!("{mnemonic} takes no predicate")),
            None => Ok(()),
        }
    }
}

/// Splits off the first word: `op add c0,c1,c2` gives `op` and `add c0,c1,c2`.
fn word(text: &str) -> (&str, &str) {
    let text = text.trim();
    text.split_once(char::is_whitespace).map_or((text, ""), |(w, rest)| (w, rest.trim()))
}

enum Parsed {
    Instr(Instr),
    UnknownMnemonic(String),
}

/// Every mnemonic of the ISA.
const MNEMONICS: [&str; 20] = [
    "set", "op", "jmp", "jz", "jnz", "active", "cread", "cwrite", "halt", "p.set", "p.pid",
    "p.nact", "p.bcast", "p.op", "p.sel", "p.lload", "p.lstore", "p.read", "p.write", "p.fop",
];

fn instruction(text: &str) -> Res<Parsed> {
    let (mnemonic, rest) = word(text);
    if !MNEMONICS.contains(&mnemonic) {
        return Ok(Parsed::UnknownMnemonic(mnemonic.to_string()));
    }
    let (alu_name, after_op) = word(rest);
    let takes_op = matches!(mnemonic, "op" | "p.op" | "p.fop");
    let ops = Operands::split(if takes_op { after_op } else { rest })?;
    if !matches!(mnemonic, "p.read" | "p.write" | "p.fop") {
        ops.no_pred(mnemonic)?;
    }
    let instr = match mnemonic {
        "set" => {
            let [d, v] = ops.exactly()?;
            Instr::Set { d: creg(d)?, imm: imm(v)? }
        }
        "op" => {
            let [d, a, b] = ops.exactly()?;
            Instr::Op { op: alu(alu_name)?, d: creg(d)?, a: creg(a)?, b: coperand(b)? }
        }
        "jmp" => {
            let [l] = ops.exactly()?;
            Instr::Jmp { label: label(l)? }
        }
        "jz" | "jnz" => {
            let [a, l] = ops.exactly()?;
            let (a, label) = (creg(a)?, label(l)?);
            if mnemonic == "jz" { Instr::Jz { a, label } } else { Instr::Jnz { a, label } }
        }
        "active" => {
            let [n] = ops.exactly()?;
            Instr::Active { n: coperand(n)? }
        }
        "cread" => {
            let [d, addr] = ops.exactly()?;
            Instr::CRead { d: creg(d)?, addr: caddr(addr)? }
        }
        "cwrite" => {
            let [addr, s] = ops.exactly()?;
            Instr::CWrite { addr: caddr(addr)?, s: creg(s)? }
        }
        "halt" => {
            ops.exactly::<0>()?;
            Instr::Halt
        }
        "p.set" => {
            let [d, v] = ops.exactly()?;
            Instr::PSet { d: preg(d)?, imm: imm(v)? }
        }
        "p.pid" | "p.nact" => {
            let [d] = ops.exactly()?;
            let d = preg(d)?;
            if mnemonic == "p.pid" { Instr::PPid { d } } else { Instr::PNact { d } }
        }
        "p.bcast" => {
            let [d, a] = ops.exactly()?;
            Instr::PBcast { d: preg(d)?, a: creg(a)? }
        }
        "p.op" => {
            let [d, a, b] = ops.exactly()?;
            Instr::POp { op: alu(alu_name)?, d: preg(d)?, a: preg(a)?, b: poperand(b)? }
        }
        "p.sel" => {
            let [d, cond, a, b] = ops.exactly()?;
            Instr::PSel { d: preg(d)?, c: preg(cond)?, a: preg(a)?, b: preg(b)? }
        }
        "p.lload" => {
            let [d, addr] = ops.exactly()?;
            Instr::PLload { d: preg(d)?, addr: paddr(addr)? }
        }
        "p.lstore" => {
            let [addr, s] = ops.exactly()?;
            Instr::PLstore { addr: paddr(addr)?, s: preg(s)? }
        }
        "p.read" => {
            let [d, addr] = ops.exactly()?;
            Instr::PRead { d: preg(d)?, addr: paddr(addr)?, pred: ops.pred }
        }
        "p.write" => {
            let [addr, s] = ops.exactly()?;
            Instr::PWrite { addr: paddr(addr)?, s: preg(s)?, pred: ops.pred }
        }
        "p.fop" => {
            let op = FetchOp::from_name(alu_name)
                .ok_or_else(|| format!("unknown fetch operation `{alu_name}`"))?;
            let [d, addr, s] = ops.exactly()?;
            Instr::PFop { op, d: preg(d)?, addr: paddr(addr)?, s: preg(s)?, pred: ops.pred }
        }
        other => return Ok(Parsed::UnknownMnemonic(other.to_string())),
    };
    Ok(Parsed::Instr(instr))
}

/// The four headers, each set at most once.
#[derive(Default)]
struct Headers {
    variant: Option<Variant>,
    mem: Option<u64>,
    ppus: Option<u32>,
    lmem: Option<u32>,
}

impl Headers {
    fn set(&mut self, text: &str) -> Res<()> {
        let (name, value) = word(text);
        fn number(value: &str) -> Res<u64> {
            value.parse().map_err(|_| format!("expected a non-negative integer, got `{value}`"))
        }
        fn small(value: &str) -> Res<u32> {
            u32::try_from(number(value)?).map_err(|_| format!("`{value}` is too large"))
        }
        fn once<T>(slot: &mut Option<T>, name: &str, value: T) -> Res<()> {
            match slot.replace(value) {
                Some(_) => Err(format!("header .{name} given twice")),
                None => Ok(()),
            }
        }
        match name {
            ".variant" => {
                let variant =
                    Variant::parse(value).ok_or_else(|| format!("unknown variant `{value}`"))?;
                once(&mut self.variant, "variant", variant)
            }
            ".mem" => once(&mut self.mem, "mem", number(value)?),
            ".ppus" => once(&mut self.ppus, "ppus", small(value)?),
            ".lmem" => once(&mut self.lmem, "lmem", small(value)?),
            other => Err(format!("unknown header `{other}`")),
        }
    }
}

impl Program {
    /// Parses assembly and validates the program.
    ///
    /// ```
    /// use netcore::pram::Program;
    ///
    /// let text = ".variant crew\n.mem 4\n.ppus 2\n\
    ///             start: set c0,1 ; a comment\n jnz c0,end\nend: halt\n";
    /// let program = Program::parse(text)?;
    /// assert_eq!(program.instrs().count(), 3);
    /// assert_eq!(Program::parse(&program.to_string())?.to_string(), program.to_string());
    /// # Ok::<(), netcore::pram::PramError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The first problem found, naming its line: [`PramError::Parse`],
    /// [`PramError::UnknownMnemonic`], [`PramError::MissingHeader`],
    /// [`PramError::UnknownLabel`], [`PramError::DuplicateLabel`],
    /// [`PramError::InvalidLabel`], [`PramError::RegisterOutOfRange`],
    /// [`PramError::FetchOpNotAllowed`]; then any error of [`Program::validate`].
    pub fn parse(text: &str) -> Result<Program, PramError> {
        let mut headers = Headers::default();
        let mut code = Vec::new();
        let mut lines = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let line = u32::try_from(index + 1).unwrap_or(u32::MAX);
            let fail = |msg: String| PramError::Parse { line, msg };
            let mut rest = raw.split(';').next().unwrap_or_default().trim();
            if rest.starts_with('.') {
                headers.set(rest).map_err(fail)?;
                continue;
            }
            if let Some((name, after)) = rest.split_once(':') {
                code.push(Item::Label(name.trim().to_string()));
                lines.push(line);
                rest = after.trim();
            }
            if rest.is_empty() {
                continue;
            }
            match instruction(rest).map_err(fail)? {
                Parsed::Instr(instr) => {
                    code.push(Item::Instr(instr));
                    lines.push(line);
                }
                Parsed::UnknownMnemonic(mnemonic) => {
                    return Err(PramError::UnknownMnemonic { line, mnemonic });
                }
            }
        }
        let missing = |header| PramError::MissingHeader { header };
        let program = Program {
            variant: headers.variant.ok_or_else(|| missing("variant"))?,
            mem: headers.mem.ok_or_else(|| missing("mem"))?,
            ppus: headers.ppus.ok_or_else(|| missing("ppus"))?,
            lmem: headers.lmem.unwrap_or(0),
            code,
            lines,
        };
        program.validate()?;
        Ok(program)
    }
}
