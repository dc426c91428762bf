//! The HMOS structure: Lemma 1 (E5), the level chains (E6), build errors (E9), placement.

use dbsp_hmos::Error;
use dbsp_hmos::hmos::{
    Hmos, HmosConfig, Sizes, chain, chain_with, k_max, k_max_with, lemma1, lemma1_sizes,
    lemma1_sizes_at_least, lemma1_with, size_targets,
};

/// E5: Lemma 1 for w = 12 is all of AG(2, 3): z = 9 (9 * 8 / 6 = 12), floor(36 / 9) = 4 so
/// d = 4 and |Y| = 36 / 4 = 9; (i) holds: sqrt(72) = 8.49 < 9 < 6 + 6 sqrt(72) = 56.9.
/// Directions 1, 3, 4, 7 give the classes {012,345,678}, {036,147,258}, {048,156,237},
/// {057,138,246} = x0..x11. Points 0, 1, 2 share x0, already first; points 2, 3 share x8
/// (moved first in both blocks), points 3, 4 share x1 (moved first in both), and so on, so
/// the bundles (one per point here, since every point has degree 4 = d) are the snapshot's.
/// The 4 lines through point 0 (bundle 0) with nu = 2 edges each reach at least
/// (nu - 1) |S| + 1 = 5 Y-nodes by the BIBD property: x0, x3, x6, x9 have no other common
/// point, so their 8 further edges reach 8 distinct points (bundles).
#[test]
fn e5_lemma1_w12() {
    let g = lemma1(12);
    assert_eq!((g.z, g.d, g.ny), (9, 4, 9));
    let check = g.check();
    assert!(check.all(), "{check:?}");
    assert!(g.max_shared() <= 4);
    insta::assert_yaml_snapshot!("e5_bundles", g.bundles);
    let mut reached: Vec<u32> =
        [0_u32, 3, 6, 9].iter().flat_map(|&x| g.up[x as usize][1..].to_vec()).collect();
    reached.sort_unstable();
    reached.dedup();
    assert!(reached.len() >= 5);
}

/// Lemma 1 (i)-(iii) and the bundle facts for every w in 1..=1000 and every 7th w up to 3000
/// (a debug build takes about 2 ms per graph there); two Y-nodes share at most 4 X-nodes for
/// w <= 120 (quadratic check).
#[test]
fn lemma1_properties_up_to_3000() {
    for w in (1..=1000).chain((1001..=3000).step_by(7)) {
        let g = lemma1(w);
        let check = g.check();
        assert!(check.all(), "w = {w}: {check:?}");
        if w <= 120 {
            assert!(g.max_shared() <= 4, "w = {w}");
        }
    }
}

/// E6: n = 64: m = (64, 48), d_1 = 4, t_1 = 64 / 2^6 = 1, k_max = 1 (k = 2 gives m_2 = 36,
/// d_2 = 4, t_2 = 1, t_1 = 1/4). n = 512: m = (512, 96, 36), d = (16, 8), t_2 = 512 / 64 = 8,
/// t_1 = 8 / 8 = 1, k_max = 2. n = 256, k = 2: t_1 = 1/2, so KTooLarge naming k_max = 1.
#[test]
fn e6_chains() {
    let c = chain(64, 1).unwrap();
    assert_eq!((c.m, c.d, c.t), (vec![64, 48], vec![4], vec![1]));
    assert_eq!(k_max(64), 1);
    let c = chain(512, 2).unwrap();
    assert_eq!((c.m, c.d, c.t), (vec![512, 96, 36], vec![16, 8], vec![1, 8]));
    assert_eq!(k_max(512), 2);
    assert_eq!(
        HmosConfig::new(256, 256, 3, 2, 0).unwrap_err(),
        Error::KTooLarge { k: 2, k_max: 1, n: 256 }
    );
    assert!((0..6).all(|e| k_max(1 << e) == 0), "n < 64 allows only k = 0");
    let error = HmosConfig::new(256, 256, 3, 2, 0).unwrap_err().to_string();
    let chains = serde_json::json!({
        "n64_k1": chain(64, 1),
        "n512_k2": chain(512, 2),
        "n256_k2": error,
    });
    insta::assert_yaml_snapshot!("e6_chains", chains);
}

