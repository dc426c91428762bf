//! The polarity level-0 graph: the plane's facts, frame 0, the Reiman expansion bound, the
//! graph's errors, and PRAM steps on an HMOS built on it.

use dbsp_hmos::Error;
use dbsp_hmos::hmos::{
    Hmos, HmosConfig, Level0, PolarityPlane, polarity, polarity_frames_count, polarity_largest_q,
    polarity_q,
};
use dbsp_hmos::protocol::{HmosMemory, Selection};
use netcore::bsp::DbspParams;
use netcore::pram::{Access, AccessKind, GlobalMemory};
use proptest::prelude::*;

/// For q = 3..13 (odd primes): q^2 non-isotropic points, q(q^2 - 1)/6 frames (4, 20, 56,
/// 220, 364), each frame pairwise orthogonal, every point in (q - 1)/2 or (q + 1)/2 frames
/// (q^2 points times that degree is 3 #frames: e.g. q = 5 has 10 points in 2 frames and 15 in
/// 3, 20 + 45 = 60 = 3 * 20), and two points share at most one frame (they span one line,
/// whose pole is the only third point orthogonal to both).
#[test]
fn plane_facts() {
    for q in [3_u64, 5, 7, 11, 13] {
        let plane = PolarityPlane::new(q);
        assert_eq!(plane.points().len() as u64, q * q, "q = {q}");
        let frames = plane.frames(u64::MAX);
        assert_eq!(frames.len() as u64, polarity_frames_count(q), "q = {q}");
        let dot = |a: [u64; 3], b: [u64; 3]| (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) % q;
        let mut degree = vec![0_u64; (q * q) as usize];
        let mut pairs = std::collections::BTreeSet::new();
        for f in &frames {
            assert!(f[0] < f[1] && f[1] < f[2]);
            for (i, j) in [(0, 1), (0, 2), (1, 2)] {
                let (a, b) = (plane.points()[f[i] as usize], plane.points()[f[j] as usize]);
                assert_eq!(dot(a, b), 0, "q = {q}: frame {f:?}");
                assert!(pairs.insert((f[i], f[j])), "q = {q}: pair in two frames");
            }
            for &x in f {
                degree[x as usize] += 1;
            }
        }
        assert!(degree.iter().all(|&d| d == q / 2 || d == q.div_ceil(2)), "q = {q}");
        let mut sorted = frames.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, frames, "frames in lexicographic order");
    }
}

/// n = 128, m = 220: q = 11 (the smallest odd prime with q^2 <= 128 and q(q^2 - 1)/6 >= 220:
/// 7 gives 56). The points with x0 = 0 are (0,0,1), (0,1,0), (0,b,1) for b = 1..10, none
/// isotropic (b^2 + 1 = 0 has no root mod 11), so (1,0,0) is point 12 and frame 0 is the
/// standard basis {0, 1, 12}. Point x owns modules [floor(128 x / 121), floor(128 (x+1) / 121)):
/// [0, 1), [1, 2), [12, 13), so adj0(0) = [0, 1, 12].
#[test]
fn frame_0_and_q() {
    assert_eq!(polarity_q(128, 220), Ok(11));
    assert_eq!(polarity_q(128, 56), Ok(7));
    let (q, adj) = polarity(128, 220).unwrap();
    assert_eq!((q, adj.len()), (11, 660));
    assert_eq!(adj[..3], [0, 1, 12]);
    let hmos =
        Hmos::build(&HmosConfig::with_graph(128, 220, 3, 1, 0, Level0::Polarity).unwrap()).unwrap();
    assert_eq!(hmos.adj0(0).unwrap().to_vec(), vec![0, 1, 12]);
    // Every module of 128 is used: the 7 points x with a two-module range alternate.
    let mut used = [false; 128];
    for v in 0..220 {
        let mods = hmos.adj0(v).unwrap();
        assert!(mods[0] < mods[1] && mods[1] < mods[2]);
        for &u in mods.iter() {
            used[u as usize] = true;
        }
    }
    assert!(used.iter().all(|&u| u));
}

