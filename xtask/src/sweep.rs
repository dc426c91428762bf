//! `cargo xtask sweep` and `cargo xtask merge`.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use netcore::study::{AnyStudy, JsonObject, ModelError, PreparedPoint};
use rayon::prelude::*;

use crate::cost::{Recorded, StudyCost};
use crate::generations::{INDEX, is_entry_link};
use crate::output::{INDEX_TITLE, StudyOutput, StudyRun, build, write_all};
use crate::referee::Grid;
use crate::spec::{Job, StudySpec, describe, load, spec_hash, swept_axes};
use crate::table::Row;
use crate::{model_error, registry, usage};

/// Arguments of `cargo xtask sweep`.
#[derive(Debug, clap::Args)]
pub(crate) struct SweepArgs {
    /// Studies to run (default: every study of the spec).
    studies: Vec<String>,
    /// A sweep spec file (default: the embedded `fixtures/sweeps/*.toml`).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Use each study's `quick` axes (small sizes, for CI).
    #[arg(long)]
    quick: bool,
    /// Output directory (default: `target/sweeps` in the workspace).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Run only the K-th of N deterministic slices of each study's jobs, e.g. `2/3`.
    #[arg(long)]
    shard: Option<String>,
    /// No progress bar or progress lines.
    #[arg(long)]
    quiet: bool,
    /// Validate every point and print the job counts, without running or writing anything.
    #[arg(long)]
    dry_run: bool,
}

/// The workspace root, found from this crate's manifest directory.
pub(crate) fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

pub(crate) fn default_out() -> PathBuf {
    project_root().join("target").join("sweeps")
}

fn parse_shard(text: &str) -> anyhow::Result<(u64, u64)> {
    let bad = || usage(format!("--shard must be K/N with 1 <= K <= N (got `{text}`)"));
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) =
        (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// A study ready to run: its spec, its implementation and its (sharded) jobs.
struct Planned {
    spec: StudySpec,
    model: &'static str,
    study: Box<dyn AnyStudy>,
    total_jobs: u64,
    /// The swept axes over all jobs (not only this shard's).
    axes: Vec<String>,
    /// The hash of the expanded spec (all jobs).
    spec_hash: String,
    /// The grid the jobs form: the embedded spec's default or quick grid (also when a spec
    /// file repeats it job for job), or a custom one.
    grid: Grid,
    jobs: Vec<Job>,
}

/// Validates every job's point, before anything runs; the error names the file, the study
/// and the point. A point whose parameters (the study's defaults filled in) name a job
/// column fails here, once per point, rather than in each of its rows.
fn prepare<'s>(
    spec: &StudySpec,
    study: &'s dyn AnyStudy,
    jobs: &[Job],
) -> anyhow::Result<Vec<PreparedPoint<'s>>> {
    jobs.iter()
        .map(|job| {
            let place =
                || format!("{}: study `{}`, point {}", spec.file, spec.name, describe(&job.params));
            let point = study.prepare(&job.params).map_err(|e| model_error(e, &place()))?;
            check_params(&point.params).map_err(|e| model_error(e.into(), &place()))?;
            Ok(point)
        })
        .collect()
}

/// A point's parameters must not take a job column's name: the spec refuses such a key
/// (`spec::JOB_COLUMNS`), so this catches a parameter the study fills in with a default.
fn check_params(params: &JsonObject) -> Result<(), RowError> {
    match params.keys().find(|key| crate::spec::JOB_COLUMNS.contains(&key.as_str())) {
        Some(key) => Err(RowError::ParamShadows(key.clone())),
        None => Ok(()),
    }
}

