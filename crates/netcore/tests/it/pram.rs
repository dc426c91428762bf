//! The PRAM core: the paper's worked example, the library against its plain-Rust references
//! (fixtures, sizes, variants), the back-end contract, and bad input as typed errors.

use std::path::Path;

use netcore::fault::{Classify, Fault};
use netcore::pram::library::{Algorithm, Instance};
use netcore::pram::{
    Access, AccessKind, ArrayMemory, CPU_PID, CollectTrace, GlobalMemory, Limits, NoTrace,
    PramError, Program, Variant, run, run_with,
};
use netcore::study::{ConfigFile, Model};

/// The seed of the data of every `fixtures/pram/*.pasm` (size 8).
const FIXTURE_SEED: u64 = 1;
const FIXTURE_SIZE: u32 = 8;

/// The paper's prefix-sum example (`.variant erew`, `.mem 8`, `.ppus 8`, input 1..8).
///
/// Hand derivation: 3 setup instructions (`set`, `set`, `active`); the loop body has 12
/// instructions (9 parallel, then `op shl`, `op lt`, `jnz`) and runs for c0 = 1, 2, 4 (after
/// the third pass c0 = 8 is not < 8), so T = 3 + 3 * 12 + 1 (halt) = 40. Every parallel
/// instruction runs with nact = 8: S = 8 and W = 3 * 9 * 8 = 216. Each pass has three global
/// instructions (two `p.read`, one `p.write`): G = 9. After pass 1 the memory holds the sums of
/// windows of 2, after pass 2 of 4, after pass 3 the prefix sums 1, 3, 6, 10, 15, 21, 28, 36.
#[test]
fn prefix_sums_example() {
    let prefix = Algorithm::PrefixSums.instance(8, 0).unwrap();
    let done = run(&prefix.program, &prefix.input, &Limits::default()).unwrap();
    assert_eq!(done.memory, vec![1, 3, 6, 10, 15, 21, 28, 36]);
    assert_eq!((done.cost.t, done.cost.s, done.cost.g, done.cost.w), (40, 8, 9, 216));
    insta::assert_yaml_snapshot!(serde_json::json!({
        "program": prefix.program.to_string(),
        "cost": done.cost,
        "memory": done.memory,
    }));
    assert_eq!(Program::parse(&prefix.program.to_string()).unwrap(), prefix.program);
}

/// The paper's example as the workspace proposal writes it (labels on the line of their
/// instruction, free spacing, comments) parses to the generator's code.
#[test]
fn prefix_sums_example_text() {
    let text = "; prefix sums, the paper's example
.variant erew
.mem 8
.ppus 8
      set c0,1
      set c1,8
      active 8
loop: p.pid r0
      p.bcast r1,c0
      p.op le r2,r1,r0
      p.op sub r3,r0,r1
      p.set r5,0
      p.read r4,[r0]
      p.read r5,[r3] ?r2   ; only PPUs with pid >= c0
      p.op add r4,r4,r5
      p.write [r0],r4
      op shl c0,c0,1
      op lt c2,c0,c1
      jnz c2,loop
      halt
";
    let parsed = Program::parse(text).unwrap();
    let generated = Algorithm::PrefixSums.instance(8, 0).unwrap().program;
    assert_eq!(parsed.code(), generated.code());
    assert_eq!(parsed.to_string(), generated.to_string());
}

/// The step limit bounds T, `halt` included: the example (T = 40) runs with a limit of 40;
/// with 39 it stops before its `halt`, which is at pc 15.
#[test]
fn step_limit_is_exact() {
    let prefix = Algorithm::PrefixSums.instance(8, 0).unwrap();
    let limits = |max_steps| Limits { max_steps, ..Limits::default() };
    assert_eq!(run(&prefix.program, &prefix.input, &limits(40)).unwrap().cost.t, 40);
    let err = run(&prefix.program, &prefix.input, &limits(39)).unwrap_err();
    assert_eq!(err, PramError::StepLimit { limit: 39, pc: 15 });
}

