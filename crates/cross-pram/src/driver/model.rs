//! The [`Model`] through which `xtask` lists, runs and sweeps this crate:
//! `cargo xtask run cross-pram CONFIG.toml` runs one program at one size on every machine;
//! `--svg FILE` draws the reference interpreter's run (netcore's PRAM picture).
//!
//! ```toml
//! program = "prefix-sums"   # one of crate::driver::study::PROGRAMS
//! n = 64                    # a power of two in [64, 4096]
//! seed = 0                  # the input's and the machines' seed (default 0)
//! # or a program of one's own: file = "my.pasm" (relative to this config), input = [...],
//! # expect = { from = 0, cells = [...] } (else checked against the reference interpreter's
//! # final memory), with n the D-BSP's processors (at least the file's PPUs); the seed then
//! # seeds the actor butterfly's hash and the D-BSP's randomness only
//! ```
//!
//! A file's `expect` is checked on the reference interpreter first: a config whose `expect`
//! the reference run does not meet fails with netcore's
//! [`NotVerified`] (exit 1, the message of
//! `cargo xtask run pram`) before any emulation runs.
#![warn(clippy::cast_possible_truncation)]

use netcore::driver::pram::{LoadedProgram, NotVerified, digest};
use netcore::picture::Picture;
use netcore::pram::library::{Algorithm, Instance};
use netcore::pram::picture::{check_lanes, run_picture};
use netcore::pram::{Limits, NoTrace, PictureTrace, PramRun, Program, TraceSink, run_traced};
use netcore::study::{
    AnyStudy, CommittedPicture, ConfigFile, EmbeddedSweep, Manifest, Model, ModelError, Paper,
    RunReport, to_json, with_config,
};
use serde::{Deserialize, Serialize};

use crate::driver::equal_load::EqualLoadStudy;
use crate::driver::study::{CrossStudy, check, check_n};
use crate::machines::{CrossError, MachineRun, check_ppus, compare_run};

/// The `cross-pram` model.
#[derive(Debug, Clone, Copy, Default)]
pub struct CrossPram;

/// The config of `cargo xtask run cross-pram` (see the module documentation); the `--json`
/// report shows it, defaults filled in, under `config`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrossConfig {
    /// The library program.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub program: Option<netcore::pram::library::Algorithm>,
    /// Its size (a file's program: the D-BSP's processors).
    pub n: u32,
    /// The seed of the library program's input, of the actor butterfly's hash and of the
    /// D-BSP's randomness (for a file, of the two machines only).
    #[serde(default)]
    pub seed: u64,
    /// An assembly file of the user's own, relative to the config file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<std::path::PathBuf>,
    /// The file's initial global memory from address 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<Vec<i64>>,
    /// The final memory the file's program must leave.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expect: Option<netcore::driver::pram::Expect>,
}

/// What a config runs, before its reference run: a library program's instance, or a file's
/// loaded program.
enum Source {
    Library(Instance),
    File(LoadedProgram),
}

impl Source {
    /// The program every machine runs.
    fn program(&self) -> &Program {
        match self {
            Source::Library(instance) => &instance.program,
            Source::File(loaded) => &loaded.program,
        }
    }

    /// The reference interpreter's one run of the program (every global step's accesses sent
    /// to `sink`) and the instance every machine is checked against. A file's `expect` is the
    /// user's claim about the program: a reference run that misses it is reported as `cargo
    /// xtask run pram` reports it, before any emulation runs; a file without `expect` is
    /// checked against this run's final memory.
    fn run<T: TraceSink>(self, sink: &mut T) -> Result<(Instance, PramRun), ModelError> {
        match self {
            Source::Library(instance) => {
                let done =
                    run_traced(&instance.program, &instance.input, &Limits::default(), sink)?;
                Ok((instance, done))
            }
            Source::File(loaded) => {
                let done = loaded.execute(sink)?;
                if let Some(difference) = loaded.first_difference(&done.memory) {
                    let digest = format!("{:016x}", digest(&done.memory));
                    return Err(NotVerified { program: loaded.name, difference, digest }.into());
                }
                Ok((loaded.instance_after(&done.memory), done))
            }
        }
    }
}

