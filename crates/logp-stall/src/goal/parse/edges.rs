//! The dependencies as the parser keeps them ([`Edge`]), and their reverse lists in CSR form
//! as a [`Schedule`](crate::goal::Schedule) stores them.

use netcore::limits::{OutOfMemory, vec_filled};

use crate::goal::schedule::IREQ_BIT;

/// A dependency as the parser keeps it, in 8 bytes: `op` waits for `on`, [`IREQ_BIT`] set in
/// `op` for `irequires` (operation ids are below 2^31 - 1).
#[derive(Debug, Clone, Copy)]
pub(super) struct Edge {
    pub(super) op: u32,
    pub(super) on: u32,
}

impl Edge {
    /// The edge between the operations `op - from + to` and `on - from + to`.
    pub(super) fn moved(self, from: u32, to: u32) -> Edge {
        let bit = self.op & IREQ_BIT;
        Edge { op: ((self.op & !IREQ_BIT) - from + to) | bit, on: self.on - from + to }
    }
}

/// The reverse dependency lists of `n` operations in CSR form: the dependents of `v` are
/// `list[start[v]..start[v + 1]]` in the order of `deps`, each with [`IREQ_BIT`] set for
/// `irequires` edges. Dependencies are counted with operations against the memory limit, so
/// fewer than 2^31 of them. [`OutOfMemory`] when the system refuses the lists.
pub(super) fn dependents(n: usize, deps: &[Edge]) -> Result<(Vec<u32>, Vec<u32>), OutOfMemory> {
    // Counts at `on + 1` and prefix sums give the offsets; `start[on]` then serves as the
    // fill cursor of `on`'s list, which leaves it at the end of that list = the start of the
    // next, so shifting by one restores the offsets (no second array).
    let mut start = vec_filled("the dependency lists", n + 1, 0u32)?;
    for d in deps {
        start[d.on as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut list = vec_filled("the dependency lists", deps.len(), 0u32)?;
    for d in deps {
        let cursor = &mut start[d.on as usize];
        list[*cursor as usize] = d.op;
        *cursor += 1;
    }
    start.copy_within(0..n, 1);
    start[0] = 0;
    Ok((start, list))
}
