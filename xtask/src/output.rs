//! A study's output files, built in memory and written atomically.
//!
//! Every file of every study is rendered before anything touches the disk. All of them, with
//! the index, go to a new generation of the output directory that replaces the previous one in
//! one atomic step (`generations.rs`), so a failed or interrupted sweep never leaves a partial
//! or mixed output.

use std::path::Path;

use anyhow::Context;
use netcore::study::{AnyStudy, Check, Claim, Column, Plot, Verdict};
use serde_json::{Value, json};

use crate::claims::{Fitted, fitted_curves};
use crate::generations::{INDEX, publish};
use crate::plot::{Band, Overlays, axis_label, lines, pooled_axes, render};
use crate::referee::{Grid, Judgement, judge};
use crate::table::{Row, csv, markdown, selects, significant};

/// Everything one study writes.
pub(crate) struct StudyOutput {
    pub(crate) name: String,
    /// The model (crate) the study belongs to.
    pub(crate) model: String,
    /// The study's one-line description.
    pub(crate) about: String,
    /// The report's "What this shows" paragraph.
    pub(crate) shows: String,
    /// The plots' pictures: file name (`NAME.svg`, then `NAME-2.svg`, ... for the further
    /// panels of a plot) and title, in the study's order.
    pub(crate) plots: Vec<(String, String)>,
    pub(crate) files: Vec<(String, Vec<u8>)>,
    /// One judgement per claim (its line ends with the verdict).
    pub(crate) judgements: Vec<Judgement>,
    /// What the run cost, when this process ran it (not for a merge of shards).
    pub(crate) cost: Option<crate::cost::Recorded>,
}

/// The rows and timings of a finished (or merged) study, in job order.
pub(crate) struct StudyRun {
    pub(crate) model: String,
    pub(crate) total_jobs: u64,
    /// The swept axes, which grouped claims hold fixed.
    pub(crate) axes: Vec<String>,
    /// The hash of the expanded spec (see `spec::spec_hash`).
    pub(crate) spec_hash: String,
    /// `Some("K/N")` for a shard's output.
    pub(crate) shard: Option<String>,
    /// The grid the study ran on (what its claims' expectations mean for it).
    pub(crate) grid: Grid,
    pub(crate) rows: Vec<Row>,
    /// (job, seed, rep, milliseconds).
    pub(crate) timings: Vec<(u64, u64, u32, f64)>,
}

/// The most fitted curves of one claim a plot draws.
const MAX_FITTED_CURVES: usize = 8;

/// Renders all files of one study.
pub(crate) fn build(
    study: &dyn AnyStudy,
    run: &StudyRun,
    command: &str,
) -> anyhow::Result<StudyOutput> {
    let name = study.name();
    let claims = claims_with_verified(study, run);
    let plots = study.plots();
    let mut files = data_files(name, run, &claims)?;
    let glossary = study.glossary();
    let mut plot_sections = String::new();
    let mut pictures = Vec::new();
    for plot in &plots {
        let (svgs, section) =
            plot_files(plot, &claims, run, &glossary).with_context(|| format!("study {name}"))?;
        for (file, title, svg) in svgs {
            files.push((file.clone(), svg.into_bytes()));
            pictures.push((file, title));
        }
        plot_sections += &section;
    }
    // Claims are asserted only over a whole sweep, not over one shard's slice.
    let verdicts: Vec<Judgement> = if run.shard.is_some() {
        Vec::new()
    } else {
        claims.iter().map(|claim| judge(claim, &run.rows, &run.axes, run.grid)).collect()
    };
    let shows = what_this_shows(&verdicts, &study.findings(&run.rows), run.shard.is_some());
    let report = study_report(study, run, command, &shows, &verdicts, &plot_sections, &glossary);
    files.push(("report.md".to_string(), report.into_bytes()));
    // What the index lists about this study; rebuilt from every study directory present.
    let info = json!({
        "study": name,
        "model": run.model,
        "command": command,
        "commit": commit(),
        "date": utc_now(),
        "claims": verdicts.len(),
        "unexpected": verdicts.iter().filter(|j| !j.as_expected).count(),
        "shard": run.shard,
    });
    files.push(("run.json".to_string(), serde_json::to_vec_pretty(&info)?));
    Ok(StudyOutput {
        name: name.to_string(),
        model: run.model.clone(),
        about: study.about().to_string(),
        shows,
        plots: pictures,
        files,
        judgements: verdicts,
        cost: None,
    })
}

