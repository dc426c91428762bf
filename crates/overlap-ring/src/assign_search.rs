//! The exact minimum, over every assignment of the guest's databases to host processors, of a
//! lower bound on the slowdown (paper Section 6, Theorems 9 and 10;
//! `docs/models/overlap-ring.md`, Choices: exact assignment search).
//!
//! **The measure.** The exact slowdown of an assignment needs an optimal schedule, itself hard
//! to find, so the search minimises a bound computed exactly for every assignment: the
//! relaxed bound of [`crate::bounds::relaxed_lb`] (infinite compute rate and bandwidth, only
//! the delays and the copies' placement count) on the host's *segment quotient*: processors
//! joined by unit links form a segment, two copies in one segment are 1 step apart (the cost
//! of reusing one's own copy) and copies in segments `a != b` are `dist(a, b)` apart, the
//! smallest delay between a processor of `a` and one of `b`. Distances only shrink, so the
//! quotient bound is at most the processor-level `relaxed_lb` of every assignment mapped onto
//! it (the recursion is monotone in the delays), hence at most its executed host steps. With
//! [`Measure::DelayAndWork`] the bound is also at least the work bound of the busiest
//! processor, `ceil(columns in a segment / its processors) T`. The minimum over assignments is
//! therefore a lower bound on the slowdown of *every* assignment: what Theorems 9 and 10 claim.
//!
//! **The space.** An assignment gives each column `1..=N` a set of at most `copies` distinct
//! segments (two copies in one segment bound no lower than one); with a load cap `c`, segment
//! `S` holds at most `c |S|` columns, and every such quotient assignment is the image of an
//! assignment of processors with load at most `c`. So the search's minimum is exact over all
//! assignments with at most `copies` copies per database and load at most `c`.
//!
//! **The search.** Depth first over columns left to right, every candidate set of segments in
//! turn (the previous column's set first). A prefix is bounded by the measure of the prefix with
//! column `m + 1` free (the recursion is monotone, so this never exceeds the measure of any
//! completion) and pruned when the bound reaches the best complete assignment found so far.
//! Hosts whose quotient is a palindrome (`H_1`, `H_2`) are searched up to mirror image (the
//! first column's set is at most its mirror image). The search refuses to run past a node
//! budget ([`Error::SearchBudget`]); it never returns a value it has not proved.

use std::num::NonZeroUsize;

use serde::Serialize;

use crate::bounds::relaxed_core;
use crate::error::{Error, Result};
use crate::host::Host;
use crate::hosts::segments;
use crate::plan::Plan;

/// Most copies of one database.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Copies {
    /// One copy (Theorem 9).
    One,
    /// At most two copies (Theorem 10).
    Two,
}
netcore::display_config_name!(Copies);

/// What the search minimises (host steps for `T` guest steps).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Measure {
    /// The relaxed delay bound on the segment quotient alone (Theorem 10's argument: the
    /// load cap, not a work term, keeps the copies apart).
    Delay,
    /// The larger of the delay bound and the work bound (Theorem 9's argument: "a work
    /// argument" when few processors hold databases, any load).
    DelayAndWork,
}
netcore::display_config_name!(Measure);

/// A host's segments: maximal runs of processors joined by unit links.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quotient {
    /// Processors of each segment, left to right.
    sizes: Vec<usize>,
    /// `dist[a][b]`: the smallest delay between a processor of `a` and one of `b` (`a != b`).
    dist: Vec<Vec<u64>>,
    /// The segment of each processor.
    of: Vec<usize>,
}

impl Quotient {
    /// The segment quotient of `host`.
    pub fn of(host: &Host) -> Self {
        let runs = segments(host);
        let mut prefix = vec![0u64; host.n()];
        for (i, &d) in host.delays().iter().enumerate() {
            prefix[i + 1] = prefix[i] + u64::from(d);
        }
        let mut of = vec![0; host.n()];
        for (k, &(lo, hi)) in runs.iter().enumerate() {
            of[lo..=hi].iter_mut().for_each(|s| *s = k);
        }
        let dist = runs
            .iter()
            .map(|&(alo, ahi)| {
                runs.iter()
                    .map(|&(blo, bhi)| {
                        if blo > ahi {
                            prefix[blo] - prefix[ahi]
                        } else if alo > bhi {
                            prefix[alo] - prefix[bhi]
                        } else {
                            0 // the segment itself: reuse costs 1 (`relaxed_core`)
                        }
                    })
                    .collect()
            })
            .collect();
        Self { sizes: runs.iter().map(|&(lo, hi)| hi + 1 - lo).collect(), dist, of }
    }