/// The work limit bounds `T + W` before each instruction: the example (T = 40, W = 216, 256
/// units) runs with a limit of 256; with 255 it stops before its `halt` (pc 15, after 39
/// instructions and 216 PPU-instructions).
#[test]
fn work_limit_stops_before_the_next_instruction() {
    let prefix = Algorithm::PrefixSums.instance(8, 0).unwrap();
    let limits = |max_work| Limits { max_work, ..Limits::default() };
    let done = run(&prefix.program, &prefix.input, &limits(256)).unwrap();
    assert_eq!((done.cost.t, done.cost.w), (40, 216));
    let err = run(&prefix.program, &prefix.input, &limits(255)).unwrap_err();
    assert_eq!(err, PramError::WorkLimit { limit: 255, t: 39, pc: 15 });
}

/// Runs an instance (under `variant`) and returns the output region.
fn output(instance: &Instance, variant: Variant) -> Result<Vec<i64>, PramError> {
    let program = instance.program.with_variant(variant);
    let done = run(&program, &instance.input, &Limits::default())?;
    Ok(done.memory[instance.output.clone()].to_vec())
}

/// Every `fixtures/pram/<name>.pasm` is the printed generator output at size 8; parsed and run
/// on the generator's input it gives the plain-Rust result. Costs are snapshotted.
///
/// Hand derivations of the snapshotted costs (n = 8, `k = log2 n = 3`; prefix-sums is derived
/// at `prefix_sums_example`). T counts executed instructions, `halt` included; S is the largest
/// `nact` of an executed `p.` instruction; G counts `cread`, `cwrite`, `p.read`, `p.write` and
/// `p.fop`; W sums `nact` over executed `p.` instructions (predicated PPUs count). They live
/// here, not atop the `.pasm` files: a comment line before the code shifts the source lines
/// `Program::parse` records, and the parsed program would no longer equal the generator's.
///
/// - permutation-read, permutation-write (EREW, `.mem 24`: data 0..8, permutation 8..16, result
///   16..24): `active 8`, 4 parallel (`p.pid`, two `p.read`, a `p.write`), `halt`: T = 6,
///   S = 8, G = 3, W = 4 * 8 = 32. Read does `g[16+i] := g[g[8+i]]`, write `g[16+g[8+i]] := g[i]`.
/// - broadcast-concurrent (CREW): `active 8`, 4 parallel (`p.pid`, `p.set`, a `p.read` of `g[0]`
///   by all 8 PPUs, a `p.write` to `g[pid]`), `halt`: T = 6, S = 8, G = 2, W = 32.
/// - hot-spot-read (CREW, `.mem 9`): the same with a `p.op add` (`g[0] + pid`, written to
///   `g[pid+1]`) before the write: 5 parallel, T = 7, S = 8, G = 2, W = 5 * 8 = 40.
/// - fetch-add-counter (CRCW fetch-add, `.mem 9`): `active 8`, 5 parallel (`p.pid`, `p.read`,
///   `p.set`, one `p.fop add` on `g[0]`, `p.write`), `halt`: T = 7, S = 8, G = 3, W = 40.
/// - tree-reduction (EREW): 2 `set`; the round has 15 instructions (`op shl`, `op div`,
///   `active`, 9 parallel of which 2 `p.read` and 1 `p.write`, `op shl`, `op lt`, `jnz`) and runs
///   for c0 = 1, 2, 4 with nact = n / (2 * c0) = 4, 2, 1: T = 2 + 3 * 15 + 1 = 48, S = 4,
///   G = 3 * 3 = 9, W = 9 * (4 + 2 + 1) = 63. For n = 2^k: T = 15k + 3, G = 3k, W = 9(n - 1).
/// - broadcast-doubling (EREW): 2 `set`; the round has 11 (`op sub`, `op min`, `active`,
///   5 parallel of which a `p.read` and a `p.write`, `op shl`, `op lt`, `jnz`), run for
///   c0 = 1, 2, 4 with nact = min(n - c0, c0) = 1, 2, 4: T = 2 + 3 * 11 + 1 = 36, S = 4,
///   G = 2 * 3 = 6, W = 5 * 7 = 35. With L = ceil(log2 n) rounds (at least 1): T = 11L + 3,
///   G = 2L, W = 5(n - 1).
/// - bitonic-sort (EREW): 4 setup (`set`, `active 8`, `p.pid`, `set`); merges c0 = 2, 4, 8 each
///   cost 3 (`op le`, `jz`, `op shr`) + 2 (`op shl`, `jmp`), their step loops run for
///   c2 = c0 / 2, ..., 1: 1 + 2 + 3 = 6 steps of 16 (14 parallel with 2 `p.read` and 1
///   `p.write`; `op shr`, `jnz`); the exit costs 2 (`op le`, `jz`) and `halt`:
///   T = 4 + 3 * 5 + 6 * 16 + 3 = 118, S = 8, G = 6 * 3 = 18, W = 8 * (1 + 6 * 14) = 680.
///   For n = 2^k (k(k+1)/2 steps): T = 8k^2 + 13k + 7, G = 3k(k+1)/2, W = n(1 + 7k(k+1)).
/// - list-ranking (CREW, `.mem 16`: successors 0..8, ranks 8..16): 7 setup (`set`, `set`,
///   `active 8`, 4 parallel with a `p.read` and a `p.write`); the round has 9 (6 parallel:
///   2 `p.read`, 2 `p.write`; `op shl`, `op lt`, `jnz`) and runs for c0 = 1, 2, 4; `halt`:
///   T = 7 + 3 * 9 + 1 = 35, S = 8, G = 2 + 3 * 4 = 14, W = 8 * (4 + 3 * 6) = 176. With
///   L = ceil(log2 n) rounds (at least 1): T = 9L + 8, G = 4L + 2, W = n(6L + 4).
/// - matvec (CREW, `.mem 80`: matrix 0..64, vector 64..72, result 72..80): 7 setup (`set`,
///   `set`, `active 8`, 4 parallel); the column loop has 9 (6 parallel with 2 `p.read`; `op add`,
///   `op lt`, `jnz`) and runs n = 8 times; a `p.write` and `halt`: T = 7 + 8 * 9 + 2 = 81,
///   S = 8, G = 2 * 8 + 1 = 17, W = 8 * (4 + 8 * 6 + 1) = 424. For n: T = 9n + 9, G = 2n + 1,
///   W = n(6n + 5).
/// - ntt (CREW, `.mem 20`: input 0..8, twiddles 8..12, result 12..20): 6 setup (3 parallel);
///   the bit-reversal loop has 8 (`op lt`, `jz`, 4 parallel, `op shl`, `jmp`) for c0 = 1, 2, 4,
///   exit 2; a `p.read` and a `p.write` to the reversed index (nact 8), then `op shr`,
///   `active 4`, `set`; the level loop has 27 (`op le`, `jz`, `op shr`, `op div`, 21 parallel
///   with 3 `p.read` and 2 `p.write`, `op shl`, `jmp`) for c0 = 2, 4, 8 with nact = n / 2,
///   exit 2; `halt`: T = 6 + 3 * 8 + 2 + 5 + 3 * 27 + 2 + 1 = 121, S = 8, G = 2 + 3 * 5 = 17,
///   W = 8 * (3 + 3 * 4 + 2) + 4 * 3 * 21 = 388. For n = 2^k: T = 35k + 16, G = 5k + 2,
///   W = n(4k + 5) + 21k * n / 2; at n = 1024 (`ntt-1024-crcw-priority.toml`) T = 366, G = 52,
///   W = 153600, reads n + 3k * n / 2 = 16384, writes n + 2k * n / 2 = 11264, as snapshotted.
#[test]
fn fixtures() {
    insta::glob!("../../../../fixtures/pram", "*.pasm", |path| {
        let text = std::fs::read_to_string(path).expect("fixture is readable");
        let name = path.file_stem().and_then(|s| s.to_str()).expect("utf-8 name");
        let algorithm = Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == name)
            .unwrap_or_else(|| panic!("{name}.pasm names no library algorithm"));
        let instance = algorithm.instance(FIXTURE_SIZE, FIXTURE_SEED).unwrap();
        let program = Program::parse(&text).unwrap();
        assert_eq!(program, instance.program, "{name}.pasm differs from the generator");
        let done = run(&program, &instance.input, &Limits::default()).unwrap();
        assert_eq!(done.memory[instance.output.clone()], instance.expected[..], "{name}");
        insta::assert_yaml_snapshot!(serde_json::json!({
            "cost": done.cost,
            "output": instance.expected,
        }));
    });
}

