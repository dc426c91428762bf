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

/// Runs the naive simulation of a `N`-column, `T`-step guest on `host` and verifies it.
pub fn simulate<P: GuestProgram + ?Sized>(
    host: &Host,
    prog: &P,
    n_cols: usize,
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
