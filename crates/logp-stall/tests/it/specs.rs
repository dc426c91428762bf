//! Exact cases (the machine of paper §2 and §2.1, 2-compaction of paper §3), each with its
//! hand derivation, plus the
//! `fixtures/logp-stall/logp-*.toml` single-run configs.

use logp_stall::algorithms::{
    PlanOp, PlanProc, bsp_two_compaction, outputs, two_compaction_delta, two_compaction_sf_tree,
};
use logp_stall::{
    CheckOpts, Error, Logp, LogpParams, MachineConfig, PolicyAdversary, Replay, StallRule,
    check_legal, run,
};
use netcore::bsp::{Bsp, BspParams};
use netcore::study::{ConfigFile, Model};
use serde_json::json;

/// Each message's source, destination and receive step, in submission order: what the
/// buffer order (delivery, submission, source) decides.
fn receives<S>(e: &logp_stall::Execution<S>) -> Vec<(u32, u32, Option<u64>)> {
    e.trace.messages.iter().map(|m| (m.src, m.dest, m.received_at)).collect()
}

fn summary(e: &logp_stall::Execution<logp_stall::algorithms::PlanState>) -> serde_json::Value {
    let legal = check_legal(&e.trace, CheckOpts::default());
    assert!(legal.is_ok(), "engine trace illegal: {legal:?}");
    let msgs: Vec<String> = e
        .trace
        .messages
        .iter()
        .map(|m| format!("P{}->P{} submit {} deliver {}", m.src, m.dest, m.submit, m.deliver))
        .collect();
    let eps: Vec<String> = e
        .trace
        .episodes
        .iter()
        .map(|x| {
            format!("P{} trigger m{} stalled [{}, {})", x.proc, x.trigger_msg, x.signal, x.unstall)
        })
        .collect();
    json!({
        "T": e.t,
        "outputs": outputs(&e.states),
        "stalled_steps": e.stalled_steps,
        "violating": e.violating,
        "messages": msgs,
        "episodes": eps,
    })
}

fn x_5_6() -> Vec<i64> {
    vec![0, 0, 0, 0, 0, 7, 9, 0]
}

/// δ-LogP 2-compaction, p = 8, G = L = δ = 2, nonzeros at 5 and 6.
/// D = 4G + 2L + δ = 14, T = D + G + 1 = 17 (= 8L + 1) under every adversary.
///
/// benign (Earliest, Never): step 0: P5, P6 submit to P0 (c_0(0) = 2 > K = 1: violating,
/// delivered at 1, no episode); step 2 (WaitUntil(G)): both submit to P1 (delivered at 3).
/// P0, P1 receive at D = 14 and D + G = 16: P0 holds (5,7), P1 holds (6,9). No stall.
#[test]
fn compaction_delta_benign() {
    let prm = LogpParams::new(Logp { p: 8, latency: 2, gap: 2, o: 1 }).unwrap();
    let cfg = MachineConfig::new(prm, StallRule::Delta { delta: 2 }).unwrap();
    let procs = two_compaction_delta(&prm, 2, &x_5_6()).unwrap();
    let e = run(&cfg, procs, &mut PolicyAdversary::benign()).unwrap();
    assert_eq!(e.t, 17);
    insta::assert_json_snapshot!(summary(&e));
}

