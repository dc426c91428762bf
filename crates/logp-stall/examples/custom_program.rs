//! A custom LogP program, run under delta-stalling against the worst-case adversary and
//! checked for legality: a gather, where processors `1..p` each send two messages to `P_0`
//! (G apart) and `P_0` receives until it has all `2(p - 1)`. With `p - 1` above the capacity
//! `ceil(L/G)` the submissions violate it, and the worst adversary stalls the senders.
//!
//! `cargo run -p logp-stall --example custom_program` prints (p = 16, L = 4, G = 2, delta = 2)
//! `T = 99 steps, 30 messages, 30 violating submissions, 30 stall episodes, 525 stalled
//! processor-steps: legal`.

use logp_stall::netcore::Step;
use logp_stall::{
    Action, CheckOpts, Delivered, Logp, LogpParams, LogpProcess, MachineConfig, PolicyAdversary,
    StallRule, check_legal, run,
};

/// One processor: its pending destinations, then `expect` receives.
#[derive(Debug, Clone)]
struct Gather {
    to_send: Vec<u32>,
    expect: usize,
    got: Vec<u32>,
}

impl LogpProcess for Gather {
    type Payload = u32;
    /// The sources it received from, in order.
    type State = Vec<u32>;

    fn next(&mut self, _now: Step) -> Action<u32> {
        match self.to_send.pop() {
            Some(dest) => Action::Submit { dest, payload: 0 },
            None => Action::Receive,
        }
    }
    fn on_receive(&mut self, msg: Option<Delivered<u32>>, _now: Step) {
        if let Some(m) = msg {
            self.got.push(m.src);
        }
    }
    fn is_halted(&self) -> bool {
        self.to_send.is_empty() && self.got.len() == self.expect
    }
    fn state(&self) -> Vec<u32> {
        self.got.clone()
    }
}

fn main() -> Result<(), logp_stall::Error> {
    let p = 16u32;
    let params = LogpParams::new(Logp { p, latency: 4, gap: 2, o: 1 })?; // L = 4, G = 2: capacity ceil(L/G) = 2
    let config = MachineConfig::new(params, StallRule::Delta { delta: 2 })?;
    let procs: Vec<Gather> = (0..p)
        .map(|i| match i {
            0 => Gather { to_send: Vec::new(), expect: 2 * (p as usize - 1), got: Vec::new() },
            _ => Gather { to_send: vec![0, 0], expect: 0, got: Vec::new() },
        })
        .collect();
    // The gap rule: a processor may submit or receive at most once every G steps, and P_0
    // polls every step; let the machine idle it instead (counted in gap_wait_steps).
    let config = config.with_gap_policy(logp_stall::GapPolicy::AutoDelay);
    let execution = run(&config, procs, &mut PolicyAdversary::worst())?;
    let report = check_legal(&execution.trace, CheckOpts::default())?;
    println!(
        "T = {} steps, {} messages, {} violating submissions, {} stall episodes, {} stalled processor-steps: legal",
        execution.t,
        report.messages,
        report.violating,
        report.episodes,
        execution.stalled_steps.iter().sum::<u64>()
    );
    Ok(())
}