/// Every algorithm has its fixture.
#[test]
fn every_algorithm_has_a_fixture() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pram");
    for algorithm in Algorithm::ALL {
        assert!(dir.join(format!("{}.pasm", algorithm.name())).exists(), "{}", algorithm.name());
    }
}

/// Several sizes and seeds, under every variant the program is valid under.
#[test]
fn library_matches_references() {
    for algorithm in Algorithm::ALL {
        let sizes = [1, 2, 3, 4, 7, 16, 64, 128];
        for n in sizes.into_iter().filter(|&n| algorithm.check_size(n).is_ok()) {
            for seed in 0..3 {
                let instance = algorithm.instance(n, seed).unwrap();
                for variant in algorithm.variants() {
                    let got = output(&instance, variant);
                    assert_eq!(got, Ok(instance.expected.clone()), "{algorithm:?} n={n} {variant}");
                }
            }
        }
    }
}

/// The library's programs with concurrent reads fail under EREW, and fetch-and-add is refused
/// by every other variant.
#[test]
fn library_variants_are_tight() {
    for algorithm in Algorithm::ALL {
        let instance = algorithm.instance(16, 0).unwrap();
        for variant in Variant::ALL.into_iter().filter(|v| !algorithm.variants().contains(v)) {
            let err = output(&instance, variant).unwrap_err();
            assert!(
                matches!(
                    err,
                    PramError::ExclusiveReadConflict { .. } | PramError::FetchOpNotAllowed { .. }
                ),
                "{algorithm:?} under {variant}: {err}"
            );
        }
    }
}

