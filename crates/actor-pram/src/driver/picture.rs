//! Pictures of one run (`cargo xtask run actor-pram CONFIG.toml --svg FILE`).
//!
//! A butterfly run (`translation = "butterfly"`): the passes of Ranade's algorithm on the
//! wrapped butterfly as the lockstep router runs them (the actors' slots equal its, Property 1,
//! Choice 22). One lane per butterfly row, lockstep rounds across, every pass's forward rounds
//! then its reverse rounds, each pass a labelled box with its reverse rounds boxed inside; one
//! mark per packet hop (a forward packet or a reply leaving a virtual node on an edge),
//! coloured by the node's level; every combine shaded on its node's row and round (one shade
//! per combine, so a darker cell merged more). Its events are not tied to lockstep rounds, so
//! its event DAG is not drawn.
//!
//! A direct or broadcast-sync run: its event DAG (Section 2.2) with actor time across, the
//! paper's measure. One lane per actor, one mark per event at its depth, and a critical path
//! (a longest chain of events, whose length is the actor time) as arrows between its
//! consecutive events; the DAG's other edges are not drawn.

use netcore::limits::{DEFAULT_MEMORY, TooLarge};
use netcore::picture::{
    Colour, Kind, MAX_LANES, MAX_STEPS, Orientation, Paint, Picture, Sketch, check_size,
};
use netcore::pram::{Limits, Program};
use netcore::study::{ConfigFile, ModelError, RunReport};

use super::config::{ActorPramConfig, Translation};
use super::run::{run_actor_pram_config, run_report, run_with};
use crate::actor::{ActorError, critical_path};
use crate::butterfly::{dimension, simulate_butterfly_recorded};
use crate::direct::{DirectReport, Sync, simulate_recorded};
use crate::error::Error;
use crate::limits::PPUS_FIELD;
use crate::ranade::PassEventKind;

/// What a butterfly picture shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HopKind {
    /// A forward packet's hop.
    Forward,
    /// A reply's hop.
    Reply,
    /// A combine at a node.
    Combine,
    /// A pass (a global step's forward and reverse rounds).
    Pass,
    /// The reverse rounds of a pass.
    Reverse,
}

impl Kind for HopKind {
    const ALL: &'static [Self] =
        &[HopKind::Forward, HopKind::Reply, HopKind::Combine, HopKind::Pass, HopKind::Reverse];
    fn label(self) -> &'static str {
        match self {
            HopKind::Forward => "forward hop (colour: level)",
            HopKind::Reply => "reply hop (colour: level)",
            HopKind::Combine => "combine at a node of the row",
            HopKind::Pass => "pass: forward | reverse rounds",
            HopKind::Reverse => "the pass's reverse rounds (replies)",
        }
    }
    fn paint(self) -> Paint {
        match self {
            HopKind::Forward | HopKind::Reply => Paint::ByGroup,
            HopKind::Combine => Paint::Shade(Colour::Vermillion),
            HopKind::Pass => Paint::Outline(Colour::Black),
            HopKind::Reverse => Paint::Outline(Colour::Grey),
        }
    }
}

/// What an event-DAG picture shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// An event of a PPU actor.
    Ppu,
    /// An event of a cell actor.
    Cell,
    /// An event of the CPU actor (broadcast-sync).
    Cpu,
    /// A critical-path edge.
    Critical,
}

impl Kind for EventKind {
    const ALL: &'static [Self] =
        &[EventKind::Ppu, EventKind::Cell, EventKind::Cpu, EventKind::Critical];
    fn label(self) -> &'static str {
        match self {
            EventKind::Ppu => "event of a PPU actor",
            EventKind::Cell => "event of a cell actor",
            EventKind::Cpu => "event of the CPU actor",
            EventKind::Critical => "critical path (a longest chain of events)",
        }
    }
    fn paint(self) -> Paint {
        match self {
            EventKind::Ppu => Paint::Solid(Colour::Blue),
            EventKind::Cell => Paint::Solid(Colour::BluishGreen),
            EventKind::Cpu => Paint::Solid(Colour::Orange),
            EventKind::Critical => Paint::Line(Colour::Vermillion),
        }
    }
}

