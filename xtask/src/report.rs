//! `cargo xtask report`: the reproduction report. Runs every study of the embedded sweep specs
//! and writes `docs/results/README.md` (per paper: each study's claims with their bands,
//! observed ranges and verdicts, its findings and its plots) with the plots beside it.
//!
//! The report is generated, never edited: it records a hash of the studies' definitions (the
//! embedded sweep specs, and every study's name, description, claims, plots and glossary), and
//! a test fails when the committed report's hash differs from the code's, so a changed study
//! without a regenerated report is caught. Nothing in the report depends on the clock, the
//! commit or the machine (timings stay in `target/sweeps/*/timings.csv`), so regenerating it
//! from a fresh clone gives the same bytes.

use std::path::{Path, PathBuf};

use anyhow::Context;

use netcore::study::{Coverage, PaperResult, Verdict};

use crate::cost::{COSTS, LARGE_COSTS, Recorded};
use crate::generations::{TEMP_PREFIX, remove_temporaries, replace_dir};
use crate::output::{StudyOutput, verdict_counts};
use crate::referee::Judgement;
use crate::sources::definitions_hash;
use crate::sweep::{
    SweepArgs, check_threads, default_out, project_root, run_and_write, summarise, writable_dir,
};
use crate::{large, registry};

/// Arguments of `cargo xtask report`.
#[derive(Debug, clap::Args)]
pub(crate) struct ReportArgs {
    /// Where to write the report (default: `docs/results` in the workspace).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Where the sweeps write their own outputs (default: `target/sweeps`).
    #[arg(long)]
    sweeps: Option<PathBuf>,
    /// Use each study's `quick` axes (for tests; the committed report uses the default axes).
    #[arg(long)]
    quick: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar or progress lines.
    #[arg(long)]
    quiet: bool,
    /// Run the models' large presets instead (`fixtures/sweeps/MODEL-large.toml`; hours on 2
    /// cores) and record their verdicts in `large.md` beside the report.
    #[arg(long, conflicts_with = "quick")]
    large: bool,
    /// With `--large`: run only this model's large preset (repeatable), keeping the other
    /// models' recorded sections and costs.
    #[arg(long, requires = "large")]
    model: Vec<String>,
}

/// The report's file name inside its directory.
const README: &str = "README.md";

/// The line prefix under which the report records the definitions' hash.
const HASH_LINE: &str = "Definitions hash: `";

/// `cargo xtask report`; returns whether every claim passed. The report is written whatever
/// the verdicts (a failed claim is a result worth reading), and the exit status says so.
pub(crate) fn report(args: &ReportArgs) -> anyhow::Result<bool> {
    let sweeps = args.sweeps.clone().unwrap_or_else(default_out);
    let out = args.out.clone().unwrap_or_else(|| project_root().join("docs").join("results"));
    // Every argument is checked before any study runs.
    check_threads(args.threads)?;
    writable_dir(&out, "--out")?;
    let hash = definitions_hash();
    if args.large {
        let (threads, quiet) = (args.threads, args.quiet);
        return large::run(&out, &sweeps.join("large"), threads, quiet, &args.model);
    }
    let sweep = SweepArgs::every_study(sweeps, args.quick, args.threads, args.quiet);
    let (sweeps, outputs) = run_and_write(&sweep)?;
    let all_expected = summarise(&sweeps, &outputs);
    let mut readme = render(&outputs, args.quick, &hash)?;
    readme += &large::summary(&out);
    write_report(&out, &readme, &outputs)?;
    println!("report: {}", out.join(README).display());
    Ok(all_expected)
}

/// What each verdict means, above the table that counts them.
const VERDICT_KINDS: &str = "Verdicts: REPRODUCED, a paper's result checked so that its \
    rival law (one log factor more or less, the naive schedule) would have failed on the same \
    grid; NOT REPRODUCED, a result, bound or illustrated lower bound the runs contradict (the \
    claim links the paragraph that explains it); INCONCLUSIVE, the check held but so would a \
    rival on this grid; BOUND HOLDS, an upper bound checked without tightness; ILLUSTRATION, a \
    lower bound or worst case shown on the project's own construction (never counted as \
    reproduced); CONSISTENCY, an identity or self-consistency check; FAIL, a consistency or \
    correctness check that failed; PASS, a correctness check (every run equals its reference \
    execution) that held. A verdict other than the \
    claim's expected one makes `cargo xtask sweep` exit with status 1.\n\n";

