//! Part A studies: every point of `fixtures/sweeps/logp-stall.toml` for `logp-separation` and
//! `logp-rules` validates, and small points run, verify and pass the checker.

use logp_stall::LogpStall;
use netcore::study::Model;
use serde_json::json;

fn run(study: &str, params: serde_json::Value) -> serde_json::Value {
    let studies = LogpStall.studies();
    let s = studies.iter().find(|s| s.name() == study).expect("registered");
    s.check_json(&params).unwrap_or_else(|e| panic!("{study} {params}: {e}"));
    let mut rng = netcore::rng::seeded(1, 0);
    serde_json::Value::Object(s.run_json(&params, &mut rng).expect("runs"))
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
    assert_eq!(d["T"], 30);
    let s = run("logp-separation", json!({"log_p": 5, "L": 4, "algorithm": "sf_tree"}));
    assert_eq!(s["T"], 45);
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
    let e = s.check_json(&json!({"log_p": 2, "L": 8, "algorithm": "delta"})).unwrap_err();
    assert_eq!(e.to_string(), "L must satisfy L <= p (got L=8, p=4)");
    let e = s.check_json(&json!({"log_p": 4, "L": 4, "algorithm": "magic"})).unwrap_err();
    assert_eq!(e.to_string(), "algorithm must be one of delta, sf_tree, bsp (got \"magic\")");
}
