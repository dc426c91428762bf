//! The `dbsp-crossover` study: its rows name the series (the scheme with its k) and carry the
//! cost of a `dbsp-slowdown` run of the same point; its findings state the crossover.

use dbsp_hmos::driver::DbspHmos;
use netcore::study::{JsonObject, Model};

fn study() -> Box<dyn netcore::study::AnyStudy> {
    DbspHmos.studies().into_iter().find(|s| s.name() == "dbsp-crossover").expect("registered")
}

/// One point per scheme at n = 2^9 under the copy adversary, m = n^1.5 hashed: the series
/// are `single_copy_hashed`, `flat_majority`, `hmos k = 2`; each row equals the
/// `dbsp-slowdown` row of the same point and seed; the single copy's module weight is at least
/// the adversary's crowding m / n = 2^4.5, about 22.6, so at least 23 on the fullest module
/// (every variable of the lowest modules).
#[test]
fn crossover_rows_name_the_series_and_match_slowdown() {
    let slowdown =
        DbspHmos.studies().into_iter().find(|s| s.name() == "dbsp-slowdown").expect("slowdown");
    for (scheme, k, series) in [
        ("single_copy_hashed", 0, "single_copy_hashed"),
        ("flat_majority", 0, "flat_majority"),
        ("hmos", 2, "hmos k = 2"),
    ] {
        let params = serde_json::json!({"log_n": 9, "scheme": scheme, "k": k, "tau": 1.5,
            "level0": "hashed", "a": 2.0, "eps": 0.3, "pattern": "copy_adversary",
            "alpha_beta": [[0.5, 0.5], [0.25, 0.5]]});
        let rows = study().prepare(&params).unwrap().run(&mut netcore::rng::seeded(1, 0)).unwrap();
        let base = slowdown.prepare(&params).unwrap().run(&mut netcore::rng::seeded(1, 0)).unwrap();
        assert_eq!(rows.len(), 2);
        for (row, base) in rows.iter().zip(&base) {
            assert_eq!(row["series"], series);
            assert_eq!(row["verified"], true);
            for key in ["n", "m", "levels", "alpha", "beta", "cost_per_step", "w_max"] {
                assert_eq!(row[key], base[key], "{scheme}: {key}");
            }
        }
        if scheme == "single_copy_hashed" {
            assert!(rows[0]["w_max"].as_u64().unwrap() >= 23, "{}", rows[0]["w_max"]);
        }
    }
}

fn row(series: &str, n: u64, cost: f64) -> JsonObject {
    let value = serde_json::json!({"series": series, "n": n, "cost_per_step": cost,
        "alpha": 0.5, "beta": 0.5, "pattern": "random"});
    value.as_object().unwrap().clone()
}

/// Synthetic rows at n = 2^8..2^12: one hashed copy `n^0.5`, flat majority `n^0.75`, the
/// HMOS k = 1 `16 n^0.5`. Against flat majority the HMOS crosses where 16 n^0.5 = n^0.75,
/// n = 16^4 = 2^16 (extrapolated: beyond the grid, exact fits so no interval); against one
/// hashed copy the exponents are equal: no crossover. With the HMOS at `n^0.5 / 2` it is
/// cheaper than both at every size (measured from 2^8).
#[test]
fn crossover_findings_state_the_crossover() {
    let sizes = [256_u64, 512, 1024, 2048, 4096];
    let mut rows = Vec::new();
    for &n in &sizes {
        let x = n as f64;
        rows.push(row("single_copy_hashed", n, x.sqrt()));
        rows.push(row("flat_majority", n, x.powf(0.75)));
        rows.push(row("hmos k = 1", n, 16.0 * x.sqrt()));
    }
    let findings = study().findings(&rows);
    assert_eq!(findings.len(), 1, "{findings:?}");
    let f = &findings[0];
    assert!(f.contains("hmos k = 1 0.500 +- 0.000 (2^9.0..2^12.0)"), "{f}");
    assert!(
        f.contains("no crossover of the HMOS with single_copy_hashed up to n = 2^12.0, and none extrapolated"),
        "{f}"
    );
    assert!(
        f.contains("no crossover of the HMOS with flat_majority up to n = 2^12.0; extrapolated at n = 2^16.0 (hmos k = 1; 2^16.0 to 2^16.0"),
        "{f}"
    );
    let cheap: Vec<JsonObject> = sizes
        .iter()
        .flat_map(|&n| {
            let x = n as f64;
            [
                row("single_copy_hashed", n, x.sqrt()),
                row("flat_majority", n, x.powf(0.75)),
                row("hmos k = 1", n, x.sqrt() / 2.0),
            ]
        })
        .collect();
    // Flat majority against one hashed copy: n^0.75 against n^0.5, never.
    assert!(
        f.contains("no crossover of flat_majority with single_copy_hashed up to n = 2^12.0, and none extrapolated"),
        "{f}"
    );
    let f = &study().findings(&cheap)[0];
    assert!(f.contains("the HMOS is cheaper than single_copy_hashed at every n from 2^8.0, the smallest size run"), "{f}");
    assert!(
        f.contains(
            "the HMOS is cheaper than flat_majority at every n from 2^8.0, the smallest size run"
        ),
        "{f}"
    );
}
