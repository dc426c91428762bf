//! Stated size limits, checked before a run allocates anything.
//!
//! A model estimates what a run needs (bytes, operations, steps) from its validated input
//! alone and calls [`check`] for each estimate; a run past a limit is refused with
//! [`TooLarge`], a config error (exit status 2) naming the field that sets the size, the
//! limit and the estimate. Each model states its limits in `docs/models/<crate>.md`.

use crate::fault::{Classify, Fault};

/// The memory one run may use unless a model states otherwise: 4 GiB, a sixth of the 24 GiB
/// development machine, so two sweep threads and the build fit beside it.
pub const DEFAULT_MEMORY: u64 = 4 << 30;

/// The most BFS steps a diameter by BFS from every node may take (about a minute): `run
/// netcore` on an edge list and the `topology-diameter` study refuse a larger topology
/// ([`crate::topology::TopologySpec::bfs_steps`]).
pub const MAX_BFS_STEPS: u64 = 1 << 33;

/// A run past a stated limit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field} is too large: the run needs {estimate} {unit}, the limit is {limit}")]
pub struct TooLarge {
    /// The input field that sets the size.
    pub field: &'static str,
    /// The limit.
    pub limit: u64,
    /// The run's estimate.
    pub estimate: u64,
    /// What is counted, e.g. `bytes (estimated)`.
    pub unit: &'static str,
}

impl Classify for TooLarge {
    fn fault(&self) -> Fault {
        Fault::Input
    }
}

/// `Ok` when `estimate <= limit`, else [`TooLarge`] naming `field`.
pub fn check(
    field: &'static str,
    estimate: u64,
    limit: u64,
    unit: &'static str,
) -> Result<(), TooLarge> {
    if estimate <= limit { Ok(()) } else { Err(TooLarge { field, limit, estimate, unit }) }
}

/// A large allocation the system refused: the run stops with this error (exit status 1)
/// instead of aborting, naming what the memory was for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "out of memory: {what} needs {bytes} bytes, which the system refused (lower the size, or \
     run where more memory is free)"
)]
pub struct OutOfMemory {
    /// What the allocation holds, e.g. `the edge list`.
    pub what: &'static str,
    /// The bytes asked for.
    pub bytes: u64,
}

impl Classify for OutOfMemory {
    fn fault(&self) -> Fault {
        Fault::Run
    }
}

/// An empty vector with room for exactly `len` elements, or [`OutOfMemory`] naming `what`
/// when the allocator refuses (`Vec::try_reserve_exact`); the large buffers of a run are
/// allocated through it, so that a refused allocation is an error, not an abort.
pub fn vec_with_capacity<T>(what: &'static str, len: usize) -> Result<Vec<T>, OutOfMemory> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| OutOfMemory {
        what,
        bytes: (len as u64).saturating_mul(size_of::<T>() as u64),
    })?;
    Ok(v)
}

/// Appends `item` to `v`, growing it as `Vec::push` does but through `Vec::try_reserve`: a
/// refused growth is [`OutOfMemory`] naming `what` (for vectors that grow with the input).
pub fn push<T>(what: &'static str, v: &mut Vec<T>, item: T) -> Result<(), OutOfMemory> {
    if v.len() == v.capacity() {
        v.try_reserve(1).map_err(|_| OutOfMemory {
            what,
            bytes: (v.len() as u64).saturating_mul(2 * size_of::<T>() as u64),
        })?;
    }
    v.push(item);
    Ok(())
}

/// `len` copies of `value` (see [`vec_with_capacity`]).
pub fn vec_filled<T: Clone>(
    what: &'static str,
    len: usize,
    value: T,
) -> Result<Vec<T>, OutOfMemory> {
    let mut v = vec_with_capacity(what, len)?;
    v.resize(len, value);
    Ok(v)
}

/// The items of `items`, collected into a vector allocated for exactly `len` of them (see
/// [`vec_with_capacity`]); `len` must be the iterator's length, or the vector grows (or keeps
/// unused room) like any other.
pub fn collect_exact<T>(
    what: &'static str,
    len: usize,
    items: impl IntoIterator<Item = T>,
) -> Result<Vec<T>, OutOfMemory> {
    let mut v = vec_with_capacity(what, len)?;
    v.extend(items);
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The limit itself passes, one more is refused with every figure named.
    #[test]
    fn refuses_past_the_limit() {
        assert_eq!(check("n", 10, 10, "nodes"), Ok(()));
        let e = check("n", 11, 10, "nodes").unwrap_err();
        assert_eq!(e.to_string(), "n is too large: the run needs 11 nodes, the limit is 10");
        assert_eq!(e.fault(), Fault::Input);
    }

    /// An allocation no system grants (`2^62` words) is an error naming what it was for, not
    /// an abort; a small one is exact.
    #[test]
    fn refused_allocations_are_errors() {
        let e = vec_with_capacity::<u64>("the edge list", 1 << 62).unwrap_err();
        assert_eq!(e, OutOfMemory { what: "the edge list", bytes: u64::MAX });
        assert_eq!(e.fault(), Fault::Run);
        assert_eq!(vec_filled("cells", 3, 7u8).unwrap(), vec![7, 7, 7]);
        assert_eq!(collect_exact("cells", 2, [1, 2]).unwrap().capacity(), 2);
        let mut grown = Vec::new();
        (0..5).try_for_each(|i| push("cells", &mut grown, i)).unwrap();
        assert_eq!(grown, [0, 1, 2, 3, 4]);
    }
}
