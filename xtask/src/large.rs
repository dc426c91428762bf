//! `cargo xtask report --large`: the models' large presets (`fixtures/sweeps/MODEL-large.toml`,
//! found by the registry's model names), run with their default axes and recorded in
//! `docs/results/large.md` with the commit, date, machine, wall time and code hash of the run,
//! every claim's verdict listed like the default report's. The default report summarises that
//! file beside its own verdicts and says whether the code changed since the large run.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::cost::LARGE_COSTS;
use crate::generations::TEMP_PREFIX;
use crate::output::{StudyOutput, commit, utc_now, verdict_counts};
use crate::registry;
use crate::sweep::{SweepArgs, project_root, run_and_write};

/// The file the large presets' verdicts are recorded in, under the report's directory.
pub(crate) const LARGE: &str = "large.md";

/// The line prefix under which `large.md` records the code hash of a model's run
/// ([`crate::sources::model_hash`]: netcore, the model's crate, xtask and the model's specs).
const HASH_LINE: &str = "Code hash at the run: `";

/// The line prefix of a model's run line in `large.md`.
const RUN_LINE: &str = "Run at commit";

/// The large preset of each model that has one: `(model, spec file)`.
pub(crate) fn presets() -> Vec<(&'static str, PathBuf)> {
    let dir = project_root().join("fixtures").join("sweeps");
    registry::models()
        .into_iter()
        .map(|m| (m.name(), dir.join(format!("{}-large.toml", m.name()))))
        .filter(|(_, path)| path.is_file())
        .collect()
}

/// Runs the large presets of `models` (every model's when empty) into `sweeps` and writes
/// `out/large.md`, keeping the recorded sections and costs of the models not run, so that the
/// presets (hours on 2 cores together) can be run one model at a time; returns whether every
/// verdict is the expected one.
pub(crate) fn run(
    out: &Path,
    sweeps: &Path,
    threads: Option<usize>,
    quiet: bool,
    models: &[String],
) -> anyhow::Result<bool> {
    let presets = presets();
    if let Some(unknown) = models.iter().find(|m| !presets.iter().any(|(p, _)| p == m)) {
        let known: Vec<&str> = presets.iter().map(|(m, _)| *m).collect();
        return Err(crate::usage(format!(
            "--model {unknown}: no large preset of that name (models with one: {})",
            known.join(", ")
        )));
    }
    let old = std::fs::read_to_string(out.join(LARGE)).unwrap_or_default();
    let mut sections = sections(&old);
    let mut costs = std::fs::read_to_string(out.join(LARGE_COSTS))
        .map(|text| crate::cost::parse(&text))
        .unwrap_or_default();
    let mut all_expected = true;
    let chosen = |m: &str| models.is_empty() || models.iter().any(|x| x == m);
    for (model, spec) in presets.iter().filter(|(m, _)| chosen(m)) {
        let start = Instant::now();
        let args = SweepArgs::of_file(spec.clone(), sweeps.join(model), threads, quiet);
        let (_, outputs) = run_and_write(&args)?;
        let wall = start.elapsed().as_secs_f64();
        let shown = spec.strip_prefix(project_root()).unwrap_or(spec).display().to_string();
        let hash = crate::sources::model_hash(model);
        let mut md = format!(
            "{RUN_LINE} `{}` on {} on a machine with {} cores ({} {}).\n\n{HASH_LINE}{hash}`\n\n",
            commit(),
            utc_now(),
            std::thread::available_parallelism().map_or(1, |n| n.get()),
            std::env::consts::OS,
            std::env::consts::ARCH
        );
        md += &format!(
            "`{shown}`: {} studies, wall time {wall:.0} s; verdicts: {}.\n",
            outputs.len(),
            verdict_counts(outputs.iter().flat_map(|o| &o.judgements))
        );
        md += &studies(&outputs);
        sections.retain(|(m, _)| m != model);
        sections.push((model.to_string(), md));
        let studied: Vec<&str> = outputs.iter().map(|o| o.name.as_str()).collect();
        costs.retain(|r| !studied.contains(&r.study.as_str()));
        // The spec as the workspace names it (`fixtures/sweeps/...`), as in `costs.csv`, not
        // as the absolute path of the machine that ran it.
        costs.extend(outputs.iter().filter_map(|o| o.cost.clone()).map(|mut cost| {
            cost.spec.clone_from(&shown);
            cost
        }));
        all_expected &= outputs.iter().all(|o| o.judgements.iter().all(|j| j.as_expected));
        // Written after every model: a run killed later keeps the models done.
        write(out, &presets, &mut sections, &costs)?;
    }
    println!("large presets: {}", out.join(LARGE).display());
    Ok(all_expected)
}

