//! An adversary's answer (a delivery time, a stall signal, an unstall step) checked against
//! the window the model allows it (paper §2 and §2.1).

use netcore::Step;

use crate::error::Error;

/// Range-checks an adversary's answer `value` for `proc` at `step` against `[lo, hi]`.
pub(super) fn check_range(
    what: &'static str,
    proc: u32,
    step: Step,
    value: Step,
    lo: Step,
    hi: Step,
) -> Result<(), Error> {
    if value < lo || value > hi {
        return Err(Error::AdversaryOutOfWindow { what, proc, step, value, lo, hi });
    }
    Ok(())
}
