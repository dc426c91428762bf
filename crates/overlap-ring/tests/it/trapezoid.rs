//! Theorem 4 (paper Section 3.4, Figure 4): the trapezoid scheme on a
//! uniform-delay host, executed by the engine.

use overlap_ring::engine::run;
use overlap_ring::guest::Program;
use overlap_ring::host::Host;
use overlap_ring::trapezoid::{plan, r_of};
use proptest::prelude::*;

/// Exact case: `n = 8`, `d = 16`, `r = 4`, `N = 32`, `T = 8`, `B = 1`. An interior
/// processor holds 12 columns and computes 12 x 8 = 96 pebbles; it never stalls (the
/// boundary column `(j-2)r` is computed in `p_(j-1)`'s trapezoid at steps 3, 12, 19 for rows
/// 1-3, usable 16 steps later at 19, 28, 35, while `p_j` needs rows 1, 2, 3 at steps 31, 35,
/// 41; the row-4 boundaries come from the neighbours' triangles at steps 44, 45, usable at 60,
/// 61, needed only at step 77), so `host_steps = 96` = the work of one interior processor.
/// The two end processors hold 8 columns (`[1, 2r]` and `[25, 32]`), so the run computes
/// `(6 x 12 + 2 x 8) x 8 = 704` pebbles.
#[test]
fn theorem4_n8_d16_is_compute_bound() {
    let host = Host::new(8, vec![16; 7], 1).unwrap();
    let p = plan(8, 16).unwrap();
    assert_eq!((p.n_cols(), p.phase(), p.max_held()), (32, 4, 12));
    let run = run(&host, &p, &Program::Mix, 8).unwrap();
    assert!(run.verified);
    assert_eq!((run.host_steps, run.work), (96, 704));
    assert_eq!((run.load, run.copies_max), (12, 3));
    assert_eq!(run.queue_wait, 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Theorem 4: `host_steps <= 5 d ceil(T/r)` with `r = floor(sqrt d)`, load `<= 3r`,
    /// copies `<= 3`, and the run equals the direct guest run.
    #[test]
    fn theorem4_five_d_per_phase(n in 1usize..10, d in 1u64..70, steps in 1u64..20, b in prop::sample::select(vec![1u32, 3])) {
        let host = Host::new(n, vec![d as u32; n - 1], b).unwrap();
        let p = plan(n, d).unwrap();
        let r = r_of(d);
        let run = run(&host, &p, &Program::Sum, steps).unwrap();
        prop_assert!(run.verified);
        prop_assert!(run.host_steps <= 5 * d * steps.div_ceil(r), "{} > {}", run.host_steps, 5 * d * steps.div_ceil(r));
        prop_assert!(run.load as u64 <= 3 * r);
        prop_assert!(run.copies_max <= 3);
    }
}

/// Figure 4, `d = 16`, `r = 4`: `P_j` is 12 columns wide, so a phase has
/// `|P_j| = 48` pebbles; trapezoid row `t` has `3r - 2t` = 10, 8, 6, 4 pebbles, `|T| = 28 =
/// 2d - r`; each triangle has `1 + 2 + 3 + 4 = r(r+1)/2 = 10` pebbles, `|L ∪ R| = d + r`.
#[test]
fn figure4_regions_snapshot() {
    insta::assert_snapshot!("figure4_r4", overlap_ring::trapezoid::figure4(4));
}
