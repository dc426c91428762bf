//! The operations of a [`Schedule`](super::Schedule) as it stores them ([`OpWords`]): each in
//! one 32-bit word holding its peer and its shape when the schedule's ranks and shapes fit
//! in it (4 bytes per operation, as in every generated schedule), else in two.
#![warn(clippy::cast_possible_truncation)]

use netcore::limits::{OutOfMemory, push, vec_with_capacity};

/// What the words hold, for a refused allocation.
const WHAT: &str = "the GOAL operations";

/// An operation as a [`Schedule`](super::Schedule) stores it (schedules hold millions of
/// them): its peer, and its shape, the index in `Schedule::shapes` of the operation with its
/// size, tag, kind, CPU and NIC and peer 0 (a schedule's operations take few shapes: two in a
/// broadcast, 32 in a dissemination 2^16), both in one word while they fit ([`OpWords`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StoredOp {
    pub(crate) peer: u32,
    pub(crate) shape: u32,
}

/// A schedule's operations in order, each a [`StoredOp`] (shown as its operations, whichever
/// form holds them).
#[derive(Clone)]
pub(crate) enum OpWords {
    /// Each operation in one word: its peer plus one (0 for [`ANY`](super::schedule::ANY),
    /// whose plus one wraps) in the low `bits` bits, the number of bits of `num_ranks` (below
    /// 32), and its shape above them (fewer than `2^(32 - bits)` shapes: 32,768 for 2^16
    /// ranks, 128 for the most ranks, 2^24).
    Packed { words: Vec<u32>, bits: u32 },
    /// Each operation in two words: a schedule with more shapes than the packed words hold.
    Wide(Vec<StoredOp>),
}

impl OpWords {
    /// No operations yet, for a schedule of `p` ranks, with room for `n` of them (no room if
    /// the system refuses it: the words then grow as they fill).
    pub(crate) fn reserved(p: u32, n: usize) -> Self {
        match u32::BITS - p.leading_zeros() {
            // No room for a shape beside a peer of 32 bits (more ranks than a schedule holds).
            32 => OpWords::Wide(vec_with_capacity(WHAT, n).unwrap_or_default()),
            bits => OpWords::Packed { words: vec_with_capacity(WHAT, n).unwrap_or_default(), bits },
        }
    }

    /// Empty words laid out as `self`'s, with room for `n` operations.
    pub(crate) fn with_capacity_like(&self, n: usize) -> Result<Self, OutOfMemory> {
        Ok(match self {
            OpWords::Packed { bits, .. } => {
                OpWords::Packed { words: vec_with_capacity(WHAT, n)?, bits: *bits }
            }
            OpWords::Wide(_) => OpWords::Wide(vec_with_capacity(WHAT, n)?),
        })
    }

    /// Number of operations.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        match self {
            OpWords::Packed { words, .. } => words.len(),
            OpWords::Wide(ops) => ops.len(),
        }
    }

    /// Bytes per operation.
    pub(crate) fn width(&self) -> usize {
        match self {
            OpWords::Packed { .. } => std::mem::size_of::<u32>(),
            OpWords::Wide(_) => std::mem::size_of::<StoredOp>(),
        }
    }

    /// Operation `i`.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> StoredOp {
        match self {
            OpWords::Packed { words, bits } => unpack(words[i], *bits),
            OpWords::Wide(ops) => ops[i],
        }
    }

    /// Appends `op`, moving every operation to two words if it does not fit in one.
    #[inline]
    pub(crate) fn push(&mut self, op: StoredOp) -> Result<(), OutOfMemory> {
        match self {
            OpWords::Packed { words, bits } => match pack(op, *bits) {
                Some(w) => push(WHAT, words, w),
                None => {
                    // The room the parser reserved, in two words each (address space until
                    // written), so that the operations still never grow by copying; without it
                    // if the system refuses.
                    let room = words.capacity().max(words.len() + 1);
                    let mut wide = vec_with_capacity(WHAT, room)
                        .or_else(|_| vec_with_capacity(WHAT, words.len() + 1))?;
                    wide.extend(words.iter().map(|&w| unpack(w, *bits)));
                    wide.push(op);
                    *self = OpWords::Wide(wide);
                    Ok(())
                }
            },
            OpWords::Wide(ops) => push(WHAT, ops, op),
        }
    }

    /// Appends `src`'s operations `range`, each with its shape mapped by `shape`.
    pub(crate) fn extend_from(
        &mut self,
        src: &OpWords,
        range: std::ops::Range<usize>,
        shape: impl Fn(u32) -> u32,
    ) -> Result<(), OutOfMemory> {
        match self {
            OpWords::Packed { words, .. } => words.try_reserve(range.len()),
            OpWords::Wide(ops) => ops.try_reserve(range.len()),
        }
        .map_err(|_| OutOfMemory {
            what: WHAT,
            bytes: (range.len() as u64).saturating_mul(self.width() as u64),
        })?;
        for i in range {
            let op = src.get(i);
            self.push(StoredOp { peer: op.peer, shape: shape(op.shape) })?;
        }
        Ok(())
    }
}

