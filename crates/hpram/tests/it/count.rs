//! Count-only mode (`docs/models/hpram.md`, Choices: Count-only mode): I10 (the count-only cost
//! tree equals the full run's on random shapes and on the oblivious algorithms, in both memory
//! variants), `P = 2^30` with the tree reduction's closed form, and its two errors.

use std::sync::Arc;

use hpram::algs::{Alg1, TreeForm, permute, tree_prefix, tree_reduce};
use hpram::{
    Config, CostModel, FnAlg, Formula, HAlgorithm, HpramError, MemOp, MemoryVariant, Preset,
    SubModel, SyncScale, count, run,
};
use proptest::prelude::*;

use crate::props::{Mix, presets, shape};

const VARIANTS: [MemoryVariant; 2] = [MemoryVariant::NonUniform, MemoryVariant::Uniform];

/// Runs `alg` in both modes on `cfg` and checks the cost trees and their prices are equal.
fn same_in_both_modes(
    cfg: &Config,
    alg: Arc<dyn HAlgorithm>,
    input: &[i64],
) -> Result<(), TestCaseError> {
    let full = run(cfg, alg.clone(), vec![], input).expect("full run").cost;
    let counted = count(cfg, alg, vec![]).expect("count-only run");
    prop_assert_eq!(&counted, &full);
    for preset in presets() {
        for f in Formula::ALL {
            let (a, b) = (
                counted.eval(&preset, cfg.memory, f).expect("prices"),
                full.eval(&preset, cfg.memory, f).expect("prices"),
            );
            prop_assert_eq!(a, b);
        }
    }
    prop_assert_eq!(counted.sub_prams(), full.sub_prams());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// I10 on random shapes (general partitions, unequal sizes, nested), both memory variants.
    #[test]
    fn i10_random_shapes(seed in any::<u64>(), log_p in 0u32..=6, uniform in any::<bool>()) {
        let procs = 1usize << log_p;
        let mut cfg = Config::new(procs, procs);
        cfg.memory = VARIANTS[usize::from(uniform)];
        same_in_both_modes(&cfg, Arc::new(shape(&mut Mix(seed), procs, 3)), &[])?;
    }

    /// I10 on the oblivious algorithms: tree reduction and prefix in every form, `Alg1`, and
    /// `permute`, at random sizes, both memory variants.
    #[test]
    fn i10_algorithms(log_p in 0u32..=5, log_r in 0u32..=3, uniform in any::<bool>(), shift in 0usize..64) {
        let (procs, r) = (1usize << log_p, 1usize << log_r);
        let variant = VARIANTS[usize::from(uniform)];
        let with = |mem: usize, local: usize| {
            let mut cfg = Config::new(procs, mem);
            (cfg.memory, cfg.local_words) = (variant, local);
            cfg.model = cfg.model.with_lpram();
            cfg
        };
        let input: Vec<i64> = (0..(procs * r) as i64).collect();
        for form in [TreeForm::Flat, TreeForm::TwoLevel, TreeForm::Hier] {
            same_in_both_modes(&with(procs * r, 4), tree_reduce(form), &input)?;
            let layout = hpram::algs::prefix_layout(&input, procs);
            same_in_both_modes(&with(layout.len(), r + 3), tree_prefix(form, r), &layout)?;
        }
        let words = procs * r;
        let perm = FnAlg::arc("Permute", move |sp| permute(sp, &|j| (j + shift) % words));
        same_in_both_modes(&with(words, r), perm, &input)?;
        let alg1 = Config { memory: variant, ..Config::new(8 << log_p, 16 << log_p) };
        same_in_both_modes(&alg1, Arc::new(Alg1), &[])?;
    }
}