/// Sizes the generators refuse.
#[test]
fn library_rejects_bad_sizes() {
    assert!(Algorithm::BitonicSort.instance(6, 0).is_err());
    assert!(Algorithm::Ntt.instance(1 << 24, 0).is_err());
    assert!(Algorithm::PrefixSums.instance(0, 0).is_err());
    assert_eq!(Algorithm::Ntt.check_size(12).unwrap_err().fault(), Fault::Input);
}

/// Costs follow the textbook bounds: T / bound and W / bound stay within a band and change by
/// less than a factor 1.5 as n grows from 16 to 256 (to 64 for the quadratic matrix-vector
/// product).
#[test]
fn library_costs_follow_bounds() {
    for algorithm in Algorithm::ALL {
        let large = if algorithm == Algorithm::MatVec { 64 } else { 256 };
        let ratios: Vec<(f64, f64)> = [16u32, large]
            .into_iter()
            .map(|n| {
                let instance = algorithm.instance(n, 0).unwrap();
                let cost =
                    run(&instance.program, &instance.input, &Limits::default()).unwrap().cost;
                (cost.t as f64 / algorithm.time_bound(n), cost.w as f64 / algorithm.work_bound(n))
            })
            .collect();
        for (t, w) in &ratios {
            assert!((1.0..=64.0).contains(t), "{algorithm:?}: T / bound = {t}");
            assert!((1.0..=64.0).contains(w), "{algorithm:?}: W / bound = {w}");
        }
        let drift = |a: f64, b: f64| (1.0 / 1.5..=1.5).contains(&(b / a));
        let (small, big) = (ratios[0], ratios[1]);
        assert!(drift(small.0, big.0) && drift(small.1, big.1), "{algorithm:?} {ratios:?}");
    }
}

/// A back end that checks the contract (homogeneous steps, sorted by pid, one write or fetch
/// per address, 1-based consecutive global steps) and forwards to the array.
struct ContractChecker {
    inner: ArrayMemory,
    steps: u64,
}

impl GlobalMemory for ContractChecker {
    fn size(&self) -> u64 {
        self.inner.size()
    }

    fn step(&mut self, g_step: u64, accesses: &mut [Access]) {
        self.steps += 1;
        assert_eq!(g_step, self.steps);
        assert!(accesses.windows(2).all(|w| w[0].pid < w[1].pid), "sorted by pid");
        assert!(accesses.iter().all(|a| a.addr < self.size()));
        let kinds = |a: &Access| std::mem::discriminant(&a.kind);
        assert!(accesses.windows(2).all(|w| kinds(&w[0]) == kinds(&w[1])), "homogeneous");
        if accesses.first().is_some_and(|a| a.kind != AccessKind::Read) {
            let mut addrs: Vec<u64> = accesses.iter().map(|a| a.addr).collect();
            addrs.sort_unstable();
            assert!(addrs.windows(2).all(|w| w[0] < w[1]), "one write per address");
        }
        self.inner.step(g_step, accesses);
    }

