//! The PRAM as a model for `cargo xtask`: `cargo xtask run pram CONFIG.toml` runs one program
//! (a library program at a size, or an assembly file next to the config) on the reference
//! interpreter, and the study `pram-bounds` sweeps the library against its textbook bounds.
//!
//! ```toml
//! program = "prefix-sums"   # a library program (see `docs/models/pram.md`), with
//! n = 1024                  # its size, and optionally
//! variant = "crcw-common"   # another variant it is valid under (default: its own)
//! seed = 1                  # the seed of its random input
//! # or: file = "prefix.pasm" (relative to this config) with input = [1, 2, 3]
//! # and optionally the final memory it must leave: expect = { from = 0, cells = [1, 3, 6] }
//! max_steps = 1_000_000     # optional step limit (at most 2^36)
//! ```

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::pram::library::{Algorithm, Instance};
use crate::pram::picture::{check_lanes, run_picture};
use crate::pram::{
    Cost, Limits, MAX_WORK, NoTrace, PictureTrace, PramError, PramRun, Program, Variant,
    estimate_bytes, run_traced,
};
use crate::pram::{Difference, first_differing_cell};
use crate::study::{
    AnyStudy, CommittedPicture, ConfigFile, Manifest, Model, ModelError, Paper, RunReport, to_json,
    with_config,
};

/// The PRAM model entry of `xtask` (`cargo xtask run pram CONFIG.toml`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Pram;

/// The config of `cargo xtask run pram`: exactly one of `program` (with `n`) and `file`. The
/// `--json` report shows it (the keys given, `seed` filled in) under `config`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PramConfig {
    /// A library program.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub program: Option<Algorithm>,
    /// Its size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n: Option<u32>,
    /// The seed of the library program's input.
    #[serde(default)]
    pub seed: u64,
    /// An assembly file, relative to the config file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    /// The initial global memory of a file's program, from address 0 (the rest is 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<Vec<i64>>,
    /// Run under this variant instead of the program's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<Variant>,
    /// The step limit (default 10^9, at most [`MAX_WORK`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_steps: Option<u64>,
    /// What a file's program must leave in memory (checked after the run, on every model
    /// that runs the config).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expect>,
}

/// `expect = { from = F, cells = [...] }`: the final global memory a program of one's own must
/// leave in cells `F..F + len` (a library program is checked against its plain-Rust
/// reference instead).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// The first cell checked (default 0).
    #[serde(default)]
    pub from: usize,
    /// The values the cells must hold, at least one.
    pub cells: Vec<i64>,
}

/// What a run's output is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CheckedAgainst {
    /// A library program's plain-Rust reference.
    Reference,
    /// The config's `expect`.
    Expect,
}
crate::display_config_name!(CheckedAgainst);

impl CheckedAgainst {
    /// As a message names it.
    pub const fn describe(self) -> &'static str {
        match self {
            CheckedAgainst::Reference => "its plain-Rust reference",
            CheckedAgainst::Expect => "the config's expect",
        }
    }
}

/// The first cells of the final memory a summary line prints.
pub const SUMMARY_CELLS: usize = 16;

/// Memories up to this many cells are reported in full; larger ones as a digest.
pub const FULL_MEMORY_CELLS: usize = 256;

/// What one run reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PramReport {
    /// The program's name (library name or file name).
    pub program: String,
    /// The variant it ran under.
    pub variant: Variant,
    /// Global cells `M`.
    pub mem: u64,
    /// PPUs `S_max`.
    pub ppus: u32,
    /// `T`, `S`, `G`, `W`.
    pub cost: Cost,
    /// The final global memory, if it has at most [`FULL_MEMORY_CELLS`] cells.
    pub memory: Option<Vec<i64>>,
    /// A 64-bit FNV-1a digest of the final global memory (little-endian cells).
    pub memory_digest: String,
    /// The output equals the expected output (`None` for a file without `expect`).
    pub verified: Option<bool>,
    /// What the output was checked against (`None` for a file without `expect`).
    pub checked_against: Option<CheckedAgainst>,
    /// The first output cell that differs, when one does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mismatch: Option<String>,
    /// Per-kind access counts of the run's global steps.
    pub accesses: AccessSummary,
}

/// A summary of the access trace.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct AccessSummary {
    /// Global steps.
    pub steps: u64,
    /// Reads.
    pub reads: u64,
    /// Writes.
    pub writes: u64,
    /// Fetch-and-ops.
    pub fetches: u64,
    /// The largest number of accesses of one step.
    pub max_per_step: u64,
}