/// The graph's errors name field and rule: r must be 3; n = 64 allows q = 7 only (q^2 = 49 <=
/// 64 < 121), 56 frames < m = 64.
#[test]
fn polarity_errors() {
    let e = HmosConfig::with_graph(128, 128, 5, 0, 0, Level0::Polarity).unwrap_err();
    assert_eq!(e.to_string(), "r must satisfy r = 3 for level0 = polarity (got 5)");
    let e = HmosConfig::with_graph(64, 64, 3, 0, 0, Level0::Polarity).unwrap_err();
    assert_eq!(e, Error::PolarityUnavailable { n: 64, m: 64, most: 56 });
    assert_eq!(
        e.to_string(),
        "m must satisfy m <= q(q^2 - 1)/6 for an odd prime q with q^2 <= n = 64 for level0 = polarity (at most 56 variables; got m = 64)"
    );
}

/// The densest plane per n (Section 5's design density): the largest odd prime q with
/// q^2 <= n, by hand: 2^7 -> 11 (121), 2^8 -> 13 (17^2 = 289), 2^10 -> 31 (961), 2^12 -> 61
/// (67^2 = 4489), 2^16 -> 251 (257^2 = 66049), 2^17 -> 359 (361 = 19^2, 367^2 = 134689); its
/// frames are the most variables a polarity graph on n modules holds (the error's `most`).
#[test]
fn densest_plane() {
    assert_eq!(polarity_largest_q(8), None);
    for (n, q) in
        [(9, 3), (128, 11), (256, 13), (1024, 31), (4096, 61), (65536, 251), (131072, 359)]
    {
        assert_eq!(polarity_largest_q(n), Some(q), "n = {n}");
    }
    let most = polarity_frames_count(31);
    assert_eq!(most, 4960);
    assert_eq!(polarity_q(1024, most), Ok(31));
    assert_eq!(
        polarity_q(1024, most + 1),
        Err(Error::PolarityUnavailable { n: 1024, m: most + 1, most })
    );
}

/// Reads after writes on an HMOS (n = 128, k = 1) over the polarity graph, culling at every
/// level: every read returns the value written, through steps with concurrent reads.
#[test]
fn pram_steps_on_polarity() {
    let params = DbspParams::power_law(128, 0.5, 0.5).unwrap();
    let config = HmosConfig::with_graph(128, 220, 3, 1, 7, Level0::Polarity).unwrap();
    let hmos = Hmos::build(&config).unwrap();
    let selection = Selection::Cull { a: 2.0, eps: 0.3 };
    let mut mem = HmosMemory::with_hmos(params, hmos, 220, &[], selection).unwrap();
    let access = |pid: u32, kind, addr: u64, value| Access { pid, kind, addr, value };
    let mut writes: Vec<Access> = (0..128)
        .map(|p| access(p, AccessKind::Write, u64::from(p) + 92, i64::from(p) * 3))
        .collect();
    mem.step(1, &mut writes);
    let mut reads: Vec<Access> =
        (0..128).map(|p| access(p, AccessKind::Read, u64::from(p % 64) + 92, 0)).collect();
    mem.step(2, &mut reads);
    assert!(mem.error().is_none());
    for (p, a) in (0_i64..).zip(&reads) {
        assert_eq!(a.value, (p % 64) * 3, "processor {p}");
    }
    assert!(mem.stats().iter().all(|s| s.levels.iter().all(|l| !l.forced)));
}

proptest! {
    /// Expansion (Reiman): |S| variables, each with 2 of its 3 modules chosen, reach L modules
    /// with |S| <= L (1 + sqrt(4L - 3)) / 4, because the chosen pairs are distinct edges of a
    /// C4-free graph on the reached points (splitting points over modules only adds modules).
    #[test]
    fn reiman_expansion(
        picks in proptest::collection::btree_map(0_u64..220, 0_usize..3, 1..120),
    ) {
        let (_, adj) = polarity(128, 220).unwrap();
        let mut reached: Vec<u32> = Vec::new();
        for (&v, &skip) in &picks {
            let mods = &adj[3 * v as usize..3 * v as usize + 3];
            reached.extend((0..3).filter(|&j| j != skip).map(|j| mods[j]));
        }
        reached.sort_unstable();
        reached.dedup();
        let l = reached.len() as f64;
        prop_assert!(picks.len() as f64 <= l * (1.0 + (4.0 * l - 3.0).sqrt()) / 4.0);
    }
}
