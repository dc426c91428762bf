//! The sweep studies run on a few points, with their claims checked on the rows; every point of
//! the sweep specs is accepted.

use netcore::fault::Fault;
use netcore::study::{AnyStudy, Model, ModelError, Study};
use overlap_ring::driver::OverlapRing;
use overlap_ring::driver::studies::NaiveVsDmax;
use overlap_ring::driver::studies::naive_vs_dmax::Params;
use overlap_ring::guest::Program;
use serde_json::json;

/// The one row of a point of `study`.
fn one<S: Study>(study: &S, params: &S::Params, rng: &mut netcore::rng::SimRng) -> S::Row {
    let point = study.point(params).unwrap();
    let mut rows = study.run(&point, rng).unwrap();
    assert_eq!(rows.len(), 1);
    rows.pop().unwrap()
}

/// The error `study` gives for a sweep point written as JSON.
fn rejects(study: &dyn AnyStudy, params: serde_json::Value) -> ModelError {
    study.prepare(&params).expect_err("point must be rejected")
}

#[test]
fn naive_vs_dmax_ratio_in_band() {
    assert_eq!(OverlapRing.studies()[0].name(), "overlap-naive-vs-dmax");
    for (i, (n, d_long)) in [(8, 2), (16, 8), (32, 32)].into_iter().enumerate() {
        let params = Params { n, steps: 40, d_long, p_long: 0.2, program: Program::Mix };
        let row = one(&NaiveVsDmax, &params, &mut netcore::rng::seeded(3, i as u64));
        assert!(row.verified);
        assert!((0.9..=1.0).contains(&row.ratio), "ratio {} at n={n}", row.ratio);
    }
}

#[test]
fn bad_study_params_are_input_errors() {
    let params = Params { n: 4, steps: 0, d_long: 2, p_long: 0.2, program: Program::Sum };
    let e = NaiveVsDmax.point(&params).unwrap_err();
    assert_eq!(
        e.to_string(),
        "guest steps must be >= 1, slowdown is undefined otherwise (got steps=0)"
    );
    assert_eq!(e.fault(), Fault::Input);
    // An unknown program is a parse error of the point.
    let e = rejects(
        &NaiveVsDmax,
        json!({"n": 8, "steps": 4, "d_long": 2, "p_long": 0.1, "program": "prod"}),
    );
    assert!(e.to_string().contains("unknown variant `prod`"), "{e}");
    assert_eq!(e.fault(), Fault::Input);
}

/// Theorem 2 single-long-link periods `(D + 2m)/(m + 1)`: `n=64, D=30, m=1 -> 16`; `n=128, D=301,
/// m=2 -> 305/3`; `n=256, D=100, m=4 -> 108/5`; naive period `D`.
#[test]
fn single_long_link_periods() {
    use overlap_ring::driver::studies::SingleLongLink;
    use overlap_ring::driver::studies::single_link_params as p;
    for (n, d, m, period) in
        [(64, 30, 1, 16.0), (128, 301, 2, 305.0 / 3.0), (256, 100, 4, 108.0 / 5.0)]
    {
        let row = one(&SingleLongLink, &p(n, d), &mut netcore::rng::seeded(0, 0));
        assert!(row.verified);
        assert_eq!(row.m, m);
        assert!((row.period - period).abs() < 1e-9, "n={n}: period {}", row.period);
        assert!((row.naive_period - f64::from(d)).abs() < 1e-9);
    }
    assert!(SingleLongLink.point(&p(63, 30)).unwrap_err().to_string().contains("n even"));
}

/// Theorem 6 study rows: dilation <= 3, congestion <= 2, verified, on both host kinds; bad
/// kinds and sizes are input errors.
#[test]
fn general_graphs_rows() {
    use overlap_ring::driver::studies::GeneralGraphs;
    use overlap_ring::driver::studies::general_graphs::{Kind, Params};
    for (kind, size) in [(Kind::Bounded, 64), (Kind::CliqueChain, 5)] {
        let p = Params { kind, size, steps: 12, alpha: 1.5 };
        let row = one(&GeneralGraphs, &p, &mut netcore::rng::seeded(1, 0));
        assert!(row.verified && row.dilation <= 3 && row.congestion <= 2, "{row:?}");
    }
    let bad = rejects(&GeneralGraphs, json!({"kind": "star", "size": 64, "steps": 12}));
    assert!(bad.to_string().contains("unknown variant `star`"), "{bad}");
    let small = Params { kind: Kind::Bounded, size: 8, steps: 12, alpha: 1.5 };
    let e = GeneralGraphs.point(&small).unwrap_err().to_string();
    assert!(e.contains("size must satisfy size >= 24"), "{e}");
}

