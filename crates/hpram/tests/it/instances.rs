//! The LPRAM, BPRAM and Gibbons' APRAM as H-PRAM instances (paper Section 2.4): each instance's
//! H-PRAM cost equals the model's own cost formula, computed here by hand.

use std::sync::Arc;

use hpram::instances::{
    LpramCost, LpramStep, gibbons_all, gibbons_subset, lpram_two_level, one_level,
    uneven_local_work,
};
use hpram::{
    Accessor, AsyncKind, Config, CostModel, CostTree, FnAlg, Formula, HAlgorithm, HpramError,
    MemOp, MemoryVariant, Preset, SyncScale, run,
};
use proptest::prelude::*;

const CUBE: Preset = Preset::Hypercube(SyncScale::Diam);

/// Every formula's total, and TwoStage's two stages, as one line.
fn all_formulas(tree: &CostTree, model: &dyn CostModel, variant: MemoryVariant) -> String {
    let total = |f| tree.eval(model, variant, f).expect("prices").total;
    let two = tree.eval(model, variant, Formula::TwoStage).expect("prices");
    format!(
        "exact {}, phase-refined {}, simplified {}, two-stage {} (stage1 {}, stage2 {})",
        total(Formula::Exact),
        total(Formula::PhaseRefined),
        total(Formula::Simplified),
        two.total,
        two.stage1,
        two.stage2
    )
}

/// The LPRAM's tree sum of `N = P·r` words: a local phase summing each processor's block into
/// its first word, then `log₂P` global rounds (read the partner's sum, add, write).
fn lpram_sum(procs: usize) -> Vec<LpramStep> {
    let leaf = FnAlg::arc("LocalSum", |sp| {
        let r = sp.mem_len();
        sp.comm(|_| MemOp::Read { addr: 0, dst: 0 })?;
        for j in 1..r {
            sp.comm(move |_| MemOp::Read { addr: j, dst: 1 })?;
            sp.compute(1, |p| p.local[0] += p.local[1])?;
        }
        sp.comm(|_| MemOp::Write { addr: 0, src: 0 })
    });
    let mut steps = vec![LpramStep::Local(leaf)];
    let mut span = 2;
    while span <= procs {
        let active = move |pid: usize| pid.is_multiple_of(span);
        steps.push(LpramStep::Comm(Arc::new(move |p| match active(p.pid) {
            true => MemOp::Read { addr: (p.pid + span / 2) * 4, dst: 1 },
            false => MemOp::Idle,
        })));
        steps.push(LpramStep::Compute(
            1,
            Arc::new(move |p| {
                if active(p.pid) {
                    p.local[0] += p.local[1];
                }
            }),
        ));
        steps.push(LpramStep::Comm(Arc::new(move |p| match active(p.pid) {
            true => MemOp::Write { addr: p.pid * 4, src: 0 },
            false => MemOp::Idle,
        })));
        span *= 2;
    }
    steps
}

/// LPRAM (a), the two-level non-uniform H-PRAM: the tree sum with `P = 4`, `r = 4`,
/// latency `L = 5`, under [`LpramCost`] (`ℓ(1) = 1`, `ℓ(4) = 5`, no synchronisation cost).
///
/// The LPRAM's own cost: the local phase is `r` private reads and `r − 1` additions and one
/// private write, `2r = 8` unit operations; each of the `p = 2` global rounds is a global read
/// (`L`), an addition (1) and a global write (`L`): `2·(5 + 1 + 5) = 22`; total 30.
/// The H-PRAM's: the 1-processor children `m (m c)^3 m`, `T = 3`, `C = 5` at `ℓ(1) = 1`: 8; the
/// root `T = 2`, `C = 4` at `ℓ(4) = 5`: `2 + 20 = 22`; `s_α = s_β = 0`, so every formula gives
/// 30 (TwoStage: stage1 30, stage2 0).
#[test]
fn lpram_two_level_tree_sum() {
    let (procs, r, latency) = (4u64, 4u64, 5u64);
    let input: Vec<i64> = (0..16).collect();
    let done = run(&Config::new(4, 16), lpram_two_level(lpram_sum(4)), vec![], &input).unwrap();
    assert_eq!(done.memory[0], 120);
    let lpram_cost = 2 * r + procs.ilog2() as u64 * (latency + 1 + latency);
    let model = LpramCost { latency };
    assert_eq!(
        done.cost.eval(&model, MemoryVariant::NonUniform, Formula::Exact).expect("prices").total,
        lpram_cost
    );
    insta::assert_snapshot!(
        all_formulas(&done.cost, &model, MemoryVariant::NonUniform),
        @"exact 30, phase-refined 30, simplified 30, two-stage 30 (stage1 30, stage2 0)"
    );
}

