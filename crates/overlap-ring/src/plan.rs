//! A database plan (`docs/models/overlap-ring.md`, Choices: plans): which guest columns each
//! host processor holds, and the phase
//! length of its strict compute order. Every scheme of the paper (naive, OVERLAP, blocked
//! OVERLAP, trapezoid, composite, 2-D, two-copy segments) is a plan run by the one engine
//! ([`crate::engine`]).

use netcore::limits::{collect_exact, vec_filled, vec_with_capacity};
use serde::Serialize;

use crate::error::{Error, Result};

/// A validated plan for `n` host processors and `N` guest columns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Plan {
    /// `held[p] = Some((lo, hi))`: `p` holds databases `b_lo..=b_hi` (core plus halo, 1-based,
    /// inclusive); `None`: `p` holds nothing and only relays.
    pub(crate) held: Vec<Option<(usize, usize)>>,
    /// Phase length `l >= 1` of the compute order (trapezoid first, then the rest;
    /// `docs/models/overlap-ring.md`, Choices: plans).
    pub(crate) phase: u64,
    /// Guest (super-)columns `N`.
    pub(crate) n_cols: usize,
}

impl Plan {
    /// Checks the plan: `phase >= 1`, `N >= 1`, every range inside `[1, N]`, every column held.
    pub fn new(held: Vec<Option<(usize, usize)>>, phase: u64, n_cols: usize) -> Result<Self> {
        if phase == 0 {
            return Err(Error::ZeroPhase);
        }
        if n_cols == 0 {
            return Err(Error::EmptyGuest);
        }
        if held.is_empty() {
            return Err(Error::EmptyHost);
        }
        for (p, range) in held.iter().enumerate() {
            let Some((lo, hi)) = *range else { continue };
            if lo == 0 || hi < lo || hi > n_cols {
                return Err(Error::PlanMismatch(format!(
                    "processor {p} holds [{lo},{hi}], ranges must satisfy 1 <= lo <= hi <= N = {n_cols}"
                )));
            }
        }
        let plan = Self { held, phase, n_cols };
        if let Some(col) = plan.coverage()?.iter().position(|&k| k == 0) {
            return Err(Error::UncoveredColumn { col: col + 1 });
        }
        Ok(plan)
    }

    /// `held()[p] = Some((lo, hi))`: `p` holds databases `b_lo..=b_hi` (1-based, inclusive);
    /// `None`: `p` only relays.
    pub fn held(&self) -> &[Option<(usize, usize)>] {
        &self.held
    }

    /// Phase length `l >= 1` of the compute order.
    pub fn phase(&self) -> u64 {
        self.phase
    }

    /// Guest (super-)columns `N`.
    pub fn n_cols(&self) -> usize {
        self.n_cols
    }

    /// Host processors `n`.
    pub fn n(&self) -> usize {
        self.held.len()
    }

    /// Max columns held by one processor.
    pub fn max_held(&self) -> usize {
        self.held.iter().map(|r| r.map_or(0, |(lo, hi)| hi + 1 - lo)).max().unwrap_or(0)
    }

    /// Sum over processors of the columns they hold.
    pub fn held_total(&self) -> usize {
        self.held.iter().map(|r| r.map_or(0, |(lo, hi)| hi + 1 - lo)).sum()
    }

    /// `holders[i]` = processors holding column `i` in increasing order (`i` in `0..=N+1`,
    /// boundary entries empty); each list is allocated for its coverage (`Plan::coverage`),
    /// fallibly ([`Error::OutOfMemory`] when the system refuses the `n` copies).
    pub fn holders(&self) -> Result<Vec<Vec<usize>>> {
        let what = "the column holders";
        let mut holders = vec_with_capacity(what, self.n_cols + 2)?;
        holders.push(Vec::new());
        for k in self.coverage()? {
            holders.push(vec_with_capacity(what, k)?);
        }
        holders.push(Vec::new());
        for (p, range) in self.held.iter().enumerate() {
            if let Some((lo, hi)) = *range {
                holders[lo..=hi].iter_mut().for_each(|h| h.push(p));
            }
        }
        Ok(holders)
    }

    /// `coverage()[i-1]` = number of holders of column `i` (a difference array: no per-column
    /// lists; [`Error::OutOfMemory`] when the system refuses it).
    fn coverage(&self) -> Result<Vec<usize>> {
        let mut delta = vec_filled("the column coverage", self.n_cols + 1, 0i64)?;
        for &(lo, hi) in self.held.iter().flatten() {
            delta[lo - 1] += 1;
            delta[hi] -= 1;
        }
        let mut running = 0i64;
        Ok(collect_exact(
            "the column coverage",
            self.n_cols,
            delta[..self.n_cols].iter().map(|d| {
                running += d;
                running as usize
            }),
        )?)
    }

    /// Max and mean number of holders per column ([`Error::OutOfMemory`] when the system
    /// refuses the coverage array).
    pub fn copies(&self) -> Result<(usize, f64)> {
        let max = self.coverage()?.into_iter().max().unwrap_or(0);
        Ok((max, self.held_total() as f64 / self.n_cols as f64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_checks() {
        assert_eq!(Plan::new(vec![Some((1, 2))], 0, 2), Err(Error::ZeroPhase));
        assert_eq!(
            Plan::new(vec![Some((1, 1)), None], 1, 2),
            Err(Error::UncoveredColumn { col: 2 })
        );
        assert!(matches!(Plan::new(vec![Some((1, 3))], 1, 2), Err(Error::PlanMismatch(_))));
        let plan = Plan::new(vec![Some((1, 2)), Some((2, 3)), None], 1, 3).unwrap();
        assert_eq!(
            (plan.max_held(), plan.held_total(), plan.copies().unwrap()),
            (2, 4, (2, 4.0 / 3.0))
        );
    }
}