/// The study's claims, led by the check that every row was verified (when its rows have a
/// `verified` column: every such row was checked when its job ran, the claim records it).
fn claims_with_verified(study: &dyn AnyStudy, run: &StudyRun) -> Vec<Claim> {
    let mut claims = study.claims();
    if run.rows.iter().any(|row| row.contains_key("verified")) {
        claims.insert(
            0,
            Claim::all_true(
                "every run's result equals its reference execution (checked by xtask on each row)",
                "verified",
            )
            .correctness(),
        );
    }
    claims
}

/// `results.csv`, `results.json` and `timings.csv`.
fn data_files(
    name: &str,
    run: &StudyRun,
    claims: &[Claim],
) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let mut files = Vec::new();
    files.push(("results.csv".to_string(), csv(&run.rows)?));
    let results = json!({
        "study": name,
        "model": run.model,
        "total_jobs": run.total_jobs,
        "axes": run.axes,
        "spec_hash": run.spec_hash,
        "shard": run.shard,
        "grid": run.grid,
        "claims": claims,
        "rows": run.rows.iter().cloned().map(Value::Object).collect::<Vec<_>>(),
    });
    files.push(("results.json".to_string(), serde_json::to_vec_pretty(&results)?));
    let mut timings = String::from("job,seed,rep,millis\n");
    for (job, seed, rep, millis) in &run.timings {
        timings += &format!("{job},{seed},{rep},{millis:.3}\n");
    }
    files.push(("timings.csv".to_string(), timings.into_bytes()));
    Ok(files)
}

/// One picture of a plot: file name, title, SVG.
type Picture = (String, String, String);

/// One plot's pictures (file, title, SVG; several panels when its legend would pass
/// [`crate::plot::MAX_LEGEND`] entries), with the fitted curves and bands of the claims on
/// its axes, and its section of the study's report (the pictures, what it pools, its points).
fn plot_files(
    plot: &Plot,
    claims: &[Claim],
    run: &StudyRun,
    glossary: &[Column],
) -> anyhow::Result<(Vec<Picture>, String)> {
    let overlays = Overlays { fits: fits(plot, claims, run), bands: bands(plot, claims, run) };
    let pictures = render(plot, &run.rows, &run.axes, glossary, &overlays)?;
    let mut section = format!("### {}\n\n", plot.title);
    let mut svgs = Vec::with_capacity(pictures.len());
    for (index, (title, svg)) in pictures.into_iter().enumerate() {
        let file = if index == 0 {
            format!("{}.svg", plot.name)
        } else {
            format!("{}-{}.svg", plot.name, index + 1)
        };
        section += &format!("![{title}]({file})\n\n");
        svgs.push((file, title, svg));
    }
    if svgs.len() > 1 {
        section += &format!(
            "At most {} legend entries fit one picture, so that each line keeps its own colour: \
             the plot is drawn as {} panels over the same axes.\n\n",
            crate::plot::MAX_LEGEND,
            svgs.len()
        );
    }
    let pooled = pooled_axes(plot, &run.rows, &run.axes);
    if !pooled.is_empty() {
        section += &format!(
            "One line per {} would draw too many lines: the bars also span the values of {}.\n\n",
            plot.series.as_deref().unwrap_or("plot"),
            pooled.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ")
        );
    }
    section += &points_table(plot, &run.rows, &run.axes, glossary);
    Ok((svgs, section))
}

/// Fitted curves of the claims drawn on this plot's axes: those of groups the plot draws as
/// lines of their own (a group of rows the plot's filter excludes, or one that a line pools
/// with other values of an axis, has no line to fit).
fn fits(plot: &Plot, claims: &[Claim], run: &StudyRun) -> Vec<Fitted> {
    let pooled = pooled_axes(plot, &run.rows, &run.axes);
    claims
        .iter()
        .filter(|c| plot.y.contains(&c.y))
        .filter(|c| match &c.check {
            Check::Exponent { x, .. } | Check::Slope { x, .. } => *x == plot.x,
            _ => false,
        })
        .map(|c| {
            let mut curves = fitted_curves(c, &run.rows, &run.axes);
            // With several y columns, a fit names the one it fits.
            if plot.y.len() > 1 {
                curves.iter_mut().for_each(|f| f.what = format!("{}: {}", c.y, f.what));
            }
            curves
        })
        // More than a few groups would bury the data; their exponents are in the report.
        .filter(|curves| curves.len() <= MAX_FITTED_CURVES)
        .flatten()
        .filter(|f| crate::plot::agrees(&f.key, &plot.filter))
        .filter(|f| !f.key.iter().any(|(column, _)| pooled.contains(column)))
        .collect()
}