/// Same, worst adversary (Latest, Eager): the step-0 messages get t_m = 0 + G c + L =
/// 0 + 4 + 2 = 6; eager signal t' = 1, unstall t'' = t̄ + δ = 8: P5, P6 stalled on [1, 8)
/// (7 steps each). At 8 both submit to P1: c = 2, t_m = 8 + 6 = 14 = D (the worst
/// adversary attains D); the second episodes [9, 16) are vacuous (P5, P6 halted at 8).
/// P0 receives at 14 (buffer order: P5 first) and 16; P1 receives at 14 (delivered at the
/// start of 14) and 16. T = 17.
#[test]
fn compaction_delta_worst() {
    let prm = LogpParams::new(Logp { p: 8, latency: 2, gap: 2, o: 1 }).unwrap();
    let cfg = MachineConfig::new(prm, StallRule::Delta { delta: 2 }).unwrap();
    let procs = two_compaction_delta(&prm, 2, &x_5_6()).unwrap();
    let e = run(&cfg, procs, &mut PolicyAdversary::worst()).unwrap();
    assert_eq!(e.t, 17);
    let receives = receives(&e);
    assert_eq!(receives, [(5, 0, Some(14)), (6, 0, Some(16)), (5, 1, Some(14)), (6, 1, Some(16))]);
    assert_eq!(e.stalled_steps, vec![0, 0, 0, 0, 0, 7, 7, 0]);
    insta::assert_json_snapshot!(summary(&e));
}

/// T_δ = 5G + 2L + δ + 1 under benign, worst, lazy and 5 random adversaries, for several
/// placements including the ones with P0 / P1 nonzero (local steps instead of self-sends).
#[test]
fn compaction_delta_time_every_adversary() {
    for (p, gap, l, delta) in [(8u32, 2u64, 2u64, 1u64), (8, 2, 4, 4), (16, 4, 8, 3), (16, 2, 8, 8)]
    {
        let prm = LogpParams::new(Logp { p, latency: l, gap, o: 1 }).unwrap();
        let cfg = MachineConfig::new(prm, StallRule::Delta { delta }).unwrap();
        for nz in [[0usize, 1], [0, 5], [1, 3], [2, 3], [p as usize - 2, p as usize - 1]] {
            let mut x = vec![0i64; p as usize];
            x[nz[0]] = 3;
            x[nz[1]] = -4;
            let mut advs =
                vec![PolicyAdversary::benign(), PolicyAdversary::worst(), PolicyAdversary::lazy()];
            advs.extend((0..5).map(PolicyAdversary::random));
            for mut adv in advs {
                let procs = two_compaction_delta(&prm, delta, &x).unwrap();
                let e = run(&cfg, procs, &mut adv).unwrap();
                assert_eq!(e.t, 5 * gap + 2 * l + delta + 1, "{p} {gap} {l} {delta} {nz:?}");
                assert_eq!(outputs(&e.states), (Some((nz[0] as u32, 3)), Some((nz[1] as u32, -4))));
                check_legal(&e.trace, CheckOpts::default()).unwrap();
            }
        }
    }
}

/// The δ algorithm is not stall-free: with G = L (K = 1) the two step-0 submissions to P0
/// give c_0(0) = 2 > 1.
#[test]
fn compaction_delta_under_stall_free_is_a_capacity_violation() {
    let prm = LogpParams::new(Logp { p: 8, latency: 2, gap: 2, o: 1 }).unwrap();
    let cfg = MachineConfig::new(prm, StallRule::StallFree).unwrap();
    let procs = two_compaction_delta(&prm, 2, &x_5_6()).unwrap();
    let err = run(&cfg, procs, &mut PolicyAdversary::worst()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "SF-LogP capacity violation at step 0: 2 messages in transit to P0 (cap ceil(L/G)=1): P5@0, P6@0"
    );
}

/// SF tree, p = 8, G = L = 2: R = 3 rounds at s_r = 4r; P0 receives at 2, 6, 10, submits to
/// P1 at s_3 = 12, P1 receives at 14: T = R(L+G) + L + 1 = 15 = (2R+1)L + 1, under the
/// stall-free rule and any adversary (one message per destination per round).
#[test]
fn compaction_sf_tree_p8() {
    let prm = LogpParams::new(Logp { p: 8, latency: 2, gap: 2, o: 1 }).unwrap();
    let cfg = MachineConfig::new(prm, StallRule::StallFree).unwrap();
    let mut first = None;
    for mut adv in [PolicyAdversary::benign(), PolicyAdversary::worst(), PolicyAdversary::random(3)]
    {
        let procs = two_compaction_sf_tree(&prm, &x_5_6()).unwrap();
        let e = run(&cfg, procs, &mut adv).unwrap();
        assert_eq!(e.t, 15);
        assert_eq!(e.violating, 0);
        first.get_or_insert_with(|| summary(&e));
    }
    insta::assert_json_snapshot!(first.unwrap());
}