/// Section 6 studies on small points: on `H_1(256)` naive meets Theorem 9 exactly and OVERLAP
/// equals it (its copies sit inside base intervals that contain the long links); on
/// `h2_paper(64)` the two-copy strategy runs at slowdown 253/64 against one copy's 505/64.
#[test]
fn lower_bound_rows() {
    use overlap_ring::driver::studies::lower_bounds::{H1Params, H1Scheme, H2Params, H2Scheme};
    use overlap_ring::driver::studies::{H1Bound, H2Bound};
    let p1 = |n, scheme| H1Params { n, steps: 64, scheme, samples: 4 };
    let p2 = |n, scheme| H2Params { n, steps: 64, scheme };
    let rng = &mut netcore::rng::seeded(1, 0);
    let naive = one(&H1Bound, &p1(256, H1Scheme::Naive), rng);
    assert_eq!((naive.host_steps, naive.ratio), (1 + 63 * 16, 1.0));
    let bound = one(&H1Bound, &p1(256, H1Scheme::OneCopyBound), rng);
    assert!(bound.ratio >= 1.0 && !bound.executed);
    let two = one(&H2Bound, &p2(64, H2Scheme::TwoCopy), rng);
    let one_copy = one(&H2Bound, &p2(64, H2Scheme::Naive), rng);
    assert_eq!((two.row.host_steps, one_copy.row.host_steps, two.row.copies), (253, 505, 2));
    // Fact 4 on h2_paper(64) (d = 8, L = 6, s = 2; tests/it/lower_bounds.rs): the minimum is
    // at neighbouring segments, 8 / (4 6) = 1/3 = d / (2 s L); with the paper's s = d / L it
    // would be 1/2.
    assert!((two.fact4_min - 1.0 / 3.0).abs() < 1e-12);
    assert!((two.fact4_over_formula - 1.0).abs() < 1e-12 && (two.fact4_paper - 0.5).abs() < 1e-12);
    let e = rejects(&H2Bound, json!({"n": 64, "steps": 64, "scheme": "one-copy-bound"}));
    assert!(e.to_string().contains("unknown variant `one-copy-bound`"), "{e}");
    assert!(H1Bound.point(&p1(60, H1Scheme::Naive)).unwrap_err().to_string().contains("square"));
    let e = H1Bound.point(&H1Params { samples: 0, ..p1(256, H1Scheme::Naive) }).unwrap_err();
    assert!(e.to_string().contains("samples must satisfy"), "{e}");
}

