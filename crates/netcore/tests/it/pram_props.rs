//! The PRAM interpreter against a naive, independently written model of every variant on
//! random small programs; builder, printer and parser agree; the parser never panics.

use std::collections::BTreeMap;

use netcore::pram::{
    CAddr, COperand, CReg, Cost, Instr, Item, Limits, Op, PAddr, POperand, PReg, PramError,
    Program, ProgramBuilder, Variant, run,
};
use proptest::prelude::*;

/// Registers the random programs use (few, so that values are reused).
const REGS: u8 = 4;

fn config() -> ProptestConfig {
    ProptestConfig::with_cases(512)
}

/// The machine the random program runs on: variant, M, S_max, LM.
#[derive(Debug, Clone, Copy)]
struct Shape {
    variant: Variant,
    mem: u64,
    ppus: u32,
    lmem: u32,
}

fn shape() -> impl Strategy<Value = Shape> {
    // The exclusive and common variants are drawn more often: they have the conflict rules.
    let variant = prop_oneof![
        3 => prop::sample::select(Variant::ALL[..3].to_vec()),
        2 => prop::sample::select(Variant::ALL[3..].to_vec()),
    ];
    (variant, 1u64..8, 1u32..7, 0u32..3).prop_map(|(variant, mem, ppus, lmem)| Shape {
        variant,
        mem,
        ppus,
        lmem,
    })
}

fn instr(shape: Shape) -> impl Strategy<Value = Instr> {
    let creg = (0..REGS).prop_map(CReg);
    let preg = (0..REGS).prop_map(PReg);
    let imm = -4i64..10;
    let op = prop::sample::select(Op::ALL.to_vec());
    let cop =
        prop_oneof![creg.clone().prop_map(COperand::Reg), imm.clone().prop_map(COperand::Imm)];
    let pop =
        prop_oneof![preg.clone().prop_map(POperand::Reg), imm.clone().prop_map(POperand::Imm)];
    // Mostly in range, sometimes one cell outside on either side.
    let off = |max: u64| prop_oneof![8 => 0..=max as i64, 1 => Just(-1), 1 => Just(max as i64)];
    let caddr = (creg.clone(), off(shape.mem)).prop_map(|(base, off)| CAddr { base, off });
    let gaddr = (preg.clone(), off(shape.mem)).prop_map(|(base, off)| PAddr { base, off });
    let laddr =
        (preg.clone(), off(u64::from(shape.lmem))).prop_map(|(base, off)| PAddr { base, off });
    let pred = prop::option::of(preg.clone());
    // Fetch-ops only under a fetch-op variant, else reads (elsewhere a fetch-op makes the whole
    // program invalid; that static error has its own test).
    let fetch = match shape.variant {
        Variant::CrcwFetchOp(op) => Some(op),
        _ => None,
    };
    let active = prop_oneof![
        (0..=i64::from(shape.ppus)).prop_map(COperand::Imm),
        creg.clone().prop_map(COperand::Reg)
    ];
    let end = || "end".to_string();
    prop_oneof![
        1 => (creg.clone(), imm.clone()).prop_map(|(d, imm)| Instr::Set { d, imm }),
        1 => (op.clone(), creg.clone(), creg.clone(), cop)
            .prop_map(|(op, d, a, b)| Instr::Op { op, d, a, b }),
        1 => creg.clone().prop_map(move |a| Instr::Jz { a, label: end() }),
        1 => creg.clone().prop_map(move |a| Instr::Jnz { a, label: end() }),
        3 => active.prop_map(|n| Instr::Active { n }),
        1 => (creg.clone(), caddr.clone()).prop_map(|(d, addr)| Instr::CRead { d, addr }),
        1 => (caddr, creg.clone()).prop_map(|(addr, s)| Instr::CWrite { addr, s }),
        1 => (preg.clone(), imm).prop_map(|(d, imm)| Instr::PSet { d, imm }),
        2 => preg.clone().prop_map(|d| Instr::PPid { d }),
        // Masks keep values usable as addresses, so that steps with conflicts are common.
        4 => (preg.clone(), preg.clone(), 0..shape.mem as i64)
            .prop_map(|(d, a, m)| Instr::POp { op: Op::And, d, a, b: POperand::Imm(m) }),
        1 => preg.clone().prop_map(|d| Instr::PNact { d }),
        1 => (preg.clone(), creg).prop_map(|(d, a)| Instr::PBcast { d, a }),
        2 => (op, preg.clone(), preg.clone(), pop)
            .prop_map(|(op, d, a, b)| Instr::POp { op, d, a, b }),
        1 => (preg.clone(), preg.clone(), preg.clone(), preg.clone())
            .prop_map(|(d, c, a, b)| Instr::PSel { d, c, a, b }),
        1 => (preg.clone(), laddr.clone()).prop_map(|(d, addr)| Instr::PLload { d, addr }),
        1 => (laddr, preg.clone()).prop_map(|(addr, s)| Instr::PLstore { addr, s }),
        3 => (preg.clone(), gaddr.clone(), pred.clone())
            .prop_map(|(d, addr, pred)| Instr::PRead { d, addr, pred }),
        3 => (gaddr.clone(), preg.clone(), pred.clone())
            .prop_map(|(addr, s, pred)| Instr::PWrite { addr, s, pred }),
        3 => (preg.clone(), gaddr, preg, pred).prop_map(move |(d, addr, s, pred)| match fetch {
            Some(op) => Instr::PFop { op, d, addr, s, pred },
            None => Instr::PRead { d, addr, pred },
        }),
    ]
}

