//! A virtual node's direction queue (Choice 14): the [`Record`] of every packet it forwarded,
//! in order; the forward rounds push, the reverse rounds take from the front.
//!
//! A node actor keeps its own queue (a [`VecDeque`]). The lockstep router logs every node's
//! records in one array as its forward rounds send them ([`Logged`]) and packs them node by
//! node between the passes ([`Packed`]): every queue is complete when the forward pass ends,
//! and a reverse round then reads its node's oldest record next to its neighbours' records
//! instead of from a queue of its own on the heap, and the forward rounds allocate no queue.

use std::collections::VecDeque;

use super::network::{Record, pop_release, push_small};

/// Where a forward round puts the record of a packet it forwarded.
pub(super) trait PushRecord {
    fn push_record(&mut self, rec: Record);
}

/// What a reverse round reads and takes of its node's direction queue.
pub(super) trait Directions {
    /// The oldest record.
    fn front(&self) -> Option<Record>;
    /// Takes the oldest record.
    fn pop(&mut self) -> Option<Record>;
    fn is_empty(&self) -> bool;
}

impl PushRecord for VecDeque<Record> {
    fn push_record(&mut self, rec: Record) {
        push_small(self, rec);
    }
}

impl Directions for VecDeque<Record> {
    fn front(&self) -> Option<Record> {
        VecDeque::front(self).copied()
    }
    fn pop(&mut self) -> Option<Record> {
        pop_release(self)
    }
    fn is_empty(&self) -> bool {
        VecDeque::is_empty(self)
    }
}

/// One node's pushes into the lockstep router's forward log: `(node, record)` in the order
/// the forward rounds sent them.
#[derive(Debug)]
pub(super) struct Logged<'a> {
    pub(super) log: &'a mut Vec<(u32, Record)>,
    pub(super) node: u32,
}

impl PushRecord for Logged<'_> {
    fn push_record(&mut self, rec: Record) {
        self.log.push((self.node, rec));
    }
}

/// Every node's direction queue in one array, node by node, each in its forward order: node
/// `v`'s records not yet taken are `recs[at[v]..end[v]]`.
#[derive(Debug)]
pub(super) struct Packed {
    recs: Vec<Record>,
    at: Vec<u32>,
    end: Vec<u32>,
}

impl Packed {
    /// Packs the forward log of `nodes` nodes by node (a counting sort, which keeps each
    /// node's order); also returns the longest queue (`max_dq`: a queue only grows in the
    /// forward pass). Every node index in the log is below `nodes`.
    pub(super) fn pack(log: &[(u32, Record)], nodes: usize) -> (Self, u64) {
        let mut at = vec![0u32; nodes];
        for &(v, _) in log {
            at[v as usize] += 1;
        }
        let longest = at.iter().copied().max().unwrap_or(0);
        let mut start = 0u32;
        for a in &mut at {
            let len = *a;
            *a = start;
            start += len;
        }
        let mut end = at.clone();
        let mut recs = vec![Record::PLACEHOLDER; log.len()];
        for &(v, rec) in log {
            let e = &mut end[v as usize];
            recs[*e as usize] = rec;
            *e += 1;
        }
        (Self { recs, at, end }, u64::from(longest))
    }

    /// Node `v`'s queue.
    pub(super) fn queue(&mut self, v: usize) -> Queue<'_> {
        Queue { recs: &self.recs, at: &mut self.at[v], end: self.end[v] }
    }

    /// Node `v`'s oldest record.
    pub(super) fn front(&self, v: usize) -> Option<Record> {
        let at = self.at[v];
        (at < self.end[v]).then(|| self.recs[at as usize])
    }
}

/// One node's queue in [`Packed`].
#[derive(Debug)]
pub(super) struct Queue<'a> {
    recs: &'a [Record],
    at: &'a mut u32,
    end: u32,
}

impl Directions for Queue<'_> {
    fn front(&self) -> Option<Record> {
        (*self.at < self.end).then(|| self.recs[*self.at as usize])
    }
    fn pop(&mut self) -> Option<Record> {
        let rec = self.front()?;
        *self.at += 1;
        Some(rec)
    }
    fn is_empty(&self) -> bool {
        *self.at >= self.end
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ranade::network::{Out, Part};

    fn rec(pids: u32) -> Record {
        Record::new(Out::S, 1, Part { input: 0, offset: false, pids })
    }

    /// The packed queues hold, node by node, what a queue per node would: the log of three
    /// nodes' pushes interleaved as rounds interleave them.
    #[test]
    fn packing_keeps_each_nodes_order() {
        let log: Vec<(u32, Record)> =
            [(2, 10), (0, 20), (2, 11), (2, 12), (0, 21)].map(|(v, p)| (v, rec(p))).to_vec();
        let (mut packed, longest) = Packed::pack(&log, 4);
        assert_eq!(longest, 3);
        let drain = |q: &mut Queue<'_>| {
            let mut out = Vec::new();
            while let Some(r) = q.pop() {
                out.push(r.first().pids);
            }
            out
        };
        assert_eq!(packed.front(2).map(|r| r.first().pids), Some(10));
        assert_eq!(drain(&mut packed.queue(0)), [20, 21]);
        assert_eq!(drain(&mut packed.queue(1)), Vec::<u32>::new());
        assert!(packed.queue(1).is_empty());
        assert_eq!(drain(&mut packed.queue(2)), [10, 11, 12]);
        assert!(packed.front(2).is_none());
        assert!(packed.queue(3).is_empty());
    }
}