fn plan(args: &SweepArgs) -> anyhow::Result<Vec<Planned>> {
    let specs = load(args.config.as_deref())?;
    for wanted in &args.studies {
        if !specs.iter().any(|s| &s.name == wanted) {
            let known: Vec<_> = specs.iter().map(|s| s.name.as_str()).collect();
            return Err(usage(format!(
                "unknown study `{wanted}` (the sweep spec has: {})",
                known.join(", ")
            )));
        }
    }
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    check_threads(args.threads)?;
    let embedded = match args.config {
        Some(_) => load(None)?,
        None => Vec::new(),
    };
    let mut planned = Vec::new();
    for spec in specs {
        if !args.studies.is_empty() && !args.studies.contains(&spec.name) {
            continue;
        }
        let (model, study) =
            registry::study(&spec.name).map_err(|e| usage(format!("{}: {e}", spec.file)))?;
        let jobs = spec.jobs(args.quick)?;
        let total_jobs = jobs.len() as u64;
        let axes = swept_axes(&jobs);
        let spec_hash = spec_hash(&jobs);
        let embedded_grid = match &args.config {
            None => true,
            Some(_) => match embedded.iter().find(|e| e.name == spec.name) {
                Some(e) => crate::spec::spec_hash(&e.jobs(args.quick)?) == spec_hash,
                None => false,
            },
        };
        let grid = match (embedded_grid, args.quick) {
            (false, _) => Grid::Custom,
            (true, true) => Grid::Quick,
            (true, false) => Grid::Default,
        };
        // Validate every point before anything runs or any directory is created.
        prepare(&spec, study.as_ref(), &jobs)?;
        let jobs = match shard {
            Some((k, n)) => jobs.into_iter().filter(|j| j.index % n == k - 1).collect(),
            None => jobs,
        };
        planned.push(Planned { spec, model, study, total_jobs, axes, spec_hash, grid, jobs });
    }
    if !args.dry_run {
        let names: Vec<&str> = planned.iter().map(|p| p.spec.name.as_str()).collect();
        check_out(&args.out.clone().unwrap_or_else(default_out), &names)?;
    }
    Ok(planned)
}

fn progress(total: u64, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{prefix:>24} [{bar:30}] {percent:>3}%  {msg}  ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar
}

type JobResult = (Vec<Row>, f64);

/// Why a point's rows cannot be accepted: a bug in the study, or a run whose result differs
/// from its reference execution.
#[derive(Debug, thiserror::Error)]
enum RowError {
    #[error("row column `{0}` repeats a parameter or a job column")]
    Shadows(String),
    /// Found by [`check_params`] when a point is prepared.
    #[error("study parameter `{0}` is named like a job column (job, seed, rep)")]
    ParamShadows(String),
    #[error("column `verified` must be a boolean (got {0})")]
    VerifiedNotBool(serde_json::Value),
    #[error("verified = false: the run's result differs from its reference execution")]
    NotVerified,
}

impl netcore::fault::Classify for RowError {
    fn fault(&self) -> netcore::fault::Fault {
        netcore::fault::Fault::Run
    }
}

/// Runs one job: its rows, each prefixed with `job`, `seed`, `rep` and the point's parameters.
/// A row whose `verified` column is not `true` fails the job.
fn run_job(point: &PreparedPoint<'_>, job: &Job) -> Result<JobResult, ModelError> {
    let mut rng = netcore::rng::seeded(job.seed, job.index);
    let start = Instant::now();
    let rows = point.run(&mut rng)?;
    let millis = start.elapsed().as_secs_f64() * 1e3;
    let rows: Result<Vec<Row>, RowError> =
        rows.into_iter().map(|row| prefixed(job, &point.params, row)).collect();
    Ok((rows?, millis))
}

fn prefixed(job: &Job, params: &JsonObject, row: JsonObject) -> Result<Row, RowError> {
    let mut full = Row::new();
    let [job_key, seed_key, rep_key] = crate::spec::JOB_COLUMNS;
    full.insert(job_key.into(), job.index.into());
    full.insert(seed_key.into(), job.seed.into());
    full.insert(rep_key.into(), job.rep.into());
    // `prepare` refused a parameter named like a job column (`check_params`).
    for (key, value) in params {
        full.insert(key.clone(), value.clone());
    }
    for (key, value) in row {
        if key == "verified" {
            match value {
                serde_json::Value::Bool(true) => {}
                serde_json::Value::Bool(false) => return Err(RowError::NotVerified),
                other => return Err(RowError::VerifiedNotBool(other)),
            }
        }
        if full.contains_key(&key) {
            return Err(RowError::Shadows(key));
        }
        full.insert(key, value);
    }
    Ok(full)
}

/// The most worker threads `--threads` may ask for.
pub(crate) const MAX_THREADS: usize = 1024;

