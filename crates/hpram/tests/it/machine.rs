//! The machine core: partition validation (in the order of `docs/models/hpram.md`, Choices:
//! Validation order), non-uniform blocks, private memory across partitions, the sub-model features,
//! determinism across thread counts.

use std::sync::Arc;

use hpram::algs::{Alg1, TreeForm, tree_reduce};
use hpram::{Config, FnAlg, HAlgorithm, HpramError, MemOp, Part, SubModel, run};
use netcore::pram::{FetchOp, Variant};

fn empty() -> Arc<dyn HAlgorithm> {
    FnAlg::arc("Empty", |_| Ok(()))
}

fn check(procs: usize, mem: usize, alg: Arc<dyn HAlgorithm>, expected: Result<(), HpramError>) {
    let got = run(&Config::new(procs, mem), alg, vec![], &[]).map(|_| ());
    assert_eq!(got, expected);
}

fn sizes(sizes: &'static [usize]) -> Arc<dyn HAlgorithm> {
    FnAlg::arc("Parent", move |sp| {
        sp.partition(sizes.iter().map(|&p| Part::new(p, empty(), vec![])).collect())
    })
}

#[test]
fn partition_validation_order() {
    let path = || "root/p0".to_string();
    check(4, 4, sizes(&[]), Err(HpramError::EmptySubPram { path: path(), index: 0 }));
    check(4, 4, sizes(&[2, 0, 0]), Err(HpramError::EmptySubPram { path: path(), index: 1 }));
    check(
        4,
        4,
        sizes(&[2, 1]),
        Err(HpramError::PartitionSizeMismatch { path: path(), expected: 4, sizes: vec![2, 1] }),
    );
    check(
        4,
        6,
        sizes(&[3, 1]),
        Err(HpramError::NonIntegralBlock { path: path(), mem: 6, sizes: vec![3, 1] }),
    );
    check(4, 6, sizes(&[2, 2]), Ok(()));
    let eq = |q, p_i| FnAlg::arc("Eq", move |sp| sp.partition_eq(q, p_i, empty(), vec![]));
    check(
        4,
        4,
        eq(3, 1),
        Err(HpramError::AbbreviatedPartitionMismatch { path: path(), q: 3, p_i: 1, p_parent: 4 }),
    );
    check(4, 4, eq(0, 4), Err(HpramError::EmptySubPram { path: path(), index: 0 }));
    // Q = 1 is a procedure call.
    check(4, 4, eq(1, 4), Ok(()));
}

/// A chain of `Q = 1` partitions deeper than `max_depth`; the path names the second
/// partition of the level-2 node.
#[test]
fn depth_and_paths() {
    struct Chain;
    impl HAlgorithm for Chain {
        fn name(&self) -> String {
            "Chain".into()
        }
        fn run(&self, sp: &mut hpram::SubPram<'_>) -> Result<(), HpramError> {
            sp.partition_eq(1, 1, Arc::new(Chain), vec![])
        }
    }
    let mut cfg = Config::new(1, 1);
    cfg.max_depth = 3;
    let err = run(&cfg, Arc::new(Chain), vec![], &[]).unwrap_err();
    assert_eq!(
        err,
        HpramError::MaxDepthExceeded { path: "root/p0[0]/p0[0]/p0".into(), level: 4, max_depth: 3 }
    );
    let two = FnAlg::arc("Two", |sp| {
        sp.partition_eq(2, 1, empty(), vec![])?;
        sp.partition(vec![Part::new(1, empty(), vec![]), Part::new(1, sizes(&[2]), vec![])])
    });
    let err = run(&Config::new(2, 2), two, vec![], &[]).unwrap_err();
    assert_eq!(
        err,
        HpramError::PartitionSizeMismatch {
            path: "root/p1[1]/p0".into(),
            expected: 1,
            sizes: vec![2]
        }
    );
}