/// `P = 2^30`, `r = 2` in count-only mode: the hierarchical tree reduction has `2^31 − 1`
/// sub-PRAMs and 31 levels, stored as one node per level, and its PhaseRefined cost is the
/// closed form `τ_hier = 2r + Σ_{k=1}^{30} [1 + 2ℓ(2^k) + 3s_α(2^k) + s_β(2,2^k)]` (the same one
/// study `hpram-tree-r` checks on executed runs). On the hypercube the sum is
/// `Σ_k (1 + 5k + 1) = 2·30 + 5·465 = 2385`, so `τ = 4 + 2385 = 2389`.
/// The flat form is `T = r−1+30 = 31`, `C = r+1+60 = 63` at level 1 under Pram: 94.
#[test]
fn p_2_30() {
    let (procs, r) = (1usize << 30, 2usize);
    let cfg = Config::new(procs, procs * r);
    let tree = count(&cfg, tree_reduce(TreeForm::Hier), vec![]).unwrap();
    assert_eq!((tree.sub_prams(), tree.root.depth()), ((1u128 << 31) - 1, 31));
    assert_eq!(tree.root.walk().len(), 31);
    let cube = Preset::Hypercube(SyncScale::Diam);
    let closed: u64 = (1..=30u32)
        .map(|k| {
            let p = 1u64 << k;
            1 + 2 * cube.latency(p, 1) + 3 * cube.alpha_sync(p, 1) + cube.beta_sync(2, p, 1)
        })
        .sum();
    assert_eq!(closed, 2385);
    let tau =
        tree.eval(&cube, MemoryVariant::NonUniform, Formula::PhaseRefined).expect("prices").total;
    assert_eq!(tau, 2 * r as u64 + closed);
    let leaves =
        tree.eval(&cube, MemoryVariant::NonUniform, Formula::Exact).expect("prices").per_level[30];
    // Every one of the 2^30 leaves does `T = r−1 = 1`, `C = r+1 = 3`.
    assert_eq!((leaves.work_t, leaves.work_c), (1 << 30, 3 << 30));

    let flat = count(&cfg, tree_reduce(TreeForm::Flat), vec![]).unwrap();
    assert_eq!((flat.root.t, flat.root.c), (31, 63));
    assert_eq!(
        flat.eval(&Preset::Pram, MemoryVariant::NonUniform, Formula::Exact).expect("prices").total,
        94
    );
    let two = count(&cfg, tree_reduce(TreeForm::TwoLevel), vec![]).unwrap();
    assert_eq!(two.sub_prams(), (1 << 30) + 1);
}

/// `any` is `DataDependentControl`; a communication step on a block sub-model is
/// `CountOnlyBlockStep`; both with the node path and the 1-based step index.
#[test]
fn count_only_errors() {
    let branch = FnAlg::arc("Branch", |sp| {
        sp.compute(1, |_| {})?;
        sp.any(|p| p.pid == 0).map(|_| ())
    });
    let parent = FnAlg::arc("Parent", move |sp| sp.partition_eq(2, 2, branch.clone(), vec![]));
    assert_eq!(
        count(&Config::new(4, 4), parent, vec![]),
        Err(HpramError::DataDependentControl { path: "root/p0[0]".to_string(), step: 2 })
    );
    let mut cfg = Config::new(2, 2);
    cfg.model = SubModel { block: true, ..SubModel::EREW };
    let blocks =
        FnAlg::arc("Blocks", |sp| sp.comm(|_| MemOp::BlockRead { addr: 0, len: 1, dst: 0 }));
    assert_eq!(
        count(&cfg, blocks, vec![]),
        Err(HpramError::CountOnlyBlockStep {
            path: "root".to_string(),
            step: 1,
            model: "erew+block".to_string()
        })
    );
}

/// Steps counted in one call still count against the work limit of `2^32`: fft flat-naive at
/// `P = 16`, `N = 2^30` is 30 stages of `r/2 = 2^25` butterflies of 5 steps, `5.03·10^9`
/// steps, so it stops with `WorkLimit` (at once: the stages are counted per call), and at
/// `N = 2^28` (`1.17·10^9` steps) it finishes.
#[test]
fn counted_blocks_meet_the_work_limit() {
    use hpram::algs::{FftForm, fft};
    let cfg = |log_n: u32| Config::new(16, 1 << log_n);
    assert!(matches!(
        count(&cfg(30), fft(FftForm::FlatNaive, 30), vec![]),
        Err(HpramError::WorkLimit { .. })
    ));
    let tree = count(&cfg(28), fft(FftForm::FlatNaive, 28), vec![]).unwrap();
    assert_eq!(tree.root.counts().c + tree.root.counts().t, 28 * 5 * (1 << 23));
}