/// Immediate blocking (the rule of "BSP vs LogP"), δ algorithm, p = 8, G = L = 2 (K = 1),
/// worst delivery: step 0: P5 accepted (source order, t_m = 2), P6 blocked and stalled from
/// 1; at 2 P5's message arrives, P6's is accepted (t_m = 4) and P6 is operational; P5 submits
/// to P1 at 2 (accepted, t_m = 4); P6 submits to P1 at 2 (gap measured from its submit at 0)
/// and is blocked; it halted, so no stalled steps; accepted at 4 (t_m = 6). T = 17.
/// `violating` = 2 is `Execution::violating`, which under immediate blocking counts the
/// blocked submissions (`docs/models/logp-stall.md`, Choices: immediate blocking): P6's m1
/// (to P0 at 0) and m3 (to P1 at 2). `check_legal` counts 4 (`LegalityReport::violating`,
/// the fixture's `legal.violating`): messages with c_j(t) > K = 1 recomputed from the trace
/// (paper §2.1, item 1; Choices: capacity), same-step submissions plus earlier ones still in
/// transit: m0, m1 to P0 at 0 and m2, m3 to P1 at 2 give c_j = 2 for all four, accepted at
/// once or blocked.
#[test]
fn compaction_delta_immediate_blocking() {
    let prm = LogpParams::new(Logp { p: 8, latency: 2, gap: 2, o: 1 }).unwrap();
    let cfg = MachineConfig::new(prm, StallRule::ImmediateBlocking).unwrap();
    let procs = two_compaction_delta(&prm, 2, &x_5_6()).unwrap();
    let e = run(&cfg, procs, &mut PolicyAdversary::worst()).unwrap();
    assert_eq!(e.t, 17);
    let receives = receives(&e);
    assert_eq!(receives, [(5, 0, Some(14)), (6, 0, Some(16)), (5, 1, Some(14)), (6, 1, Some(16))]);
    assert_eq!(e.stalled_steps, vec![0, 0, 0, 0, 0, 0, 1, 0]);
    insta::assert_json_snapshot!(summary(&e));
}

/// BSP-native (`docs/models/logp-stall.md`, Choices: BSP-native baseline), g = 4, l = 5, nonzeros at 5 and 6: superstep `send`: every B_i
/// charges 1, B5 and B6 one more per message: w = 3; h = 2 (B5, B6 send 2 each, B0, B1
/// receive 2 each): 3 + 4*2 + 5 = 16. Superstep `merge`: B0, B1 charge |inbox| + 1 = 3:
/// 3 + 0 + 5 = 8. Total 24 <= 6 + 2g + 2l = 24.
#[test]
fn compaction_bsp() {
    let bsp = BspParams::new(Bsp { p: 8, g: 4, l: 5 }).unwrap();
    let (out, ledger) = bsp_two_compaction(bsp.clone(), &x_5_6()).unwrap();
    assert_eq!(out, (Some((5, 7)), Some((6, 9))));
    assert_eq!(ledger.priced(&bsp).unwrap(), vec![16.0, 8.0]);
    assert_eq!(ledger.cost(&bsp).unwrap(), 24.0);
}