/// A random straight-line program (forward jumps to `end` only) ending in `halt`.
fn program() -> impl Strategy<Value = Program> {
    shape().prop_flat_map(|shape| {
        let body = prop::collection::vec(instr(shape), 0..30);
        (Just(shape), body, prop::option::of(0usize..30)).prop_map(|(shape, body, labelled)| {
            // Every PPU active and knowing its pid, then the random body.
            let ppus = i64::from(shape.ppus);
            let mut instrs = vec![
                Instr::Active { n: COperand::Imm(ppus) },
                Instr::PPid { d: PReg(0) },
                Instr::PPid { d: PReg(1) },
            ];
            instrs.extend(body);
            build(shape, &instrs, labelled)
        })
    })
}

/// Builds through the builder, one method per mnemonic.
fn build(shape: Shape, instrs: &[Instr], labelled: Option<usize>) -> Program {
    let mut b = ProgramBuilder::new(shape.variant, shape.mem, shape.ppus);
    b.lmem(shape.lmem);
    for (i, instr) in instrs.iter().enumerate() {
        if labelled == Some(i) {
            b.label("mid");
        }
        match instr.clone() {
            Instr::Set { d, imm } => b.set(d, imm),
            Instr::Op { op, d, a, b: x } => b.op(op, d, a, x),
            Instr::Jmp { label } => b.jmp(&label),
            Instr::Jz { a, label } => b.jz(a, &label),
            Instr::Jnz { a, label } => b.jnz(a, &label),
            Instr::Active { n } => b.active(n),
            Instr::CRead { d, addr } => b.cread(d, addr),
            Instr::CWrite { addr, s } => b.cwrite(addr, s),
            Instr::Halt => b.halt(),
            Instr::PSet { d, imm } => b.p_set(d, imm),
            Instr::PPid { d } => b.p_pid(d),
            Instr::PNact { d } => b.p_nact(d),
            Instr::PBcast { d, a } => b.p_bcast(d, a),
            Instr::POp { op, d, a, b: x } => b.p_op(op, d, a, x),
            Instr::PSel { d, c, a, b: x } => b.p_sel(d, c, a, x),
            Instr::PLload { d, addr } => b.p_lload(d, addr),
            Instr::PLstore { addr, s } => b.p_lstore(addr, s),
            Instr::PRead { d, addr, pred } => b.p_read(d, addr, pred),
            Instr::PWrite { addr, s, pred } => b.p_write(addr, s, pred),
            Instr::PFop { op, d, addr, s, pred } => b.p_fop(op, d, addr, s, pred),
        };
    }
    b.label("end").halt();
    b.build()
}

