//! LogGOPSim's matching queues of every rank, in shared pools: the unexpected messages and
//! the posted recvs ([`MatchQueues`]), the recvs posted at start-up kept in place
//! ([`PostedRecvs`]).

use netcore::limits::{OutOfMemory, push, vec_filled, vec_with_capacity};

use crate::goal::schedule::{OpKind, Schedule};

/// No node (end of a list).
const NIL: u32 = u32::MAX;

/// One FIFO list of `T` per rank in one shared pool (LogGOPSim's posted-receive or unexpected
/// queue of every rank): 8 bytes per rank plus `T` and 4 bytes per entry queued at once, where
/// a vector per rank costs 24 bytes plus an allocation per rank.
pub(super) struct MatchQueues<T> {
    what: &'static str,
    ranks: usize,
    /// First and last node of each rank's list, allocated at the first push (no message is
    /// ever unexpected, nor a recv posted after start-up, in a schedule whose recvs are all
    /// ready then).
    ends: Vec<(u32, u32)>,
    /// `(entry, next node)`; freed nodes are chained from `free`.
    nodes: Vec<(T, u32)>,
    free: u32,
}

impl<T: Copy> MatchQueues<T> {
    /// Empty lists for `ranks` ranks, room for `entries` entries queued at once reserved (the
    /// pool grown by doubling copied its nodes and left the old ones to the allocator);
    /// [`OutOfMemory`] naming `what` when the system refuses them.
    pub(super) fn new(
        what: &'static str,
        ranks: usize,
        entries: usize,
    ) -> Result<Self, OutOfMemory> {
        Ok(Self {
            what,
            ranks,
            ends: Vec::new(),
            nodes: vec_with_capacity(what, entries)?,
            free: NIL,
        })
    }

    /// Appends `q` to rank `h`'s list ([`OutOfMemory`] when the system refuses the lists).
    pub(super) fn push(&mut self, h: u32, q: T) -> Result<(), OutOfMemory> {
        if self.ends.is_empty() {
            self.ends = vec_filled(self.what, self.ranks, (NIL, NIL))?;
        }
        let node = if self.free == NIL {
            push(self.what, &mut self.nodes, (q, NIL))?;
            u32::try_from(self.nodes.len() - 1).expect("fewer than 2^32 entries queued")
        } else {
            let node = self.free;
            self.free = self.nodes[node as usize].1;
            self.nodes[node as usize] = (q, NIL);
            node
        };
        let ends = &mut self.ends[h as usize];
        if ends.1 == NIL {
            ends.0 = node;
        } else {
            self.nodes[ends.1 as usize].1 = node;
        }
        ends.1 = node;
        Ok(())
    }

    /// Removes and returns the first entry of rank `h`'s list for which `hit` holds.
    pub(super) fn take_match(&mut self, h: u32, hit: impl Fn(T) -> bool) -> Option<T> {
        let (mut prev, mut node) = (NIL, self.ends.get(h as usize)?.0);
        while node != NIL {
            let (q, next) = self.nodes[node as usize];
            if hit(q) {
                let ends = &mut self.ends[h as usize];
                if prev == NIL {
                    ends.0 = next;
                } else {
                    self.nodes[prev as usize].1 = next;
                }
                if ends.1 == node {
                    ends.1 = prev;
                }
                self.nodes[node as usize].1 = self.free;
                self.free = node;
                return Some(q);
            }
            (prev, node) = (node, next);
        }
        None
    }

    /// The first entry of rank `h`'s list.
    pub(super) fn first(&self, h: u32) -> Option<T> {
        let node = self.ends.get(h as usize)?.0;
        (node != NIL).then(|| self.nodes[node as usize].0)
    }

    pub(super) fn heap_bytes(&self) -> usize {
        self.ends.capacity() * 8 + self.nodes.capacity() * std::mem::size_of::<(T, u32)>()
    }
}

/// LogGOPSim's posted-receive queue of every rank. The recvs ready at start-up are posted
/// first, in line order, before any message is processed (their entries take time 0 and the
/// smallest stamps, and a recv never waits), so they are the head of their rank's queue, in
/// line order: they are kept in place, as the operations whose bit is set in `waiting` (1 bit
/// per operation, where a node of a list takes 8 bytes: all 2^20 recvs of a dissemination
/// 2^16 are posted at start-up), with a cursor per rank past the taken ones at the front. The
/// recvs posted later are a list behind them ([`MatchQueues`]).
pub(super) struct PostedRecvs {
    /// Bit `op % 64` of word `op / 64`: `op` is a start-up recv not yet taken.
    waiting: Vec<u64>,
    /// Per rank, no start-up recv of the rank not yet taken comes before this operation.
    cursor: Vec<u32>,
    /// The recvs posted after start-up.
    later: MatchQueues<u32>,
}

impl PostedRecvs {
    /// The queues of `s` once its start-up recvs (the recvs `ready` says have no
    /// dependency) are posted ([`OutOfMemory`] when the system refuses them).
    pub(super) fn new(s: &Schedule, ready: impl Fn(u32) -> bool) -> Result<Self, OutOfMemory> {
        let what = "the posted receives";
        let mut waiting = vec_filled(what, s.n_ops().div_ceil(64), 0u64)?;
        let mut later = 0;
        for (op, x) in (0u32..).zip(s.ops()) {
            if x.kind == OpKind::Recv {
                if ready(op) {
                    waiting[op as usize / 64] |= 1 << (op % 64);
                } else {
                    later += 1;
                }
            }
        }
        let ranks = s.num_ranks as usize;
        Ok(Self {
            waiting,
            cursor: {
                let mut cursor = vec_with_capacity(what, ranks)?;
                cursor.extend_from_slice(&s.rank_start[..ranks]);
                cursor
            },
            // At most every later recv is posted at once.
            later: MatchQueues::new(what, ranks, later)?,
        })
    }

    /// Whether `op` is a start-up recv, posted already (not yet taken).
    pub(super) fn at_start_up(&self, op: u32) -> bool {
        self.waiting[op as usize / 64] >> (op % 64) & 1 == 1
    }

    /// Appends the recv `op` to rank `h`'s queue (a recv posted after start-up;
    /// [`OutOfMemory`] when the system refuses the lists).
    pub(super) fn push(&mut self, h: u32, op: u32) -> Result<(), OutOfMemory> {
        self.later.push(h, op)
    }

    /// Removes and returns the first recv of rank `h`'s queue for which `hit` holds: its
    /// start-up recvs in line order (the bits from its cursor, skipped 64 at a time), then
    /// its later ones.
    pub(super) fn take_match(
        &mut self,
        s: &Schedule,
        h: u32,
        hit: impl Fn(u32) -> bool,
    ) -> Option<u32> {
        let end = s.rank_start[h as usize + 1];
        let mut op = self.cursor[h as usize];
        let mut front = true;
        while op < end {
            let left = self.waiting[op as usize / 64] >> (op % 64);
            if left == 0 {
                op = (op | 63) + 1;
                continue;
            }
            op += left.trailing_zeros();
            if op >= end {
                break;
            }
            if front {
                self.cursor[h as usize] = op;
            }
            if hit(op) {
                self.waiting[op as usize / 64] &= !(1 << (op % 64));
                return Some(op);
            }
            front = false;
            op += 1;
        }
        if front {
            self.cursor[h as usize] = end;
        }
        self.later.take_match(h, hit)
    }

    pub(super) fn heap_bytes(&self) -> usize {
        (self.waiting.capacity() * 2 + self.cursor.capacity()) * 4 + self.later.heap_bytes()
    }
}
