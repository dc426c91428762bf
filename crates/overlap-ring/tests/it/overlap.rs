//! OVERLAP labelling and assignment (paper Sections 3.1-3.2): worked cases and Lemma properties.

use overlap_ring::Error;
use overlap_ring::overlap::{C, k_max, label_tree, label_tree_with_dead, stages_2_3};
use proptest::prelude::*;

/// Unit-delay host, `c = 3`: no kills; `n = 256`: `L = 8`, `256/24 = 10.7` so `k_max = 3`,
/// `m = (8,4,2,1)`, stage-2 root `n - (k_max+1) 2^k_max = 224`, `n' = n - k_max 2^(k_max-1) = 244`.
/// `n = 1024`: `k_max = 5`, stage-2 root 832, `n' = 944`.
#[test]
fn unit_delay_hosts() {
    let c = C::new(3, 1).unwrap();
    let lab = label_tree(&vec![1; 255], c).unwrap();
    assert_eq!((lab.k_max, lab.m.clone()), (3, vec![8, 4, 2, 1]));
    assert_eq!((lab.killed_stage1, lab.killed_stage2), (0, 0));
    assert_eq!((lab.stage2_root, lab.n_prime), (Some(224), 244));
    let lab = label_tree(&vec![1; 1023], c).unwrap();
    assert_eq!((lab.k_max, lab.stage2_root, lab.n_prime), (5, Some(832), 944));
}

/// Figure 2: `n = 32`, `c = 5/2` (`L = 5`, `k_max = 1`, `m = (2,1)`), stage-1 dead `p16..p29`.
/// Left child stage-2 `16 - m_1 = 15`; right child chain `p30,p31` label 2 >= `2 m_1`, survives;
/// root `15 + 2 - m_0 = 15`. Stage 3: `16 + 2 - m_1 = 17 = n'`. Assignment `p0..p15 -> 1..16`,
/// `p30 -> 16`, `p31 -> 17`.
#[test]
fn figure2_stage2_example() {
    let live1: Vec<bool> = (0..32).map(|p| !(16..=29).contains(&p)).collect();
    let lab = stages_2_3(32, C::new(5, 2).unwrap(), &live1).unwrap();
    assert_eq!((lab.k_max, lab.m.clone()), (1, vec![2, 1]));
    assert_eq!((lab.stage2_root, lab.n_prime, lab.killed_stage2), (Some(15), 17, 0));
    let mut expect: Vec<Option<i64>> = (1..=16).map(Some).collect();
    expect.extend([None; 14]);
    expect.extend([Some(16), Some(17)]);
    assert_eq!(lab.assignment, expect);
}

/// An injected dead set is a stage-1 mask: on unit delays (stage 1 kills nobody) killing
/// `p16..p29` before stage 2 gives exactly Figure 2's labels and assignment, with the kills
/// counted as injected, not as stage 1's; a repeated or out-of-range processor is an error.
#[test]
fn injected_dead_is_figure2() {
    let c = C::new(5, 2).unwrap();
    let dead: Vec<usize> = (16..=29).rev().collect();
    let lab = label_tree_with_dead(&[1; 31], c, &dead).unwrap();
    let live1: Vec<bool> = (0..32).map(|p| !(16..=29).contains(&p)).collect();
    let mask = stages_2_3(32, c, &live1).unwrap();
    assert_eq!(
        (lab.assignment.clone(), lab.n_prime, lab.stage2_root),
        (mask.assignment, 17, Some(15))
    );
    assert_eq!((lab.killed_stage1, lab.killed_stage2, lab.live), (0, 0, 18));
    assert_eq!(lab.dead_injected, (16..=29).collect::<Vec<_>>());
    assert_eq!(label_tree_with_dead(&[1; 31], c, &[3, 3]), Err(Error::DeadRepeated { proc: 3 }));
    assert_eq!(
        label_tree_with_dead(&[1; 31], c, &[40]),
        Err(Error::DeadOutOfRange { proc: 40, n: 32 })
    );
}

