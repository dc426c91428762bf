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
}