/// Theorem 1's setting G = L (paper §3): p = 8, G = L = δ = 4, o = 2, x_3 = 7, x_6 = -2, worst adversary. K = 1,
/// D = 16 + 8 + 4 = 28. Step 0: P3, P6 -> P0, c_0(0) = 2 > 1, window (0, 4*2 + 4] = (0, 12],
/// t_m = 12. Eager episode t' = 1, t̄ = 12, t'' = 16: stalled on 1..=15. WaitUntil(4) already
/// satisfied at 16: both submit to P1 at 16, c_1(16) = 2, t_m = 16 + 12 = 28 = D; the second
/// episode [17, 32) is vacuous (halted). P0/P1 receive at 28 (P3's, source order) and 32:
/// outputs (3,7), (6,-2), T = 33. Benign: deliveries at 1 and 5, T = 33 still. SF tree on the
/// same input: R = 3, T_SF = 3*8 + 4 + 1 = 29; for p = 16 (same nonzeros): 37 > 33.
#[test]
fn spec_4_1_a() {
    let prm = LogpParams::new(Logp { p: 8, latency: 4, gap: 4, o: 2 }).unwrap();
    let cfg = MachineConfig::new(prm, StallRule::Delta { delta: 4 }).unwrap();
    let mut x = vec![0i64; 8];
    x[3] = 7;
    x[6] = -2;
    let worst =
        run(&cfg, two_compaction_delta(&prm, 4, &x).unwrap(), &mut PolicyAdversary::worst())
            .unwrap();
    assert_eq!(worst.t, 33);
    assert_eq!(outputs(&worst.states), (Some((3, 7)), Some((6, -2))));
    let receives = receives(&worst);
    assert_eq!(receives, [(3, 0, Some(28)), (6, 0, Some(32)), (3, 1, Some(28)), (6, 1, Some(32))]);
    assert_eq!(worst.stalled_steps[3], 15);
    let benign =
        run(&cfg, two_compaction_delta(&prm, 4, &x).unwrap(), &mut PolicyAdversary::benign())
            .unwrap();
    assert_eq!(benign.t, 33);
    let sf_cfg = MachineConfig::new(prm, StallRule::StallFree).unwrap();
    let sf = run(&sf_cfg, two_compaction_sf_tree(&prm, &x).unwrap(), &mut PolicyAdversary::worst())
        .unwrap();
    assert_eq!(sf.t, 29);
    let prm16 = LogpParams::new(Logp { p: 16, latency: 4, gap: 4, o: 2 }).unwrap();
    let mut x16 = x.clone();
    x16.resize(16, 0);
    let sf16 = run(
        &MachineConfig::new(prm16, StallRule::StallFree).unwrap(),
        two_compaction_sf_tree(&prm16, &x16).unwrap(),
        &mut PolicyAdversary::worst(),
    )
    .unwrap();
    assert_eq!(sf16.t, 37);
    match run(&sf_cfg, two_compaction_delta(&prm, 4, &x).unwrap(), &mut PolicyAdversary::worst()) {
        Err(Error::CapacityViolation(v)) => {
            assert_eq!((v.step, v.dest, v.count, v.cap), (0, 0, 2, 1));
        }
        other => panic!("expected a capacity violation, got {other:?}"),
    }
    insta::assert_json_snapshot!(json!({ "worst": summary(&worst), "benign": summary(&benign) }));
}