/// Figure 2 as text (`n = 32`, `c = 5/2`, `k_max = 1`, `m = (2, 1)`, `m_k = 0` below depth 1,
/// stage-1 dead `p16..p29`). Stage-2 labels `x1 + x2 - m_depth`: `[0,8)` and `[8,16)` are 8
/// (`m_2 = 0`), `[0,16)` is `8 + 8 - m_1 = 15`; on the right only `p30, p31` live, so `[24,32)`
/// and `[16,32)` carry `2` (one remaining child each); root `15 + 2 - m_0 = 15`. Nobody fails
/// `x >= 2 m_depth` (`15 >= 4`, `15 >= 2`, `2 >= 2`). Stage 3 (`x1 + x2 - m_(depth+1)`): `[0,16)`
/// is `8 + 8 - m_2 = 16`, root `16 + 2 - m_1 = 17 = n'`. Assignment: the root's right child
/// starts at `17 - 2 = 15`, so `p30, p31` get 16, 17 and column 16 has two holders.
#[test]
fn figure2_tree_and_strip_snapshot() {
    use overlap_ring::overlap::render::{strip, tree};
    let live1: Vec<bool> = (0..32).map(|p| !(16..=29).contains(&p)).collect();
    let lab = stages_2_3(32, C::new(5, 2).unwrap(), &live1).unwrap();
    insta::assert_snapshot!("figure2", format!("{}{}", tree(&lab), strip(&lab)));
}

/// Stage-1 killing on the worked transient host (`n = 32`, `c = 3`, `d_15 = 20`, else 1):
/// `S = 50`, `L = 5`, 31 links; a node `I` is hot iff `delay(I) 31 > 3 5 50 |I| = 750 |I|`.
/// The link 15 lies inside `[0,32)` (`50 31 = 1550 <= 24000`) and inside no half (it joins
/// `p15` and `p16`, the halves' edges), so nobody dies; `k_max = 1` (`32/15 >= 2`), `m = (2,
/// 1)`; stage 3 root `16 + 16 - m_1 = 31`. The right half's virtual columns start at
/// `31 - 16 = 15`: `p15` and `p16` both hold column 16.
#[test]
fn transient_host_assignment_snapshot() {
    use overlap_ring::overlap::render::{strip, tree};
    let mut delays = vec![1; 31];
    delays[15] = 20;
    let lab = label_tree(&delays, C::new(3, 1).unwrap()).unwrap();
    insta::assert_snapshot!("transient_n32", format!("{}{}", tree(&lab), strip(&lab)));
}

/// Stage-1 killing (paper Section 3.1; `docs/models/overlap-ring.md`, Choices: killing
/// threshold): `n = 256`, `c = 3`, `L = 8`, links 40 and 41 of delay 5000,
/// the rest 1: `S = 10253` over 255 links; node `I` is hot iff `delay(I) 255 > 24 S |I| =
/// 246072 |I|`. `[40,42)` holds link 40: `5000 255 = 1275000 > 492144`, hot; `[40,44)` holds
/// links 40-42: `10001 255 = 2550255 > 984288`, hot; `[40,48)` (links 40-46): `2551275 >
/// 1968576`, hot; `[32,48)`: `2553315 <= 3937152`, not hot. So exactly `p40..p47` die.
/// Stage 3 (`k_max = 3`, `m = (8,4,2,1)`): siblings under a depth-`k` node share `m_(k+1)` =
/// 4, 2, 1, 0 columns at depths 0..3. `[32,64)` = `[32,48)` (8 live) + `[48,64)` (16), no
/// overlap: 24, columns 32-55 after `[0,32)`'s 1-32 (overlap 1): `[0,64)` = 55; `[64,128)` =
/// `32 + 32 - 1` = 63, starting at `55 + 63 - 2 - 63 + 1 = 54`; `[0,128)` = 116; the right half
/// `[128,256)` = `63 + 63 - 2` = 124; root `n' = 116 + 124 - 4 = 236`, right half from 113.
#[test]
fn stage1_matches_definition() {
    use overlap_ring::overlap::stage1;
    let mut delays = vec![1u32; 255];
    delays[40] = 5000;
    delays[41] = 5000;
    let c = C::new(3, 1).unwrap();
    let live = stage1(&delays, c);
    let s: u128 = delays.iter().map(|&d| u128::from(d)).sum();
    // Brute force over the tree: node [lo,hi) hot iff delay(I) * 255 * 1 > 3 * 8 * S * |I|.
    let mut want = vec![true; 256];
    let mut stack = vec![(0usize, 256usize)];
    while let Some((lo, hi)) = stack.pop() {
        let inner: u128 = delays[lo..hi - 1].iter().map(|&d| u128::from(d)).sum();
        if inner * 255 > 3 * 8 * s * (hi - lo) as u128 {
            want[lo..hi].iter_mut().for_each(|x| *x = false);
        }
        if hi - lo >= 2 {
            let mid = lo + (hi - lo).div_ceil(2);
            stack.push((lo, mid));
            stack.push((mid, hi));
        }
    }
    assert_eq!(live, want);
    let dead: Vec<usize> = (0..256).filter(|&p| !live[p]).collect();
    assert_eq!(dead, (40..48).collect::<Vec<_>>());
    let lab = label_tree(&delays, c).unwrap();
    insta::assert_snapshot!("stage1_kill_n256", overlap_ring::overlap::render::strip(&lab));
}

