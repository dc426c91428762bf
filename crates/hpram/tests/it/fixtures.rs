//! Every `fixtures/hpram/*.toml` runs through the model's `run_config`; the report (or the
//! error and whose fault it is) is snapshotted. Hand derivations are in the fixtures' comments.

use hpram::driver::Hpram;
use netcore::study::{ConfigFile, Model};

fn run(path: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("fixture readable");
    match Hpram.run_config(&ConfigFile::new(&text, path.parent().expect("in a directory"))) {
        Ok(r) => serde_json::json!({ "summary": r.summary, "report": r.report }),
        Err(e) => {
            serde_json::json!({ "error": e.to_string(), "fault": format!("{:?}", e.fault()) })
        }
    }
}

#[test]
fn fixtures() {
    insta::glob!("../../../../fixtures/hpram", "*.toml", |path| {
        insta::assert_json_snapshot!(run(path));
    });
}

/// The `tau` of each good fixture, as exact cases E2/E3 derive it (`docs/models/hpram.md`, Choices:
/// Exact cases and studies are ours), or the library programs' step counts (see the fixtures'
/// comments).
#[test]
fn fixture_costs() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/hpram");
    for (file, tau) in [
        ("tree-hier-p4-hypercube.toml", 27),
        ("tree-flat-p4-hypercube.toml", 51),
        ("tree-two-level-p4-hypercube.toml", 32),
        ("tree-hier-p4-uniform.toml", 34),
        ("tree-hier-p4-mesh.toml", 34),
        ("tree-hier-p4-mesh-exact.toml", 28),
        ("alg1-p16-mesh.toml", 7),
        ("alg1-p32-hypercube.toml", 4),
        ("tree-prefix-hier-p4-pram.toml", 41),
        ("tree-prefix-flat-p4-hypercube.toml", 153),
        ("tree-hier-p4-count-only.toml", 27),
        ("tree-hier-p2_30-count-only.toml", 2389),
        ("fft-hier-p4-hypercube.toml", 72),
        ("fft-two-level-p4-uniform.toml", 98),
        ("fft-perm-p4-hypercube.toml", 92),
        ("shape-e1-hypercube.toml", 33),
        ("fft-hier-p2_30-count-only.toml", 4250),
        ("library-prefix-sums-n8-hypercube.toml", 178),
        ("library-hot-spot-read-n16-priority-mesh.toml", 33),
        ("library-file-prefix-sums.toml", 40),
    ] {
        assert_eq!(run(&root.join(file))["report"]["tau"], tau, "{file}");
    }
}

/// A count-only config reports the full run's cost tree: every field but the mode, the result
/// and the replay hash is equal.
#[test]
fn count_only_fixture_equals_full() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/hpram");
    let strip = |mut v: serde_json::Value| {
        let report = v["report"].as_object_mut().expect("a report");
        for key in ["mode", "result", "verified", "trace_hash"] {
            report.remove(key);
        }
        v["report"].take()
    };
    let full = strip(run(&root.join("tree-hier-p4-hypercube.toml")));
    assert_eq!(strip(run(&root.join("tree-hier-p4-count-only.toml"))), full);
}
