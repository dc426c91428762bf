//! The study `cross-pram`: every machine's slowdown on one library program as `n` grows
//! (`docs/models/cross-pram.md`).

use netcore::pram::library::Algorithm;
use netcore::rng::SimRng;
use netcore::study::{Claim, Column, JsonObject, ModelError, ParamError, Plot, Study};
use serde::{Deserialize, Serialize};

use crate::machine::{DbspExponents, Machine};
use crate::machines::{MachineRun, compare};

/// The programs the study compares (every one runs on every machine), in plot order.
pub const PROGRAMS: [Algorithm; 8] = [
    Algorithm::PrefixSums,
    Algorithm::BitonicSort,
    Algorithm::PermutationRead,
    Algorithm::HotSpotRead,
    Algorithm::FetchAddCounter,
    Algorithm::ListRanking,
    Algorithm::Ntt,
    Algorithm::TreeReduction,
];

/// The least size: the D-BSP's HMOS has a level from `n = 64` on
/// ([`crate::machines::LEVELS`]).
pub const MIN_N: u32 = 64;

/// The largest size: `2^12` keeps one point's D-BSP run (the costliest) within seconds.
pub const MAX_N: u32 = 1 << 12;

/// The study.
#[derive(Debug, Clone, Copy, Default)]
pub struct CrossStudy;

/// One sweep point.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrossParams {
    /// The library program (one of [`PROGRAMS`]).
    pub program: Algorithm,
    /// Its size, a power of two in `[64, 2^12]` (PPUs, items, D-BSP processors).
    pub n: u32,
    /// The seed of the program's input and of every machine's randomness. Default 0.
    #[serde(default)]
    pub seed: u64,
}

/// A validated point.
#[derive(Debug, Clone, Copy)]
pub struct CrossPoint {
    program: Algorithm,
    n: u32,
    seed: u64,
}

/// Validates a program and size (the study's points and `cargo xtask run cross-pram`).
pub fn check(program: Algorithm, n: u32) -> Result<(), ParamError> {
    if !PROGRAMS.contains(&program) {
        let names: Vec<_> = PROGRAMS.iter().map(|p| p.name()).collect();
        return Err(ParamError::new(
            "program",
            format!("one of {}", names.join(", ")),
            program.name(),
        ));
    }
    if !(n.is_power_of_two() && (MIN_N..=MAX_N).contains(&n)) {
        return Err(ParamError::new("n", "a power of two in [64, 4096]", n));
    }
    Ok(())
}

impl Study for CrossStudy {
    type Params = CrossParams;
    type Point = CrossPoint;
    type Row = MachineRun;