/// Each child sees only its own block (block-relative addresses); private memory persists
/// across the partition; out-of-block addresses fail with the node path and both pids.
#[test]
fn non_uniform_blocks() {
    let child = FnAlg::arc("Child", |sp| {
        sp.compute(1, |p| p.local[0] = 10 * p.gpid as i64 + p.params[0])?;
        sp.comm(|p| MemOp::Write { addr: p.pid, src: 0 })
    });
    let child2 = child.clone();
    let parent = FnAlg::arc("Parent", move |sp| {
        sp.partition(vec![
            Part::new(1, child2.clone(), vec![1]),
            Part::new(3, child2.clone(), vec![2]),
        ])?;
        sp.comm(|p| MemOp::Read { addr: 7 - p.pid, dst: 1 })
    });
    let done = run(&Config::new(4, 8), parent, vec![], &[]).unwrap();
    assert_eq!(done.memory, [1, 0, 12, 22, 32, 0, 0, 0]);
    let regs: Vec<i64> = done.local.chunks(4).map(|r| r[0] * 100 + r[1]).collect();
    assert_eq!(regs, [100, 1200, 2200, 3232]);
    let blocks: Vec<(usize, usize)> =
        done.cost.root.partitions[0].iter().map(|c| (c.node.mem_base, c.node.mem_len)).collect();
    assert_eq!(blocks, [(0, 2), (2, 6)]);

    let outside = FnAlg::arc("Outside", |sp| sp.comm(|p| MemOp::Read { addr: 4 + p.pid, dst: 0 }));
    let parent = FnAlg::arc("Parent", move |sp| sp.partition_eq(2, 2, outside.clone(), vec![]));
    assert_eq!(
        run(&Config::new(4, 8), parent, vec![], &[]).unwrap_err(),
        HpramError::PrivateBlockViolation {
            path: "root/p0[0]".into(),
            step: 1,
            pid: 0,
            gpid: 0,
            addr: 4,
            block_len: 4
        }
    );
}

/// Fetch-and-add combines in ascending pid, each receiving the value before its own
/// contribution; without the fetch-op sub-model it is unsupported.
#[test]
fn fetch_and_op() {
    let alg = FnAlg::arc("Fetch", |sp| {
        sp.compute(1, |p| p.local[0] = 1 << p.pid)?;
        sp.comm(|_| MemOp::FetchOp { addr: 0, src: 0, dst: 1 })
    });
    let mut cfg = Config::new(3, 1);
    cfg.model = SubModel::EREW.with_access(Variant::CrcwFetchOp(FetchOp::Add));
    let done = run(&cfg, alg.clone(), vec![], &[100]).unwrap();
    assert_eq!(done.memory, [107]);
    assert_eq!(done.local.chunks(4).map(|r| r[1]).collect::<Vec<_>>(), [100, 101, 103]);
    assert!(matches!(
        run(&Config::new(3, 1), alg, vec![], &[]),
        Err(HpramError::UnsupportedOp { op: "fetch-op", .. })
    ));
}

/// A read and a write of one cell in one step are rejected under every sub-model.
#[test]
fn read_write_same_step() {
    let alg = FnAlg::arc("Rw", |sp| {
        sp.comm(|p| match p.pid {
            0 => MemOp::Read { addr: 1, dst: 0 },
            _ => MemOp::Write { addr: 1, src: 0 },
        })
    });
    let mut cfg = Config::new(2, 2);
    cfg.model = SubModel::EREW.with_access(Variant::CrcwPriority);
    assert_eq!(
        run(&cfg, alg, vec![], &[]).unwrap_err(),
        HpramError::ReadWriteSameStep {
            path: "root".into(),
            step: 1,
            addr: 1,
            reader: 0,
            writer: 1
        }
    );
}

