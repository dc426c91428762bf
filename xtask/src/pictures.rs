//! `cargo xtask pictures [--check]`: the committed pictures under `docs/pictures/`, one per
//! model of the README's tour, regenerated from their fixtures (`--check`: compared instead
//! of written; exit status 1 when one differs).

use std::path::{Path, PathBuf};

use crate::sweep::project_root;

/// A committed picture, with the model whose manifest names it.
pub(crate) struct Fixture {
    pub(crate) model: &'static str,
    pub(crate) config: &'static str,
    pub(crate) picture: &'static str,
}

/// Every committed picture, in registry order.
pub(crate) fn fixtures() -> Vec<Fixture> {
    crate::registry::models()
        .into_iter()
        .flat_map(|m| {
            m.manifest().pictures.iter().map(move |p| Fixture {
                model: m.name(),
                config: p.config,
                picture: p.picture,
            })
        })
        .collect()
}

/// The SVG of `fixture`, as `cargo xtask run MODEL CONFIG --svg FILE` writes it.
pub(crate) fn regenerate(fixture: &Fixture) -> anyhow::Result<String> {
    Ok(run_pictured(fixture)?.1)
}

/// The one run of `fixture`: its report and its SVG, as `cargo xtask run MODEL CONFIG --svg
/// FILE` prints and writes them.
pub(crate) fn run_pictured(
    fixture: &Fixture,
) -> anyhow::Result<(netcore::study::RunReport, String)> {
    let model = crate::registry::model(fixture.model)?;
    let config = project_root().join(fixture.config);
    let text = std::fs::read_to_string(&config)
        .map_err(|e| anyhow::anyhow!("{}: cannot read config: {e}", config.display()))?;
    let dir = config.parent().unwrap_or(Path::new("."));
    crate::run_pictured(model, &config, &netcore::study::ConfigFile::new(&text, dir))
}

/// Where the committed pictures live.
pub(crate) fn directory() -> PathBuf {
    project_root().join("docs").join("pictures")
}

