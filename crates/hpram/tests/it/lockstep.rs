//! I3 and I6 (`docs/models/hpram.md`, Choices: Exact cases and studies are ours; Lockstep and
//! interleaved references): random programs with real reads, writes and computation, run on the
//! H-PRAM and on a plain reference interpreter that flattens the hierarchy.
//!
//! - I3: under `Pram`, Exact = PhaseRefined = Simplified = the step count of the
//!   lockstep-flattened run (siblings advance one global step at a time, padded with idles),
//!   and the final memory and registers are identical; with no partitions the cost is `T + C`.
//! - I6: a uniform program the checker accepts ends with the same memory on 1, 2 and 8 threads,
//!   in the lockstep-flattened run and in 16 seeded random interleavings of sibling steps
//!   applied directly to one memory; one it rejects gives the same error on every thread count.
//! - I7: a non-uniform program replayed in uniform memory passes the checker with the same
//!   memory, registers and cost tree, over random partition shapes.

use std::sync::Arc;

use hpram::{
    Config, Formula, HAlgorithm, HpramError, MemOp, MemoryVariant, Part, Preset, SubPram, run,
};
use netcore::rng::{SimRng, seeded};
use proptest::prelude::*;
use rand::RngExt;

use crate::props::Mix;

/// Words per processor in every home block (so every block split is integral).
const W: usize = 2;
/// The registers: the accumulator, the last value read, the last mark written.
const ACC: usize = 0;
const TMP: usize = 1;
const MARK: usize = 2;

/// One item of a random program.
#[derive(Debug, Clone)]
enum Op {
    /// `acc ← acc·mul + add + tmp` (one computation step).
    Compute { mul: i64, add: i64 },
    /// Processor `i` reads home cell `(i·W + off) mod M'` into `tmp`.
    Read { off: usize },
    /// Processor `i` reads global cell `(gpid·W + off) mod M` into `tmp` (uniform only).
    ReadGlobal { off: usize, total: usize },
    /// Processor `i` writes `acc` to its own home cell `i·W + slot`.
    Write { slot: usize },
    /// Local processor 0 writes `value` to global cell `addr` (uniform only).
    Mark { addr: usize, value: i64 },
    /// A general partition step.
    Partition(Vec<(usize, Prog)>),
}

/// A random program, runnable on the H-PRAM.
#[derive(Debug, Clone)]
struct Prog(Vec<Op>);

impl HAlgorithm for Prog {
    fn name(&self) -> String {
        "Prog".to_string()
    }

    fn run(&self, sp: &mut SubPram<'_>) -> Result<(), HpramError> {
        for op in &self.0 {
            let (len, home) = (sp.mem_len(), sp.home(0));
            match *op {
                Op::Compute { mul, add } => sp.compute(1, |p| {
                    p.local[ACC] =
                        p.local[ACC].wrapping_mul(mul).wrapping_add(add).wrapping_add(p.local[TMP]);
                })?,
                Op::Read { off } => {
                    sp.comm(|p| MemOp::Read { addr: home + (p.pid * W + off) % len, dst: TMP })?
                }
                Op::ReadGlobal { off, total } => {
                    sp.comm(|p| MemOp::Read { addr: (p.gpid * W + off) % total, dst: TMP })?
                }
                Op::Write { slot } => {
                    sp.comm(|p| MemOp::Write { addr: home + p.pid * W + slot, src: ACC })?
                }
                Op::Mark { addr, value } => sp.comm(|p| match p.pid {
                    0 => {
                        p.local[MARK] = value;
                        MemOp::Write { addr, src: MARK }
                    }
                    _ => MemOp::Idle,
                })?,
                Op::Partition(ref children) => sp.partition(
                    children
                        .iter()
                        .map(|(procs, prog)| Part::new(*procs, Arc::new(prog.clone()), vec![]))
                        .collect(),
                )?,
            }
        }
        Ok(())
    }
}

/// A random program for `procs` processors on `total = W·P` words; `uniform` adds global reads
/// and marks (a value in `{1, 2}` at one of two cells), which siblings may race on.
fn prog(mix: &mut Mix, procs: usize, total: usize, depth: u32, uniform: bool) -> Prog {
    let mut ops = Vec::new();
    for _ in 0..mix.below(7) {
        let op = match mix.below(if uniform { 9 } else { 7 }) {
            0 | 1 => Op::Compute { mul: 1 + mix.below(3) as i64, add: mix.below(5) as i64 },
            2 | 3 => Op::Read { off: mix.below((W * procs) as u64) as usize },
            4 => Op::Write { slot: mix.below(W as u64) as usize },
            5 | 6 if depth > 0 => {
                let mut children = Vec::new();
                let mut left = procs;
                while left > 0 {
                    let take = 1 + mix.below(left as u64) as usize;
                    children.push((take, prog(mix, take, total, depth - 1, uniform)));
                    left -= take;
                }
                Op::Partition(children)
            }
            5 | 6 => Op::Write { slot: 0 },
            7 => Op::ReadGlobal { off: mix.below(total as u64) as usize, total },
            _ => Op::Mark { addr: mix.below(2) as usize, value: 1 + mix.below(2) as i64 },
        };
        ops.push(op);
    }
    Prog(ops)
}