#[test]
fn bad_inputs_are_typed_errors() {
    let msgs: Vec<String> = [
        LogpParams::new(Logp { p: 1, latency: 2, gap: 2, o: 1 }).unwrap_err(),
        LogpParams::new(Logp { p: 8, latency: 2, gap: 1, o: 1 }).unwrap_err(),
        LogpParams::new(Logp { p: 8, latency: 4, gap: 2, o: 3 }).unwrap_err(),
        LogpParams::new(Logp { p: 8, latency: 2, gap: 4, o: 1 }).unwrap_err(),
        LogpParams::new(Logp { p: 8, latency: 16, gap: 2, o: 1 }).unwrap_err(),
        MachineConfig::new(
            LogpParams::new(Logp { p: 8, latency: 4, gap: 2, o: 1 }).unwrap(),
            StallRule::Delta { delta: 9 },
        )
        .unwrap_err(),
        two_compaction_delta(
            &LogpParams::new(Logp { p: 8, latency: 2, gap: 2, o: 1 }).unwrap(),
            1,
            &[1, 1, 1, 0, 0, 0, 0, 0],
        )
        .unwrap_err(),
        two_compaction_delta(
            &LogpParams::new(Logp { p: 8, latency: 2, gap: 2, o: 1 }).unwrap(),
            1,
            &[1, 1],
        )
        .unwrap_err(),
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    insta::assert_json_snapshot!(msgs);
    // The relaxed mode accepts G = 1 and L > p, and says so.
    let r = LogpParams::relaxed(Logp { p: 2, latency: 4, gap: 1, o: 1 }).unwrap();
    assert!(!r.paper_assumptions_hold());
}

/// A program that sends to a nonexistent processor: a typed error, not a panic.
#[test]
fn send_to_nonexistent_processor() {
    let prm = LogpParams::new(Logp { p: 4, latency: 2, gap: 2, o: 1 }).unwrap();
    let cfg = MachineConfig::new(prm, StallRule::Delta { delta: 1 }).unwrap();
    let mut procs: Vec<PlanProc> = (0..4).map(|i| PlanProc::new(i, None, vec![])).collect();
    procs[2] = PlanProc::new(2, None, vec![PlanOp::Compute, PlanOp::Submit(9)]);
    let err = run(&cfg, procs, &mut PolicyAdversary::benign()).unwrap_err();
    assert!(
        matches!(err, Error::DestinationOutOfRange { proc: 2, step: 1, dest: 9, p: 4 }),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "submit: P2 at step 1 sends to P9, but dest must satisfy dest < p = 4"
    );
}

/// A gap violation: two submits one step apart with G = 2.
#[test]
fn gap_violation_is_an_error() {
    let prm = LogpParams::new(Logp { p: 4, latency: 2, gap: 2, o: 1 }).unwrap();
    let cfg = MachineConfig::new(prm, StallRule::Delta { delta: 1 }).unwrap();
    let mut procs: Vec<PlanProc> = (0..4).map(|i| PlanProc::new(i, None, vec![])).collect();
    procs[1] = PlanProc::new(1, None, vec![PlanOp::Submit(0), PlanOp::Submit(2)]);
    let err = run(&cfg, procs, &mut PolicyAdversary::benign()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "gap rule: P1 communicates at step 1 but its previous communication was at step 0 (need step - previous >= G = 2)"
    );
}

/// The checker catches broken traces: every mutation of the worst-case trace above is
/// reported with its rule.
#[test]
fn checker_catches_broken_traces() {
    let prm = LogpParams::new(Logp { p: 8, latency: 2, gap: 2, o: 1 }).unwrap();
    let cfg = MachineConfig::new(prm, StallRule::Delta { delta: 2 }).unwrap();
    let procs = two_compaction_delta(&prm, 2, &x_5_6()).unwrap();
    let good = run(&cfg, procs, &mut PolicyAdversary::worst()).unwrap().trace;
    let mut out = Vec::new();
    // (a) a delivery beyond the violating window t + Gc + L = 6.
    let mut t = good.clone();
    t.messages[0].deliver = 7;
    out.push(("deliver beyond window", check_legal(&t, CheckOpts::default()).unwrap_err()));
    // (b) an episode dropped: P5's stalled steps [1, 8) are undeclared.
    let mut t = good.clone();
    t.episodes.retain(|e| !(e.proc == 5 && e.signal == 1));
    out.push(("episode dropped", check_legal(&t, CheckOpts::default()).unwrap_err()));
    // (c) paper-literal unstall t'' = t̄ = 6 (P6's stall then shortened to [1, 6)): illegal
    // under the strict rule, legal with lenient_unstall except that P6 must be operational at 6.
    let mut t = good.clone();
    for e in t.episodes.iter_mut().filter(|e| e.proc == 6 && e.signal == 1) {
        e.unstall = 6;
    }
    out.push(("unstall at t_bar", check_legal(&t, CheckOpts::default()).unwrap_err()));
    // (d) stall-free rule claimed for a trace with violating submissions.
    let mut t = good.clone();
    t.rule = StallRule::StallFree;
    out.push(("stall-free claimed", check_legal(&t, CheckOpts::default()).unwrap_err()));
    // (e) delta = 3 above L = 2 (the parameters themselves cannot be invalid: see
    // `invalid_parameters_do_not_deserialise`).
    let mut t = good.clone();
    t.rule = StallRule::Delta { delta: 3 };
    out.push(("delta > L", check_legal(&t, CheckOpts::default()).unwrap_err()));
    // (f) a recorded c_j that is not the count: message 0 (P5 -> P0 at step 0) has c_0(0) = 2
    // (itself and P6's same-step message); recorded as 1 it would look non-violating.
    let mut t = good.clone();
    t.messages[0].c_j = 1;
    out.push(("c_j misrecorded", check_legal(&t, CheckOpts::default()).unwrap_err()));
    let rendered: Vec<(String, Vec<String>)> = out
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.violations().iter().map(ToString::to_string).collect()))
        .collect();
    insta::assert_json_snapshot!(rendered);
    // The trace survives a JSON round trip and stays legal.
    let back: logp_stall::Trace =
        serde_json::from_str(&serde_json::to_string(&good).unwrap()).unwrap();
    assert_eq!(back, good);
    check_legal(&back, CheckOpts::default()).unwrap();
}

