use cross_pram::machines::compare;
use cross_pram::study::{CrossParams, CrossStudy, PROGRAMS};
use netcore::pram::library::Algorithm;
use netcore::study::AnyStudy;

/// The paper's prefix sums at n = 8 (hpram's docs derive them by hand): T = 40, G = 9; as a
/// flat H-PRAM T = 31 computation steps in T' = 7 phases and C = 9 communication steps on
/// P = 8, so on the hypercube (l = s_alpha = log2 8 = 3) the phase-refined cost is
/// 31 + 7·3 + 9·(3 + 3) = 106, a slowdown of 106 / 40 = 2.65. The actor butterfly's dimension
/// is the least d >= 2 with d 2^d >= 8: d = 2, N = 8 routers, bound log2 8 = 3.
#[test]
fn prefix_sums_n8_by_hand() {
    let rows = compare(Algorithm::PrefixSums, 8, 0).unwrap();
    let reference = &rows[0];
    assert_eq!((reference.machine.as_str(), reference.t, reference.g), ("reference", 40, 9));
    let flat = rows.iter().find(|r| r.machine == "hpram-flat hypercube").unwrap();
    assert_eq!((flat.cost, flat.slowdown), (106.0, 2.65));
    let actor = rows.iter().find(|r| r.machine == "actor-butterfly").unwrap();
    assert_eq!((actor.procs, actor.bound), (8, Some(3.0)));
    assert!(rows.iter().all(|r| r.verified));
    insta::assert_json_snapshot!(rows);
}

/// Every program at n = 16 on every machine: the hierarchical H-PRAM exactly for the three
/// programs hpram has one for, and every output equal to the reference.
#[test]
fn every_program_on_every_machine() {
    for program in PROGRAMS {
        let rows = compare(program, 16, 1).unwrap();
        let machines: Vec<&str> = rows.iter().map(|r| r.machine.as_str()).collect();
        let mut want = vec![
            "reference",
            "actor-butterfly",
            "dbsp-hmos a=0.5 b=0.5",
            "dbsp-hmos a=0.75 b=0.5",
            "hpram-flat hypercube",
            "hpram-flat mesh2d",
        ];
        if matches!(program, Algorithm::PrefixSums | Algorithm::Ntt | Algorithm::TreeReduction) {
            want.extend(["hpram-hier hypercube", "hpram-hier mesh2d"]);
        }
        assert_eq!(machines, want, "{program:?}");
        assert!(rows.iter().all(|r| r.verified), "{program:?}: {rows:?}");
    }
}

#[test]
fn bad_points_name_field_and_rule() {
    let bad = |params: serde_json::Value| CrossStudy.prepare(&params).unwrap_err().to_string();
    assert_eq!(
        bad(serde_json::json!({ "program": "prefix-sums", "n": 12 })),
        "n must satisfy a power of two in [4, 4096] (got 12)"
    );
    assert_eq!(
        bad(serde_json::json!({ "program": "prefix-sums", "n": 8192 })),
        "n must satisfy a power of two in [4, 4096] (got 8192)"
    );
    assert!(
        bad(serde_json::json!({ "program": "matvec", "n": 16 }))
            .starts_with("program must satisfy one of prefix-sums, bitonic-sort"),
    );
    let params: CrossParams =
        serde_json::from_value(serde_json::json!({ "program": "ntt", "n": 4 })).unwrap();
    assert_eq!(params.seed, 0);
}
