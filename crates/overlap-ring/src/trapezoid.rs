//! Halo plans: the uniform-delay trapezoid scheme (paper Section 3.4, Theorem 4, Figure 4) and
//! its composition with OVERLAP (Theorem 5; `docs/models/overlap-ring.md`, Choices: composite).
//!
//! A halo plan gives every working processor a *core* of consecutive columns and makes it hold
//! `halo` more columns on each side, computing phases of `l` rows in the strict order of
//! [`crate::engine`] (trapezoid first, then the two triangles). Redundant work on the halo buys
//! `l` rows per exchange: a processor needs its neighbours' boundary columns only once per
//! phase, so a delay `d` is paid once per `r = floor(sqrt d)` rows.

use crate::error::{Error, Result};
use crate::host::Host;
use crate::overlap::{C, Labelling, label_tree};
use crate::plan::Plan;

/// `r = floor(sqrt(d))`, at least 1 (paper Theorem 4's `sqrt d`; `ceil` breaks the `5d` bound,
/// `docs/models/overlap-ring.md`, Choices).
pub fn r_of(d: u64) -> u64 {
    let mut r = (d as f64).sqrt() as u64;
    while r * r > d {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= d {
        r += 1;
    }
    r.max(1)
}

/// A plan from cores: processor `p` holds `cores[p]` widened by `halo` on each side (clipped to
/// `[1, N]`), phase `phase`.
///
/// # Errors
///
/// Those of [`Plan::new`], and [`Error::OutOfMemory`] if the system refuses the held ranges.
pub fn halo_plan(
    cores: &[Option<(usize, usize)>],
    halo: usize,
    phase: u64,
    n_cols: usize,
) -> Result<Plan> {
    let held = netcore::limits::collect_exact(
        "the held ranges",
        cores.len(),
        cores
            .iter()
            .map(|c| c.map(|(lo, hi)| (lo.saturating_sub(halo).max(1), (hi + halo).min(n_cols)))),
    )?;
    Plan::new(held, phase, n_cols)
}

/// Theorem 4's plan for `n` processors and uniform delay `d`: `r = floor(sqrt d)`, `N = n r`,
/// `p_j` has core `[(j-1)r+1, jr]` and holds `P_j = [(j-2)r+1, (j+1)r]` (its neighbours' cores
/// too), phases of `r` rows. Load `<= 3r`, copies `<= 3`.
pub fn plan(n: usize, d: u64) -> Result<Plan> {
    if n == 0 {
        return Err(Error::EmptyHost);
    }
    if d == 0 {
        return Err(Error::ZeroDelay { link: 0 });
    }
    let r = r_of(d) as usize;
    let cores: Vec<_> = (0..n).map(|p| Some((p * r + 1, (p + 1) * r))).collect();
    halo_plan(&cores, r, r as u64, n * r)
}

/// The composite plan of Theorem 5 (paper Section 3.4; `docs/models/overlap-ring.md`, Choices:
/// composite): OVERLAP's assignment on `host` spreads an
/// intermediate uniform-delay array `H_0` of `n' b` virtual processors (blocks of `b` per
/// virtual column), and each virtual processor runs Theorem 4's scheme with
/// `r = floor(sqrt(floor(d_ave)))`: a live processor whose virtual block is `[a, a']` has core
/// `[(a-1)r+1, a'r]`, halo `r`, phases of `r` rows; `N = n' b r`. Returns the plan, the
/// labelling and `r`.
pub fn composite(host: &Host, c: C, block: usize) -> Result<(Plan, Labelling, u64)> {
    if block == 0 {
        return Err(Error::Field("block must be >= 1 (got block=0)".into()));
    }
    let lab = label_tree(host.delays(), c)?;
    if lab.n_prime < 1 {
        return Err(Error::EmptyGuest);
    }
    let r = composite_r(host) as usize;
    let cores: Vec<_> = lab
        .assignment
        .iter()
        .map(|a| a.map(|v| ((v as usize - 1) * block * r + 1, v as usize * block * r)))
        .collect();
    let n_cols = lab.n_prime as usize * block * r;
    Ok((halo_plan(&cores, r, r as u64, n_cols)?, lab, r as u64))
}

/// The composite scheme's `r = floor(sqrt(floor(d_ave)))` (at least 1) on `host`.
pub fn composite_r(host: &Host) -> u64 {
    r_of(host.d_ave().floor().max(1.0) as u64)
}

/// Runs the composite scheme of Theorem 5 (`b = 1`: OVERLAP's assignment, each virtual
/// processor running Theorem 4's trapezoid scheme with `r = floor(sqrt(floor(d_ave)))`) for `T`
/// steps of a guest with `N = n' r` columns, and verifies it against the direct run. Returns
/// the run and the labelling (`r` is the run's plan phase, `N / n'`). Arguments in the order of
/// every entry point: the host, the scheme's parameters (here `c`), the program, the steps.
///
/// # Examples
///
/// ```
/// use overlap_ring::{Host, guest::Program, overlap::C, trapezoid};
///
/// // Uniform delay 16 on 64 processors: r = 4 rows per exchange instead of one.
/// let host = Host::new(64, vec![16; 63], 6)?;
/// let (run, labelling) = trapezoid::simulate(&host, C::new(3, 1)?, &Program::Mix, 40)?;
/// assert!(run.verified);
/// assert_eq!(run.load, 3 * 4); // a core of r = 4 columns and a halo of r on each side
/// // 12.55 host steps per guest step; naive pays 15.6.
/// assert!(run.slowdown < 13.0 && labelling.n_prime <= 64);
/// # Ok::<(), overlap_ring::Error>(())
/// ```
///
/// # Errors
///
/// Those of [`composite`] ([`Error::HostTooSmall`] for `n < c L`, [`Error::EmptyGuest`] when
/// every processor is killed), [`Error::ZeroGuestSteps`] for `steps = 0`,
/// [`Error::GuestPanic`] if `prog` panics, and the limits of [`crate::engine::run`].
pub fn simulate<P: crate::guest::GuestProgram + ?Sized>(
    host: &Host,
    c: C,
    prog: &P,
    steps: u64,
) -> Result<(crate::engine::HostRun, Labelling)> {
    let (plan, lab, _) = composite(host, c, 1)?;
    Ok((crate::engine::run(host, &plan, prog, steps)?, lab))
}

/// Figure 4 as text: the first phase of an interior processor `p_j` of Theorem 4's plan with
/// `r` (`d = r^2`), drawn from the engine's own compute order. Rows `r` (top) down to 1;
/// columns `A` (received from `p_(j-1)`), the held `P_j`, `D` (received from `p_(j+1)`).
/// `T` = computed in the trapezoid, `L` / `R` = computed afterwards in the left / right
/// triangle. The last line counts `|P_j|`, `|T|`, `|L|`, `|R|` pebbles of the phase.
pub fn figure4(r: usize) -> String {
    let (lo, hi, n_cols) = (r + 1, 4 * r, 5 * r);
    let mut order = crate::engine::order::Order::new(lo, hi, n_cols, r as u64, r as u64);
    let width = hi - lo + 1;
    let mut grid = vec![vec![' '; width]; r];
    let (mut tz, mut left, mut right) = (0, 0, 0);
    while let Some((c, t)) = order.peek() {
        let mark = if order.in_trapezoid() {
            tz += 1;
            'T'
        } else if c < lo + width / 2 {
            left += 1;
            'L'
        } else {
            right += 1;
            'R'
        };
        grid[t as usize - 1][c - lo] = mark;
        order.advance();
    }
    let mut out = String::new();
    for (t, row) in grid.iter().enumerate().rev() {
        out.push_str(&format!("row {:>2}  A {} D\n", t + 1, row.iter().collect::<String>()));
    }
    out.push_str(&format!("|P_j| = {}, |T| = {tz}, |L| = {left}, |R| = {right}\n", width * r));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r_is_floor_sqrt() {
        assert_eq!([1, 3, 4, 8, 9, 16, 120, 121].map(r_of), [1, 1, 2, 2, 3, 4, 10, 11]);
    }

    /// `n = 3`, `d = 4`: `r = 2`, `N = 6`: `P_1 = [1,4]`, `P_2 = [1,6]`, `P_3 = [3,6]`.
    #[test]
    fn trapezoid_plan_small() {
        let p = plan(3, 4).unwrap();
        assert_eq!(
            (p.held.clone(), p.phase, p.n_cols),
            (vec![Some((1, 4)), Some((1, 6)), Some((3, 6))], 2, 6)
        );
        assert_eq!(plan(0, 4), Err(Error::EmptyHost));
    }
}
