//! The naive one-copy simulation (the slow-down-to-the-worst-link baseline of paper Section 1;
//! `docs/models/overlap-ring.md`, Choices: naive baseline): `N` guest columns cut into `n`
//! contiguous blocks of sizes `floor(N/n)` or `ceil(N/n)`, one database copy each. Every guest
//! row must cross every link, so the slowdown is about `d_max` (plus `N/n` work per row).

use crate::engine::{HostRun, run};
use crate::error::{Error, Result};
use crate::guest::GuestProgram;
use crate::host::Host;
use crate::plan::Plan;

/// The one-copy plan: processor `p` holds a contiguous block, larger blocks first.
pub fn plan(n: usize, n_cols: usize) -> Result<Plan> {
    if n == 0 {
        return Err(Error::EmptyHost);
    }
    if n_cols == 0 {
        return Err(Error::EmptyGuest);
    }
    if n_cols < n {
        return Err(Error::GuestTooSmall { n_cols, min: n });
    }
    let (q, r) = (n_cols / n, n_cols % n);
    let mut lo = 1;
    let held = (0..n)
        .map(|p| {
            let size = q + usize::from(p < r);
            let range = (lo, lo + size - 1);
            lo += size;
            Some(range)
        })
        .collect();
    Plan::new(held, 1, n_cols)
}

/// One copy in blocks of `b` columns (`N = blocks b`): processor `p < blocks` holds columns
/// `p b + 1 ..= (p + 1) b`, the others only relay. Load `b` and no redundancy: the one-copy
/// counterpart of blocked OVERLAP's plan (paper Section 3.3) on the same host and guest.
/// The caller has checked that `n b` columns fit (`driver::studies::check_size`).
pub(crate) fn blocks(n: usize, blocks: usize, b: usize) -> Result<Plan> {
    let held = (0..n).map(|p| (p < blocks).then(|| (p * b + 1, (p + 1) * b))).collect();
    Plan::new(held, 1, blocks * b)
}

/// Runs the naive simulation of a `N`-column, `T`-step guest on `host` and verifies it: the
/// baseline that pays `d_max` per guest step (paper Section 1). Arguments in the order of every
/// entry point: the host, the scheme's parameters (here `N`), the program, the steps.
///
/// # Examples
///
/// ```
/// use overlap_ring::{Host, guest::Program, naive};
///
/// // One slow link (delay 9) among unit links: every guest row crosses it.
/// let host = Host::new(4, vec![1, 9, 1], 1)?;
/// let run = naive::simulate(&host, 8, &Program::Mix, 20)?;
/// assert!(run.verified);
/// // Row 1 reads only preset pebbles; each later row waits for one crossing of the slow link.
/// assert_eq!(run.host_steps, 19 * 9 + 3);
/// # Ok::<(), overlap_ring::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::EmptyGuest`] for `n_cols = 0`, [`Error::GuestTooSmall`] for fewer columns than
/// processors, [`Error::ZeroGuestSteps`] for `steps = 0`, [`Error::GuestPanic`] if `prog`
/// panics, and the limits of [`crate::engine::run`].
pub fn simulate<P: GuestProgram + ?Sized>(
    host: &Host,
    n_cols: usize,
    prog: &P,
    steps: u64,
) -> Result<HostRun> {
    run(host, &plan(host.n(), n_cols)?, prog, steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_balances_blocks() {
        let p = plan(3, 8).unwrap();
        assert_eq!(p.held, vec![Some((1, 3)), Some((4, 6)), Some((7, 8))]);
        assert_eq!(plan(3, 2), Err(Error::GuestTooSmall { n_cols: 2, min: 3 }));
    }
}