    fn name(&self) -> &'static str {
        "cross-pram"
    }
    fn about(&self) -> &'static str {
        "one PRAM program through three emulations: slowdown of the actor butterfly (Theorem 2), the D-BSP with HMOS (Theorem 3) and the flat and hierarchical H-PRAM against the reference T"
    }
    fn point(&self, p: &CrossParams) -> Result<CrossPoint, ModelError> {
        check(p.program, p.n)?;
        Ok(CrossPoint { program: p.program, n: p.n, seed: p.seed })
    }
    fn run(&self, point: &CrossPoint, _: &mut SimRng) -> Result<Vec<MachineRun>, ModelError> {
        compare(point.program, point.n, point.seed)
    }
    fn claims(&self) -> Vec<Claim> {
        // xtask adds the claim that every row is `verified` to every study.
        // Fetch-and-add on one counter is left out: under actor-pram's default pid fetch order
        // its fetch-and-ops are never combined, so they queue at one host and the ratio grows
        // faster (15.5, 26.6, 34.7, 72.1, 95.4 for n = 64..1024; docs/models/cross-pram.md).
        let mut claims: Vec<Claim> = PROGRAMS
            .iter()
            .filter(|p| **p != Algorithm::FetchAddCounter)
            .map(|p| {
                Claim::slope(
                    format!("{}, actor butterfly: actor time / (T log2 N) grows by at most 0.6 of its level per doubling of n (Theorem 2: O(T log N) w.h.p.; as in actor-pram-theorem2 the forward pass tends to 3 log N rounds and the depth per round to 4, so the ratio creeps up; T log^2 N would give about 1)", p.name()),
                    "over_bound",
                    "n",
                    -0.1,
                    0.6,
                )
                .only("machine", Machine::ActorButterfly.as_str())
                .only("program", p.name())
            })
            .collect();
        for exponents in DbspExponents::ALL {
            let machine = Machine::Dbsp(exponents).as_str();
            claims.push(
                Claim::slope(
                    format!("{machine}: D-BSP cost / (Theorem 3's cost per step x G) changes by at most 0.1 of its level per doubling of n, per program (Theorem 3: bounded)"),
                    "over_bound",
                    "n",
                    -0.1,
                    0.1,
                )
                .only("machine", machine),
            );
        }
        claims
    }
    fn plots(&self) -> Vec<Plot> {
        PROGRAMS
            .iter()
            .map(|p| {
                Plot::new(
                    p.name(),
                    &format!("{}: slowdown (cost / T) of every emulation", p.name()),
                    "n",
                    &["slowdown", "bound"],
                )
                .series("machine")
                .bound("bound")
                .only("program", p.name())
                .log_x()
                .log_y()
            })
            .chain(std::iter::once(
                Plot::new(
                    "over-bound",
                    "every program: slowdown / the paper's bound (the bound's constant)",
                    "n",
                    &["over_bound"],
                )
                .series("machine")
                .log_x()
                .log_y(),
            ))
            .collect()
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("program", "the library program (netcore::pram::library)"),
            Column::new("n", "n (PPUs / items / D-BSP processors)"),
            Column::new("seed", "seed of the input and of every machine's randomness"),
            Column::new("machine", "the machine that ran the program"),
            Column::new(
                "procs",
                "processors of the machine (PPUs, routers, D-BSP processors, H-PRAM P)",
            ),
            Column::new("t", "reference time T (instructions)"),
            Column::new("w", "reference work W (active PPUs summed over parallel instructions)"),
            Column::new("g", "reference global steps G"),
            Column::new(
                "cost",
                "emulated cost (actor time, D-BSP cost, H-PRAM phase-refined cost)",
            ),
            Column::new("slowdown", "slowdown (emulated cost / T)"),
            Column::new("bound", "paper's bound up to its constant"),
            Column::new("over_bound", "slowdown / bound (the bound's constant)"),
            Column::new("messages", "actor messages"),
            Column::new("rounds", "butterfly lockstep rounds (forward + reverse)"),
            Column::new("verified", "output equals the plain-Rust reference"),
        ]
    }
    fn findings(&self, rows: &[JsonObject]) -> Vec<String> {
        PROGRAMS.iter().filter_map(|p| finding(p.name(), rows)).collect()
    }
}

/// One sentence on `program`: at its largest `n`, every machine's slowdown, cheapest first.
fn finding(program: &str, rows: &[JsonObject]) -> Option<String> {
    let mine: Vec<&JsonObject> = rows
        .iter()
        .filter(|r| r.get("program").and_then(|v| v.as_str()) == Some(program))
        .collect();
    let n = mine.iter().filter_map(|r| r.get("n").and_then(serde_json::Value::as_u64)).max()?;
    let mut at_n: Vec<(String, f64)> = mine
        .iter()
        .filter(|r| r.get("n").and_then(serde_json::Value::as_u64) == Some(n))
        .filter_map(|r| {
            let machine = r.get("machine")?.as_str()?;
            let slowdown = r.get("slowdown")?.as_f64()?;
            (machine != Machine::Reference.as_str()).then(|| (machine.to_string(), slowdown))
        })
        .collect();
    at_n.sort_by(|a, b| a.1.total_cmp(&b.1));
    let list: Vec<String> = at_n.iter().map(|(m, s)| format!("{m} {s:.3}")).collect();
    Some(format!("{program} at n = {n}, slowdown cost / T cheapest first: {}.", list.join(", ")))
}
