use cross_pram::driver::study::{CrossParams, CrossStudy, MAX_N, MIN_N, PROGRAMS};
use cross_pram::machine::{HpramPreset, Machine};
use cross_pram::machines::{
    actor_butterfly, check_ppus, compare, compare_instance, hpram_hier, reference,
};
use netcore::fault::Fault;
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
    assert_eq!(params.run_seed, 0);
}

/// The config's seed reaches the actor butterfly's hash (actor-pram's `hash_seed`): the same
/// instance (permutation read at n = 64, input of seed 0) under hash seeds 0 and 1 places the
/// 64 cells differently, so the routing's contention, and the actor time, differ, while both
/// runs stay verified. Were the seed dropped (the default hash seed 0 on both), the two costs
/// would be equal and the test would fail.
#[test]
fn the_seed_reaches_the_actor_hash() {
    let instance = Algorithm::PermutationRead.instance(64, 0).unwrap();
    let run = |seed| actor_butterfly(&instance, seed, "n").unwrap();
    let (zero, one) = (run(0), run(1));
    assert!(zero.verified && one.verified, "{zero:?} {one:?}");
    // Actor times are whole events, so two different ones differ by at least 1.
    let apart = (zero.cost - one.cost).abs();
    assert!(apart >= 1.0, "hash seeds 0 and 1 gave the same actor time {}", zero.cost);
    // Through compare, on the same instance: the config's seed is the actor butterfly's hash
    // seed, and every output is still verified.
    for (seed, alone) in [(0, &zero), (1, &one)] {
        let rows = compare_instance(&instance, Some(Algorithm::PermutationRead), 64, seed).unwrap();
        assert!(rows.iter().all(|r| r.verified));
        let actor = rows.iter().find(|r| matches!(r.machine, Machine::ActorButterfly)).unwrap();
        assert!(
            (actor.cost - alone.cost).abs() < 1e-9,
            "seed {seed}: {} {}",
            actor.cost,
            alone.cost
        );
    }
}

/// An instance whose expected output its own program does not compute fails on the
/// reference run, before any emulation runs (a failed run, exit 1), naming the cell: prefix
/// sums at n = 64 leave 1 + 2 + ... + 64 = 2080 in the last output cell, expected 2081 here.
#[test]
fn a_wrong_expected_output_fails_on_the_reference() {
    let mut instance = Algorithm::PrefixSums.instance(64, 0).unwrap();
    let last = instance.expected.len() - 1;
    assert_eq!(instance.expected[last], 2080);
    instance.expected[last] = 2081;
    let e = compare_instance(&instance, Some(Algorithm::PrefixSums), 64, 0).unwrap_err();
    let cell = instance.output.start + last;
    assert_eq!(
        e.to_string(),
        format!(
            "output: the reference interpreter's cell {cell} must equal the instance's expected 2081 before any emulation runs (got 2080)"
        )
    );
    assert_eq!(e.fault(), Fault::Run);
    let rows = compare_instance(&Algorithm::PrefixSums.instance(64, 0).unwrap(), None, 64, 0);
    assert!(rows.unwrap().iter().all(|r| r.verified));
}

/// Every program of the study has at most `n` PPUs at every size the study and `cargo xtask
/// run` accept (the powers of two in `[MIN_N, MAX_N]`), so the check `S <= n` never refuses
/// a study point; a 65-PPU program on n = 64 is refused (exit 2).
#[test]
fn ppus_at_most_n() {
    for program in PROGRAMS {
        for n in (MIN_N.ilog2()..=MAX_N.ilog2()).map(|d| 1u32 << d) {
            let s = program.instance(n, 0).unwrap().program.ppus();
            assert!(s <= n, "{program:?} at n = {n} has S = {s}");
            assert_eq!(check_ppus(&program.instance(n, 0).unwrap().program, n), Ok(()));
        }
    }
    let wide = Algorithm::PrefixSums.instance(128, 0).unwrap();
    let e = check_ppus(&wide.program, 64).unwrap_err();
    assert_eq!((e.field, e.got.as_str()), ("n", "64"));
    assert!(e.rule.starts_with("at least the program's S = 128 PPUs"), "{e}");
}

/// The hierarchical form reads the instance's first n words: an input shorter than n is a
/// typed error naming the program, n and the length (not a silent run on fewer words).
#[test]
fn a_short_input_is_an_error() {
    let mut instance = Algorithm::PrefixSums.instance(64, 0).unwrap();
    let (_, cost) = reference(&instance).unwrap();
    instance.input.truncate(10);
    let e = hpram_hier(Algorithm::PrefixSums, 64, &instance, &cost).unwrap_err();
    assert_eq!(
        e.to_string(),
        "input: prefix-sums's instance must hold the n = 64 data words its hierarchical form reads (got 10 words)"
    );
    assert_eq!(e.fault(), Fault::Run);
}

/// The seed reaches the input of every library program of the studies but prefix sums',
/// whose input is `1, 2, ..., n` at every seed: the run's summary line names the input among
/// what the seed sets exactly for the others (`driver/model.rs`), and the equal-load study's
/// three prefix-sums runs differ in the actor butterfly's hash alone.
#[test]
fn the_seed_draws_every_input_but_prefix_sums() {
    for program in PROGRAMS {
        let input = |seed| program.instance(64, seed).unwrap().input;
        let seeded = input(0) != input(1);
        assert_eq!(seeded, program != Algorithm::PrefixSums, "{program:?}");
    }
    assert_eq!(Algorithm::PrefixSums.instance(8, 7).unwrap().input, (1..=8).collect::<Vec<i64>>());
}