/// Stage 1's threshold is strict: link 40 of delay 96, links 41-200 of delay 2, the rest 1:
/// `S = 96 + 160 * 2 + 94 = 510`; node `[40,42)` holds link 40 alone: `96 * 255 = 24480 =
/// 24 * 510 * 2`, not above it, so it is not hot ([40,44): `100 * 255 = 25500 <= 48960`, and
/// every other node's links average at most 2 < 48). Nobody dies; a `>=` would kill p40, p41.
#[test]
fn stage1_threshold_is_strict() {
    use overlap_ring::overlap::stage1;
    let mut delays = vec![1u32; 255];
    delays[40] = 96;
    delays[41..201].iter_mut().for_each(|d| *d = 2);
    assert_eq!(delays.iter().map(|&d| u64::from(d)).sum::<u64>(), 510);
    let live = stage1(&delays, C::new(3, 1).unwrap());
    assert!(live.iter().all(|&alive| alive));
}

#[test]
fn bad_c_and_small_hosts_are_errors() {
    assert_eq!(C::new(2, 1), Err(Error::InvalidC { c_num: 2, c_den: 1 }));
    // Parts above 2^32 could overflow stage 1's 128-bit comparison; 2^32 itself is taken.
    let max = C::MAX_PART;
    assert_eq!(
        C::new(u64::MAX, u64::MAX / 2),
        Err(Error::CTooLarge { c_num: u64::MAX, c_den: u64::MAX / 2, max })
    );
    let (num, den) = (3 * (max + 1), max + 1);
    assert_eq!(C::new(num, den), Err(Error::CTooLarge { c_num: num, c_den: den, max }));
    assert!(C::new(max, 1).is_ok());
    // n = 8: L = 3, c L = 9 > 8.
    assert_eq!(k_max(8, C::new(3, 1).unwrap()), Err(Error::HostTooSmall { n: 8, need: 9 }));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Lemmas 1-4 node by node and the assignment properties (paper Section 3.2) on random
    /// heavy-tailed hosts.
    #[test]
    fn lemmas_and_assignment(n in 12usize..200, seed in 0u64..1000, cnum in 5u64..9) {
        let c = C::new(cnum, 2).unwrap();
        prop_assume!(k_max(n, c).is_ok());
        let mut x = seed;
        let delays: Vec<u32> = (0..n - 1).map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            if (x >> 33) % 10 == 0 { 1 + ((x >> 40) % 500) as u32 } else { 1 }
        }).collect();
        let lab = label_tree(&delays, c).unwrap();
        // Lemma 1: killed_stage1 <= n/c.
        prop_assert!(lab.killed_stage1 as u64 * cnum <= n as u64 * 2);
        // Lemma 4: n' >= (1 - 2/c) n.
        prop_assert!(lab.n_prime as u64 * cnum >= n as u64 * (cnum - 4));
        // Each live processor one column; columns 1..n' all covered; copies <= k_max + 1.
        let mut copies = vec![0u32; lab.n_prime as usize + 1];
        for col in lab.assignment.iter().flatten() {
            prop_assert!((1..=lab.n_prime).contains(col));
            copies[*col as usize] += 1;
        }
        prop_assert_eq!(lab.assignment.iter().flatten().count(), lab.live);
        prop_assert!(copies[1..].iter().all(|&k| k >= 1 && k <= lab.k_max + 1));
        // Mean copies = live / n' <= c / (c - 2).
        prop_assert!(lab.live as u64 * (cnum - 4) <= lab.n_prime as u64 * cnum);
        // Lemma 2: the stage-2 root label is >= (1 - 2/c) n.
        if let Some(root) = lab.stage2_root {
            prop_assert!(root as u64 * cnum >= n as u64 * (cnum - 4));
        }
        // Lemmas 3 and 4 node by node (remaining = a stage-3 label exists).
        let m = |k: u32| overlap_ring::overlap::m(lab.k_max, k);
        let tree = &lab.tree;
        for v in tree {
            let Some(x3) = v.label3 else { continue };
            let x2 = v.label2.unwrap();
            prop_assert!(x3 >= x2, "Lemma 4: stage 3 >= stage 2 at [{}, {})", v.lo, v.hi);
            let kids: Vec<_> = tree
                .iter()
                .filter(|u| u.depth == v.depth + 1 && u.lo >= v.lo && u.hi <= v.hi && u.label3.is_some())
                .collect();
            if v.hi - v.lo >= 2 {
                prop_assert!(x2 >= 2 * m(v.depth), "Lemma 3: x >= 2 m_k at [{}, {})", v.lo, v.hi);
                prop_assert!(x3 >= 2 * m(v.depth), "Lemma 4: x3 >= 2 m_k at [{}, {})", v.lo, v.hi);
                prop_assert!(!kids.is_empty());
                if kids.len() == 2 {
                    // Siblings share exactly m_(k+1) virtual columns.
                    prop_assert_eq!(x3, kids[0].label3.unwrap() + kids[1].label3.unwrap() - m(v.depth + 1));
                } else {
                    prop_assert_eq!(x3, kids[0].label3.unwrap());
                }
            }
        }
    }
}

