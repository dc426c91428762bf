//! The exact cases (`docs/models/hpram.md`, Choices: Exact cases and studies are ours), each with
//! its hand derivation, and the rendered `Alg1` hierarchies of paper Section 2.1
//! (`docs/models/hpram.md`, Choices: Figure 1 is reconstructed).

use std::sync::Arc;

use hpram::algs::{Alg1, TreeForm, tree_reduce};
use hpram::synth::Shape;
use hpram::{Config, CostTree, Formula, HpramError, MemOp, MemoryVariant, Preset, SyncScale, run};
use netcore::pram::Variant;

const CUBE: Preset = Preset::Hypercube(SyncScale::Diam);
const MESH: Preset = Preset::Mesh2D(SyncScale::Diam);
const NU: MemoryVariant = MemoryVariant::NonUniform;
const UNI: MemoryVariant = MemoryVariant::Uniform;

fn price(tree: &CostTree, preset: Preset, variant: MemoryVariant, formula: Formula) -> u64 {
    tree.eval(&preset, variant, formula).expect("prices").total
}

fn shape_tree(shape: &str, procs: usize) -> CostTree {
    let shape = Shape::parse(shape).expect("shape parses");
    run(&Config::new(procs, procs), Arc::new(shape), vec![], &[]).expect("shape runs").cost
}

