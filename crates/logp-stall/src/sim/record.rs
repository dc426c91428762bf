//! The records of a run: each cycle's measurements and invariants (paper §4, steps 3-6 and
//! the proof of Theorem 2), and the final [`SimReport`] with global message ids.

use netcore::Step;

use super::cycle::Sim;
use super::node::LogOp;
use super::report::{CycleStats, SimEpisode, SimMessage, SimOp, SimReport};
use super::superstep::SimSuperstep;
use super::wire::Wire;
use crate::LogpProcess;

impl<P: LogpProcess> Sim<P> {
    pub(super) fn record(&mut self, k: u64, before: usize, undone: u64) {
        let records = &self.m.ledger().records[before..];
        let route_h = records
            .iter()
            .filter(|r| r.label == SimSuperstep::Route.as_str())
            .map(|r| r.h)
            .max()
            .unwrap_or(0);
        let (c, p) = (self.c, self.cfg.p());
        let next = c * (k + 1);
        let mut deliveries = vec![0u64; p as usize];
        let mut shares = vec![0u64; p as usize];
        for pid in 0..p {
            for (_, w) in self.m.pending(pid) {
                if let Wire::Item(it) = w {
                    if it.deliver == Some(next) {
                        deliveries[it.dest as usize] += 1;
                    } else {
                        shares[pid as usize] += 1;
                    }
                }
            }
        }
        let s_size: u64 = shares.iter().sum();
        let max_s_share = shares.iter().copied().max().unwrap_or(0);
        let max_deliveries = deliveries.iter().copied().max().unwrap_or(0);
        let q_out: Vec<u64> = self
            .m
            .states()
            .iter()
            .map(|n| {
                let first = n.log.partition_point(|&(s, _)| s < c * k);
                n.log[first..].iter().filter(|(_, op)| matches!(op, LogOp::Submit(_))).count()
                    as u64
            })
            .collect();
        let max_q_out = q_out.iter().copied().max().unwrap_or(0);
        let per_cycle = c.div_ceil(self.cfg.gap());
        let mut check = |ok: bool, what: String| {
            if !ok {
                self.broken.push(format!("cycle {k}: {what}"));
            }
        };
        check(
            max_q_out <= per_cycle,
            format!("|Q_out(i)| = {max_q_out} > ceil(C/G) = {per_cycle}"),
        );
        check(
            max_s_share <= s_size.div_ceil(u64::from(p)),
            format!("an S share of {max_s_share} > ceil(|S|/p) with |S| = {s_size}"),
        );
        check(
            max_deliveries <= self.k_cap,
            format!("{max_deliveries} deliveries to one destination > K = {}", self.k_cap),
        );
        let full = records.len() as u64 == self.cfg.schedule_len();
        check(
            full || records.len() == 1,
            format!("{} supersteps, schedule_len = {}", records.len(), self.cfg.schedule_len()),
        );
        self.stats.push(CycleStats {
            cycle: k,
            submitted: q_out.iter().sum(),
            max_q_out,
            s_size,
            max_s_share,
            max_deliveries,
            route_h,
            undone,
            supersteps: records.len() as u64,
            cost: self.m.cost_since(before),
        });
    }

    pub(super) fn report(self, cycles: u64) -> SimReport<P::State> {
        let cost = self.m.cost();
        let (nodes, ledger) = self.m.finish();
        // Global ids: messages numbered by (submit step, source, per-source order).
        let mut all: Vec<(Step, u32, u32, u32, Step)> = nodes
            .iter()
            .flat_map(|n| {
                n.delivered.iter().map(|&(src, seq, dest, submit, d)| (submit, src, seq, dest, d))
            })
            .collect();
        all.sort_unstable();
        let mut ids: Vec<Vec<u64>> =
            nodes.iter().map(|n| vec![u64::MAX; n.sent as usize]).collect();
        for (i, &(_, src, seq, _, _)) in all.iter().enumerate() {
            ids[src as usize][seq as usize] = i as u64;
        }
        let id_of = |src: u32, seq: u32| -> u64 { ids[src as usize][seq as usize] };
        let mut messages: Vec<SimMessage> = all
            .iter()
            .enumerate()
            .map(|(i, &(submit, src, _, dest, deliver))| SimMessage {
                id: i as u64,
                src,
                dest,
                submit,
                deliver,
                received_at: None,
            })
            .collect();
        for n in &nodes {
            for &(src, seq, step) in &n.received {
                let id = id_of(src, seq);
                if let Some(m) = messages.get_mut(id as usize) {
                    m.received_at = Some(step);
                }
            }
        }
        let ops: Vec<Vec<(Step, SimOp)>> = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| {
                n.log
                    .iter()
                    .map(|&(s, op)| {
                        let op = match op {
                            LogOp::Compute => SimOp::Compute,
                            LogOp::Idle => SimOp::Idle,
                            LogOp::Stalled => SimOp::Stalled,
                            LogOp::Submit(seq) => SimOp::Submit(id_of(i as u32, seq)),
                            LogOp::Receive(r) => {
                                SimOp::Receive(r.map(|(src, seq)| id_of(src, seq)))
                            }
                        };
                        (s, op)
                    })
                    .collect()
            })
            .collect();
        let episodes = nodes
            .iter()
            .enumerate()
            .flat_map(|(i, n)| n.episodes.iter().map(move |e| (i as u32, *e)))
            .map(|(proc, e)| SimEpisode {
                proc,
                trigger_msg: id_of(proc, e.trigger_seq),
                signal: e.signal,
                unstall: e.unstall,
                undone: e.undone,
            })
            .collect();
        let t = ops
            .iter()
            .filter_map(|log| {
                log.iter().rev().find(|(_, op)| *op != SimOp::Stalled).map(|(s, _)| s + 1)
            })
            .max()
            .unwrap_or(0);
        SimReport {
            states: nodes.iter().map(|n| n.process.state()).collect(),
            rho: nodes.iter().map(|n| n.rho).collect(),
            t,
            cycles,
            simulated_steps: self.c * cycles,
            messages,
            ops,
            episodes,
            cycle_stats: self.stats,
            ledger,
            cost,
            broken_invariants: self.broken,
        }
    }
}