    fn contents(&self) -> Vec<i64> {
        self.inner.contents()
    }
}

/// Every library program through a contract-checking back end gives the reference result and
/// a trace with one step per global instruction.
#[test]
fn back_end_contract() {
    for algorithm in Algorithm::ALL {
        let instance = algorithm.instance(16, 3).unwrap();
        let mut memory = ContractChecker {
            inner: ArrayMemory::new(instance.program.mem() as usize, &instance.input).unwrap(),
            steps: 0,
        };
        let mut trace = CollectTrace::default();
        let done =
            run_with(&instance.program, &mut memory, &Limits::default(), &mut trace).unwrap();
        assert_eq!(done.memory[instance.output.clone()], instance.expected[..]);
        assert_eq!(memory.steps, done.cost.g);
        assert_eq!(trace.steps.len() as u64, done.cost.g);
        assert!(trace.steps.iter().zip(1..).all(|(s, g)| s.g_step == g));
    }
}

/// The fetch-and-add trace: every PPU with its own contribution; replies are old value plus
/// the contributions of lower pids; the CPU's accesses carry CPU_PID.
#[test]
fn fetch_add_trace() {
    let text = ".variant crcw-fetch-add\n.mem 2\n.ppus 3\n active 3\n p.pid r0\n p.op add r1,r0,1\n\
                p.set r2,1\n p.fop add r3,[r2],r1\n set c0,0\n cread c1,[c0+1]\n halt\n";
    let program = Program::parse(text).unwrap();
    let mut memory = ArrayMemory::new(2, &[0, 10]).unwrap();
    let mut trace = CollectTrace::default();
    let done = run_with(&program, &mut memory, &Limits::default(), &mut trace).unwrap();
    assert_eq!(done.memory, vec![0, 16]);
    assert_eq!(done.ppu_regs[3][..3], [10, 11, 13]);
    assert_eq!(done.cpu_regs[1], 16);
    let fetch = AccessKind::Fetch(netcore::pram::FetchOp::Add);
    let expected: Vec<Access> =
        (0..3).map(|pid| Access { pid, kind: fetch, addr: 1, value: i64::from(pid) + 1 }).collect();
    assert_eq!(trace.steps[0].accesses, expected);
    let cpu = Access { pid: CPU_PID, kind: AccessKind::Read, addr: 1, value: 16 };
    assert_eq!(trace.steps[1].accesses, vec![cpu]);
}

/// Concurrent writes under each CRCW rule: pids 0..4 write `pid xor 10` = 10, 11, 8, 9 to
/// cell 0, which holds `old` before: the lowest pid's, the largest and the highest pid's
/// values differ, so each rule gives its own result.
#[test]
fn concurrent_write_rules() {
    let program = |variant: &str, old: i64| {
        let text = format!(
            ".variant {variant}\n.mem 1\n.ppus 4\n active 4\n p.pid r0\n p.op xor r1,r0,10\n\
             p.set r2,0\n p.write [r2],r1\n halt\n"
        );
        run(&Program::parse(&text).unwrap(), &[old], &Limits::default()).map(|d| d.memory[0])
    };
    assert_eq!(program("crcw-priority", 5), Ok(10)); // pid 0's
    assert_eq!(program("crcw-arbitrary", 5), Ok(9)); // the unseeded winner: the highest pid's
    assert_eq!(program("crcw-fetch-add", 5), Ok(38)); // 10 + 11 + 8 + 9, old value 5 dropped
    assert_eq!(program("crcw-fetch-max", 5), Ok(11)); // pid 1's
    assert_eq!(program("crcw-fetch-max", 50), Ok(11)); // the old value takes no part
    assert_eq!(program("crcw-fetch-xor", 5), Ok(10 ^ 11 ^ 8 ^ 9));
    assert!(matches!(program("crcw-common", 5), Err(PramError::CommonWriteMismatch { .. })));
}

