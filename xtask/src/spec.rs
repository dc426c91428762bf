//! Sweep specs: TOML files of `[[study]]` tables, expanded into jobs.
//!
//! A study table has `name`, optional `seeds` (default `[0]`) and `repetitions` (default 1),
//! and the sub-tables `fixed` (same for every point), `grid` (a cartesian product of axes),
//! `zip` (axes zipped element-wise, crossed with the grid) and `quick` (axes that replace the
//! grid's or zip's axes of the same name under `--quick`). Jobs are numbered in a fixed order
//! (grid points with the first axis outermost, then zip positions, then seeds, then
//! repetitions), and job `j` draws from the stream `seeded(seed, j)`, so the result of a job
//! does not depend on which thread or shard runs it.
#![warn(clippy::cast_possible_truncation)]

use std::path::Path;

use serde::Deserialize;

use crate::{registry, usage};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SweepFile {
    study: Vec<StudySpec>,
}

/// One `[[study]]` table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StudySpec {
    pub(crate) name: String,
    #[serde(default = "default_seeds")]
    pub(crate) seeds: Vec<u64>,
    #[serde(default = "default_repetitions")]
    pub(crate) repetitions: u32,
    #[serde(default)]
    pub(crate) fixed: toml::Table,
    #[serde(default)]
    pub(crate) grid: toml::Table,
    #[serde(default)]
    pub(crate) zip: toml::Table,
    #[serde(default)]
    pub(crate) quick: toml::Table,
    /// The file the spec came from (for messages).
    #[serde(skip)]
    pub(crate) file: String,
}

fn default_seeds() -> Vec<u64> {
    vec![0]
}

fn default_repetitions() -> u32 {
    1
}

/// The most jobs one study of a sweep may expand to (each job's parameters are held in
/// memory, a few hundred bytes each).
pub(crate) const MAX_JOBS: u64 = 1_000_000;

/// The columns every row of a job starts with (see `sweep::run_job`): the job's index, seed and
/// repetition. A study parameter may not take one of these names, or it would overwrite the
/// column.
pub(crate) const JOB_COLUMNS: [&str; 3] = ["job", "seed", "rep"];

/// One run of one point.
#[derive(Debug, Clone)]
pub(crate) struct Job {
    /// Position in the study's job order; also the RNG stream.
    pub(crate) index: u64,
    pub(crate) seed: u64,
    pub(crate) rep: u32,
    pub(crate) params: serde_json::Value,
}

/// The study's swept axes: the parameters that take more than one value over `jobs`, in the
/// order of the first job's parameters. Claims hold them fixed per group (see `claims`).
pub(crate) fn swept_axes(jobs: &[Job]) -> Vec<String> {
    let Some(first) = jobs.first().and_then(|j| j.params.as_object()) else { return Vec::new() };
    first
        .iter()
        .filter(|(key, value)| jobs.iter().any(|j| j.params.get(key.as_str()) != Some(value)))
        .map(|(key, _)| key.clone())
        .collect()
}

/// Parses the study tables of one sweep file.
pub(crate) fn parse(file: &str, text: &str) -> anyhow::Result<Vec<StudySpec>> {
    let parsed: SweepFile = toml::from_str(text)
        .map_err(|e| usage(format!("{file}: {}", netcore::study::toml_error(text, &e))))?;
    if parsed.study.is_empty() {
        return Err(usage(format!("{file}: study must name at least one [[study]] table")));
    }
    Ok(parsed.study.into_iter().map(|s| StudySpec { file: file.to_string(), ..s }).collect())
}

/// Refuses a study named twice (a later table would silently replace the earlier one).
fn unique(specs: Vec<StudySpec>) -> anyhow::Result<Vec<StudySpec>> {
    for (i, spec) in specs.iter().enumerate() {
        if let Some(first) = specs[..i].iter().find(|s| s.name == spec.name) {
            return Err(usage(format!(
                "{}: study `{}` is named twice (also in {}): each study may appear once",
                spec.file, spec.name, first.file
            )));
        }
    }
    Ok(specs)
}

/// The specs of `--config F`, or of every embedded file.
pub(crate) fn load(config: Option<&Path>) -> anyhow::Result<Vec<StudySpec>> {
    match config {
        Some(path) => {
            let text =
                netcore::input::read_text(path, "sweep spec", netcore::input::MAX_TEXT_BYTES)
                    .map_err(|e| usage(e.to_string()))?;
            unique(parse(&path.display().to_string(), &text)?)
        }
        None => {
            let mut specs = Vec::new();
            for sweep in registry::embedded_sweeps() {
                specs.extend(parse(sweep.file, sweep.text)?);
            }
            unique(specs)
        }
    }
}

