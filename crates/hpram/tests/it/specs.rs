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
    tree.eval(&preset, variant, formula).total
}

fn shape_tree(shape: &str, procs: usize) -> CostTree {
    let shape = Shape::parse(shape).expect("shape parses");
    run(&Config::new(procs, procs), Arc::new(shape), vec![], &[]).expect("shape runs").cost
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
#[test]
fn e1_cost_recursion() {
    let tree = shape_tree("cmc[4:mcm|2:cccm|2:]m", 8);
    let root = &tree.root;
    assert_eq!((root.t, root.t_phases, root.c), (2, 2, 2));
    assert_eq!(price(&tree, CUBE, NU, Formula::Exact), 33);
    assert_eq!(price(&tree, CUBE, NU, Formula::PhaseRefined), 33);
    assert_eq!(price(&tree, CUBE, NU, Formula::Simplified), 35);
    let two = tree.eval(&CUBE, NU, Formula::TwoStage);
    assert_eq!((two.stage1, two.stage2, two.total), (13, 2, 15));
    assert_eq!(price(&tree, CUBE, UNI, Formula::Exact), 35);
    assert_eq!(price(&tree, MESH, NU, Formula::Exact), 36);
    assert_eq!(price(&tree, Preset::Pram, NU, Formula::Exact), 8);
    let exact = tree.eval(&CUBE, NU, Formula::Exact);
    assert_eq!(exact.critical_path, ["root", "root/p0[0]"]);
    let rows: u64 =
        exact.per_level.iter().map(|r| r.compute + r.latency + r.alpha + r.beta + r.block).sum();
    assert_eq!(rows, exact.total);
}

fn alg1(procs: usize) -> Result<CostTree, HpramError> {
    Ok(run(&Config::new(procs, 2 * procs), Arc::new(Alg1), vec![], &[])?.cost)
}

/// E2: `Alg1`. Leaves cost 0, so `τ(Alg1(8)) = s_β(4,8)` and
/// `τ(Alg1(P')) = τ(Alg1(P'/2)) + s_β(2,P')`. Hypercube: `P=16`: `⌈log₂4⌉ + ⌈log₂2⌉ = 2+1 = 3`;
/// `P=32`: 4. Mesh2D: `P=16`: `⌈√8⌉ + ⌈√16⌉ = 3 + 4 = 7`; `P=32`: `7 + ⌈√32⌉ = 13`. Pram 0.
/// No communication steps, so both variants agree.
#[test]
fn e2_alg1_costs() {
    for (procs, cube, mesh, subprams, depth) in [(16, 3, 7, 11, 3), (32, 4, 13, 23, 4)] {
        let tree = alg1(procs).unwrap();
        assert_eq!((tree.sub_prams(), tree.root.depth()), (subprams, depth));
        for variant in [NU, UNI] {
            assert_eq!(price(&tree, CUBE, variant, Formula::Exact), cube);
            assert_eq!(price(&tree, MESH, variant, Formula::Exact), mesh);
            assert_eq!(price(&tree, Preset::Pram, variant, Formula::Exact), 0);
        }
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
            got: 11,
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
/// - flat: `T = r−1+p = 5`, `C = r+1+2p = 9` → `5·3 + 9·4 = 51`.
/// - two-level: leaves `T=3, C=5` at `ℓ(1)=1, s_α(1)=0` → 8; `s_β(4,4) = 2`; root
///   `T=2, C=4` → `2·3 + 4·4 = 22`: `8 + 2 + 22 = 32`.
/// - hier: level `2^k` costs `1 + 2ℓ + 3s_α + s_β(2,2^k)`: `8 + (1+2+3+1) + (1+4+6+1) = 27`.
/// - hier, uniform: `ℓ = ℓ(4) = 2` everywhere: leaf `3 + 5·2 = 13`, levels `1+4+3+1 = 9` and
///   `1+4+6+1 = 12` → 34.
/// - Pram: `T + C` along the chain = 14 for every form.
/// - Mesh2D hier: `ℓ(2)=s_α(2)=⌈√2⌉=2`, `s_β(2,2)=2`, `s_β(2,4)=2`: `8 + 13 + 13 = 34`.
#[test]
fn e3_tree_reduction() {
    let expect = [(TreeForm::Flat, 51), (TreeForm::TwoLevel, 32), (TreeForm::Hier, 27)];
    for (form, cube) in expect {
        let done = tree(form);
        assert_eq!(done.memory[0], 120, "{form:?}");
        assert_eq!(price(&done.cost, CUBE, NU, Formula::Exact), cube, "{form:?}");
        assert_eq!(price(&done.cost, Preset::Pram, NU, Formula::Exact), 14, "{form:?}");
    }
    let flat = tree(TreeForm::Flat).cost.root;
    assert_eq!((flat.t, flat.t_phases, flat.c), (5, 5, 9));
    let hier = tree(TreeForm::Hier).cost;
    assert_eq!(price(&hier, CUBE, UNI, Formula::Exact), 34);
    assert_eq!(price(&hier, MESH, NU, Formula::Exact), 34);
    assert_eq!(hier.sub_prams(), 7);
}

/// E4: shape `ccccc`, `P = 4`, Hypercube: `T = 5`, `C = 0`, `T' = 1`. Exact `5·(1+2) = 15`,
/// PhaseRefined `5 + 1·2 = 7`, Simplified `5 + 0 = 5 < 7`: the paper's `T' <= C` fails.
#[test]
fn e4_simplification_underestimates() {
    let tree = shape_tree("ccccc", 4);
    assert_eq!(price(&tree, CUBE, NU, Formula::Exact), 15);
    assert_eq!(price(&tree, CUBE, NU, Formula::PhaseRefined), 7);
    assert_eq!(price(&tree, CUBE, NU, Formula::Simplified), 5);
}

fn flat2(access: Variant, op: fn(usize) -> MemOp) -> Result<hpram::Run, HpramError> {
    let mut cfg = Config::new(2, 1);
    cfg.model = cfg.model.with_access(access);
    let alg = hpram::FnAlg::arc("E7", move |sp| {
        sp.compute(1, |p| p.local[0] = 3 + p.pid as i64)?;
        sp.comm(|p| op(p.pid))
    });
    run(&cfg, alg, vec![], &[])
}

/// E7: flat `P = 2`. Both read `M[0]`: EREW → `ExclusiveReadViolation{addr 0, pids [0,1]}`,
/// CREW is fine; both write it: EREW and CREW → `ExclusiveWriteViolation`. Processors 0 and 1
/// write 3 and 4: Common → `CommonWriteMismatch`, Priority → 3 (netcore's rules).
#[test]
fn e7_sub_model_rules() {
    let read = |_| MemOp::Read { addr: 0, dst: 1 };
    let write = |_| MemOp::Write { addr: 0, src: 0 };
    assert_eq!(
        flat2(Variant::Erew, read).unwrap_err(),
        HpramError::ExclusiveReadViolation { path: "root".into(), step: 2, addr: 0, pids: [0, 1] }
    );
    assert!(flat2(Variant::Crew, read).is_ok());
    for exclusive in [Variant::Erew, Variant::Crew] {
        assert_eq!(
            flat2(exclusive, write).unwrap_err(),
            HpramError::ExclusiveWriteViolation {
                path: "root".into(),
                step: 2,
                addr: 0,
                pids: [0, 1]
            }
        );
    }
    assert_eq!(
        flat2(Variant::CrcwCommon, write).unwrap_err(),
        HpramError::CommonWriteMismatch {
            path: "root".into(),
            step: 2,
            addr: 0,
            pids: [0, 1],
            values: [3, 4]
        }
    );
    assert_eq!(flat2(Variant::CrcwPriority, write).unwrap().memory, [3]);
    assert_eq!(flat2(Variant::CrcwArbitrary, write).unwrap().memory, [4]);
}

/// E5: `permute` with `N' = 16`, `P' = 4`, Hypercube: `T = 0`, `C = 2r' = 8`, so
/// `2·4·(ℓ(4) + s_α(4)) = 8·(2+2) = 32`. The word at `j` moves to `π(j) = 5j mod 16`.
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
    assert_eq!((done.cost.root.t, done.cost.root.c), (0, 8));
    assert_eq!(price(&done.cost, CUBE, NU, Formula::Exact), 32);
}

/// E5: BPRAM, `P = 16`, Hypercube, program `BlockRead(8)`, `c`, `BlockWrite(8)`: `T = 1`,
/// `C = 2`, `B = 8 + 8 = 16`, `ℓ(16) = s_α(16) = 4` → `1·5 + 2·8 + 16 = 37`.
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
    let root = &done.cost.root;
    assert_eq!((root.t, root.c, root.b), (1, 2, 16));
    assert_eq!(price(&done.cost, CUBE, NU, Formula::Exact), 37);
}

/// E6 — determinacy. Uniform, `P = 2`, `partition{1:A; 1:B}`, A writes `M[0] ← 5`:
/// B reads `M[0]` → `AsyncCommunication{root/p0, addr 0, ReadWrite}`; B writes 5 → accepted
/// (one shared single value); B writes 6 → `WriteWrite{5, 6}`.
#[test]
fn e6_determinacy() {
    use hpram::{Accessor, AsyncKind, Part};
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
    let accessor = |child, gpid, value| Accessor { child, gpid, step: 2, value };
    assert_eq!(
        e6(MemOp::Read { addr: 0, dst: 1 }, 0).unwrap_err(),
        HpramError::AsyncCommunication {
            partition_path: "root/p0".into(),
            addr: 0,
            kind: AsyncKind::ReadWrite,
            first: accessor(0, 0, 5),
            second: accessor(1, 1, 7),
        }
    );
    assert_eq!(e6(MemOp::Write { addr: 0, src: 0 }, 5).unwrap().memory, [5, 0]);
    assert_eq!(
        e6(MemOp::Write { addr: 0, src: 0 }, 6).unwrap_err(),
        HpramError::AsyncCommunication {
            partition_path: "root/p0".into(),
            addr: 0,
            kind: AsyncKind::WriteWrite { v1: 5, v2: 6 },
            first: accessor(0, 0, 5),
            second: accessor(1, 1, 6),
        }
    );
}

/// I7 on the tree forms: each non-uniform run, replayed in uniform memory (global addresses
/// through `home`), passes the checker with the same memory and cost tree, for 1, 2 and 8
/// threads.
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