/// A run whose registers and memory exceed the budget is refused before allocating.
#[test]
fn memory_budget() {
    let text = ".variant erew\n.mem 4294967296\n.ppus 16777216\n.lmem 65536\n halt\n";
    let program = Program::parse(text).unwrap();
    let err = run(&program, &[], &Limits::default()).unwrap_err();
    assert!(matches!(err, PramError::MemoryBudget { .. }), "{err}");
    assert_eq!(err.fault(), Fault::Input);
    let too_long = run(
        &Program::parse(".variant erew\n.mem 1\n.ppus 1\nhalt").unwrap(),
        &[1, 2],
        &Limits::default(),
    );
    assert!(matches!(too_long, Err(PramError::InvalidConfig { field: "input", .. })));
}

/// Bad programs, each a typed error naming its line or global step, address and pids; the
/// messages are snapshotted.
#[test]
fn bad_input() {
    let head = |variant: &str| format!(".variant {variant}\n.mem 8\n.ppus 8\n.lmem 2\n");
    let cases: Vec<(&str, String, Fault)> = vec![
        ("unknown mnemonic", format!("{}  frob r1\n halt\n", head("erew")), Fault::Input),
        ("register out of range", format!("{} p.set r16,1\n halt\n", head("erew")), Fault::Input),
        ("missing label", format!("{} jmp nowhere\n halt\n", head("erew")), Fault::Input),
        ("duplicate label", format!("{}a:\na: halt\n", head("erew")), Fault::Input),
        ("bad operand", format!("{} set c1,[c0]\n", head("erew")), Fault::Input),
        ("bad variant", ".variant crcw-fetch-sub\n".to_string(), Fault::Input),
        ("missing header", ".variant erew\n.ppus 2\n halt\n".to_string(), Fault::Input),
        ("too many ppus", ".variant erew\n.mem 1\n.ppus 16777217\n".to_string(), Fault::Input),
        (
            "fetch-op not allowed",
            format!("{} p.fop min r0,[r1],r2\n halt\n", head("crcw-fetch-add")),
            Fault::Input,
        ),
        // Pids 0..6 read 2 - pid / 2 = 2, 2, 1, 1, 0, 0: the smallest address 0 is read by 4, 5.
        (
            "exclusive read conflict",
            format!(
                "{} active 6\n p.pid r0\n p.op div r1,r0,2\n p.set r2,2\n p.op sub r1,r2,r1\n \
                 p.read r3,[r1]\n halt\n",
                head("erew")
            ),
            Fault::Run,
        ),
        // Pids 0..6 write to pid / 3; at address 0 pids 0, 1 agree (0), pid 2 writes 1.
        (
            "common write mismatch",
            format!(
                "{} active 6\n p.pid r0\n p.op div r1,r0,3\n p.op div r2,r0,2\n p.write [r1],r2\n \
                 halt\n",
                head("crcw-common")
            ),
            Fault::Run,
        ),
        (
            "exclusive write conflict",
            format!(
                "{} active 8\n p.pid r0\n p.op and r1,r0,3\n p.write [r1+4],r0\n halt\n",
                head("crew")
            ),
            Fault::Run,
        ),
        // Second global step: pid 3 is the smallest whose address 3 + 5 is >= 8.
        (
            "address out of range",
            format!(
                "{} active 8\n p.pid r0\n p.read r1,[r0]\n p.read r1,[r0+5]\n halt\n",
                head("erew")
            ),
            Fault::Run,
        ),
        (
            "cpu address out of range",
            format!("{} set c0,-1\n cwrite [c0],c0\n halt\n", head("erew")),
            Fault::Run,
        ),
        (
            "local address out of range",
            format!("{} active 4\n p.pid r0\n p.lstore [r0-1],r0\n halt\n", head("erew")),
            Fault::Run,
        ),
        // Divisor pid - 2 is zero at pid 2.
        (
            "division by zero",
            format!(
                "{} active 4\n p.pid r0\n p.op sub r1,r0,2\n p.op div r2,r0,r1\n halt\n",
                head("erew")
            ),
            Fault::Run,
        ),
        ("cpu division by zero", format!("{} op mod c0,c1,c2\n halt\n", head("erew")), Fault::Run),
        ("too many processors", format!("{} active 9\n halt\n", head("erew")), Fault::Run),
        ("negative active", format!("{} set c3,-1\n active c3\n halt\n", head("erew")), Fault::Run),
        ("cpu register out of range", format!("{} set c16,0\n halt\n", head("erew")), Fault::Input),
        ("predicate on p.set", format!("{} p.set r1,0 ?r2\n halt\n", head("erew")), Fault::Input),
        ("operand count", format!("{} p.write [r0]\n halt\n", head("erew")), Fault::Input),
        ("invalid label", format!("{} jmp 9lives\n halt\n", head("erew")), Fault::Input),
        ("pc out of range", format!("{} set c0,1\n", head("erew")), Fault::Run),
        ("step limit", format!("{}spin: jmp spin\n", head("erew")), Fault::Run),
    ];
    let limits = Limits { max_steps: 100, ..Limits::default() };
    let mut messages = Vec::new();
    for (name, text, fault) in cases {
        let err = Program::parse(&text).and_then(|p| run(&p, &[], &limits)).unwrap_err();
        assert_eq!(err.fault(), fault, "{name}: {err}");
        messages.push(format!("{name}: {err}"));
    }
    insta::assert_yaml_snapshot!(messages);
}

