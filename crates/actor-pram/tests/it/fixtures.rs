//! Every `fixtures/actor-pram/*.toml` runs through the model's `run_config`; the report (or
//! the error) is snapshotted. Hand derivations are in the fixtures' comments.

use actor_pram::driver::ActorPram;
use netcore::study::{ConfigFile, Model};

fn run(path: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("fixture readable");
    match ActorPram.run_config(&ConfigFile::new(&text, path.parent().expect("in a directory"))) {
        Ok(r) => serde_json::json!({ "summary": r.summary, "report": r.report }),
        Err(e) => {
            serde_json::json!({ "error": e.to_string(), "fault": format!("{:?}", e.fault()) })
        }
    }
}

#[test]
fn actor_pram_fixtures() {
    insta::glob!("../../../../fixtures/actor-pram", "*.toml", |path| {
        insta::assert_json_snapshot!(run(path));
    });
}

/// Every `fixtures/actor-pram/*.pasm` program: the predictability verdict (Definition 3) and
/// its direct translation on an empty input under FIFO (or the reference's error).
///
/// `overlap-2.pasm` by hand (docs/models/actor-pram.md, The direct translation; Choice 8):
/// T = 8 (active, p.set, p.read, 4 p.set, halt), two PPU actors, one cell actor (cell 1, the
/// only cell touched). PPU 1 is inactive at the p.read but its replica still spends one event
/// per instruction: 8, depths 1..8. PPU 0: active 1, p.set 2, p.read 3 (its Req), the cell's
/// one event 4 (its Reply), PPU 0's Reply event 5, p.set 6..9, halt 10. Actor time
/// 10 = T + 2 * 1 read; events 18 = 9 (PPU 0: 8 instructions + 1 Reply) + 1 (cell) + 8
/// (PPU 1). No actor ever holds two messages, so every scheduler gives these.
#[test]
fn actor_pram_programs() {
    use actor_pram::actor::Scheduler;
    insta::glob!("../../../../fixtures/actor-pram", "*.pasm", |path| {
        let text = std::fs::read_to_string(path).expect("program readable");
        let program = netcore::pram::Program::parse(&text).expect("program parses");
        let predictable = actor_pram::predict::predictability(&program).map_err(|u| u.pc);
        let limits = netcore::pram::Limits::default();
        let run = match actor_pram::direct::simulate_direct(&program, &[], Scheduler::Fifo, &limits)
        {
            Ok(r) => serde_json::json!({
                "T": r.pram.t, "actor_time": r.actor.actor_time, "events": r.actor.events,
                "verified": r.verified,
            }),
            Err(e) => serde_json::json!({ "error": e.to_string() }),
        };
        insta::assert_json_snapshot!(serde_json::json!({
            "predictable": predictable.is_ok(),
            "unpredictable_pc": predictable.err(),
            "run": run,
        }));
    });
}

/// Tidy: every fixture has a committed snapshot.
#[test]
fn every_fixture_has_a_snapshot() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixtures = dir.join("../../fixtures/actor-pram");
    let snaps = dir.join("tests/it/snapshots");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&fixtures).expect("fixtures dir") {
        let name = entry.expect("entry").file_name().to_string_lossy().into_owned();
        let test = if name.ends_with(".toml") {
            Some("actor_pram_fixtures")
        } else if name.ends_with(".pasm") {
            Some("actor_pram_programs")
        } else {
            None
        };
        if let Some(test) = test {
            let snap = snaps.join(format!("it__fixtures__{test}@{name}.snap"));
            if !snap.exists() {
                missing.push(name);
            }
        }
    }
    assert!(missing.is_empty(), "fixtures without snapshot: {missing:?}");
}