/// Worked transient (Theorem 2): `n = 32`, `c = 3`, `d_15 = 20` (else 1), `B = 5`, `N = n' = 31`.
/// `p15` and `p16` both hold column 16; each gets its missing neighbour column over delay 21.
/// `host_steps(T = 1..5) = 1, 22, 23, 44, 45`; `link_units = 64 (T-1)`, `work = 32 T`;
/// the naive simulation needs `1 + 20 (T-1)`.
#[test]
fn worked_transient_single_long_link() {
    let mut delays = vec![1; 31];
    delays[15] = 20;
    let host = overlap_ring::host::Host::new(32, delays, 5).unwrap();
    let c = C::new(3, 1).unwrap();
    let mut got = Vec::new();
    for steps in 1..=5u64 {
        let (run, lab) =
            overlap_ring::overlap::simulate(&host, c, &overlap_ring::guest::Program::Mix, steps)
                .unwrap();
        assert_eq!(lab.n_prime, 31);
        assert!(run.verified);
        assert_eq!((run.work, run.link_units), (32 * steps, 64 * (steps - 1)));
        got.push(run.host_steps);
        let naive =
            overlap_ring::naive::simulate(&host, 32, &overlap_ring::guest::Program::Mix, steps)
                .unwrap();
        assert_eq!(naive.host_steps, 1 + 20 * (steps - 1));
    }
    assert_eq!(got, vec![1, 22, 23, 44, 45]);
}

