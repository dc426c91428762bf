//! The sweep specs: every point of every study of the default sweep and of the large preset
//! (the fixed values, the cartesian product of `grid`, the zipped `zip` lists, and the same
//! with `quick` overriding the axes it names) is accepted by the study's `prepare`.

use dbsp_hmos::driver::DbspHmos;
use netcore::study::Model;

fn points(fixed: &toml::Table, grid: &toml::Table, zip: &toml::Table) -> Vec<toml::Table> {
    let mut out = vec![fixed.clone()];
    for (key, values) in grid {
        let values = values.as_array().expect("grid axes are lists");
        out = out
            .iter()
            .flat_map(|p| {
                values.iter().map(move |v| {
                    let mut p = p.clone();
                    p.insert(key.clone(), v.clone());
                    p
                })
            })
            .collect();
    }
    let len = zip.values().filter_map(|v| v.as_array()).map(Vec::len).max().unwrap_or(0);
    if len > 0 {
        out = out
            .iter()
            .flat_map(|p| {
                (0..len).map(move |i| {
                    let mut p = p.clone();
                    for (key, values) in zip {
                        p.insert(key.clone(), values.as_array().expect("zip axes")[i].clone());
                    }
                    p
                })
            })
            .collect();
    }
    out
}

/// A cell as rows and claim filters spell it (a string without quotes, a number as JSON).
fn cell(value: &toml::Value) -> String {
    match serde_json::to_value(value).expect("json") {
        serde_json::Value::String(s) => s,
        other => other.to_string(),
    }
}

/// Whether a point's rows can satisfy `filter`: every filtered column that is a parameter of
/// the point has the filtered value, and `alpha`, `beta` (the rows of each pair of the
/// point's `alpha_beta`, re-priced) come from one of its pairs; other columns are outputs.
fn may_select(point: &toml::Table, filter: &[(String, String)]) -> bool {
    let params =
        filter.iter().all(|(column, value)| point.get(column).is_none_or(|v| cell(v) == *value));
    let wanted = |column: &str| filter.iter().find(|(c, _)| c == column).map(|(_, v)| v.clone());
    let pair_ok = match (wanted("alpha"), wanted("beta"), point.get("alpha_beta")) {
        (None, None, _) | (_, _, None) => true,
        (alpha, beta, Some(pairs)) => pairs.as_array().expect("pairs").iter().any(|pair| {
            let pair = pair.as_array().expect("a pair");
            alpha.as_ref().is_none_or(|a| cell(&pair[0]) == *a)
                && beta.as_ref().is_none_or(|b| cell(&pair[1]) == *b)
        }),
    };
    params && pair_ok
}

/// Every point is accepted, and every claim of the study has a point whose rows it can select
/// (a claim without one reports "no rows match": the large preset once priced four (alpha,
/// beta) pairs, leaving five route claims without rows).
#[test]
fn sweep_spec_points_are_valid() {
    let studies = DbspHmos.studies();
    for file in ["dbsp-hmos.toml", "dbsp-hmos-large.toml"] {
        let path = format!("{}/../../fixtures/sweeps/{file}", env!("CARGO_MANIFEST_DIR"));
        let spec: toml::Table =
            toml::from_str(&std::fs::read_to_string(path).expect("spec")).expect("toml");
        for entry in spec["study"].as_array().expect("studies") {
            let name = entry["name"].as_str().expect("name");
            let study = studies.iter().find(|s| s.name() == name).expect(name);
            let table =
                |key: &str| entry.get(key).and_then(|v| v.as_table()).cloned().unwrap_or_default();
            let mut variants = vec![(table("grid"), table("zip"))];
            if entry.get("quick").is_some() {
                let (mut grid, mut zip) = (table("grid"), table("zip"));
                for (key, value) in table("quick") {
                    if zip.contains_key(&key) {
                        zip.insert(key, value);
                    } else {
                        grid.insert(key, value);
                    }
                }
                variants.push((grid, zip));
            }
            for (grid, zip) in variants {
                let points = points(&table("fixed"), &grid, &zip);
                for point in &points {
                    let json = serde_json::to_value(point).expect("json");
                    if let Err(e) = study.prepare(&json) {
                        panic!("{file}: {name} rejects {json}: {e}");
                    }
                }
                for claim in study.claims() {
                    assert!(
                        points.iter().any(|p| may_select(p, &claim.filter)),
                        "{file}: {name} has no point for the claim `{}` (filter {:?})",
                        claim.statement,
                        claim.filter
                    );
                }
            }
        }
    }
}