    /// Processors of each segment, left to right.
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// Whether the quotient reads the same mirrored (sizes and distances).
    fn palindrome(&self) -> bool {
        let g = self.sizes.len();
        (0..g).all(|a| {
            self.sizes[a] == self.sizes[g - 1 - a]
                && (0..g).all(|b| self.dist[a][b] == self.dist[g - 1 - a][g - 1 - b])
        })
    }

    /// The segment sets of a processor plan, one per column `1..=N` (sorted, deduplicated;
    /// [`Error::OutOfMemory`] when the system refuses the plan's holder lists).
    pub fn sets_of(&self, plan: &Plan) -> Result<Vec<Vec<usize>>> {
        let mut sets: Vec<Vec<usize>> = plan.holders()?[1..=plan.n_cols()]
            .iter()
            .map(|h| h.iter().map(|&p| self.of[p]).collect())
            .collect();
        for set in &mut sets {
            set.sort_unstable();
            set.dedup();
        }
        Ok(sets)
    }
}

/// What to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spec {
    /// Guest columns `N`.
    pub cols: usize,
    /// Most copies of one database.
    pub copies: Copies,
    /// The load cap `c` (columns per processor), `None`: any load.
    pub load: Option<NonZeroUsize>,
    /// What is minimised.
    pub measure: Measure,
    /// Guest steps `T`.
    pub steps: u64,
    /// Search nodes (prefixes bounded) before the search refuses.
    pub budget: u64,
}

/// The search's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The minimum of the measure (host steps for `T` guest steps).
    pub minimum: u64,
    /// An assignment attaining it: the segments of each column `1..=N`.
    pub best: Vec<Vec<usize>>,
    /// Prefixes bounded.
    pub nodes: u64,
}

/// The measure of a complete (or, with the right boundary free, partial) assignment given as
/// segment sets per column `1..=m` ([`Error::OutOfMemory`] from `relaxed_core`).
pub fn measure(q: &Quotient, spec: &Spec, sets: &[Vec<usize>]) -> Result<u64> {
    let mut holders = Vec::with_capacity(sets.len() + 2);
    holders.push(Vec::new());
    holders.extend(sets.iter().cloned());
    holders.push(Vec::new());
    let delay = relaxed_core(&holders, |a, b| q.dist[a][b], spec.steps)?;
    Ok(match spec.measure {
        Measure::Delay => delay,
        Measure::DelayAndWork => delay.max(work(q, sets) * spec.steps),
    })
}

/// `max_S ceil(columns with a copy in S / |S|)`: the busiest processor's load at best.
fn work(q: &Quotient, sets: &[Vec<usize>]) -> u64 {
    let mut count = vec![0usize; q.sizes.len()];
    sets.iter().flatten().for_each(|&s| count[s] += 1);
    count.iter().zip(&q.sizes).map(|(&c, &z)| c.div_ceil(z) as u64).max().unwrap_or(0)
}

/// Checks that `sets` is an assignment of `spec`: `N` columns, each with one to `copies`
/// distinct segments of `q`, within the load cap.
pub fn check(q: &Quotient, spec: &Spec, sets: &[Vec<usize>]) -> Result<()> {
    let most = match spec.copies {
        Copies::One => 1,
        Copies::Two => 2,
    };
    let mut count = vec![0usize; q.sizes.len()];
    for (i, set) in sets.iter().enumerate() {
        let distinct = set.windows(2).all(|w| w[0] < w[1]);
        if set.is_empty() || set.len() > most || !distinct || set.iter().any(|&s| s >= count.len())
        {
            return Err(Error::BadAssignment(format!(
                "column {} has segments {set:?}: 1 to {most} distinct increasing segments < {}",
                i + 1,
                count.len()
            )));
        }
        set.iter().for_each(|&s| count[s] += 1);
    }
    if sets.len() != spec.cols {
        return Err(Error::BadAssignment(format!(
            "{} columns, the spec has {}",
            sets.len(),
            spec.cols
        )));
    }
    if let Some(c) = spec.load
        && let Some(s) = (0..count.len()).find(|&s| count[s] > c.get() * q.sizes[s])
    {
        return Err(Error::BadAssignment(format!(
            "segment {s} holds {} columns, the load cap allows c |S| = {}",
            count[s],
            c.get() * q.sizes[s]
        )));
    }
    Ok(())
}