/// Theorem 2, single long link: unit links except delay `D = 30` on link 31, the root's
/// split of `n = 64`, `c = 3` (`L = 6`, `k_max = 1`, overlap there `m_1 = 1`). The steady
/// period is `(D + 2m)/(m + 1) = 16` per row (cycle of `2m+2 = 4` rows takes `2D + 4m = 64`
/// steps); the naive period is `D = 30`.
#[test]
fn single_long_link_period() {
    let mut delays = vec![1; 63];
    delays[31] = 30;
    let host = overlap_ring::host::Host::new(64, delays, 6).unwrap();
    let c = C::new(3, 1).unwrap();
    let prog = overlap_ring::guest::Program::Sum;
    let at = |t| overlap_ring::overlap::simulate(&host, c, &prog, t).unwrap().0;
    let (a, b) = (at(20), at(40));
    assert!(a.verified && b.verified);
    assert_eq!(b.host_steps - a.host_steps, 16 * 20);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// OVERLAP on the engine reproduces the direct run on random hosts; work = live * T.
    #[test]
    fn overlap_equals_direct_run(n in 12usize..48, seed in 0u64..1000, steps in 1u64..12, b in 1u32..4) {
        let c = C::new(3, 1).unwrap();
        prop_assume!(k_max(n, c).is_ok());
        let mut x = seed;
        let delays: Vec<u32> = (0..n - 1).map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            1 + ((x >> 33) % 9) as u32
        }).collect();
        let host = overlap_ring::host::Host::new(n, delays, b).unwrap();
        let (run, lab) = overlap_ring::overlap::simulate(&host, c, &overlap_ring::guest::Program::Mix, steps).unwrap();
        prop_assert!(run.verified);
        prop_assert_eq!(run.work, lab.live as u64 * steps);
        prop_assert_eq!(run.load, 1);
        // At most k_max + 1 streams share a directed link, so with B >= k_max + 1
        // nothing ever queues.
        if b > lab.k_max {
            prop_assert_eq!(run.queue_wait, 0);
        }
    }
}

/// On a unit host OVERLAP is *slower* than naive: `n = 64`, `c = 8/3` (`k_max = 2`,
/// `m_1 = 2`), the root split's overlap of 2 columns makes a C/D cycle of `2m + 2 = 6` rows take
/// `2D + 4m = 2 1 + 4 2 = 10` steps: period `(D + 2m)/(m + 1) = 5/3` per row, naive 1.
#[test]
fn unit_host_overlap_period_five_thirds() {
    let host = overlap_ring::host::Host::new(64, vec![1; 63], 6).unwrap();
    let c = C::new(8, 3).unwrap();
    let at = |t| {
        overlap_ring::overlap::simulate(&host, c, &overlap_ring::guest::Program::Mix, t).unwrap().0
    };
    let (a, b) = (at(30), at(60));
    assert!(a.verified && b.verified);
    assert_eq!(b.host_steps - a.host_steps, 50);
}

/// Theorem 1, corrected variant (`docs/models/overlap-ring.md`, Choices: corrected deadlines):
/// unit host `n = 64`, `c = 8/3` (`k_max = 2`), no
/// kills; `sigma = b + g = 2`, `Delta_0 = 63` (root: leftmost to rightmost live processor),
/// `Delta_1 = 31`. Every row finishes by its deadline.
#[test]
fn theorem1_corrected_deadlines_unit_host() {
    use overlap_ring::overlap::schedule::{deadline, schedule};
    let host = overlap_ring::host::Host::new(64, vec![1; 63], 6).unwrap();
    let c = C::new(8, 3).unwrap();
    let (run, lab) =
        overlap_ring::overlap::simulate(&host, c, &overlap_ring::guest::Program::Mix, 24).unwrap();
    assert_eq!(lab.k_max, 2);
    let s = schedule(2, 2, &[63, 31]);
    for (t, &done) in run.row_done.iter().enumerate() {
        let t = t as u64 + 1;
        assert!(done as i64 <= deadline(&s[0], t), "row {t} done at {done}");
    }
}