/// Scheme studies on small points: Theorem 4's phase bound and band, Theorem 3's exact load and
/// redundancy, the heavy-tailed comparison; bad schemes are input errors.
#[test]
fn scheme_study_rows() {
    use overlap_ring::driver::studies::{
        HeavyTailed, Theorem4, WorkEfficiency, heavy_tailed, theorem4, work_efficiency,
    };
    let rng = &mut netcore::rng::seeded(0, 0);
    let p = theorem4::Params {
        n: 8,
        d: 16,
        steps: 8,
        bandwidth: 1,
        scheme: theorem4::Scheme::Trapezoid,
    };
    let row = one(&Theorem4, &p, rng);
    // Theorem 4's exact case (tests/it/trapezoid.rs): 96 steps = 5 d ceil(T/r) 0.6 (5 16 2 = 160).
    assert_eq!((row.host_steps, row.phase_ratio, row.load), (96, 0.6, 12));
    let p = work_efficiency::Params {
        n: 256,
        host: work_efficiency::HostKind::Single,
        b: 4,
        steps: 16,
    };
    let row = one(&WorkEfficiency, &p, rng);
    assert_eq!((row.load_over_b, row.redundancy_ratio, row.verified), (1.0, 1.0, true));
    // Theorem 3's regime on the one-long-link host, n = 64: links all 1 but one of n/4 = 16,
    // d_ave = (62 + 16) / 63 = 78/63, L = 6, d_ave L^3 = 267.4; b = 512 is beyond it. Every
    // live processor computes its 512 columns per row without waiting: host steps = T b
    // exactly, efficiency n' / n.
    let p = work_efficiency::Params {
        n: 64,
        host: work_efficiency::HostKind::Single,
        b: 512,
        steps: 8,
    };
    let row = one(&WorkEfficiency, &p, rng);
    assert!((row.d_ave - 78.0 / 63.0).abs() < 1e-12 && row.beyond && row.latency_hidden);
    assert!((row.b_regime - 512.0 / (78.0 / 63.0 * 216.0)).abs() < 1e-12);
    assert_eq!((row.slowdown_over_b, row.verified), (1.0, true));
    assert!((row.efficiency - row.n_prime as f64 / 64.0).abs() < 1e-12);
    // One copy in the same blocks on the same host hides the delay of 16 as well (d_max far
    // below d_ave L^3): the rival the study's claims cannot reject.
    assert_eq!((row.one_copy_slowdown_over_b, row.one_copy_efficiency), (1.0, row.efficiency));
    let p = |scheme| heavy_tailed::Params { n: 64, alpha: 1.2, steps: 16, scheme, host_seed: 1 };
    let naive = one(&HeavyTailed, &p(heavy_tailed::Scheme::Naive), rng);
    let composite = one(&HeavyTailed, &p(heavy_tailed::Scheme::Composite), rng);
    assert_eq!(naive.d_max, composite.d_max, "one host for every scheme");
    assert!(composite.slowdown < naive.slowdown && naive.verified && composite.verified);
    let e = rejects(
        &HeavyTailed,
        json!({"n": 64, "alpha": 1.2, "steps": 16, "scheme": "magic", "host_seed": 1}),
    );
    assert!(e.to_string().contains("unknown variant `magic`"), "{e}");
}

/// Theorem 7 rows: case 1 is exact, case 2 with integral `W` meets the phase bound
/// (`n0 = 8`, `d = 64`: `m = 4 4 = 16`, `W = 2`, 1536 steps = 0.75 of `8 4 16^3 / 64`).
#[test]
fn grid_rows() {
    use overlap_ring::driver::studies::Grid2d;
    use overlap_ring::driver::studies::grid_2d::{Kind, Params};
    let rng = &mut netcore::rng::seeded(0, 0);
    let p = |n, d| Params { kind: Kind::Uniform, n, d, m: None, steps: 16, bandwidth: None };
    let first = one(&Grid2d, &p(8, 1), rng);
    assert_eq!((first.case, first.exact_ratio, first.verified), (1, 1.0, true));
    let two = one(&Grid2d, &p(8, 64), rng);
    assert_eq!((two.case, two.m, two.host_steps, two.phase_ratio), (2, Some(16), 1536, 0.75));
    // A fractional W (n0 = 16, d = 64: m = round(4 16^(2/3)) = 25, W = ceil(25/16) = 2)
    // exceeds the proof's count with W = m/n0 but not the count with W = ceil(m/n0).
    let fractional = one(&Grid2d, &p(16, 64), rng);
    assert_eq!((fractional.case, fractional.m, fractional.w_integral), (2, Some(25), false));
    assert!(fractional.phase_ratio > 1.0 && fractional.phase_ratio_w <= 1.0, "{fractional:?}");
    // A given side is a parameter column, not repeated in the row.
    let given = one(&Grid2d, &Params { m: Some(16), ..p(8, 64) }, rng);
    assert_eq!((given.m, given.host_steps), (None, 1536));
    let bad = rejects(&Grid2d, json!({"kind": "torus", "n": 8, "steps": 4}));
    assert!(bad.to_string().contains("unknown variant `torus`"), "{bad}");
    let composite = Params { kind: Kind::Composite, m: Some(8), ..p(64, 1) };
    assert!(Grid2d.point(&composite).unwrap_err().to_string().contains("m omitted"));
}

