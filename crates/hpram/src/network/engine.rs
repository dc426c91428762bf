//! The timed store-and-forward engine (paper Section 3.1): messages travel hop by hop over
//! directed links, each link starts one message per time unit and delivers it `delay` units
//! later, and each node's memory module serves one access per time unit; waiting for a busy
//! link or module is counted. Events run in time order on netcore's [`EventQueue`] (ties in
//! push order), so a run is deterministic. Every pattern starts at time 0 on an empty network
//! (the barrier before it has drained it) and the engine returns when the last message is done.

use netcore::event::EventQueue;

use crate::network::place::{Net, Region};

/// One message of a routed pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Transfer {
    /// The source node.
    pub(crate) src: u32,
    /// The destination node.
    pub(crate) dst: u32,
    /// Whether the destination's memory module serves it and a reply (the value read, or an
    /// acknowledgement) returns to `src`.
    pub(crate) reply: bool,
}

/// A message in flight: the transfer, whether it is the reply leg, and where it is.
#[derive(Debug, Clone, Copy)]
struct Flight {
    index: u32,
    back: bool,
    at: u32,
}

/// The engine's state, reused across patterns: per link and per module the time it is next
/// free, stamped with the pattern it belongs to (an older stamp means free at 0).
pub(crate) struct Engine<'n> {
    pub(crate) net: &'n Net,
    link_free: Vec<(u32, u64)>,
    module_free: Vec<(u32, u64)>,
    stamp: u32,
    /// Hops taken, over all patterns.
    pub(crate) hops: u64,
    /// Messages delivered, over all patterns.
    pub(crate) messages: u64,
}