// ---------------------------------------------------------------------------------------------
// The naive model: one struct per PPU, requests grouped by address in a BTreeMap, every rule
// written out directly from the paper's table. Slow and plain on purpose.

#[derive(Clone)]
struct Ppu {
    r: [i64; 16],
    l: Vec<i64>,
}

type Outcome = (Vec<i64>, [i64; 16], Vec<Vec<i64>>, Cost);

fn naive(program: &Program, input: &[i64]) -> Result<Outcome, PramError> {
    program.validate()?;
    // Printed and built programs put code item k on line 5 + k.
    let mut code = Vec::new();
    let mut labels = BTreeMap::new();
    for (k, item) in program.code().iter().enumerate() {
        match item {
            Item::Label(name) => {
                labels.insert(name.clone(), code.len());
            }
            Item::Instr(instr) => code.push((instr.clone(), 5 + k as u32)),
        }
    }
    let variant = program.variant();
    let mem_size = program.mem();
    let mut mem = vec![0i64; mem_size as usize];
    mem[..input.len()].copy_from_slice(input);
    let mut c = [0i64; 16];
    let mut ppus =
        vec![Ppu { r: [0; 16], l: vec![0; program.lmem() as usize] }; program.ppus() as usize];
    let mut nact = 0usize;
    let mut cost = Cost::default();
    let mut pc = 0usize;
    loop {
        let (instr, line) = code[pc].clone();
        let pc32 = pc as u32;
        cost.t += 1;
        let parallel = instr.mnemonic().starts_with("p.");
        if parallel {
            cost.w += nact as u64;
            cost.s = cost.s.max(nact as u64);
        }
        let global = matches!(
            instr,
            Instr::CRead { .. }
                | Instr::CWrite { .. }
                | Instr::PRead { .. }
                | Instr::PWrite { .. }
                | Instr::PFop { .. }
        );
        if global {
            cost.g += 1;
        }
        let g_step = cost.g;
        pc += 1;
        let cval = |c: &[i64; 16], x: COperand| match x {
            COperand::Reg(r) => c[r.0 as usize],
            COperand::Imm(v) => v,
        };
        let pval = |p: &Ppu, x: POperand| match x {
            POperand::Reg(r) => p.r[r.0 as usize],
            POperand::Imm(v) => v,
        };
        let addr_ok = |a: i128| a >= 0 && a < i128::from(mem_size);
        match instr {
            Instr::Halt => break,
            Instr::Set { d, imm } => c[d.0 as usize] = imm,
            Instr::Op { op, d, a, b } => {
                let y = cval(&c, b);
                if matches!(op, Op::Div | Op::Mod) && y == 0 {
                    return Err(PramError::DivisionByZero { pc: pc32, line, pid: None });
                }
                c[d.0 as usize] = op.apply(c[a.0 as usize], y);
            }
            Instr::Jmp { label } => pc = labels[&label],
            Instr::Jz { a, label } => {
                if c[a.0 as usize] == 0 {
                    pc = labels[&label];
                }
            }
            Instr::Jnz { a, label } => {
                if c[a.0 as usize] != 0 {
                    pc = labels[&label];
                }
            }
            Instr::Active { n } => {
                let requested = cval(&c, n);
                if requested < 0 || requested > i64::from(program.ppus()) {
                    return Err(PramError::TooManyProcessors {
                        pc: pc32,
                        line,
                        requested,
                        max: program.ppus(),
                    });
                }
                nact = requested as usize;
            }
            Instr::CRead { d, addr } | Instr::CWrite { addr, s: d } => {
                let a = i128::from(c[addr.base.0 as usize]) + i128::from(addr.off);
                if !addr_ok(a) {
                    return Err(PramError::AddressOutOfRange {
                        g_step,
                        pc: pc32,
                        line,
                        pid: None,
                        addr: a,
                        mem: mem_size,
                    });
                }
                if matches!(instr, Instr::CRead { .. }) {
                    c[d.0 as usize] = mem[a as usize];
                } else {
                    mem[a as usize] = c[d.0 as usize];
                }
            }
            Instr::PSet { d, imm } => ppus[..nact].iter_mut().for_each(|p| p.r[d.0 as usize] = imm),
            Instr::PPid { d } => {
                for (pid, p) in ppus[..nact].iter_mut().enumerate() {
                    p.r[d.0 as usize] = pid as i64;
                }
            }
            Instr::PNact { d } => {
                ppus[..nact].iter_mut().for_each(|p| p.r[d.0 as usize] = nact as i64)
            }
            Instr::PBcast { d, a } => {
                let v = c[a.0 as usize];
                ppus[..nact].iter_mut().for_each(|p| p.r[d.0 as usize] = v);
            }
            Instr::POp { op, d, a, b } => {
                for (pid, p) in ppus[..nact].iter().enumerate() {
                    if matches!(op, Op::Div | Op::Mod) && pval(p, b) == 0 {
                        return Err(PramError::DivisionByZero {
                            pc: pc32,
                            line,
                            pid: Some(pid as u32),
                        });
                    }
                }
                for p in &mut ppus[..nact] {
                    p.r[d.0 as usize] = op.apply(p.r[a.0 as usize], pval(p, b));
                }
            }
            Instr::PSel { d, c: cond, a, b } => {
                for p in &mut ppus[..nact] {
                    let v = if p.r[cond.0 as usize] != 0 {
                        p.r[a.0 as usize]
                    } else {
                        p.r[b.0 as usize]
                    };
                    p.r[d.0 as usize] = v;
                }
            }
            Instr::PLload { addr, .. } | Instr::PLstore { addr, .. } => {
                let lmem = program.lmem();
                for (pid, p) in ppus[..nact].iter().enumerate() {
                    let a = i128::from(p.r[addr.base.0 as usize]) + i128::from(addr.off);
                    if a < 0 || a >= i128::from(lmem) {
                        return Err(PramError::LocalAddressOutOfRange {
                            pc: pc32,
                            line,
                            pid: pid as u32,
                            addr: a,
                            lmem,
                        });
                    }
                }
                for p in &mut ppus[..nact] {
                    let a = (p.r[addr.base.0 as usize] + addr.off) as usize;
                    match instr {
                        Instr::PLload { d, .. } => p.r[d.0 as usize] = p.l[a],
                        Instr::PLstore { s, .. } => p.l[a] = p.r[s.0 as usize],
                        _ => unreachable!(),
                    }
                }
            }
            Instr::PRead { d, addr, pred }
            | Instr::PWrite { addr, s: d, pred }
            | Instr::PFop { addr, s: d, pred, .. } => {
                // Requests of the participating PPUs: (pid, addr, value).
                let mut requests = Vec::new();
                for (pid, p) in ppus[..nact].iter().enumerate() {
                    if pred.is_some_and(|q| p.r[q.0 as usize] == 0) {
                        continue;
                    }
                    let a = i128::from(p.r[addr.base.0 as usize]) + i128::from(addr.off);
                    if !addr_ok(a) {
                        return Err(PramError::AddressOutOfRange {
                            g_step,
                            pc: pc32,
                            line,
                            pid: Some(pid as u32),
                            addr: a,
                            mem: mem_size,
                        });
                    }
                    requests.push((pid, a as u64, p.r[d.0 as usize]));
                }
                let mut by_addr: BTreeMap<u64, Vec<(usize, i64)>> = BTreeMap::new();
                for &(pid, a, v) in &requests {
                    by_addr.entry(a).or_default().push((pid, v));
                }
                let conflict = |group: &[(usize, i64)]| [group[0].0 as u32, group[1].0 as u32];
                match instr {
                    Instr::PRead { d, .. } => {
                        let shared = by_addr.iter().find(|(_, g)| g.len() > 1);
                        if let (Variant::Erew, Some((&a, group))) = (variant, shared) {
                            return Err(PramError::ExclusiveReadConflict {
                                g_step,
                                pc: pc32,
                                line,
                                addr: a,
                                pids: conflict(group),
                            });
                        }
                        for &(pid, a, _) in &requests {
                            ppus[pid].r[d.0 as usize] = mem[a as usize];
                        }
                    }
                    Instr::PWrite { .. } => {
                        for (&a, group) in &by_addr {
                            if group.len() > 1 && matches!(variant, Variant::Erew | Variant::Crew) {
                                return Err(PramError::ExclusiveWriteConflict {
                                    g_step,
                                    pc: pc32,
                                    line,
                                    addr: a,
                                    pids: conflict(group),
                                });
                            }
                            let differs = group.iter().find(|(_, v)| *v != group[0].1);
                            if let (Variant::CrcwCommon, Some(&(pid, v))) = (variant, differs) {
                                return Err(PramError::CommonWriteMismatch {
                                    g_step,
                                    pc: pc32,
                                    line,
                                    addr: a,
                                    pids: [group[0].0 as u32, pid as u32],
                                    values: [group[0].1, v],
                                });
                            }
                        }
                        for (&a, group) in &by_addr {
                            mem[a as usize] = match variant {
                                Variant::CrcwArbitrary => group[group.len() - 1].1,
                                Variant::CrcwFetchOp(op) => group[1..]
                                    .iter()
                                    .fold(group[0].1, |acc, &(_, v)| op.apply(acc, v)),
                                _ => group[0].1,
                            };
                        }
                    }
                    Instr::PFop { op, d: dst, .. } => {
                        for (&a, group) in &by_addr {
                            let mut acc = mem[a as usize];
                            for &(pid, v) in group {
                                ppus[pid].r[dst.0 as usize] = acc;
                                acc = op.apply(acc, v);
                            }
                            mem[a as usize] = acc;
                        }
                    }
                    _ => unreachable!(),
                }
            }
        }
    }
    let regs = (0..16).map(|r| ppus.iter().map(|p| p.r[r]).collect()).collect();
    Ok((mem, c, regs, cost))
}