/// Replay reproduces a random execution exactly; a different program diverges.
#[test]
fn replay_reproduces_and_detects_divergence() {
    let prm = LogpParams::new(Logp { p: 8, latency: 4, gap: 2, o: 1 }).unwrap();
    let cfg = MachineConfig::new(prm, StallRule::Delta { delta: 3 }).unwrap();
    let x = vec![0, 0, 5, 0, 0, 0, 0, 6];
    let e = run(&cfg, two_compaction_delta(&prm, 3, &x).unwrap(), &mut PolicyAdversary::random(11))
        .unwrap();
    let r =
        run(&cfg, two_compaction_delta(&prm, 3, &x).unwrap(), &mut Replay::new(&e.trace)).unwrap();
    assert_eq!(r.trace, e.trace);
    assert_eq!(r.states, e.states);
    let other = vec![0, 0, 5, 0, 0, 0, 6, 0];
    let err = run(&cfg, two_compaction_delta(&prm, 3, &other).unwrap(), &mut Replay::new(&e.trace))
        .unwrap_err();
    assert!(matches!(err, Error::ReplayDivergence { proc: 6, step: 0, .. }), "{err}");
}

fn run_fixture(path: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("fixture readable");
    match logp_stall::driver::LogpStall
        .run_config(&ConfigFile::new(&text, path.parent().expect("in a directory")))
    {
        Ok(r) => json!({ "summary": r.summary, "report": r.report }),
        Err(e) => json!({ "error": e.to_string(), "fault": format!("{:?}", e.fault()) }),
    }
}

#[test]
fn logp_fixtures() {
    insta::glob!("../../../../fixtures/logp-stall", "logp-*.toml", |path| {
        insta::assert_json_snapshot!(run_fixture(path));
    });
}

/// `check_stall_free`: the tree is stall-free under worst + random adversaries; the δ
/// algorithm with G = L is not (two step-0 submissions to P0).
#[test]
fn check_stall_free_certifies_and_refutes() {
    let prm = LogpParams::new(Logp { p: 8, latency: 2, gap: 2, o: 1 }).unwrap();
    let tree = two_compaction_sf_tree(&prm, &x_5_6()).unwrap();
    logp_stall::check_stall_free(prm, &tree, 8).unwrap();
    let naive = two_compaction_delta(&prm, 2, &x_5_6()).unwrap();
    let err = logp_stall::check_stall_free(prm, &naive, 8).unwrap_err();
    assert!(matches!(err, Error::CapacityViolation(ref v) if v.step == 0 && v.dest == 0), "{err}");
}

