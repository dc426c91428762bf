//! The simulation's run: cycle after cycle (supersteps `sim-local`, then the exchange), each
//! recorded, until every processor has halted with nothing in flight (paper §4).

use std::collections::VecDeque;

use netcore::bsp::BspMachine;

use super::node::{Item, Node};
use super::params::SimConfig;
use super::report::{CycleStats, SimReport};
use super::wire::Wire;
use crate::LogpProcess;
use crate::error::Error;

/// The BSP machine of the simulation.
pub(super) type SimMachine<P> =
    BspMachine<Node<P, <P as LogpProcess>::Payload>, Wire<Item<<P as LogpProcess>::Payload>>>;

/// The simulation: its parameters, the BSP machine whose processors simulate the LogP
/// processors, and what it measured so far.
pub(super) struct Sim<P: LogpProcess> {
    /// The run's parameters.
    pub(super) cfg: SimConfig,
    /// Capacity `K = ceil(L/G)`.
    pub(super) k_cap: u64,
    /// Cycle length `C = max{G, δ}`.
    pub(super) c: u64,
    /// Slot capacity `b = 2 ceil(C/G)`.
    pub(super) b: usize,
    /// Scan fan-in d.
    pub(super) d: u32,
    /// The BSP machine.
    pub(super) m: SimMachine<P>,
    /// Per-cycle measurements so far.
    pub(super) stats: Vec<CycleStats>,
    /// Invariant checks that failed so far.
    pub(super) broken: Vec<String>,
}

impl<P: LogpProcess> Sim<P> {
    pub(super) fn new(cfg: &SimConfig, procs: Vec<P>) -> Result<Self, Error> {
        let nodes = procs
            .into_iter()
            .map(|process| Node {
                process,
                rho: 0,
                t: 0,
                w: 0,
                last_comm: None,
                q_in: VecDeque::new(),
                items: Vec::new(),
                sent: 0,
                snapshot: None,
                log: Vec::new(),
                notified: Vec::new(),
                episodes: Vec::new(),
                delivered: Vec::new(),
                received: Vec::new(),
                total_s: 0,
                error: None,
            })
            .collect();
        let m = BspMachine::new(cfg.bsp_params()?, nodes)?;
        Ok(Self {
            cfg: cfg.clone(),
            k_cap: cfg.capacity(),
            c: cfg.cycle(),
            b: cfg.slot_capacity() as usize,
            d: cfg.fanin(),
            m,
            stats: Vec::new(),
            broken: Vec::new(),
        })
    }

    pub(super) fn run(mut self) -> Result<SimReport<P::State>, Error> {
        let mut k = 0u64;
        loop {
            if k >= self.cfg.max_cycles {
                return Err(Error::SimCycleLimit { max_cycles: self.cfg.max_cycles });
            }
            // Refused before it runs if the cycle's worst case does not fit the memory left.
            self.check_memory(k)?;
            // The ledger holds only supersteps: the cycle's are the records from here on.
            let before = self.m.ledger().records.len();
            let undone = self.local(k)?;
            let done = self
                .m
                .states()
                .iter()
                .all(|n| n.process.is_halted() && n.items.is_empty() && n.notified.is_empty());
            if done {
                self.record(k, before, undone);
                k += 1;
                break;
            }
            self.exchange(k)?;
            self.record(k, before, undone);
            k += 1;
        }
        Ok(self.report(k))
    }

    /// Before cycle `k` (paper §4): the logs, messages and records so far plus the most the
    /// cycle can add (`p C` logged steps, `p ceil(C/G)` messages, `schedule_len` records and
    /// the sort's working memory; [`SimConfig::cycle_estimate`]) must fit the memory
    /// budget. (Before, the check ran after each cycle, so one cycle of `p C` steps could pass
    /// the limit first.)
    fn check_memory(&self, k: u64) -> Result<(), Error> {
        if self.cfg.memory_budget == u64::MAX {
            return Ok(());
        }
        let nodes = self.m.states();
        let steps: u64 = nodes.iter().map(|n| n.log.len() as u64).sum();
        let messages: u64 = nodes.iter().map(|n| u64::from(n.sent)).sum();
        let records = self.m.ledger().records.len() as u64;
        let p = u64::from(self.cfg.p());
        let estimate = self
            .cfg
            .logs
            .run_estimate(steps, messages)
            .saturating_add(records.saturating_mul(crate::limits::SIM_BYTES_PER_RECORD))
            .saturating_add(self.cfg.cycle_estimate());
        if estimate > self.cfg.memory_budget {
            return Err(Error::SimMemoryLimit {
                cycle: k,
                steps,
                messages,
                records,
                next_steps: p.saturating_mul(self.c),
                estimate,
                limit: self.cfg.memory_budget,
            });
        }
        Ok(())
    }
}