/// Every column of every study is in its glossary (the report's glossary and the plots' axis
/// labels come from it): one small point per study runs, and each of its parameters and row
/// columns has an entry; no row column repeats a parameter (xtask rejects such rows).
#[test]
fn glossary_covers_every_column() {
    let ab = [[0.5, 0.5]];
    let small = [
        (
            "dbsp-primitives",
            serde_json::json!({"primitive": "route_two_phase", "log_n": 4, "skew": 4, "direction": "scatter", "alpha_beta": ab}),
        ),
        (
            "dbsp-lemma2",
            serde_json::json!({"log_n": 4, "tau": 1.5, "r": 3, "a": 2.0, "eps": 0.3, "pattern": "random", "alpha_beta": ab}),
        ),
        (
            "dbsp-lemma3",
            serde_json::json!({"log_n": 6, "k": 1, "r": 3, "a": 2.0, "eps": 0.3, "pattern": "random", "alpha_beta": ab, "sizes": "paper"}),
        ),
        (
            "dbsp-slowdown",
            serde_json::json!({"log_n": 6, "scheme": "hmos", "k": 1, "tau": 1.5, "a": 2.0, "eps": 0.3, "pattern": "random", "alpha_beta": ab}),
        ),
        (
            "dbsp-crossover",
            serde_json::json!({"log_n": 6, "scheme": "single_copy_hashed", "k": 0, "tau": 1.5, "level0": "hashed", "a": 2.0, "eps": 0.3, "pattern": "copy_adversary", "alpha_beta": ab}),
        ),
        (
            "dbsp-theorem3",
            serde_json::json!({"log_n": 6, "k": 1, "tau": 1.5, "r": 3, "level0": "hashed", "a": 2.0, "eps": 0.3, "pattern": "copy_adversary", "alpha_beta": ab, "sizes": "paper"}),
        ),
        ("dbsp-expansion", serde_json::json!({"log_n": 3, "tau": 1.05, "graph": "hashed"})),
    ];
    let studies = DbspHmos.studies();
    assert_eq!(studies.len(), small.len());
    for (name, params) in small {
        let study = studies.iter().find(|s| s.name() == name).expect(name);
        let glossary: std::collections::BTreeSet<String> =
            study.glossary().into_iter().map(|c| c.name).collect();
        let point = study.prepare(&params).unwrap_or_else(|e| panic!("{name}: {e}"));
        for key in point.params.keys() {
            assert!(glossary.contains(key), "{name}: param {key} not in the glossary");
        }
        let rows = point.run(&mut netcore::rng::seeded(1, 0)).expect(name);
        assert!(!rows.is_empty(), "{name}");
        for row in &rows {
            for key in row.keys() {
                assert!(glossary.contains(key), "{name}: {key} not in the glossary");
                assert!(!point.params.contains_key(key), "{name}: {key} repeats a parameter");
            }
        }
        let columns: std::collections::BTreeSet<&String> =
            point.params.keys().chain(rows[0].keys()).collect();
        for entry in &glossary {
            assert!(columns.contains(entry), "{name}: glossary entry {entry} is no column");
        }
    }
}

/// Eq. 3's term exponents at eps = 0.3, beta = 1/2 (the `dbsp-lemma3` exponent claims' bands),
/// by hand: the terms are `alpha + (1 - alpha) eps / 2^k`, `alpha + ((2 - alpha) eps -
/// alpha) / 2^j` (j = 1..k) and `beta`.
/// k = 1, alpha = 1/2: 0.5 + 0.15 / 2 = 0.575, 0.5 + (0.45 - 0.5) / 2 = 0.475, 0.5.
/// k = 2, alpha = 3/4: 0.75 + 0.075 / 4 = 0.76875, 0.75 - 0.375 / 2 = 0.5625,
/// 0.75 - 0.375 / 4 = 0.65625, 0.5.
#[test]
fn eq3_exponents_by_hand() {
    use dbsp_hmos::driver::studies::lemma3::eq3_exponents;
    let close =
        |(a, b): (f64, f64), (c, d): (f64, f64)| (a - c).abs() < 1e-12 && (b - d).abs() < 1e-12;
    assert!(close(eq3_exponents(1, 0.5, 0.5, 0.3), (0.475, 0.575)));
    assert!(close(eq3_exponents(2, 0.75, 0.5, 0.3), (0.5, 0.76875)));
}
