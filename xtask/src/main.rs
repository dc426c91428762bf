//! `cargo xtask`: the experiment driver.
//!
//! - `list`: models and studies, one line each.
//! - `describe STUDY`: a study's parameters with their values in the default, quick and large
//!   grids, and its claims with their kinds and expected verdicts.
//! - `run MODEL CONFIG.toml [--json] [--svg FILE]`: one configuration of one model; `--svg`
//!   also writes the picture of the run (a space-time diagram, [`picture`]).
//! - `sweep [STUDY...] [--config F] [--quick] [--out DIR] [--threads N] [--shard K/N]`: parameter
//!   studies, written under `target/sweeps/<study>/`.
//! - `pictures [--check]`: regenerates (or checks) the committed pictures under
//!   `docs/pictures/` from their fixtures.
//! - `merge DIR... [--out DIR] [--config F]`: joins shard outputs into the bytes one run would
//!   write, every row checked against the jobs of the spec they were run from.
//! - `report [--out DIR] [--quick]`: every study, then the reproduction report
//!   `docs/results/README.md` with its plots.
//!
//! Exit status: 0 on success, 2 on a usage or config error (the message names the file, the
//! field and the rule), 1 on a failed run or a failed claim.

/// mimalloc: transparent huge pages for large blocks (not in single runs, [`run`]), freed pages
/// kept (`.cargo/config.toml`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod claims;
mod cost;
mod describe;
#[cfg(test)]
mod fuzz;
mod generations;
mod large;
mod output;
mod picture;
mod pictures;
mod plot;
mod referee;
mod registry;
mod report;
mod sources;
mod spec;
mod style;
mod sweep;
mod table;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// A user error (exit status 2), as opposed to a failed run (exit status 1).
#[derive(Debug)]
pub(crate) struct UsageError(pub(crate) String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Shorthand: a usage error as an `anyhow::Error`.
pub(crate) fn usage(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UsageError(message.into()))
}

#[derive(Debug, Parser)]
#[command(name = "cargo xtask", about = "Run and sweep the models of parallel computation")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the models and their studies.
    List,
    /// Run one configuration of one model.
    Run {
        /// The model (crate) name, e.g. `logp-stall`.
        model: String,
        /// The configuration file (TOML).
        config: PathBuf,
        /// Print the full report as JSON instead of the summary.
        #[arg(long)]
        json: bool,
        /// Also write the picture of the run (SVG) to this file; refused before the run (exit
        /// status 2) if the file cannot be written, the model draws none or the run is too
        /// large to draw.
        #[arg(long)]
        svg: Option<PathBuf>,
    },
    /// Describe a study: its parameters and their values in each grid, and its claims.
    Describe {
        /// The study (see `cargo xtask list`).
        study: String,
    },
    /// Run parameter studies and write CSV, JSON, SVG plots and a Markdown report.
    Sweep(sweep::SweepArgs),
    /// Run every study and write the reproduction report (`docs/results/README.md`).
    Report(report::ReportArgs),
    /// Regenerate the committed pictures under `docs/pictures/` from their fixtures.
    Pictures {
        /// Compare with the committed files instead of writing (exit status 1 if one differs).
        #[arg(long)]
        check: bool,
    },
    /// Join shard outputs (directories written with `sweep --shard K/N`) into one output.
    Merge {
        /// The shard output directories.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Where to write the merged output (default: `target/sweeps` in the workspace, as
        /// `sweep` writes).
        #[arg(long)]
        out: Option<PathBuf>,
        /// The sweep spec the shards were run from, when it is not an embedded one.
        #[arg(long)]
        config: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    let result = match cli.command {
        Command::List => print(&registry::list()).map(|()| true),
        Command::Run { model, config, json, svg } => {
            run(&model, &config, json, svg.as_deref()).map(|()| true)
        }
        Command::Describe { study } => {
            describe::describe(&study).and_then(|t| print(&t)).map(|()| true)
        }
        Command::Sweep(args) => sweep::sweep(&args),
        Command::Pictures { check } => pictures::pictures(check),
        Command::Merge { dirs, out, config } => {
            let out = out.unwrap_or_else(sweep::default_out);
            sweep::merge(&dirs, &out, config.as_deref())
        }
        Command::Report(args) => report::report(&args),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) if e.downcast_ref::<UsageError>().is_some() => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// A model's error with the place it happened: a usage error (exit status 2) if it is the
/// user's input, a failed run (exit status 1) otherwise, decided by the error's type.
pub(crate) fn model_error(error: netcore::study::ModelError, place: &str) -> anyhow::Error {
    match error.fault() {
        netcore::fault::Fault::Input => usage(format!("{place}: {error}")),
        netcore::fault::Fault::Run => anyhow::anyhow!("{place}: run failed: {error}"),
    }
}

/// `cargo xtask run MODEL CONFIG.toml`.
fn run(
    model: &str,
    config: &std::path::Path,
    json: bool,
    svg: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    let model = registry::model(model)?;
    // A single run's peak resident memory is one of its measures (the GOAL runs' is compared
    // with LogGOPSim's). mimalloc asks for transparent huge pages on its whole arena, so every
    // 2 MiB region a run touches would be resident whole: a linear all-to-all at p = 256 held
    // 47-50 MB for about 9 MB of heap (21 MB without them). Sweeps keep them. Best effort: a
    // kernel without the setting leaves them on, and the run's results do not depend on it.
    #[cfg(target_os = "linux")]
    let _ = rustix::thread::disable_transparent_huge_pages(true);
    let text = netcore::input::read_text(config, "config", netcore::input::MAX_TEXT_BYTES)
        .map_err(|e| usage(e.to_string()))?;
    let dir = config.parent().unwrap_or(std::path::Path::new("."));
    let file = netcore::study::ConfigFile::new(&text, dir);
    let report = match svg {
        Some(svg) => {
            // One run for both: a path that cannot be written and a run too large to draw are
            // refused before it runs, and the picture is written before the report is printed.
            let claimed = output::ClaimedFile::claim(svg)?;
            announce(model.name(), config);
            let (report, document) = run_pictured(model, config, &file)?;
            claimed.write(&document)?;
            report
        }
        None => {
            announce(model.name(), config);
            model.run_config(&file).map_err(|e| model_error(e, &config.display().to_string()))?
        }
    };
    if json {
        print(&format!("{}\n", serde_json::to_string_pretty(&report.report)?))
    } else {
        print(&format!("{}\n", report.summary))
    }
}

/// Tells a user at a terminal that the run has started (a large config runs for minutes
/// before its report prints); standard output, which carries the report, is left alone.
fn announce(model: &str, config: &std::path::Path) {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        eprintln!("running {model} on {} ...", config.display());
    }
}

/// Writes `text` to standard output. A reader that closed the pipe early (`| head`) ends the
/// output quietly: the run itself succeeded.
fn print(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::anyhow!("cannot write to standard output: {e}"))
        }
        _ => Ok(()),
    }
}

/// One run of `config`: its report and the SVG of its picture, titled with the config's file
/// name.
pub(crate) fn run_pictured(
    model: &dyn netcore::study::Model,
    config: &std::path::Path,
    file: &netcore::study::ConfigFile<'_>,
) -> anyhow::Result<(netcore::study::RunReport, String)> {
    let (report, mut picture) =
        model.run_pictured(file).map_err(|e| model_error(e, &config.display().to_string()))?;
    let name = config
        .file_name()
        .map_or_else(|| config.display().to_string(), |n| n.to_string_lossy().into_owned());
    picture.title = format!("{name}: {}", picture.title);
    Ok((report, picture::render(&picture)))
}