impl<'n> Engine<'n> {
    pub(crate) fn new(net: &'n Net) -> Engine<'n> {
        Engine {
            net,
            link_free: vec![(0, 0); net.links()],
            module_free: vec![(0, 0); net.nodes()],
            stamp: 0,
            hops: 0,
            messages: 0,
        }
    }

    /// Starts a new pattern: every link and module free at time 0.
    fn fresh(&mut self) {
        self.stamp += 1;
    }

    /// Reserves the first free slot of `slot` at or after `t`; returns the start time.
    fn reserve(stamp: u32, slot: &mut (u32, u64), t: u64) -> u64 {
        let free = if slot.0 == stamp { slot.1 } else { 0 };
        let start = t.max(free);
        *slot = (stamp, start + 1);
        start
    }

    /// Sends the message one hop from `at` toward `to` at time `t` inside `region`; returns
    /// the node and time it arrives at, or `None` if it is already there.
    fn hop(&mut self, at: u32, to: u32, t: u64, region: Region) -> Option<(u32, u64)> {
        let (next, link) = self.net.next_hop(at, to, region)?;
        let start = Self::reserve(self.stamp, &mut self.link_free[link as usize], t);
        self.hops += 1;
        Some((next, start + self.net.delay))
    }

    /// Routes `transfers` inside `region`, all injected at time 0; returns each transfer's
    /// completion time (its reply's arrival, or its arrival).
    pub(crate) fn route(&mut self, region: Region, transfers: &[Transfer]) -> Vec<u64> {
        self.fresh();
        let mut done = vec![0u64; transfers.len()];
        let mut queue = EventQueue::with_capacity(transfers.len());
        for (index, tr) in transfers.iter().enumerate() {
            queue.push(0, Flight { index: index as u32, back: false, at: tr.src });
        }
        while let Some((t, f)) = queue.pop() {
            let tr = transfers[f.index as usize];
            let to = if f.back { tr.src } else { tr.dst };
            if let Some((next, arrive)) = self.hop(f.at, to, t, region) {
                queue.push(arrive, Flight { at: next, ..f });
                continue;
            }
            self.messages += 1;
            if !tr.reply || f.back {
                done[f.index as usize] = t;
                continue;
            }
            // The module serves it; the reply leaves when it is served.
            let stamp = self.stamp;
            let served = Self::reserve(stamp, &mut self.module_free[tr.dst as usize], t) + 1;
            queue.push(served, Flight { back: true, ..f });
        }
        done
    }

    /// A barrier as a scan (paper Section 3.1): over the tree of dimension-order routes from
    /// every participant to `root`, each node sends its subtree's count up once it has heard
    /// from all its tree children, and the root sends the total back down the same tree.
    /// Returns the time the last tree node has the total, and the total (which must be the
    /// number of participants).
    pub(crate) fn scan_barrier(
        &mut self,
        region: Region,
        root: u32,
        participants: &[u32],
    ) -> (u64, u64) {
        use std::collections::BTreeMap;
        self.fresh();
        // The union tree: parent of every node on a participant's route to the root.
        let mut parent: BTreeMap<u32, u32> = BTreeMap::new();
        let mut pending: BTreeMap<u32, (u32, u64, u64)> = BTreeMap::new(); // children, ready, count
        pending.entry(root).or_default();
        for &p in participants {
            pending.entry(p).or_default().2 += 1;
            let mut cur = p;
            while let Some((next, _)) = self.net.next_hop(cur, root, region) {
                if parent.insert(cur, next).is_some() {
                    break;
                }
                pending.entry(next).or_default().0 += 1;
                cur = next;
            }
        }
        let mut queue: EventQueue<(u32, u64)> = EventQueue::new();
        // Up: nodes with no tree children send at once.
        let leaves: Vec<u32> = pending.iter().filter(|(_, s)| s.0 == 0).map(|(&v, _)| v).collect();
        let mut up_done = (0u64, 0u64);
        let mut send_up =
            |engine: &mut Self, v: u32, t: u64, count: u64, queue: &mut EventQueue<_>| match parent
                .get(&v)
            {
                Some(&up) => {
                    let (_, arrive) =
                        engine.hop(v, up, t, region).expect("a parent is a neighbour");
                    queue.push(arrive, (up, count));
                }
                None => up_done = (t, count),
            };
        for v in leaves {
            let count = pending[&v].2;
            send_up(self, v, 0, count, &mut queue);
        }
        while let Some((t, (v, count))) = queue.pop() {
            self.messages += 1;
            let state = pending.get_mut(&v).expect("a tree node");
            state.0 -= 1;
            state.1 = state.1.max(t);
            state.2 += count;
            if state.0 == 0 {
                let (ready, total) = (state.1, state.2);
                send_up(self, v, ready, total, &mut queue);
            }
        }
        let (start, total) = up_done;
        // Down: the root's total back along the tree edges.
        let mut children: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        for (&child, &up) in &parent {
            children.entry(up).or_default().push(child);
        }
        let mut end = start;
        let mut down: EventQueue<u32> = EventQueue::new();
        down.push(start, root);
        while let Some((t, v)) = down.pop() {
            end = end.max(t);
            for &c in children.get(&v).map_or(&[][..], |c| &c[..]) {
                let link = self.net.next_hop(v, c, region).expect("a child is a neighbour");
                let slot = &mut self.link_free[link.1 as usize];
                let at = Self::reserve(self.stamp, slot, t) + self.net.delay;
                self.hops += 1;
                self.messages += 1;
                down.push(at, c);
            }
        }
        (end, total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::place::NetKind;

    /// By hand on the 3-cube, delay 1: a read from node 0 of a cell at node 7 takes 3 hops
    /// out, one unit at the module, 3 hops back: 7. Two reads of node 7's module from 3 and 6
    /// (6 is 1 hop away, 3 one hop over another link) are served at 1 and 2: done at 3 and 4. A
    /// barrier over all 8 nodes rooted at 0 is 3 hops up and 3 down: 6, total 8.
    #[test]
    fn timings_by_hand() {
        let net = Net::new(NetKind::Hypercube, 8, 1).unwrap();
        let mut engine = Engine::new(&net);
        let whole = Region { offset: 0, procs: 8 };
        assert_eq!(engine.route(whole, &[Transfer { src: 0, dst: 7, reply: true }]), [7]);
        let two =
            [Transfer { src: 3, dst: 7, reply: true }, Transfer { src: 6, dst: 7, reply: true }];
        assert_eq!(engine.route(whole, &two), [3, 4]);
        let all: Vec<u32> = (0..8).collect();
        assert_eq!(engine.scan_barrier(whole, 0, &all), (6, 8));
        // Two messages over one link: the second waits a unit.
        let same =
            [Transfer { src: 0, dst: 1, reply: false }, Transfer { src: 0, dst: 1, reply: false }];
        assert_eq!(engine.route(whole, &same), [1, 2]);
    }
}