/// Checks `--threads` before any work: at least 1 (leave it out for every core) and at most
/// [`MAX_THREADS`].
pub(crate) fn check_threads(threads: Option<usize>) -> anyhow::Result<()> {
    match threads {
        Some(0) => {
            Err(usage("--threads must be at least 1 (got 0; leave it out to use every core)"))
        }
        Some(n) if n > MAX_THREADS => {
            Err(usage(format!("--threads must be at most {MAX_THREADS} (got {n})")))
        }
        _ => Ok(()),
    }
}

/// Checks `--out` before any work: its nearest existing ancestor is a writable directory, and
/// every entry the sweep would replace (a study `out/STUDY`, the index `out/report.md`) was
/// written by xtask: the link into the current generation xtask makes (see `generations.rs`),
/// or, as an older xtask wrote them, a study directory holding `run.json` or an index file
/// starting with its title. A user's file is never moved or deleted.
pub(crate) fn check_out(out: &Path, studies: &[&str]) -> anyhow::Result<()> {
    writable_dir(out, "--out")?;
    if out.join("Cargo.toml").exists() || out.join(".git").exists() {
        return Err(usage(format!(
            "--out {}: a source tree (it holds Cargo.toml or .git): choose a directory of \
             outputs, e.g. target/sweeps",
            out.display()
        )));
    }
    for study in studies {
        let target = out.join(study);
        // A link into the current generation, or a study directory an older xtask wrote.
        let plain = std::fs::symlink_metadata(&target).is_ok_and(|m| m.is_dir());
        let ours = is_entry_link(out, study) || (plain && target.join("run.json").is_file());
        if std::fs::symlink_metadata(&target).is_ok() && !ours {
            return Err(usage(format!(
                "--out {}: {} exists and was not written by xtask (a study directory it writes \
                 holds run.json): move it away or choose another --out",
                out.display(),
                target.display()
            )));
        }
    }
    let index = out.join(INDEX);
    if std::fs::symlink_metadata(&index).is_ok() && !is_entry_link(out, INDEX) {
        let text = std::fs::read(&index).unwrap_or_default();
        let plain = std::fs::symlink_metadata(&index).is_ok_and(|m| m.is_file());
        if !plain || !text.starts_with(INDEX_TITLE.as_bytes()) {
            return Err(usage(format!(
                "--out {}: {} exists and is not a sweep index written by xtask: move it away or \
                 choose another --out",
                out.display(),
                index.display()
            )));
        }
    }
    Ok(())
}

/// Checks that `dir`'s nearest existing ancestor is a directory one can write in (`flag`
/// names the argument in the message).
pub(crate) fn writable_dir(dir: &Path, flag: &str) -> anyhow::Result<()> {
    let out = dir;
    let mut existing = out;
    while !existing.exists() {
        match existing.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => existing = parent,
            _ => {
                existing = Path::new(".");
                break;
            }
        }
    }
    if !existing.is_dir() {
        return Err(usage(format!(
            "{flag} {}: {} is not a directory",
            out.display(),
            existing.display()
        )));
    }
    let probe = existing.join(format!(".xtask-tmp-probe-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| {
        usage(format!("{flag} {}: cannot write in {}: {e}", out.display(), existing.display()))
    })?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// Each job's weight in the progress bar: its wall time in the previous run of the same spec
/// under `out` (microseconds, from `timings.csv`), or, without one, the mean of the known
/// weights (1 ms when none is known). The ETA then follows the measured per-point cost
/// instead of assuming every point costs the same.
fn job_weights(out: &Path, planned: &[Planned]) -> Vec<Vec<u64>> {
    planned
        .iter()
        .map(|p| {
            let dir = out.join(&p.spec.name);
            let same_spec = std::fs::read(dir.join("results.json"))
                .ok()
                .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
                .is_some_and(|v| v["spec_hash"].as_str() == Some(p.spec_hash.as_str()));
            let known: std::collections::BTreeMap<u64, f64> = if same_spec {
                read_timings(&dir.join("timings.csv"))
                    .unwrap_or_default()
                    .into_iter()
                    .map(|(job, _, _, millis)| (job, millis))
                    .collect()
            } else {
                std::collections::BTreeMap::new()
            };
            let micros = |millis: f64| (millis * 1000.0).clamp(1.0, 1e12).round() as u64;
            let fallback = if known.is_empty() {
                1000
            } else {
                micros(known.values().sum::<f64>() / known.len() as f64)
            };
            p.jobs.iter().map(|j| known.get(&j.index).map_or(fallback, |&m| micros(m))).collect()
        })
        .collect()
}

