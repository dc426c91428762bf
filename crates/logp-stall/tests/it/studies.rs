//! Small points of every study run, verify, pass the checker and fall in the claimed bands.
//! (That every point of `fixtures/sweeps/logp-stall.toml` validates is checked for all models
//! at once by xtask's `sweep --dry-run` test.)

use logp_stall::LogpStall;
use netcore::study::Model;
use serde_json::json;

fn run(study: &str, params: serde_json::Value) -> serde_json::Value {
    let studies = LogpStall.studies();
    let s = studies.iter().find(|s| s.name() == study).expect("registered");
    let point = s.prepare(&params).unwrap_or_else(|e| panic!("{study} {params}: {e}"));
    let mut rng = netcore::rng::seeded(1, 0);
    let mut rows = point.run(&mut rng).expect("runs");
    assert_eq!(rows.len(), 1, "one row per point");
    // As xtask writes it: the parameters, then the row.
    let mut full = point.params.clone();
    full.append(&mut rows[0]);
    serde_json::Value::Object(full)
}

#[test]
fn separation_points() {
    for alg in ["delta", "sf_tree", "bsp"] {
        for adv in ["benign", "worst", "random"] {
            let row = run(
                "logp-separation",
                json!({"log_p": 5, "L": 4, "delta": "one", "algorithm": alg, "adversary": adv, "placement": "random"}),
            );
            assert_eq!(row["verified"], true, "{row}");
            assert_eq!(row["legal"], true, "{row}");
            if alg != "bsp" {
                assert_eq!(row["ratio"], 1.0, "{row}");
            }
        }
    }
    // T_delta = 5G + 2L + delta + 1 = 20 + 8 + 1 + 1 = 30; T_SF = 5 * 8 + 4 + 1 = 45.
    let d = run("logp-separation", json!({"log_p": 5, "L": 4, "delta": 1, "algorithm": "delta"}));
    assert_eq!(d["T"], 30.0);
    let s = run("logp-separation", json!({"log_p": 5, "L": 4, "algorithm": "sf_tree"}));
    assert_eq!(s["T"], 45.0);
}

#[test]
fn rules_points() {
    for rule in ["stall_free", "immediate_blocking", "delta_one", "delta_latency"] {
        for workload in ["hotspot", "random_traffic"] {
            for adv in ["benign", "worst", "lazy", "random"] {
                let row = run(
                    "logp-rules",
                    json!({"log_p": 4, "G": 2, "L": 4, "r": 8, "m": 2, "rule": rule,
                           "workload": workload, "adversary": adv}),
                );
                assert_eq!(row["legal"], true, "{row}");
                assert_eq!(row["verified"], true, "{row}");
                if rule == "stall_free" && workload == "hotspot" {
                    assert_eq!(row["capacity_violation"], true, "{row}");
                } else if rule != "stall_free" {
                    assert_eq!(row["completed"], true, "{row}");
                }
            }
        }
    }
}

#[test]
fn bad_study_params_are_config_errors() {
    let studies = LogpStall.studies();
    let s = studies.iter().find(|s| s.name() == "logp-separation").unwrap();
    let e = s.prepare(&json!({"log_p": 2, "L": 8, "algorithm": "delta"})).unwrap_err();
    assert_eq!(e.to_string(), "L must satisfy L <= p (got L=8, p=4)");
    assert_eq!(e.fault(), netcore::fault::Fault::Input);
    let e = s.prepare(&json!({"log_p": 4, "L": 4, "algorithm": "magic"})).unwrap_err();
    assert_eq!(e.to_string(), "unknown variant `magic`, expected one of `delta`, `sf_tree`, `bsp`");
    assert_eq!(e.fault(), netcore::fault::Fault::Input);
}

/// The smallest points of `logp-theorem2` and `logp-corollary1` (log p = 6, L/G = 1) verify,
/// are legal, replay equal on the direct machine, and fall in the claimed bands.
#[test]
fn simulation_points() {
    for delta in ["one", "gap", "latency"] {
        for workload in ["random_traffic", "hotspot"] {
            for (g, l) in [(0.5, 0.5), (1.0, 1.0), (2.0, 2.0)] {
                let row = run(
                    "logp-theorem2",
                    json!({"G": 2, "r": 4, "log_p": 6, "l_over_g": 1, "delta": delta,
                           "workload": workload, "g_over_gap": g, "l_over_latency": l}),
                );
                check_simulated(&row, "ratio_thm2_log", 0.25, 2.5);
            }
        }
    }
    for delta in ["one", "latency"] {
        let row = run(
            "logp-corollary1",
            json!({"G": 2, "r": 4, "g_over_gap": 1.0, "l_over_latency": 1.0,
                   "workload": "random_traffic", "log_p": 6, "l_over_g": 1, "delta": delta}),
        );
        check_simulated(&row, "ratio_cor1_log", 0.5, 5.0);
    }
}

fn check_simulated(row: &serde_json::Value, column: &str, lo: f64, hi: f64) {
    assert_eq!(row["verified"], true, "{row}");
    assert_eq!(row["legal"], true, "{row}");
    assert_eq!(row["replay_equal"], true, "{row}");
    let x = row[column].as_f64().unwrap();
    assert!((lo..=hi).contains(&x), "{column} = {x} outside [{lo}, {hi}]: {row}");
}
