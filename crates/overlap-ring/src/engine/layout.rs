//! What both sweeping engines ([`super::fast`]'s row sweep and [`super::phased`]'s phase
//! sweep) build from a plan before they run: the holders (processors holding columns, in
//! index order), their columns' slots and the streams they send, each with the summed delay of
//! its route; the check that no link queue can form; and the verified [`HostRun`] of a finished
//! sweep (`docs/models/overlap-ring.md`, Choices: the row-sweep engine).

use netcore::Step;
use netcore::fabric::Fabric;

use super::measured::{Figures, HostRun, Stats, Totals};
use super::refusal::Refusal;
use super::routes::Routes;
use crate::error::Result;
use crate::guest::{GuestProgram, Reference};
use crate::plan::Plan;

/// No input stream (a boundary side).
pub(super) const NONE: u32 = u32::MAX;

pub(super) fn narrow(value: usize, what: &'static str) -> std::result::Result<u32, Refusal> {
    u32::try_from(value).ok().filter(|&v| v != NONE).ok_or(Refusal::Size { what, value })
}

/// The static part of a run: per holder (processors holding columns, in index order) and per
/// stream.
pub(super) struct Layout {
    pub(super) n_cols: usize,
    pub(super) steps: u64,
    pub(super) weight: u32,
    /// Per holder: first and last held column.
    pub(super) lo: Vec<u32>,
    pub(super) hi: Vec<u32>,
    /// Per holder `h`: its columns' slots are `col_at[h]..col_at[h + 1]`, its streams
    /// `out_at[h]..out_at[h + 1]` (one more entry than holders).
    pub(super) col_at: Vec<u32>,
    pub(super) out_at: Vec<u32>,
    /// Per holder: where its range reads the streams bringing columns `lo - 1` and `hi + 1`
    /// ([`NONE`] at a boundary): in the row sweep, the range's own streams first, then its inbox.
    pub(super) left: Vec<u32>,
    pub(super) right: Vec<u32>,
    /// Per stream: the column it carries and the summed delay `D` of its route.
    pub(super) sent: Vec<Sent>,
    /// Per stream and row: deliveries and unit x hop transmissions.
    pub(super) messages: u64,
    pub(super) units: u64,
}

/// A stream's column and the summed delay `D` of its route.
#[derive(Debug, Clone, Copy)]
pub(super) struct Sent {
    pub(super) col: u32,
    pub(super) delay: Step,
}

/// Refuses a plan in which a directed link (of `links`) is crossed by more streams of
/// weight-`weight` pebbles than its bandwidth carries in one step: a queue could form there.
/// `hops` = every stream's route, one after the other.
fn queue_free(
    hops: &[u32],
    links: usize,
    weight: u32,
    bandwidth: u32,
) -> std::result::Result<(), Refusal> {
    let mut crossing = vec![0u64; links];
    for &hop in hops {
        crossing[hop as usize] += 1;
    }
    if let Some((link, &streams)) = crossing
        .iter()
        .enumerate()
        .find(|&(_, &k)| k.saturating_mul(u64::from(weight)) > u64::from(bandwidth))
    {
        return Err(Refusal::Bandwidth { link, streams, weight, bandwidth });
    }
    Ok(())
}

/// A plan's [`Layout`] with its initial state, before it is cut into ranges or phases: per held column
/// its database and value, per stream the arrival step and value of its row 0, and the
/// numbering of the plan's processors and streams as holders and layout streams.
pub(super) struct Laid<V, D> {
    pub(super) lay: Layout,
    pub(super) db: Vec<D>,
    pub(super) val: Vec<V>,
    pub(super) streams: Vec<(Step, V)>,
    /// Holder index of every processor ([`NONE`] for one that holds nothing).
    pub(super) holder: Vec<u32>,
    /// Every stream's number in the layout (by source, then column).
    pub(super) renum: Vec<u32>,
}

