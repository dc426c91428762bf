//! Properties (the rules of a legal execution, paper §2 and §2.1): every engine trace is legal;
//! windows, gap and capacity
//! hold; a replay reproduces the execution; the same seed gives the same bytes; broken
//! traces are caught.

use logp_stall::script::{Instr, Operand, Script};
use logp_stall::trace::Op;
use logp_stall::{
    CheckOpts, Error, Logp, LogpParams, MachineConfig, PolicyAdversary, Replay, StallRule,
    check_legal, run,
};
use proptest::prelude::*;

#[derive(Debug, Clone)]
struct Case {
    p: u32,
    gap: u64,
    l: u64,
    rule: StallRule,
    adversary: (u8, u64),
    code: Vec<Vec<Instr>>,
}

fn instr(p: u32) -> impl Strategy<Value = Vec<Instr>> {
    prop_oneof![
        (1u64..3).prop_map(|k| vec![Instr::Compute { k }]),
        (1u64..3).prop_map(|k| vec![Instr::Idle { k }]),
        (0..p, 0i64..100).prop_map(|(d, v)| vec![
            Instr::WaitGap,
            Instr::Submit { dest: Operand::Imm(i64::from(d)), payload: vec![Operand::Imm(v)] }
        ]),
        Just(vec![Instr::WaitGap, Instr::Receive { into: 0, flag: Some(1), src: Some(2) }]),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    (3u32..7, 2u64..4).prop_flat_map(|(p, gap)| {
        let l = gap..=u64::from(p).max(gap);
        (Just(p), Just(gap), l).prop_flat_map(|(p, gap, l)| {
            let rule = prop_oneof![
                (1..=l).prop_map(|delta| StallRule::Delta { delta }),
                Just(StallRule::ImmediateBlocking),
                Just(StallRule::StallFree),
            ];
            let code = proptest::collection::vec(
                proptest::collection::vec(instr(p), 0..6).prop_map(|v| v.concat()),
                p as usize,
            );
            (Just(p), Just(gap), Just(l), rule, (0u8..4, any::<u64>()), code).prop_map(
                |(p, gap, l, rule, adversary, code)| Case { p, gap, l, rule, adversary, code },
            )
        })
    })
}

fn adversary(a: (u8, u64)) -> PolicyAdversary {
    match a.0 {
        0 => PolicyAdversary::benign(),
        1 => PolicyAdversary::worst(),
        2 => PolicyAdversary::lazy(),
        _ => PolicyAdversary::random(a.1),
    }
}

/// Self-sends are replaced by sends to the next processor (they are errors,
/// `docs/models/logp-stall.md`, Choices: self-sends).
fn scripts(c: &Case) -> Vec<Script> {
    c.code
        .iter()
        .enumerate()
        .map(|(i, code)| {
            let code = code
                .iter()
                .map(|ins| match ins {
                    Instr::Submit { dest: Operand::Imm(d), payload } if *d == i as i64 => {
                        Instr::Submit {
                            dest: Operand::Imm((*d + 1) % i64::from(c.p)),
                            payload: payload.clone(),
                        }
                    }
                    other => other.clone(),
                })
                .collect();
            Script::new(code, i as u32, c.p, c.gap, 4).expect("valid script")
        })
        .collect()
}

/// A third of the cases run with `OverheadMode::Busy` and `o = G`.
fn config(c: &Case) -> MachineConfig {
    let busy = c.adversary.1.is_multiple_of(3);
    let prm =
        LogpParams::new(Logp { p: c.p, latency: c.l, gap: c.gap, o: if busy { c.gap } else { 1 } })
            .expect("valid params");
    let mut cfg = MachineConfig::new(prm, c.rule).expect("valid config");
    if busy {
        cfg = cfg.with_overhead(logp_stall::OverheadMode::Busy);
    }
    if c.adversary.1 % 5 < 2 {
        cfg = cfg.with_accept_order(logp_stall::AcceptOrder::Shuffled { seed: c.adversary.1 });
    }
    cfg
}

fn execute(c: &Case) -> Result<logp_stall::Execution<logp_stall::script::ScriptState>, Error> {
    run(&config(c), scripts(c), &mut adversary(c.adversary))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every engine trace passes the checker; windows, gap rule and capacity hold when
    /// recomputed here independently.
    #[test]
    fn engine_traces_are_legal(c in case()) {
        let e = match execute(&c) {
            Ok(e) => e,
            // SF-LogP: a program that violates the capacity is rejected with the violation.
            Err(Error::CapacityViolation(v)) => {
                prop_assert_eq!(c.rule, StallRule::StallFree);
                prop_assert!(v.count > v.cap);
                return Ok(());
            }
            Err(other) => return Err(TestCaseError::fail(format!("unexpected error {other}"))),
        };
        let legal = check_legal(&e.trace, CheckOpts::default());
        prop_assert!(legal.is_ok(), "{:?}", legal);
        let k = c.l.div_ceil(c.gap);
        let msgs = &e.trace.messages;
        for m in msgs {
            let count = msgs.iter().filter(|x| x.dest == m.dest
                && (x.submit == m.submit || (x.submit < m.submit && x.deliver > m.submit))).count() as u64;
            let base = m.accepted.unwrap_or(m.submit);
            let hi = if c.rule != StallRule::ImmediateBlocking && count > k { base + c.gap * count + c.l } else { base + c.l };
            prop_assert!(m.deliver > base && m.deliver <= hi, "window of {:?}", m);
            if c.rule == StallRule::StallFree { prop_assert!(count <= k); }
        }
        for i in 0..c.p as usize {
            let comm: Vec<u64> = e.trace.expanded(i).into_iter().filter(|(_, o)| o.is_comm()).map(|(s, _)| s).collect();
            for w in comm.windows(2) { prop_assert!(w[1] - w[0] >= c.gap); }
            let stalled = e.trace.expanded(i).iter().filter(|(_, o)| *o == Op::Stalled).count() as u64;
            prop_assert_eq!(stalled, e.stalled_steps[i]);
        }
        // The paper's "no stall when t' > t̄ + δ" (§2.1, item 3) never fires for the trigger
        // itself (`docs/models/logp-stall.md`, Choices: empty stall interval).
        if let StallRule::Delta { delta } = c.rule {
            for ep in &e.trace.episodes {
                let trig = msgs[ep.trigger_msg as usize];
                prop_assert!(ep.signal <= trig.deliver + delta);
            }
        }
    }

    /// Replaying a recorded execution reproduces trace and final states; the same seed gives
    /// the same bytes.
    #[test]
    fn replay_and_determinism(c in case()) {
        let Ok(e) = execute(&c) else { return Ok(()) };
        let again = execute(&c).expect("same run");
        prop_assert_eq!(serde_json::to_string(&again.trace).unwrap(), serde_json::to_string(&e.trace).unwrap());
        let r = run(&config(&c), scripts(&c), &mut Replay::new(&e.trace)).expect("replay runs");
        prop_assert_eq!(&r.trace, &e.trace);
        prop_assert_eq!(r.states, e.states);
    }

    /// Immediate blocking: a blocked message whose acceptance is put off by one step, when its
    /// destination had room, is caught (L13: held with room).
    #[test]
    fn delayed_acceptance_is_caught(c in case(), pick in any::<prop::sample::Index>()) {
        if c.rule != StallRule::ImmediateBlocking { return Ok(()) }
        let Ok(e) = execute(&c) else { return Ok(()) };
        let accepted: Vec<usize> = (0..e.trace.messages.len())
            .filter(|&i| e.trace.messages[i].accepted.is_some())
            .collect();
        if accepted.is_empty() { return Ok(()) }
        let mut t = e.trace.clone();
        let m = &mut t.messages[accepted[pick.index(accepted.len())]];
        m.accepted = m.accepted.map(|a| a + 1);
        let v = check_legal(&t, CheckOpts::default()).unwrap_err();
        prop_assert!(
            v.violations().iter().any(|x| x.rule == "L13" && x.message.contains("with room")),
            "{:?}",
            v
        );
    }

    /// A delivery moved outside its window, or a receive of the wrong message, is caught.
    #[test]
    fn broken_traces_are_caught(c in case(), pick in any::<prop::sample::Index>()) {
        let Ok(e) = execute(&c) else { return Ok(()) };
        if e.trace.messages.is_empty() { return Ok(()) }
        let mut t = e.trace.clone();
        let m = &mut t.messages[pick.index(e.trace.messages.len())];
        m.deliver = m.submit + c.l * (c.gap * 8 + 1) + 100;
        let v = check_legal(&t, CheckOpts::default()).unwrap_err();
        prop_assert!(v.violations().iter().any(|x| x.rule == "L4"), "{:?}", v);
        let mut t = e.trace.clone();
        let m = &mut t.messages[pick.index(e.trace.messages.len())];
        m.deliver = m.submit;
        prop_assert!(check_legal(&t, CheckOpts::default()).is_err());
    }
}

use logp_stall::algorithms::{
    outputs, reference_compaction, two_compaction_delta, two_compaction_sf_tree,
};

/// Theorem 1's setting (paper §3): G = L, p <= 64, δ in [1, L], inputs with at most two
/// nonzeros.
fn compaction_case() -> impl Strategy<Value = (u32, u64, u64, Vec<i64>, (u8, u64))> {
    (2u32..=6, 1u32..=3).prop_flat_map(|(log_p, lg)| {
        let p = 1u32 << log_p;
        let l = (1u64 << lg).min(u64::from(p)).max(2);
        let nz = proptest::collection::vec((0..p, -9i64..=9), 0..=2);
        (Just(p), Just(l), 1..=l, nz, (0u8..4, any::<u64>())).prop_map(|(p, l, d, nz, a)| {
            let mut x = vec![0i64; p as usize];
            for (i, v) in nz {
                x[i as usize] = if v == 0 { 1 } else { v };
            }
            (p, l, d, x, a)
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// δ algorithm: correct outputs, T = 5G + 2L + δ + 1 exactly, deliveries by D, legal.
    /// SF tree: never violates, correct, T = R(L+G) + L + 1. Naive in SF mode violates iff
    /// two nonzeros with (i0, i1) != (0, 1): at step 0 / dest 0 if i0 >= 1, else at step G /
    /// dest 1.
    #[test]
    fn compaction_properties(c in compaction_case()) {
        let (p, l, delta, x, a) = c;
        let prm = LogpParams::new(Logp { p, latency: l, gap: l, o: 1 }).unwrap();
        let want = reference_compaction(p, &x).unwrap();
        let cfg = MachineConfig::new(prm, StallRule::Delta { delta }).unwrap();
        let e = run(&cfg, two_compaction_delta(&prm, delta, &x).unwrap(), &mut adversary(a)).unwrap();
        prop_assert_eq!(outputs(&e.states), want);
        prop_assert_eq!(e.t, 5 * l + 2 * l + delta + 1);
        let d = 4 * l + 2 * l + delta;
        prop_assert!(e.trace.messages.iter().all(|m| m.deliver <= d));
        prop_assert!(check_legal(&e.trace, CheckOpts::default()).is_ok());

        let sf = MachineConfig::new(prm, StallRule::StallFree).unwrap();
        let t = run(&sf, two_compaction_sf_tree(&prm, &x).unwrap(), &mut adversary(a)).unwrap();
        prop_assert_eq!(outputs(&t.states), want);
        let r = u64::from(p.trailing_zeros());
        prop_assert_eq!(t.t, r * 2 * l + l + 1);

        let nz: Vec<usize> = x.iter().enumerate().filter(|(_, v)| **v != 0).map(|(i, _)| i).collect();
        let naive = run(&sf, two_compaction_delta(&prm, delta, &x).unwrap(), &mut adversary(a));
        match (nz.as_slice(), naive) {
            ([i0, i1], Err(Error::CapacityViolation(v))) if (*i0, *i1) != (0, 1) => {
                if *i0 >= 1 {
                    prop_assert_eq!((v.step, v.dest), (0, 0));
                } else {
                    prop_assert_eq!((v.step, v.dest), (l, 1));
                }
            }
            ([i0, i1], Ok(_)) => prop_assert_eq!((*i0, *i1), (0, 1)),
            ([_, _], Err(other)) => return Err(TestCaseError::fail(format!("{other}"))),
            (_, res) => prop_assert!(res.is_ok()),
        }
    }

    /// Negative control: with G < L (K >= 2) the naive algorithm is SF-legal.
    #[test]
    fn naive_is_stall_free_when_capacity_is_two(log_p in 3u32..=6, i0 in 0u32..8, i1 in 0u32..8, a in (0u8..4, any::<u64>())) {
        let p = 1u32 << log_p;
        let prm = LogpParams::new(Logp { p, latency: 4, gap: 2, o: 1 }).unwrap();
        let mut x = vec![0i64; p as usize];
        x[i0 as usize] = 3;
        x[i1 as usize] = 5;
        let sf = MachineConfig::new(prm, StallRule::StallFree).unwrap();
        let e = run(&sf, two_compaction_delta(&prm, 4, &x).unwrap(), &mut adversary(a)).unwrap();
        prop_assert_eq!(outputs(&e.states), reference_compaction(p, &x).unwrap());
    }

    /// Delta(δ) with StallPolicy::Never never stalls.
    #[test]
    fn never_policy_never_stalls(c in case()) {
        let c = Case { rule: StallRule::Delta { delta: 1 }, ..c };
        let prm = LogpParams::new(Logp { p: c.p, latency: c.l, gap: c.gap, o: 1 }).unwrap();
        let cfg = MachineConfig::new(prm, c.rule).unwrap();
        let mut adv = PolicyAdversary::new(logp_stall::DeliveryPolicy::Uniform, logp_stall::StallPolicy::Never, c.adversary.1);
        let e = run(&cfg, scripts(&c), &mut adv).unwrap();
        prop_assert!(e.trace.episodes.is_empty());
        prop_assert_eq!(e.stalled_steps.iter().sum::<u64>(), 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Fan-in-d tree: correct, stall-free under worst and random adversaries, and
    /// T = R((d-1)L + G) + L + 1 with R = ceil(log_d p).
    #[test]
    fn sf_tree_fanin(p in 5u32..=40, d in 2u32..=5, gap in 2u64..=3, extra in 0u64..=2, i0 in 0u32..40, i1 in 0u32..40, seed in any::<u64>()) {
        let l = (gap + extra).min(u64::from(p));
        let prm = LogpParams::new(Logp { p, latency: l, gap, o: 1 }).unwrap();
        let mut x = vec![0i64; p as usize];
        x[(i0 % p) as usize] = 2;
        x[(i1 % p) as usize] = 9;
        let sf = MachineConfig::new(prm, StallRule::StallFree).unwrap();
        let want = reference_compaction(p, &x).unwrap();
        for mut adv in [PolicyAdversary::worst(), PolicyAdversary::random(seed)] {
            let procs = logp_stall::algorithms::two_compaction_sf_tree_fanin(&prm, d, &x).unwrap();
            let e = run(&sf, procs, &mut adv).unwrap();
            prop_assert_eq!(outputs(&e.states), want);
            // R = ceil(log_d p), the least r with d^r >= p, computed here, not by the crate.
            let rounds = (0u32..).find(|&r| u64::from(d).pow(r) >= u64::from(p)).unwrap();
            let want_t = u64::from(rounds) * ((u64::from(d) - 1) * l + gap) + l + 1;
            prop_assert_eq!(e.t, want_t);
            prop_assert_eq!(logp_stall::algorithms::compaction_sf_tree_fanin_time(&prm, d), want_t);
        }
    }
}
