use cross_pram::driver::study::{CrossParams, CrossStudy, PROGRAMS};
use cross_pram::machine::{HpramPreset, Machine};
use cross_pram::machines::compare;
use netcore::pram::library::Algorithm;
use netcore::study::AnyStudy;

/// The paper's prefix sums (recursive doubling) at n = 64. hpram's docs derive n = 8 by hand:
/// T = 40, G = 9, and as a flat H-PRAM T - G = 31 computation steps in T' = 7 phases. Every
/// doubling round adds 12 instructions, 3 of them global, and 2 phases of local ones, so at
/// n = 64 (three more rounds) T = 76, G = 18, T' = 13. On P = 64 processors of the hypercube
/// (l = s_alpha = log2 64 = 6) the phase-refined cost T_c + T' s + C (l + s) is
/// 58 + 13·6 + 18·12 = 352, a slowdown of 352 / 76. The actor butterfly's dimension is the
/// least d >= 2 with d 2^d >= 64: d = 4, N = 64 routers, bound log2 64 = 6. Its actor time
/// is measured (snapshot): actor-pram's hash actors `H_i` (one unserialized event per PPU
/// and step) moved it 2613 → 2627 (+14, within the derived 0 to G = 18 under FIFO) and its
/// messages 228,485 → 229,637 (+1,152 = S · G = 64 · 18, exactly).
#[test]
fn prefix_sums_n64_by_hand() {
    let rows = compare(Algorithm::PrefixSums, 64, 0).unwrap();
    let reference = &rows[0];
    assert_eq!((reference.machine.as_str(), reference.t, reference.g), ("reference", 76, 18));
    let flat =
        rows.iter().find(|r| r.machine == Machine::HpramFlat(HpramPreset::Hypercube)).unwrap();
    assert_eq!((flat.cost, flat.slowdown), (352.0, 352.0 / 76.0));
    let actor = rows.iter().find(|r| r.machine == Machine::ActorButterfly).unwrap();
    assert_eq!((actor.procs, actor.bound), (64, Some(6.0)));
    assert!(rows.iter().all(|r| r.verified));
    insta::assert_json_snapshot!(rows);
}

/// Every program at n = 64 on every machine: the hierarchical H-PRAM exactly for the three
/// programs hpram has one for, and every output equal to the reference.
#[test]
fn every_program_on_every_machine() {
    for program in PROGRAMS {
        let rows = compare(program, 64, 1).unwrap();
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
        "n must satisfy a power of two in [64, 4096] (got 12)"
    );
    assert_eq!(
        bad(serde_json::json!({ "program": "prefix-sums", "n": 32 })),
        "n must satisfy a power of two in [64, 4096] (got 32)"
    );
    assert_eq!(
        bad(serde_json::json!({ "program": "prefix-sums", "n": 8192 })),
        "n must satisfy a power of two in [64, 4096] (got 8192)"
    );
    assert!(
        bad(serde_json::json!({ "program": "matvec", "n": 64 }))
            .starts_with("program must satisfy one of prefix-sums, bitonic-sort"),
    );
    let params: CrossParams =
        serde_json::from_value(serde_json::json!({ "program": "ntt", "n": 64 })).unwrap();
    assert_eq!(params.seed, 0);
}