/// The report's Markdown.
fn render(outputs: &[StudyOutput], quick: bool, hash: &str) -> anyhow::Result<String> {
    let claims: usize = outputs.iter().map(|o| o.judgements.len()).sum();
    let unexpected: usize =
        outputs.iter().flat_map(|o| &o.judgements).filter(|j| !j.as_expected).count();
    let mut md = String::from("# Reproduction report\n\n");
    md += "Generated by `cargo xtask report`; do not edit by hand. It runs every study of the \
           embedded sweep specs (`fixtures/sweeps/*.toml`, ";
    md += if quick { "**quick axes**" } else { "default axes; large presets excluded" };
    md += ") and lists, per paper, what each study executes, each claim with the band it must \
           fall in, the range the runs produced and its verdict, and the plots. Every run's \
           result was checked against its reference execution before its row was kept. The \
           per-study reports with all rows are written under `target/sweeps/` by the same \
           command.\n\n";
    md += &format!(
        "{HASH_LINE}{hash}` (the simulators', studies' and xtask's sources, the sweep specs, \
         the lock file and every study's definition; a test fails when the code's hash \
         differs, so the report is never older than the code).\n\n"
    );
    md += &format!(
        "**{} studies, {claims} claims: {}; {}.**\n\n",
        outputs.len(),
        verdict_counts(outputs.iter().flat_map(|o| &o.judgements)),
        if unexpected == 0 {
            "every verdict as expected".to_string()
        } else {
            format!("{unexpected} verdicts UNEXPECTED")
        }
    );
    md += &format!(
        "What each study cost (jobs, job-seconds, longest job, wall time, threads, peak memory) \
         is in [`{COSTS}`]({COSTS}), measured by the run that wrote this report and quoted by \
         `cargo xtask sweep --dry-run` as its estimate; this page holds no timing, so \
         regenerating it gives the same bytes.\n\n"
    );
    md += VERDICT_KINDS;
    md += "| paper | studies | claims |";
    for verdict in Verdict::ALL {
        md += &format!(" {} |", verdict.as_str());
    }
    md += " unexpected |\n|---|---|---|";
    md += &"---|".repeat(Verdict::ALL.len() + 1);
    md += "\n";
    let mut models: Vec<&str> = Vec::new();
    for o in outputs {
        if !models.contains(&o.model.as_str()) {
            models.push(&o.model);
        }
    }
    let of = |model: &str| outputs.iter().filter(|o| o.model == model).collect::<Vec<_>>();
    for model in &models {
        let p = registry::paper(model)?;
        let judgements: Vec<&Judgement> = of(model).iter().flat_map(|o| &o.judgements).collect();
        md += &format!(
            "| [{}](#{}) | {} | {} |",
            p.title,
            anchor(p.title),
            of(model).len(),
            judgements.len()
        );
        for verdict in Verdict::ALL {
            md += &format!(" {} |", judgements.iter().filter(|j| j.verdict == verdict).count());
        }
        md += &format!(" {} |\n", judgements.iter().filter(|j| !j.as_expected).count());
    }
    for model in &models {
        let p = registry::paper(model)?;
        md += &format!("\n## {}\n\n", p.title);
        md += &format!(
            "Crate `{model}`. The model, what is built and what was chosen where the paper is \
             vague: [docs/models/{0}](../models/{0}) (section Choices).\n",
            p.docs
        );
        md += &referee_table(registry::model(model)?.manifest().results, &of(model));
        for o in of(model) {
            md += &format!("\n### `{}`\n\n{}\n\n", o.name, o.about);
            md += o.shows.trim_end();
            md += "\n\n";
            for judgement in &o.judgements {
                md += &format!("- {}\n", judgement.line);
            }
            if o.judgements.is_empty() {
                md += "- (no claims)\n";
            }
            md += "\n";
            for (file, title) in &o.plots {
                md += &format!("![{title}]({}/{file})\n\n", o.name);
            }
        }
    }
    Ok(md)
}

/// The referee table of one paper: every numbered result of its manifest with how it is
/// covered: the claims that name it with their verdicts, the test that pins it, or why it is
/// not built.
fn referee_table(results: &[PaperResult], outputs: &[&StudyOutput]) -> String {
    if results.is_empty() {
        return String::new();
    }
    let mut md =
        String::from("\n#### Referee table\n\n| result | states | covered by |\n|---|---|---|\n");
    for result in results {
        let covered = match result.coverage {
            Coverage::Claims => {
                let claims: Vec<String> = outputs
                    .iter()
                    .flat_map(|o| o.judgements.iter().map(move |j| (o, j)))
                    .filter(|(_, j)| j.results.iter().any(|r| r == result.id))
                    .map(|(o, j)| format!("`{}`: {} ({})", o.name, j.statement, j.verdict.as_str()))
                    .collect();
                if claims.is_empty() { "claims (none ran)".to_string() } else { claims.join("; ") }
            }
            Coverage::Tests { test, why } => format!("tests only: `{test}` ({why})"),
            Coverage::NotBuilt(why) => format!("not built: {why}"),
        };
        md += &format!("| {} | {} | {} |\n", result.id, result.states, covered.replace('|', "\\|"));
    }
    md
}

/// A GitHub-style heading anchor.
fn anchor(title: &str) -> String {
    title
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            'a'..='z' | '0'..='9' | '-' | '_' => Some(c),
            ' ' => Some('-'),
            _ => None,
        })
        .collect()
}