/// One action of one processor, with its global address.
#[derive(Debug, Clone, Copy)]
enum Act {
    Compute { mul: i64, add: i64 },
    Read(usize),
    Write(usize),
    Mark(usize, i64),
}

/// One synchronous step: every `(gpid, act)` sees the memory before the step.
type Step = Vec<(usize, Act)>;

/// How a partition's children are merged into their parent's steps.
enum Schedule {
    /// Global step `j` is every child's step `j` (children that have finished are idle).
    Lockstep,
    /// Each child's steps stay in order; the next step comes from a random unfinished child.
    Interleaved(SimRng),
}

/// The steps of `prog` on the sub-PRAM of `procs` processors from gpid `offset`, whose home
/// block is `[base, base + W·procs)` (addresses are global).
fn flatten(
    prog: &Prog,
    offset: usize,
    procs: usize,
    base: usize,
    sched: &mut Schedule,
) -> Vec<Step> {
    let mut steps = Vec::new();
    let all = |act: &dyn Fn(usize) -> Act| (0..procs).map(|i| (offset + i, act(i))).collect();
    for op in &prog.0 {
        match *op {
            Op::Compute { mul, add } => steps.push(all(&|_| Act::Compute { mul, add })),
            Op::Read { off } => steps.push(all(&|i| Act::Read(base + (i * W + off) % (W * procs)))),
            Op::ReadGlobal { off, total } => {
                steps.push(all(&|i| Act::Read(((offset + i) * W + off) % total)))
            }
            Op::Write { slot } => steps.push(all(&|i| Act::Write(base + i * W + slot))),
            Op::Mark { addr, value } => steps.push(vec![(offset, Act::Mark(addr, value))]),
            Op::Partition(ref children) => {
                let mut at = 0;
                let mut runs: Vec<std::collections::VecDeque<Step>> = Vec::new();
                for (p_i, child) in children {
                    runs.push(flatten(child, offset + at, *p_i, base + W * at, sched).into());
                    at += p_i;
                }
                match sched {
                    Schedule::Lockstep => {
                        while runs.iter().any(|r| !r.is_empty()) {
                            steps.push(
                                runs.iter_mut().filter_map(|r| r.pop_front()).flatten().collect(),
                            );
                        }
                    }
                    Schedule::Interleaved(rng) => loop {
                        let live: Vec<usize> =
                            (0..runs.len()).filter(|&i| !runs[i].is_empty()).collect();
                        if live.is_empty() {
                            break;
                        }
                        let pick = live[rng.random_range(0..live.len())];
                        steps.extend(runs[pick].pop_front());
                    },
                }
            }
        }
    }
    steps
}

/// Executes `steps` on `memory` with `regs` (`[ACC, TMP, MARK]` per gpid).
fn execute(steps: &[Step], memory: &mut [i64], regs: &mut [[i64; 3]]) {
    for step in steps {
        let before = memory.to_vec();
        for &(g, act) in step {
            let r = &mut regs[g];
            match act {
                Act::Compute { mul, add } => {
                    r[ACC] = r[ACC].wrapping_mul(mul).wrapping_add(add).wrapping_add(r[TMP]);
                }
                Act::Read(a) => r[TMP] = before[a],
                Act::Write(a) => memory[a] = r[ACC],
                Act::Mark(a, v) => (r[MARK], memory[a]) = (v, v),
            }
        }
    }
}

/// The reference run under `sched`: the final memory, the registers and the step count.
fn reference(
    prog: &Prog,
    procs: usize,
    input: &[i64],
    mut sched: Schedule,
) -> (Vec<i64>, Vec<[i64; 3]>, usize) {
    let steps = flatten(prog, 0, procs, 0, &mut sched);
    let (mut memory, mut regs) = (input.to_vec(), vec![[0; 3]; procs]);
    execute(&steps, &mut memory, &mut regs);
    (memory, regs, steps.len())
}

fn config(procs: usize, variant: MemoryVariant, threads: usize) -> Config {
    let mut cfg = Config::new(procs, W * procs);
    (cfg.memory, cfg.threads) = (variant, threads);
    cfg
}

fn input(procs: usize, seed: u64) -> Vec<i64> {
    let mut mix = Mix(seed ^ 0x5eed);
    (0..W * procs).map(|_| mix.below(100) as i64).collect()
}