/// Section 3 asks `m_i = Theta(n^(1/2^i))`. The proof of Lemma 1 (`Sizes::Paper`) takes the
/// largest bundle size d, so `m_i` lies in `[z, 2z)` for the power of three z and stays put
/// while z does: over n = 2^8..2^16, `m_1 / sqrt(n)` spans 3-8.5 and `m_2 / n^(1/4)` 6.4-21.4
/// (`m_2` = 36 for n <= 2^10 and 144 from 2^11 to 2^16). `Sizes::Tracking` takes the
/// largest d whose `|Y|` reaches the target `T_i = c_i n^(1/2^i)`, so `m_i / n^(1/2^i)` lies in
/// `[c_i, 2 c_i)` at every n (`c_1 = 7.35`, `c_2 = 19.9`, `c_3 = 32.8`), every Lemma 1 graph of
/// the chain still has properties (i)-(iii) and at most two points per bundle, and `k_max`
/// falls (3 at n = 2^16, the paper sizes' 5). The sequences are the snapshot.
#[test]
fn sizes_track_n_to_the_one_over_two_to_the_i() {
    let k = 3;
    let mut table = Vec::new();
    for log_n in 8..=16_u32 {
        let n = 1_u64 << log_n;
        let roots: Vec<f64> = (1..=k).map(|i| (n as f64).powf(0.5_f64.powi(i))).collect();
        let targets = size_targets(n, k as u32);
        let mut rows = Vec::new();
        for sizes in [Sizes::Paper, Sizes::Tracking] {
            let (m, d) = sizes_of(n, &targets, sizes);
            for i in 0..k as usize {
                let g = lemma1_with(m[i] as u32, d[i] as u32).unwrap();
                assert_eq!(u64::from(g.ny), m[i + 1]);
                assert!(g.check().all(), "2^{log_n} {sizes:?} level {}: {:?}", i + 1, g.check());
            }
            let ratios: Vec<f64> = m[1..]
                .iter()
                .zip(&roots)
                .map(|(&m, r)| (m as f64 / r * 10.0).round() / 10.0)
                .collect();
            rows.push(format!("{sizes} m_i {:?} (m_i / n^(1/2^i) {ratios:?})", &m[1..]));
        }
        let (tracking, _) = sizes_of(n, &targets, Sizes::Tracking);
        for ((&m, target), root) in tracking[1..].iter().zip(&targets).zip(&roots) {
            let (c, ratio) = (target / root, m as f64 / root);
            assert!(ratio >= c && ratio < 2.0 * c, "n = 2^{log_n}: {ratio} against {c}");
        }
        for sizes in [Sizes::Paper, Sizes::Tracking] {
            for kk in 1..=k_max_with(n, sizes) {
                let c = chain_with(n, kk, sizes).unwrap();
                assert_eq!(c.m[..], sizes_of(n, &size_targets(n, kk), sizes).0[..]);
            }
        }
        table.push(format!(
            "2^{log_n}: k_max paper {}, tracking {}; {}",
            k_max(n),
            k_max_with(n, Sizes::Tracking),
            rows.join("; ")
        ));
    }
    assert_eq!(k_max_with(1 << 16, Sizes::Tracking), 3);
    assert!(lemma1_with(768, 64).is_err(), "d above floor(3w/z) = 28 is refused");
    assert!(lemma1_with(768, 12).is_err(), "d not a power of two is refused");
    let config = HmosConfig::new(1 << 16, 1 << 17, 3, 5, 0).unwrap();
    assert_eq!(
        config.with_sizes(Sizes::Tracking).unwrap_err(),
        Error::KTooLarge { k: 5, k_max: 3, n: 1 << 16 }
    );
    insta::assert_yaml_snapshot!("sizes_track", table);
}

/// `m_0..m_k` and `d_1..d_k` of the chain of `n` under `sizes` for the targets `T_1..T_k`,
/// levels past `k_max` included (each level's Lemma 1 sizes from the one below).
fn sizes_of(n: u64, targets: &[f64], sizes: Sizes) -> (Vec<u64>, Vec<u64>) {
    let (mut m, mut d) = (vec![n], Vec::new());
    for &target in targets {
        let w = m[m.len() - 1];
        let (_, di, ny) = match sizes {
            Sizes::Paper => lemma1_sizes(w),
            Sizes::Tracking => lemma1_sizes_at_least(w, target),
        };
        m.push(ny);
        d.push(di);
    }
    (m, d)
}