fn axes(
    spec: &StudySpec,
    table_name: &str,
    table: &toml::Table,
) -> anyhow::Result<Vec<(String, Vec<toml::Value>)>> {
    table
        .iter()
        .map(|(key, value)| match value {
            toml::Value::Array(values) if !values.is_empty() => Ok((key.clone(), values.clone())),
            _ => Err(usage(format!(
                "{}: study `{}`: {table_name}.{key} must be a non-empty array of values",
                spec.file, spec.name
            ))),
        })
        .collect()
}

impl StudySpec {
    /// Expands the spec into its jobs.
    pub(crate) fn jobs(&self, quick: bool) -> anyhow::Result<Vec<Job>> {
        let fail =
            |message: String| usage(format!("{}: study `{}`: {message}", self.file, self.name));
        if self.seeds.is_empty() {
            return Err(fail("seeds must be a non-empty array".into()));
        }
        if self.repetitions == 0 {
            return Err(fail("repetitions must satisfy repetitions >= 1 (got 0)".into()));
        }
        let mut grid = axes(self, "grid", &self.grid)?;
        let mut zip = axes(self, "zip", &self.zip)?;
        // The quick preset is checked on every run, so a typo shows before `--quick` is used.
        for (key, values) in axes(self, "quick", &self.quick)? {
            match grid.iter_mut().chain(zip.iter_mut()).find(|(name, _)| *name == key) {
                Some(axis) if quick => axis.1 = values,
                Some(_) => {}
                None => {
                    return Err(fail(format!("quick.{key} must name an axis of grid or zip")));
                }
            }
        }
        let zip_len = zip.first().map_or(1, |(_, v)| v.len());
        if let Some((key, values)) = zip.iter().find(|(_, v)| v.len() != zip_len) {
            return Err(fail(format!(
                "zip.{key} must have as many values as the other zip axes ({zip_len}), got {}",
                values.len()
            )));
        }
        // Count the jobs before expanding them, so a huge spec is refused without allocating.
        let count = grid
            .iter()
            .map(|(_, v)| v.len() as u64)
            .chain([zip_len as u64, self.seeds.len() as u64, u64::from(self.repetitions)])
            .try_fold(1u64, |acc, n| acc.checked_mul(n))
            .filter(|&n| n <= MAX_JOBS);
        let Some(_) = count else {
            return Err(fail(format!(
                "the spec expands to more than {MAX_JOBS} jobs (grid sizes x zip length x seeds x repetitions)"
            )));
        };
        let mut keys: Vec<&String> = self.fixed.keys().collect();
        keys.extend(grid.iter().map(|(k, _)| k));
        keys.extend(zip.iter().map(|(k, _)| k));
        if let Some(key) = keys.iter().find(|key| JOB_COLUMNS.contains(&key.as_str())) {
            return Err(fail(format!(
                "parameter `{key}` must not be named like a column every row carries ({}): \
                 rename it, e.g. `run_{key}`",
                JOB_COLUMNS.map(|c| format!("`{c}`")).join(", ")
            )));
        }
        let mut sorted = keys.clone();
        sorted.sort();
        if let Some(pair) = sorted.windows(2).find(|pair| pair[0] == pair[1]) {
            return Err(fail(format!(
                "parameter `{}` must appear only once among fixed, grid and zip",
                pair[0]
            )));
        }
        // Cartesian product of the grid axes, first axis outermost.
        let mut points: Vec<toml::Table> = vec![self.fixed.clone()];
        for (key, values) in &grid {
            points = points
                .into_iter()
                .flat_map(|point| {
                    values.iter().map(move |v| {
                        let mut p = point.clone();
                        p.insert(key.clone(), v.clone());
                        p
                    })
                })
                .collect();
        }
        if !zip.is_empty() {
            points = points
                .into_iter()
                .flat_map(|point| {
                    let zip = &zip;
                    (0..zip_len).map(move |i| {
                        let mut p = point.clone();
                        for (key, values) in zip {
                            p.insert(key.clone(), values[i].clone());
                        }
                        p
                    })
                })
                .collect();
        }
        let mut jobs = Vec::new();
        for point in points {
            let params = serde_json::to_value(&point)?;
            for &seed in &self.seeds {
                for rep in 0..self.repetitions {
                    jobs.push(Job { index: jobs.len() as u64, seed, rep, params: params.clone() });
                }
            }
        }
        Ok(jobs)
    }
}

/// A hash of the expanded spec (every job's index, seed, repetition and parameters): FNV-1a
/// over their canonical JSON, as 16 hex digits. Shards of one spec share it; `merge` refuses
/// shards whose hashes differ.
pub(crate) fn spec_hash(jobs: &[Job]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for job in jobs {
        let text = format!("{}|{}|{}|{}\n", job.index, job.seed, job.rep, job.params);
        for byte in text.bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

/// A short rendering of a point's parameters for messages, e.g. `{log_p=0, m=1}`.
pub(crate) fn describe(params: &serde_json::Value) -> String {
    match params {
        serde_json::Value::Object(map) => {
            let fields: Vec<String> = map.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!("{{{}}}", fields.join(", "))
        }
        other => other.to_string(),
    }
}
