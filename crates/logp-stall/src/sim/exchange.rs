//! Steps 2-4 and 6 of a cycle (paper §4): the supersteps `sort`, `rank-scan`, `s-scan` and
//! `route`.

use netcore::bsp::primitives::TreeScan;

use super::cycle::Sim;
use super::node::{Item, Node};
use super::sort;
use super::superstep::SimSuperstep;
use super::wire::{RunSummary, Wire};
use crate::LogpProcess;
use crate::error::Error;

impl<P: LogpProcess> Sim<P> {
    pub(super) fn exchange(&mut self, k: u64) -> Result<(), Error> {
        let (c, kc) = (self.c, self.k_cap);
        let b = self.b;
        if let Some(n) = self.m.states().iter().find(|n| n.items.len() > b) {
            self.broken.push(format!("cycle {k}: a block holds {} > b = {b} items", n.items.len()));
        }
        sort::sort_items(self.cfg.sort(), &mut self.m, b)?;
        let broken = std::cell::RefCell::new(Vec::new());
        let one =
            |it: &Item<P::Payload>| RunSummary { n: 1, first: it.dest, last: it.dest, trail: 1 };
        TreeScan {
            fanin: self.d,
            label: SimSuperstep::RankScan.as_str(),
            identity: RunSummary::EMPTY,
            op: &RunSummary::then,
            get: &|n: &Node<P, P::Payload>| {
                n.items.iter().fold(RunSummary::EMPTY, |acc, it| RunSummary::then(&acc, &one(it)))
            },
            put: &|n: &mut Node<P, P::Payload>, mut run: RunSummary, _| {
                for it in &mut n.items {
                    it.rank = if run.n > 0 && run.last == it.dest { run.trail + 1 } else { 1 };
                    run = RunSummary::then(&run, &one(it));
                    let t_m = c * (k + it.rank.div_ceil(kc));
                    match it.deliver {
                        None => it.deliver = Some(t_m),
                        Some(d) if d != t_m => broken.borrow_mut().push(format!(
                            "cycle {k}: delivery time of P{}'s message #{} moved from {d} to {t_m}",
                            it.src, it.seq
                        )),
                        Some(_) => {}
                    }
                }
                n.items.len() as u64
            },
        }
        .run(&mut self.m, Wire::RankScan, |w| match w {
            Wire::RankScan(msg) => Some(msg),
            _ => None,
        })?;
        TreeScan {
            fanin: self.d,
            label: SimSuperstep::SScan.as_str(),
            identity: 0u64,
            op: &|x: &u64, y: &u64| x + y,
            get: &|n: &Node<P, P::Payload>| n.items.iter().filter(|it| it.rank > kc).count() as u64,
            put: &|n: &mut Node<P, P::Payload>, mut s: u64, total: u64| {
                for it in n.items.iter_mut().filter(|it| it.rank > kc) {
                    it.s_index = s;
                    s += 1;
                }
                n.total_s = total;
                n.items.len() as u64
            },
        }
        .run(&mut self.m, Wire::CountScan, |w| match w {
            Wire::CountScan(msg) => Some(msg),
            _ => None,
        })?;
        self.broken.extend(broken.into_inner());
        let p = u64::from(self.cfg.p());
        let now = c * k;
        self.m.superstep(SimSuperstep::Route.as_str(), |ctx, node| {
            let share = node.total_s.div_ceil(p).max(1);
            for it in std::mem::take(&mut node.items) {
                ctx.charge(1);
                if it.rank <= kc {
                    node.delivered.push((
                        it.src,
                        it.seq,
                        it.dest,
                        it.submit,
                        it.deliver.unwrap_or(0),
                    ));
                    ctx.send(it.dest, Wire::Item(it));
                } else {
                    if it.submit >= now {
                        ctx.send(it.src, Wire::Notify(u64::from(it.seq), it.deliver.unwrap_or(0)));
                    }
                    ctx.send((it.s_index / share) as u32, Wire::Item(it));
                }
            }
        })?;
        Ok(())
    }
}