impl CrossConfig {
    /// What the config runs, after the checks of `n` (a power of two in the study's range,
    /// at least the program's PPUs), before any run.
    fn source(&self, file: &ConfigFile<'_>) -> Result<Source, ModelError> {
        let file_only = self.input.is_some() || self.expect.is_some();
        let source = match (self.program, &self.file) {
            (Some(program), None) if !file_only => {
                check(program, self.n)?;
                Source::Library(program.instance(self.n, self.seed)?)
            }
            // A file, or a library program with a file's `input` or `expect`, which netcore's
            // loader refuses naming the key (as `cargo xtask run pram` does).
            _ => {
                check_n(self.n)?;
                let loaded = netcore::driver::pram::PramConfig {
                    program: self.program,
                    n: self.program.map(|_| self.n),
                    seed: self.seed,
                    file: self.file.clone(),
                    input: self.input.clone(),
                    variant: None,
                    max_steps: None,
                    expect: self.expect.clone(),
                }
                .load(file)?;
                Source::File(loaded)
            }
        };
        check_ppus(source.program(), self.n)?;
        Ok(source)
    }

    /// The program's name in the summary.
    fn name(&self) -> String {
        match (self.program, &self.file) {
            (Some(p), _) => p.name().to_string(),
            (None, Some(f)) => f.display().to_string(),
            (None, None) => "program".to_string(),
        }
    }
}

impl Model for CrossPram {
    fn name(&self) -> &'static str {
        "cross-pram"
    }
    fn about(&self) -> &'static str {
        "one library PRAM program on the reference interpreter, the actor butterfly (actor-pram), the D-BSP with HMOS (dbsp-hmos) and the flat and hierarchical H-PRAM (hpram), side by side"
    }
    fn manifest(&self) -> Manifest {
        Manifest {
            paper: Paper { title: "Across the models", docs: "cross-pram.md" },
            sweep: Some(EmbeddedSweep {
                file: "fixtures/sweeps/cross-pram.toml",
                text: include_str!("../../../../fixtures/sweeps/cross-pram.toml"),
            }),
            results: crate::driver::results::RESULTS,
            pictures: &[CommittedPicture {
                config: "fixtures/cross-pram/prefix-sums-64.toml",
                picture: "cross-pram-prefix-sums-64.svg",
            }],
        }
    }
    fn studies(&self) -> Vec<Box<dyn AnyStudy>> {
        vec![Box::new(CrossStudy), Box::new(EqualLoadStudy)]
    }
    fn run_config(&self, config: &ConfigFile<'_>) -> Result<RunReport, ModelError> {
        let parsed: CrossConfig = config.parse()?;
        let (instance, done) = parsed.source(config)?.run(&mut NoTrace)?;
        let rows = compare_run(&instance, &done, parsed.program, parsed.n, parsed.seed)?;
        run_report(&parsed, &rows)
    }
    /// The picture of the reference run (the first row): netcore's PRAM picture, one lane per
    /// PPU, one mark per access, cells shared within a step shaded; the emulating machines
    /// are not drawn (their own crates draw theirs). One run of every machine; the reference
    /// run is traced and drawn (refused before it runs past 127 PPUs, the picture's lanes)
    /// before the emulating machines run.
    fn run_pictured(&self, config: &ConfigFile<'_>) -> Result<(RunReport, Picture), ModelError> {
        let parsed: CrossConfig = config.parse()?;
        let source = parsed.source(config)?;
        check_lanes(source.program())?;
        let mut trace = PictureTrace::default();
        let (instance, done) = source.run(&mut trace)?;
        let picture = run_picture(&picture_name(&parsed), &instance.program, &done.cost, &trace)?;
        let rows = compare_run(&instance, &done, parsed.program, parsed.n, parsed.seed)?;
        Ok((run_report(&parsed, &rows)?, picture))
    }
}