#[derive(Debug, Clone)]
enum Step {
    Comm,
    Compute(u32),
    Local(u32, usize),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        Just(Step::Comm),
        (1u32..4).prop_map(Step::Compute),
        (0u32..4, 0usize..3).prop_map(|(t, c)| Step::Local(t, c)),
    ]
}

proptest! {
    /// LPRAM (a) on random programs: the H-PRAM cost under [`LpramCost`] is, under every
    /// formula, the LPRAM's `Σ_Comm L + Σ_Compute k + Σ_Local max_g (T_g + C_g)`.
    #[test]
    fn lpram_two_level_cost_is_lprams(
        procs in 2usize..9,
        latency in 1u64..10,
        program in proptest::collection::vec(step(), 0..8),
    ) {
        let steps: Vec<LpramStep> = program
            .iter()
            .map(|s| match *s {
                Step::Comm => {
                    LpramStep::Comm(Arc::new(|p| MemOp::Read { addr: 2 * p.pid, dst: 1 }))
                }
                Step::Compute(k) => LpramStep::Compute(k, Arc::new(|p| p.local[0] += 1)),
                Step::Local(t, c) => LpramStep::Local(uneven_local_work(t, c)),
            })
            .collect();
        let lpram: u64 = program
            .iter()
            .map(|s| match *s {
                Step::Comm => latency,
                Step::Compute(k) => u64::from(k),
                Step::Local(t, c) => (0..procs)
                    .map(|g| u64::from(t) + (g % 3) as u64 + (c + g % 2) as u64)
                    .max()
                    .unwrap_or(0),
            })
            .sum();
        let done = run(&Config::new(procs, 2 * procs), lpram_two_level(steps), vec![], &[])
            .unwrap();
        for formula in Formula::ALL {
            let eval = done.cost.eval(&LpramCost { latency }, MemoryVariant::NonUniform, formula).expect("prices");
            prop_assert_eq!(eval.total, lpram, "{:?}", formula);
        }
    }
}

/// Gibbons phase: processor `g` computes `g + 1` steps (`local[0] = 10 + g`), then writes cell
/// `g`.
fn write_own() -> Arc<dyn HAlgorithm> {
    FnAlg::arc("WriteOwn", |sp| {
        let g = usize::try_from(sp.params()[0]).expect("a processor id");
        let value = 10 + sp.params()[0];
        sp.compute(g as u32 + 1, move |p| p.local[0] = value)?;
        sp.comm(move |_| MemOp::Write { addr: g, src: 0 })
    })
}

/// Gibbons phase: processor `g` reads cell `partner(g)`, doubles it, writes cell `4 + g`.
fn pass_on(partner: fn(usize) -> usize) -> Arc<dyn HAlgorithm> {
    FnAlg::arc("PassOn", move |sp| {
        let g = usize::try_from(sp.params()[0]).expect("a processor id");
        sp.comm(move |_| MemOp::Read { addr: partner(g), dst: 1 })?;
        sp.compute(1, |p| p.local[0] = 2 * p.local[1])?;
        sp.comm(move |_| MemOp::Write { addr: 4 + g, src: 0 })
    })
}

fn uniform(procs: usize, words: usize) -> Config {
    let mut cfg = Config::new(procs, words);
    cfg.memory = MemoryVariant::Uniform;
    cfg
}

