//! Small points of every study run, verify, pass the checker and fall in the claimed bands.
//! (That every point of `fixtures/sweeps/logp-stall.toml` validates is checked for all models
//! at once by xtask's `sweep --dry-run` test.)

use logp_stall::driver::LogpStall;
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

/// Both sorts and both prefixes run in the simulation studies; the row says which were used,
/// the fan-in and the supersteps of a full cycle the ledger counted: at log p = 6, G = 2,
/// L/G = 16 (L = 32), δ = L (C = 32), g = 2, l = 32 the d-ary fan-in is
/// max(2, min(ceil(32/2), floor(32/2))) = 16 (scans of 2 ceil(log_16 64) + 1 = 5 supersteps),
/// the binary one 2 (2 * 6 + 1 = 13); a cycle is 1 (sim-local) + sort + 2 scans + 1 (route)
/// with the bitonic sort's 1 + 6 * 7 / 2 = 22 or the cascade's: blocks of b = 2 ceil(C/G) = 32
/// keys take fan-in 4, 12 ceil(6 / 2) = 36 supersteps: 34, 50, 48, 64.
#[test]
fn simulation_points_for_every_sort_and_prefix() {
    for (sort, sort_steps) in [("bitonic", 22), ("cascade", 36)] {
        for (prefix, fanin, scan) in [("binary", 2, 13), ("dary", 16, 5)] {
            let row = run(
                "logp-theorem2",
                json!({"G": 2, "r": 4, "log_p": 6, "l_over_g": 16, "delta": "latency",
                       "workload": "random_traffic", "sort": sort, "prefix": prefix}),
            );
            check_simulated(&row, "ratio_thm2", 1.0, 200.0);
            assert_eq!(
                (&row["sort"], &row["prefix"], &row["fanin"]),
                (&json!(sort), &json!(prefix), &json!(fanin))
            );
            assert_eq!(row["supersteps_per_cycle"], json!(1 + sort_steps + 2 * scan + 1), "{row}");
            assert_eq!(row["invariants_ok"], true, "{row}");
        }
    }
}

fn check_simulated(row: &serde_json::Value, column: &str, lo: f64, hi: f64) {
    assert_eq!(row["verified"], true, "{row}");
    assert_eq!(row["legal"], true, "{row}");
    assert_eq!(row["replay_equal"], true, "{row}");
    let x = row[column].as_f64().unwrap();
    assert!((lo..=hi).contains(&x), "{column} = {x} outside [{lo}, {hi}]: {row}");
}

/// Every column a study writes (its parameters, then its row) has a glossary entry.
#[test]
fn glossaries_cover_every_column() {
    let points = [
        ("logp-separation", json!({"log_p": 4, "L": 4, "algorithm": "delta"})),
        (
            "logp-rules",
            json!({"log_p": 4, "G": 2, "L": 4, "r": 8, "m": 2, "rule": "delta_one",
                   "workload": "hotspot", "adversary": "worst"}),
        ),
        (
            "logp-theorem2",
            json!({"G": 2, "r": 4, "log_p": 6, "l_over_g": 1, "delta": "one",
                   "workload": "hotspot"}),
        ),
        (
            "logp-corollary1",
            json!({"G": 2, "r": 4, "log_p": 6, "l_over_g": 1, "delta": "one",
                   "workload": "hotspot"}),
        ),
    ];
    let studies = LogpStall.studies();
    for (study, params) in points {
        let s = studies.iter().find(|s| s.name() == study).expect("registered");
        let glossary: Vec<String> = s.glossary().into_iter().map(|c| c.name).collect();
        let row = run(study, params);
        for column in row.as_object().expect("an object").keys() {
            assert!(glossary.contains(column), "{study}: no glossary entry for {column}");
        }
        assert_eq!(glossary.len(), row.as_object().map_or(0, |o| o.len()), "{study}: {glossary:?}");
    }
}

/// The findings of a small `logp-separation` grid, derived by hand (L = G = 4, delta = 1,
/// placement high): delta-LogP T = 5G + 2L + delta + 1 = 30 at every p; BSP-native
/// T = 6 + 2g + 2l = 22, T / L = 5.5, so delta-LogP takes 30 / 22 = 1.36 times as long; the
/// benign adversary never stalls; at log p = 5 the stall-free tree takes
/// R(L + G) + L + 1 = 5 * 8 + 5 = 45, T / L = 11.25 (printed 11.2), against 30 / 4 = 7.5.
#[test]
fn separation_findings_from_rows() {
    let studies = LogpStall.studies();
    let s = studies.iter().find(|s| s.name() == "logp-separation").expect("registered");
    let mut rows = Vec::new();
    for log_p in [4, 5] {
        for alg in ["delta", "sf_tree", "bsp"] {
            for adv in ["benign", "worst"] {
                let row = run(
                    "logp-separation",
                    json!({"log_p": log_p, "L": 4, "delta": "one", "algorithm": alg,
                           "adversary": adv}),
                );
                rows.push(row.as_object().cloned().expect("an object"));
            }
        }
    }
    let findings = s.findings(&rows);
    assert_eq!(findings.len(), 3, "{findings:#?}");
    assert!(findings[0].starts_with(
        "BSP-native 2-compaction (g = G, l = L) is faster than delta-LogP at every measured p: \
         its T / L is 5.5 over every p and L, while delta-LogP takes 1.36 times as long"
    ));
    assert!(findings[1].contains("benign 0, worst "), "{}", findings[1]);
    assert!(
        findings[1].ends_with("but never its running time (T equals the formula on every row).")
    );
    assert_eq!(
        findings[2],
        "At log p = 5, the stall-free tree's T / L is 11.2 against delta-LogP's 7.5."
    );
}