/// The band of every band claim on a plotted column that applies to a plotted row.
fn bands(plot: &Plot, claims: &[Claim], run: &StudyRun) -> Vec<Band> {
    let plotted: Vec<&Row> = run.rows.iter().filter(|row| selects(&plot.filter, row)).collect();
    claims
        .iter()
        .filter(|c| plot.y.contains(&c.y))
        .filter(|c| plotted.iter().any(|row| selects(&c.filter, row)))
        .filter_map(|c| match c.check {
            Check::Within { lo, hi } => {
                let filter: Vec<(String, String)> =
                    c.filter.iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
                let only = filter.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>();
                let only =
                    if only.is_empty() { String::new() } else { format!(" ({})", only.join(", ")) };
                Some(Band {
                    label: format!("claim band {}{only}", crate::claims::band(lo, hi)),
                    filter,
                    lo,
                    hi,
                })
            }
            _ => None,
        })
        .collect()
}

/// The study's `report.md`.
fn study_report(
    study: &dyn AnyStudy,
    run: &StudyRun,
    command: &str,
    shows: &str,
    verdicts: &[Judgement],
    plot_sections: &str,
    glossary: &[Column],
) -> String {
    let mut report = format!("# Study `{}` ({})\n\n{}\n\n", study.name(), run.model, study.about());
    report += &format!("Command: `{command}`; {} rows", run.rows.len());
    if let Some(shard) = &run.shard {
        report += &format!(
            " (shard {shard} of {} jobs; claims are checked after `cargo xtask merge`)",
            run.total_jobs
        );
    }
    report += ".\n\n## What this shows\n\n";
    report += shows;
    report += "\n## Claims\n\n";
    if verdicts.is_empty() && run.shard.is_none() {
        report += "(none)\n";
    }
    for judgement in verdicts {
        report += &format!("- {}\n", judgement.line);
    }
    report += "\n## Plots\n\n";
    report += "Each line passes through the lower median of its runs at each x (a value one run \
               produced); bars span their minimum to maximum. Dashed coloured lines are bounds, \
               dotted lines in a line's colour the fitted curves of its claims, grey bands \
               the claims' bands. A plot with more than 8 legend entries is drawn as panels \
               over the same axes.\n\n";
    report += plot_sections;
    report += "## Columns\n\n";
    report += &glossary_table(&run.rows, glossary);
    report += "\n## Results\n\n";
    report += &markdown(&run.rows, 200);
    report
}

/// The verdicts of `judgements` counted by kind, e.g. `2 REPRODUCED, 1 CONSISTENCY`.
pub(crate) fn verdict_counts<'j>(judgements: impl IntoIterator<Item = &'j Judgement>) -> String {
    let verdicts: Vec<Verdict> = judgements.into_iter().map(|j| j.verdict).collect();
    let counts: Vec<String> = Verdict::ALL
        .iter()
        .map(|v| (v, verdicts.iter().filter(|w| *w == v).count()))
        .filter(|(_, n)| *n > 0)
        .map(|(v, n)| format!("{n} {}", v.as_str()))
        .collect();
    counts.join(", ")
}

/// Writes the outputs under `out` as one new generation of it (see [`crate::generations`]):
/// the studies, the studies of the previous run that this one did not rewrite, and the index
/// `report.md` rebuilt from all of them, made current in one atomic step, so whenever the
/// process is killed `out` reads as the previous run or the new one as a whole.
pub(crate) fn write_all(out: &Path, outputs: &[StudyOutput]) -> anyhow::Result<()> {
    let names: Vec<&str> = outputs.iter().map(|o| o.name.as_str()).collect();
    publish(out, &names, |next| {
        for output in outputs {
            let dir = next.join(&output.name);
            let written = std::fs::create_dir(&dir).and_then(|()| {
                output
                    .files
                    .iter()
                    .try_for_each(|(file, bytes)| std::fs::write(dir.join(file), bytes))
            });
            written.with_context(|| format!("cannot write {}", dir.display()))?;
        }
        let index_path = next.join(INDEX);
        std::fs::write(&index_path, index(next))
            .with_context(|| format!("cannot write {}", index_path.display()))
    })
}

/// The "What this shows" paragraph: the claims' outcome in words, then the study's own
/// findings from its rows.
fn what_this_shows(verdicts: &[Judgement], findings: &[String], shard: bool) -> String {
    let mut text = String::new();
    let unexpected: Vec<&Judgement> = verdicts.iter().filter(|j| !j.as_expected).collect();
    if shard {
        text += "This is one shard; the claims are checked on the merged sweep.";
    } else if verdicts.is_empty() {
        text += "The study asserts no claims.";
    } else {
        text +=
            &format!("Verdicts of its {} claims: {}.", verdicts.len(), verdict_counts(verdicts));
        if !unexpected.is_empty() {
            text += &format!(
                " {} of them differ from their expected verdict: {}.",
                unexpected.len(),
                unexpected
                    .iter()
                    .map(|j| j.line.split(": ").next().unwrap_or(&j.line))
                    .collect::<Vec<_>>()
                    .join("; ")
            );
        }
    }
    text += "\n";
    for finding in findings {
        text += &format!("\n- {finding}");
    }
    if !findings.is_empty() {
        text += "\n";
    }
    text
}

