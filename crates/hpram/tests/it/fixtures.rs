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
        ("network-tree-hier-p4-hypercube.toml", 27),
        ("per-level-tree-hier-p4.toml", 27),
        ("per-level-tree-hier-p4-uniform.toml", 34),
        ("network-fft-hier-p16-mesh.toml", 229),
        ("shape-nested-p8-hypercube.toml", 31),
        ("tree-hier-p64-power.toml", 188),
        ("tree-prefix-two-level-p16-uniform.toml", 319),
        ("tree-reduce-hier-p2_63-count-only.toml", 10208),
    ] {
        assert_eq!(run(&root.join(file))["report"]["tau"], tau, "{file}");
    }
}

/// A count-only config reports the full run's cost tree: every field but the config (whose
/// `mode` differs), the mode, the result and the replay hash is equal.
#[test]
fn count_only_fixture_equals_full() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/hpram");
    let strip = |mut v: serde_json::Value| {
        let report = v["report"].as_object_mut().expect("a report");
        for key in ["config", "mode", "result", "verified", "trace_hash"] {
            report.remove(key);
        }
        v["report"].take()
    };
    let full = strip(run(&root.join("tree-hier-p4-hypercube.toml")));
    assert_eq!(strip(run(&root.join("tree-hier-p4-count-only.toml"))), full);
}

/// The network fixture by hand (paper Section 3.1; `docs/models/hpram.md`, H-PRAM on a
/// network), link delay 1 on the 2-cube: the root's barrier is a scan over the binomial tree
/// rooted at node 0 (node 3 -> 2 -> 0 is 2 hops up, then 2 down): 4, against the preset's
/// `s_alpha(4) = 2`; a 2-node sub-cube's barrier is 1 + 1 = 2 against `s_alpha(2) = 1`; the
/// root's beta-sync over the designated nodes 0 and 2 (one hop apart) is 1 up + 1 down = 2
/// against `s_beta(2, 4) = log2 2 = 1`. The per-level model calibrated on the run prices it at
/// its measured time (every level's constructs have one size here).
#[test]
fn network_fixture_by_hand() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/hpram");
    let report = run(&root.join("network-tree-hier-p4-hypercube.toml"));
    let net = &report["report"]["network"];
    assert_eq!(net["equals_abstract"], true);
    assert_eq!(report["report"]["result"], 120);
    let find = |construct: &str, level: u64| {
        let rows = net["vs_preset"].as_array().expect("rows");
        let row = rows.iter().find(|r| r["construct"] == construct && r["level"] == level);
        let row = row.expect("a construct row");
        (row["measured"].as_f64().expect("mean"), row["predicted"].as_u64().expect("value"))
    };
    assert_eq!(find("barrier", 1), (4.0, 2));
    assert_eq!(find("barrier", 2), (2.0, 1));
    assert_eq!(find("beta-sync", 1), (2.0, 1));
    assert_eq!(net["per_level_tau"], net["run"]["time"]);
}

/// The per-level pricing of E3 by hand (the fixture's comment): 27 + 8 = 35 Exact, the
/// two-stage total unchanged at 18.
#[test]
fn per_level_fixture_by_hand() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/hpram");
    let report = run(&root.join("per-level-tree-hier-p4.toml"));
    let model = &report["report"]["per_level_model"];
    assert_eq!(
        (model["tau"].as_u64(), model["formulas"]["two_stage"].as_u64()),
        (Some(35), Some(18))
    );
}

/// The per-level model under uniform memory by hand (the fixture's comment; paper Section
/// 2.3.1): every node pays the root's `l_1 = 5`, so E3 costs `(1 + 2·5) + (1 + 2·5) + (3 + 5·5)
/// = 50` in every formula (no synchronisation cost), against 22 non-uniform (`l_2 = l_3 = 1`).
#[test]
fn per_level_uniform_fixture_by_hand() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/hpram");
    let report = run(&root.join("per-level-tree-hier-p4-uniform.toml"));
    let model = &report["report"]["per_level_model"];
    assert_eq!(model["tau"].as_u64(), Some(50));
    for f in ["exact", "phase_refined", "simplified", "two_stage"] {
        assert_eq!(model["formulas"][f].as_u64(), Some(50), "{f}");
    }
}

/// A config from text (the fixtures' directory for relative paths).
fn run_text(text: &str) -> serde_json::Value {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/hpram");
    match Hpram.run_config(&ConfigFile::new(text, &dir)) {
        Ok(r) => serde_json::json!({ "report": r.report }),
        Err(e) => {
            serde_json::json!({ "error": e.to_string(), "fault": format!("{:?}", e.fault()) })
        }
    }
}

/// The deepest hierarchy a config may ask for runs within a test thread's stack (2 MiB): a shape
/// nested 63 deep on `P = 1` with `max_depth = 64` (the cap), an `r` at the bottom, in full
/// and count-only mode. Each level costs nothing but the bottom leaf's one read at `ℓ(1) = 1`
/// (hypercube: `s_α(1) = 0`, `s_β(1, 1) = ⌈log₂1⌉ = 0`), so `tau = 1`. A shape nested
/// 200000 deep is refused by the parser at the 64th `[` (offset 3·63), not a stack overflow.
#[test]
fn deepest_shape_runs_and_deeper_is_refused() {
    let nest = |d: usize, leaf: &str| format!("{}{leaf}{}", "[1:".repeat(d), "]".repeat(d));
    for mode in ["full", "count-only"] {
        let leaf = if mode == "full" { "r" } else { "c" };
        let text = format!(
            "algorithm = \"shape\"\nprocs = 1\nmax_depth = 64\nmode = \"{mode}\"\nshape = \"{}\"\n",
            nest(63, leaf)
        );
        let report = run_text(&text);
        assert_eq!(report["report"]["tau"], 1, "{mode}: {report}");
        assert_eq!(report["report"]["depth"], 64, "{mode}");
    }
    let text = format!("algorithm = \"shape\"\nprocs = 1\nshape = \"{}\"\n", nest(200_000, ""));
    let report = run_text(&text);
    let error = report["error"].as_str().expect("an error");
    assert!(error.contains("nested at most 63 deep") && error.contains("offset 189"), "{error}");
    assert_eq!(report["fault"], "Input");
}