/// Gibbons' APRAM, all-processor synchronisation, `P = 4`, as the two-level uniform H-PRAM on
/// the hypercube (`d = ℓ(4) = 2`, barrier `B(4) = s_β(4,4) = 2`, `s_α(1) = 0`).
///
/// Gibbons' own cost `Σ_k [max_g (t_g + d·c_g) + B(P)]`: phase 1 (`WriteOwn`: `t_g = g + 1`,
/// `c_g = 1`): `max_g (g + 1 + 2) = 6`, plus 2 → 8; phase 2 (`PassOn`: `t = 1`, `c = 2`):
/// `1 + 4 = 5`, plus 2 → 7; total 15.
/// The H-PRAM's: a 1-processor child costs `T + C·ℓ(4)` (uniform memory, `s_α(1) = 0`), each
/// partition its costliest child plus `s_β(4,4) = 2`: 8 + 7 = 15 under every formula
/// (TwoStage: stage1 `6 + 5 = 11`, stage2 `2 + 2 = 4`). Processor `g` reads cell `g + 1 mod 4`,
/// written in the previous phase (a barrier separates them), so the memory is
/// `[10, 11, 12, 13, 22, 24, 26, 20]`.
#[test]
fn gibbons_all_costs() {
    let alg = gibbons_all(vec![write_own(), pass_on(|g| (g + 1) % 4)]);
    let done = run(&uniform(4, 8), alg, vec![], &[]).unwrap();
    assert_eq!(done.memory, [10, 11, 12, 13, 22, 24, 26, 20]);
    let (d, barrier) = (CUBE.latency(4, 1), CUBE.beta_sync(4, 4, 1));
    let phase1 = (0..4).map(|g| g + 1 + d).max().unwrap() + barrier;
    let phase2 = 1 + 2 * d + barrier;
    let apram = phase1 + phase2;
    assert_eq!(
        done.cost.eval(&CUBE, MemoryVariant::Uniform, Formula::Exact).expect("prices").total,
        apram
    );
    insta::assert_snapshot!(
        all_formulas(&done.cost, &CUBE, MemoryVariant::Uniform),
        @"exact 15, phase-refined 15, simplified 15, two-stage 15 (stage1 11, stage2 4)"
    );
}

/// Gibbons' rule (communicating processors are separated by a synchronisation), enforced by the
/// checker: in one phase processor `g` writes cell `g` (its step 1) and then reads cell
/// `g + 1 mod 4` (step 2). The smallest conflicting cell is 0, written by child 0 (value 0) and
/// read by child 3 (value 7, the memory at the phase's start): `ReadWrite` at `root/p0`.
/// With the read in the next phase the same program is accepted.
#[test]
fn gibbons_rule_is_enforced() {
    let race = FnAlg::arc("Race", |sp| {
        let g = usize::try_from(sp.params()[0]).expect("a processor id");
        sp.comm(move |_| MemOp::Write { addr: g, src: 0 })?;
        sp.comm(move |_| MemOp::Read { addr: (g + 1) % 4, dst: 1 })
    });
    let err = run(&uniform(4, 8), gibbons_all(vec![race]), vec![], &[7; 4]).unwrap_err();
    assert_eq!(
        err,
        HpramError::AsyncCommunication {
            partition_path: "root/p0".into(),
            addr: 0,
            kind: AsyncKind::ReadWrite,
            first: Accessor { child: 0, gpid: 0, step: 1, value: 0 },
            second: Accessor { child: 3, gpid: 3, step: 2, value: 7 },
        }
    );
    let alg = gibbons_all(vec![write_own(), pass_on(|g| (g + 1) % 4)]);
    assert!(run(&uniform(4, 8), alg, vec![], &[7; 4]).is_ok());
}

