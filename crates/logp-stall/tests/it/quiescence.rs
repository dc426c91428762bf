//! Quiescence (issue 14): a run whose running programs all await a message, with none in
//! transit or buffered, stops with `Error::Quiescent` at once instead of running to the
//! `10^7`-step limit; a program that awaits a message still in transit is not stopped.

use logp_stall::netcore::Step;
use logp_stall::{
    Action, Delivered, Error, GapPolicy, Logp, LogpParams, LogpProcess, MachineConfig,
    PolicyAdversary, StallRule, run,
};

/// Sends to each of `to_send`, then receives until it has `expect` messages.
#[derive(Debug, Clone)]
struct Gather {
    to_send: Vec<u32>,
    expect: usize,
    got: usize,
}

impl LogpProcess for Gather {
    type Payload = u32;
    type State = usize;
    fn next(&mut self, _now: Step) -> Action<u32> {
        match self.to_send.pop() {
            Some(dest) => Action::Submit { dest, payload: 0 },
            None => Action::Receive,
        }
    }
    fn on_receive(&mut self, msg: Option<Delivered<u32>>, _now: Step) {
        self.got += usize::from(msg.is_some());
    }
    fn is_halted(&self) -> bool {
        self.to_send.is_empty() && self.got == self.expect
    }
    fn state(&self) -> usize {
        self.got
    }
    fn awaits_message(&self) -> bool {
        self.to_send.is_empty()
    }
}

/// `P_1 .. P_(p-1)` send one message each to `P_0`, which expects `expect`; `L = 4`, `G = 2`
/// with the gap rule applied by idling (`AutoDelay`), `delta = 2` against the worst adversary.
fn gather(p: u32, expect: usize) -> Result<Step, Error> {
    let params = LogpParams::new(Logp { p, latency: 4, gap: 2, o: 1 })?;
    let config = MachineConfig::new(params, StallRule::Delta { delta: 2 })?
        .with_gap_policy(GapPolicy::AutoDelay);
    let procs = (0..p)
        .map(|i| match i {
            0 => Gather { to_send: Vec::new(), expect, got: 0 },
            _ => Gather { to_send: vec![0], expect: 0, got: 0 },
        })
        .collect();
    Ok(run(&config, procs, &mut PolicyAdversary::worst())?.t)
}

/// Four programs that only receive, and nothing sent: after step 0 (all receive nothing)
/// nothing can change, so the run stops at step 1 naming all four, not at `10^7`.
#[test]
fn all_waiting_and_nothing_sent_stops_at_step_1() {
    let params = LogpParams::new(Logp { p: 4, latency: 4, gap: 2, o: 1 }).unwrap();
    let config = MachineConfig::new(params, StallRule::Delta { delta: 2 }).unwrap();
    let procs = vec![Gather { to_send: Vec::new(), expect: 1, got: 0 }; 4];
    let err = run(&config, procs, &mut PolicyAdversary::worst()).unwrap_err();
    assert!(matches!(err, Error::Quiescent { step: 1, waiting: 4, first: 0 }), "{err}");
    assert!(err.to_string().contains("all 4 running processors"), "{err}");
}

/// `P_0` expects 4 messages and 3 come. Expecting 3, the run finishes with `T = 15` (`P_0`'s
/// last receive at step 14: the three submissions of step 0 find `c_0(0) = 3 > K =
/// ceil(L / G) = 2`, so the worst adversary delivers them at the end of their window,
/// `0 + G · 3 + L = 10`, and `P_0` receives them `G` apart at 10, 12, 14): `P_0` awaits a message from step 0 on while messages are in
/// transit, which does not stop it. Expecting 4, the same steps run, and right after that
/// last receive, at step 15, nothing can change: the run stops there with `P_0` the one
/// waiter.
#[test]
fn a_missing_message_stops_the_run_once_the_others_are_received() {
    assert_eq!(gather(4, 3).unwrap(), 15);
    let err = gather(4, 4).unwrap_err();
    assert!(matches!(err, Error::Quiescent { step: 15, waiting: 1, first: 0 }), "{err}");
}