/// A pricing of a snapshot: its label, preset and memory variant.
type Pricing = (&'static str, Preset, MemoryVariant);

const CUBE_NU: Pricing = ("hypercube/non-uniform", CUBE, NU);
const CUBE_UNI: Pricing = ("hypercube/uniform", CUBE, UNI);
const MESH_NU: Pricing = ("mesh2d/non-uniform", MESH, NU);
const MESH_UNI: Pricing = ("mesh2d/uniform", MESH, UNI);
const PRAM_NU: Pricing = ("pram/non-uniform", Preset::Pram, NU);
const PRAM_UNI: Pricing = ("pram/uniform", Preset::Pram, UNI);

/// What an exact case's snapshot shows: the hierarchy (one sub-PRAM per line), every distinct
/// node's counts `T`, `T'`, `C`, `B`, and per pricing every formula's cost (`two_stage` as
/// `[stage1, stage2, total]`) with the Exact critical path. The per-level rows of every
/// formula but TwoStage sum to its total.
fn snapshot(tree: &CostTree, pricings: &[Pricing]) -> serde_json::Value {
    let nodes: Vec<String> = tree
        .root
        .walk()
        .iter()
        .map(|n| format!("{}: T={} T'={} C={} B={}", n.path, n.t, n.t_phases, n.c, n.b))
        .collect();
    let mut costs = serde_json::Map::new();
    for &(label, preset, variant) in pricings {
        for formula in [Formula::Exact, Formula::PhaseRefined, Formula::Simplified] {
            let eval = tree.eval(&preset, variant, formula).expect("prices");
            let rows: u64 = eval
                .per_level
                .iter()
                .map(|r| r.compute + r.latency + r.alpha + r.beta + r.block)
                .sum();
            assert_eq!(rows, eval.total, "{label} {formula:?}");
        }
        let two = tree.eval(&preset, variant, Formula::TwoStage).expect("prices");
        let value = serde_json::json!({
            "exact": price(tree, preset, variant, Formula::Exact),
            "phase_refined": price(tree, preset, variant, Formula::PhaseRefined),
            "simplified": price(tree, preset, variant, Formula::Simplified),
            "two_stage": [two.stage1, two.stage2, two.total],
            "critical_path": tree.eval(&preset, variant, Formula::Exact).expect("prices").critical_path,
        });
        costs.insert(label.to_string(), value);
    }
    serde_json::json!({
        "hierarchy": tree.render().lines().collect::<Vec<_>>(),
        "sub_prams": u64::try_from(tree.sub_prams()).expect("a small tree"),
        "depth": tree.root.depth(),
        "nodes": nodes,
        "costs": costs,
    })
}

/// E1: shape `cmc[4:mcm|2:cccm|2:]m`, `P = 8`, Hypercube.
///
/// Exact: child A (4 procs, `mcm`): `T=1, C=2, ℓ=s_α=2` → `1·3 + 2·4 = 11`; child B
/// (2 procs, `cccm`): `T=3, C=1, ℓ=s_α=1` → `3·2 + 1·2 = 8`; child C empty: 0. The partition
/// costs `max = 11` plus `s_β(3,8) = ⌈log₂3⌉ = 2` → 13. Root `T=2, C=2, ℓ=s_α=3` →
/// `2·4 + 2·6 + 13 = 33`.
/// PhaseRefined: B = `3 + 1·1 + 1·2 = 6`, A = `1 + 1·2 + 2·4 = 11`; root `T'=2` (`c[..]` is one
/// phase) → `2 + 2·3 + 2·6 + 13 = 33`.
/// Simplified: A = `1 + 2·6 = 13`, B = `3 + 3 = 6`, root = `2 + 2·9 + (13+2) = 35`.
/// TwoStage: stage1 = root `2 + 2·3` + max(A `1 + 2·2`, B `3 + 1`) = `8 + 5 = 13`; stage2 = 2.
/// Uniform Exact (`ℓ = ℓ(8) = 3` everywhere): A = `3 + 2·5 = 13`, B = `6 + 4 = 10`, root =
/// `8 + 12 + 15 = 35`. Mesh2D Exact: `ℓ(2) = s_α(2) = 2`, so B = `3·3 + 1·4 = 13`, A =
/// `1·3 + 2·4 = 11`, `s_β(3,8) = ⌈√8⌉ = 3`; root `ℓ(8) = s_α(8) = 3`: `8 + 12 + 13 + 3 = 36`.
/// Pram: root `T + C = 4` plus the costliest child, B (`3 + 1 = 4`) → 8.
///
/// The other prices of the snapshot. Uniform PhaseRefined: A `1 + 1·2 + 2·5 = 13`, B
/// `3 + 1·1 + 1·4 = 8`, root `2 + 2·3 + 2·6 + 13 + 2 = 35`; Simplified: A `1 + 2·7 = 15`, B
/// `3 + 1·5 = 8`, root `2 + 2·9 + 15 + 2 = 37`; TwoStage: stage1 A `1 + 2·3 = 7`, B `3 + 3 = 6`,
/// root `2 + 2·3 + 7 = 15`, stage2 2 → 17. Mesh2D (`ℓ = s_α`: 3 at 8, 2 at 4 and 2): PhaseRefined
/// A `1 + 2 + 8 = 11`, B `3 + 2 + 4 = 9`, root `2 + 2·3 + 2·6 + 11 + 3 = 34`; Simplified A
/// `1 + 2·6 = 13`, B `3 + 6 = 9`, root `2 + 2·9 + 13 + 3 = 36`; TwoStage stage1 A `1 + 2·2 = 5`,
/// B `3 + 2 = 5`, root `2 + 2·3 + 5 = 13`, stage2 3 → 16. Pram: every formula 8 (stage2 0).
/// The Exact critical path runs through A (`root/p0[0]`, 11 against 8) under Hypercube in both
/// variants (13 against 10 uniform), and through B (`root/p0[1]`) under Mesh2D (13 against 11)
/// and Pram (4 against 3).
#[test]
fn e1_cost_recursion() {
    let tree = shape_tree("cmc[4:mcm|2:cccm|2:]m", 8);
    insta::assert_json_snapshot!(snapshot(&tree, &[CUBE_NU, CUBE_UNI, MESH_NU, PRAM_NU]));
}

fn alg1(procs: usize) -> Result<CostTree, HpramError> {
    Ok(run(&Config::new(procs, 2 * procs), Arc::new(Alg1), vec![], &[])?.cost)
}

/// E2: `Alg1`. Leaves cost 0, so `τ(Alg1(8)) = s_β(4,8)` and
/// `τ(Alg1(P')) = τ(Alg1(P'/2)) + s_β(2,P')`. Hypercube: `P=16`: `⌈log₂4⌉ + ⌈log₂2⌉ = 2+1 = 3`;
/// `P=32`: 4. Mesh2D: `P=16`: `⌈√8⌉ + ⌈√16⌉ = 3 + 4 = 7`; `P=32`: `7 + ⌈√32⌉ = 13`. Pram 0.
/// No step at all, so every formula is the `s_β` sum (TwoStage: stage1 0, stage2 the sum) and
/// both variants agree. `P = 16` has 11 sub-PRAMs on 3 levels, `P = 32` 23 on 4 (the
/// hierarchies of `alg1_hierarchy_p16_p32`); every critical path is the chain of first
/// children (all ties).
#[test]
fn e2_alg1_costs() {
    let all = [CUBE_NU, CUBE_UNI, MESH_NU, MESH_UNI, PRAM_NU, PRAM_UNI];
    for procs in [16, 32] {
        insta::assert_json_snapshot!(
            format!("e2_alg1_p{procs}"),
            snapshot(&alg1(procs).unwrap(), &all)
        );
    }
}

/// The reconstructed Figure 1 (`docs/models/hpram.md`, Choices: Figure 1 is reconstructed), one
/// sub-PRAM per line.
#[test]
fn alg1_hierarchy_p16_p32() {
    insta::assert_snapshot!("alg1_p16", alg1(16).unwrap().render());
    insta::assert_snapshot!("alg1_p32", alg1(32).unwrap().render());
}

/// `Alg1` needs `P = 8·2^k`: `P = 24` halves to 12, whose sizes `6+3+1+1 = 11`; `P = 4` gives
/// sizes `2, 1, 0, 0`.
#[test]
fn alg1_invalid_sizes() {
    assert_eq!(
        alg1(24).unwrap_err(),
        HpramError::PartitionSizeMismatch {
            path: "root/p0[0]/p0".into(),
            expected: 12,
            sizes: vec![6, 3, 1, 1]
        }
    );
    assert_eq!(alg1(4).unwrap_err(), HpramError::EmptySubPram { path: "root/p0".into(), index: 2 });
}

fn tree(form: TreeForm) -> hpram::Run {
    let input: Vec<i64> = (0..16).collect();
    run(&Config::new(4, 16), tree_reduce(form), vec![], &input).unwrap()
}

/// E3: tree reduction, `P = 4`, `N = 16`, `x_i = i`: every form returns 120. Hypercube,
/// `r = 4`, `ℓ(4) = s_α(4) = 2`.
/// - flat: `T = T' = r−1+p = 5`, `C = r+1+2p = 9` → `5·3 + 9·4 = 51`; PhaseRefined
///   `5 + 5·2 + 36 = 51`, Simplified `5 + 9·6 = 59`, TwoStage `5 + 9·2 = 23`.
/// - two-level: leaves `T=T'=3, C=5` at `ℓ(1)=1, s_α(1)=0` → 8 in every formula; `s_β(4,4) = 2`;
///   root `T=T'=2, C=4` → `2·3 + 4·4 = 22`: `8 + 2 + 22 = 32`; PhaseRefined
///   `2 + 2·2 + 16 + 8 + 2 = 32`, Simplified `2 + 4·6 + 8 + 2 = 36`, TwoStage stage1
///   `2 + 4·2 + 8 = 18`, stage2 2 → 20.
/// - hier: level `2^k` (`T=T'=1, C=2`) costs `1 + 2ℓ + 3s_α + s_β(2,2^k)`:
///   `8 + (1+2+3+1) + (1+4+6+1) = 27`, the same PhaseRefined; Simplified `1 + 2(ℓ + 2s_α) + s_β`
///   per level: `8 + 8 + 14 = 30`; TwoStage stage1 `8 + 3 + 5 = 16`, stage2 `1 + 1 = 2` → 18.
/// - hier, uniform: `ℓ = ℓ(4) = 2` everywhere: leaf `3 + 5·2 = 13`, levels `1+4+3+1 = 9` and
///   `1+4+6+1 = 12` → 34, the same PhaseRefined; Simplified `13 + (1+2·4+1) + (1+2·6+1) = 37`;
///   TwoStage stage1 `13 + (1+4) + (1+4) = 23`, stage2 2 → 25.
/// - hier, Mesh2D: `ℓ(2)=s_α(2)=⌈√2⌉=2`, `s_β(2,2)=2`, `s_β(2,4)=2`: `8 + 13 + 13 = 34`, the same
///   PhaseRefined; Simplified `8 + 15 + 15 = 38`; TwoStage stage1 `8 + 5 + 5 = 18`, stage2 4 → 22.
/// - Pram: `T + C` along the chain = 14 for every form and formula.
///
/// Critical paths: the flat root; the two-level root and its first leaf; the hierarchical
/// chain of first children.
#[test]
fn e3_tree_reduction() {
    let forms = [
        ("e3_flat", TreeForm::Flat, vec![CUBE_NU, PRAM_NU]),
        ("e3_two_level", TreeForm::TwoLevel, vec![CUBE_NU, PRAM_NU]),
        ("e3_hier", TreeForm::Hier, vec![CUBE_NU, CUBE_UNI, MESH_NU, PRAM_NU]),
    ];
    for (name, form, pricings) in forms {
        let done = tree(form);
        assert_eq!(done.memory[0], 120, "{form:?}");
        insta::assert_json_snapshot!(name, snapshot(&done.cost, &pricings));
    }
}

/// E4: shape `ccccc`, `P = 4`, Hypercube: `T = 5`, `C = 0`, `T' = 1`. Exact `5·(1+2) = 15`,
/// PhaseRefined `5 + 1·2 = 7`, Simplified `5 + 0 = 5 < 7`: the paper's `T' <= C` fails.
/// TwoStage: `5 + 0·ℓ = 5`, no stage 2.
#[test]
fn e4_simplification_underestimates() {
    insta::assert_json_snapshot!(snapshot(&shape_tree("ccccc", 4), &[CUBE_NU]));
}

fn flat2(access: Variant, op: fn(usize) -> MemOp) -> Result<hpram::Run, HpramError> {
    let mut cfg = Config::new(2, 1);
    cfg.model = cfg.model.with_access(access);
    let alg = hpram::FnAlg::arc("E7", move |sp| {
        sp.compute(1, |p| p.local[0] = 10 - p.pid as i64)?;
        sp.comm(|p| op(p.pid))
    });
    run(&cfg, alg, vec![], &[9])
}

/// E7: flat `P = 2`, `M = [9]`; processor `i` first puts `10 − i` in register 0 (step 1), then
/// issues one access (step 2); the snapshot shows the memory and both processors' 4 registers.
/// The values fall with the pid, so the lowest pid's value is not the least value, nor the
/// highest pid's the largest.
/// Both read `M[0]`: EREW → `ExclusiveReadViolation{root, step 2, addr 0, pids [0,1]}`, CREW
/// reads 9 into both processors' register 1; both write it: EREW and CREW
/// → `ExclusiveWriteViolation{root, step 2, addr 0, pids [0, 1]}`; Common →
/// `CommonWriteMismatch{values [10, 9]}`; Priority → 10 (the lowest pid, netcore's rule);
/// Arbitrary without a seed → 9 (netcore's highest pid).
#[test]
fn e7_sub_model_rules() {
    let read: fn(usize) -> MemOp = |_| MemOp::Read { addr: 0, dst: 1 };
    let write: fn(usize) -> MemOp = |_| MemOp::Write { addr: 0, src: 0 };
    let cases = [
        ("erew read", Variant::Erew, read),
        ("crew read", Variant::Crew, read),
        ("erew write", Variant::Erew, write),
        ("crew write", Variant::Crew, write),
        ("common write", Variant::CrcwCommon, write),
        ("priority write", Variant::CrcwPriority, write),
        ("arbitrary write", Variant::CrcwArbitrary, write),
    ];
    let outcomes: Vec<_> = cases
        .into_iter()
        .map(|(name, variant, op)| (name, flat2(variant, op).map(|r| (r.memory, r.local))))
        .collect();
    insta::assert_debug_snapshot!(outcomes);
    // With two processors the lowest pid's value is the largest or the least one. Four
    // writing 5, 1, 9, 6 tell the pid rules from value rules: priority keeps pid 0's 5 (the
    // least is 1, the largest 9), arbitrary pid 3's 6.
    let four = |access: Variant| {
        let mut cfg = Config::new(4, 1);
        cfg.model = cfg.model.with_access(access);
        let alg = hpram::FnAlg::arc("E7 of four", |sp| {
            sp.compute(1, |p| p.local[0] = [5, 1, 9, 6][p.pid])?;
            sp.comm(|_| MemOp::Write { addr: 0, src: 0 })
        });
        run(&cfg, alg, vec![], &[9]).unwrap().memory
    };
    assert_eq!((four(Variant::CrcwPriority), four(Variant::CrcwArbitrary)), (vec![5], vec![6]));
}

/// E5: `permute` with `N' = 16`, `P' = 4`, Hypercube: `T = 0`, `C = 2r' = 8`, so
/// `2·4·(ℓ(4) + s_α(4)) = 8·(2+2) = 32`, the same PhaseRefined (`T' = 0`); Simplified
/// `8·(2 + 2·2) = 48`; TwoStage `8·2 = 16`. The word at `j` moves to `π(j) = 5j mod 16`.
#[test]
fn e5_permute() {
    let alg = hpram::FnAlg::arc("Permute", |sp| hpram::algs::permute(sp, &|j| 5 * j % 16));
    let input: Vec<i64> = (100..116).collect();
    let done = run(&Config::new(4, 16), alg, vec![], &input).unwrap();
    let mut expected = vec![0; 16];
    for (j, &x) in input.iter().enumerate() {
        expected[5 * j % 16] = x;
    }
    assert_eq!(done.memory, expected);
    insta::assert_json_snapshot!(snapshot(&done.cost, &[CUBE_NU]));
}

/// E5: BPRAM, `P = 16`, Hypercube, program `BlockRead(8)`, `c`, `BlockWrite(8)`: `T = 1`,
/// `T' = 1`, `C = 2`, `B = 8 + 8 = 16`, `ℓ(16) = s_α(16) = 4` → `1·5 + 2·8 + 16 = 37`;
/// PhaseRefined `1 + 1·4 + 2·8 + 16 = 37`; Simplified `1 + 2·12 + 16 = 41`; TwoStage
/// `1 + 2·4 + 16 = 25`.
#[test]
fn e5_bpram_blocks() {
    let mut cfg = Config::new(16, 128);
    cfg.local_words = 8;
    cfg.model = hpram::SubModel { block: true, lpram: true, ..hpram::SubModel::EREW };
    let alg = hpram::FnAlg::arc("Bpram", |sp| {
        sp.comm(|p| MemOp::BlockRead { addr: 8 * p.pid, len: 8, dst: 0 })?;
        sp.compute(1, |p| p.local.iter_mut().for_each(|x| *x += 1))?;
        sp.comm(|p| MemOp::BlockWrite { addr: 8 * p.pid, len: 8, src: 0 })
    });
    let input: Vec<i64> = (0..128).collect();
    let done = run(&cfg, alg, vec![], &input).unwrap();
    assert_eq!(done.memory, (1..129).collect::<Vec<i64>>());
    insta::assert_json_snapshot!(snapshot(&done.cost, &[CUBE_NU]));
}

/// E6 — determinacy. Uniform, `P = 2`, `M = [7, 0]`, `partition{1:A; 1:B}`; each child sets
/// register 0 (step 1), then accesses `M[0]` (step 2); A writes `M[0] ← 5`:
/// B reads `M[0]` → `AsyncCommunication{root/p0, addr 0, ReadWrite}`, first A (child 0,
/// gpid 0, step 2, wrote 5), second B (child 1, gpid 1, step 2, read the old 7); B writes 5 →
/// accepted (one shared single value), memory `[5, 0]`; B writes 6 → `WriteWrite{5, 6}`,
/// A's write of 5 and B's of 6.
#[test]
fn e6_determinacy() {
    use hpram::Part;
    let e6 = |b: MemOp, value: i64| {
        let mut cfg = Config::new(2, 2);
        cfg.memory = UNI;
        let a = hpram::FnAlg::arc("A", |sp| {
            sp.compute(1, |p| p.local[0] = 5)?;
            sp.comm(|_| MemOp::Write { addr: 0, src: 0 })
        });
        let b = hpram::FnAlg::arc("B", move |sp| {
            sp.compute(1, |p| p.local[0] = value)?;
            sp.comm(|_| b)
        });
        let root = hpram::FnAlg::arc("Root", move |sp| {
            sp.partition(vec![Part::new(1, a.clone(), vec![]), Part::new(1, b.clone(), vec![])])
        });
        run(&cfg, root, vec![], &[7, 0])
    };
    let outcomes = [
        ("B reads", e6(MemOp::Read { addr: 0, dst: 1 }, 0)),
        ("B writes 5", e6(MemOp::Write { addr: 0, src: 0 }, 5)),
        ("B writes 6", e6(MemOp::Write { addr: 0, src: 0 }, 6)),
    ]
    .map(|(name, outcome)| (name, outcome.map(|r| r.memory)));
    insta::assert_debug_snapshot!(outcomes);
}

/// I7 on the tree forms: each non-uniform run, replayed in uniform memory (global addresses
/// through `home`), passes the checker with the same memory and cost tree, for 1, 2 and 8
/// threads (which the two-level and hierarchical forms use, on sibling sub-PRAMs; the flat
/// form's 8 processors are below the 512 a step needs to run on several threads).
#[test]
fn uniform_replays_non_uniform() {
    let input: Vec<i64> = (0..64).map(|i| i * i - 50).collect();
    for form in [TreeForm::Flat, TreeForm::TwoLevel, TreeForm::Hier] {
        let non = run(&Config::new(8, 64), tree_reduce(form), vec![], &input).unwrap();
        for threads in [1, 2, 8] {
            let mut cfg = Config::new(8, 64);
            (cfg.memory, cfg.threads) = (UNI, threads);
            let uni = run(&cfg, tree_reduce(form), vec![], &input).unwrap();
            assert_eq!(uni.memory, non.memory, "{form:?}");
            assert_eq!(uni.cost, non.cost, "{form:?}");
        }
    }
}

fn prefix(form: TreeForm, procs: usize, r: usize, memory: MemoryVariant) -> hpram::Run {
    use hpram::algs::{prefix_layout, tree_prefix};
    let x: Vec<i64> = (0..(procs * r) as i64).map(|i| 3 * i - 7).collect();
    let input = prefix_layout(&x, procs);
    let mut cfg = Config::new(procs, input.len());
    (cfg.local_words, cfg.memory) = (r + 3, memory);
    cfg.model = cfg.model.with_lpram();
    run(&cfg, tree_prefix(form, r), vec![], &input).unwrap()
}

/// Tree prefix sums (`docs/models/hpram.md`, Choices: Prefix counts are ours) in every form and
/// both memory variants equal the plain Rust inclusive scan (I9), with the same cost tree in both
/// variants.
/// Counts, `P = 4`, `r = 4` (`p = 2`): the leaf up-sweep is `m^r c^{r−1} m^r m` (`T = 3`,
/// `C = 9`), the down-sweep `m m^r c^r m^r` (`T = 4`, `C = 9`); each combine or distribute
/// is `m m c m`. Flat: `T = 3 + 4 + 2p = 11`, `C = 9 + 9 + 6p = 30`, so Pram `41` and
/// Hypercube (`ℓ = s_α = 2`) `11·3 + 30·4 = 153`. Hier, Pram: leaves `12 + 13 = 25`, each of
/// the `2p` combine/distribute levels `1 + 3 = 4`: `25 + 16 = 41`.
#[test]
fn tree_prefix_forms() {
    let (procs, r) = (4, 4);
    let x: Vec<i64> = (0..16).map(|i| 3 * i - 7).collect();
    let expected: Vec<i64> =
        x.iter().scan(0i64, |acc, &v| Some(*acc + v).inspect(|s| *acc = *s)).collect();
    for form in [TreeForm::Flat, TreeForm::TwoLevel, TreeForm::Hier] {
        let non = prefix(form, procs, r, NU);
        assert_eq!(hpram::algs::prefix_output(&non.memory, procs, r), expected, "{form:?}");
        let uni = prefix(form, procs, r, UNI);
        assert_eq!(uni.memory, non.memory, "{form:?}");
        assert_eq!(uni.cost, non.cost, "{form:?}");
        assert_eq!(price(&non.cost, Preset::Pram, NU, Formula::Exact), 41, "{form:?}");
    }
    let flat = prefix(TreeForm::Flat, procs, r, NU).cost;
    assert_eq!((flat.root.t, flat.root.c), (11, 30));
    assert_eq!(price(&flat, CUBE, NU, Formula::Exact), 153);
    for (procs, r) in [(1, 3), (2, 1), (16, 2), (32, 5)] {
        let x: Vec<i64> = (0..(procs * r) as i64).map(|i| 3 * i - 7).collect();
        let expected: Vec<i64> =
            x.iter().scan(0i64, |acc, &v| Some(*acc + v).inspect(|s| *acc = *s)).collect();
        for form in [TreeForm::Flat, TreeForm::TwoLevel, TreeForm::Hier] {
            let done = prefix(form, procs, r, UNI);
            assert_eq!(hpram::algs::prefix_output(&done.memory, procs, r), expected);
        }
    }
}

/// `remap_partition` (paper Section 3.2): column sums of a 4×4 row-major matrix on `P = 4`. The
/// transpose `π(j) = (j mod 4)·4 + j div 4` makes column `i` processor `i`'s block, each
/// child (a 1-processor leaf) sums its block in place, and `π⁻¹` puts the sums back into
/// row 0. Cost: two permutes (`C = 2·2r' = 16`) at level 1 plus the leaf (`2r = 8` at `ℓ(1)`).
#[test]
fn remap_partition_column_sums() {
    use hpram::Part;
    let leaf = hpram::FnAlg::arc("ColumnSum", |sp| {
        sp.comm(|_| MemOp::Read { addr: 0, dst: 0 })?;
        for j in 1..4 {
            sp.comm(move |_| MemOp::Read { addr: j, dst: 1 })?;
            sp.compute(1, |p| p.local[0] += p.local[1])?;
        }
        sp.comm(|_| MemOp::Write { addr: 0, src: 0 })
    });
    let alg = hpram::FnAlg::arc("Columns", move |sp| {
        let parts = (0..4).map(|_| Part::new(1, leaf.clone(), vec![])).collect();
        hpram::algs::remap_partition(sp, &|j| (j % 4) * 4 + j / 4, parts)
    });
    let input: Vec<i64> = (0..16).collect();
    let done = run(&Config::new(4, 16), alg, vec![], &input).unwrap();
    assert_eq!(&done.memory[..4], &[24, 28, 32, 36]);
    assert_eq!((done.cost.root.t, done.cost.root.c), (0, 16));
    // Pram: 16 + 8 = 24; Hypercube: 16·(2+2) + 8 + s_β(4,4) = 64 + 8 + 2 = 74.
    assert_eq!(price(&done.cost, Preset::Pram, NU, Formula::Exact), 24);
    assert_eq!(price(&done.cost, CUBE, NU, Formula::Exact), 74);
}

/// The FFT's perm form (`fft_perm`), `N = 16`, `P = 4`, so `r = 4 >= P`, `p = ρ = 2`,
/// `x_i = i`. Level 1 remaps word `j = 4a + b` to `4b + a` (the transpose; `r = 4` reads and 4
/// writes per processor, `C = 8`), runs `[4 × 1: LcsGroups]` (one group of `P = 4` words each:
/// load 4, the `p = 2` cross-block stages as `p·r/2 = 4` computation steps in one phase, store
/// 4: `T = 4`, `T' = 1`, `C = 8`), remaps back (`C = 8`) and runs `[4 × 1: LCS]` (`ρ = 2`:
/// `T = 4`, `T' = 1`, `C = 8`). So the root is `T = T' = 0`, `C = 16`, and both partitions'
/// children are `T = 4`, `T' = 1`, `C = 8`.
/// Hypercube, non-uniform (`ℓ(4) = s_α(4) = 2`, `ℓ(1) = 1`, `s_α(1) = 0`, `s_β(4,4) = 2`):
/// Exact root `16·(2+2) = 64`, each child `4·1 + 8·1 = 12`, each partition `12 + 2 = 14`:
/// `64 + 14 + 14 = 92`; PhaseRefined the same (`T' = 0` at the root, `s_α(1) = 0`);
/// Simplified root `16·(2 + 2·2) = 96`, so 124; TwoStage stage1 `16·2 + 12 + 12 = 56`,
/// stage2 `2 + 2 = 4`, 60. This is `τ_hier + r(2 + 5.75p − 2.25p²) + p = 72 + 4·4.5 + 2`,
/// the hierarchical form's 72 (`tests/it/fft.rs`) plus the spec's difference.
/// Uniform (`ℓ = ℓ(4) = 2` in the children): each child `4 + 8·2 = 20`, so Exact and
/// PhaseRefined `64 + 22 + 22 = 108`, Simplified `96 + 44 = 140`, TwoStage stage1
/// `32 + 20 + 20 = 72`, stage2 4, 76. Mesh2D equals Hypercube at `P = 4` (`ℓ(4) = s_α(4) =
/// ⌈√4⌉ = 2`, `s_β(4,4) = ⌈√4⌉ = 2`). Pram: `16 + 12 + 12 = 40` under every formula. The
/// critical path is the root and the first child of each partition (all children tie).
#[test]
fn fft_perm_n16_p4() {
    use hpram::algs::{FftForm, fft, fft_output, ntt_reference};
    let mut cfg = Config::new(4, 16);
    cfg.local_words = 4;
    cfg.model = cfg.model.with_lpram();
    let input: Vec<i64> = (0..16).collect();
    let done = run(&cfg, fft(FftForm::Perm, 4), vec![], &input).unwrap();
    assert_eq!(fft_output(&done.memory), ntt_reference(&input));
    assert_eq!(hpram::count(&cfg, fft(FftForm::Perm, 4), vec![]).unwrap(), done.cost);
    insta::assert_json_snapshot!(snapshot(&done.cost, &[CUBE_NU, CUBE_UNI, MESH_NU, PRAM_NU]));
}

/// The timeline of a run (its picture): shape `cm[4:mc[2:cm|2:c]m|4:ccm]c`, `P = 8`,
/// Hypercube, Exact (the derivation is in `fixtures/hpram/shape-nested-p8-hypercube.toml`):
/// the root's partition starts after `cm` (10) and joins at 26, A's partition starts at 17
/// (`mc` = 7 after 10) and joins at 21, `s_β(2, ·) = 1`; `τ = 31`. Under every formula but
/// two-stage, and for the tree forms, the root ends at the formula's total and each node's
/// box is as long as its own price.
#[test]
fn timeline_places_partitions_among_steps() {
    let tree = shape_tree("cm[4:mc[2:cm|2:c]m|4:ccm]c", 8);
    let t = tree.timeline(&CUBE, MemoryVariant::NonUniform, Formula::Exact).expect("places");
    let spans: Vec<_> =
        t.nodes.iter().map(|n| (n.offset, n.procs, n.start, n.end, n.joined)).collect();
    assert_eq!(
        spans,
        [
            (0, 8, 0, 31, 31),
            (0, 4, 10, 26, 26),
            (0, 2, 17, 21, 21),
            (2, 2, 17, 19, 21),
            (4, 4, 10, 20, 26)
        ]
    );
    assert_eq!(t.nodes[0].steps, [(0, 10), (27, 31)]);
    assert_eq!(t.nodes[0].syncs, [(26, 27)]);
    assert_eq!(t.nodes[1].steps, [(10, 17), (22, 26)]);
    assert_eq!(t.nodes[1].syncs, [(21, 22)]);
    let trees = [
        tree,
        shape_tree("cmc[4:mcm|2:cccm|2:]m", 8),
        self::tree(TreeForm::Hier).cost,
        self::tree(TreeForm::TwoLevel).cost,
    ];
    for tree in &trees {
        for formula in [Formula::Exact, Formula::PhaseRefined, Formula::Simplified] {
            for preset in [Preset::Pram, CUBE, MESH] {
                let t = tree.timeline(&preset, MemoryVariant::NonUniform, formula).expect("places");
                assert_eq!(t.nodes.len() as u128, tree.sub_prams());
                assert_eq!(t.nodes[0].end, price(tree, preset, MemoryVariant::NonUniform, formula));
            }
        }
    }
}

/// `--svg` refuses a run it cannot draw: 256 processors before the run, a cost past 2000
/// units after it (flat tree reduction of `N = 4096` on 4 processors, `T > 1024`), and the
/// two-stage formula; the limits are in the messages.
#[test]
fn picture_refuses_what_it_cannot_draw() {
    use netcore::study::{ConfigFile, Model};
    let draw = |text: &str| {
        hpram::driver::Hpram
            .run_pictured(&ConfigFile::new(text, std::path::Path::new(".")))
            .map(|_| ())
    };
    let e =
        draw("algorithm = \"tree-reduce\"\nform = \"flat\"\nprocs = 256\nn = 256\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "procs is too large: the run needs 256 lanes to draw (a picture holds 128 lanes x 2000 steps), the limit is 128"
    );
    let e =
        draw("algorithm = \"tree-reduce\"\nform = \"flat\"\nprocs = 4\nn = 4096\n").unwrap_err();
    assert!(e.to_string().starts_with("tau is too large"), "{e}");
    assert!(e.to_string().ends_with("the limit is 2000"), "{e}");
    let e = draw("algorithm = \"alg1\"\nprocs = 16\nformula = \"two-stage\"\n").unwrap_err();
    assert!(e.to_string().contains("formula"), "{e}");
    assert_eq!(e.fault(), netcore::fault::Fault::Input);
    draw("algorithm = \"alg1\"\nprocs = 16\n").unwrap();
    // A library program's S_max is read from its [pram] table before the run (before, the
    // whole flat H-PRAM run of prefix sums on 2^16 PPUs ran first, then was refused), naming
    // the [pram] key that sets it, not `procs`, which a library config does not give.
    let e = draw("algorithm = \"library\"\n[pram]\nprogram = \"prefix-sums\"\nn = 65536\n")
        .unwrap_err();
    assert!(e.to_string().starts_with("pram.n is too large: the run needs 65536 lanes"), "{e}");
}
