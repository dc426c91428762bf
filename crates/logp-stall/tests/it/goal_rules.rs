//! GOAL schedules as LogP programs on the direct machine under every stalling rule and
//! several adversaries: every rank completes and takes exactly its matched messages, every
//! trace is legal, and stall-free LogP rejects the all-to-all when the capacity is 1.

use logp_stall::goal::{binomial_broadcast, dissemination, goal_programs, linear_alltoall, parse};
use logp_stall::{
    CheckOpts, Error, LogpParams, MachineConfig, PolicyAdversary, StallRule, check_legal, run,
};

fn rules(l: u64, gap: u64) -> Vec<StallRule> {
    vec![
        StallRule::StallFree,
        StallRule::Delta { delta: 1 },
        StallRule::Delta { delta: gap },
        StallRule::Delta { delta: l },
        StallRule::ImmediateBlocking,
    ]
}

fn adversaries() -> Vec<PolicyAdversary> {
    vec![
        PolicyAdversary::benign(),
        PolicyAdversary::worst(),
        PolicyAdversary::lazy(),
        PolicyAdversary::random(7),
    ]
}

/// Broadcast and dissemination send at most one message per destination at a time (each
/// rank receives once per round, rounds are ordered by dependencies), so they run under every
/// rule, stall-free included, and every adversary.
#[test]
fn tree_and_dissemination_run_under_every_rule() {
    let (p, l, gap) = (16u32, 8u64, 2u64);
    for text in [binomial_broadcast(p, 8).unwrap(), dissemination(p, 8).unwrap()] {
        let s = parse(&text).unwrap();
        for rule in rules(l, gap) {
            for mut adv in adversaries() {
                let mc = MachineConfig::new(LogpParams::new(p, l, gap, 1).unwrap(), rule).unwrap();
                let ex = run(&mc, goal_programs(&s, gap), &mut adv)
                    .unwrap_or_else(|e| panic!("{rule:?}: {e}"));
                assert_eq!(ex.states, s.reference_states(), "{rule:?}");
                assert!(check_legal(&ex.trace, CheckOpts::default()).is_ok(), "{rule:?}");
            }
        }
    }
}

/// Linear all-to-all with G = L (capacity ceil(L/G) = 1) is stall-free by its staggering:
/// rank i's n-th send goes to i + n + 1 at step nG, so the message from i - 1 (submitted at 0,
/// delivered by L = G) has arrived when the one from i - 2 is submitted at G. It runs under
/// every rule, stall-free included, even against the worst adversary.
#[test]
fn linear_alltoall_is_stall_free_by_staggering() {
    let (p, l, gap) = (8u32, 4u64, 4u64);
    let s = parse(&linear_alltoall(p, 8).unwrap()).unwrap();
    for rule in rules(l, gap) {
        let mc = MachineConfig::new(LogpParams::new(p, l, gap, 1).unwrap(), rule).unwrap();
        let ex = run(&mc, goal_programs(&s, gap), &mut PolicyAdversary::worst())
            .unwrap_or_else(|e| panic!("{rule:?}: {e}"));
        assert_eq!(ex.states, s.reference_states(), "{rule:?}");
        assert_eq!(ex.violating, 0, "{rule:?}");
    }
}

/// A gather (ranks 1..3 each send to rank 0 at step 0) with G = L = 4, K = 1: c_0(0) = 3 > 1.
/// Stall-free LogP reports the capacity violation at step 0, destination 0; δ-LogP (every
/// δ) and immediate blocking run it to completion with legal traces.
#[test]
fn gather_needs_stalling_when_capacity_is_one() {
    let text = "num_ranks 4\nrank 0 {\na: recv 1b from 1\nb: recv 1b from 2\nc: recv 1b from 3\n}\n\
                rank 1 {\ns: send 1b to 0\n}\nrank 2 {\ns: send 1b to 0\n}\nrank 3 {\ns: send 1b to 0\n}\n";
    let s = parse(text).unwrap();
    let (p, l, gap) = (4u32, 4u64, 4u64);
    for rule in rules(l, gap) {
        for mut adv in adversaries() {
            let mc = MachineConfig::new(LogpParams::new(p, l, gap, 1).unwrap(), rule).unwrap();
            let result = run(&mc, goal_programs(&s, gap), &mut adv);
            match rule {
                StallRule::StallFree => match result {
                    Err(Error::CapacityViolation(v)) => assert_eq!((v.step, v.dest), (0, 0)),
                    other => panic!("expected a capacity violation, got {other:?}"),
                },
                _ => {
                    let ex = result.unwrap_or_else(|e| panic!("{rule:?}: {e}"));
                    assert_eq!(ex.states, s.reference_states(), "{rule:?}");
                    assert!(ex.violating > 0, "{rule:?}");
                    assert!(check_legal(&ex.trace, CheckOpts::default()).is_ok(), "{rule:?}");
                }
            }
        }
    }
}