/// The model sections of a `large.md`: `(model, body)`, each body starting with its run line
/// and code hash (a file written before runs were per model has one run line, in its header,
/// which every section then inherits).
fn sections(text: &str) -> Vec<(String, String)> {
    let mut header_run = String::new();
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("## `") {
            out.push((rest.trim_end_matches('`').to_string(), String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            if !(body.is_empty() && line.is_empty()) {
                *body += line;
                *body += "\n";
            }
        } else if line.starts_with(RUN_LINE) || line.starts_with(HASH_LINE) {
            header_run += line;
            header_run += "\n\n";
        }
    }
    for (_, body) in &mut out {
        if !body.starts_with(RUN_LINE) {
            *body = format!("{header_run}{body}");
        }
    }
    out
}

/// Writes `out/large.md` (the sections in the registry's order) and `out/large-costs.csv`.
fn write(
    out: &Path,
    presets: &[(&'static str, PathBuf)],
    sections: &mut [(String, String)],
    costs: &[crate::cost::Recorded],
) -> anyhow::Result<()> {
    // The models in the registry's order, whichever were run last.
    let order = |m: &str| presets.iter().position(|(p, _)| *p == m).unwrap_or(usize::MAX);
    sections.sort_by_key(|(m, _)| order(m));
    let mut md = String::from("# Large presets\n\n");
    md += "Generated by `cargo xtask report --large [--model MODEL]`; do not edit by hand. Every \
           model's large preset (`fixtures/sweeps/MODEL-large.toml`) with its default axes; each \
           claim with its verdict, as in the default report ([README.md](README.md)). Each \
           model's section says when it was run.\n\n";
    for (model, body) in sections.iter() {
        md += &format!("## `{model}`\n\n{body}");
    }
    // Written beside the report and renamed into place: a kill leaves the old record.
    std::fs::create_dir_all(out)?;
    let temp = out.join(format!("{TEMP_PREFIX}{LARGE}-{}", std::process::id()));
    std::fs::write(&temp, md)?;
    std::fs::rename(&temp, out.join(LARGE))?;
    let temp = out.join(format!("{TEMP_PREFIX}{LARGE_COSTS}-{}", std::process::id()));
    std::fs::write(&temp, crate::cost::csv(costs))?;
    std::fs::rename(&temp, out.join(LARGE_COSTS))?;
    Ok(())
}

fn studies(outputs: &[StudyOutput]) -> String {
    let mut md = String::new();
    for o in outputs {
        md += &format!("\n### `{}`\n\n", o.name);
        if let Some(r) = &o.cost {
            md += &format!("Cost: {}.\n\n", crate::cost::describe_cost(&r.cost));
        }
        for judgement in &o.judgements {
            md += &format!("- {}\n", judgement.line);
        }
    }
    md + "\n"
}

/// The default report's section on the large presets: per model, when its preset was last
/// run, whether the code changed since, and its verdict counts, read from `dir/large.md`.
pub(crate) fn summary(dir: &Path) -> String {
    let mut md = String::from("\n## Large presets\n\n");
    let Ok(text) = std::fs::read_to_string(dir.join(LARGE)) else {
        let names: Vec<String> = presets().iter().map(|(m, _)| format!("`{m}`")).collect();
        return md
            + &format!(
                "The large presets ({}) have not been run into this report: `cargo xtask report \
                 --large` runs them (hours on 2 cores; `--model MODEL` one model's) and records \
                 their verdicts in `{LARGE}`.\n",
                names.join(", ")
            );
    };
    md += &format!("[{LARGE}]({LARGE}), per model:\n\n");
    let recorded = sections(&text);
    for (model, body) in &recorded {
        let run =
            body.lines().find(|l| l.starts_with(RUN_LINE)).unwrap_or("Run at an unknown commit.");
        let at =
            body.lines().find_map(|l| l.strip_prefix(HASH_LINE)).and_then(|l| l.split('`').next());
        let verdicts = body
            .lines()
            .find(|l| l.starts_with('`') && l.contains("verdicts:"))
            .unwrap_or("no verdicts recorded");
        let since = if at == Some(crate::sources::model_hash(model).as_str()) {
            "the code has not changed since"
        } else {
            "**the code has changed since that run**: its verdicts may be stale"
        };
        md += &format!("- `{model}`: {run} ({since}). {verdicts}\n");
    }
    let missing: Vec<String> = presets()
        .iter()
        .filter(|(m, _)| !recorded.iter().any(|(r, _)| r == m))
        .map(|(m, _)| format!("`{m}`"))
        .collect();
    if !missing.is_empty() {
        md += &format!(
            "- not run yet: {} (`cargo xtask report --large --model MODEL`)\n",
            missing.join(", ")
        );
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file from before per-model runs: one run line in the header, inherited by every
    /// section; a per-model file keeps each section's own.
    #[test]
    fn sections_read_both_layouts() {
        let old = "# Large presets\n\nGenerated.\n\nRun at commit `a` on D.\n\nCode hash at the run: `h1`\n\n## `m1`\n\n`f1`: 1 studies, wall time 1 s; verdicts: 1 PASS.\n\n### `s`\n\n- line\n\n## `m2`\n\n`f2`: verdicts: 2 PASS.\n";
        let got = sections(old);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].0, "m1");
        assert!(
            got[0].1.starts_with("Run at commit `a` on D.\n\nCode hash at the run: `h1`\n\n`f1`")
        );
        assert!(got[0].1.contains("- line\n"));
        assert!(got[1].1.starts_with("Run at commit `a`") && got[1].1.ends_with("2 PASS.\n"));
        let new = "# Large presets\n\n## `m1`\n\nRun at commit `b` on E.\n\nCode hash at the run: `h2`\n\n`f1`: verdicts: 3 PASS.\n";
        let got = sections(new);
        assert_eq!(got, vec![("m1".to_string(), "Run at commit `b` on E.\n\nCode hash at the run: `h2`\n\n`f1`: verdicts: 3 PASS.\n".to_string())]);
    }

    /// The summary says per model whether its run is at the current code, comparing each
    /// section with its own model's hash.
    #[test]
    fn summary_is_per_model() {
        let dir = std::env::temp_dir().join(format!("large-summary-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Two real models, whose hashes differ (each reads its own crate). Both sections
        // record netcore's current hash: current for `netcore`, stale for `dbsp-hmos`. A
        // summary that compared `dbsp-hmos` with another model's hash (netcore's) would call
        // it current; one that compared `netcore` with any other hash would call it stale.
        let netcore = crate::sources::model_hash("netcore");
        assert_ne!(netcore, crate::sources::model_hash("dbsp-hmos"));
        let text = "# Large presets\n\n## `netcore`\n\nRun at commit `b` on E.\n\nCode hash at the run: `HASH`\n\n`f1`: verdicts: 3 PASS.\n\n## `dbsp-hmos`\n\nRun at commit `c` on F.\n\nCode hash at the run: `HASH`\n\n`f2`: verdicts: 1 PASS.\n";
        std::fs::write(dir.join(LARGE), text.replace("HASH", &netcore)).unwrap();
        let md = summary(&dir);
        assert!(md.contains("- `netcore`: Run at commit `b` on E. (the code has not changed since). `f1`: verdicts: 3 PASS."), "{md}");
        assert!(
            md.contains(
                "- `dbsp-hmos`: Run at commit `c` on F. (**the code has changed since that run**"
            ),
            "{md}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
