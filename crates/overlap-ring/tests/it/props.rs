//! Properties: the host simulation equals the direct guest run; runs are deterministic.

use overlap_ring::guest::Program;
use overlap_ring::host::Host;
use overlap_ring::naive;
use proptest::prelude::*;

fn case() -> impl Strategy<Value = (Vec<u32>, usize, u64, usize, u32)> {
    (1usize..7).prop_flat_map(|n| {
        (proptest::collection::vec(1u32..7, n - 1), n..3 * n + 1, 1u64..9, 0usize..3, 1u32..4)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every pebble the hosts compute equals the direct run; each is computed once.
    #[test]
    fn naive_equals_direct_run((delays, cols, steps, prog, b) in case()) {
        let n = delays.len() + 1;
        let d_max = u64::from(delays.iter().copied().max().unwrap_or(1));
        let host = Host::new(n, delays, b).unwrap();
        let run = naive::simulate(&host, cols, &Program::ALL[prog], steps).unwrap();
        prop_assert!(run.verified);
        prop_assert_eq!(run.work, cols as u64 * steps);
        // Lower bound: a row cannot finish before the previous one crossed the slowest link.
        let lower = 1 + (steps - 1) * d_max;
        prop_assert!(run.host_steps >= lower);
    }

    /// Same input, same run (every measured field and the per-row finishing steps), for the
    /// naive and trapezoid plans on small hosts.
    #[test]
    fn runs_are_deterministic((delays, cols, steps, prog, b) in case(), trapezoid in any::<bool>()) {
        let n = delays.len() + 1;
        let host = Host::new(n, delays, b).unwrap();
        let plan = if trapezoid {
            overlap_ring::trapezoid::plan(n, u64::from(host.d_max().max(1))).unwrap()
        } else {
            naive::plan(n, cols).unwrap()
        };
        let a = overlap_ring::engine::run(&host, &plan, &Program::ALL[prog], steps).unwrap();
        let b = overlap_ring::engine::run(&host, &plan, &Program::ALL[prog], steps).unwrap();
        prop_assert!(a.verified);
        prop_assert_eq!(&a.row_done, &b.row_done);
        prop_assert_eq!(a, b);
    }
}

/// Hosts large enough for OVERLAP (`n >= c L` with `c = 5/2`), with a few long links so that
/// stage 1 kills and the assignment overlaps: `(delays, steps, program, block b)`.
fn overlap_case() -> impl Strategy<Value = (Vec<u32>, u64, usize, usize)> {
    (48usize..97).prop_flat_map(|n| {
        let delays = proptest::collection::vec(prop_oneof![4 => Just(1u32), 1 => 8u32..60], n - 1);
        (delays, 2u64..6, 0usize..3, 1usize..3)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// OVERLAP and blocked OVERLAP (Theorems 2 and 3) run twice give the same run; the plan is
    /// really OVERLAP's (some database has several copies), not a fallback to one copy.
    #[test]
    fn overlap_runs_are_deterministic((delays, steps, prog, b) in overlap_case()) {
        let n = delays.len() + 1;
        let host = Host::new(n, delays, 1).unwrap();
        let c = overlap_ring::overlap::C::new(5, 2).unwrap();
        let (plan, _) = overlap_ring::overlap::plan(&host, c, b).unwrap();
        let a = overlap_ring::engine::run(&host, &plan, &Program::ALL[prog], steps).unwrap();
        let again = overlap_ring::engine::run(&host, &plan, &Program::ALL[prog], steps).unwrap();
        prop_assert!(a.verified);
        prop_assert!(a.copies_max > 1, "OVERLAP made one copy per database: {a:?}");
        prop_assert_eq!(&a.row_done, &again.row_done);
        prop_assert_eq!(a, again);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// The timeline observes without changing: the run with it equals the run without it in
    /// every measured field; it records one computation per unit of work (unit weights), one
    /// delivery per message, the last computation at `host_steps`, every copy of every pebble
    /// `(i, t)` exactly once, and every delivery after its pebble was computed by its source.
    #[test]
    fn timeline_records_the_run((delays, cols, steps, prog, b) in case(), trapezoid in any::<bool>()) {
        let n = delays.len() + 1;
        let host = Host::new(n, delays, b).unwrap();
        let plan = if trapezoid {
            overlap_ring::trapezoid::plan(n, u64::from(host.d_max().max(1))).unwrap()
        } else {
            naive::plan(n, cols).unwrap()
        };
        let p = &Program::ALL[prog];
        let reference = overlap_ring::guest::reference(p, plan.n_cols(), steps).unwrap();
        let plain = overlap_ring::engine::simulate(&host, &plan, p, &reference).unwrap();
        let mut traced =
            overlap_ring::engine::simulate_with_timeline(&host, &plan, p, &reference).unwrap();
        let timeline = traced.timeline.take().unwrap();
        prop_assert_eq!(&plain, &traced);
        prop_assert_eq!(timeline.computed.len() as u64, plain.work);
        prop_assert_eq!(timeline.received.len() as u64, plain.messages);
        prop_assert_eq!(timeline.computed.iter().map(|c| c.step).max(), Some(plain.host_steps));
        let copies = plan.held_total() as u64 * steps;
        let mut keys: Vec<_> = timeline.computed.iter().map(|c| (c.col, c.row, c.proc)).collect();
        let computed = keys.len();
        keys.sort_unstable();
        keys.dedup();
        prop_assert_eq!(keys.len(), computed, "a copy computed twice");
        prop_assert_eq!(keys.len() as u64, copies);
        for d in &timeline.received {
            let made = timeline.computed.iter().find(|c| (c.col, c.row, c.proc) == (d.col, d.row, d.src));
            prop_assert!(made.is_some_and(|c| c.step < d.step), "{:?}", d);
        }
    }
}