/// Growth rows: on a host with one huge link (`n = 256`, `d_ave = 4`, `d_max = 766`) the
/// composite slowdown is far below naive's `d_max` and below `sqrt(d_ave) L^3`, OVERLAP's below
/// half of it and below `d_ave L^3`.
#[test]
fn growth_rows() {
    use overlap_ring::driver::studies::Growth;
    use overlap_ring::driver::studies::growth::{Family, Params, Scheme};
    let rng = &mut netcore::rng::seeded(1, 0);
    let p = |scheme| Params { n: 256, family: Family::Huge, d_ave: 4, scheme, steps: 32 };
    let composite = one(&Growth, &p(Scheme::Composite), rng);
    let naive = one(&Growth, &p(Scheme::Naive), rng);
    let overlap = one(&Growth, &p(Scheme::Overlap), rng);
    assert_eq!((composite.d_max, naive.d_max, overlap.d_max), (766, 766, 766));
    assert!(composite.verified && naive.verified && overlap.verified);
    assert!(overlap.slowdown * 2.0 < naive.slowdown && overlap.ratio_thm2 < 1.0);
    assert!(composite.slowdown * 4.0 < naive.slowdown && composite.ratio_thm5 < 1.0);
    // The same link off the root split (at floor(0.046 n) = 11): no overlap covers it at this
    // n, so OVERLAP pays it about in full, like naive.
    let off = Params { family: Family::HugeOffRoot, ..p(Scheme::Overlap) };
    let off = one(&Growth, &off, rng);
    assert_eq!(off.d_max, 766);
    assert!(off.verified && off.slowdown > 0.9 * naive.slowdown, "{off:?}");
    let bad = rejects(
        &Growth,
        json!({"n": 256, "family": "ring", "d_ave": 4, "scheme": "naive", "steps": 32}),
    );
    assert!(bad.to_string().contains("unknown variant `ring`"), "{bad}");
    // The huge link's delay (n - 1)(d_ave - 1) + 1 must fit 32 bits: 2^20 processors with
    // d_ave = 2^13 would need about 2^33 (it wrapped before); spread delays up to 2 d_ave - 1.
    let huge = Params { n: 1 << 20, d_ave: 1 << 13, ..p(Scheme::Naive) };
    let e = Growth.point(&huge).unwrap_err().to_string();
    assert!(e.contains("d_ave") && e.contains("family = huge"), "{e}");
    let fits = Params { n: 1 << 20, d_ave: 4097, ..p(Scheme::Naive) };
    assert!(Growth.point(&fits).is_ok());
    let spread = Params { family: Family::Spread, d_ave: 1 << 31, ..p(Scheme::Naive) };
    let e = Growth.point(&spread).unwrap_err().to_string();
    assert!(e.contains("family = spread"), "{e}");
    // The sweep's spelling of the blocked scheme is kept, in and out.
    let point = Growth
        .prepare(&json!({"n": 256, "family": "uniform", "d_ave": 4, "scheme": "overlap-blocked", "steps": 8}))
        .unwrap();
    assert_eq!(point.params["scheme"], "overlap-blocked");
}