impl SweepArgs {
    /// Every study of the embedded specs (default axes, or `quick` ones), written to `out`.
    /// Every study of the sweep spec `config` (its default axes), written to `out`.
    pub(crate) fn of_file(
        config: PathBuf,
        out: PathBuf,
        threads: Option<usize>,
        quiet: bool,
    ) -> Self {
        Self {
            studies: Vec::new(),
            config: Some(config),
            quick: false,
            out: Some(out),
            threads,
            shard: None,
            quiet,
            dry_run: false,
        }
    }

    pub(crate) fn every_study(
        out: PathBuf,
        quick: bool,
        threads: Option<usize>,
        quiet: bool,
    ) -> Self {
        Self {
            studies: Vec::new(),
            config: None,
            quick,
            out: Some(out),
            threads,
            shard: None,
            quiet,
            dry_run: false,
        }
    }
}

/// `cargo xtask sweep`; returns whether every claim passed.
pub(crate) fn sweep(args: &SweepArgs) -> anyhow::Result<bool> {
    let planned = plan(args)?;
    if args.dry_run {
        let threads = args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let recorded = crate::cost::recorded_in(&project_root().join("docs").join("results"));
        for p in &planned {
            println!(
                "{}: {} jobs, every point valid ({}); {}",
                p.spec.name,
                p.jobs.len(),
                p.spec.file,
                crate::cost::estimate(&recorded, &p.spec.name, &p.spec_hash, threads)
            );
        }
        return Ok(true);
    }
    let (out, outputs) = execute(args, &planned)?;
    Ok(summarise(&out, &outputs))
}

/// Runs every planned study and writes its output; returns the output directory and the
/// outputs, in spec order.
pub(crate) fn run_and_write(args: &SweepArgs) -> anyhow::Result<(PathBuf, Vec<StudyOutput>)> {
    execute(args, &plan(args)?)
}

fn execute(args: &SweepArgs, planned: &[Planned]) -> anyhow::Result<(PathBuf, Vec<StudyOutput>)> {
    let out = args.out.clone().unwrap_or_else(default_out);
    let threads = args.threads.unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start worker threads")?;
    let total: u64 = planned.iter().map(|p| p.jobs.len() as u64).sum();
    let weights = job_weights(&out, planned);
    let bar = progress(weights.iter().flatten().sum(), args.quiet);
    let done = std::sync::atomic::AtomicU64::new(0);
    let plain = !args.quiet && bar.is_hidden();
    let command = std::env::args().skip(1).collect::<Vec<_>>().join(" ");
    let mut outputs: Vec<StudyOutput> = Vec::new();
    let mut failures = Vec::new();
    for (p, weights) in planned.iter().zip(&weights) {
        bar.set_prefix(p.spec.name.clone());
        if plain {
            eprintln!("sweep: {} ({} points)", p.spec.name, p.jobs.len());
        }
        crate::cost::reset_peak();
        let started = Instant::now();
        let points = prepare(&p.spec, p.study.as_ref(), &p.jobs)?;
        let results: Vec<Result<JobResult, ModelError>> = pool.install(|| {
            p.jobs
                .par_iter()
                .zip(&points)
                .zip(weights)
                .map(|((job, point), &weight)| {
                    let result = run_job(point, job);
                    let finished = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                    bar.set_message(format!("{finished}/{total} points"));
                    bar.inc(weight);
                    result
                })
                .collect()
        });
        let mut rows = Vec::with_capacity(results.len());
        let mut timings = Vec::with_capacity(results.len());
        for (job, result) in p.jobs.iter().zip(results) {
            match result {
                Ok((job_rows, millis)) => {
                    rows.extend(job_rows);
                    timings.push((job.index, job.seed, job.rep, millis));
                }
                Err(e) => failures.push(model_error(
                    e,
                    &format!(
                        "{}: study `{}`, point {} (seed {})",
                        p.spec.file,
                        p.spec.name,
                        describe(&job.params),
                        job.seed
                    ),
                )),
            }
        }
        if plain {
            eprintln!("sweep: {} done in {:.1} s", p.spec.name, started.elapsed().as_secs_f64());
        }
        let cost = StudyCost {
            jobs: p.jobs.len() as u64,
            job_seconds: timings.iter().map(|t| t.3).sum::<f64>() / 1000.0,
            longest_job_seconds: timings.iter().map(|t| t.3).fold(0.0, f64::max) / 1000.0,
            wall_seconds: started.elapsed().as_secs_f64(),
            threads: pool.current_num_threads(),
            peak_bytes: crate::cost::peak_bytes(),
        };
        if failures.is_empty() {
            let run = StudyRun {
                model: p.model.to_string(),
                total_jobs: p.total_jobs,
                axes: p.axes.clone(),
                spec_hash: p.spec_hash.clone(),
                shard: args.shard.clone(),
                grid: p.grid,
                rows,
                timings,
            };
            let mut output = build(p.study.as_ref(), &run, &format!("cargo xtask {command}"))?;
            output.cost = Some(Recorded {
                spec: p.spec.file.clone(),
                study: p.spec.name.clone(),
                spec_hash: p.spec_hash.clone(),
                cost,
            });
            outputs.push(output);
        }
    }
    bar.finish_and_clear();
    if !failures.is_empty() {
        let input = failures.iter().any(|e| e.downcast_ref::<crate::UsageError>().is_some());
        let lines: Vec<String> = failures.iter().map(|e| format!("{e:#}")).collect();
        let message =
            format!("{} point(s) failed, nothing written:\n{}", failures.len(), lines.join("\n"));
        return Err(if input { usage(message) } else { anyhow::anyhow!(message) });
    }
    write_all(&out, &outputs)?;
    Ok((out, outputs))
}