/// `OverheadMode::Busy`, p = 4, G = L = 4, o = 3: P1 submits to P0 at 0 and is busy at 1, 2
/// (max(1, o) = 3 steps in all); P0 idles until 5, receives at 5 (delivered at 1, benign)
/// and is busy at 6, 7: T = 8. Folded: the same program takes T = 6. An action inside the
/// overhead interval is caught by the checker.
#[test]
fn overhead_busy_mode() {
    let prm = LogpParams::new(Logp { p: 4, latency: 4, gap: 4, o: 3 }).unwrap();
    let procs = || {
        let mut v: Vec<PlanProc> = (0..4).map(|i| PlanProc::new(i, None, vec![])).collect();
        v[0] = PlanProc::new(0, None, vec![PlanOp::WaitUntil(5), PlanOp::Receive]);
        v[1] = PlanProc::new(1, Some((1, 4)), vec![PlanOp::Submit(0)]);
        v
    };
    let mut cfg = MachineConfig::new(prm, StallRule::Delta { delta: 1 }).unwrap();
    let folded = run(&cfg, procs(), &mut PolicyAdversary::benign()).unwrap();
    assert_eq!(folded.t, 6);
    cfg = cfg.with_overhead(logp_stall::OverheadMode::Busy);
    let busy = run(&cfg, procs(), &mut PolicyAdversary::benign()).unwrap();
    assert_eq!(busy.t, 8);
    assert_eq!(busy.states[0].acc, vec![(1, 4)]);
    check_legal(&busy.trace, CheckOpts::default()).unwrap();
    let busy1: Vec<_> = busy.trace.expanded(1);
    assert_eq!(
        busy1,
        vec![(0, logp_stall::Op::Submit(0)), (1, logp_stall::Op::Busy), (2, logp_stall::Op::Busy)]
    );
    // Replace P0's first busy step by a compute: illegal.
    let mut t = busy.trace.clone();
    let mut log0 = t.expanded(0);
    log0[6].1 = logp_stall::Op::Compute;
    t = logp_stall::Trace { ops: vec![Vec::new(); 4], ..t };
    let mut rebuilt = logp_stall::Trace::from_steps(
        t.params,
        t.rule,
        t.messages.clone(),
        &[log0, busy.trace.expanded(1), vec![], vec![]],
        t.episodes.clone(),
    );
    rebuilt.overhead = logp_stall::OverheadMode::Busy;
    let v = check_legal(&rebuilt, CheckOpts::default()).unwrap_err();
    assert_eq!(
        v.violations().iter().map(ToString::to_string).collect::<Vec<_>>(),
        vec![
            "L2: P0 acts (Compute) at step 6 during the overhead of its communication op (busy until 8)"
        ]
    );
}

/// A buggy adversary cannot create an illegal execution: an answer outside the window is
/// `AdversaryOutOfWindow`.
#[test]
fn adversary_answers_are_range_checked() {
    struct Late;
    impl logp_stall::Adversary for Late {
        fn delivery(&mut self, q: &logp_stall::adversary::DeliveryQuery) -> Result<u64, Error> {
            Ok(q.hi + 1)
        }
        fn stall_signal(
            &mut self,
            _: &logp_stall::adversary::SignalQuery,
        ) -> Result<Option<u64>, Error> {
            Ok(None)
        }
        fn unstall(&mut self, q: &logp_stall::adversary::UnstallQuery) -> Result<u64, Error> {
            Ok(q.lo)
        }
    }
    let prm = LogpParams::new(Logp { p: 8, latency: 2, gap: 2, o: 1 }).unwrap();
    let cfg = MachineConfig::new(prm, StallRule::Delta { delta: 2 }).unwrap();
    let err = run(&cfg, two_compaction_delta(&prm, 2, &x_5_6()).unwrap(), &mut Late).unwrap_err();
    // P5's step-0 message is violating (c = 2): window (0, 0 + 2*2 + 2] = [1, 6].
    assert_eq!(
        err.to_string(),
        "adversary: delivery for P5 at step 0 is 7, outside the legal range [1, 6]"
    );
}