/// The paper variant (`sigma = b = 1`) fails for `k_max = 0` (`docs/models/overlap-ring.md`,
/// Choices: corrected deadlines): `n = 16`, `c = 3`,
/// uniform delay 5 -> row 2 finishes at step 6 (`1 + 5`) > deadline 2.
#[test]
fn theorem1_paper_variant_fails_for_kmax_zero() {
    use overlap_ring::overlap::schedule::{deadline, schedule};
    let host = overlap_ring::host::Host::new(16, vec![5; 15], 4).unwrap();
    let (run, lab) = overlap_ring::overlap::simulate(
        &host,
        C::new(3, 1).unwrap(),
        &overlap_ring::guest::Program::Sum,
        3,
    )
    .unwrap();
    assert_eq!(lab.k_max, 0);
    let s = schedule(0, 1, &[]);
    assert_eq!((run.row_done[1], deadline(&s[0], 2)), (6, 2));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Theorem 1, corrected variant (`docs/models/overlap-ring.md`, Choices: corrected
    /// deadlines): every copy finishes row `t` by
    /// `deadline(t)`, for `b = 1` (Theorem 2) and blocks `b > 1` (Theorem 3, `sigma = b + g`).
    #[test]
    fn theorem1_corrected_deadlines(n in 12usize..64, seed in 0u64..1000, steps in 1u64..20, half in 0usize..2, block in 1usize..4) {
        use overlap_ring::overlap::schedule::{corrected, deadline, schedule};
        let c = [C::new(5, 2).unwrap(), C::new(3, 1).unwrap()][half];
        prop_assume!(k_max(n, c).is_ok());
        let mut x = seed;
        let delays: Vec<u32> = (0..n - 1).map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            if (x >> 33) % 6 == 0 { 1 + ((x >> 40) % 40) as u32 } else { 1 + ((x >> 40) % 3) as u32 }
        }).collect();
        let host = overlap_ring::host::Host::new(n, delays.clone(), overlap_ring::host::log_n(n)).unwrap();
        let (plan, lab) = overlap_ring::overlap::plan(&host, c, block).unwrap();
        let run = overlap_ring::engine::run(&host, &plan, &overlap_ring::guest::Program::Mix, steps).unwrap();
        prop_assert!(run.verified);
        prop_assert_eq!(run.load, block);
        prop_assert_eq!(run.work, (lab.live * block) as u64 * steps);
        let live: Vec<bool> = lab.assignment.iter().map(Option::is_some).collect();
        let (sigma, delta) = corrected(&delays, &live, lab.k_max, block as i64);
        let s = schedule(lab.k_max, sigma, &delta);
        for (t, &done) in run.row_done.iter().enumerate() {
            let t = t as u64 + 1;
            prop_assert!(done as i64 <= deadline(&s[0], t), "row {} done at {} > {}", t, done, deadline(&s[0], t));
        }
    }
}

/// Taint: a pebble is tainted iff it depends on the tainted initial value of one column.
struct Taint(usize);

impl overlap_ring::guest::GuestProgram for Taint {
    type Val = bool;
    type Db = ();
    fn init_db(&self, _: usize) {}
    fn init_val(&self, i: usize) -> bool {
        i == self.0
    }
    fn boundary(&self, _: overlap_ring::guest::Side, _: u64) -> bool {
        false
    }
    fn step(&self, _: &mut (), _: usize, _: u64, l: &bool, me: &bool, r: &bool) -> bool {
        *l || *me || *r
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Fact 1 / Figure 3: at the split of a depth-`k` node, the left child's columns end at
    /// `x_1` and the right child's first processor gets column `C = y = x_1 - m_(k+1)` from the
    /// left: pebbles `(y, t)`, `t <= m_(k+1)`, do not depend on column `x_1 + 1` (so they can be
    /// computed before anything crosses the split), and `(y, m_(k+1) + 1)` does. Nor do they
    /// depend on the left child's left end: its interval holds at least `2 m_(k+1)` columns
    /// (Lemma 4, the half of Fact 1 that rests on the labelling), so the column before its
    /// first does not reach `(y, m_(k+1))` either.
    #[test]
    fn fact1_column_c_is_untainted(n in 25usize..120, seed in 0u64..1000) {
        let c = C::new(5, 2).unwrap();
        prop_assume!(k_max(n, c).is_ok());
        let mut x = seed;
        let delays: Vec<u32> = (0..n - 1).map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            1 + ((x >> 40) % 4) as u32
        }).collect();
        let lab = label_tree(&delays, c).unwrap();
        let cols = lab.n_prime as usize;
        let mut checked = 0;
        for v in lab.tree.iter().filter(|v| v.label3.is_some() && v.hi - v.lo >= 2) {
            let mid = v.lo + (v.hi - v.lo).div_ceil(2);
            let x1 = lab.assignment[v.lo..mid].iter().flatten().max().copied();
            let right = lab.assignment[mid..v.hi].iter().flatten().min().copied();
            let (Some(x1), Some(_)) = (x1, right) else { continue };
            let m = overlap_ring::overlap::m(lab.k_max, v.depth + 1);
            let y = x1 - m;
            if m == 0 || y < 1 || x1 as usize >= cols {
                continue;
            }
            let t = overlap_ring::guest::run_direct(&Taint(x1 as usize + 1), cols, m as u64 + 1).unwrap();
            for row in 1..=m as u64 {
                prop_assert!(!t.get(y as usize, row), "({y},{row}) tainted by column {}", x1 + 1);
            }
            prop_assert!(t.get(y as usize, m as u64 + 1));
            // The left child's first column (it exists: `x1` does).
            let lo1 = lab.assignment[v.lo..mid].iter().flatten().min().copied().unwrap_or(x1);
            prop_assert!(x1 - lo1 + 1 >= 2 * m, "I_1 = [{lo1}, {x1}] is narrower than 2 m = {}", 2 * m);
            if lo1 >= 2 {
                let left = overlap_ring::guest::run_direct(&Taint(lo1 as usize - 1), cols, m as u64).unwrap();
                for row in 1..=m as u64 {
                    prop_assert!(!left.get(y as usize, row), "({y},{row}) tainted by column {}", lo1 - 1);
                }
            }
            checked += 1;
        }
        // n >= 25 = 2 c L gives k_max >= 1, so the root's split overlaps and is checked.
        prop_assert!(checked > 0);
    }
}