pub(crate) fn summarise(out: &Path, outputs: &[StudyOutput]) -> bool {
    for output in outputs {
        println!("{}: {}", output.name, out.join(&output.name).join("report.md").display());
        for judgement in &output.judgements {
            println!("  {}", judgement.line);
        }
    }
    outputs.iter().all(|o| o.judgements.iter().all(|j| j.as_expected))
}

/// The largest `results.json` of a shard `merge` reads (4 GiB).
const MAX_SHARD_BYTES: u64 = 4 << 30;

/// `cargo xtask merge`: joins shard outputs into the bytes a single run writes.
///
/// Every row is checked against the jobs of the spec the shards were run from (the embedded
/// spec, or `config`, found by the shards' spec hash): its job exists, its seed, repetition and
/// parameters are the job's, and every job a shard timed has a row there.
pub(crate) fn merge(dirs: &[PathBuf], out: &Path, config: Option<&Path>) -> anyhow::Result<bool> {
    // study name -> (model, total jobs, rows, timings)
    let mut studies: std::collections::BTreeMap<String, StudyRun> =
        std::collections::BTreeMap::new();
    let mut specs = load(None)?;
    if let Some(config) = config {
        specs.extend(load(Some(config))?);
    }
    let mut known: std::collections::BTreeMap<String, Vec<Job>> = Default::default();
    for dir in dirs {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| usage(format!("{}: cannot read shard output: {e}", dir.display())))?;
        let mut names: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path().join("results.json"))
            .filter(|p| p.exists())
            .collect();
        names.sort();
        for path in names {
            let text = netcore::input::read_text(&path, "shard output", MAX_SHARD_BYTES)
                .map_err(|e| usage(e.to_string()))?;
            let value: serde_json::Value = serde_json::from_str(&text)
                .map_err(|e| usage(format!("{}: {e}", path.display())))?;
            let field = |key: &str| {
                value
                    .get(key)
                    .ok_or_else(|| usage(format!("{}: missing field `{key}`", path.display())))
            };
            let name = field("study")?.as_str().unwrap_or_default().to_string();
            let model = field("model")?.as_str().unwrap_or_default().to_string();
            let total_jobs = field("total_jobs")?.as_u64().unwrap_or_default();
            let spec_hash = field("spec_hash")?.as_str().unwrap_or_default().to_string();
            let grid: Grid = serde_json::from_value(field("grid")?.clone())
                .map_err(|e| usage(format!("{}: field `grid`: {e}", path.display())))?;
            let axes: Vec<String> = field("axes")?
                .as_array()
                .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect())
                .unwrap_or_default();
            let rows: Vec<Row> = field("rows")?
                .as_array()
                .map(|rows| rows.iter().filter_map(|r| r.as_object().cloned()).collect())
                .unwrap_or_default();
            let timings = read_timings(&path.with_file_name("timings.csv"))?;
            let entry = studies.entry(name.clone()).or_insert_with(|| StudyRun {
                model: model.clone(),
                total_jobs,
                axes: axes.clone(),
                spec_hash: spec_hash.clone(),
                shard: None,
                grid,
                rows: Vec::new(),
                timings: Vec::new(),
            });
            if entry.spec_hash != spec_hash {
                return Err(usage(format!(
                    "{}: study `{name}` comes from a different sweep spec than in another shard \
                     (spec hash {spec_hash} vs {}): merge only shards of one spec",
                    path.display(),
                    entry.spec_hash
                )));
            }
            if entry.total_jobs != total_jobs {
                return Err(usage(format!(
                    "{}: study `{name}` has {total_jobs} jobs here but {} in another shard",
                    path.display(),
                    entry.total_jobs
                )));
            }
            if !known.contains_key(&spec_hash) {
                let jobs = spec_jobs(&specs, &name, &spec_hash)
                    .map_err(|e| usage(format!("{}: {e}", path.display())))?;
                known.insert(spec_hash.clone(), jobs);
            }
            check_rows(&path, &rows, &timings, &known[&spec_hash])?;
            entry.rows.extend(rows);
            entry.timings.extend(timings);
        }
    }
    if studies.is_empty() {
        return Err(usage(
            "no shard output (DIR/STUDY/results.json) found in the given directories",
        ));
    }
    let mut outputs = Vec::new();
    for (name, mut run) in studies {
        let (_, study) = registry::study(&name)?;
        run.rows.sort_by_key(|row| row.get("job").and_then(|j| j.as_u64()).unwrap_or(u64::MAX));
        run.timings.sort_by_key(|t| t.0);
        // One job may have written several rows: the jobs are the timings' (one line each).
        let jobs: Vec<u64> = run.timings.iter().map(|t| t.0).collect();
        let complete = jobs.len() as u64 == run.total_jobs
            && jobs.iter().enumerate().all(|(i, &j)| i as u64 == j);
        if !complete {
            return Err(usage(format!(
                "study `{name}`: the shards hold {} of {} jobs (missing or duplicated shards)",
                jobs.len(),
                run.total_jobs
            )));
        }
        outputs.push(build(study.as_ref(), &run, "cargo xtask merge")?);
    }
    let names: Vec<&str> = outputs.iter().map(|o| o.name.as_str()).collect();
    check_out(out, &names)?;
    write_all(out, &outputs)?;
    Ok(summarise(out, &outputs))
}

