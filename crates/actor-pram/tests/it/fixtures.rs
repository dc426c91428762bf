//! Every `fixtures/actor-pram/*.toml` runs through the model's `run_config`; the report (or
//! the error) is snapshotted. Hand derivations are in the fixtures' comments.

use actor_pram::ActorPram;
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

/// Tidy: every fixture has a committed snapshot.
#[test]
fn every_fixture_has_a_snapshot() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixtures = dir.join("../../fixtures/actor-pram");
    let snaps = dir.join("tests/it/snapshots");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&fixtures).expect("fixtures dir") {
        let name = entry.expect("entry").file_name().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".toml") {
            let snap = snaps.join(format!("it__fixtures__actor_pram_fixtures@{stem}.toml.snap"));
            if !snap.exists() {
                missing.push(name);
            }
        }
    }
    assert!(missing.is_empty(), "fixtures without snapshot: {missing:?}");
}