/// The first three registers of every processor of a run (`local_words = 4`).
fn registers(local: &[i64]) -> Vec<[i64; 3]> {
    local.chunks(4).map(|c| [c[ACC], c[TMP], c[MARK]]).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// I3: under `Pram` every formula equals the lockstep-flattened step count, and the memory
    /// and registers equal the flattened run's (non-uniform memory, EREW).
    #[test]
    fn i3_pram_is_the_lockstep_flattened_run(seed in any::<u64>(), log_p in 0u32..=5) {
        let procs = 1usize << log_p;
        let p = prog(&mut Mix(seed), procs, W * procs, 3, false);
        let input = input(procs, seed);
        let done = run(&config(procs, MemoryVariant::NonUniform, 0), Arc::new(p.clone()), vec![], &input)
            .expect("a non-uniform random program runs");
        let (memory, regs, steps) = reference(&p, procs, &input, Schedule::Lockstep);
        prop_assert_eq!(&done.memory, &memory);
        prop_assert_eq!(registers(&done.local), regs);
        for f in [Formula::Exact, Formula::PhaseRefined, Formula::Simplified] {
            let tau = done.cost.eval(&Preset::Pram, MemoryVariant::NonUniform, f).expect("prices").total;
            prop_assert_eq!(tau, steps as u64, "{:?}", f);
        }
        if done.cost.root.partitions.is_empty() {
            prop_assert_eq!(steps as u64, done.cost.root.t + done.cost.root.c);
        }
    }

    /// I6: accepted uniform programs give one memory on 1, 2 and 8 threads, in the lockstep
    /// flattening and in 16 seeded interleavings; rejected ones one error on every thread count
    /// (about a quarter of the programs are rejected, a sixth are accepted with partitions).
    #[test]
    fn i6_determinacy_against_interleavings(seed in any::<u64>(), log_p in 1u32..=4) {
        let procs = 1usize << log_p;
        let p = prog(&mut Mix(seed), procs, W * procs, 3, true);
        let input = input(procs, seed);
        let outcome = |threads| {
            run(&config(procs, MemoryVariant::Uniform, threads), Arc::new(p.clone()), vec![], &input)
                .map(|done| (done.memory, registers(&done.local), done.trace_hash))
        };
        let one = outcome(1);
        for threads in [2, 8] {
            prop_assert_eq!(&outcome(threads), &one);
        }
        match one {
            Ok((memory, regs, _)) => {
                let (lock_mem, lock_regs, _) = reference(&p, procs, &input, Schedule::Lockstep);
                prop_assert_eq!(&lock_mem, &memory);
                prop_assert_eq!(&lock_regs, &regs);
                for stream in 0..16 {
                    let sched = Schedule::Interleaved(seeded(seed, stream));
                    let (mem, regs_i, _) = reference(&p, procs, &input, sched);
                    prop_assert_eq!(&mem, &memory, "interleaving {}", stream);
                    prop_assert_eq!(&regs_i, &regs);
                }
            }
            Err(e) => prop_assert!(matches!(e, HpramError::AsyncCommunication { .. }), "{e}"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// I7 over random partition shapes: a random non-uniform program (general partitions of
    /// random sizes nested up to three deep on any `P`, reads of the home block, writes of
    /// the processor's own cells) replayed in uniform memory, its home-block addresses made
    /// global by `home`, passes the determinacy checker with the same memory, registers and
    /// cost tree, on 1, 2 and 8 threads.
    #[test]
    fn i7_non_uniform_replays_in_uniform(seed in any::<u64>(), procs in 1usize..=24) {
        let p = prog(&mut Mix(seed), procs, W * procs, 3, false);
        let input = input(procs, seed);
        let non = run(&config(procs, MemoryVariant::NonUniform, 0), Arc::new(p.clone()), vec![], &input)
            .expect("a non-uniform random program runs");
        for threads in [1, 2, 8] {
            let uni = run(&config(procs, MemoryVariant::Uniform, threads), Arc::new(p.clone()), vec![], &input);
            let uni = match uni {
                Ok(uni) => uni,
                Err(e) => return Err(TestCaseError::fail(format!("rejected in uniform memory: {e}"))),
            };
            prop_assert_eq!(&uni.memory, &non.memory);
            prop_assert_eq!(registers(&uni.local), registers(&non.local));
            prop_assert_eq!(&uni.cost, &non.cost);
        }
    }
}

/// The reference interleavings do see the race the checker rejects: E6's program (`A` writes
/// `M[0] ← 5`, `B` reads `M[0]`) reads 0 or 5 depending on the order, so a rejected program's
/// interleavings differ, which is why the checker must reject it.
#[test]
fn interleavings_of_a_rejected_program_differ() {
    let a = Prog(vec![Op::Mark { addr: 0, value: 5 }]);
    let b = Prog(vec![
        Op::ReadGlobal { off: 2, total: 4 },
        Op::Compute { mul: 1, add: 0 },
        Op::Write { slot: 1 },
    ]);
    let p = Prog(vec![Op::Partition(vec![(1, a), (1, b)])]);
    let err = run(&config(2, MemoryVariant::Uniform, 0), Arc::new(p.clone()), vec![], &[0; 4])
        .unwrap_err();
    assert!(matches!(err, HpramError::AsyncCommunication { .. }), "{err}");
    let outcomes: std::collections::BTreeSet<i64> = (0..16)
        .map(|s| reference(&p, 2, &[0; 4], Schedule::Interleaved(seeded(1, s))).0[3])
        .collect();
    assert_eq!(outcomes, [0, 5].into());
}