/// The jobs of the spec of study `name` whose expanded jobs hash to `spec_hash` (default or
/// quick axes), among `specs`.
fn spec_jobs(specs: &[StudySpec], name: &str, spec_hash: &str) -> anyhow::Result<Vec<Job>> {
    for spec in specs.iter().filter(|s| s.name == name) {
        for quick in [false, true] {
            let jobs = spec.jobs(quick)?;
            if crate::spec::spec_hash(&jobs) == spec_hash {
                return Ok(jobs);
            }
        }
    }
    Err(anyhow::anyhow!(
        "study `{name}` was run from a sweep spec that is not embedded (spec hash {spec_hash}): \
         pass it with --config FILE so that every row can be checked against its jobs"
    ))
}

/// Checks one shard's rows against the spec's `jobs`: each row names a job of the spec with
/// its seed, repetition and parameters, and every job timed in the shard has a row.
fn check_rows(
    path: &Path,
    rows: &[Row],
    timings: &[(u64, u64, u32, f64)],
    jobs: &[Job],
) -> anyhow::Result<()> {
    let bad = |i: usize, what: String| usage(format!("{}: row {i}: {what}", path.display()));
    let mut with_rows = std::collections::BTreeSet::new();
    for (i, row) in rows.iter().enumerate() {
        let index = row.get("job").and_then(serde_json::Value::as_u64);
        let Some(job) = index.and_then(|j| usize::try_from(j).ok()).and_then(|j| jobs.get(j))
        else {
            let job = row.get("job").map_or_else(|| "missing".to_string(), ToString::to_string);
            return Err(bad(i, format!("job {job} is not a job of the spec")));
        };
        for (key, want) in
            [("seed", json_u64(job.seed)), ("rep", json_u64(u64::from(job.rep)))].into_iter().chain(
                job.params.as_object().into_iter().flatten().map(|(k, v)| (k.as_str(), v.clone())),
            )
        {
            if row.get(key) != Some(&want) {
                return Err(bad(
                    i,
                    format!(
                        "job {}: `{key}` is {:?}, the spec has {want}",
                        job.index,
                        row.get(key)
                    ),
                ));
            }
        }
        with_rows.insert(job.index);
    }
    if let Some((job, ..)) = timings.iter().find(|t| !with_rows.contains(&t.0)) {
        return Err(usage(format!(
            "{}: job {job} is timed in timings.csv but has no row (damaged shard)",
            path.display()
        )));
    }
    Ok(())
}

