//! The sweep study run on a few points, with its claims checked on the rows.

use netcore::study::{Model, Study};
use overlap_ring::OverlapRing;
use overlap_ring::study::{NaiveVsDmax, Params};

#[test]
fn naive_vs_dmax_ratio_in_band() {
    assert_eq!(OverlapRing.studies()[0].name(), "overlap-naive-vs-dmax");
    for (i, (n, d_long)) in [(8, 2), (16, 8), (32, 32)].into_iter().enumerate() {
        let params = Params { n, steps: 40, d_long, p_long: 0.2, program: "mix".into() };
        NaiveVsDmax.check(&params).unwrap();
        let row = NaiveVsDmax.run(&params, &mut netcore::rng::seeded(3, i as u64)).unwrap();
        assert!(row.verified);
        assert!((0.9..=1.0).contains(&row.ratio), "ratio {} at n={n}", row.ratio);
    }
}

#[test]
fn bad_study_params_are_config_errors() {
    let params = Params { n: 4, steps: 0, d_long: 2, p_long: 0.2, program: "sum".into() };
    assert_eq!(
        NaiveVsDmax.check(&params).unwrap_err().to_string(),
        "guest steps must be >= 1, slowdown is undefined otherwise (got steps=0)"
    );
}

/// Spec 3 verified periods: `n=64, D=30, m=1 -> 16`; `n=128, D=301, m=2 -> 305/3`;
/// `n=256, D=100, m=4 -> 108/5`; naive period `D`.
#[test]
fn single_long_link_periods() {
    use overlap_ring::study::SingleLongLink;
    use overlap_ring::study::single_link_params as p;
    for (n, d, m, period) in
        [(64, 30, 1, 16.0), (128, 301, 2, 305.0 / 3.0), (256, 100, 4, 108.0 / 5.0)]
    {
        let row = SingleLongLink.run(&p(n, d), &mut netcore::rng::seeded(0, 0)).unwrap();
        assert!(row.verified);
        assert_eq!(row.m, m);
        assert!((row.period - period).abs() < 1e-9, "n={n}: period {}", row.period);
        assert!((row.naive_period - f64::from(d)).abs() < 1e-9);
    }
}

/// Theorem 6 study rows: dilation <= 3, congestion <= 2, verified, on both host kinds; bad
/// kinds and sizes are config errors.
#[test]
fn general_graphs_rows() {
    use overlap_ring::study::GeneralGraphs;
    use overlap_ring::study::graphs::Params;
    for (kind, size) in [("bounded", 64), ("clique_chain", 5)] {
        let p = Params { kind: kind.into(), size, steps: 12, alpha: 1.5 };
        let row = GeneralGraphs.run(&p, &mut netcore::rng::seeded(1, 0)).unwrap();
        assert!(row.verified && row.dilation <= 3 && row.congestion <= 2, "{row:?}");
    }
    let bad = Params { kind: "star".into(), size: 64, steps: 12, alpha: 1.5 };
    assert!(GeneralGraphs.check(&bad).unwrap_err().to_string().contains("kind must be"));
    let small = Params { kind: "bounded".into(), size: 8, steps: 12, alpha: 1.5 };
    assert!(GeneralGraphs.check(&small).unwrap_err().to_string().contains("size must be >= 24"));
}

/// Section 6 studies on small points: on `H_1(256)` naive meets Theorem 9 exactly and OVERLAP
/// equals it (its copies sit inside base intervals that contain the long links); on
/// `h2_paper(64)` the two-copy strategy runs at slowdown 253/64 against one copy's 505/64.
#[test]
fn lower_bound_rows() {
    use overlap_ring::study::lower::Params;
    use overlap_ring::study::{H1Bound, H2Bound};
    let p = |n, scheme: &str| Params { n, steps: 64, scheme: scheme.into(), samples: 4 };
    let rng = &mut netcore::rng::seeded(1, 0);
    let naive = H1Bound.run(&p(256, "naive"), rng).unwrap();
    assert_eq!((naive.host_steps, naive.ratio), (1 + 63 * 16, 1.0));
    let bound = H1Bound.run(&p(256, "one-copy-bound"), rng).unwrap();
    assert!(bound.ratio >= 1.0 && !bound.executed);
    let two = H2Bound.run(&p(64, "two-copy"), rng).unwrap();
    let one = H2Bound.run(&p(64, "naive"), rng).unwrap();
    assert_eq!((two.host_steps, one.host_steps, two.copies), (253, 505, 2));
    assert!(
        H2Bound.check(&p(64, "one-copy-bound")).unwrap_err().to_string().contains("scheme must be")
    );
    assert!(H1Bound.check(&p(60, "naive")).unwrap_err().to_string().contains("square"));
}

