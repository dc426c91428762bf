//! The operations of a [`Schedule`](super::Schedule) as it stores them ([`OpWords`]): each in
//! one 32-bit word holding its peer and its shape when the schedule's ranks and shapes fit
//! in it (4 bytes per operation, as in every generated schedule), else in two.
#![warn(clippy::cast_possible_truncation)]

use netcore::limits::{OutOfMemory, push, vec_with_capacity};

use crate::goal::schedule::StoredOp;

/// What the words hold, for a refused allocation.
const WHAT: &str = "the GOAL operations";

/// A schedule's operations in order, each a [`StoredOp`].
#[derive(Debug, Clone)]
pub(crate) enum OpWords {
    /// Each operation in one word: its peer plus one (0 for [`ANY`](super::schedule::ANY),
    /// whose plus one wraps) in the low `bits` bits, the number of bits of `num_ranks`, and
    /// its shape above them (fewer than `2^(32 - bits)` shapes: 32,768 for 2^16 ranks, 128
    /// for the most ranks, 2^24).
    Packed { words: Vec<u32>, bits: u32 },
    /// Each operation in two words: a schedule with more shapes than the packed words hold.
    Wide(Vec<StoredOp>),
}

impl OpWords {
    /// No operations yet, for a schedule of `p` ranks, with room for `n` of them (no room if
    /// the system refuses it: the words then grow as they fill).
    pub(crate) fn reserved(p: u32, n: usize) -> Self {
        OpWords::Packed {
            words: vec_with_capacity(WHAT, n).unwrap_or_default(),
            bits: u32::BITS - p.leading_zeros(),
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
                    let mut wide = vec_with_capacity(WHAT, words.len() + 1)?;
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

/// Equal when they hold the same operations, one word each or two.
impl PartialEq for OpWords {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && (0..self.len()).all(|i| self.get(i) == other.get(i))
    }
}

impl Eq for OpWords {}

/// `op` in one word of `bits` bits of peer, if it fits.
#[inline]
fn pack(op: StoredOp, bits: u32) -> Option<u32> {
    let code = op.peer.wrapping_add(1);
    let word = u64::from(op.shape).checked_shl(bits)? | u64::from(code);
    (u64::from(code) >> bits == 0).then_some(()).and(u32::try_from(word).ok())
}

/// The operation in `word`, whose low `bits` bits are its peer plus one.
#[inline]
fn unpack(word: u32, bits: u32) -> StoredOp {
    let mask = 1u32.checked_shl(bits).map_or(u32::MAX, |m| m - 1);
    StoredOp { peer: (word & mask).wrapping_sub(1), shape: word.checked_shr(bits).unwrap_or(0) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::goal::schedule::ANY;
    use proptest::prelude::*;

    proptest! {
        /// Whatever the ranks, peers and shapes, the words give back every operation pushed,
        /// in one word each while they fit.
        #[test]
        fn the_words_give_back_every_operation(
            p in 2u32..=(1 << 24),
            ops in prop::collection::vec((any::<u32>(), any::<bool>(), 0u32..300), 0..200),
        ) {
            let ops: Vec<StoredOp> = ops
                .into_iter()
                .map(|(peer, any_peer, shape)| {
                    StoredOp { peer: if any_peer { ANY } else { peer % p }, shape }
                })
                .collect();
            let mut words = OpWords::reserved(p, 0);
            for &op in &ops {
                words.push(op).expect("room");
            }
            let got: Vec<StoredOp> = (0..words.len()).map(|i| words.get(i)).collect();
            prop_assert_eq!(&got, &ops);
            let bits = u32::BITS - p.leading_zeros();
            let fits = ops.iter().all(|o| u64::from(o.shape) < 1u64 << (32 - bits));
            prop_assert_eq!(words.width(), if fits { 4 } else { 8 });
        }
    }
}