/// The typed fields of the conflict errors: smallest address, its two smallest pids.
#[test]
fn conflict_fields() {
    let text = ".variant erew\n.mem 8\n.ppus 8\n active 6\n p.pid r0\n p.op div r1,r0,2\n \
                p.set r2,2\n p.op sub r1,r2,r1\n p.read r3,[r1]\n halt\n";
    let err = run(&Program::parse(text).unwrap(), &[], &Limits::default()).unwrap_err();
    assert_eq!(
        err,
        PramError::ExclusiveReadConflict { g_step: 1, pc: 5, line: 9, addr: 0, pids: [4, 5] }
    );
    let silent = run_with(
        &Program::parse(".variant erew\n.mem 2\n.ppus 1\n halt\n").unwrap(),
        &mut ArrayMemory::new(3, &[]).unwrap(),
        &Limits::default(),
        &mut NoTrace,
    );
    assert!(matches!(silent, Err(PramError::InvalidConfig { field: "memory", .. })));
}

/// Every `fixtures/pram/*.toml` runs through `cargo xtask run pram` (the model's
/// `run_config`); its report, or its error and whose fault it is, is snapshotted.
///
/// `prefix-sums-8.toml` (and the same program from its file): 3 passes of 3 global steps
/// (9 steps); each pass reads `g[pid]` on all 8 PPUs and `g[pid - c0]` on the `8 - c0` PPUs
/// with `pid >= c0` (c0 = 1, 2, 4: 7 + 6 + 4), and writes all 8: reads 24 + 17 = 41,
/// writes 24, at most 8 accesses per step.
#[test]
fn run_configs() {
    insta::glob!("../../../../fixtures/pram", "*.toml", |path| {
        let text = std::fs::read_to_string(path).expect("fixture is readable");
        let dir = path.parent().expect("a fixture lives in a directory");
        let outcome = match netcore::driver::Pram.run_config(&ConfigFile::new(&text, dir)) {
            Ok(r) => serde_json::json!({ "summary": r.summary, "report": r.report }),
            Err(e) => {
                serde_json::json!({ "error": e.to_string(), "fault": format!("{:?}", e.fault()) })
            }
        };
        insta::assert_yaml_snapshot!(outcome);
    });
}

/// Every library program through the model's `run_config` (what `cargo xtask run pram`
/// calls), at several sizes and under every variant it is valid for: the output equals the
/// plain Rust computation.
#[test]
fn library_through_run_config() {
    let dir = Path::new(".");
    for algorithm in Algorithm::ALL {
        for n in [2u32, 16, 64] {
            for variant in algorithm.variants() {
                let text = format!(
                    "program = \"{}\"\nn = {n}\nseed = 3\nvariant = \"{variant}\"\n",
                    algorithm.name()
                );
                let report = netcore::driver::Pram
                    .run_config(&ConfigFile::new(&text, dir))
                    .unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(report.report["verified"], true, "{text}");
                assert_eq!(report.report["variant"], variant.to_string(), "{text}");
            }
        }
    }
}
