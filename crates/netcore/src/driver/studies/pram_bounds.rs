//! Study `pram-bounds`: every program of the PRAM library ([`crate::pram::library`]) executed
//! on the reference interpreter as `n` grows, its measured time `T` and work `W` against the
//! textbook bounds (e.g. prefix sums by doubling: `T = O(log n)`, `W = O(n log n)`; Baude,
//! Section 2.1 defines the costs). A bound holds when `T / bound` and `W / bound` stay flat
//! in `n`; the output is checked against a plain Rust computation on every run.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::pram::library::Algorithm;
use crate::pram::{Limits, Variant, run};
use crate::rng::SimRng;
use crate::study::{Claim, Column, Law, ModelError, ParamError, Plot, Study};

/// The `pram-bounds` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct PramBounds;

/// One point: a library program at size `n = 2^log_n`, under a variant it is valid for.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PramBoundsParams {
    /// The library program.
    pub program: Algorithm,
    /// `log2 n`, 1..=20.
    pub log_n: u32,
    /// The variant (default: the program's own).
    #[serde(default)]
    pub variant: Option<Variant>,
}

/// A validated point.
#[derive(Debug, Clone)]
pub struct PramBoundsPoint {
    program: Algorithm,
    n: u32,
    variant: Variant,
}

/// One row.
#[derive(Debug, Clone, Serialize)]
pub struct PramBoundsRow {
    /// `n`.
    pub n: u32,
    /// Executed instructions `T`.
    #[serde(rename = "T")]
    pub t: u64,
    /// The largest number of active PPUs `S`.
    #[serde(rename = "S")]
    pub s: u64,
    /// Global-access instructions `G`.
    #[serde(rename = "G")]
    pub g: u64,
    /// Work `W`.
    #[serde(rename = "W")]
    pub w: u64,
    /// The textbook time bound at `n` (constant 1).
    pub time_bound: f64,
    /// The textbook work bound at `n` (constant 1).
    pub work_bound: f64,
    /// `T / time_bound`.
    pub t_ratio: f64,
    /// `W / work_bound`.
    pub w_ratio: f64,
    /// The output equals the plain Rust computation.
    pub verified: bool,
}

/// A variant the program is not valid under.
fn invalid_variant(program: Algorithm, variant: Variant) -> ParamError {
    let valid: Vec<String> = program.variants().iter().map(ToString::to_string).collect();
    ParamError::new(
        "variant",
        format!("one of {} for {}", valid.join(", "), program.name()),
        variant,
    )
}

impl Study for PramBounds {
    type Params = PramBoundsParams;
    type Point = PramBoundsPoint;
    type Row = PramBoundsRow;

    fn name(&self) -> &'static str {
        "pram-bounds"
    }
    fn about(&self) -> &'static str {
        "the PRAM program library on the reference interpreter: T and W vs their textbook bounds"
    }
    fn point(&self, params: &PramBoundsParams) -> Result<PramBoundsPoint, ModelError> {
        if !(1..=20).contains(&params.log_n) {
            return Err(ParamError::new("log_n", "1 <= log_n <= 20", params.log_n).into());
        }
        let n = 1u32 << params.log_n;
        params.program.check_size(n)?;
        let variant = params.variant.unwrap_or(params.program.variant());
        if !params.program.variants().contains(&variant) {
            return Err(invalid_variant(params.program, variant).into());
        }
        Ok(PramBoundsPoint { program: params.program, n, variant })
    }
    fn run(
        &self,
        point: &PramBoundsPoint,
        rng: &mut SimRng,
    ) -> Result<Vec<PramBoundsRow>, ModelError> {
        let instance = point.program.instance(point.n, rng.random::<u64>())?;
        let program = instance.program.with_variant(point.variant);
        let done = run(&program, &instance.input, &Limits::default())?;
        let verified = done.memory.get(instance.output.clone()) == Some(&instance.expected[..]);
        let (time_bound, work_bound) =
            (point.program.time_bound(point.n), point.program.work_bound(point.n));
        let cost = done.cost;
        Ok(vec![PramBoundsRow {
            n: point.n,
            t: cost.t,
            s: cost.s,
            g: cost.g,
            w: cost.w,
            time_bound,
            work_bound,
            t_ratio: cost.t as f64 / time_bound,
            w_ratio: cost.w as f64 / work_bound,
            verified,
        }])
    }
    /// Per program, the textbook bounds of its time and work as results tested against one
    /// log factor more and one less: the ratio `T / time bound` (and `W / work bound`) is flat
    /// within x1.5 over `n = 2^4 .. 2^12`, which the law (a constant ratio) passes and a ratio
    /// growing or falling like `log2 n` (a spread of 12 / 4 = 3) fails.
    fn claims(&self) -> Vec<Claim> {
        Algorithm::ALL
            .into_iter()
            .flat_map(|program| {
                let name = program.name();
                [
                    Claim::flat(
                        format!("{name}: T = Theta(time bound): T / time bound is flat in n within x{FLAT} (a log n factor more or less spreads x3 over n = 2^4..2^12)"),
                        "t_ratio",
                        FLAT,
                    )
                    .only("program", name)
                    .result(Law::new("the time bound (constant ratio)"))
                    .rival(Law::new("time bound x log n").pow("log_n", 1.0))
                    .rival(Law::new("time bound / log n").pow("log_n", -1.0)),
                    Claim::flat(
                        format!("{name}: W = Theta(work bound): W / work bound is flat in n within x{FLAT} (a log n factor more or less spreads x3 over n = 2^4..2^12)"),
                        "w_ratio",
                        FLAT,
                    )
                    .only("program", name)
                    .result(Law::new("the work bound (constant ratio)"))
                    .rival(Law::new("work bound x log n").pow("log_n", 1.0))
                    .rival(Law::new("work bound / log n").pow("log_n", -1.0)),
                ]
            })
            .collect()
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("program", "library PRAM program"),
            Column::new("log_n", "log2 of the input size n"),
            Column::new("variant", "PRAM access variant"),
            Column::new("n", "input size n"),
            Column::new("T", "executed instructions T"),
            Column::new("S", "most active PPUs S"),
            Column::new("G", "global-access instructions G"),
            Column::new("W", "work W (active PPUs summed over instructions)"),
            Column::new("time_bound", "textbook time bound at n (instructions, constant 1)"),
            Column::new("work_bound", "textbook work bound at n (constant 1)"),
            Column::new("t_ratio", "T / textbook time bound"),
            Column::new("w_ratio", "W / textbook work bound"),
        ]
    }

    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new("time-ratio", "PRAM library: T / textbook time bound", "n", &["t_ratio"])
                .series("program")
                .log_x(),
            Plot::new("work-ratio", "PRAM library: W / textbook work bound", "n", &["w_ratio"])
                .series("program")
                .log_x(),
        ]
    }
}

/// The largest spread of a normalised cost over the sweep's sizes that still counts as flat.
const FLAT: f64 = 1.5;