impl std::fmt::Debug for OpWords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries((0..self.len()).map(|i| self.get(i))).finish()
    }
}

/// Equal when they hold the same operations, one word each or two.
impl PartialEq for OpWords {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && (0..self.len()).all(|i| self.get(i) == other.get(i))
    }
}

impl Eq for OpWords {}

/// `op` in one word of `bits` bits of peer (`bits < 32`), if it fits.
#[inline]
fn pack(op: StoredOp, bits: u32) -> Option<u32> {
    let code = op.peer.wrapping_add(1);
    (code >> bits == 0 && op.shape <= u32::MAX >> bits).then(|| op.shape << bits | code)
}

/// The operation in `word`, whose low `bits` bits (`bits < 32`) are its peer plus one.
#[inline]
pub(super) fn unpack(word: u32, bits: u32) -> StoredOp {
    StoredOp { peer: (word & ((1 << bits) - 1)).wrapping_sub(1), shape: word >> bits }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::goal::schedule::ANY;
    use proptest::prelude::*;

    /// `p` ranks: a power of two, one below, or any count up to the most (2^24).
    fn ranks() -> impl Strategy<Value = u32> {
        prop_oneof![
            (1u32..=24).prop_map(|k| 1 << k),
            (2u32..=24).prop_map(|k| (1 << k) - 1),
            2u32..=(1 << 24)
        ]
    }

    proptest! {
        /// Whatever the ranks, peers (the highest rank and the wildcard among them) and shapes
        /// (around the most one word holds), the words give back every operation pushed, in
        /// one word each while they fit; appended from other words with a shape map (as a
        /// parse in pieces merges) or in a reorder (`extend_from`), they hold the same
        /// operations, and words in one form equal words in the other.
        #[test]
        fn the_words_give_back_every_operation(
            p in ranks(),
            ops in prop::collection::vec((any::<u32>(), 0u8..4, -8i64..8), 0..100),
            shift in 0u32..4,
            split in 0usize..100,
        ) {
            let bits = u32::BITS - p.leading_zeros();
            let most = 1i64 << (32 - bits);
            let ops: Vec<StoredOp> = ops
                .into_iter()
                .map(|(peer, which, near)| {
                    let peer = match which {
                        0 => ANY,
                        1 => p - 1,
                        _ => peer % p,
                    };
                    // Small shapes, or shapes around the most one word holds.
                    let shape =
                        if which == 3 { (most + near).clamp(0, 1 << 31) } else { near.abs() };
                    StoredOp { peer, shape: u32::try_from(shape).expect("below 2^31") }
                })
                .collect();
            let mut words = OpWords::reserved(p, ops.len());
            for &op in &ops {
                words.push(op).expect("room");
            }
            let got: Vec<StoredOp> = (0..words.len()).map(|i| words.get(i)).collect();
            prop_assert_eq!(&got, &ops);
            let fits = ops.iter().all(|o| i64::from(o.shape) < most);
            prop_assert_eq!(words.width(), if fits { 4 } else { 8 });
            // A merge: the first operations pushed, then the rest appended with their shapes
            // shifted; a reorder: every operation appended unchanged into words laid out alike.
            let split = split.min(ops.len());
            let mut merged = OpWords::reserved(p, 0);
            for &op in &ops[..split] {
                merged.push(op).expect("room");
            }
            merged
                .extend_from(&words, split..ops.len(), |s| s.saturating_add(shift))
                .expect("room");
            let want: Vec<StoredOp> = ops[..split]
                .iter()
                .copied()
                .chain(
                    ops[split..]
                        .iter()
                        .map(|o| StoredOp { shape: o.shape.saturating_add(shift), ..*o }),
                )
                .collect();
            prop_assert_eq!((0..merged.len()).map(|i| merged.get(i)).collect::<Vec<_>>(), want);
            let mut copy = words.with_capacity_like(ops.len()).expect("room");
            copy.extend_from(&words, 0..ops.len(), |s| s).expect("room");
            prop_assert_eq!(&copy, &words);
            prop_assert_eq!(copy.width(), words.width());
            let wide = OpWords::Wide(ops.clone());
            prop_assert_eq!(&wide, &words);
            prop_assert_eq!(format!("{wide:?}"), format!("{words:?}"));
        }
    }
}
