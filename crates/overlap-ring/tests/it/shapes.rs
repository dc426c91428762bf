//! Guest rings and 2-D arrays run through their super-column adapters (paper Section 1's ring
//! folding, Section 5, Theorems 7, 8), checked against the unfolded guests; guest-program panics
//! become errors.

use overlap_ring::Error;
use overlap_ring::engine::{run, simulate};
use overlap_ring::guest::{GuestProgram, Program, Side, reference};
use overlap_ring::host::Host;
use overlap_ring::naive;
use overlap_ring::shapes::{FoldedRing, GridMix, SuperColumns, array2d_plan};
use proptest::prelude::*;

/// Theorem 7, case 1: uniform delay `d`, bandwidth `B`, super-column `c` on processor
/// `c` (`m >= 2`). A super-pebble takes `m` steps; its `m` units cross a link in
/// `d + ceil(m/B) - 1` steps, so a row costs `max(m + d + ceil(m/B) - 2, m)` after the first
/// (which costs `m`): `host_steps = (T-1) max(m + d + ceil(m/B) - 2, m) + m`. With `m = 4`,
/// `d = 1`, `B = 1`: period 7, `T = 2 -> 11`, `T = 5 -> 32`.
#[test]
fn theorem7_case1_exact() {
    let grid = SuperColumns::new(GridMix, 4, 4).unwrap();
    for (steps, want) in [(2, 11), (5, 32)] {
        let host = Host::new(6, vec![1; 5], 1).unwrap();
        let plan = array2d_plan(6, 4).unwrap();
        let r = simulate(&host, &plan, &grid, &grid.reference(steps).unwrap()).unwrap();
        assert!(r.verified);
        assert_eq!(r.host_steps, want);
    }
    for (m, d, b, steps) in [(3, 5, 2, 4), (5, 2, 5, 3), (2, 9, 1, 3)] {
        let grid = SuperColumns::new(GridMix, m, m).unwrap();
        let host = Host::new(m, vec![d; m - 1], b).unwrap();
        let plan = array2d_plan(m, m).unwrap();
        let r = simulate(&host, &plan, &grid, &grid.reference(steps).unwrap()).unwrap();
        let m = m as u64;
        let period = (m + u64::from(d) + m.div_ceil(u64::from(b)) - 2).max(m);
        assert_eq!(r.host_steps, (steps - 1) * period + m, "m={m} d={d} B={b}");
        assert_eq!(r.load as u64, m);
    }
}

/// Theorem 7, case 2: `n0 = 4`, `d = 256`, `m = 16 = d^(1/3) n0^(2/3)`, `W = 4`: every
/// phase of `W` rows takes at most `4 m^3 / n0^2 = 1024` steps (compute: 12 super-columns of
/// weight 16 for 4 rows = 768 per phase).
#[test]
fn theorem7_case2_phase_bound() {
    let grid = SuperColumns::new(GridMix, 16, 16).unwrap();
    let host = Host::new(4, vec![256; 3], 16).unwrap();
    let plan = array2d_plan(4, 16).unwrap();
    let steps = 8;
    let r = simulate(&host, &plan, &grid, &grid.reference(steps).unwrap()).unwrap();
    assert!(r.verified);
    assert!(r.host_steps <= steps.div_ceil(4) * 1024, "{}", r.host_steps);
}

/// A ring guest folded into `N/2` super-columns runs on a host array like any guest and equals
/// the unfolded ring's direct run.
#[test]
fn folded_ring_on_a_host() {
    let ring = FoldedRing::new(Program::Mix, 12).unwrap();
    let host = Host::new(3, vec![4, 1], 2).unwrap();
    let plan = naive::plan(3, ring.n_cols()).unwrap();
    let r = simulate(&host, &plan, &ring, &ring.reference(9).unwrap()).unwrap();
    assert!(r.verified);
    assert_eq!((r.load, r.work), (4, 12 * 9));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Rings and grids: simulation == unfolded direct run on random hosts and plans.
    #[test]
    fn shapes_equal_direct_runs(n in 1usize..6, half in 1usize..8, rows in 1usize..4, steps in 1u64..7, d in 1u32..5, b in 1u32..4) {
        let host = Host::new(n, vec![d; n - 1], b).unwrap();
        let ring = FoldedRing::new(Program::Sum, 2 * half).unwrap();
        let cols = half.max(n);
        let plan = naive::plan(n, half.max(n)).unwrap();
        if cols == half {
            let r = simulate(&host, &plan, &ring, &ring.reference(steps).unwrap()).unwrap();
            prop_assert!(r.verified);
        }
        let grid = SuperColumns::new(GridMix, rows, cols).unwrap();
        let r = simulate(&host, &plan, &grid, &grid.reference(steps).unwrap()).unwrap();
        prop_assert!(r.verified);
        let p2 = array2d_plan(n, cols).unwrap();
        let r = simulate(&host, &p2, &grid, &grid.reference(steps).unwrap()).unwrap();
        prop_assert!(r.verified);
    }
}

/// A program that panics at pebble `(3, 2)` when armed.
struct PanicAt(bool);

impl GuestProgram for PanicAt {
    type Val = u64;
    type Db = u64;
    fn init_db(&self, _: usize) -> u64 {
        0
    }
    fn init_val(&self, i: usize) -> u64 {
        i as u64
    }
    fn boundary(&self, _: Side, _: u64) -> u64 {
        0
    }
    fn step(&self, db: &mut u64, i: usize, t: u64, l: &u64, m: &u64, r: &u64) -> u64 {
        assert!(!(self.0 && i == 3 && t == 2), "guest bug at ({i},{t})");
        *db += 1;
        l ^ m ^ r
    }
}

/// A guest program that panics is not our panic: the direct run and the engine both return
/// `GuestPanic` naming the pebble, and nothing is half-written.
#[test]
fn guest_panic_is_an_error() {
    let want = Error::GuestPanic { col: 3, row: 2, message: "guest bug at (3,2)".into() };
    assert_eq!(reference(&PanicAt(true), 4, 3).err(), Some(want.clone()));
    let host = Host::new(2, vec![3], 1).unwrap();
    let plan = naive::plan(2, 4).unwrap();
    assert_eq!(run(&host, &plan, &PanicAt(true), 3).err(), Some(want.clone()));
    // The engine itself catches it too (reference from the unarmed twin).
    let fine = reference(&PanicAt(false), 4, 3).unwrap();
    assert_eq!(simulate(&host, &plan, &PanicAt(true), &fine).err(), Some(want.clone()));
    // On the row-sweep engine's threads: the range holding column 3 fails at row 2, the others
    // stop waiting for it (T = 200 rows, more than a mailbox holds), and its error is returned.
    let host = Host::new(8, vec![2; 7], 1).unwrap();
    let plan = naive::plan(8, 8).unwrap();
    let fine = reference(&PanicAt(false), 8, 200).unwrap();
    for threads in 1..=4 {
        let got =
            overlap_ring::engine::fast::simulate(&host, &plan, &PanicAt(true), &fine, threads);
        assert_eq!(got.err(), Some(want.clone()), "{threads} threads");
    }
}