/// Every `[[study]]` of the sweep specs: each point of its grid (the fixed values with the
/// cartesian product of `grid`, the zipped `zip` lists, and the same with `quick` overriding)
/// is accepted by the study's `point` and its parameters are in the study's glossary; the first point of each study of the small sweep file runs,
/// and no column of its rows repeats a parameter (xtask rejects such rows) or is missing from
/// the glossary.
#[test]
fn sweep_spec_points_are_valid() {
    let studies = OverlapRing.studies();
    for file in ["overlap-ring.toml", "overlap-ring-large.toml"] {
        let path = format!("{}/../../fixtures/sweeps/{file}", env!("CARGO_MANIFEST_DIR"));
        let spec: toml::Table = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        for entry in spec["study"].as_array().unwrap() {
            let name = entry["name"].as_str().unwrap();
            let study = studies.iter().find(|s| s.name() == name).expect(name);
            let glossary: std::collections::BTreeSet<String> =
                study.glossary().into_iter().map(|c| c.name).collect();
            let table =
                |key: &str| entry.get(key).and_then(|v| v.as_table()).cloned().unwrap_or_default();
            let mut variants = vec![(table("grid"), table("zip"))];
            if entry.get("quick").is_some() {
                // `quick` replaces the axes it names, in whichever of grid or zip has them.
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
            let mut count = 0;
            for (grid, zip) in variants {
                for point in points(&table("fixed"), &grid, &zip) {
                    let json = serde_json::to_value(&point).unwrap();
                    let prepared = study
                        .prepare(&json)
                        .unwrap_or_else(|e| panic!("{file}: {name} rejects {json}: {e}"));
                    for key in point.keys() {
                        assert!(prepared.params.contains_key(key), "{name}: {key} not a param");
                    }
                    for key in prepared.params.keys() {
                        assert!(glossary.contains(key), "{name}: param {key} not in the glossary");
                    }
                    if count == 0 && file == "overlap-ring.toml" {
                        let rows = prepared.run(&mut netcore::rng::seeded(1, 0)).unwrap();
                        assert!(!rows.is_empty(), "{name}");
                        for row in rows {
                            assert_eq!(row["verified"], true, "{name}");
                            for key in row.keys() {
                                assert!(
                                    glossary.contains(key),
                                    "{name}: {key} not in the glossary"
                                );
                                let clash = prepared.params.contains_key(key);
                                assert!(!clash, "{name}: row column {key} repeats a parameter");
                            }
                        }
                    }
                    count += 1;
                }
            }
            assert!(count > 0, "{name}");
        }
    }
}

/// The points of one sweep file: `fixed`, times the grid's product, times the zipped lists.
fn points(fixed: &toml::Table, grid: &toml::Table, zip: &toml::Table) -> Vec<toml::Table> {
    let mut out = vec![fixed.clone()];
    for (key, values) in grid {
        let values = values.as_array().unwrap();
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
    let len = zip.values().map(|v| v.as_array().unwrap().len()).max().unwrap_or(0);
    if len > 0 {
        out = out
            .iter()
            .flat_map(|p| {
                (0..len).map(move |i| {
                    let mut p = p.clone();
                    for (key, values) in zip {
                        p.insert(key.clone(), values.as_array().unwrap()[i].clone());
                    }
                    p
                })
            })
            .collect();
    }
    out
}

/// The heavy-tailed findings are computed from the rows: on the quick grid's hosts (Pareto
/// alpha = 1.2, n = 64 and 256, host seed 0) OVERLAP takes exactly naive's host steps (the
/// negative result), while the composite scheme takes fewer.
#[test]
fn heavy_tailed_findings_say_overlap_equals_naive() {
    let study = overlap_ring::driver::studies::HeavyTailed;
    let mut rows = Vec::new();
    for n in [64, 256] {
        for scheme in ["naive", "overlap", "composite"] {
            let params =
                json!({"n": n, "alpha": 1.2, "steps": 64, "scheme": scheme, "host_seed": 0});
            let point = AnyStudy::prepare(&study, &params).unwrap();
            for row in point.run(&mut netcore::rng::seeded(1, 0)).unwrap() {
                let mut all = point.params.clone();
                all.extend(row);
                rows.push(all);
            }
        }
    }
    let findings = AnyStudy::findings(&study, &rows);
    assert_eq!(findings.len(), 2, "{findings:?}");
    assert!(
        findings[0].starts_with(
            "OVERLAP takes exactly as many host steps as naive on every one of the 2 hosts of this grid (n = 64, 256)"
        ),
        "{}",
        findings[0]
    );
    assert!(findings[1].starts_with("the composite scheme takes 0."), "{}", findings[1]);
    // One host where OVERLAP differs from naive turns the sentence into a count.
    let last_overlap = rows.iter().rposition(|r| r["scheme"] == "overlap").unwrap();
    rows[last_overlap]["host_steps"] = json!(1);
    let findings = AnyStudy::findings(&study, &rows);
    assert!(
        findings[0].starts_with("OVERLAP equals naive on 1 of the 2 hosts of this grid (n = 64)"),
        "{}",
        findings[0]
    );
}

/// The crossover study runs naive and the scheme on one host: `ratio_naive` is the quotient of
/// the two slowdowns, the composite beats one copy on a two-level host, and an unknown delay
/// law is an input error.
#[test]
fn crossover_rows_compare_with_naive_on_one_host() {
    use overlap_ring::driver::studies::Crossover;
    use overlap_ring::driver::studies::crossover::{Params, Scheme, Tail};
    let rng = &mut netcore::rng::seeded(0, 0);
    let p = |scheme| Params { n: 256, law: Tail::TwoLevel, steps: 16, scheme, host_seed: 0 };
    let overlap = one(&Crossover, &p(Scheme::Overlap), rng);
    let composite = one(&Crossover, &p(Scheme::Composite), rng);
    assert_eq!(overlap.d_max, composite.d_max, "one host for every scheme");
    assert_eq!(
        overlap.naive_slowdown.to_bits(),
        composite.naive_slowdown.to_bits(),
        "one naive run per host"
    );
    assert!((overlap.ratio_naive - overlap.slowdown / overlap.naive_slowdown).abs() < 1e-12);
    assert!(composite.ratio_naive < 1.0 && overlap.verified && composite.verified);
    assert_eq!(overlap.d_max, 256, "two-level: the long delay is n");
    let e = rejects(
        &Crossover,
        json!({"n": 256, "law": "cauchy", "steps": 16, "scheme": "overlap", "host_seed": 0}),
    );
    assert!(e.to_string().contains("unknown variant `cauchy`"), "{e}");
}

/// The crossover findings: per scheme and law, the smallest `n` at which the mean over host
/// seeds of `slowdown / naive's` is below 1/2, or none; then naive against the bounds at the
/// largest `n`, counted once per host.
#[test]
fn crossover_findings_name_the_crossover_per_law() {
    let study = overlap_ring::driver::studies::Crossover;
    let row = |scheme: &str, law: &str, n: u64, seed: u64, ratio: f64, naive_thm: f64| {
        let value = json!({
            "scheme": scheme, "law": law, "n": n, "host_seed": seed, "ratio_naive": ratio,
            "ratio_thm2": 0.25, "ratio_thm5": 0.5,
            "naive_ratio_thm2": naive_thm / 2.0, "naive_ratio_thm5": naive_thm,
        });
        value.as_object().cloned().unwrap()
    };
    let rows = vec![
        row("overlap", "a", 1024, 0, 1.0, 0.5),
        row("overlap", "a", 1024, 1, 1.0, 0.5),
        row("overlap", "a", 2048, 0, 0.3, 3.0),
        row("overlap", "a", 2048, 1, 0.6, 3.0),
        row("overlap", "b", 1024, 0, 1.0, 0.5),
        row("overlap", "b", 2048, 0, 1.2, 0.5),
        row("composite", "a", 1024, 0, 0.4, 0.5),
        row("composite", "a", 2048, 0, 0.2, 3.0),
    ];
    let findings = AnyStudy::findings(&study, &rows);
    assert_eq!(findings.len(), 4, "{findings:?}");
    assert_eq!(
        findings[0],
        "OVERLAP on a delays: slowdown / naive's (mean of 2 hosts) is 1.00 at n = 1024 and drops below 1/2 only at the largest n = 2048 (0.45; 0.30-0.60 per host): crossover n = 2048."
    );
    assert!(
        findings[1].ends_with("(1.20 per host there): no crossover on this grid."),
        "{}",
        findings[1]
    );
    assert!(findings[2].contains("is 0.40 at n = 1024, already below 1/2"), "{}", findings[2]);
    assert_eq!(
        findings[3],
        "At n = 2048 naive's slowdown exceeds sqrt(d_ave) L^3 on 2 of its 3 hosts (up to 3.00 times) and d_ave L^3 on 2 (up to 1.50 times); OVERLAP's slowdown is at most 0.25 of d_ave L^3 on every row, the composite's at most 0.50 of sqrt(d_ave) L^3."
    );
}

/// The general-graphs study builds clique chains up to `k = 256` (`n = 65,536`, about 8.4 M
/// edges) and refuses a larger `k` as the user's input before building anything (at
/// `k = 65,536`, `k^2` would leave `u32`); the clique chain's constructor refuses that too.
#[test]
fn clique_chain_sizes_are_bounded() {
    use netcore::fault::Fault;
    use overlap_ring::driver::studies::general_graphs::{
        GeneralGraphs, Kind, MAX_CLIQUE_K, Params,
    };
    let point =
        |size| GeneralGraphs.point(&Params { kind: Kind::CliqueChain, size, steps: 8, alpha: 1.5 });
    assert_eq!(MAX_CLIQUE_K, 256);
    assert!(point(256).is_ok());
    let error = point(257).unwrap_err();
    assert_eq!(error.fault(), Fault::Input, "{error}");
    assert!(overlap_ring::graph::GraphHost::clique_chain(65_536).is_err());
}
