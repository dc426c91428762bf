//! The distinct shapes of the parsed operations ([`Shapes`]): each operation is stored as
//! its peer and the index of its shape ([`StoredOp`]).
#![warn(clippy::cast_possible_truncation)]

use netcore::limits::{OutOfMemory, push, vec_filled};

use crate::goal::op_words::StoredOp;
use crate::goal::schedule::Op;

/// What the table holds, for a refused allocation.
const WHAT: &str = "the GOAL operations' shapes";

/// The shapes met so far, in order of first appearance, with a hash table finding a shape's
/// index (open addressing, linear probing, at most half full) behind a cache of
/// [`RECENT`] shapes indexed by their tag, size and kind (one comparison when it holds the
/// shape, as it does for every operation after the first of each shape when the shapes are
/// few and fall in different entries, as the 32 of a dissemination 2^16 do; shapes that
/// differ only in CPU or NIC share an entry). Shapes are compared as their [`key`].
#[derive(Debug)]
pub(super) struct Shapes {
    /// Each shape: an operation with peer 0.
    pub(super) list: Vec<Op>,
    /// Per slot, a position in `list` plus one, or 0 for an empty slot (`2^bits` slots).
    table: Vec<u32>,
    bits: u32,
    /// Per cache entry, a shape's key and index plus one (0 for none).
    recent: [(u128, u32); RECENT],
}

/// Entries of the cache of recent shapes (a power of two).
const RECENT: usize = 64;

impl Default for Shapes {
    fn default() -> Self {
        Self { list: Vec::new(), table: Vec::new(), bits: 0, recent: [(0, 0); RECENT] }
    }
}

impl Shapes {
    /// Number of shapes.
    pub(super) fn len(&self) -> usize {
        self.list.len()
    }

    /// `op` as a schedule stores it: its peer, and the index of its shape (added if new).
    #[inline]
    pub(super) fn store(&mut self, op: Op) -> Result<StoredOp, OutOfMemory> {
        let k = key(op);
        let at = (op.tag ^ op.size.rotate_left(7) ^ ((op.kind as u32) << 5)) as usize % RECENT;
        let recent = self.recent[at];
        if recent.1 != 0 && recent.0 == k {
            return Ok(StoredOp { peer: op.peer, shape: recent.1 - 1 });
        }
        let i = self.find(op, k)?;
        self.recent[at] = (k, i + 1);
        Ok(StoredOp { peer: op.peer, shape: i })
    }

    /// The index of the shape of `op`, whose key is `k` (added if new).
    fn find(&mut self, op: Op, k: u128) -> Result<u32, OutOfMemory> {
        if 2 * (self.list.len() + 1) > self.table.len() {
            self.grow()?;
        }
        let mask = self.table.len() - 1;
        let mut at = slot(k, self.bits);
        loop {
            match self.table[at].checked_sub(1) {
                Some(i) if key(self.list[i as usize]) == k => return Ok(i),
                Some(_) => at = (at + 1) & mask,
                None => {
                    // Fewer shapes than operations, and those fewer than 2^31.
                    let i = u32::try_from(self.list.len()).unwrap_or(u32::MAX);
                    push(WHAT, &mut self.list, Op { peer: 0, ..op })?;
                    self.table[at] = i + 1;
                    return Ok(i);
                }
            }
        }
    }

    /// Doubles the table (4 slots at first) and puts the shapes back in it.
    fn grow(&mut self) -> Result<(), OutOfMemory> {
        self.bits = (self.bits + 1).max(2);
        self.table = vec_filled(WHAT, 1 << self.bits, 0)?;
        let mask = self.table.len() - 1;
        for (i, &shape) in (1u32..).zip(&self.list) {
            let mut at = slot(key(shape), self.bits);
            while self.table[at] != 0 {
                at = (at + 1) & mask;
            }
            self.table[at] = i;
        }
        Ok(())
    }
}

/// The shape of `op` as one number: its size, tag, kind, CPU and NIC (not its peer).
#[inline]
fn key(op: Op) -> u128 {
    u128::from(op.size)
        | u128::from(op.tag) << 32
        | u128::from(op.kind as u8) << 64
        | u128::from(op.cpu) << 72
        | u128::from(op.nic) << 80
}

/// The slot of the shape of key `k` in a table of `2^bits` slots (`bits` in `2..64`): its
/// halves mixed and multiplied by an odd constant (Fibonacci hashing).
fn slot(k: u128, bits: u32) -> usize {
    let half = |k: u128| u64::try_from(k & u128::from(u64::MAX)).unwrap_or(0);
    let h = (half(k) ^ half(k >> 64).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    usize::try_from(h >> (64 - bits)).unwrap_or(0)
}
