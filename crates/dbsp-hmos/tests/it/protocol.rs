//! The access protocol as a PRAM back end against the reference array, on random steps.

use std::collections::{BTreeMap, BTreeSet};

use dbsp_hmos::hmos::k_max;
use dbsp_hmos::limits::supersteps_per_step;
use dbsp_hmos::protocol::{Delivery, HmosMemory, Selection};
use netcore::bsp::DbspParams;
use netcore::pram::{Access, AccessKind, ArrayMemory, FetchOp, GlobalMemory};
use netcore::rng::seeded;
use proptest::prelude::*;
use rand::seq::SliceRandom;

/// One random step: (kind 0 read / 1 write / 2 fetch-add, accesses as (addr seed, value)).
type Step = (u8, Vec<(u64, i64)>);

/// A contract-respecting step: sorted by pid, addresses below `size`, at most one write or
/// fetch per address (duplicates dropped), any number of reads per address.
fn accesses(step: &Step, size: u64, hot: bool) -> Vec<Access> {
    let (kind, raw) = step;
    let kind = match kind % 3 {
        0 => AccessKind::Read,
        1 => AccessKind::Write,
        _ => AccessKind::Fetch(FetchOp::Add),
    };
    let mut seen: Vec<u64> = Vec::new();
    let mut out = Vec::new();
    for (pid, &(a, value)) in (0..).zip(raw) {
        let addr = if hot { a % 3 } else { a % size };
        if kind != AccessKind::Read {
            if seen.contains(&addr) {
                continue;
            }
            seen.push(addr);
        }
        out.push(Access { pid, kind, addr, value });
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every read and fetch returns what the reference array returns, and the contents agree
    /// after every step, for n in {8, 64}, every k <= k_max(n), r in {1, 3, 5}, naive or
    /// culled selection (every level; the last culling forced at its final round) and staged,
    /// two-phase or greedy delivery; every step takes at most the supersteps the memory
    /// estimate prices its ledger with (`limits::supersteps_per_step`).
    #[test]
    fn protocol_equals_reference(
        big in any::<bool>(),
        k_pick in any::<u32>(),
        delivery in prop_oneof![
            Just(Delivery::Staged), Just(Delivery::TwoPhase), Just(Delivery::Greedy)
        ],
        r_index in 0_usize..3,
        double in any::<bool>(),
        hot in any::<bool>(),
        seed in any::<u64>(),
        cull in 0_u8..4,
        steps in prop::collection::vec(
            (0_u8..3, prop::collection::vec((any::<u64>(), -50_i64..50), 1..20)), 1..6),
    ) {
        let n: u32 = if big { 64 } else { 8 };
        let k = k_pick % (k_max(u64::from(n)) + 1);
        let r = [1, 3, 5][r_index];
        let size = if double { 2 * u64::from(n) } else { u64::from(n) };
        let input: Vec<i64> = (0..size as i64).map(|i| i * 7 % 11).collect();
        let params = DbspParams::power_law(n, 0.5, 0.5).unwrap();
        let selection = match cull {
            0 => Selection::Naive,
            1 => Selection::Cull { a: 0.5, eps: 0.5 },
            2 => Selection::Cull { a: 2.0, eps: 0.3 },
            _ => Selection::Cull { a: 1e-6, eps: 0.01 },
        };
        let mut hmos = HmosMemory::new(params, size, &input, r, k, seed, selection)
            .unwrap()
            .with_delivery(delivery);
        let mut array = ArrayMemory::new(size as usize, &input).unwrap();
        for (g, step) in (1..).zip(&steps) {
            let mut a = accesses(step, size, hot);
            let mut b = a.clone();
            hmos.step(g, &mut a);
            array.step(g, &mut b);
            prop_assert!(hmos.error().is_none(), "{:?}", hmos.error());
            prop_assert_eq!(a, b);
            prop_assert_eq!(hmos.contents(), array.contents());
        }
        prop_assert!(hmos.ledger().records.iter().filter_map(|r| r.level).all(|l| l <= n.ilog2()));
        let bound = steps.len() as u64 * supersteps_per_step(n, k);
        prop_assert!(hmos.ledger().supersteps() as u64 <= bound, "{} > {bound}", hmos.ledger().supersteps());
    }
}

/// E8 (the back end's part), k = 0, n = 8, m = 16: step 1 writes 100 + p to address p for
/// p < 4 (the interpreter has already resolved P0..P3 as the winners of `p mod 4`); step 2,
/// P_p reads p mod 4: [100, 101, 102, 103, 100, 101, 102, 103]; step 3 reads address 0 (100)
/// and step 4 writes 7 to it (the back end serves one kind of access per step; the order of a
/// read and a write in one PRAM step is the interpreter's, checked by
/// `e8_through_the_interpreter`); step 5 reads 7. The memory then holds [7, 101, 102, 103]
/// and zeros up to 16. The reads and the contents are the snapshot.
#[test]
fn e8_semantics() {
    let params = DbspParams::power_law(8, 0.5, 0.5).unwrap();
    let mut m =
        HmosMemory::new(params, 16, &[], 3, 0, 1, Selection::Cull { a: 0.5, eps: 0.5 }).unwrap();
    let write =
        |pid: u32, addr: u64, value: i64| Access { pid, kind: AccessKind::Write, addr, value };
    let read = |pid: u32, addr: u64| Access { pid, kind: AccessKind::Read, addr, value: 0 };
    let mut s1: Vec<Access> = (0..4).map(|p| write(p, u64::from(p), 100 + i64::from(p))).collect();
    m.step(1, &mut s1);
    let mut s2: Vec<Access> = (0..8).map(|p| read(p, u64::from(p % 4))).collect();
    m.step(2, &mut s2);
    let got: Vec<i64> = s2.iter().map(|a| a.value).collect();
    assert_eq!(got, vec![100, 101, 102, 103, 100, 101, 102, 103]);
    let mut s3r = vec![read(1, 0)];
    m.step(3, &mut s3r);
    assert_eq!(s3r[0].value, 100);
    let mut s3w = vec![write(0, 0, 7)];
    m.step(4, &mut s3w);
    let mut s4 = vec![read(1, 0)];
    m.step(5, &mut s4);
    assert_eq!(s4[0].value, 7);
    assert!(m.error().is_none());
    let reads = serde_json::json!({
        "step2": got,
        "step3_read": s3r[0].value,
        "step4_read": s4[0].value,
        "contents": m.contents(),
    });
    insta::assert_yaml_snapshot!("e8_semantics", reads);
}

/// E8 through netcore's interpreter: a concurrent-write program run by `netcore::pram`'s
/// interpreter with `HmosMemory` (n = 8, k = 0, r = 3, culling) as its global memory, so the
/// interpreter resolves the writes by its variant's policy and the back end sees the result.
/// 8 PPUs, 24 cells, cells 4..7 start at 10, 20, 30, 40, the rest at 0. P_p (a = p mod 4):
/// writes 100 + p to cell a (8 writers on 4 cells), reads cell a, writes what it read to
/// cell 8 + p; under `crcw-fetch-add` it also fetch-adds p to cell 4 + a and writes the
/// fetched value to cell 16 + p. By hand:
/// - `crcw-arbitrary` (the highest pid wins): cell a = 100 + (a + 4) = 104..107, and cells
///   8..15 read 104, 105, 106, 107, 104, 105, 106, 107;
/// - `crcw-priority` (the lowest pid wins): cells 0..3 = 100..103, cells 8..15 = 100..103
///   twice;
/// - `crcw-fetch-add`: a write folds the written values, cell a = (100 + a) + (104 + a) =
///   204, 206, 208, 210, read back into cells 8..15 twice; the fetch-add on cell 4 + a
///   (old value 10 (a + 1)) gives P_a the old value and P_(a+4) the old value plus a:
///   cells 16..23 = 10, 20, 30, 40, 10, 21, 32, 43, and cell 4 + a ends at
///   10 (a + 1) + a + (a + 4) = 14, 26, 38, 50;
/// - under the other two, cells 4..7 keep 10, 20, 30, 40 and cells 16..23 stay 0.
///
/// Each final memory equals the reference interpreter's (`netcore::pram::run` on an array);
/// the snapshot is the three final memories.
#[test]
fn e8_through_the_interpreter() {
    use netcore::pram::{Limits, NoTrace, Op, ProgramBuilder, Variant, r, run, run_with};
    let mut input = vec![0_i64; 24];
    input[4..8].copy_from_slice(&[10, 20, 30, 40]);
    let mut finals = BTreeMap::new();
    for variant in
        [Variant::CrcwArbitrary, Variant::CrcwPriority, Variant::CrcwFetchOp(FetchOp::Add)]
    {
        let mut b = ProgramBuilder::new(variant, 24, 8);
        b.active(8).p_pid(r(0)).p_op(Op::Mod, r(1), r(0), 4).p_op(Op::Add, r(2), r(0), 100);
        b.p_write(r(1), r(2), None).p_read(r(3), r(1), None).p_write(r(0).at(8), r(3), None);
        if let Variant::CrcwFetchOp(op) = variant {
            b.p_fop(op, r(4), r(1).at(4), r(0), None).p_write(r(0).at(16), r(4), None);
        }
        let program = b.halt().build();
        let params = DbspParams::power_law(8, 0.5, 0.5).unwrap();
        let selection = Selection::Cull { a: 0.5, eps: 0.5 };
        let mut memory = HmosMemory::new(params, 24, &input, 3, 0, 1, selection).unwrap();
        let done = run_with(&program, &mut memory, &Limits::default(), &mut NoTrace).unwrap();
        assert!(memory.error().is_none(), "{:?}", memory.error());
        let reference = run(&program, &input, &Limits::default()).unwrap();
        assert_eq!(done.memory, reference.memory, "{variant}");
        finals.insert(variant.to_string(), done.memory);
    }
    insta::assert_yaml_snapshot!("e8_through_the_interpreter", finals);
}

/// Whether `copies` is a target set of an HMOS with redundancy r and k levels (Section 4.1):
/// `mu 2^k` distinct copies, `mu = (r+1)/2` distinct roots `j0 < r`, and below every coloured
/// node exactly two coloured children. A copy's index is `j0 3^k + sum e_i 3^(k-i)`, so its
/// path prefix down to level i is `copy / 3^(k-i)`.
fn is_target_set(copies: &[u64], r: u32, k: u32) -> bool {
    let mu = r.div_ceil(2) as usize;
    let pow = 3_u64.pow(k);
    let distinct: BTreeSet<u64> = copies.iter().copied().collect();
    let roots: BTreeSet<u64> = copies.iter().map(|c| c / pow).collect();
    if copies.len() != mu << k || distinct.len() != copies.len() || roots.len() != mu {
        return false;
    }
    if roots.iter().any(|&j0| j0 >= u64::from(r)) {
        return false;
    }
    (0..k).all(|i| {
        let mut children: BTreeMap<u64, BTreeSet<u64>> = BTreeMap::new();
        for &c in copies {
            let child = c / 3_u64.pow(k - i - 1);
            children.entry(child / 3).or_default().insert(child);
        }
        children.values().all(|c| c.len() == 2)
    })
}

/// One run for the target-set properties: n = 2^9 (k_max 2) or 2^10 (k_max 3), k >= 1, every
/// processor accessing a distinct random variable of m = 2n in every step.
struct Run {
    memory: HmosMemory,
    n: u32,
    r: u32,
    k: u32,
    /// Per step, its target sets (variable, copies).
    targets: Vec<Vec<(u64, Vec<u64>)>>,
}

fn run(big: bool, k_pick: u32, r: u32, cull: bool, staged: bool, seed: u64, kinds: &[u8]) -> Run {
    let n: u32 = if big { 1024 } else { 512 };
    let k = 1 + k_pick % k_max(u64::from(n));
    let size = 2 * u64::from(n);
    let params = DbspParams::power_law(n, 0.5, 0.5).unwrap();
    let selection = if cull { Selection::Cull { a: 2.0, eps: 0.3 } } else { Selection::Naive };
    let delivery = if staged { Delivery::Staged } else { Delivery::TwoPhase };
    let mut memory =
        HmosMemory::new(params, size, &[], r, k, seed, selection).unwrap().with_delivery(delivery);
    let mut array = ArrayMemory::new(size as usize, &[]).unwrap();
    let mut rng = seeded(seed, 1);
    let mut targets = Vec::new();
    for (g, &kind) in (1..).zip(kinds) {
        let mut vars: Vec<u64> = (0..size).collect();
        vars.shuffle(&mut rng);
        let kind = match kind % 3 {
            0 => AccessKind::Read,
            1 => AccessKind::Write,
            _ => AccessKind::Fetch(FetchOp::Add),
        };
        let mut a: Vec<Access> = (0..n)
            .zip(&vars)
            .map(|(pid, &addr)| Access { pid, kind, addr, value: i64::from(pid) + g })
            .collect();
        let mut b = a.clone();
        memory.step(g as u64, &mut a);
        array.step(g as u64, &mut b);
        assert!(memory.error().is_none(), "{:?}", memory.error());
        assert_eq!(a, b);
        targets.push(memory.targets().to_vec());
    }
    Run { memory, n, r, k, targets }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// Section 4.1: every target set, culled or naive, forced or not, has `mu 2^k` copies with
    /// `mu` roots and two coloured children below every coloured node, and any two target
    /// sets of one variable intersect (those of different steps, and each against the naive
    /// target set), for n in {512, 1024}, 1 <= k <= k_max(n), r in {1, 3, 5}.
    #[test]
    fn target_sets_have_size_mu_2k_and_intersect(
        big in any::<bool>(),
        k_pick in any::<u32>(),
        r_index in 0_usize..3,
        cull in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let r = [1, 3, 5][r_index];
        let out = run(big, k_pick, r, cull, true, seed, &[1, 0]);
        let (r, k) = (out.r, out.k);
        let pow = 3_u64.pow(k);
        let mu = u64::from(r.div_ceil(2));
        let naive: BTreeSet<u64> = (0..mu)
            .flat_map(|j0| (0..1_u64 << k).map(move |bits| {
                j0 * pow + (0..k).fold(0, |acc, i| acc * 3 + ((bits >> (k - 1 - i)) & 1))
            }))
            .collect();
        prop_assert!(is_target_set(&naive.iter().copied().collect::<Vec<_>>(), r, k));
        let mut by_var: BTreeMap<u64, Vec<BTreeSet<u64>>> = BTreeMap::new();
        for step in &out.targets {
            prop_assert_eq!(step.len(), out.n as usize);
            for (v, copies) in step {
                prop_assert!(is_target_set(copies, r, k), "v {} copies {:?}", v, copies);
                let set: BTreeSet<u64> = copies.iter().copied().collect();
                prop_assert!(set.intersection(&naive).next().is_some());
                by_var.entry(*v).or_default().push(set);
            }
        }
        for sets in by_var.values() {
            for (x, a) in sets.iter().enumerate() {
                for b in &sets[x + 1..] {
                    prop_assert!(a.intersection(b).next().is_some());
                }
            }
        }
    }

    /// Lemma 3 and Theorem 2 on the target sets actually chosen, after every iteration i:
    /// the weight `w(u)` of every i-module (coloured paths through it, counted from the
    /// target sets) is at most the sum of the thresholds of iteration i's rounds unless it
    /// was forced (culling's bound, `theta_i = floor(a mu 2^i (n/m_i) n^(eps/2^i))` per round,
    /// Lemma 3's `O(2^i n^(1-(1-eps)/2^i))`), and its largest value is the protocol's
    /// reported `w_max`; a coloured i-module has exactly `2^(k-i)` i-blocks holding selected
    /// copies, each holding exactly `w(u)` of them; and Theorem 3's delivery starts stage i
    /// with `delta_i = ceil(w_max(U_i) / t_i)` messages on the fullest processor (1 <= i <= k;
    /// the router's cyclic layout of the tau_i-cluster holding the i-block), and stage k+1 with
    /// `mu 2^k` (one representative per processor), in both delivery modes.
    #[test]
    fn weights_blocks_and_deltas_after_every_iteration(
        big in any::<bool>(),
        k_pick in any::<u32>(),
        r_index in 0_usize..3,
        cull in any::<bool>(),
        staged in any::<bool>(),
        seed in any::<u64>(),
        kind in 0_u8..3,
    ) {
        let r = [1, 3, 5][r_index];
        let out = run(big, k_pick, r, cull, staged, seed, &[kind]);
        let (k, hmos) = (out.k, out.memory.hmos());
        let stats = &out.memory.stats()[0];
        let mut w_max_level = Vec::new();
        for i in 0..=k {
            // Module u_i -> the coloured paths (v, prefix) through it, and per suffix the
            // selected copies in that i-block.
            let mut paths: BTreeMap<u32, BTreeSet<(u64, u64)>> = BTreeMap::new();
            let mut blocks: BTreeMap<u32, BTreeMap<u64, u64>> = BTreeMap::new();
            let below = 3_u64.pow(k - i);
            for (v, copies) in &out.targets[0] {
                for &c in copies {
                    let u = hmos.path(*v, c).unwrap()[i as usize];
                    paths.entry(u).or_default().insert((*v, c / below));
                    *blocks.entry(u).or_default().entry(c % below).or_default() += 1;
                }
            }
            let level = &stats.levels[i as usize];
            let w_max = paths.values().map(|p| p.len() as u64).max().unwrap_or(0);
            prop_assert_eq!(w_max, level.w_max);
            if cull && !level.forced {
                prop_assert!(w_max <= level.theta_sum, "level {} w {} > {}", i, w_max, level.theta_sum);
            }
            for (u, per_block) in &blocks {
                let w = paths[u].len() as u64;
                prop_assert_eq!(per_block.len() as u64, 1 << (k - i));
                prop_assert!(per_block.values().all(|&c| c == w));
            }
            w_max_level.push(w_max);
        }
        let mu = u64::from(r.div_ceil(2));
        for deltas in &stats.deltas {
            prop_assert_eq!(deltas.len(), k as usize + 2);
            prop_assert_eq!(deltas[0], mu << k);
            for i in 1..=k {
                let t_i = hmos.chain().t[i as usize - 1];
                let at = (k + 1 - i) as usize;
                prop_assert_eq!(deltas[at], w_max_level[i as usize].div_ceil(t_i), "delta_{}", i);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Re-pricing equals re-running: the trace of a random PRAM run (culling at every level,
    /// staged delivery) does not depend on g and l, so the ledger of a run under one
    /// (alpha, beta) priced under another equals, record for record, the ledger of a run under
    /// the other; the flat-BSP pricing (g_i = g_0, l_i = l_0) is never cheaper.
    #[test]
    fn repricing_equals_rerunning(
        big in any::<bool>(),
        exponents in prop::array::uniform4(0.0_f64..=1.0),
        seed in any::<u64>(),
        steps in prop::collection::vec(
            (0_u8..3, prop::collection::vec((any::<u64>(), -50_i64..50), 1..20)), 1..4),
    ) {
        let n: u32 = if big { 64 } else { 8 };
        let k = k_max(u64::from(n));
        let size = u64::from(n);
        let [a1, b1, a2, b2] = exponents;
        let run = |alpha: f64, beta: f64| {
            let params = DbspParams::power_law(n, alpha, beta).unwrap();
            let selection = Selection::Cull { a: 2.0, eps: 0.3 };
            let mut hmos = HmosMemory::new(params, size, &[], 3, k, seed, selection).unwrap();
            for (g, step) in (1..).zip(&steps) {
                hmos.step(g, &mut accesses(step, size, false));
            }
            assert!(hmos.error().is_none());
            hmos.ledger().clone()
        };
        let (first, second) = (run(a1, b1), run(a2, b2));
        prop_assert_eq!(&first.records, &second.records);
        let other = DbspParams::power_law(n, a2, b2).unwrap();
        prop_assert_eq!(first.priced(&other).unwrap(), second.priced(&other).unwrap());
        let levels = n.ilog2() as usize + 1;
        let flat = DbspParams::explicit(
            n,
            vec![other.g_levels()[0]; levels],
            vec![other.l_levels()[0]; levels],
        )
        .unwrap();
        prop_assert!(first.cost(&flat).unwrap() >= first.cost(&other).unwrap());
    }
}
