//! The streams of a plan on a fabric (paper Section 2; `docs/models/overlap-ring.md`, Choices:
//! streams): each holder's two neighbour columns come from their nearest holder over the
//! fabric's route. Both engines build them here.

use netcore::fabric::Fabric;
use netcore::limits::{push, vec_filled};

use crate::error::{Error, Result};
use crate::guest::Reference;
use crate::plan::Plan;

/// A stream (`docs/models/overlap-ring.md`, Choices: streams): its source sends one column to `dest` (as `dest`'s `left` or right
/// neighbour column) over the route `hops[start..start + len]`.
#[derive(Debug, Clone)]
pub(super) struct Stream {
    pub(super) src: u32,
    pub(super) dest: u32,
    pub(super) left: bool,
    pub(super) start: u32,
    pub(super) len: u32,
}

/// Every stream of a plan on a fabric (both engines build them here): the routes in one hop
/// arena, and per processor the streams it sources as `(column, stream id)`.
pub(super) struct Routes {
    pub(super) hops: Vec<u32>,
    pub(super) streams: Vec<Stream>,
    pub(super) outs: Vec<Vec<(usize, u32)>>,
}

/// Checks that `plan` fits `fabric` and `reference`, then builds its [`Routes`]
/// (`docs/models/overlap-ring.md`, Choices: streams).
pub(super) fn routes<F: Fabric + ?Sized, D>(
    fabric: &F,
    plan: &Plan,
    reference: &Reference<D>,
) -> Result<Routes> {
    if plan.n() != fabric.n() {
        return Err(Error::PlanMismatch(format!(
            "plan has {} processors, the host has {}",
            plan.n(),
            fabric.n()
        )));
    }
    if plan.n_cols != reference.n_cols {
        return Err(Error::PlanMismatch(format!(
            "plan has N = {} columns, the guest has {}",
            plan.n_cols, reference.n_cols
        )));
    }
    let n_cols = plan.n_cols;
    let holders = plan.holders()?;
    let mut hops = Vec::new();
    let mut streams = Vec::new();
    let mut outs: Vec<Vec<(usize, u32)>> = vec_filled("the streams", plan.n(), Vec::new())?;
    for (p, range) in plan.held.iter().enumerate() {
        let Some((lo, hi)) = *range else { continue };
        for (col, left) in [(lo - 1, true), (hi + 1, false)] {
            if col == 0 || col > n_cols {
                continue;
            }
            let hs = &holders[col];
            let before = hs.iter().rev().find(|&&q| q < p);
            let after = hs.iter().find(|&&q| q > p);
            let src = if left { before.or(after) } else { after.or(before) };
            let src = *src.ok_or(Error::UncoveredColumn { col })?;
            let start = hops.len();
            fabric.route(src, p, &mut hops);
            outs[src].push((col, streams.len() as u32));
            let len = (hops.len() - start) as u32;
            let stream = Stream { src: src as u32, dest: p as u32, left, start: start as u32, len };
            push("the streams", &mut streams, stream)?;
        }
    }
    outs.iter_mut().for_each(|out| out.sort_unstable());
    Ok(Routes { hops, streams, outs })
}
