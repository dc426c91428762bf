//! What the cascade's processors hold and send.

use crate::ProcId;

/// A key of the cascade: a real item, or a `+infinity` pad filling a block up to the capacity;
/// the tag (the item's input slot, or a pad's own slot) makes every key distinct, and equal
/// items keep their input order (a real key sorts before every pad).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Key<I> {
    /// A real item and its input slot.
    Real(I, u64),
    /// A pad.
    Pad(u64),
}

/// A message of the cascade. `h` is always the height of the merging node `v`; `side` names
/// one of its `d` children, in the order of the processors they cover.
#[derive(Debug, Clone)]
pub(super) enum Msg<I, const D: usize> {
    /// The input scatter: a real key to its new slot.
    Scatter(Key<I>),
    /// Asks for element `j` of `SUP_t(child side)` (once per asking processor, whatever the
    /// number of its intervals that need it).
    Window { h: u32, side: usize, j: u64 },
    /// The answer: the element, and its rank in the child's next sample `SUP_{t+1}`.
    Sup { h: u32, side: usize, j: u64, key: Key<I>, next_rank: u64 },
    /// A merged element placed at position `pos` of `UP_{t+1}(v)` (or, `ghost`, its copy at the
    /// holder of `pos + 1`): its rank in `SUP_{t+1}(side)` is `own`, its rank in each other
    /// child `o`'s `SUP_{t+1}` lies in `[lo[o], hi[o]]` (`2 (d - 1) + 1` words: the ledger
    /// counts one message, `docs/models/netcore.md`, Choices: the cascade sort); entries past
    /// the node's fan-in are unused.
    Place {
        h: u32,
        pos: u64,
        ghost: bool,
        key: Key<I>,
        side: usize,
        own: u64,
        lo: [u64; D],
        hi: [u64; D],
    },
    /// Asks for element `j` of the next sample `SUP_{t+1}(child side)`, answered to
    /// `reply_to` (once per processor that will hold elements needing it).
    Fetch { h: u32, side: usize, j: u64, reply_to: ProcId },
    /// The answer: candidate `j` of `SUP_{t+1}(side)`.
    Candidate { h: u32, side: usize, j: u64, key: Key<I> },
}

/// One element of a node's list held by a processor.
#[derive(Debug, Clone)]
pub(super) struct Held<I, const D: usize> {
    /// Position in the list.
    pub(super) pos: u64,
    /// The key.
    pub(super) key: Key<I>,
    /// Ranks in the children's current samples (`rank[side] = |{e in SUP_t(side): e < key}|`,
    /// one per child, unused at a leaf and past the fan-in), exact once the candidates are in.
    pub(super) rank: [u64; D],
    /// The end of each side's rank range `[rank[side], end[side]]`: the rank is still pending
    /// where `end[side] > rank[side]`.
    pub(super) end: [u64; D],
}

/// The candidates delivered to a processor: ((height, side, index), key), sorted.
pub(super) type Candidates<I> = Vec<((u32, usize, u64), Key<I>)>;

impl<I: Ord, const D: usize> Held<I, D> {
    /// Settles the pending ranks at height `h`: each range's start plus the candidates in the
    /// range below the key. Returns the comparisons made.
    pub(super) fn settle(&mut self, h: u32, cands: &Candidates<I>) -> u64 {
        let mut seen = 0;
        for side in 0..D {
            let (start, end) = (self.rank[side], self.end[side]);
            if end <= start {
                continue;
            }
            let lo = cands.partition_point(|(at, _)| *at < (h, side, start));
            let hi = cands.partition_point(|(at, _)| *at < (h, side, end));
            let mut below = 0;
            for (_, key) in &cands[lo..hi.max(lo)] {
                seen += 1;
                below += u64::from(*key < self.key);
            }
            self.rank[side] += below;
            self.end[side] = self.rank[side];
        }
        seen
    }
}