/// One run of `config` and its picture. A butterfly run: refused before the run past the
/// picture's lanes (the `2^n` rows of the butterfly), and after it, before drawing, past its
/// rounds (forward and reverse, summed over the passes); the report comes from the actor run
/// and the picture from the lockstep router's passes it is checked against slot for slot
/// (docs/models/actor-pram.md, Choices). A direct or broadcast-sync run: refused before the
/// run past 128 PPUs, while it runs past 128 x 2000 events (its recorded DAG grows with them),
/// and after it, before drawing, past 128 actors or 2000 of actor time; one run gives the
/// report and the picture.
pub fn pictured(config: &ConfigFile<'_>) -> Result<(RunReport, Picture), ModelError> {
    let parsed: ActorPramConfig = config.parse()?;
    if parsed.translation == Translation::Butterfly {
        let picture = butterfly_picture(config, &parsed)?;
        return Ok((run_report(&parsed, run_actor_pram_config(&parsed, config)?)?, picture));
    }
    if parsed.butterfly.is_some() {
        return Err(Error::InvalidConfig {
            field: "butterfly",
            rule: "only given with translation = \"butterfly\"",
            got: "a butterfly table".into(),
        }
        .into());
    }
    let loaded = parsed.pram.load(config)?;
    check_size(PPUS_FIELD, u64::from(loaded.program.ppus()), "actor_time", 0)?;
    // Every actor of the run is serialized, one event per unit of actor time at most: a
    // drawable run has at most 128 x 2000 events, and the recorded DAG stops growing there.
    let max_events = MAX_LANES * MAX_STEPS;
    let record = |program: &Program, input: &[i64], limits: &Limits, sync: Sync| {
        match simulate_recorded(program, input, parsed.scheduler, limits, sync, max_events) {
            Err(Error::Actor(ActorError::EventLimit { .. })) => Err(Error::TooLarge(TooLarge {
                field: "events",
                limit: max_events,
                estimate: max_events + 1,
                unit: "events or more to draw (a picture holds 128 lanes x 2000 steps, an actor one event a step)",
            })),
            other => other,
        }
    };
    let (summary, direct) = run_with(&parsed, config, record)?;
    let report = direct.ok_or_else(|| Error::InvalidConfig {
        field: "translation",
        rule: "a direct or broadcast-sync run records its events",
        got: parsed.translation.to_string(),
    })?;
    let picture = direct_picture(&loaded.name, &parsed, report)?;
    Ok((run_report(&parsed, summary)?, picture))
}

/// The picture of a direct or broadcast-sync run that recorded its event DAG.
fn direct_picture(
    name: &str,
    parsed: &ActorPramConfig,
    report: DirectReport,
) -> Result<Picture, ModelError> {
    let (dag, names) = report.recorded.unwrap_or_default();
    let actor_time = report.actor.actor_time;
    check_size("actors", report.actor.actors, "actor_time", actor_time)?;
    let path = critical_path(&dag);
    let title = format!(
        "{} ({}, {}): actor time {}, {} events, {} actors",
        name,
        parsed.translation,
        parsed.scheduler,
        actor_time,
        report.actor.events,
        report.actor.actors
    );
    let mut sketch = Sketch::<EventKind>::new(
        title,
        "actor",
        "actor time (an event of depth d in [d - 1, d))",
        Orientation::TimeAcross,
        names,
        actor_time,
    );
    sketch.note(
        "one dot per event; the arrows join the starts of a critical path's consecutive events; the DAG's other edges (messages, an actor's order) are not drawn",
    );
    for (actor, depth) in &dag.nodes {
        let kind = if u64::from(actor.0) < report.ppu_actors {
            EventKind::Ppu
        } else if u64::from(actor.0) < report.ppu_actors + report.cell_actors {
            EventKind::Cell
        } else {
            EventKind::Cpu
        };
        sketch.mark(actor.0, depth.saturating_sub(1), 0, kind);
    }
    for pair in path.windows(2) {
        let from = dag.nodes[pair[0]];
        let to = dag.nodes[pair[1]];
        let (from_at, to_at) = (from.1.saturating_sub(1), to.1.saturating_sub(1));
        sketch.arrow(from.0.0, from_at, to.0.0, to_at, EventKind::Critical);
    }
    Ok(sketch.finish())
}