/// BPRAM block steps: `B` adds the longest block of each step; overlapping blocks fail.
#[test]
fn block_transfers() {
    let mut cfg = Config::new(2, 16);
    cfg.local_words = 8;
    cfg.model = SubModel { block: true, lpram: true, ..SubModel::EREW };
    let alg = FnAlg::arc("Blocks", |sp| {
        sp.comm(|p| MemOp::BlockRead { addr: 8 * p.pid, len: 8 - 4 * p.pid, dst: 0 })?;
        sp.compute(1, |p| p.local.iter_mut().for_each(|x| *x *= 2))?;
        sp.comm(|p| MemOp::BlockWrite { addr: 8 * p.pid, len: 8, src: 0 })
    });
    let input: Vec<i64> = (0..16).collect();
    let done = run(&cfg, alg, vec![], &input).unwrap();
    let (t, c, b) = (done.cost.root.t, done.cost.root.c, done.cost.root.b);
    assert_eq!((t, c, b), (1, 2, 16));
    assert_eq!(&done.memory[6..14], &[12, 14, 16, 18, 20, 22, 0, 0]);
    let overlap = FnAlg::arc("Overlap", |sp| {
        sp.comm(|p| MemOp::BlockRead { addr: 3 * p.pid, len: 4, dst: 0 })
    });
    assert_eq!(
        run(&cfg, overlap, vec![], &input).unwrap_err(),
        HpramError::BlockOverlap { path: "root".into(), step: 1, addr: 3, pids: [0, 1] }
    );
}

/// The same memory and cost tree with 1, 2 and 8 threads.
#[test]
fn thread_counts_agree() {
    let input: Vec<i64> = (0..256).map(|i| i * 7 - 300).collect();
    let runs: Vec<_> = [1, 2, 8]
        .into_iter()
        .map(|threads| {
            let mut cfg = Config::new(32, 256);
            cfg.threads = threads;
            run(&cfg, tree_reduce(TreeForm::Hier), vec![], &input).unwrap()
        })
        .collect();
    assert_eq!(runs[0].memory[0], input.iter().sum::<i64>());
    assert!(runs.windows(2).all(|w| w[0] == w[1]));
}

/// Uniform memory: addresses are global, so a child may reach past its home block (and the
/// checker then judges the access), but not past `M`.
#[test]
fn uniform_addresses() {
    let mut cfg = Config::new(2, 4);
    cfg.memory = hpram::MemoryVariant::Uniform;
    let child = FnAlg::arc("Child", |sp| {
        let far = (sp.home(0) + 2) % 4;
        sp.comm(move |_| MemOp::Read { addr: far, dst: 0 })
    });
    let root = FnAlg::arc("Root", move |sp| sp.partition_eq(2, 1, child.clone(), vec![]));
    let done = run(&cfg, root, vec![], &[1, 2, 3, 4]).unwrap();
    assert_eq!(done.local.chunks(4).map(|r| r[0]).collect::<Vec<_>>(), [3, 1]);
    let beyond = FnAlg::arc("Beyond", |sp| sp.comm(|p| MemOp::Read { addr: 3 + p.pid, dst: 0 }));
    assert_eq!(
        run(&cfg, beyond, vec![], &[]).unwrap_err(),
        HpramError::AddressOutOfRange {
            path: "root".into(),
            step: 1,
            pid: 1,
            gpid: 1,
            addr: 4,
            mem: 4
        }
    );
}

/// I8: the replay hash is stable across runs and thread counts, and changes when any written
/// value changes.
#[test]
fn replay_hash() {
    let hash = |input: &[i64], threads: usize, form: TreeForm| {
        let mut cfg = Config::new(16, 64);
        cfg.threads = threads;
        run(&cfg, tree_reduce(form), vec![], input).unwrap().trace_hash
    };
    let input: Vec<i64> = (0..64).collect();
    for form in [TreeForm::Flat, TreeForm::TwoLevel, TreeForm::Hier] {
        let base = hash(&input, 1, form);
        assert_eq!(base, hash(&input, 2, form));
        assert_eq!(base, hash(&input, 8, form));
        assert_eq!(base, hash(&input, 0, form));
        let mut perturbed = input.clone();
        perturbed[37] += 1;
        assert_ne!(base, hash(&perturbed, 1, form));
    }
    let writes = |v: i64| {
        let alg = FnAlg::arc("W", move |sp| {
            sp.compute(1, |p| p.local[0] = v)?;
            sp.comm(|p| MemOp::Write { addr: p.pid, src: 0 })?;
            sp.compute(1, |p| p.local[0] = 0)?;
            sp.comm(|p| MemOp::Write { addr: p.pid, src: 0 })
        });
        run(&Config::new(2, 2), alg, vec![], &[]).unwrap()
    };
    // Same final memory, different written values.
    assert_eq!(writes(1).memory, writes(2).memory);
    assert_ne!(writes(1).trace_hash, writes(2).trace_hash);
}