impl crate::pram::TraceSink for AccessSummary {
    fn step(&mut self, _g_step: u64, _pc: u32, accesses: &[crate::pram::Access]) {
        use crate::pram::AccessKind;
        self.steps += 1;
        self.max_per_step = self.max_per_step.max(accesses.len() as u64);
        for access in accesses {
            match access.kind {
                AccessKind::Read => self.reads += 1,
                AccessKind::Write => self.writes += 1,
                AccessKind::Fetch(_) => self.fetches += 1,
            }
        }
    }
}

/// FNV-1a over the cells' little-endian bytes.
pub fn digest(memory: &[i64]) -> u64 {
    memory.iter().flat_map(|v| v.to_le_bytes()).fold(0xcbf2_9ce4_8422_2325, |h, byte| {
        (h ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn config_error(field: &'static str, rule: &'static str, got: String) -> PramError {
    PramError::InvalidConfig { field, rule, got }
}

/// A config's program, ready to run: what every PRAM emulation's config loads the same way.
#[derive(Debug, Clone)]
pub struct LoadedProgram {
    /// The library program's name or the file's path.
    pub name: String,
    /// The program, under the config's variant.
    pub program: Program,
    /// The initial global memory.
    pub input: Vec<i64>,
    /// The step limit.
    pub limits: Limits,
    /// The output cells and their expected values: a library program's plain-Rust
    /// reference, or a file's `expect`.
    pub expected: Option<(std::ops::Range<usize>, Vec<i64>)>,
    /// What `expected` comes from.
    pub checked_against: Option<CheckedAgainst>,
}

impl LoadedProgram {
    /// A final memory is right: the output cells equal the expected ones (a file's program
    /// without `expect` has none, so any memory is).
    pub fn output_ok(&self, memory: &[i64]) -> bool {
        self.first_difference(memory).is_none()
    }

    /// The first output cell of `memory` that differs from the expected output, as a message:
    /// `cell 3 is 7, expected 6 (the config's expect)`.
    pub fn first_difference(&self, memory: &[i64]) -> Option<String> {
        let (range, want) = self.expected.as_ref()?;
        let against = self.checked_against.map_or("", CheckedAgainst::describe);
        let Difference { cell, got, expected } = first_differing_cell(range.clone(), want, memory)?;
        Some(match got {
            Some(got) => format!("cell {cell} is {got}, expected {expected} ({against})"),
            None => format!("cell {cell} is outside memory, expected {expected} ({against})"),
        })
    }
}

impl PramConfig {
    /// Loads the program: a library program at size `n`, or the assembly file (resolved next
    /// to the config), with the variant and step limit applied.
    pub fn load(&self, file: &ConfigFile<'_>) -> Result<LoadedProgram, PramError> {
        let (name, program, input, expected) = match (&self.program, &self.file) {
            (Some(algorithm), None) => {
                let n =
                    self.n.ok_or_else(|| config_error("n", "given with program", "none".into()))?;
                if self.input.is_some() {
                    return Err(config_error("input", "only given with file", "an input".into()));
                }
                if self.expect.is_some() {
                    return Err(config_error(
                        "expect",
                        "only given with file (a library program is checked against its plain-Rust reference)",
                        "an expect table".into(),
                    ));
                }
                let instance = algorithm.instance(n, self.seed)?;
                let expected = (instance.output.clone(), instance.expected);
                (algorithm.name().to_string(), instance.program, instance.input, Some(expected))
            }
            (None, Some(path)) => {
                if self.n.is_some() {
                    return Err(config_error("n", "only given with program", "n".into()));
                }
                let full = file.resolve(path);
                let text =
                    crate::input::read_text(&full, "assembly file", crate::input::MAX_TEXT_BYTES)
                        .map_err(|e| {
                        config_error("file", "a regular, readable assembly file", e.to_string())
                    })?;
                let program = Program::parse(&text)?;
                let expected =
                    self.expect.as_ref().map(|e| check_expect(e, &program)).transpose()?;
                (
                    path.display().to_string(),
                    program,
                    self.input.clone().unwrap_or_default(),
                    expected,
                )
            }
            (Some(_), Some(_)) => {
                return Err(config_error(
                    "program",
                    "exactly one of program and file",
                    "both".into(),
                ));
            }
            (None, None) => {
                return Err(config_error(
                    "program",
                    "exactly one of program and file",
                    "none".into(),
                ));
            }
        };
        let program = match self.variant {
            Some(variant) => {
                // A library program under a variant it breaks would fail at its first
                // concurrent access: the config's error, named before the run.
                if let Some(algorithm) = self.program
                    && !algorithm.variants().contains(&variant)
                {
                    let valid: Vec<String> =
                        algorithm.variants().iter().map(ToString::to_string).collect();
                    return Err(config_error(
                        "variant",
                        "a variant the library program is valid under",
                        format!("{variant}; {} is valid under {}", name, valid.join(", ")),
                    ));
                }
                program.with_variant(variant)
            }
            None => program,
        };
        let max_steps = match self.max_steps {
            Some(0) => {
                return Err(config_error(
                    "max_steps",
                    "at least 1 (every run executes its halt)",
                    "0".into(),
                ));
            }
            Some(m) if m > MAX_WORK => {
                return Err(config_error(
                    "max_steps",
                    "at most 2^36, the work limit T + W of every run",
                    m.to_string(),
                ));
            }
            Some(m) => m,
            None => Limits::default().max_steps,
        };
        let limits = Limits { max_steps, ..Limits::default() };
        // The run's peak holds, besides the interpreter's buffers and final memory, the input
        // and the expected cells this driver keeps (8 bytes each), and what building them
        // leaves behind (`DRIVER_SLACK_PER_PPU`, `DRIVER_SLACK`): all within one budget.
        let held = input.len().saturating_add(expected.as_ref().map_or(0, |(_, v)| v.len()));
        let needed = estimate_bytes(&program)
            .saturating_add(8 * program.mem())
            .saturating_add(8 * held as u64)
            .saturating_add(DRIVER_SLACK_PER_PPU * u64::from(program.ppus()))
            .saturating_add(DRIVER_SLACK);
        if needed > limits.max_bytes {
            return Err(PramError::MemoryBudget { needed, budget: limits.max_bytes });
        }
        let checked_against = expected.as_ref().map(|_| match self.program {
            Some(_) => CheckedAgainst::Reference,
            None => CheckedAgainst::Expect,
        });
        Ok(LoadedProgram { name, program, input, limits, expected, checked_against })
    }
}

/// Bytes per PPU a config run holds beyond its counted buffers: measured, the peak resident
/// set of hot-spot-read at `n = 2^21` and `2^22` is 217 B per PPU and 13 MiB besides (the
/// counted terms give 208 B per PPU; docs/models/pram.md, Limits).
const DRIVER_SLACK_PER_PPU: u64 = 16;
/// Bytes a config run holds whatever its size (the process, the parsed config, the report).
const DRIVER_SLACK: u64 = 16 << 20;

/// `expect`'s cells as an output range of `program`'s memory: at least one cell, all inside
/// its `M` cells.
fn check_expect(
    expect: &Expect,
    program: &Program,
) -> Result<(std::ops::Range<usize>, Vec<i64>), PramError> {
    let mem = usize::try_from(program.mem()).unwrap_or(usize::MAX);
    let end = expect.from.checked_add(expect.cells.len());
    match end {
        _ if expect.cells.is_empty() => {
            Err(config_error("expect.cells", "at least one cell", "none".into()))
        }
        Some(end) if end <= mem => Ok((expect.from..end, expect.cells.clone())),
        _ => Err(config_error(
            "expect",
            "cells from..from + len inside the program's memory of M cells",
            format!("from = {}, {} cells, M = {mem}", expect.from, expect.cells.len()),
        )),
    }
}

/// Runs a config: the program, its input, its reference output (library only).
pub fn run_pram_config(
    config: &PramConfig,
    file: &ConfigFile<'_>,
) -> Result<PramReport, PramError> {
    let loaded = config.load(file)?;
    let mut accesses = AccessSummary::default();
    let run = loaded.execute(&mut accesses)?;
    Ok(loaded.report(&run, accesses))
}

impl LoadedProgram {
    /// The program as an instance every PRAM emulation runs and checks: its output range and
    /// values are the expected ones (a library program's reference, a file's `expect`), or,
    /// for a file without `expect`, the reference interpreter's whole final memory, so an
    /// emulation is checked against the reference run.
    pub fn instance(&self) -> Result<Instance, PramError> {
        Ok(match &self.expected {
            Some(_) => self.instance_after(&[]),
            None => self.instance_after(&self.execute(&mut NoTrace)?.memory),
        })
    }

    /// [`LoadedProgram::instance`] after the reference run of this program, which left
    /// `memory` (read only for a file without `expect`), so that a driver that runs the
    /// reference anyway does not run it twice.
    pub fn instance_after(&self, memory: &[i64]) -> Instance {
        let (output, expected) = match &self.expected {
            Some((range, values)) => (range.clone(), values.clone()),
            None => (0..memory.len(), memory.to_vec()),
        };
        Instance { program: self.program.clone(), input: self.input.clone(), output, expected }
    }

    /// Runs the program once on its input, every global step's accesses sent to `sink`.
    pub fn execute<T: crate::pram::TraceSink>(&self, sink: &mut T) -> Result<PramRun, PramError> {
        run_traced(&self.program, &self.input, &self.limits, sink)
    }

    /// The report of this program's `run`, whose accesses `accesses` summarises.
    pub fn report(&self, run: &PramRun, accesses: AccessSummary) -> PramReport {
        let verified = self.expected.is_some().then(|| self.output_ok(&run.memory));
        let checked_against = self.checked_against;
        PramReport {
            program: self.name.clone(),
            variant: self.program.variant(),
            mem: self.program.mem(),
            ppus: self.program.ppus(),
            cost: run.cost,
            memory: (run.memory.len() <= FULL_MEMORY_CELLS).then(|| run.memory.clone()),
            memory_digest: format!("{:016x}", digest(&run.memory)),
            verified,
            checked_against,
            mismatch: self.first_difference(&run.memory),
            accesses,
        }
    }
}

/// A program whose output differs from what it is checked against (a library program's
/// plain-Rust reference, or the config's `expect`): a failed run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{program}: the output differs: {difference} (memory digest {digest})")]
pub struct NotVerified {
    /// The program.
    pub program: String,
    /// The first differing cell, with what it was checked against.
    pub difference: String,
    /// The final memory's digest.
    pub digest: String,
}

impl crate::fault::Classify for NotVerified {
    fn fault(&self) -> crate::fault::Fault {
        crate::fault::Fault::Run
    }
}

impl Model for Pram {
    fn name(&self) -> &'static str {
        "pram"
    }
    fn about(&self) -> &'static str {
        "the SIMD PRAM (EREW..CRCW fetch-and-op) on the reference interpreter: library programs and assembly files"
    }
    fn manifest(&self) -> Manifest {
        Manifest {
            paper: Paper { title: "The SIMD PRAM and its reference interpreter", docs: "pram.md" },
            sweep: None,
            // No paper of its own: the PRAM is Baude's Section 2.1 model (listed in
            // actor-pram's referee list), and `pram-bounds` checks the library's programs
            // against textbook bounds, not a paper's numbered results.
            results: &[],
            pictures: &[CommittedPicture {
                config: "fixtures/pram/hot-spot-read-8.toml",
                picture: "pram-hot-spot-read-8.svg",
            }],
        }
    }
    fn studies(&self) -> Vec<Box<dyn AnyStudy>> {
        vec![Box::new(crate::driver::studies::pram_bounds::PramBounds)]
    }
    fn run_config(&self, config: &ConfigFile<'_>) -> Result<RunReport, ModelError> {
        let parsed: PramConfig = config.parse()?;
        run_report(&parsed, run_pram_config(&parsed, config)?)
    }
    /// The picture of the run of `config`: refused before the run past the picture's lanes
    /// (`S_max` PPUs and the CPU), and after it, before drawing, past its global steps. One
    /// run of `config`, its steps sent to the report's access summary and to a
    /// [`PictureTrace`], which keeps only the steps a picture can draw.
    fn run_pictured(
        &self,
        config: &ConfigFile<'_>,
    ) -> Result<(RunReport, crate::picture::Picture), ModelError> {
        let parsed: PramConfig = config.parse()?;
        let loaded = parsed.load(config)?;
        check_lanes(&loaded.program)?;
        let mut sinks = (PictureTrace::default(), AccessSummary::default());
        let run = loaded.execute(&mut sinks)?;
        let picture = run_picture(&loaded.name, &loaded.program, &run.cost, &sinks.0)?;
        let report = loaded.report(&run, sinks.1);
        Ok((run_report(&parsed, report)?, picture))
    }
}

/// The run report of a PRAM run of `config` (its config under `config`, then its fields):
/// refused (a failed run) if a library program's output differs from its reference.
fn run_report(config: &PramConfig, report: PramReport) -> Result<RunReport, ModelError> {
    if let Some(difference) = &report.mismatch {
        let (program, digest) = (report.program.clone(), report.memory_digest.clone());
        return Err(NotVerified { program, difference: difference.clone(), digest }.into());
    }
    let Cost { t, s, g, w } = report.cost;
    let verified = match (report.verified, report.checked_against) {
        (Some(v), Some(against)) => format!(", verified = {v} against {}", against.describe()),
        _ => ", not verified (a file without expect)".to_string(),
    };
    let shown = report.memory.as_ref().map_or_else(String::new, |m| {
        let head: Vec<String> = m.iter().take(SUMMARY_CELLS).map(i64::to_string).collect();
        let more = if m.len() > SUMMARY_CELLS { ", ..." } else { "" };
        format!(", memory [{}{more}]", head.join(", "))
    });
    let summary = format!(
        "{} on {} (M = {}, S_max = {}): T = {t}, S = {s}, G = {g}, W = {w}{shown}, memory digest {}{verified}",
        report.program, report.variant, report.mem, report.ppus, report.memory_digest
    );
    Ok(RunReport { summary, report: with_config(config, to_json(&report)?)? })
}