/// The butterfly run's picture (see [`pictured`]).
fn butterfly_picture(
    config: &ConfigFile<'_>,
    parsed: &ActorPramConfig,
) -> Result<Picture, ModelError> {
    let loaded = parsed.pram.load(config)?;
    let butterfly = parsed.butterfly.clone().unwrap_or_default();
    let dim = dimension(butterfly.dim, loaded.program.ppus())?;
    let rows = 1_u64.checked_shl(dim).unwrap_or(u64::MAX);
    let dim_field = if butterfly.dim.is_some() { "butterfly.dim" } else { PPUS_FIELD };
    check_size(dim_field, rows, "rounds", 0)?;
    let limits = Limits { max_bytes: DEFAULT_MEMORY, ..loaded.limits };
    let (report, passes) =
        simulate_butterfly_recorded(&loaded.program, &loaded.input, &butterfly, &limits)?;
    let rounds = report.rounds_fwd + report.rounds_rev;
    check_size(dim_field, rows, "rounds", rounds)?;
    let lanes = (0..rows).map(|r| format!("row {r}")).collect();
    let title = format!(
        "{} on butterfly n = {dim} (N = {}, b = {}): {} passes, {} hops, {} combines",
        loaded.name, report.routers, report.b, report.passes, report.hops, report.combines
    );
    let mut sketch = Sketch::<HopKind>::new(
        title,
        "butterfly row",
        "lockstep round",
        Orientation::TimeAcross,
        lanes,
        rounds,
    );
    sketch.note(format!(
        "levels 0..{} of the 3n - 1 virtual levels: hop colours repeat every 8 levels; a mark is drawn at its sending node's row in the round it is sent",
        3 * dim - 2
    ));
    let mut at = 0;
    let last = u32::try_from(rows - 1).unwrap_or(u32::MAX);
    for (index, pass) in passes.iter().enumerate() {
        let end = at + pass.r_fwd + pass.r_rev;
        let label = format!("pass {}: {} | {}", index + 1, pass.r_fwd, pass.r_rev);
        sketch.frame((0, last), (at, end), 0, label, HopKind::Pass);
        if pass.r_rev > 0 {
            sketch.frame((0, last), (at + pass.r_fwd, end), 1, "", HopKind::Reverse);
        }
        for e in &pass.events {
            let (round, kind) = match e.kind {
                PassEventKind::Forward => (at + e.round, HopKind::Forward),
                PassEventKind::Reply => (at + pass.r_fwd + e.round, HopKind::Reply),
                PassEventKind::Combine => {
                    let round = at + e.round;
                    sketch.span(e.row, e.row, round, round + 1, HopKind::Combine);
                    continue;
                }
            };
            sketch.mark(e.row, round, e.level, kind);
        }
        at = end;
    }
    Ok(sketch.finish())
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use netcore::fault::Fault;

    use super::*;

    /// A butterfly of dimension 8 has 256 rows: refused before the run, naming the field;
    /// so is a direct run of 256 PPUs; one of 256 actors is refused after the run.
    #[test]
    fn too_large_is_refused() {
        let text = "translation = \"butterfly\"\n[pram]\nprogram = \"hot-spot-read\"\nn = 8\n[butterfly]\ndim = 8\n";
        let e = pictured(&ConfigFile::new(text, Path::new("."))).unwrap_err();
        assert_eq!(e.fault(), Fault::Input);
        assert!(
            e.to_string().starts_with("butterfly.dim is too large: the run needs 256 lanes"),
            "{e}"
        );
        let text = "[pram]\nprogram = \"hot-spot-read\"\nn = 256\n";
        let e = pictured(&ConfigFile::new(text, Path::new("."))).unwrap_err();
        assert_eq!(e.fault(), Fault::Input);
        assert!(
            e.to_string().starts_with("pram (its S PPUs) is too large: the run needs 256 lanes"),
            "{e}"
        );
        // prefix sums of 128 PPUs: 128 PPU actors and 128 cell actors, refused after the
        // run, before drawing.
        let text = "[pram]\nprogram = \"prefix-sums\"\nn = 128\n";
        let e = pictured(&ConfigFile::new(text, Path::new("."))).unwrap_err();
        assert_eq!(e.fault(), Fault::Input);
        assert!(e.to_string().starts_with("actors is too large: the run needs 256 lanes"), "{e}");
    }

    /// Broadcast-sync of `local-7.pasm` (the fixture's comment): 8 actors, 57 events, actor
    /// time 33. Its critical path runs through every instruction's CPU event, Go down to a
    /// leaf of depth 2 and Done back up through both children's events at each level: one
    /// event per depth 1..=33, so 33 events and 32 arrows, from the CPU's injected start
    /// (depth 1, drawn from time 0) to its last Done (depth 33, from time 32).
    #[test]
    fn broadcast_sync_draws_its_critical_path() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/actor-pram");
        let text = std::fs::read_to_string(dir.join("local-7-broadcast-sync.toml")).unwrap();
        let (_, p) = pictured(&ConfigFile::new(&text, &dir)).unwrap();
        assert_eq!(p.lanes.len(), 8);
        assert_eq!(p.lanes[7], "CPU");
        assert_eq!(p.marks.len(), 57);
        assert_eq!(p.arrows.len(), 32);
        assert_eq!((p.arrows[0].from_lane, p.arrows[0].from), (7, 0));
        let last = p.arrows[31];
        assert_eq!((last.to_lane, last.to), (7, 32));
        assert!(p.arrows.iter().all(|a| a.to == a.from + 1));
    }
}
