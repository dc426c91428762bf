//! Validation of a parsed schedule's messages: without wildcards, as many sends as recvs for
//! each `(src, dst, tag)` (tallied, then matched one by one to name a mismatch). The
//! dependencies are checked acyclic block by block (`edges`).

use netcore::limits::vec_filled;

use super::errors::schedule_err;
use crate::error::Error;
use crate::goal::schedule::{ANY, Op, OpKind, Schedule};

/// The message tally of a schedule, summed as its operations are parsed
/// ([`Parser::push_op`](super::parser::Parser::push_op); a piece's joined when it is merged),
/// which says whether its sends and recvs must be matched one by one
/// ([`check_message_counts`]) to find a `(src, dst, tag)` whose send and recv counts differ:
/// never with a wildcard (the run matches those); else when the tally says some counts surely
/// differ. The tally is the sum, modulo the prime `2^61 - 1`, of a hash of each message's
/// `(src, dst, tag)`, a send adding and a recv subtracting: equal counts for every
/// `(src, dst, tag)` give 0, so a nonzero sum proves a mismatch. Unequal counts give 0 only by
/// a hash collision: a count difference is below 2^31, so it has an inverse modulo the prime,
/// and for hashes that behave as random ones the sum is 0 with a probability of about 2^-61.
/// The LogGOPSim-compatible run then reports the message or recv left over at its end, as for
/// a schedule with wildcards; the LogP mode's check against the reference states fails.
/// Summed while parsing, it costs no second pass over the operations.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Tally {
    /// The sum, below the prime.
    sum: u64,
    /// Whether an operation has a wildcard peer or tag.
    wildcard: bool,
}

/// The tally's modulus, the prime `2^61 - 1`.
const PRIME: u64 = (1 << 61) - 1;

impl Tally {
    /// Adds operation `op` of rank `rank`.
    #[inline]
    pub(super) fn add(&mut self, rank: u32, op: &Op) {
        let (src, dst, send) = match op.kind {
            OpKind::Calc => return,
            OpKind::Send => (rank, op.peer, true),
            OpKind::Recv => (op.peer, rank, false),
        };
        self.wildcard |= op.peer == ANY || op.tag == ANY;
        let h = message_hash(src, dst, op.tag);
        // `h` modulo the prime (`h >> 61` is at most 7), then added or subtracted.
        let x = (h & PRIME) + (h >> 61);
        let x = if x >= PRIME { x - PRIME } else { x };
        self.join(Tally { sum: if send { x } else { PRIME - x }, wildcard: false });
    }

    /// Adds the tally of other operations.
    pub(super) fn join(&mut self, other: Tally) {
        // Both sums are at most the prime, so theirs does not overflow.
        self.sum += other.sum;
        if self.sum >= PRIME {
            self.sum -= PRIME;
        }
        self.wildcard |= other.wildcard;
    }

    /// Whether the operations added must be matched one by one ([`check_message_counts`]).
    pub(super) fn may_differ(self) -> bool {
        !self.wildcard && self.sum != 0
    }
}

/// A 64-bit hash of the message key `(src, dst, tag)`: a 64 x 64 -> 128-bit multiply of its
/// two words, each offset by a constant, folded to 64 bits (wyhash's mixing).
fn message_hash(src: u32, dst: u32, tag: u32) -> u64 {
    let pair = (u64::from(src) << 32) | u64::from(dst);
    let p = u128::from(pair ^ 0xA076_1D64_78BD_642F)
        * u128::from(u64::from(tag) ^ 0xE703_7ED1_A0B4_28DB);
    u64::try_from(p >> 64).unwrap_or(0) ^ u64::try_from(p & u128::from(u64::MAX)).unwrap_or(0)
}

/// Every send has a recv and every recv a send: for each `(src, dst, tag)` the sends from
/// `src` to `dst` with tag `t` are as many as the recvs at `dst` from `src` with tag `t` (a
/// schedule without wildcards, where a mismatch surely leaves a message or a recv unmatched
/// at the end of a run). The error names the smallest `(src, dst, tag)` with a mismatch and
/// the first operation in line order left over in it.
pub fn check_message_counts(s: &Schedule) -> Result<(), Error> {
    // The recvs grouped by source as `(dst, tag)` (counting sort: 8 bytes per recv), each
    // group in rank and line order; then one source at a time, its sends and its recvs as
    // `(dst, tag)`, sorted: the k-th send and the k-th recv of a `(dst, tag)` sit at the same
    // position. The operations are read in order only; the one an error names is found again.
    let p = s.num_ranks as usize;
    let mut start = vec_filled("the receives by source", p + 1, 0u32)?;
    let mut n_recvs = 0;
    for op in s.ops() {
        if op.kind == OpKind::Recv {
            start[op.peer as usize + 1] += 1;
            n_recvs += 1;
        }
    }
    for i in 0..p {
        start[i + 1] += start[i];
    }
    let mut by_src: Vec<(u32, u32)> = vec_filled("the receives by source", n_recvs, (0, 0))?;
    for r in 0..s.num_ranks {
        for op in s.rank_ops(r) {
            if op.kind == OpKind::Recv {
                let cursor = &mut start[op.peer as usize];
                by_src[*cursor as usize] = (r, op.tag);
                *cursor += 1;
            }
        }
    }
    // `start[src]` now ends the group of `src`, so the group is `end(src - 1)..start[src]`.
    let mut sends: Vec<(u32, u32)> = Vec::new();
    let mut from = 0;
    for src in 0..s.num_ranks {
        let to = start[src as usize] as usize;
        sends.clear();
        sends.extend(
            s.rank_ops(src).filter(|op| op.kind == OpKind::Send).map(|op| (op.peer, op.tag)),
        );
        let recvs = &mut by_src[from..to];
        from = to;
        sends.sort_unstable();
        recvs.sort_unstable();
        // The `k`-th operation of `kind` with `(peer, tag)` at rank `rank`, in line order
        // (`k` = its position in the sorted list less that of the first with its key).
        let nth = |list: &[(u32, u32)], at: usize, rank: u32, kind: OpKind, peer: u32| {
            let key = list[at];
            let k = at - list.partition_point(|&x| x < key);
            let ops = s.rank_start[rank as usize]..s.rank_start[rank as usize + 1];
            let op = |i: u32| s.op(i);
            ops.filter(|&i| (op(i).kind, op(i).peer, op(i).tag) == (kind, peer, key.1))
                .nth(k)
                .map_or(0, |i| s.line(i))
        };
        let (mut a, mut b) = (0, 0);
        loop {
            match (sends.get(a), recvs.get(b)) {
                (Some(x), Some(y)) if x == y => {
                    a += 1;
                    b += 1;
                }
                (Some(x), y) if y.is_none_or(|y| x < y) => {
                    return Err(schedule_err(format!(
                        "send from rank {src} to rank {} tag {} at line {} has no matching recv",
                        x.0,
                        x.1,
                        nth(&sends, a, src, OpKind::Send, x.0)
                    )));
                }
                (_, Some(y)) => {
                    return Err(schedule_err(format!(
                        "recv at rank {} from rank {src} tag {} at line {} has no matching send",
                        y.0,
                        y.1,
                        nth(recvs, b, y.0, OpKind::Recv, src)
                    )));
                }
                (_, None) => break,
            }
        }
    }
    Ok(())
}
