//! netcore's library PRAM programs run as flat H-PRAMs (`docs/models/hpram.md`, Choices: A PRAM
//! program as a flat H-PRAM): netcore's reference interpreter executes them on the root
//! sub-PRAM as its global memory, and the cost tree counts every instruction as one step.

use hpram::{Formula, HpramError, MemoryVariant, Preset, SyncScale, run_program};
use netcore::pram::library::Algorithm;
use netcore::pram::{CollectTrace, Limits, PramError, Variant, run, run_traced};

/// Sizes every library program accepts (the sorting, reduction and NTT programs take powers
/// of two).
const SIZES: [u32; 4] = [1, 2, 8, 16];

/// `T'` from the interpreter's trace: a global step starts a new run of computation
/// instructions before it unless it directly follows the previous global step (the next
/// instruction after a global one is the following pc: a global instruction never jumps), and
/// `halt` always ends the run with one more.
fn phases(trace: &CollectTrace) -> u64 {
    let mut next = 0;
    let mut phases = 1;
    for step in &trace.steps {
        if step.pc != next {
            phases += 1;
        }
        next = step.pc + 1;
    }
    phases
}

/// Every library program at every size in [`SIZES`], under every variant it is valid under:
/// the H-PRAM's memory is the reference interpreter's (the interpreter's whole result, its
/// registers and costs included, is equal: the same interpreter runs both, so what this
/// compares is the back end, the root sub-PRAM's memory under its sub-model against
/// netcore's plain array), the output is the plain Rust reference, the root
/// has `C = G`, `T + C = T_ref`, `T'` as the trace's gaps give it, no block steps and no
/// partitions, and under the Pram preset every formula and memory variant prices it at `T_ref`.
#[test]
fn library_programs_match_the_reference_interpreter() {
    let limits = Limits::default();
    let mut runs = 0;
    for alg in Algorithm::ALL {
        for n in SIZES {
            let instance = alg.instance(n, 7).expect("a valid size");
            for variant in alg.variants() {
                let program = instance.program.clone().with_variant(variant);
                let mut trace = CollectTrace::default();
                let want = run_traced(&program, &instance.input, &limits, &mut trace)
                    .expect("the reference runs");
                let flat = run_program(alg.name(), &program, &instance.input, &limits, 0)
                    .expect("the flat H-PRAM runs");
                let at = format!("{} n = {n} {variant}", alg.name());
                assert_eq!(flat.run.memory, want.memory, "{at}");
                assert_eq!(flat.pram, want, "{at}");
                assert_eq!(&flat.run.memory[instance.output.clone()], &instance.expected[..]);
                let root = &flat.run.cost.root;
                assert_eq!((root.t + root.c, root.c), (want.cost.t, want.cost.g), "{at}");
                assert_eq!((root.t_phases, root.b), (phases(&trace), 0), "{at}");
                assert!(root.partitions.is_empty(), "{at}");
                assert_eq!(root.procs, program.ppus() as usize, "{at}");
                assert_eq!(root.model.access, variant, "{at}");
                for memory in [MemoryVariant::NonUniform, MemoryVariant::Uniform] {
                    for formula in Formula::ALL {
                        let total = flat
                            .run
                            .cost
                            .eval(&Preset::Pram, memory, formula)
                            .expect("prices")
                            .total;
                        assert_eq!(total, want.cost.t, "{at} {formula:?}");
                    }
                }
                runs += 1;
            }
        }
    }
    // 6 EREW programs under all 11 variants (EREW, CREW, common, arbitrary, priority, six
    // fetch-and-ops), 5 CREW ones under the 10 concurrent-read ones, the fetch-and-add counter
    // under its own, each at 4 sizes.
    assert_eq!(Variant::ALL.len(), 11);
    assert_eq!(runs, 4 * (6 * 11 + 5 * 10 + 1));
}

/// The paper's prefix sums at `n = 8` (`T = 40`, `G = 9`; `fixtures/pram/prefix-sums.pasm`):
/// 3 setup instructions, 3 passes of `p.pid p.bcast p.op p.op p.set` (5 computation steps),
/// `p.read p.read` (2 communication steps), `p.op add` (1), `p.write` (1), `op op jnz` (3),
/// then `halt`. So `C = 9`, `T = 40 − 9 = 31`, and the phases are the 3 + 5 = 8 before each
/// pass's reads (the loop tail joins the next pass's head), the 3 adds, and the last tail with
/// `halt` (4): `T' = 3 + 3 + 1 = 7`.
/// Hypercube at `P = 8` (`ℓ = s_α = 3`): Exact `31·4 + 9·6 = 178`, PhaseRefined
/// `31 + 7·3 + 54 = 106`, Simplified `31 + 9·9 = 112`, TwoStage `31 + 9·3 = 58` (no
/// partitions, so stage 2 is 0).
#[test]
fn prefix_sums_n8_by_hand() {
    let instance = Algorithm::PrefixSums.instance(8, 0).expect("n = 8");
    let flat =
        run_program("prefix-sums", &instance.program, &instance.input, &Limits::default(), 1)
            .expect("runs");
    let root = &flat.run.cost.root;
    assert_eq!((root.t, root.t_phases, root.c, root.b), (31, 7, 9, 0));
    let cube = Preset::Hypercube(SyncScale::Diam);
    let costs: Vec<u64> = Formula::ALL
        .iter()
        .map(|&f| flat.run.cost.eval(&cube, MemoryVariant::NonUniform, f).expect("prices").total)
        .collect();
    assert_eq!(costs, [178, 106, 112, 58]);
    assert_eq!(flat.run.memory, [1, 3, 6, 10, 15, 21, 28, 36]);
}

/// A program run under a variant too weak for it: the interpreter's conflict check fires at
/// the offending instruction, and the error names the root and that instruction's index as
/// its step. `hot-spot-read` under EREW: every PPU reads `g[0]` at once.
#[test]
fn too_weak_variant_names_the_root_and_step() {
    let instance = Algorithm::HotSpotRead.instance(4, 0).expect("n = 4");
    let program = instance.program.clone().with_variant(Variant::Erew);
    let limits = Limits::default();
    let want = run(&program, &instance.input, &limits).expect_err("a conflict");
    let got = run_program("hot-spot-read", &program, &instance.input, &limits, 0)
        .expect_err("a conflict");
    let HpramError::Pram { path, step, source } = got else { panic!("not Pram: {got}") };
    assert_eq!((path.as_str(), &*source), ("root", &want));
    let PramError::ExclusiveReadConflict { pc, addr, pids, .. } = want else {
        panic!("not a read conflict: {want}")
    };
    // No jumps before the conflict, so the failing instruction is instruction pc + 1.
    assert_eq!((step, addr, pids), (u64::from(pc) + 1, 0, [0, 1]));
}
