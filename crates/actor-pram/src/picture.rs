//! The picture of one butterfly run (`cargo xtask run actor-pram CONFIG.toml --svg FILE` with
//! `translation = "butterfly"`): the passes of Ranade's algorithm on the wrapped butterfly as
//! the lockstep router runs them (the actors' slots equal its, Property 1, Choice 22). One
//! lane per butterfly row, lockstep rounds across, every pass's forward rounds then its
//! reverse rounds, each pass a labelled box with its reverse rounds boxed inside; one mark per packet hop (a forward packet or a
//! reply leaving a virtual node on an edge), coloured by the node's level; every combine
//! shaded on its node's row and round (one shade per combine, so a darker cell merged more).
//!
//! The event DAG's critical path is not drawn: the actor runtime records the DAG on demand,
//! but the butterfly translation's steps run with it off, and its events are not tied to
//! lockstep rounds.

use netcore::limits::DEFAULT_MEMORY;
use netcore::picture::{Colour, Kind, Orientation, Paint, Picture, Sketch, check_size};
use netcore::pram::Limits;
use netcore::study::{ConfigFile, ModelError, NoPicture};

use crate::butterfly::{dimension, simulate_butterfly_recorded};
use crate::driver::model::{ActorPramConfig, Translation};
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

/// The picture of the run of `config`: refused before the run past the picture's lanes (the
/// `2^n` rows of the butterfly), and after it, before drawing, past its rounds (forward and
/// reverse, summed over the passes). Only the butterfly translation has one.
pub fn picture(config: &ConfigFile<'_>) -> Result<Picture, ModelError> {
    let parsed: ActorPramConfig = config.parse()?;
    if parsed.translation != Translation::Butterfly {
        return Err(NoPicture {
            model: "actor-pram",
            what: "the direct and broadcast-sync translations (draw translation = \"butterfly\")",
        }
        .into());
    }
    let loaded = parsed.pram.load(config)?;
    let butterfly = parsed.butterfly.unwrap_or_default();
    let dim = dimension(butterfly.dim, loaded.program.ppus())?;
    let rows = 1_u64.checked_shl(dim).unwrap_or(u64::MAX);
    let dim_field = if butterfly.dim.is_some() { "butterfly.dim" } else { "S" };
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

    /// A butterfly of dimension 8 has 256 rows: refused before the run, naming the field; the
    /// direct translation has no picture.
    #[test]
    fn too_large_and_direct_are_refused() {
        let text = "translation = \"butterfly\"\n[pram]\nprogram = \"hot-spot-read\"\nn = 8\n[butterfly]\ndim = 8\n";
        let e = picture(&ConfigFile::new(text, Path::new("."))).unwrap_err();
        assert_eq!(e.fault(), Fault::Input);
        assert!(
            e.to_string().starts_with("butterfly.dim is too large: the run needs 256 lanes"),
            "{e}"
        );
        let text = "[pram]\nprogram = \"hot-spot-read\"\nn = 8\n";
        let e = picture(&ConfigFile::new(text, Path::new("."))).unwrap_err();
        assert!(e.to_string().contains("no picture for the direct"), "{e}");
    }
}