/// The title of the reference run's picture.
fn picture_name(config: &CrossConfig) -> String {
    format!("{} (reference run of cross-pram)", config.name())
}

/// The report of the rows of every machine's run of `config`.
fn run_report(config: &CrossConfig, rows: &[MachineRun]) -> Result<RunReport, ModelError> {
    let against = match (config.program, &config.expect) {
        (Some(_), _) => "its plain-Rust reference",
        (None, Some(_)) => "the config's expect",
        (None, None) => "the reference interpreter's final memory",
    };
    // The seed reaches the input only for a library program that draws one (netcore's library
    // gives prefix sums the input `1..=n`, whatever the seed; `tests/it/specs.rs` checks which
    // do); a file's input is the config's.
    let seeds = match config.program {
        Some(Algorithm::PrefixSums) | None => {
            "the actor butterfly's hash and the D-BSP's randomness"
        }
        Some(_) => "the input and the machines' randomness",
    };
    if let Some(failed) = rows.iter().find(|row| !row.verified) {
        return Err(
            CrossError::EmulationNotVerified { machine: failed.machine.as_str(), against }.into()
        );
    }
    let mut summary = format!(
        "{} at n = {} (seed {}: {seeds}), every output checked against {against}:",
        config.name(),
        config.n,
        config.seed
    );
    for row in rows {
        summary += &format!(
            "\n  {:<24} procs {:>6}  cost {:>12.1}  slowdown {:>9.2}{}  verified {}",
            row.machine.as_str(),
            row.procs,
            row.cost,
            row.slowdown,
            match (row.bound, row.over_bound, row.machine.bound_name()) {
                (Some(b), Some(over), Some(name)) => {
                    format!("  (slowdown / bound {over:.2}; bound {b:.2} = {name})")
                }
                (Some(b), None, Some(name)) => {
                    format!("  (bound {b:.2} = {name}: no global step, no ratio)")
                }
                _ => String::new(),
            },
            row.verified
        );
    }
    let report = serde_json::json!({ "machines": to_json(&rows)? });
    Ok(RunReport { summary, report: with_config(config, report)? })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// A machine whose output fails its check fails the run (exit 1), naming the machine,
    /// instead of printing a table with `verified false`.
    #[test]
    fn a_machine_not_verified_fails_the_run() {
        let text = "program = \"prefix-sums\"\nn = 64\n";
        let file = ConfigFile::new(text, Path::new("."));
        let parsed: CrossConfig = file.parse().unwrap();
        let (instance, done) = parsed.source(&file).unwrap().run(&mut NoTrace).unwrap();
        let mut rows =
            compare_run(&instance, &done, parsed.program, parsed.n, parsed.seed).unwrap();
        assert!(rows.iter().all(|row| row.verified));
        assert!(run_report(&parsed, &rows).is_ok());
        rows[1].verified = false;
        let e = run_report(&parsed, &rows).unwrap_err();
        assert_eq!(e.fault(), netcore::fault::Fault::Run);
        let machine = rows[1].machine.as_str();
        assert_eq!(
            e.to_string(),
            format!(
                "verified: the {machine} run's output must equal its plain-Rust reference (got a different output)"
            )
        );
    }

    /// n = 128 PPUs and the CPU are 129 lanes: refused before the run, with the limit.
    #[test]
    fn too_large_is_refused() {
        let text = "program = \"prefix-sums\"\nn = 128\n";
        let e = CrossPram.run_pictured(&ConfigFile::new(text, Path::new("."))).unwrap_err();
        assert!(e.to_string().starts_with("ppus is too large: the run needs 129 lanes"), "{e}");
        assert!(e.to_string().contains("the limit is 128"), "{e}");
    }
}