/// Scheme studies on small points: Theorem 4's phase bound and band, Theorem 3's exact load and
/// redundancy, the heavy-tailed comparison; bad schemes are config errors.
#[test]
fn scheme_study_rows() {
    use overlap_ring::study::{
        HeavyTailed, Theorem4, WorkEfficiency, efficiency, heavy_tailed, uniform,
    };
    let rng = &mut netcore::rng::seeded(0, 0);
    let p = uniform::Params { n: 8, d: 16, steps: 8, bandwidth: 1, scheme: "trapezoid".into() };
    let row = Theorem4.run(&p, rng).unwrap();
    // The spec's exact case: 96 steps = 5 d ceil(T/r) 0.6 (5 16 2 = 160).
    assert_eq!((row.host_steps, row.phase_ratio, row.load), (96, 0.6, 12));
    let p = efficiency::Params { n: 256, host: "single".into(), b: 4, steps: 16 };
    let row = WorkEfficiency.run(&p, rng).unwrap();
    assert_eq!((row.load_over_b, row.redundancy_ratio, row.verified), (1.0, 1.0, true));
    let p = |scheme: &str| heavy_tailed::Params {
        n: 64,
        alpha: 1.2,
        steps: 16,
        scheme: scheme.into(),
        host_seed: 1,
    };
    let naive = HeavyTailed.run(&p("naive"), rng).unwrap();
    let composite = HeavyTailed.run(&p("composite"), rng).unwrap();
    assert_eq!(naive.d_max, composite.d_max, "one host for every scheme");
    assert!(composite.slowdown < naive.slowdown && naive.verified && composite.verified);
    assert!(HeavyTailed.check(&p("magic")).unwrap_err().to_string().contains("scheme must be"));
}

/// Theorem 7 rows: case 1 is exact, case 2 with integral `W` meets the phase bound
/// (`n0 = 8`, `d = 64`: `m = 4 4 = 16`, `W = 2`, 1536 steps = 0.75 of `8 4 16^3 / 64`).
#[test]
fn grid_rows() {
    use overlap_ring::study::Grid2d;
    use overlap_ring::study::grid::Params;
    let rng = &mut netcore::rng::seeded(0, 0);
    let p = |n, d| Params { kind: "uniform".into(), n, d, m: None, steps: 16, bandwidth: None };
    let one = Grid2d.run(&p(8, 1), rng).unwrap();
    assert_eq!((one.case, one.exact_ratio, one.verified), (1, 1.0, true));
    let two = Grid2d.run(&p(8, 64), rng).unwrap();
    assert_eq!((two.case, two.m, two.host_steps, two.phase_ratio), (2, 16, 1536, 0.75));
    let bad = Params { kind: "torus".into(), n: 8, d: 1, m: None, steps: 4, bandwidth: None };
    assert!(Grid2d.check(&bad).unwrap_err().to_string().contains("kind must be"));
}

/// Theorem 5 rows: on a host with one huge link (`n = 256`, `d_ave = 4`, `d_max = 766`) the
/// composite slowdown is far below naive's `d_max` and below `sqrt(d_ave) L^3`.
#[test]
fn theorem5_rows() {
    use overlap_ring::study::Theorem5;
    use overlap_ring::study::theorem5::Params;
    let rng = &mut netcore::rng::seeded(1, 0);
    let p = |scheme: &str| Params {
        n: 256,
        family: "huge".into(),
        d_ave: 4,
        scheme: scheme.into(),
        steps: 32,
    };
    let composite = Theorem5.run(&p("composite"), rng).unwrap();
    let naive = Theorem5.run(&p("naive"), rng).unwrap();
    assert_eq!((composite.d_max, naive.d_max), (766, 766));
    assert!(composite.verified && naive.verified);
    assert!(composite.slowdown * 4.0 < naive.slowdown && composite.ratio_bound < 1.0);
    let bad = Params { family: "ring".into(), ..p("naive") };
    assert!(Theorem5.check(&bad).unwrap_err().to_string().contains("family must be one of"));
}