/// `scan` (a sub-model feature) and `any` (data-dependent control) are one communication
/// step each.
#[test]
fn collectives() {
    let alg = FnAlg::arc("Collective", |sp| {
        sp.compute(1, |p| p.local[0] = p.pid as i64 + 1)?;
        sp.scan(FetchOp::Add, 0, 1)?;
        let mut rounds = 0;
        while sp.any(|p| p.local[1] < 20)? {
            sp.compute(1, |p| p.local[1] *= 2)?;
            rounds += 1;
        }
        sp.compute(1, |p| p.local[2] = rounds)
    });
    let mut cfg = Config::new(4, 1);
    cfg.model = SubModel { scan: true, ..SubModel::EREW };
    let done = run(&cfg, alg.clone(), vec![], &[]).unwrap();
    // Prefix sums 1, 3, 6, 10; the smallest (1) needs 5 doublings to reach 32 >= 20.
    let regs: Vec<[i64; 3]> = done.local.chunks(4).map(|r| [r[0], r[1], r[2]]).collect();
    assert_eq!(regs, [[1, 32, 5], [2, 96, 5], [3, 192, 5], [4, 320, 5]]);
    let root = &done.cost.root;
    // T = 1 + 5 + 1; C = the scan + 6 any steps; every computation step is its own phase,
    // since a collective step breaks a phase like any communication step.
    assert_eq!((root.t, root.c, root.t_phases), (7, 7, 7));
    assert!(matches!(
        run(&Config::new(4, 1), alg, vec![], &[]),
        Err(HpramError::UnsupportedOp { op: "scan", .. })
    ));
}

/// CRCW arbitrary with a seed: the winner is `hash(seed, path, step, addr) mod writers`, one
/// of the written values, the same for every thread count, and it varies with the seed. 2048
/// processors, so that a step's processors run in chunks of `GRAIN` = 512 on several threads.
#[test]
fn seeded_arbitrary() {
    let winner = |seed: u64, threads: usize| {
        let mut cfg = Config::new(2048, 2);
        cfg.model = SubModel {
            arbitrary_seed: Some(seed),
            ..SubModel::EREW.with_access(Variant::CrcwArbitrary)
        };
        cfg.threads = threads;
        let alg = FnAlg::arc("Arb", |sp| {
            sp.compute(1, |p| p.local[0] = 100 + p.pid as i64)?;
            sp.comm(|p| MemOp::Write { addr: p.pid % 2, src: 0 })
        });
        let memory = run(&cfg, alg, vec![], &[]).unwrap().memory;
        assert_eq!(memory[0] % 2, 0, "cell 0 holds an even writer's value");
        assert_eq!(memory[1] % 2, 1, "cell 1 holds an odd writer's value");
        memory
    };
    let winners: Vec<Vec<i64>> = (0..16).map(|seed| winner(seed, 1)).collect();
    for (seed, w) in winners.iter().enumerate() {
        assert_eq!(w, &winner(seed as u64, 8));
    }
    assert!(winners.iter().any(|w| w != &winners[0]), "the seed never changes the winner");
}

/// A non-integral split is an error only in non-uniform memory; uniform home blocks round
/// down.
#[test]
fn non_integral_split_only_non_uniform() {
    let parent = sizes(&[3, 1]);
    let mut cfg = Config::new(4, 6);
    assert!(matches!(
        run(&cfg, parent.clone(), vec![], &[]),
        Err(HpramError::NonIntegralBlock { .. })
    ));
    cfg.memory = hpram::MemoryVariant::Uniform;
    let done = run(&cfg, parent, vec![], &[]).unwrap();
    let homes: Vec<(usize, usize)> =
        done.cost.root.partitions[0].iter().map(|c| (c.node.mem_base, c.node.mem_len)).collect();
    assert_eq!(homes, [(0, 4), (4, 1)]);
}

