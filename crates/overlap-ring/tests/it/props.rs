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
        let run = naive::simulate(&host, &Program::ALL[prog], cols, steps).unwrap();
        prop_assert!(run.verified);
        prop_assert_eq!(run.work, cols as u64 * steps);
        // Lower bound: a row cannot finish before the previous one crossed the slowest link.
        let lower = 1 + (steps - 1) * d_max;
        prop_assert!(run.host_steps >= lower);
    }

    /// Same input, same run (every measured field and the per-row finishing steps), for the
    /// naive, trapezoid and blocked OVERLAP plans.
    #[test]
    fn runs_are_deterministic((delays, cols, steps, prog, b) in case(), scheme in 0usize..3) {
        let n = delays.len() + 1;
        let host = Host::new(n, delays, b).unwrap();
        let plan = match scheme {
            0 => naive::plan(n, cols).unwrap(),
            1 => overlap_ring::trapezoid::plan(n, u64::from(host.d_max().max(1))).unwrap(),
            _ => match overlap_ring::overlap::plan(&host, overlap_ring::overlap::C::new(5, 2).unwrap(), 2) {
                Ok((plan, _)) => plan,
                Err(_) => naive::plan(n, cols).unwrap(),
            },
        };
        let a = overlap_ring::engine::run(&host, &plan, &Program::ALL[prog], steps).unwrap();
        let b = overlap_ring::engine::run(&host, &plan, &Program::ALL[prog], steps).unwrap();
        prop_assert!(a.verified);
        prop_assert_eq!(&a.row_done, &b.row_done);
        prop_assert_eq!(a, b);
    }
}
