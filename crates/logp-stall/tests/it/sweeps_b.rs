//! The sweep spec `fixtures/sweeps/logp-stall.toml`: every point of part B's studies parses
//! and validates (default and quick grids), and a few small points run, verify, and fall in
//! the claimed bands.

use logp_stall::LogpStall;
use netcore::study::Model;
use serde_json::{Map, Value};

fn to_json(v: &toml::Value) -> Value {
    serde_json::to_value(v).expect("toml values are json values")
}

/// The points of one `[[study]]` entry: fixed x grid (with `quick` overrides) x zip.
fn points(entry: &toml::Table, quick: bool) -> Vec<Map<String, Value>> {
    let table = |k: &str| entry.get(k).and_then(|v| v.as_table()).cloned().unwrap_or_default();
    let (fixed, mut grid, zip, q) = (table("fixed"), table("grid"), table("zip"), table("quick"));
    if quick {
        for (k, v) in q {
            grid.insert(k, v);
        }
    }
    let mut out = vec![fixed.iter().map(|(k, v)| (k.clone(), to_json(v))).collect::<Map<_, _>>()];
    for (k, values) in &grid {
        let values = values.as_array().expect("grid axes are arrays");
        out = out
            .into_iter()
            .flat_map(|p| {
                values.iter().map(move |v| {
                    let mut p = p.clone();
                    p.insert(k.clone(), to_json(v));
                    p
                })
            })
            .collect();
    }
    let n = zip.values().next().and_then(|v| v.as_array()).map_or(0, Vec::len);
    if n > 0 {
        out = out
            .into_iter()
            .flat_map(|p| {
                let zip = zip.clone();
                (0..n).map(move |i| {
                    let mut p = p.clone();
                    for (k, v) in &zip {
                        p.insert(k.clone(), to_json(&v.as_array().expect("zip arrays")[i]));
                    }
                    p
                })
            })
            .collect();
    }
    out
}

#[test]
fn sweep_spec_points_validate_and_small_ones_pass() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/sweeps/logp-stall.toml");
    let spec: toml::Table = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let studies = LogpStall.studies();
    let mut checked = 0;
    for entry in spec["study"].as_array().unwrap().iter().map(|e| e.as_table().unwrap()) {
        let name = entry["name"].as_str().unwrap();
        // Part B's studies only (part A tests its own entries).
        if !["logp-theorem2", "logp-corollary1"].contains(&name) {
            continue;
        }
        let study = studies.iter().find(|s| s.name() == name).expect("registered study");
        for quick in [false, true] {
            for p in points(entry, quick) {
                let p = Value::Object(p);
                study.check_json(&p).unwrap_or_else(|e| panic!("{name} {p}: {e}"));
                checked += 1;
            }
        }
        // Run the smallest points (log_p = 6, L/G = 1) and check verification and bands.
        let small = |p: &Map<String, Value>| {
            p.get("log_p") == Some(&Value::from(6)) && p.get("l_over_g") == Some(&Value::from(1))
        };
        for p in points(entry, true).into_iter().filter(small) {
            let mut rng = netcore::rng::seeded(1, 0);
            let row = study.run_json(&Value::Object(p.clone()), &mut rng).unwrap();
            assert_eq!(row["verified"], true, "{name} {p:?}");
            assert_eq!(row["legal"], true, "{name} {p:?}");
            assert_eq!(row["replay_equal"], true, "{name} {p:?}");
            let col = if name == "logp-theorem2" { "ratio_thm2_log" } else { "ratio_cor1_log" };
            let x = row[col].as_f64().unwrap();
            let (lo, hi) = if name == "logp-theorem2" { (0.25, 2.5) } else { (0.5, 5.0) };
            assert!((lo..=hi).contains(&x), "{name} {p:?}: {col} = {x}");
        }
    }
    assert!(checked > 100, "only {checked} points checked");
}