/// E9 (HMOS part): n = 12 is not a power of two; r = 4 is even (no majority of copies);
/// m = 10 < n = 16 variables; k = 3 > k_max(512) = 2 (t_1 = 1 / 2, as in E6), naming k_max.
/// The messages, each naming the field, the rule and the value, are the snapshot.
#[test]
fn e9_errors() {
    let e = HmosConfig::new(12, 16, 3, 0, 0).unwrap_err();
    assert_eq!(e, Error::NotPowerOfTwo { n: 12 });
    assert_eq!(e.to_string(), "n must satisfy n = 2^k for an integer k >= 0 (got 12)");
    let even = HmosConfig::new(16, 16, 4, 0, 0).unwrap_err();
    assert_eq!(even, Error::EvenRedundancy { r: 4 });
    let few = HmosConfig::new(16, 10, 3, 0, 0).unwrap_err();
    assert_eq!(few, Error::TooFewVariables { m: 10, n: 16 });
    let deep = HmosConfig::new(512, 512, 3, 3, 0).unwrap_err();
    assert_eq!(deep, Error::KTooLarge { k: 3, k_max: 2, n: 512 });
    let messages: Vec<String> = [e, even, few, deep].iter().map(ToString::to_string).collect();
    insta::assert_yaml_snapshot!("e9_hmos_errors", messages);
}

/// Placement: every copy of every variable lands on a processor below m_k t_k, the
/// capacities sum to r 3^k m, and the r 0-modules of a variable are distinct.
#[test]
fn placement_and_capacities() {
    for (n, m, k) in [(64_u64, 96_u64, 1_u32), (512, 800, 2), (1024, 1500, 0)] {
        let config = HmosConfig::new(n, m, 3, k, 7).unwrap();
        let h = Hmos::build(&config).unwrap();
        let c = h.chain().clone();
        let limit = if k == 0 { n } else { c.m[k as usize] * c.t[k as usize - 1] };
        for v in 0..m {
            let mut mods = h.adj0(v).unwrap().to_vec();
            mods.sort_unstable();
            mods.dedup();
            assert_eq!(mods.len(), 3);
            for copy in 0..h.copies() {
                assert!(h.loc(v, copy).unwrap() < limit.min(n));
            }
        }
        assert!(h.loc(m, 0).is_err() && h.loc(0, h.copies()).is_err());
        let cap = h.capacities().unwrap();
        assert_eq!(cap.iter().sum::<u64>(), 3 * 3_u64.pow(k) * m);
    }
}

/// `Hmos::reach` (the copy adversary's key): the reach of variable v's root module j0 is the
/// largest `loc(v, c)` over the `3^k` copies `c = j0 3^k + ...` below it, for every variable,
/// so a variable's largest copy location is the largest reach of its r modules; k = 0 gives
/// the module itself, and u0 = n is refused.
#[test]
fn reach_is_the_largest_copy_location() {
    for (n, m, k) in [(64_u64, 96_u64, 1_u32), (512, 800, 2), (256, 300, 0)] {
        let h = Hmos::build(&HmosConfig::new(n, m, 3, k, 3).unwrap()).unwrap();
        let pow = 3_u64.pow(k);
        for v in 0..m {
            for (j0, &u) in (0..).zip(h.adj0(v).unwrap().iter()) {
                let most = (0..pow).map(|c| h.loc(v, j0 * pow + c).unwrap()).max();
                assert_eq!(Some(h.reach(u).unwrap()), most, "n {n} k {k} v {v} j0 {j0}");
                if k == 0 {
                    assert_eq!(h.reach(u).unwrap(), u64::from(u));
                }
            }
        }
        assert!(h.reach(u32::try_from(n).unwrap()).is_err());
    }
}