/// Writes (or with `check`, compares) every committed picture; `Ok(false)` if one differs.
pub(crate) fn pictures(check: bool) -> anyhow::Result<bool> {
    let dir = directory();
    std::fs::create_dir_all(&dir)?;
    let mut same = true;
    for fixture in &fixtures() {
        let svg = regenerate(fixture)?;
        let path = dir.join(fixture.picture);
        if check {
            let committed = std::fs::read_to_string(&path).unwrap_or_default();
            let verdict = if committed == svg { "matches" } else { "DIFFERS" };
            same &= committed == svg;
            println!("{}: {verdict} {}", path.display(), fixture.config);
        } else {
            std::fs::write(&path, svg)?;
            println!("{}: written from {}", path.display(), fixture.config);
        }
    }
    Ok(same)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// `(picture, selector, JSON pointer)`: the number of SVG elements the selector picks
    /// (`class` or `class/kind`) equals the run report's number at the pointer (or the length
    /// of its list).
    const CHECKS: &[(&str, &str, &str)] = &[
        ("logp-stall-compaction-delta-worst.svg", "arrow", "/trace_summary/messages"),
        (
            "logp-stall-compaction-delta-worst.svg",
            "arrow/violating message (c_j > ceil(L/G))",
            "/violating",
        ),
        ("logp-stall-compaction-delta-worst.svg", "span", "/trace_summary/episodes"),
        ("logp-stall-cj-staggered-hotspot.svg", "arrow", "/trace_summary/messages"),
        (
            "logp-stall-cj-staggered-hotspot.svg",
            "arrow/violating message (c_j > ceil(L/G))",
            "/violating",
        ),
        ("logp-stall-cj-staggered-hotspot.svg", "span", "/trace_summary/episodes"),
        ("logp-stall-bsp-two-compaction.svg", "frame/superstep (label, level i)", "/supersteps"),
        ("logp-stall-sim-compaction-delta.svg", "arrow", "/trace_summary/messages"),
        ("logp-stall-sim-compaction-delta.svg", "span", "/trace_summary/episodes"),
        ("logp-stall-goal-bcast-calc-p8.svg", "arrow", "/messages"),
        ("logp-stall-goal-bcast-calc-p8.svg", "interval", "/ops"),
        (
            "logp-stall-goal-bcast-calc-p8.svg",
            "interval/receive overhead o + (n-1)max(O, G)",
            "/messages",
        ),
        ("hpram-shape-nested-p8.svg", "frame", "/sub_prams"),
        ("overlap-ring-overlap-long-link.svg", "mark", "/run/work"),
        ("pram-hot-spot-read-8.svg", "mark/read", "/accesses/reads"),
        ("pram-hot-spot-read-8.svg", "mark/write", "/accesses/writes"),
        ("pram-hot-spot-read-8.svg", "mark/fetch-and-op", "/accesses/fetches"),
        ("dbsp-hmos-prim-route-gather.svg", "frame/superstep (label, level i)", "/trace"),
        ("dbsp-hmos-pram-hot-spot-read-n4.svg", "frame/superstep (label, level i)", "/supersteps"),
        ("dbsp-hmos-figure-1.svg", "arrow", "/edges"),
        ("dbsp-hmos-figure-2.svg", "interval/a 0-module's variables", "/levels/0/holding"),
        ("dbsp-hmos-figure-3.svg", "mark", "/loc"),
        ("actor-pram-hot-spot-5-butterfly.svg", "mark", "/network/hops"),
        (
            "actor-pram-hot-spot-5-butterfly.svg",
            "span/combine at a node of the row",
            "/network/combines",
        ),
        (
            "actor-pram-hot-spot-5-butterfly.svg",
            "frame/pass: forward | reverse rounds",
            "/network/passes",
        ),
        ("actor-pram-local-7-broadcast-sync.svg", "mark", "/events"),
        ("cross-pram-prefix-sums-64.svg", "mark/read", "/accesses/reads"),
        ("cross-pram-prefix-sums-64.svg", "mark/write", "/accesses/writes"),
    ];

    /// `(picture, selector, JSON pointer)` as in [`CHECKS`], for paths: the selector picks one
    /// element fewer than the report's number (a path of `k` events has `k - 1` arrows).
    const PATH_CHECKS: &[(&str, &str, &str)] = &[(
        "actor-pram-local-7-broadcast-sync.svg",
        "arrow/critical path (a longest chain of events)",
        "/actor_time",
    )];

    /// Pictures checked against another model's report of the same config: cross-pram draws
    /// its reference run, which the `pram` model runs from the same `program`, `n` and `seed`
    /// and whose report counts the accesses.
    const REPORTED_BY: &[(&str, &str)] = &[("cross-pram-prefix-sums-64.svg", "pram")];

    /// The number of drawn items in `svg`, by `class` and by `class/kind`.
    fn counts(svg: &str) -> BTreeMap<String, usize> {
        let doc = roxmltree::Document::parse(svg).expect("valid SVG");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        let mut counts = BTreeMap::new();
        for node in doc.descendants().filter(|n| n.is_element()) {
            let (Some(class), Some(kind)) = (node.attribute("class"), node.attribute("data-kind"))
            else {
                continue;
            };
            *counts.entry(class.to_string()).or_insert(0) += 1;
            *counts.entry(format!("{class}/{kind}")).or_insert(0) += 1;
        }
        counts
    }

    /// Each committed picture parses as SVG, its items match the run's report (one arrow per
    /// message, one span per stall episode, ...), and its counts are snapshotted.
    ///
    /// By hand, from the fixtures' comments:
    /// - `logp-compaction-delta-worst`: P5 and P6 submit to P0 at step 0 (both violating,
    ///   c = 2 > K = 1, so two episodes), are stalled on [1, 8), submit to P1 at step 8 (both
    ///   violating again, two more episodes): 4 arrows, all violating, 4 spans; P0 and P1
    ///   receive at 14 and 16 (4 receive intervals), P5 and P6 submit twice (4 submits) and are
    ///   stalled once each (2 stalled intervals).
    /// - `logp-cj-staggered-hotspot`: three messages to P0, only the third violating, no
    ///   episode (stalling = "never"); P0 receives three times.
    /// - `bsp-two-compaction`: supersteps `send` (w = 3, g h = 4, l = 4) and `merge` (w = 3,
    ///   h = 0, l = 4): two columns, five spans (no g h span for `merge`), no cluster box
    ///   (plain BSP is level 0).
    /// - `sim-compaction-delta`: m0, m1 to P0 at step 0 (c = 2 > K = 1, violating), m2, m3 to
    ///   P1 (c = 1): 4 arrows, 2 violating; one episode (P6, [2, 5)): 1 span, 1 stalled bar.
    /// - `goal-bcast-calc-p8-file`: 7 sends, 7 recvs and 8 calcs (22 operations), 7 messages:
    ///   7 arrows; one CPU bar per send and calc and one receive overhead per message (each
    ///   recv matched with one), 22 = the run's operations; 14 NIC gaps (one per send and per
    ///   message).
    /// - `shape-nested-p8-hypercube`: the root, its children A and B, A's two children: 5
    ///   boxes = the run's 5 sub-PRAMs; own steps: the root before and after its partition, A
    ///   before and after its partition, B, A's two children (7 spans); two β-synchronisations
    ///   (A's at 21, the root's at 26); two waits (A's second child from 19 to 21, B from 20 to
    ///   26).
    /// - `hot-spot-read-8`: step 1, 8 reads of cell 0 (all shared: 8 shaded spans); step 2, 8
    ///   writes to 8 distinct cells (none shared): 16 marks, 8 spans.
    /// - `overlap_long_link`: n = 32 processors, T = 5 rows, every pebble of weight 1: one mark
    ///   per computed pebble, 160 = the run's work (32 x 5, the fixture's comment); every
    ///   processor holds a range (p15 and p16 both hold column 16): 32 bands; one long link (link 15,
    ///   delay 20): one box; rows 2 to 5 each need (17, t - 1) at p15 and (15, t - 1) at p16
    ///   across it: 8 arrows.
    /// - `prim-route-gather`: two-phase routing on n = 64: one column per superstep of the
    ///   ledger (the report's trace lists the supersteps), local sorts as local records.
    /// - `pram-hot-spot-read-n4`: 2 global steps on D-BSP n = 4, one superstep box per
    ///   superstep of the protocol's ledger (the report's `supersteps`), the phases boxed.
    /// - `hot-spot-5-butterfly` (its comment): pass 1, all 8 PPUs read cell 5, 6 combines;
    ///   pass 2, every PPU writes its own cell; 2 passes (2 boxes); one mark per packet hop
    ///   and one shade per combine, equal to the run's counts.
    /// - `local-7-broadcast-sync` (its comment): 8 actors (7 PPUs and the CPU), 57 events
    ///   (57 dots): the CPU's start, then per instruction (T = 4) 7 Go and 6 Done events at
    ///   PPU actors (52) and one Done event at the CPU (5 with the start); actor time 33, the
    ///   critical path has one event per depth 1..=33, so 32 arrows (actor time - 1).
    /// - `cross-pram` `prefix-sums-64`: the reference run of 64 PPUs, G = 18; its reads and
    ///   writes equal those the `pram` model's report of the same config counts.
    #[test]
    fn pictures_match_their_runs() {
        for fixture in &fixtures() {
            let (run, svg) = run_pictured(fixture).unwrap();
            let counts = counts(&svg);
            // The report of the run drawn, or another model's report of the same config.
            let report = match REPORTED_BY.iter().find(|(p, _)| *p == fixture.picture) {
                None => run.report,
                Some((_, reporter)) => {
                    let model = crate::registry::model(reporter).unwrap();
                    let config = project_root().join(fixture.config);
                    let text = std::fs::read_to_string(&config).unwrap();
                    let file = netcore::study::ConfigFile::new(&text, config.parent().unwrap());
                    model.run_config(&file).unwrap().report
                }
            };
            let checks = (CHECKS.iter().map(|c| (c, 0)))
                .chain(PATH_CHECKS.iter().map(|c| (c, 1)))
                .filter(|((p, _, _), _)| *p == fixture.picture);
            assert!(checks.clone().count() > 0, "{} has no check", fixture.picture);
            for ((_, selector, pointer), fewer) in checks {
                let want = report.pointer(pointer).and_then(|v| match v {
                    serde_json::Value::Array(items) => Some(items.len() as u64),
                    other => other.as_u64(),
                });
                let want = want.and_then(|w| w.checked_sub(fewer));
                let got = counts.get(*selector).copied().unwrap_or(0);
                assert_eq!(Some(got as u64), want, "{}: {selector} vs {pointer}", fixture.config);
            }
            insta::assert_yaml_snapshot!(fixture.picture, counts);
        }
    }

    /// `run --svg` runs a config once for both outputs: for every committed picture's
    /// fixture, [`Model::run_pictured`](netcore::study::Model::run_pictured)'s report is
    /// [`run_config`](netcore::study::Model::run_config)'s (its picture is the committed one,
    /// `committed_pictures_match_regeneration`).
    #[test]
    fn one_run_gives_the_report_and_the_picture() {
        for fixture in &fixtures() {
            let model = crate::registry::model(fixture.model).unwrap();
            let config = project_root().join(fixture.config);
            let text = std::fs::read_to_string(&config).unwrap();
            let file = netcore::study::ConfigFile::new(&text, config.parent().unwrap());
            let (report, _) = model.run_pictured(&file).unwrap();
            assert_eq!(report, model.run_config(&file).unwrap(), "{}: report", fixture.config);
        }
    }

    /// `docs/pictures/` holds exactly what `cargo xtask pictures` writes.
    #[test]
    fn committed_pictures_match_regeneration() {
        for fixture in &fixtures() {
            let path = directory().join(fixture.picture);
            let committed = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e} (run `cargo xtask pictures`)", path.display()));
            assert!(
                committed == regenerate(fixture).unwrap(),
                "{} differs from its regeneration: run `cargo xtask pictures`",
                path.display()
            );
        }
    }
}
