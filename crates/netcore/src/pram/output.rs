//! The check of a PRAM run's output that every PRAM driver and emulation shares: the first
//! cell of the output range where the final memory differs from the expected values.

/// The first output cell where a final memory differs from the expected output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Difference {
    /// The cell.
    pub cell: usize,
    /// What the memory holds there (`None`: outside it).
    pub got: Option<i64>,
    /// What the output expects.
    pub expected: i64,
}

/// The first cell of the output `range` where `memory` differs from `expected` (the values
/// of `range` in order), if any: the one check of an output that every PRAM driver shares.
pub fn first_differing_cell(
    range: std::ops::Range<usize>,
    expected: &[i64],
    memory: &[i64],
) -> Option<Difference> {
    range.zip(expected).find_map(|(cell, &expected)| {
        let got = memory.get(cell).copied();
        (got != Some(expected)).then_some(Difference { cell, got, expected })
    })
}