/// LPRAM local memory: a sub-model without `lpram` gives each processor `REGISTERS = 4` of its
/// `local_words` (closures see 4 words, a register 4 or beyond is `LocalMemoryOverflow` naming
/// the sub-model); with `lpram` all 8. A child may run an `lpram` sub-model under a plain
/// parent, and its words persist: the parent sees only its 4 registers again.
#[test]
fn lpram_local_memory() {
    let mut cfg = Config::new(2, 16);
    cfg.local_words = 8;
    let load = FnAlg::arc("Load", |sp| {
        sp.compute(1, |p| p.local[0] = p.local.len() as i64)?;
        sp.comm(|p| MemOp::Read { addr: 8 * p.pid, dst: 5 })
    });
    let input: Vec<i64> = (0..16).collect();
    assert_eq!(
        run(&cfg, load.clone(), vec![], &input).unwrap_err(),
        HpramError::LocalMemoryOverflow {
            path: "root".into(),
            step: 2,
            pid: 0,
            gpid: 0,
            register: 5,
            local_words: 4,
            model: "erew".into(),
        }
    );
    cfg.model = SubModel::EREW.with_lpram();
    let done = run(&cfg, load.clone(), vec![], &input).unwrap();
    assert_eq!([done.local[0], done.local[5], done.local[8], done.local[13]], [8, 0, 8, 8]);
    // An lpram child under a plain parent; afterwards the parent's closures see 4 words.
    cfg.model = SubModel::EREW;
    let alg = FnAlg::arc("Parent", move |sp| {
        sp.partition(vec![
            Part::new(1, load.clone(), vec![]).with_model(SubModel::EREW.with_lpram()),
            Part::new(1, load.clone(), vec![]).with_model(SubModel::EREW.with_lpram()),
        ])?;
        sp.compute(1, |p| p.local[1] = p.local.len() as i64)
    });
    let done = run(&cfg, alg, vec![], &input).unwrap();
    // Each child's block is 8 words, so both read their block's address 0: 0 and 8.
    assert_eq!(&done.local[..8], &[8, 4, 0, 0, 0, 0, 0, 0]);
    assert_eq!(&done.local[8..], &[8, 4, 0, 0, 0, 8, 0, 0]);
}

/// The FFT's `LCS` keeps a processor's block of `r` words in private memory, so `FlatLpram` with
/// `r = 8` needs an `lpram` sub-model: on plain EREW its first load beyond the 4 registers
/// (step 5 of `LCS`, after the `p = 1` cross-block stage's `T + C = 4·1 + 4·4 = 20` steps) fails.
#[test]
fn fft_lcs_needs_lpram() {
    use hpram::algs::{FftForm, fft, fft_output, ntt_reference};
    let input: Vec<i64> = (0..16).collect();
    let mut cfg = Config::new(2, 16);
    cfg.local_words = 8;
    let err = run(&cfg, fft(FftForm::FlatLpram, 4), vec![], &input).unwrap_err();
    assert!(
        matches!(
            &err,
            HpramError::LocalMemoryOverflow { step: 25, register: 4, local_words: 4, .. }
        ),
        "{err}"
    );
    cfg.model = SubModel::EREW.with_lpram();
    let done = run(&cfg, fft(FftForm::FlatLpram, 4), vec![], &input).unwrap();
    assert_eq!(fft_output(&done.memory), ntt_reference(&input));
}

