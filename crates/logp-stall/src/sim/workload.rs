//! Workloads for the simulation studies: a LogP program that submits a planned list of
//! messages `G` apart, then receives the number of messages it expects (polling `G` apart; an
//! empty receive returns nothing and counts for the gap rule, `docs/models/logp-stall.md`,
//! Choices: empty receive).

use netcore::Step;
use netcore::rng::SimRng;
use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::{Action, Delivered, LogpProcess};

/// Which traffic the processors generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Workload {
    /// Processors `1..=r` each submit one message to `P_0` at step 0 (the worked case of
    /// `tests/it/sim.rs` is r = 3).
    Hotspot,
    /// Every processor submits `r` messages to uniformly random other processors.
    RandomTraffic,
}
netcore::display_config_name!(Workload);

/// One processor's program: submit to `sends` in order, then receive `expect` messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Traffic {
    me: u32,
    gap: u64,
    sends: Vec<u32>,
    next_send: usize,
    expect: usize,
    got: Vec<u64>,
    last_comm: Option<Step>,
}

impl Traffic {
    /// Processor `me` of a LogP machine with gap `gap`.
    pub fn new(me: u32, gap: u64, sends: Vec<u32>, expect: usize) -> Self {
        Self { me, gap, sends, next_send: 0, expect, got: Vec::new(), last_comm: None }
    }

    /// The payload of the `j`-th message of `src`.
    pub fn payload(src: u32, j: usize) -> u64 {
        (u64::from(src) << 32) | j as u64
    }
}

impl LogpProcess for Traffic {
    type Payload = u64;
    type State = Vec<u64>;

    fn next(&mut self, now: Step) -> Action<u64> {
        if self.last_comm.is_some_and(|t| now - t < self.gap) {
            return Action::Idle;
        }
        if self.next_send < self.sends.len() {
            let dest = self.sends[self.next_send];
            let payload = Self::payload(self.me, self.next_send);
            self.next_send += 1;
            self.last_comm = Some(now);
            return Action::Submit { dest, payload };
        }
        if self.got.len() < self.expect {
            self.last_comm = Some(now);
            return Action::Receive;
        }
        Action::Idle
    }

    fn on_receive(&mut self, msg: Option<Delivered<u64>>, _now: Step) {
        if let Some(m) = msg {
            self.got.push(m.payload);
        }
    }

    fn is_halted(&self) -> bool {
        self.next_send == self.sends.len() && self.got.len() >= self.expect
    }

    /// The received payloads, sorted (the order depends on the execution, the multiset not).
    fn state(&self) -> Vec<u64> {
        let mut got = self.got.clone();
        got.sort_unstable();
        got
    }
}

/// The programs of a workload, and the reference final states (the payloads each processor
/// must end up with, sorted).
pub fn programs(
    workload: Workload,
    p: u32,
    gap: u64,
    r: u32,
    rng: &mut SimRng,
) -> (Vec<Traffic>, Vec<Vec<u64>>) {
    let mut sends: Vec<Vec<u32>> = vec![Vec::new(); p as usize];
    match workload {
        Workload::Hotspot => {
            for (i, s) in sends.iter_mut().enumerate().skip(1).take(r as usize) {
                let _ = i;
                s.push(0);
            }
        }
        Workload::RandomTraffic => {
            for (i, s) in sends.iter_mut().enumerate() {
                for _ in 0..r {
                    let d = rng.random_range(0..p - 1);
                    s.push(if d >= i as u32 { d + 1 } else { d });
                }
            }
        }
    }
    let mut reference: Vec<Vec<u64>> = vec![Vec::new(); p as usize];
    for (src, list) in sends.iter().enumerate() {
        for (j, &d) in list.iter().enumerate() {
            reference[d as usize].push(Traffic::payload(src as u32, j));
        }
    }
    for r in &mut reference {
        r.sort_unstable();
    }
    let procs = sends
        .into_iter()
        .enumerate()
        .map(|(i, s)| Traffic::new(i as u32, gap, s, reference[i].len()))
        .collect();
    (procs, reference)
}
