//! Lower bounds valid for every execution of an assignment (`docs/models/overlap-ring.md`,
//! Choices: relaxed lower bound), the reference lines of
//! the Section 6 experiments: the relaxed bound (infinite compute rate and bandwidth, only the
//! delays and the copies' placement count) and the work bound.

use netcore::limits::{vec_filled, vec_with_capacity};

use crate::error::{Error, Result};
use crate::host::Host;
use crate::plan::Plan;

/// `relaxed_lb(assignment, T)` (the delay argument of paper Section 6, Theorem 9): with
/// `U_p(j,t)` the earliest step `p` can use
/// `(j,t)` (`R_p(j,t) + 1` if `p` holds `j`, else the best `R_q(j,t) + dist(q,p)` over the
/// holders `q`; `1` for row 0 and the boundary columns) and `R_p(i,t) = max(R_p(i,t-1) + 1,
/// U_p(i-1,t-1), U_p(i+1,t-1))`, `R_p(i,0) = 0`, the bound is the largest `R_p(i,T)` over all
/// copies. Any execution of the plan, on any schedule, takes at least this many steps (for
/// unit-weight pebbles).
pub fn relaxed_lb(host: &Host, plan: &Plan, steps: u64) -> Result<u64> {
    if steps == 0 {
        return Err(Error::ZeroGuestSteps);
    }
    if plan.n() != host.n() {
        return Err(Error::PlanMismatch(format!(
            "plan has {} processors, the host has {}",
            plan.n(),
            host.n()
        )));
    }
    let mut prefix = vec_filled("the delay prefix sums", host.n(), 0u64)?;
    for (i, &d) in host.delays().iter().enumerate() {
        prefix[i + 1] = prefix[i] + u64::from(d);
    }
    relaxed_core(&plan.holders()?, |p, q| prefix[p].abs_diff(prefix[q]), steps)
}

/// The recursion of [`relaxed_lb`] on any holder lists: `holders[i]` for `i` in `0..=N+1`
/// (the boundary entries, and any column without holders, are free: usable at step 1), `dist`
/// the delay between two distinct holders (a holder reusing its own copy pays 1). Returns the
/// largest `R_p(i, T)`, 0 if nothing is held. Used with processors as holders ([`relaxed_lb`])
/// and with segments ([`crate::assign_search`]); [`Error::OutOfMemory`] when the system
/// refuses the per-copy arrays.
pub(crate) fn relaxed_core(
    holders: &[Vec<usize>],
    dist: impl Fn(usize, usize) -> u64,
    steps: u64,
) -> Result<u64> {
    // Flat storage: the copies of column i are r[start[i]..start[i + 1]].
    let mut start = vec_with_capacity("the copies' ready steps", holders.len() + 1)?;
    start.push(0);
    for h in holders {
        start.push(start.last().copied().unwrap_or(0) + h.len());
    }
    let total = start.last().copied().unwrap_or(0);
    let mut r = vec_filled("the copies' ready steps", total, 0u64)?;
    let mut next = vec_filled("the copies' ready steps", total, 0u64)?;
    // Earliest step p can use (j, t-1) given the previous row's R.
    let usable = |r: &[u64], j: usize, p: usize| -> u64 {
        holders[j]
            .iter()
            .zip(&r[start[j]..start[j + 1]])
            .map(|(&q, &rq)| if q == p { rq + 1 } else { rq + dist(q, p) })
            .min()
            .unwrap_or(1)
    };
    let inner = 1..holders.len().saturating_sub(1);
    for t in 1..=steps {
        for i in inner.clone() {
            for (k, &p) in holders[i].iter().enumerate() {
                let (left, right) =
                    if t == 1 { (1, 1) } else { (usable(&r, i - 1, p), usable(&r, i + 1, p)) };
                next[start[i] + k] = (r[start[i] + k] + 1).max(left).max(right);
            }
        }
        std::mem::swap(&mut r, &mut next);
    }
    Ok(r.into_iter().max().unwrap_or(0))
}

/// The work bound: the busiest processor computes `|H_p| T` pebbles, one per step.
pub fn work_lb(plan: &Plan, steps: u64) -> u64 {
    plan.max_held() as u64 * steps
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Uniform delay 3, one column per processor: row `t` is usable across a link `3` steps
    /// after it is computed, so `R(t) = 1 + 3 (t - 1)`, the naive run's exact time.
    #[test]
    fn relaxed_lb_uniform() {
        let host = Host::new(4, vec![3; 3], 1).unwrap();
        let plan = crate::naive::plan(4, 4).unwrap();
        assert_eq!(relaxed_lb(&host, &plan, 5).unwrap(), 13);
        assert_eq!(work_lb(&plan, 5), 5);
    }
}