/// Multiprefix (sub-model feature `multiprefix`): the inclusive prefix among processors with
/// the same label, in pid order. Labels `[0, 1, 0, 2, 1, 0]`, values `1..=6`, `+`: label 0 gets
/// `1, 1+3, 1+3+6`, label 1 `2, 2+5`, label 2 `4` → `[1, 2, 4, 4, 7, 10]`; with `max`
/// → `[1, 2, 3, 4, 5, 6]`. One communication step; counted alike in count-only mode. Misuse:
/// without the feature `UnsupportedOp`, a label register beyond the registers
/// `LocalMemoryOverflow`.
#[test]
fn multiprefix_by_label() {
    let labels = [0, 1, 0, 2, 1, 0];
    let alg = |op: FetchOp, label: usize| {
        FnAlg::arc("Multi", move |sp| {
            sp.compute(1, |p| (p.local[0], p.local[1]) = (labels[p.pid], 1 + p.pid as i64))?;
            sp.multiprefix(op, label, 1, 2)
        })
    };
    let mut cfg = Config::new(6, 1);
    cfg.model = SubModel { multiprefix: true, ..SubModel::EREW };
    let result = |op| {
        let done = run(&cfg, alg(op, 0), vec![], &[]).unwrap();
        assert_eq!((done.cost.root.t, done.cost.root.c), (1, 1));
        assert_eq!(hpram::count(&cfg, alg(op, 0), vec![]).unwrap(), done.cost);
        done.local.chunks(4).map(|r| r[2]).collect::<Vec<i64>>()
    };
    assert_eq!(result(FetchOp::Add), [1, 2, 4, 4, 7, 10]);
    assert_eq!(result(FetchOp::Max), [1, 2, 3, 4, 5, 6]);
    assert!(matches!(
        run(&cfg, alg(FetchOp::Add, 9), vec![], &[]),
        Err(HpramError::LocalMemoryOverflow { step: 2, register: 9, local_words: 4, .. })
    ));
    assert_eq!(
        run(&Config::new(6, 1), alg(FetchOp::Add, 0), vec![], &[]).unwrap_err(),
        HpramError::UnsupportedOp {
            path: "root".into(),
            step: 2,
            pid: 0,
            gpid: 0,
            op: "multiprefix",
            model: "erew".into(),
        }
    );
}

/// A run starts at most 1024 threads: `threads = 1025` is refused before any pool is built (a
/// pool of `2^31` threads never finished starting).
#[test]
fn threads_past_the_limit_are_refused() {
    let cfg = Config { threads: 1025, ..Config::new(4, 8) };
    let got = run(&cfg, empty(), vec![], &[]).map(|_| ());
    let expected = HpramError::InvalidConfig {
        field: "threads",
        rule: "threads <= 1024",
        got: "1025".to_string(),
    };
    assert_eq!(got, Err(expected));
    let cfg = Config { threads: 2, ..Config::new(4, 8) };
    assert!(run(&cfg, empty(), vec![], &[]).is_ok());
}

/// A shape run as a library algorithm with one private word (the config path refuses this
/// before the run): `r` needs only register 0 and runs; `w` names register 1, which is the
/// machine's `LocalMemoryOverflow`, never an index panic.
#[test]
fn shape_with_one_private_word() {
    let mut cfg = Config::new(1, 1);
    cfg.local_words = 1;
    let shape = |text: &str| Arc::new(hpram::synth::Shape::parse(text).expect("parses"));
    assert!(run(&cfg, shape("r"), vec![], &[]).is_ok());
    let err = run(&cfg, shape("w"), vec![], &[]).map(|_| ()).unwrap_err();
    assert!(
        matches!(err, HpramError::LocalMemoryOverflow { register: 1, local_words: 1, .. }),
        "{err}"
    );
}

/// `max_depth` is at most `MAX_DEPTH = 64`, checked before the run.
#[test]
fn max_depth_is_capped() {
    let mut cfg = Config::new(1, 1);
    cfg.max_depth = hpram::MAX_DEPTH;
    assert_eq!(cfg.validate(), Ok(()));
    cfg.max_depth = hpram::MAX_DEPTH + 1;
    assert_eq!(
        cfg.validate(),
        Err(HpramError::InvalidConfig {
            field: "max_depth",
            rule: "max_depth <= 64",
            got: "65".into()
        })
    );
}

/// `Alg1::valid_procs`, the driver's check of a config's `procs`, is exactly the set of `P`
/// whose run partitions without error (8, 16, 32, 64, 128 up to 130).
#[test]
fn alg1_valid_procs_is_where_it_runs() {
    for p in 1..=130 {
        let ran = run(&Config::new(p, 2 * p), Arc::new(Alg1), vec![], &[]).is_ok();
        assert_eq!(Alg1::valid_procs(p), ran, "P = {p}");
    }
}
