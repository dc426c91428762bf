//! The reference interpreter replaying a given serialization of the fetch-and-ops (Choice 13
//! of `docs/models/pram.md`): a CRCW fetch-and-op step is correct under any order of its
//! requests for one cell (Ranade's combining produces one that is not the pid order), and
//! [`run_serialized`](crate::pram::run_serialized) runs the program with every fetch-and-op step's cells served in the
//! order an emulation reports, so that the emulation's registers and memory can be compared
//! with the reference under that order.

use crate::pram::error::PramError;
use crate::pram::isa::FetchOp;
use crate::pram::memory::Access;

/// One fetch-and-op step's serialization: for each cell it served, the pids of the PPUs whose
/// fetch-and-ops were applied to it, in the order they were applied.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StepOrder {
    /// The global step, 1-based, counted as the interpreter counts `G` (`cread` and `cwrite`
    /// included).
    pub g_step: u64,
    /// Per cell, sorted by address: (address, pids in serialization order).
    pub cells: Vec<(u64, Vec<u32>)>,
}

/// The serialization of every fetch-and-op step of a run, in step order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Serialization {
    /// The fetch-and-op steps, sorted by `g_step`.
    pub steps: Vec<StepOrder>,
}

impl Serialization {
    /// The order of cell `addr` at global step `g_step`, if given.
    pub fn order(&self, g_step: u64, addr: u64) -> Option<&[u32]> {
        let step = self.steps.binary_search_by_key(&g_step, |s| s.g_step).ok()?;
        let cells = &self.steps[step].cells;
        let cell = cells.binary_search_by_key(&addr, |c| c.0).ok()?;
        Some(&cells[cell].1)
    }

    /// Whether every cell's order is the pid order (the reference's serialization).
    pub fn is_pid_order(&self) -> bool {
        self.steps
            .iter()
            .flat_map(|s| &s.cells)
            .all(|(_, pids)| pids.windows(2).all(|w| w[0] < w[1]))
    }
}

fn bad_order(g_step: u64, addr: u64) -> PramError {
    PramError::InvalidConfig {
        field: "serialization",
        rule: "every fetch-and-op step's cell ordered as a permutation of its pids",
        got: format!("step {g_step}, cell {addr}"),
    }
}

/// Recomputes one fetch-and-op step's prefixes in the order `serialization` gives: `raw` the
/// step's requests sorted by pid, `resolved` one per cell (its value becomes the fold),
/// `rix[k]` the index in `resolved` of `raw[k]`'s cell, and `prefix[k]` the fold of the
/// contributions before `raw[k]` in the cell's order.
pub(crate) fn reorder(
    op: FetchOp,
    g_step: u64,
    serialization: &Serialization,
    raw: &[Access],
    resolved: &mut [Access],
    rix: &[u32],
    prefix: &mut [i64],
) -> Result<(), PramError> {
    let mut count = vec![0usize; resolved.len()];
    rix.iter().for_each(|&i| count[i as usize] += 1);
    let mut seen = vec![false; raw.len()];
    for (i, cell) in resolved.iter_mut().enumerate() {
        let addr = cell.addr;
        let order = serialization.order(g_step, addr).ok_or_else(|| bad_order(g_step, addr))?;
        if order.len() != count[i] {
            return Err(bad_order(g_step, addr));
        }
        let mut acc = op.identity();
        for &pid in order {
            let k = raw
                .binary_search_by_key(&pid, |a| a.pid)
                .ok()
                .filter(|&k| rix[k] as usize == i && !seen[k])
                .ok_or_else(|| bad_order(g_step, addr))?;
            seen[k] = true;
            prefix[k] = acc;
            acc = op.apply(acc, raw[k].value);
        }
        cell.value = acc;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::pram::library::Algorithm;
    use crate::pram::{Limits, PramError, Serialization, StepOrder, run, run_serialized};

    fn order(pids: Vec<u32>) -> Serialization {
        Serialization { steps: vec![StepOrder { g_step: 2, cells: vec![(0, pids)] }] }
    }

    /// The pid order replays the reference; a missing step, a missing or repeated pid, or a
    /// pid of another cell is refused, naming the step and cell.
    #[test]
    fn pid_order_is_the_reference_and_bad_orders_are_refused() {
        let counter = Algorithm::FetchAddCounter.instance(4, 0).unwrap();
        let (program, input, limits) = (&counter.program, &counter.input, Limits::default());
        let replay = run_serialized(program, input, &limits, &order(vec![0, 1, 2, 3])).unwrap();
        assert_eq!(replay, run(program, input, &limits).unwrap());
        assert!(order(vec![0, 1, 2, 3]).is_pid_order() && !order(vec![1, 0]).is_pid_order());
        for bad in [vec![0, 1, 2], vec![0, 1, 2, 2], vec![0, 1, 2, 7], vec![]] {
            let e = run_serialized(program, input, &limits, &order(bad.clone())).unwrap_err();
            let PramError::InvalidConfig { field, got, .. } = e else { panic!("{bad:?}: {e}") };
            assert_eq!((field, got.as_str()), ("serialization", "step 2, cell 0"));
        }
        let none = Serialization::default();
        let e = run_serialized(program, input, &limits, &none).unwrap_err();
        let PramError::InvalidConfig { field, got, .. } = e else { panic!("no steps: {e}") };
        assert_eq!((field, got.as_str()), ("serialization", "step 2, cell 0"));
    }
}
