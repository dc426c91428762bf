//! Part A properties (spec §4.4): every engine trace is legal; windows, gap and capacity
//! hold; a replay reproduces the execution; the same seed gives the same bytes; broken
//! traces are caught.

use logp_stall::script::{Instr, Operand, Script};
use logp_stall::trace::Op;
use logp_stall::{
    CheckOpts, Error, LogpParams, MachineConfig, PolicyAdversary, Replay, StallRule, check_legal,
    run,
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

/// Self-sends are replaced by sends to the next processor (they are errors, spec U-11).
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

fn execute(c: &Case) -> Result<logp_stall::Execution<logp_stall::script::ScriptState>, Error> {
    let prm = LogpParams::new(c.p, c.l, c.gap, 1).expect("valid params");
    let cfg = MachineConfig::new(prm, c.rule).expect("valid config");
    run(&cfg, scripts(c), &mut adversary(c.adversary))
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
        // U-4: the paper's "no stall when t' > t̄ + δ" never fires for the trigger itself.
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
        let prm = LogpParams::new(c.p, c.l, c.gap, 1).unwrap();
        let cfg = MachineConfig::new(prm, c.rule).unwrap();
        let r = run(&cfg, scripts(&c), &mut Replay::new(&e.trace)).expect("replay runs");
        prop_assert_eq!(&r.trace, &e.trace);
        prop_assert_eq!(r.states, e.states);
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
        prop_assert!(v.iter().any(|x| x.rule == "L4"), "{:?}", v);
        let mut t = e.trace.clone();
        let m = &mut t.messages[pick.index(e.trace.messages.len())];
        m.deliver = m.submit;
        prop_assert!(check_legal(&t, CheckOpts::default()).is_err());
    }
}