/// The exact minimum of [`measure`] over every assignment of `spec` on `q`. `incumbent`: a
/// known assignment (checked), whose measure starts the pruning.
pub fn search(q: &Quotient, spec: &Spec, incumbent: Option<&[Vec<usize>]>) -> Result<Outcome> {
    if spec.steps == 0 {
        return Err(Error::ZeroGuestSteps);
    }
    if spec.cols == 0 {
        return Err(Error::EmptyGuest);
    }
    let g = q.sizes.len();
    let mut candidates: Vec<Vec<usize>> = (0..g).map(|a| vec![a]).collect();
    if spec.copies == Copies::Two {
        candidates.extend((0..g).flat_map(|a| (a + 1..g).map(move |b| vec![a, b])));
    }
    let mut best = Outcome { minimum: u64::MAX, best: Vec::new(), nodes: 0 };
    if let Some(known) = incumbent {
        check(q, spec, known)?;
        best.minimum = measure(q, spec, known)?;
        best.best = known.to_vec();
    }
    let capacity: Vec<usize> = match spec.load {
        Some(c) => q.sizes.iter().map(|&z| z * c.get()).collect(),
        None => vec![usize::MAX; g],
    };
    let mut dfs = Dfs {
        q,
        spec,
        candidates,
        capacity,
        mirror: q.palindrome(),
        count: vec![0; g],
        sets: Vec::with_capacity(spec.cols),
        best,
    };
    dfs.extend()?;
    if dfs.best.best.is_empty() {
        return Err(Error::BadAssignment(format!(
            "no assignment of {} columns fits the load cap on segments {:?}",
            spec.cols, q.sizes
        )));
    }
    Ok(dfs.best)
}

/// The search's state.
struct Dfs<'a> {
    q: &'a Quotient,
    spec: &'a Spec,
    candidates: Vec<Vec<usize>>,
    capacity: Vec<usize>,
    mirror: bool,
    count: Vec<usize>,
    sets: Vec<Vec<usize>>,
    best: Outcome,
}

impl Dfs<'_> {
    /// Tries every set for the next column, best-first from the previous column's set.
    fn extend(&mut self) -> Result<()> {
        if self.sets.len() == self.spec.cols {
            let value = measure(self.q, self.spec, &self.sets)?;
            if value < self.best.minimum {
                self.best.minimum = value;
                self.best.best = self.sets.clone();
            }
            return Ok(());
        }
        let g = self.q.sizes.len();
        let mut order: Vec<usize> = (0..self.candidates.len()).collect();
        if let Some(prev) = self.sets.last() {
            let near = |set: &[usize]| {
                let shared = set.iter().filter(|s| prev.contains(s)).count();
                (set != prev.as_slice(), std::cmp::Reverse(shared), set.len())
            };
            order.sort_by_key(|&k| near(&self.candidates[k]));
        }
        for k in order {
            let set = self.candidates[k].clone();
            if set.iter().any(|&s| self.count[s] >= self.capacity[s]) {
                continue;
            }
            if self.sets.is_empty() && self.mirror {
                let mut image: Vec<usize> = set.iter().map(|&s| g - 1 - s).collect();
                image.sort_unstable();
                if image < set {
                    continue;
                }
            }
            // The cheap bound 1 + (T - 1) delta (delta: the nearest pair of copies of two
            // adjacent columns) before the recursion.
            if let Some(prev) = self.sets.last() {
                let delta = set
                    .iter()
                    .flat_map(|&a| prev.iter().map(move |&b| (a, b)))
                    .map(|(a, b)| if a == b { 1 } else { self.q.dist[a][b] })
                    .min()
                    .unwrap_or(1);
                if 1 + (self.spec.steps - 1).saturating_mul(delta) >= self.best.minimum {
                    continue;
                }
            }
            self.best.nodes += 1;
            if self.best.nodes > self.spec.budget {
                return Err(Error::SearchBudget { budget: self.spec.budget, cols: self.spec.cols });
            }
            set.iter().for_each(|&s| self.count[s] += 1);
            self.sets.push(set);
            if measure(self.q, self.spec, &self.sets)? < self.best.minimum {
                self.extend()?;
            }
            if let Some(set) = self.sets.pop() {
                set.iter().for_each(|&s| self.count[s] -= 1);
            }
        }
        Ok(())
    }
}
