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
