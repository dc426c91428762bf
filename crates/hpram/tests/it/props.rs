//! Invariants (`docs/models/hpram.md`, Choices: Exact cases and studies are ours) on random step
//! shapes (`P <= 64`, every preset): I1 (partition validation), I2 (phases and formula order), I4
//! (monotonicity, non-uniform <= uniform), I5 (two-stage bounds, and equality on a regular
//! hierarchy), I10 (the permute cost), the
//! per-level rows summing to the total, and thread-count determinism.

use std::sync::Arc;

use hpram::synth::Shape;
use hpram::{
    Config, CostModel, CostNode, CostTree, FnAlg, Formula, HpramError, MemoryVariant, Part, Preset,
    SyncScale, run,
};
use proptest::prelude::*;

/// SplitMix64: the shape generator's own deterministic stream.
pub(crate) struct Mix(pub(crate) u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random shape for `procs` processors, partitions nested at most `depth` deep
/// ([`Shape::random`] on the test's own stream).
pub(crate) fn shape(mix: &mut Mix, procs: usize, depth: u32) -> Shape {
    Shape::random(&mut |n| mix.below(n), procs, depth)
}

fn random_tree(seed: u64, procs: usize, threads: usize) -> CostTree {
    let s = shape(&mut Mix(seed), procs, 3);
    let mut cfg = Config::new(procs, procs);
    cfg.threads = threads;
    run(&cfg, Arc::new(s), vec![], &[]).expect("a valid random shape runs").cost
}

pub(crate) fn presets() -> Vec<Preset> {
    vec![
        Preset::Pram,
        Preset::Hypercube(SyncScale::Diam),
        Preset::Hypercube(SyncScale::DiamLog),
        Preset::Mesh2D(SyncScale::Diam),
        Preset::Mesh2D(SyncScale::DiamLog),
        Preset::Power { num: 1, den: 2 },
        Preset::Power { num: 1, den: 3 },
        Preset::Constant { l: 3, sa: 2, sb: 1 },
    ]
}

fn nodes(tree: &CostTree) -> Vec<&CostNode> {
    tree.root.walk()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// I2 and the row sums: `T' <= C+1` at every node; Exact >= PhaseRefined;
    /// PhaseRefined <= Simplified + Σ_nodes s_α(P'), and PhaseRefined <= Simplified when
    /// `T' <= C` at every node; the per-level rows along the critical path sum to the total.
    #[test]
    fn i2_phases_and_formula_order(seed in any::<u64>(), log_p in 0u32..=6) {
        let tree = random_tree(seed, 1 << log_p, 0);
        for n in nodes(&tree) {
            prop_assert!(n.t_phases <= n.c + 1, "{}: T' = {} > C + 1 = {}", n.path, n.t_phases, n.c + 1);
        }
        let phases_ok = nodes(&tree).iter().all(|n| n.t_phases <= n.c);
        for preset in presets() {
            for variant in [MemoryVariant::NonUniform, MemoryVariant::Uniform] {
                let exact = tree.eval(&preset, variant, Formula::Exact).expect("prices");
                let refined = tree.eval(&preset, variant, Formula::PhaseRefined).expect("prices");
                let simple = tree.eval(&preset, variant, Formula::Simplified).expect("prices");
                prop_assert!(exact.total >= refined.total);
                let slack: u64 = nodes(&tree).iter().map(|n| preset.alpha_sync(n.procs as u64, n.level)).sum();
                prop_assert!(refined.total <= simple.total + slack);
                if phases_ok {
                    prop_assert!(refined.total <= simple.total);
                }
                for e in [&exact, &refined, &simple] {
                    let rows: u64 = e.per_level.iter().map(|r| r.compute + r.latency + r.alpha + r.beta + r.block).sum();
                    prop_assert_eq!(rows, e.total);
                }
            }
        }
    }

    /// I4: cost is monotone in ℓ, s_α and s_β; non-uniform <= uniform on one cost tree.
    /// I5: max(stage1, stage2) <= Exact; with s_α ≡ 0, Exact <= stage1 + stage2.
    #[test]
    fn i4_i5_monotone_and_two_stage(seed in any::<u64>(), log_p in 0u32..=6, l in 1u64..5, sa in 0u64..4, sb in 0u64..4) {
        let tree = random_tree(seed, 1 << log_p, 0);
        let nu = MemoryVariant::NonUniform;
        let price = |l, sa, sb, f| tree.eval(&Preset::Constant { l, sa, sb }, nu, f).expect("prices").total;
        for f in Formula::ALL {
            let base = price(l, sa, sb, f);
            prop_assert!(price(l + 1, sa, sb, f) >= base);
            prop_assert!(price(l, sa + 1, sb, f) >= base);
            prop_assert!(price(l, sa, sb + 1, f) >= base);
        }
        for preset in presets() {
            for f in Formula::ALL {
                let non = tree.eval(&preset, nu, f).expect("prices").total;
                prop_assert!(non <= tree.eval(&preset, MemoryVariant::Uniform, f).expect("prices").total);
            }
            let exact = tree.eval(&preset, nu, Formula::Exact).expect("prices");
            prop_assert!(exact.stage1.max(exact.stage2) <= exact.total);
        }
        let zero_alpha = tree.eval(&Preset::Constant { l, sa: 0, sb }, nu, Formula::Exact).expect("prices");
        prop_assert!(zero_alpha.total <= zero_alpha.stage1 + zero_alpha.stage2);
    }

    /// Under Pram without partitions, every formula costs `T + C`; the cost tree does not
    /// depend on the thread count.
    #[test]
    fn pram_flat_and_threads(seed in any::<u64>(), log_p in 0u32..=6) {
        let flat = shape(&mut Mix(seed), 1 << log_p, 0);
        let tree = run(&Config::new(1 << log_p, 1 << log_p), Arc::new(flat), vec![], &[]).unwrap().cost;
        for f in [Formula::Exact, Formula::PhaseRefined, Formula::Simplified, Formula::TwoStage] {
            let total = tree.eval(&Preset::Pram, MemoryVariant::NonUniform, f).expect("prices").total;
            prop_assert_eq!(total, tree.root.t + tree.root.c);
        }
        let one = random_tree(seed, 1 << log_p, 1);
        prop_assert_eq!(&one, &random_tree(seed, 1 << log_p, 2));
        prop_assert_eq!(&one, &random_tree(seed, 1 << log_p, 8));
    }

    /// I1: a general partition fails with exactly the first broken rule, in spec order: `Q`,
    /// then the first zero size, then the sum, then the block split.
    #[test]
    fn i1_partition_errors(sizes in proptest::collection::vec(0usize..5, 0..5), procs in 1usize..12, mem in 1usize..40) {
        let path = "root/p0".to_string();
        let expected = if sizes.is_empty() {
            Err(HpramError::EmptySubPram { path, index: 0 })
        } else if let Some(index) = sizes.iter().position(|&p| p == 0) {
            Err(HpramError::EmptySubPram { path, index })
        } else if sizes.iter().sum::<usize>() != procs {
            Err(HpramError::PartitionSizeMismatch { path, expected: procs, sizes: sizes.clone() })
        } else if sizes.iter().any(|&p| (mem * p) % procs != 0) {
            Err(HpramError::NonIntegralBlock { path, mem, sizes: sizes.clone() })
        } else {
            Ok(())
        };
        let parts = sizes.clone();
        let alg = FnAlg::arc("Parent", move |sp| {
            let empty = FnAlg::arc("Empty", |_| Ok(()));
            sp.partition(parts.iter().map(|&p| Part::new(p, empty.clone(), vec![])).collect())
        });
        prop_assert_eq!(run(&Config::new(procs, mem), alg, vec![], &[]).map(|_| ()), expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// I5 equality on regular hierarchies: with `s_α ≡ 0`, Exact = stage1 + stage2 for the
    /// hierarchical tree reduction (and the paper's per-level sums apply).
    #[test]
    fn i5_regular_hierarchy(log_p in 0u32..=6, log_r in 0u32..=3, l in 1u64..5, sb in 0u64..4) {
        use hpram::algs::{TreeForm, tree_reduce};
        let (procs, r) = (1usize << log_p, 1usize << log_r);
        let tree = run(&Config::new(procs, procs * r), tree_reduce(TreeForm::Hier), vec![], &[]).unwrap().cost;
        let e = tree.eval(&Preset::Constant { l, sa: 0, sb }, MemoryVariant::NonUniform, Formula::Exact).expect("prices");
        prop_assert_eq!(e.total, e.stage1 + e.stage2);
        // Per level: T_λ + C_λ·ℓ on the critical path, and log₂P β-syncs.
        prop_assert_eq!(e.stage2, u64::from(log_p) * sb);
    }

    /// I10 (the part built): `permute` costs exactly `2r'(ℓ(P') + s_α(P'))` under every preset.
    #[test]
    fn i10_permute_cost(log_p in 0u32..=5, r in 1usize..6, shift in 0usize..64) {
        let (procs, words) = (1usize << log_p, (1usize << log_p) * r);
        let mut cfg = Config::new(procs, words);
        cfg.local_words = r;
        cfg.model = cfg.model.with_lpram();
        let alg = FnAlg::arc("Permute", move |sp| hpram::algs::permute(sp, &|j| (j + shift) % words));
        let input: Vec<i64> = (0..words as i64).collect();
        let done = run(&cfg, alg, vec![], &input).unwrap();
        for (j, &x) in input.iter().enumerate() {
            prop_assert_eq!(done.memory[(j + shift) % words], x);
        }
        for preset in presets() {
            let p = procs as u64;
            let want = 2 * r as u64 * (preset.latency(p, 1) + preset.alpha_sync(p, 1));
            prop_assert_eq!(done.cost.eval(&preset, MemoryVariant::NonUniform, Formula::Exact).expect("prices").total, want);
        }
    }
}