/// Gap policies and empty receives: `AutoDelay` idles until the op is legal (counted);
/// `EmptyReceive::Error` rejects a receive on an empty buffer.
#[test]
fn gap_auto_delay_and_empty_receive_error() {
    let prm = LogpParams::new(Logp { p: 4, latency: 4, gap: 3, o: 1 }).unwrap();
    let mut cfg = MachineConfig::new(prm, StallRule::Delta { delta: 1 }).unwrap();
    cfg = cfg.with_gap_policy(logp_stall::GapPolicy::AutoDelay);
    let mk = || {
        let mut v: Vec<PlanProc> = (0..4).map(|i| PlanProc::new(i, None, vec![])).collect();
        // Submits at 0; the second submit is held for G = 3 steps: idle at 1, 2, submit at 3.
        v[1] = PlanProc::new(1, Some((1, 1)), vec![PlanOp::Submit(0), PlanOp::Submit(2)]);
        v
    };
    let e = run(&cfg, mk(), &mut PolicyAdversary::benign()).unwrap();
    assert_eq!(e.gap_wait_steps, 2);
    assert_eq!(e.trace.messages[1].submit, 3);
    check_legal(&e.trace, CheckOpts::default()).unwrap();
    cfg = cfg.with_gap_policy(logp_stall::GapPolicy::Error);
    cfg = cfg.with_empty_receive(logp_stall::EmptyReceive::Error);
    let mut v: Vec<PlanProc> = (0..4).map(|i| PlanProc::new(i, None, vec![])).collect();
    v[3] = PlanProc::new(3, None, vec![PlanOp::Compute, PlanOp::Receive]);
    let err = run(&cfg, v, &mut PolicyAdversary::benign()).unwrap_err();
    assert_eq!(err.to_string(), "empty receive: P3 receives at step 1 from an empty input buffer");
}

/// A trace or config whose LogP parameters break `G <= L` is refused when read, with the
/// message `LogpParams::new` gives: struct literals and deserialisation cannot bypass it.
#[test]
fn invalid_parameters_do_not_deserialise() {
    let good = r#"{"p": 8, "L": 2, "G": 2, "o": 1, "paper_assumptions_hold": true}"#;
    let params: LogpParams = serde_json::from_str(good).unwrap();
    assert_eq!(params, LogpParams::new(Logp { p: 8, latency: 2, gap: 2, o: 1 }).unwrap());
    let bad = good.replace(r#""G": 2"#, r#""G": 3"#);
    let e = serde_json::from_str::<LogpParams>(&bad).unwrap_err();
    assert_eq!(e.to_string(), "L must satisfy G <= L (got L=2, G=3)");
    let relaxed = good.replace(r#""G": 2"#, r#""G": 1"#).replace("true", "false");
    let r: LogpParams = serde_json::from_str(&relaxed).unwrap();
    assert!(!r.paper_assumptions_hold());
}

/// A script's destination outside `u32` is named as computed: `dest = -1` and
/// `dest = 2^32` are different errors, not both "P4294967295".
#[test]
fn script_destination_outside_u32_is_named_as_computed() {
    for (dest, named) in [("-1", "P-1"), ("4294967296", "P4294967296"), ("9", "P9")] {
        let text = format!(
            "kind = \"logp\"\np = 4\nG = 2\nL = 2\nrule = \"delta\"\ndelta = 1\n[program]\ntype = \"script\"\n[program.procs]\n2 = [{{ op = \"submit\", dest = {dest}, payload = [1] }}]\n"
        );
        let cfg = ConfigFile::new(&text, std::path::Path::new("."));
        let err = logp_stall::driver::LogpStall.run_config(&cfg).err().map(|e| e.to_string());
        assert_eq!(
            err,
            Some(format!(
                "submit: P2 at step 0 sends to {named}, but dest must satisfy dest < p = 4"
            )),
        );
    }
}