/// Gibbons' APRAM, subset synchronisation, as the three-level uniform H-PRAM on the hypercube
/// (`d = ℓ(4) = 2`): group 0 (processors 0, 1) runs `WriteOwn` then `PassOn` with its partner
/// `g xor 1`; group 1 (processors 2, 3) runs `WriteOwn` only. Barriers of a group of 2 cost
/// `B(2) = s_β(2,2) = 1`, the final join of the 2 groups `s_β(2,4) = 1`.
///
/// Gibbons' own cost `max_groups Σ_k [max_g (t + d·c) + B(P_g)] + B(G)`: group 0:
/// `WriteOwn` `max(1, 2) + 2 + 1 = 5`, `PassOn` `1 + 4 + 1 = 6` → 11; group 1: `WriteOwn`
/// `max(3, 4) + 2 + 1 = 7`; `max(11, 7) + 1 = 12` under every formula (TwoStage: stage1
/// `max(4 + 5, 6) = 9`, stage2 `max(1 + 1, 1) + 1 = 3`).
#[test]
fn gibbons_subset_costs() {
    let groups = vec![(2, vec![write_own(), pass_on(|g| g ^ 1)]), (2, vec![write_own()])];
    let done = run(&uniform(4, 8), gibbons_subset(groups), vec![], &[]).unwrap();
    assert_eq!(done.memory, [10, 11, 12, 13, 22, 20, 0, 0]);
    assert_eq!(done.cost.root.depth(), 3);
    let d = CUBE.latency(4, 1);
    let b = |p: u64| CUBE.beta_sync(p, p, 1);
    let group0 = (2 + d + b(2)) + (1 + 2 * d + b(2));
    let group1 = 4 + d + b(2);
    let apram = group0.max(group1) + CUBE.beta_sync(2, 4, 1);
    assert_eq!(
        done.cost.eval(&CUBE, MemoryVariant::Uniform, Formula::Exact).expect("prices").total,
        apram
    );
    insta::assert_snapshot!(
        all_formulas(&done.cost, &CUBE, MemoryVariant::Uniform),
        @"exact 12, phase-refined 12, simplified 12, two-stage 12 (stage1 9, stage2 3)"
    );
    // A group that reads what another group writes without a common barrier is rejected at the
    // level-1 partition, where the two groups are siblings.
    let groups = vec![(2, vec![write_own()]), (2, vec![pass_on(|_| 0)])];
    let err = run(&uniform(4, 8), gibbons_subset(groups), vec![], &[]).unwrap_err();
    assert!(
        matches!(&err, HpramError::AsyncCommunication { partition_path, addr: 0, .. } if partition_path == "root/p0"),
        "{err}"
    );
}

/// LPRAM (b) and BPRAM as one-level uniform H-PRAMs (CREW, LPRAM local memory), `P = 4`,
/// `r = 8`, latency `L = 5`: each processor brings its block of 8 words into local memory, sums
/// it in one phase of 7 additions, and writes the sum to its block's first word.
///
/// LPRAM, word by word: 8 global reads `8L = 40`, 7 local operations, 1 global write `L = 5`:
/// 52. The H-PRAM: `T = 7`, `C = 9` at `ℓ(4) = 5`, `s_α = 0`: `7 + 45 = 52`.
/// BPRAM, blocks: a block read of 8 words `L + 8 = 13`, 7 local operations, a block write of 1
/// word `L + 1 = 6`: 26. The H-PRAM: `T = 7`, `C = 2`, `B = 8 + 1 = 9`: `7 + 10 + 9 = 26`.
#[test]
fn lpram_bpram_one_level() {
    let (latency, r) = (5u64, 8usize);
    let input: Vec<i64> = (0..32).collect();
    let sum = move |p: &mut hpram::Proc<'_>| p.local[0] = p.local[..r].iter().sum();
    let words = FnAlg::arc("Words", move |sp| {
        for k in 0..r {
            sp.comm(move |p| MemOp::Read { addr: r * p.pid + k, dst: k })?;
        }
        sp.compute(7, sum)?;
        sp.comm(move |p| MemOp::Write { addr: r * p.pid, src: 0 })
    });
    let blocks = FnAlg::arc("Blocks", move |sp| {
        sp.comm(move |p| MemOp::BlockRead { addr: r * p.pid, len: r, dst: 0 })?;
        sp.compute(7, sum)?;
        sp.comm(move |p| MemOp::BlockWrite { addr: r * p.pid, len: 1, src: 0 })
    });
    let model = LpramCost { latency };
    let mut lines = Vec::new();
    for (alg, bpram, own) in [(words, false, 8 * latency + 7 + latency), (blocks, true, 26)] {
        let done = run(&one_level(4, 32, r, bpram), alg, vec![], &input).unwrap();
        let sums: Vec<i64> = (0..4).map(|i| done.memory[r * i]).collect();
        assert_eq!(sums, [28, 92, 156, 220]);
        assert_eq!(
            done.cost.eval(&model, MemoryVariant::Uniform, Formula::Exact).expect("prices").total,
            own
        );
        lines.push(all_formulas(&done.cost, &model, MemoryVariant::Uniform));
    }
    insta::assert_snapshot!(lines.join("\n"), @r"
    exact 52, phase-refined 52, simplified 52, two-stage 52 (stage1 52, stage2 0)
    exact 26, phase-refined 26, simplified 26, two-stage 26 (stage1 26, stage2 0)
    ");
}