/// One row per plotted point: the line, x, the lower median, the spread and the number of
/// runs, rounded to four significant digits.
fn points_table(
    plot: &netcore::study::Plot,
    rows: &[Row],
    axes: &[String],
    glossary: &[netcore::study::Column],
) -> String {
    let lines = lines(plot, rows, axes);
    if lines.is_empty() {
        return "(no points)\n\n".into();
    }
    let x = axis_label(std::slice::from_ref(&plot.x), glossary, false);
    let mut table =
        format!("| line | {x} | y (median) | min | max | runs |\n|---|---|---|---|---|---|\n");
    for line in &lines {
        for p in &line.points {
            table += &format!(
                "| {} | {} | {} | {} | {} | {} |\n",
                if line.label.is_empty() { "-" } else { &line.label },
                significant(p.x, 6),
                significant(p.y, 4),
                significant(p.min, 4),
                significant(p.max, 4),
                p.runs
            );
        }
    }
    table + "\n"
}

/// The columns xtask adds to every study's rows (or gives one meaning in every study), with
/// their meanings; a study's glossary describes the rest.
const OWN_COLUMNS: &[(&str, &str)] = &[
    ("job", "the job's index in the expanded sweep"),
    ("seed", "the seed of the job's random stream"),
    ("rep", "the repetition of the job"),
    ("verified", "the run's result equals its reference execution"),
];

/// The meaning of `column`: xtask's own, else the study's glossary entry.
fn meaning<'a>(column: &str, glossary: &'a [netcore::study::Column]) -> Option<&'a str> {
    OWN_COLUMNS
        .iter()
        .find(|(name, _)| *name == column)
        .map(|(_, meaning)| *meaning)
        .or_else(|| glossary.iter().find(|g| g.name == column).map(|g| g.meaning.as_str()))
}

/// The glossary of the columns the rows have: the study's meaning, or "(no description)".
fn glossary_table(rows: &[Row], glossary: &[netcore::study::Column]) -> String {
    let Some(first) = rows.first() else { return "(no rows)\n".into() };
    let mut table = String::from("| column | meaning |\n|---|---|\n");
    for column in first.keys() {
        let meaning = meaning(column, glossary).unwrap_or("(no description)");
        table += &format!("| `{column}` | {meaning} |\n");
    }
    table
}

/// The first line of the index `report.md` (how xtask recognises an index it wrote).
pub(crate) const INDEX_TITLE: &str = "# Sweep report";

/// The index `report.md`: every study directory of the generation `dir` that holds a
/// `run.json`, so a sweep of some studies leaves the others' entries as they were.
fn index(dir: &Path) -> String {
    let mut entries: Vec<Value> = std::fs::read_dir(dir)
        .map(|dir| {
            dir.flatten()
                .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
                .filter_map(|e| std::fs::read(e.path().join("run.json")).ok())
                .filter_map(|bytes| serde_json::from_slice(&bytes).ok())
                .collect()
        })
        .unwrap_or_default();
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).unwrap_or("").to_string();
    let count = |v: &Value, key: &str| v.get(key).and_then(Value::as_u64).unwrap_or(0);
    entries.sort_by_key(|v| (text(v, "model"), text(v, "study")));
    let mut index = format!(
        "{INDEX_TITLE}\n\nEvery study under this directory, with the command, commit and date \
         of its last run.\n\n| study | model | claims | command | commit | date |\n|---|---|---|---|---|---|\n",
    );
    for entry in &entries {
        let (claims, unexpected) = (count(entry, "claims"), count(entry, "unexpected"));
        let verdict = match (claims, unexpected, entry.get("shard").and_then(Value::as_str)) {
            (_, _, Some(shard)) => format!("shard {shard}: checked after merge"),
            (0, _, None) => "-".to_string(),
            (n, 0, None) => format!("all {n} as expected"),
            (n, f, None) => format!("{f} of {n} UNEXPECTED"),
        };
        let study = text(entry, "study");
        index += &format!(
            "| [{study}]({study}/report.md) | {} | {verdict} | `{}` | {} | {} |\n",
            text(entry, "model"),
            text(entry, "command"),
            text(entry, "commit"),
            text(entry, "date"),
        );
    }
    index
}

