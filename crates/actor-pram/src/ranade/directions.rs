//! A virtual node's queues that the reverse rounds take from (Choice 14): its direction
//! queue, the [`Record`] of every packet it forwarded, in order (the forward rounds push),
//! and its exit queue, the host's replies to the packets that left the network there.
//!
//! A node actor keeps its own queues (each a [`VecDeque`]). The lockstep router logs every
//! node's records in one array as its forward rounds send them ([`Logged`]), and packs them
//! and the replies node by node between the passes ([`Packed`]): every queue is complete when
//! the forward pass ends, and a reverse round then reads its node's oldest entry next to its
//! neighbours' instead of from a queue of its own on the heap, and the forward rounds
//! allocate no queue.

use std::collections::VecDeque;

use netcore::limits::TooLarge;

use super::network::{Record, pop_release, push_small};

/// Where a forward round puts the record of a packet it forwarded.
pub(super) trait PushRecord {
    fn push_record(&mut self, rec: Record);
}

/// What a reverse round reads and takes of its node's direction or exit queue.
pub(super) trait Fifo<T> {
    /// The oldest entry.
    fn front(&self) -> Option<T>;
    /// Takes the oldest entry.
    fn pop(&mut self) -> Option<T>;
    fn is_empty(&self) -> bool;
}

impl PushRecord for VecDeque<Record> {
    fn push_record(&mut self, rec: Record) {
        push_small(self, rec);
    }
}

impl<T: Copy> Fifo<T> for VecDeque<T> {
    fn front(&self) -> Option<T> {
        VecDeque::front(self).copied()
    }
    fn pop(&mut self) -> Option<T> {
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

/// Every node's queue in one array, node by node, each in its order: node `v`'s entries not
/// yet taken are `items[at[v]..end[v]]`.
#[derive(Debug)]
pub(super) struct Packed<T> {
    items: Vec<T>,
    at: Vec<u32>,
    end: Vec<u32>,
}

impl<T: Copy> Packed<T> {
    /// Packs a log of `(node, entry)` of `nodes` nodes by node (a counting sort, which keeps
    /// each node's order). Every node index in the log is below `nodes`.
    ///
    /// # Errors
    ///
    /// [`TooLarge`] naming the accesses if the log holds `2^32` entries or more (the
    /// queues' offsets are 32-bit).
    pub(super) fn pack(log: &[(u32, T)], nodes: usize) -> Result<Self, TooLarge> {
        let total = u32::try_from(log.len()).map_err(|_| TooLarge {
            field: "accesses",
            limit: u64::from(u32::MAX),
            estimate: log.len() as u64,
            unit: "queue entries of a pass (records or replies)",
        })?;
        let mut at = vec![0u32; nodes];
        for &(v, _) in log {
            at[v as usize] += 1;
        }
        // Each node's start (the counts sum to `total`, below 2^32).
        let mut start = 0u32;
        for a in &mut at {
            let len = *a;
            *a = start;
            start += len;
        }
        debug_assert_eq!(start, total);
        let mut end = at.clone();
        let mut items: Vec<T> = log.iter().map(|&(_, x)| x).collect();
        for &(v, x) in log {
            let e = &mut end[v as usize];
            items[*e as usize] = x;
            *e += 1;
        }
        Ok(Self { items, at, end })
    }

    /// The longest queue before any entry is taken (`max_dq` of the direction queues, which
    /// only grow in the forward pass).
    pub(super) fn longest(&self) -> u64 {
        self.at.iter().zip(&self.end).map(|(a, e)| u64::from(e - a)).max().unwrap_or(0)
    }

    /// Node `v`'s queue.
    pub(super) fn queue(&mut self, v: usize) -> Queue<'_, T> {
        Queue { items: &self.items, at: &mut self.at[v], end: self.end[v] }
    }
}

/// One node's queue in [`Packed`].
#[derive(Debug)]
pub(super) struct Queue<'a, T> {
    items: &'a [T],
    at: &'a mut u32,
    end: u32,
}

impl<T: Copy> Fifo<T> for Queue<'_, T> {
    fn front(&self) -> Option<T> {
        (*self.at < self.end).then(|| self.items[*self.at as usize])
    }
    fn pop(&mut self) -> Option<T> {
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
        let mut packed = Packed::pack(&log, 4).expect("below 2^32 entries");
        assert_eq!(packed.longest(), 3);
        let drain = |q: &mut Queue<'_, Record>| {
            let mut out = Vec::new();
            while let Some(r) = q.pop() {
                out.push(r.first().pids);
            }
            out
        };
        assert_eq!(packed.queue(2).front().map(|r| r.first().pids), Some(10));
        assert_eq!(drain(&mut packed.queue(0)), [20, 21]);
        assert_eq!(drain(&mut packed.queue(1)), Vec::<u32>::new());
        assert!(packed.queue(1).is_empty());
        assert_eq!(drain(&mut packed.queue(2)), [10, 11, 12]);
        assert!(packed.queue(2).front().is_none());
        assert!(packed.queue(3).is_empty());
    }
}