impl<V: Clone, D> Laid<V, D> {
    /// Numbers the holders of `plan` in index order and their streams by source then column,
    /// with each stream's summed route delay on `fabric`; refuses the plan ([`Refusal`]) when
    /// a queue could form ([`queue_free`]) or an index exceeds 32 bits.
    pub(super) fn new<P, F>(
        fabric: &F,
        plan: &Plan,
        prog: &P,
        steps: u64,
        routes: &Routes,
    ) -> Result<Self>
    where
        P: GuestProgram<Val = V, Db = D> + ?Sized,
        F: Fabric + ?Sized,
    {
        use netcore::limits::{vec_filled, vec_with_capacity};
        let weight = prog.weight().max(1);
        let delays = fabric.directed_delays();
        queue_free(&routes.hops, delays.len(), weight, fabric.bandwidth())?;
        narrow(plan.n(), "processors")?;
        narrow(plan.held_total(), "held columns")?;
        narrow(routes.streams.len(), "streams")?;
        narrow(plan.n_cols, "columns")?;
        let mut holder = vec_filled("the holder numbers", plan.n(), NONE)?;
        let mut renum = vec_filled("the stream numbers", routes.streams.len(), NONE)?;
        let (n, layout) = (plan.n(), "the layout");
        let mut lay = Layout {
            n_cols: plan.n_cols,
            steps,
            weight,
            lo: vec_with_capacity(layout, n)?,
            hi: vec_with_capacity(layout, n)?,
            col_at: vec_with_capacity(layout, n + 1)?,
            out_at: vec_with_capacity(layout, n + 1)?,
            left: Vec::new(),
            right: Vec::new(),
            sent: vec_with_capacity(layout, routes.streams.len())?,
            messages: 0,
            units: 0,
        };
        lay.col_at.push(0);
        lay.out_at.push(0);
        let mut db = vec_with_capacity("the held databases", plan.held_total())?;
        let mut val = vec_with_capacity("the held columns", plan.held_total())?;
        let mut streams = vec_with_capacity("the streams", routes.streams.len())?;
        for (p, range) in plan.held.iter().enumerate() {
            let Some((lo, hi)) = *range else { continue };
            holder[p] = narrow(lay.lo.len(), "holders")?;
            lay.lo.push(narrow(lo, "columns")?);
            lay.hi.push(narrow(hi, "columns")?);
            db.extend((lo..=hi).map(|c| prog.init_db(c)));
            val.extend((lo..=hi).map(|c| prog.init_val(c)));
            lay.col_at.push(narrow(val.len(), "held columns")?);
            for &(col, id) in &routes.outs[p] {
                let s = &routes.streams[id as usize];
                let route = &routes.hops[s.start as usize..(s.start + s.len) as usize];
                renum[id as usize] = narrow(lay.sent.len(), "streams")?;
                let delay = route.iter().map(|&h| Step::from(delays[h as usize])).sum();
                lay.sent.push(Sent { col: narrow(col, "columns")?, delay });
                lay.units += u64::from(s.len) * u64::from(weight);
                streams.push((0, prog.init_val(col)));
            }
            lay.out_at.push(narrow(lay.sent.len(), "streams")?);
        }
        lay.messages = lay.sent.len() as u64;
        Ok(Self { lay, db, val, streams, holder, renum })
    }
}

/// Whether `plan`'s compute order interleaves rows: phase `l > 1` and a processor holding
/// several columns (Theorem 4's trapezoids, the composite scheme). The row sweep cannot run
/// such a plan; the phase sweep ([`super::phased`]) does.
pub(super) fn interleaves(plan: &Plan) -> bool {
    plan.phase > 1 && plan.held.iter().flatten().any(|&(lo, hi)| hi > lo)
}

/// The verified [`HostRun`] of a sweep that computed every pebble without a queue: each
/// holder's digests and final databases against `reference`, the per-row finishing steps
/// `row_done`, and the messages and link units of `T - 1` rows of every stream.
pub(super) fn finish<D: PartialEq>(
    lay: &Layout,
    figures: Figures,
    db: &[D],
    dig: &[u64],
    reference: &Reference<D>,
    row_done: Vec<Step>,
) -> HostRun {
    let mut verified = true;
    for h in 0..lay.lo.len() {
        let first = lay.col_at[h] as usize;
        for c in lay.lo[h] as usize..=lay.hi[h] as usize {
            let k = first + c - lay.lo[h] as usize;
            verified &= dig[k] == reference.digests[c - 1] && db[k] == reference.final_db[c - 1];
        }
    }
    let sent = lay.steps - 1;
    let totals = Totals {
        host_steps: row_done.iter().copied().max().unwrap_or(0),
        computed: dig.len() as u64 * lay.steps,
        messages: lay.messages * sent,
        stats: Stats { link_units: lay.units * sent, queue_wait: 0, max_backlog: 0 },
        verified,
        row_done,
    };
    figures.run(lay.weight, lay.steps, totals, None)
}
