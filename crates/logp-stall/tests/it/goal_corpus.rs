//! The GOAL corpus (`fixtures/logp-stall/goal-corpus`): 304 schedules (Schedgen collectives
//! and random small schedules) with the makespans LogGOPSim (spcl/LogGOPSim, stable
//! ready-operation sort) prints for them. Every one must come out equal in the
//! LogGOPSim-compatible mode; a failure lists every differing case.

use logp_stall::goal::{LogGopsParams, parse, run_loggops};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/logp-stall/goal-corpus");

#[test]
fn corpus_matches_loggopsim() {
    let manifest = std::fs::read_to_string(format!("{DIR}/manifest.tsv")).unwrap();
    let mut rows = 0;
    let mut wrong = Vec::new();
    for row in manifest.lines().skip(1) {
        let f: Vec<&str> = row.split('\t').collect();
        assert_eq!(f.len(), 9, "manifest row `{row}`");
        let num = |i: usize| f[i].parse::<u64>().unwrap();
        let prm = LogGopsParams {
            l: num(1),
            o: num(2),
            g: num(3),
            big_g: num(4),
            big_o: num(5),
            s: num(6),
        };
        let want = num(7);
        let text = std::fs::read_to_string(format!("{DIR}/{}", f[0])).unwrap();
        let got = parse(&text).and_then(|s| run_loggops(&s, prm)).map(|r| r.makespan);
        if got.as_ref().ok() != Some(&want) {
            wrong.push(format!("{} ({}): LogGOPSim {want}, here {got:?}", f[0], f[8]));
        }
        rows += 1;
    }
    assert_eq!(rows, 304);
    assert!(wrong.is_empty(), "{} of {rows} differ:\n{}", wrong.len(), wrong.join("\n"));
}
