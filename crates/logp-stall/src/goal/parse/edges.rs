//! The dependencies of a rank block as a [`Schedule`](crate::goal::Schedule) stores them,
//! built when the block closes: reverse lists in CSR form ([`append_dependents`]), checked
//! acyclic ([`first_cycle`]).

use netcore::limits::OutOfMemory;

use crate::goal::schedule::IREQ_BIT;

/// What the lists hold, for a refused allocation.
const WHAT: &str = "the dependency lists";

/// Appends the reverse dependency lists of the `n` operations `first..first + n` of one block
/// to `start` (per operation, where its dependents begin in `list`) and `list` (the
/// dependents), from its dependencies `edges` (`(op, on)`: `op` waits for `on`, [`IREQ_BIT`]
/// set in `op` for `irequires`): the dependents of an operation in the order of `edges`.
/// `count` is a buffer. The lists hold fewer than 2^31 dependencies (they are counted with
/// the operations against the memory limit).
pub(super) fn append_dependents(
    first: u32,
    n: usize,
    edges: &[(u32, u32)],
    [start, list, count]: [&mut Vec<u32>; 3],
) -> Result<(), OutOfMemory> {
    let base = u32::try_from(list.len()).unwrap_or(u32::MAX);
    // `count[i]` counts the dependents of operation `i`; the exclusive prefix sums make it
    // the start of its list, then its fill cursor.
    count.clear();
    count.resize(n, 0);
    let count = &mut count[..];
    for &(_, on) in edges {
        count[(on - first) as usize] += 1;
    }
    let mut sum = 0;
    for c in count.iter_mut() {
        (*c, sum) = (sum, sum + *c);
    }
    let oom = |_| OutOfMemory { what: WHAT, bytes: 4 * (n + edges.len()) as u64 };
    start.try_reserve(n).map_err(oom)?;
    list.try_reserve(edges.len()).map_err(oom)?;
    start.extend(count.iter().map(|&c| base + c));
    list.resize(list.len() + edges.len(), 0);
    let lists = &mut list[base as usize..];
    for &(op, on) in edges {
        let cursor = &mut count[(on - first) as usize];
        lists[*cursor as usize] = op;
        *cursor += 1;
    }
    Ok(())
}

/// The first operation, in line order, on or behind a dependency cycle among the block's
/// operations `first..first + start.len()`, if any, from its dependencies `edges` (as in
/// [`append_dependents`]) and the lists that function appended (`start`, `list`: the block's
/// part of them). A block whose every dependency waits for an earlier line (the usual form)
/// has none; any other is checked by Kahn's algorithm on the buffers `indegree` and `stack`.
pub(super) fn first_cycle(
    first: u32,
    edges: &[(u32, u32)],
    start: &[u32],
    list: &[u32],
    [indegree, stack]: [&mut Vec<u32>; 2],
) -> Option<u32> {
    if edges.iter().all(|&(op, on)| op & !IREQ_BIT > on) {
        return None;
    }
    let n = start.len();
    let base = start.first().copied().unwrap_or(0);
    let dependents = |i: usize| {
        let end = start.get(i + 1).map_or(list.len(), |&e| (e - base) as usize);
        &list[(start[i] - base) as usize..end]
    };
    indegree.clear();
    indegree.resize(n, 0);
    for &(op, _) in edges {
        indegree[((op & !IREQ_BIT) - first) as usize] += 1;
    }
    stack.clear();
    stack.extend((0u32..).zip(indegree.iter()).filter(|&(_, &d)| d == 0).map(|(i, _)| i));
    while let Some(v) = stack.pop() {
        for &w in dependents(v as usize) {
            let w = (w & !IREQ_BIT) - first;
            indegree[w as usize] -= 1;
            if indegree[w as usize] == 0 {
                stack.push(w);
            }
        }
    }
    (0u32..).zip(indegree.iter()).find(|&(_, &d)| d > 0).map(|(i, _)| first + i)
}
