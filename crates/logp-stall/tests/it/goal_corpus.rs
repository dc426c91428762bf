//! The GOAL corpus (`fixtures/logp-stall/goal-corpus`): 304 schedules (Schedgen collectives
//! and random small schedules) with the makespans LogGOPSim (spcl/LogGOPSim, stable
//! ready-operation sort) prints for them. Every one must come out equal in the
//! LogGOPSim-compatible mode; a failure lists every differing case.

use logp_stall::goal::{LogGopsParams, parse, run_loggops};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/logp-stall/goal-corpus");

/// One manifest row: the schedule's file name, its text, LogGOPSim's parameters, the makespan
/// LogGOPSim gives and the row's description.
pub(crate) struct Case {
    pub(crate) file: String,
    pub(crate) text: String,
    pub(crate) prm: LogGopsParams,
    pub(crate) makespan: u64,
    pub(crate) about: String,
}

/// Every row of the corpus manifest, in order.
pub(crate) fn corpus() -> Vec<Case> {
    let manifest = std::fs::read_to_string(format!("{DIR}/manifest.tsv")).unwrap();
    manifest
        .lines()
        .skip(1)
        .map(|row| {
            let f: Vec<&str> = row.split('\t').collect();
            assert_eq!(f.len(), 9, "manifest row `{row}`");
            let num = |i: usize| f[i].parse::<u64>().unwrap();
            Case {
                file: f[0].to_string(),
                text: std::fs::read_to_string(format!("{DIR}/{}", f[0])).unwrap(),
                prm: LogGopsParams {
                    latency: num(1),
                    o: num(2),
                    gap: num(3),
                    gap_per_byte: num(4),
                    overhead_per_byte: num(5),
                    s: num(6),
                },
                makespan: num(7),
                about: f[8].to_string(),
            }
        })
        .collect()
}

#[test]
fn corpus_matches_loggopsim() {
    let cases = corpus();
    let mut wrong = Vec::new();
    for c in &cases {
        let got = parse(&c.text).and_then(|s| run_loggops(&s, c.prm)).map(|r| r.makespan);
        if got.as_ref().ok() != Some(&c.makespan) {
            wrong.push(format!("{} ({}): LogGOPSim {}, here {got:?}", c.file, c.about, c.makespan));
        }
    }
    assert_eq!(cases.len(), 304);
    assert!(wrong.is_empty(), "{} of {} differ:\n{}", wrong.len(), cases.len(), wrong.join("\n"));
}
