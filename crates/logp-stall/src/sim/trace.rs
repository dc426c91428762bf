//! The simulated execution as a [`Trace`] of the direct machine (paper §4: the simulation
//! follows a legal execution of the LogP program), so that
//! [`check_legal`](crate::check_legal) can judge it and [`Replay`](crate::Replay) can re-run it
//! on [`crate::machine::run`].

use netcore::Step;

use super::params::SimConfig;
use super::report::{SimOp, SimReport};
use crate::error::Error;
use crate::{Episode, Op, StallRule, Trace, TraceMessage};

impl<S> SimReport<S> {
    /// The recorded execution under rule `Delta { delta }` with the parameters of `cfg`.
    pub fn to_trace(&self, cfg: &SimConfig) -> Result<Trace, Error> {
        let params = cfg.logp();
        let mut messages: Vec<TraceMessage> = self
            .messages
            .iter()
            .map(|m| TraceMessage {
                id: m.id,
                src: m.src,
                dest: m.dest,
                submit: m.submit,
                c_j: 0,
                accepted: None,
                deliver: m.deliver,
                received_at: m.received_at,
            })
            .collect();
        let counts = crate::check::transit_counts(&messages);
        for (m, c_j) in messages.iter_mut().zip(counts) {
            m.c_j = c_j;
        }
        let ops: Vec<Vec<(Step, Op)>> = self
            .ops
            .iter()
            .map(|log| {
                log.iter()
                    .map(|&(s, op)| {
                        let op = match op {
                            SimOp::Compute => Op::Compute,
                            SimOp::Idle => Op::Idle,
                            SimOp::Submit(id) => Op::Submit(id),
                            SimOp::Receive(r) => Op::Receive(r),
                            SimOp::Stalled => Op::Stalled,
                        };
                        (s, op)
                    })
                    .collect()
            })
            .collect();
        let episodes = self
            .episodes
            .iter()
            .map(|e| Episode {
                proc: e.proc,
                trigger_msg: e.trigger_msg,
                signal: e.signal,
                unstall: e.unstall,
            })
            .collect();
        Ok(Trace::from_steps(
            params,
            StallRule::Delta { delta: cfg.delta },
            messages,
            &ops,
            episodes,
        ))
    }
}