/// The checked-out commit (`git rev-parse --short HEAD`), or `unknown`.
pub(crate) fn commit() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or_else(|| "unknown".to_string(), |s| s.trim().to_string())
}

/// The current UTC time as `YYYY-MM-DD HH:MM UTC`.
pub(crate) fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02} UTC", rest / 3600, rest % 3600 / 60)
}

/// A single run's picture file (`run --svg FILE`), claimed before the run: a hidden sibling
/// is created at once, so that a path that cannot be written is the user's error (exit
/// status 2) before anything runs, and renamed over `FILE` once the picture is written, so
/// that a failed run leaves no partial file (the sibling goes when this is dropped).
#[derive(Debug)]
pub(crate) struct ClaimedFile {
    target: std::path::PathBuf,
    partial: std::path::PathBuf,
}

impl ClaimedFile {
    /// Claims `target`: refused if it is a directory, names no file, or its directory does not
    /// take a new file.
    pub(crate) fn claim(target: &Path) -> anyhow::Result<Self> {
        let refuse = |why: String| crate::usage(format!("--svg {}: {why}", target.display()));
        if target.is_dir() {
            return Err(refuse("a directory, not a file".into()));
        }
        let name = target.file_name().ok_or_else(|| refuse("names no file".into()))?;
        let partial = target.with_file_name(format!(".{}.partial", name.to_string_lossy()));
        std::fs::File::create(&partial).map_err(|e| refuse(format!("cannot write: {e}")))?;
        Ok(ClaimedFile { target: target.to_path_buf(), partial })
    }

    /// Writes `document` to the claimed file.
    pub(crate) fn write(self, document: &str) -> anyhow::Result<()> {
        std::fs::write(&self.partial, document)
            .and_then(|()| std::fs::rename(&self.partial, &self.target))
            .with_context(|| format!("{}: cannot write picture", self.target.display()))
    }
}

impl Drop for ClaimedFile {
    fn drop(&mut self) {
        // Gone already after a successful `write`.
        let _ = std::fs::remove_file(&self.partial);
    }
}

#[cfg(test)]
mod tests {
    use super::ClaimedFile;

    /// Every column of every study's committed default rows (`docs/results/STUDY/results.csv`)
    /// has a meaning: xtask's own or the study's glossary entry, spelled as the row spells it
    /// (a glossary naming `t` where the rows have `T` printed "(no description)").
    #[test]
    fn every_row_column_has_a_glossary_entry() {
        let results = crate::sweep::project_root().join("docs").join("results");
        let mut checked = 0;
        let mut missing = Vec::new();
        for model in crate::registry::models() {
            for study in model.studies() {
                let csv = results.join(study.name()).join("results.csv");
                let Ok(text) = std::fs::read_to_string(&csv) else { continue };
                let glossary = study.glossary();
                for column in text.lines().next().unwrap_or("").split(',') {
                    checked += 1;
                    if super::meaning(column, &glossary).is_none() {
                        missing.push(format!("{}: {column}", study.name()));
                    }
                }
            }
        }
        assert!(checked > 400, "only {checked} columns found under {}", results.display());
        assert!(missing.is_empty(), "columns without a glossary entry: {missing:?}");
    }

    /// A picture path is claimed before the run: an unwritable one is the user's error, a
    /// claim given up (a failed run) leaves nothing, a written one leaves only the picture.
    #[test]
    fn a_claimed_picture_file_is_all_or_nothing() {
        let dir = std::env::temp_dir().join(format!("xtask-claimed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch directory");
        let missing = dir.join("no-such-directory").join("run.svg");
        let e = ClaimedFile::claim(&missing).expect_err("no directory to write in");
        assert!(e.downcast_ref::<crate::UsageError>().is_some(), "{e:#}");
        assert!(ClaimedFile::claim(&dir).is_err(), "a directory is not a picture file");

        let target = dir.join("run.svg");
        drop(ClaimedFile::claim(&target).expect("writable"));
        let left: Vec<_> = std::fs::read_dir(&dir).expect("listing").flatten().collect();
        assert!(left.is_empty(), "a failed run leaves nothing: {left:?}");

        ClaimedFile::claim(&target).expect("writable").write("<svg/>").expect("written");
        let left: Vec<_> =
            std::fs::read_dir(&dir).expect("listing").flatten().map(|e| e.file_name()).collect();
        assert_eq!(left, ["run.svg"]);
        assert_eq!(std::fs::read_to_string(&target).expect("picture"), "<svg/>");
        std::fs::remove_dir_all(&dir).expect("cleaned up");
    }
}