fn json_u64(x: u64) -> serde_json::Value {
    serde_json::Value::from(x)
}

fn read_timings(path: &Path) -> anyhow::Result<Vec<(u64, u64, u32, f64)>> {
    let Ok(text) = std::fs::read_to_string(path) else { return Ok(Vec::new()) };
    let mut timings = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        let bad =
            || usage(format!("{}: line {}: not `job,seed,rep,millis`", path.display(), i + 1));
        let fields: Vec<&str> = line.split(',').collect();
        let [job, seed, rep, millis] = fields.as_slice() else { return Err(bad()) };
        let parsed = (|| {
            Some((job.parse().ok()?, seed.parse().ok()?, rep.parse().ok()?, millis.parse().ok()?))
        })();
        timings.push(parsed.ok_or_else(bad)?);
    }
    Ok(timings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job() -> Job {
        Job { index: 7, seed: 1, rep: 0, params: serde_json::json!({}) }
    }

    fn object(value: serde_json::Value) -> JsonObject {
        value.as_object().cloned().unwrap_or_default()
    }

    /// A row gets the job columns and the parameters in front; a row that repeats a
    /// parameter, or whose `verified` is not `true`, fails its job, and a parameter named like
    /// a job column fails its point when it is prepared (each a failed run: exit status 1).
    #[test]
    fn rows_are_prefixed_and_checked() {
        let params = object(serde_json::json!({ "n": 4 }));
        let row =
            prefixed(&job(), &params, object(serde_json::json!({ "cost": 2.5, "verified": true })));
        let keys: Vec<&str> = row.as_ref().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["job", "seed", "rep", "n", "cost", "verified"]);
        let unverified = object(serde_json::json!({ "verified": false }));
        assert!(matches!(prefixed(&job(), &params, unverified), Err(RowError::NotVerified)));
        let shadow = object(serde_json::json!({ "n": 5 }));
        assert!(matches!(prefixed(&job(), &params, shadow), Err(RowError::Shadows(k)) if k == "n"));
        assert!(check_params(&params).is_ok());
        let seed_param = object(serde_json::json!({ "n": 4, "seed": 3 }));
        assert!(matches!(check_params(&seed_param), Err(RowError::ParamShadows(k)) if k == "seed"));
        let not_bool = object(serde_json::json!({ "verified": 1 }));
        assert!(matches!(prefixed(&job(), &params, not_bool), Err(RowError::VerifiedNotBool(_))));
        let error: ModelError = RowError::NotVerified.into();
        assert_eq!(error.fault(), netcore::fault::Fault::Run);
    }

    /// The rows of the first job of `spec`'s quick grid, as a sweep writes them.
    fn first_quick_rows(spec: &crate::spec::StudySpec) -> Vec<Row> {
        let (_, study) = crate::registry::study(&spec.name).unwrap();
        let jobs = spec.jobs(true).unwrap();
        let points = super::prepare(spec, study.as_ref(), &jobs[..1]).unwrap();
        super::run_job(&points[0], &jobs[0]).unwrap().0
    }

    /// Every column a claim or a plot of a study names is a column of the study's rows: the
    /// first job of each study's quick grid is run and its rows' columns (the job's prefix,
    /// the point's parameters and the row's fields) are the study's columns.
    #[test]
    fn claims_and_plots_name_columns_of_their_study() {
        for spec in crate::spec::load(None).unwrap() {
            let (_, study) = crate::registry::study(&spec.name).unwrap();
            let rows = first_quick_rows(&spec);
            let columns: std::collections::BTreeSet<&str> =
                rows.iter().flat_map(|r| r.keys().map(String::as_str)).collect();
            assert!(!columns.is_empty(), "{}: no rows", spec.name);
            let claims = study.claims().into_iter().map(|c| {
                (c.statement.clone(), c.columns().into_iter().map(str::to_string).collect())
            });
            let plots = study.plots().into_iter().map(|p| {
                (p.name.clone(), p.columns().into_iter().map(str::to_string).collect::<Vec<_>>())
            });
            for (what, names) in claims.chain(plots) {
                for name in names {
                    assert!(
                        columns.contains(name.as_str()),
                        "{}: `{what}` names `{name}`, not a column ({columns:?})",
                        spec.name
                    );
                }
            }
        }
    }

    /// Every claim can decide on its study's default grid: a result with a band names its law
    /// and a rival, the law passes, and every rival fails where REPRODUCED is expected (so a
    /// band that admits a declared rival, or rejects its own law, fails this test). The grid
    /// is the committed report's (`docs/results/STUDY/results.csv`, as new as the code by
    /// `committed_report_matches_the_study_definitions`).
    #[test]
    fn every_claim_discriminates_on_its_default_grid() {
        let mut wrong = Vec::new();
        for spec in crate::spec::load(None).unwrap() {
            let (_, study) = crate::registry::study(&spec.name).unwrap();
            let path = project_root().join("docs/results").join(&spec.name).join("results.csv");
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e} (run `cargo xtask report`)", path.display()));
            let rows = crate::table::rows_from_csv(&text).unwrap();
            let axes = crate::spec::swept_axes(&spec.jobs(false).unwrap());
            for claim in study.claims() {
                if let Err(why) = crate::referee::discriminates(&claim, &rows, &axes) {
                    wrong.push(format!("{}: {}: {why}", spec.name, claim.statement));
                }
            }
        }
        assert!(wrong.is_empty(), "claims that cannot decide:\n{}", wrong.join("\n"));
    }

    /// The discrimination test can fail: one restated claim of the committed report, its
    /// band widened until it admits its rival, no longer decides.
    #[test]
    fn widening_a_band_to_admit_the_rival_fails_the_discrimination_test() {
        let spec = crate::spec::load(None)
            .unwrap()
            .into_iter()
            .find(|s| s.name == "actor-pram-theorem2")
            .unwrap();
        let (_, study) = crate::registry::study(&spec.name).unwrap();
        let path = project_root().join("docs/results").join(&spec.name).join("results.csv");
        let rows = crate::table::rows_from_csv(&std::fs::read_to_string(path).unwrap()).unwrap();
        let axes = crate::spec::swept_axes(&spec.jobs(false).unwrap());
        let mut claim = study
            .claims()
            .into_iter()
            .find(|c| {
                c.law.is_some() && c.expected_verdict() == netcore::study::Verdict::Reproduced
            })
            .expect("a claim expected REPRODUCED against a rival");
        assert_eq!(
            crate::referee::discriminates(&claim, &rows, &axes),
            Ok(()),
            "{}",
            claim.statement
        );
        claim.check = match claim.check {
            netcore::study::Check::Within { .. } => {
                netcore::study::Check::Within { lo: f64::MIN, hi: f64::MAX }
            }
            netcore::study::Check::Slope { x, .. } => {
                netcore::study::Check::Slope { x, lo: -10.0, hi: 10.0 }
            }
            netcore::study::Check::Exponent { x, .. } => {
                netcore::study::Check::Exponent { x, lo: -10.0, hi: 10.0 }
            }
            other => other,
        };
        let widened = crate::referee::discriminates(&claim, &rows, &axes);
        assert!(widened.as_ref().is_err_and(|e| e.contains("ADMITTED")), "{widened:?}");
    }
}