proptest! {
    #![proptest_config(config())]

    /// The interpreter equals the naive model: same memory, registers and costs, or the same
    /// error (kind, step, address, pids).
    #[test]
    fn interpreter_equals_naive_model(
        program in program(),
        input in prop::collection::vec(-5i64..20, 0..8),
    ) {
        let input = &input[..input.len().min(program.mem() as usize)];
        let fast = run(&program, input, &Limits::default())
            .map(|done| (done.memory, done.cpu_regs, done.ppu_regs, done.cost));
        prop_assert_eq!(fast, naive(&program, input), "{}", program);
    }

    /// Built programs print as assembly that parses back to an equal program.
    #[test]
    fn print_then_parse(program in program()) {
        let valid = program.validate().map(|()| program.clone());
        prop_assert_eq!(Program::parse(&program.to_string()), valid);
    }

    /// Arbitrary text never makes the parser panic.
    #[test]
    fn parser_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = Program::parse(&String::from_utf8_lossy(&bytes));
    }

    /// Nor does text made of the assembly's own tokens.
    #[test]
    fn parser_never_panics_on_tokens(tokens in prop::collection::vec(prop::sample::select(vec![
        ".variant", ".mem", ".ppus", ".lmem", "erew", "crcw-fetch-", "add", "p.op", "p.fop",
        "p.read", "op", "set", "jmp", "halt", "r", "c", "r16", "c99999", "[", "]", "+", "-",
        ",", "?", ":", ";", "\n", " ", "0", "-9223372036854775808", "99999999999999999999",
        "4294967296", "x:",
    ]), 0..40)) {
        let _ = Program::parse(&tokens.concat());
    }
}
