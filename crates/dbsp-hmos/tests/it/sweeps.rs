//! The sweep specs: every point of every study of the default sweep and of the large preset
//! (the fixed values, the cartesian product of `grid`, the zipped `zip` lists, and the same
//! with `quick` overriding the axes it names) is accepted by the study's `prepare`.

use dbsp_hmos::DbspHmos;
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
                for point in points(&table("fixed"), &grid, &zip) {
                    let json = serde_json::to_value(&point).expect("json");
                    if let Err(e) = study.prepare(&json) {
                        panic!("{file}: {name} rejects {json}: {e}");
                    }
                }
            }
        }
    }
}