/// Writes `README.md` and each study's plots under `out`, replacing the whole directory in one
/// atomic step: it is built complete in a temporary directory beside `out`, then exchanged
/// with it ([`replace_dir`]). `out` stays a plain directory (the committed `docs/results/`
/// must read the same in a git checkout, where a link would not); a kill leaves the old
/// report or the new one, and at worst a temporary `.xtask-tmp-NAME-*` beside it, which the
/// next report removes.
fn write_report(out: &Path, readme: &str, outputs: &[StudyOutput]) -> anyhow::Result<()> {
    let parent = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)
        .with_context(|| format!("cannot create {}", parent.display()))?;
    let name = out.file_name().map_or_else(|| "results".into(), |n| n.to_string_lossy());
    remove_temporaries(parent, &format!("{TEMP_PREFIX}{name}-"));
    let temp = parent.join(format!("{TEMP_PREFIX}{name}-{}", std::process::id()));
    let written = (|| -> anyhow::Result<()> {
        std::fs::create_dir_all(&temp)?;
        std::fs::write(temp.join(README), readme)?;
        let costs: Vec<Recorded> = outputs.iter().filter_map(|o| o.cost.clone()).collect();
        std::fs::write(temp.join(COSTS), crate::cost::csv(&costs))?;
        // The large presets' records are written by `--large` alone; a default run keeps them.
        for kept in [large::LARGE, LARGE_COSTS] {
            if out.join(kept).is_file() {
                std::fs::copy(out.join(kept), temp.join(kept))?;
            }
        }
        for o in outputs {
            let dir = temp.join(&o.name);
            std::fs::create_dir_all(&dir)?;
            // The plots, and the rows the claims were judged on (the discrimination test reads
            // them back).
            let kept = |f: &str| f.ends_with(".svg") || f == "results.csv";
            for (file, bytes) in o.files.iter().filter(|(f, _)| kept(f)) {
                std::fs::write(dir.join(file), bytes)?;
            }
        }
        replace_dir(&temp, out)?;
        Ok(())
    })();
    if written.is_err() {
        let _ = std::fs::remove_dir_all(&temp);
    }
    written.with_context(|| format!("cannot write {}", out.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hash a report records, if it has one.
    fn recorded_hash(report: &str) -> Option<&str> {
        let line = report.lines().find_map(|l| l.strip_prefix(HASH_LINE))?;
        line.split('`').next()
    }

    /// The committed report is as new as the code: its recorded hash is the code's. When this
    /// fails, a simulator or study source, a claim, plot, glossary, sweep spec or the lock file
    /// changed since the report was generated: run `cargo xtask report` and commit
    /// `docs/results/`.
    #[test]
    fn committed_report_matches_the_study_definitions() {
        let path = project_root().join("docs").join("results").join(README);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (run `cargo xtask report`)", path.display()));
        assert!(!text.contains("**quick axes**"), "the committed report must use default axes");
        assert_eq!(
            recorded_hash(&text),
            Some(definitions_hash().as_str()),
            "docs/results/README.md is older than the code: run `cargo xtask report`"
        );
        for model in registry::models() {
            for study in model.studies() {
                assert!(
                    text.contains(&format!("### `{}`", study.name())),
                    "the report lacks study {}",
                    study.name()
                );
            }
        }
    }

    /// The report directory is replaced as a whole and stays a plain directory: the new
    /// README and plots, `large.md` kept, a study's other files left out, and a temporary a
    /// killed report left beside it removed.
    #[test]
    fn write_report_replaces_the_whole_directory() {
        let parent = std::env::temp_dir().join(format!("xtask-report-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&parent);
        let out = parent.join("results");
        let output = |svg: &str| StudyOutput {
            name: "s".into(),
            model: "m".into(),
            about: String::new(),
            shows: String::new(),
            plots: Vec::new(),
            files: vec![("p.svg".into(), svg.into()), ("report.md".into(), b"x".to_vec())],
            judgements: Vec::new(),
            cost: None,
        };
        write_report(&out, "r1", &[output("one")]).unwrap();
        std::fs::write(out.join(large::LARGE), "large").unwrap();
        std::fs::create_dir_all(parent.join(format!("{TEMP_PREFIX}results-1"))).unwrap();
        write_report(&out, "r2", &[output("two")]).unwrap();
        let read = |path: &str| std::fs::read_to_string(out.join(path)).unwrap_or_default();
        assert_eq!([read(README), read("s/p.svg"), read(large::LARGE)], ["r2", "two", "large"]);
        assert!(!out.join("s/report.md").exists());
        assert!(std::fs::symlink_metadata(&out).unwrap().is_dir());
        let entries: Vec<_> =
            std::fs::read_dir(&parent).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(entries, ["results"]);
        std::fs::remove_dir_all(&parent).unwrap();
    }

    #[test]
    fn anchors_follow_github() {
        assert_eq!(anchor("Heywood and Ranka: A Model"), "heywood-and-ranka-a-model");
    }

    /// The recorded hash is read from its line, and a report without one has none.
    #[test]
    fn recorded_hash_reads_its_line() {
        let report = format!("# R\n\n{HASH_LINE}0123456789abcdef` (the sweep specs)\n");
        assert_eq!(recorded_hash(&report), Some("0123456789abcdef"));
        assert_eq!(recorded_hash("# R\n"), None);
    }
}