/// k_max(n) over n = 2^0..2^20: every k <= k_max(n) has a valid chain (validity is closed
/// downwards here, so KTooLarge is exactly "k > k_max"), n < 64 allows only k = 0, and
/// k_max is not monotone in n (`docs/models/dbsp-hmos.md`, Choices: `k_max(n)`; the values are the
/// snapshot).
///
/// The values by hand. Lemma 1's sizes (Section 3; docs: Lemma 1's sizes) for w = m_(i-1),
/// m_0 = n: z the least power of 3 with z (z - 1) / 6 >= w, d_i the largest power of two
/// <= floor(3w / z), m_i = ceil(3w / d_i). `chain` takes t_k = n / 2^ceil(log2 m_k) and
/// t_(i-1) = t_i / d_i, all powers of two, so k >= 1 is valid iff t_1 >= 1, i.e.
/// c_k = ceil(log2 m_k) + log2(d_2 ... d_k) <= log2 n (d_1 does not enter). As
/// m_(k+1) d_(k+1) >= 3 m_k, c_(k+1) >= c_k + 1 (hence closed downwards), so
/// k_max(2^e) = max{k <= 8 : c_k <= e}, 0 if c_1 > e. By e (m_1.., d_2.., c_1..):
/// e = 0..3: m_1 = 3, 6, 12, 12, c_1 = 2, 3, 4, 4 > e: 0.
/// e = 4..6: m = 48, 36; d_2 = 4; c = 6, 8: 0, 0, 1.
/// e = 7..10: m = 96, 36, 27, 41, 31, 47; d = 8, 4, 2, 4, 2; c = 7, 9, 10, 12, 13, 15: 1, 1, 2, 3.
/// e = 11..13: m = 384, 144, 108, 41, 31, 47; d = 8, 4, 8, 4, 2; c = 9, 11, 12, 14, 15, 17:
/// 2, 3, 3.
/// e = 14..16: m = 768, 144, 108, 41, 31, 47; d = 16, 4, 8, 4, 2; c = 10, 12, 13, 15, 16, 18:
/// 3, 4, 5.
/// e = 17..19: m = 3072, 288, 108, 41, 31, 47; d = 32, 8, 8, 4, 2; c = 12, 14, 15, 17, 18, 20:
/// 4, 5, 5.
/// e = 20: m = 12288, 1152, 432, 81, 31, 47; d = 32, 8, 16, 8, 2; c = 14, 16, 17, 19, 20, 22: 5.
/// (E.g. e = 20: z = 6561, 729, 243, 81, 27, 27; d_1 = 256; m_3 = 3456 / 8 = 432.)
#[test]
fn k_max_table() {
    let table: Vec<(u32, u32)> = (0..=20).map(|e| (e, k_max(1 << e))).collect();
    for &(e, k) in &table {
        assert!((0..=k).all(|j| chain(1 << e, j).is_some()), "n = 2^{e}");
    }
    insta::assert_yaml_snapshot!("k_max_table", table);
}

/// Lemma 1 (iv), exhaustively on small graphs: for every Y-node y with at most 6 neighbours,
/// every nonempty S of its neighbours, every nu in {1, 2, 3} and every choice of nu edges per
/// node of S, the Y-nodes reached number at least (nu - 1) |S| / 4 + 1.
#[test]
fn lemma1_property_iv_exhaustive() {
    for w in (1..=40).chain([60, 90, 117]) {
        let g = lemma1(w);
        for bundle in g.bundles.iter().filter(|b| b.len() <= 6) {
            let size = bundle.len();
            for mask in 1_u32..(1 << size) {
                let s: Vec<u32> =
                    (0..size).filter(|i| mask >> i & 1 == 1).map(|i| bundle[i]).collect();
                for nu in 1..=3_usize {
                    // The nu-subsets of {0, 1, 2}.
                    let choices: Vec<Vec<usize>> = (0_u32..8)
                        .filter(|c| c.count_ones() as usize == nu)
                        .map(|c| (0..3).filter(|e| c >> e & 1 == 1).collect())
                        .collect();
                    let combos = choices.len().pow(s.len() as u32);
                    for combo in 0..combos {
                        let mut rest = combo;
                        let mut reached: Vec<u32> = Vec::new();
                        for &x in &s {
                            let pick = &choices[rest % choices.len()];
                            rest /= choices.len();
                            reached.extend(pick.iter().map(|&e| g.up[x as usize][e]));
                        }
                        reached.sort_unstable();
                        reached.dedup();
                        let need = (nu - 1) as f64 * s.len() as f64 / 4.0 + 1.0;
                        assert!(reached.len() as f64 >= need, "w = {w}, S = {s:?}, nu = {nu}");
                    }
                }
            }
        }
    }
}