/// The schedule of Theorem 1 for a worked case (`n = 64`, `c = 8/3`, `L = 6`, `k_max = 2`,
/// `m = (4, 2, 1)`, unit delays): paper variant `sigma = 1`, `D_k = c L d_ave n / 2^k = 16 64
/// / 2^k = (1024, 512, 256)`: `s^(2) = (1)`, `s^(1)_t = s^(2)_t + D_1 = 513` for `t <= m_2 = 1`,
/// then `s^(1)_2 = s^(1)_1 + s^(1)_1 = 1026`; `s^(0) = (513 + 1024, 1026 + 1024, 1537 + 2050,
/// 2050 + 2050) = (1537, 2050, 3587, 4100)`; closed form `2^2 1 + 2 (1 1024 + 2 512) = 4100`.
/// Corrected variant (docs/models/overlap-ring.md, Choices: corrected deadlines), all 64
/// processors live, `b = 1`: the depth-2 nodes are the quarters `[16 i, 16 i + 16)`, whose
/// consecutive live processors are 1 apart, so `g = 1` and `sigma = b + g = 2`; `Delta_k` is the
/// delay between a depth-k node's end points: `Delta_0 = 63` (processors 0 and 63),
/// `Delta_1 = 31` (the halves `[0, 32)`, `[32, 64)`), entry 2 unused (0). The same recurrences:
/// `s^(2) = (2)`, `s^(1) = (2 + 31, 33 + 33) = (33, 66)`, `s^(0) = (33 + 63, 66 + 63, 96 + 129,
/// 129 + 129) = (96, 129, 225, 258)`; closed form `2^2 2 + 2 (1 63 + 2 31) = 258`. Deadlines of
/// rows 1..6: `deadline(t) = beta s^(0)_4 + s^(0)_(t - 4 beta)`, `beta = floor((t - 1) / 4)`
/// (Section 3.2: after the box of `m_0 = 4` rows OVERLAP repeats for the next 4): rows 1-4 are
/// `s^(0)` (beta = 0), row 5 `258 + s^(0)_1 = 258 + 96 = 354`, row 6 `258 + 129 = 387`.
#[test]
fn theorem1_schedule_snapshot() {
    use overlap_ring::overlap::schedule::{corrected, deadline, schedule};
    let paper = schedule(2, 1, &[1024, 512, 256]);
    let (sigma, delta) = corrected(&[1; 63], &[true; 64], 2, 1);
    let fixed = schedule(2, sigma, &delta);
    let deadlines: Vec<i64> = (1..=6).map(|t| deadline(&fixed[0], t)).collect();
    insta::assert_snapshot!(
        "theorem1_schedule_n64",
        format!(
            "paper {paper:?}\ncorrected sigma={sigma} delta={delta:?} {fixed:?}\ndeadlines {deadlines:?}"
        )
    );
}
