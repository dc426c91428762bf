//! Section 6 (Theorems 9, 10, Fact 4, Figures 5, 6): the lower-bound hosts,
//! the strategies the proofs consider, and the relaxed bound checked against the engine.

use overlap_ring::Error;
use overlap_ring::bounds::{relaxed_lb, work_lb};
use overlap_ring::engine::run;
use overlap_ring::guest::Program;
use overlap_ring::host::Host;
use overlap_ring::hosts::{
    figure6_path, h1, h2, h2_paper, one_copy_blocks, segments, strip, two_copy_segments,
};
use proptest::prelude::*;

/// `H_1(16)`: `s = 4`, links 3, 7, 11 have delay 4: 15 links, total `12 + 12 = 24`, `d_ave =
/// 24/15 = 8/5`. With one column per processor every row must cross a delay-4 link, so naive
/// takes `1 + 4 (T-1)` steps and so does the relaxed bound (each row waits for the neighbour
/// across the long link).
#[test]
fn h1_16_naive_pays_d_max() {
    let host = h1(16, 4).unwrap();
    assert_eq!((host.delays().len(), host.delays().iter().sum::<u32>()), (15, 24));
    assert!((host.d_ave() - 1.6).abs() < 1e-12);
    let plan = overlap_ring::naive::plan(16, 16).unwrap();
    for steps in 1..=5u64 {
        let r = run(&host, &plan, &Program::Mix, steps).unwrap();
        assert!(r.verified);
        assert_eq!(r.host_steps, 1 + 4 * (steps - 1));
        assert_eq!(relaxed_lb(&host, &plan, steps).unwrap(), 1 + 4 * (steps - 1));
    }
    assert_eq!(h1(12, 1).unwrap_err(), Error::NotSquare { n: 12 });
}

/// `h2_paper(16)`: `d = 4`, `L = 4`, `s = ceil(4/4) = 1`, `k = log2(16/4) = 2`. `box(1)` =
/// `[4] 1 1 [4]`, `box(2)` = `box(1)` + 4 unit links + `box(1)`: 12 links, 13 processors,
/// total delay `4 4 + 8 = 24` (`2^k (d + k s) = 4 (4 + 2)`), `d_ave = 2`; segments between
/// the long links have 1, 3, 5, 3, 1 processors. The two-copy strategy: segment sizes 3, 5, 3
/// (singletons idle): columns 1-3, then `w = floor(3/2) = 1` copy of column 3 and fresh 4-7,
/// then `w = 1` copy of 7 and fresh 8-9: `N = 9`, 2 copies of columns 3 and 7.
#[test]
fn h2_paper_16_and_two_copies() {
    let host = h2_paper(16, 4).unwrap();
    assert_eq!((host.n(), host.delays().iter().sum::<u32>()), (13, 24));
    assert!((host.d_ave() - 2.0).abs() < 1e-12);
    let sizes: Vec<usize> = segments(&host).iter().map(|(a, b)| b + 1 - a).collect();
    assert_eq!(sizes, vec![1, 3, 5, 3, 1]);
    let plan = two_copy_segments(&host).unwrap();
    assert_eq!(plan.copies().unwrap().0, 2);
    let cols: Vec<String> =
        plan.held().iter().map(|h| h.map_or("-".into(), |(c, _)| c.to_string())).collect();
    insta::assert_snapshot!("h2_paper_16", format!("{}\n{}", strip(&host), cols.join(" ")));
    let r = run(&host, &plan, &Program::Mix, 6).unwrap();
    assert!(r.verified);
    assert!(r.host_steps >= relaxed_lb(&host, &plan, 6).unwrap());
    assert_eq!(h2(0, 4, 1, 1).unwrap_err(), Error::BadH2Params { k: 0, d: 4, s: 1 });
}

/// Figure 6 (`j` even): columns `i+1 .. i+j` going back (A), a zigzag between `i+j+1` and
/// `i+j` (B, C), back down to `i` (D), a zigzag between `i+1` and `i` (E, F); the row drops by
/// exactly 1 per pebble and the column moves by at most 1, so it is a dependency path.
#[test]
fn figure6_paths() {
    let mut text = String::new();
    for j in [2, 4, 6] {
        let path = figure6_path(j);
        assert_eq!(path.len() as i64, 4 * j);
        for w in path.windows(2) {
            assert!((w[0].0 - w[1].0).abs() <= 1 && w[1].1 - w[0].1 == 1);
        }
        let cols: Vec<String> = path.iter().map(|(c, _)| c.to_string()).collect();
        text.push_str(&format!("j={j}: {}\n", cols.join(" ")));
    }
    insta::assert_snapshot!("figure6", text);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// `H_2(k, d, s)` has `2^k (1 + k s)` links of total delay `2^k (d + k s)`; any two
    /// processors in different segments are at least `d` apart (Fact 4's "in particular").
    #[test]
    fn h2_counts_and_fact4(k in 1u32..5, d in 2u32..9, s in 1u32..4) {
        let host = h2(k, d, s, 1).unwrap();
        let two = 1u64 << k;
        prop_assert_eq!(host.delays().len() as u64, two * (1 + u64::from(k * s)));
        prop_assert_eq!(host.delays().iter().map(|&x| u64::from(x)).sum::<u64>(), two * u64::from(d + k * s));
        let segs = segments(&host);
        for w in segs.windows(2) {
            // Neighbouring segments: the long link between them.
            prop_assert!(host.delays()[w[0].1] >= d);
        }
    }

    /// Theorem 9 on `H_1(16)`: for every one-copy assignment (random contiguous blocks, any
    /// load, idle processors allowed), `max(relaxed_lb, work) >= 1 + 4 (T-1)`.
    #[test]
    fn theorem9_every_one_copy_assignment(cuts in proptest::collection::vec(0usize..5, 16), steps in 1u64..7) {
        let host = h1(16, 4).unwrap();
        let total: usize = cuts.iter().sum();
        prop_assume!(total > 0);
        let plan = one_copy_blocks(&cuts).unwrap();
        let bound = relaxed_lb(&host, &plan, steps).unwrap().max(work_lb(&plan, steps));
        prop_assert!(bound > 4 * (steps - 1), "bound {} < 1 + 4 (T-1)", bound);
        prop_assert_eq!(plan.copies().unwrap().0, 1);
    }

    /// The engine never beats the relaxed bound or the work bound, whatever the plan.
    #[test]
    fn engine_respects_lower_bounds(delays in proptest::collection::vec(1u32..9, 1..14), steps in 1u64..8, scheme in 0usize..3, b in 1u32..3) {
        let n = delays.len() + 1;
        let host = Host::new(n, delays, b).unwrap();
        let plan = match scheme {
            0 => overlap_ring::naive::plan(n, 2 * n).unwrap(),
            1 => overlap_ring::trapezoid::plan(n, u64::from(host.d_max())).unwrap(),
            _ => one_copy_blocks(&(0..n).map(|p| p % 3).collect::<Vec<_>>()).unwrap(),
        };
        let r = run(&host, &plan, &Program::Sum, steps).unwrap();
        prop_assert!(r.verified);
        prop_assert!(r.host_steps >= relaxed_lb(&host, &plan, steps).unwrap());
        prop_assert!(r.host_steps >= work_lb(&plan, steps));
    }
}
