//! GOAL schedules as LogP programs on the direct machine under every stalling rule and
//! several adversaries: every rank completes and takes exactly its matched messages, every
//! trace is legal, and stall-free LogP rejects the all-to-all when the capacity is 1.

use logp_stall::goal::{binomial_broadcast, dissemination, goal_programs, linear_alltoall, parse};
use logp_stall::{
    CheckOpts, Error, Logp, LogpParams, MachineConfig, PolicyAdversary, StallRule, check_legal, run,
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
                let mc = MachineConfig::new(
                    LogpParams::new(Logp { p, latency: l, gap, o: 1 }).unwrap(),
                    rule,
                )
                .unwrap();
                let ex = run(&mc, goal_programs(&s, gap).unwrap(), &mut adv)
                    .unwrap_or_else(|e| panic!("{rule:?}: {e}"));
                assert_eq!(ex.states, s.reference_states().unwrap(), "{rule:?}");
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
        let mc =
            MachineConfig::new(LogpParams::new(Logp { p, latency: l, gap, o: 1 }).unwrap(), rule)
                .unwrap();
        let ex = run(&mc, goal_programs(&s, gap).unwrap(), &mut PolicyAdversary::worst())
            .unwrap_or_else(|e| panic!("{rule:?}: {e}"));
        assert_eq!(ex.states, s.reference_states().unwrap(), "{rule:?}");
        assert_eq!(ex.violating, 0, "{rule:?}");
    }
}

/// A gather (ranks 1..3 each send to rank 0 at step 0) with G = L = 4, K = 1: c_0(0) = 3 > 1.
/// Stall-free LogP reports the capacity violation at step 0, destination 0; δ-LogP (every
/// δ) and immediate blocking run it to completion with legal traces. Under every δ rule the
/// three submissions of step 0 all find c_0(0) = 3 > K, so all 3 are violating; immediate
/// blocking accepts the first (c_0 = 1 <= K) and blocks the other 2.
#[test]
fn gather_needs_stalling_when_capacity_is_one() {
    let text = "num_ranks 4\nrank 0 {\na: recv 1b from 1\nb: recv 1b from 2\nc: recv 1b from 3\n}\n\
                rank 1 {\ns: send 1b to 0\n}\nrank 2 {\ns: send 1b to 0\n}\nrank 3 {\ns: send 1b to 0\n}\n";
    let s = parse(text).unwrap();
    let (p, l, gap) = (4u32, 4u64, 4u64);
    for rule in rules(l, gap) {
        for mut adv in adversaries() {
            let mc = MachineConfig::new(
                LogpParams::new(Logp { p, latency: l, gap, o: 1 }).unwrap(),
                rule,
            )
            .unwrap();
            let result = run(&mc, goal_programs(&s, gap).unwrap(), &mut adv);
            match rule {
                StallRule::StallFree => match result {
                    Err(Error::CapacityViolation(v)) => assert_eq!((v.step, v.dest), (0, 0)),
                    other => panic!("expected a capacity violation, got {other:?}"),
                },
                _ => {
                    let ex = result.unwrap_or_else(|e| panic!("{rule:?}: {e}"));
                    assert_eq!(ex.states, s.reference_states().unwrap(), "{rule:?}");
                    let want = if rule == StallRule::ImmediateBlocking { 2 } else { 3 };
                    assert_eq!(ex.violating, want, "{rule:?}");
                    assert!(check_legal(&ex.trace, CheckOpts::default()).is_ok(), "{rule:?}");
                }
            }
        }
    }
}

/// A GOAL file of one's own from a config, on the direct machine under δ-stalling and on the
/// cycle simulation (issue 40): `fixtures/traces/gather-any-p8.goal` has ranks 1..7 send one
/// message each to rank 0 at step 0, which receives them from any source (dynamic matching).
/// With L = 8, G = 2 the capacity is K = ceil(L/G) = 4 and c_0(0) = 7 > K for each of the
/// seven same-step submissions, so all 7 are violating and each sender gets a stall episode
/// (signal at step 1); rank 0 takes them one receive per G = 2 steps. Every rank completes,
/// rank 0 holds the 7 messages, the trace is legal.
#[test]
fn a_goal_file_runs_under_delta_stalling_from_a_config() {
    use logp_stall::driver::LogpStall;
    use netcore::study::{ConfigFile, Model};
    let dir =
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/logp-stall"));
    let program = "[program]\ntype = \"goal\"\nfile = \"../traces/gather-any-p8.goal\"\n";
    let direct = format!(
        "kind = \"logp\"\np = 8\nG = 2\nL = 8\nrule = \"delta\"\ndelta = 2\ndelivery = \"latest\"\nstalling = \"eager\"\n{program}"
    );
    let report = LogpStall.run_config(&ConfigFile::new(&direct, dir)).expect("runs");
    let r = &report.report;
    assert_eq!(r["algorithm"], "goal");
    assert_eq!(r["verified"], true, "{}", report.summary);
    assert_eq!(r["violating"], 7);
    let episodes = r["episodes"].as_array().expect("episodes");
    assert_eq!(episodes.len(), 7);
    assert!(episodes.iter().all(|e| e["signal"] == 1));
    assert!(r["legal"]["violations"].is_null(), "{}", r["legal"]);
    let simulated = format!(
        "kind = \"sim\"\n[machine]\np = 8\nG = 2\nL = 8\ndelta = 8\ng = 2\nl = 8\n{program}"
    );
    let report = LogpStall.run_config(&ConfigFile::new(&simulated, dir)).expect("runs");
    assert!(
        report.summary.contains("verified = true, legal = true, replay equal"),
        "{}",
        report.summary
    );
    let wrong = direct.replace("p = 8", "p = 16");
    let err = LogpStall.run_config(&ConfigFile::new(&wrong, dir)).unwrap_err().to_string();
    assert!(err.contains("p = the GOAL schedule's num_ranks"), "{err}");
}
