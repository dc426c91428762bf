//! `cargo xtask describe STUDY`: what a study sweeps and claims, for a user writing a grid of
//! their own. Every parameter with its meaning (the study's glossary) and its values in the
//! default, quick and large grids; the seeds and job counts; every claim with its kind, the
//! verdict the default grid expects, the rows it reads and the paper results it is evidence
//! for. A claim that a custom grid gives too few rows is NOT EVALUATED, never FAIL.

use netcore::study::{AnyStudy, Check, Claim, Column, Direction, Evidence};

use crate::spec::{StudySpec, load, parse};
use crate::{large, registry, usage};

/// The description of study `name`.
pub(crate) fn describe(name: &str) -> anyhow::Result<String> {
    let (model, study) = registry::study(name)?;
    let spec = load(None)?
        .into_iter()
        .find(|s| s.name == name)
        .ok_or_else(|| usage(format!("study `{name}` is in no embedded sweep spec")))?;
    let large = large_spec(model, name)?;
    let mut text = format!("{name} ({model}): {}\n\n", study.about());
    text += &parameters(&spec, large.as_ref(), &study.glossary());
    text += &format!(
        "\nseeds {:?}, repetitions {}; jobs: default {}, quick {}{}\n",
        spec.seeds,
        spec.repetitions,
        spec.jobs(false)?.len(),
        spec.jobs(true)?.len(),
        match &large {
            Some(l) => format!(", large {}", l.jobs(false)?.len()),
            None => String::new(),
        }
    );
    text += "\nAny other value the study accepts may be swept: `cargo xtask sweep STUDY --config \
             FILE --dry-run` checks a grid of your own and names the field and rule of a value \
             it refuses. The expected verdicts are the default grid's; on another grid only a \
             failed correctness or consistency check fails the sweep, and a claim without the \
             rows it needs is NOT EVALUATED.\n";
    text += &claims(study.as_ref());
    Ok(text)
}

/// The study's table in its model's large preset, if it has one.
fn large_spec(model: &str, name: &str) -> anyhow::Result<Option<StudySpec>> {
    let Some((_, path)) = large::presets().into_iter().find(|(m, _)| *m == model) else {
        return Ok(None);
    };
    let text = std::fs::read_to_string(&path)
        .map_err(|e| anyhow::anyhow!("{}: cannot read the large preset: {e}", path.display()))?;
    Ok(parse(&path.display().to_string(), &text)?.into_iter().find(|s| s.name == name))
}

/// One line per parameter: its meaning and its values in each grid.
fn parameters(spec: &StudySpec, large: Option<&StudySpec>, glossary: &[Column]) -> String {
    let mut names: Vec<&String> =
        spec.fixed.keys().chain(spec.grid.keys()).chain(spec.zip.keys()).collect();
    if let Some(l) = large {
        names.extend(l.fixed.keys().chain(l.grid.keys()).chain(l.zip.keys()));
    }
    let mut seen = std::collections::BTreeSet::new();
    names.retain(|n| seen.insert(n.as_str()));
    let mut text = String::from("Parameters (values per grid):\n");
    for name in names {
        let meaning = glossary.iter().find(|c| &c.name == name).map_or("", |c| c.meaning.as_str());
        text += &format!("  {name}: {meaning}\n");
        let quick = spec.quick.get(name.as_str()).or_else(|| values(spec, name));
        for (grid, value) in [
            ("default", values(spec, name)),
            ("quick", quick),
            ("large", large.and_then(|l| values(l, name))),
        ] {
            if let Some(value) = value {
                text += &format!("    {grid:<8}{value}\n");
            }
        }
    }
    text
}

/// The value (or values) a spec gives parameter `name`.
fn values<'s>(spec: &'s StudySpec, name: &str) -> Option<&'s toml::Value> {
    spec.grid.get(name).or_else(|| spec.zip.get(name)).or_else(|| spec.fixed.get(name))
}

/// One paragraph per claim.
fn claims(study: &dyn AnyStudy) -> String {
    let claims = study.claims();
    let mut text = format!("\nClaims ({}):\n", claims.len());
    for claim in &claims {
        text += &format!("- {}\n", claim.statement);
        text += &format!(
            "    {}, expects {} on the default grid; checks {}{}\n",
            kind(claim.evidence),
            claim.expected_verdict().as_str(),
            check(claim),
            rows(claim)
        );
        if !claim.results.is_empty() {
            text += &format!("    evidence for: {}\n", claim.results.join("; "));
        }
    }
    text
}

/// The claim's kind of evidence, in the words of the report's verdicts.
fn kind(evidence: Evidence) -> &'static str {
    match evidence {
        Evidence::Result => "a result of the paper",
        Evidence::Bound => "an upper bound",
        Evidence::Illustration => "an illustration on the project's construction",
        Evidence::Consistency => "a consistency check",
        Evidence::Correctness => "a correctness check",
        Evidence::Unclassified => "unclassified",
    }
}

/// What the claim checks, in words.
fn check(claim: &Claim) -> String {
    let y = &claim.y;
    match &claim.check {
        Check::Within { lo, hi } => format!("`{y}` within {}", crate::claims::band(*lo, *hi)),
        Check::Flat { factor } => format!("`{y}` varies by at most x{factor}"),
        Check::AllTrue => format!("`{y}` true on every row"),
        Check::Trend { x, direction, factor } => {
            let bound = match direction {
                Direction::AtLeast => "at least",
                Direction::AtMost => "at most",
            };
            format!("`{y}` grows by {bound} x{factor} from the smallest to the largest `{x}`")
        }
        Check::Exponent { x, lo, hi } => {
            format!(
                "the fitted exponent of `{y}` in `{x}` within {}",
                crate::claims::band(*lo, *hi)
            )
        }
        Check::Slope { x, lo, hi } => format!(
            "the relative slope of `{y}` per doubling of `{x}` within {}",
            crate::claims::band(*lo, *hi)
        ),
    }
}

/// The rows the claim reads: its filters and groups.
fn rows(claim: &Claim) -> String {
    let mut parts = Vec::new();
    if !claim.filter.is_empty() {
        let only: Vec<String> = claim.filter.iter().map(|(c, v)| format!("{c} = {v}")).collect();
        parts.push(format!("only rows with {}", only.join(", ")));
    }
    if !claim.per.is_empty() {
        parts.push(format!("per {}", claim.per.join(", ")));
    }
    if !claim.pool.is_empty() {
        parts.push(format!("pooling {}", claim.pool.join(", ")));
    }
    if parts.is_empty() { String::new() } else { format!(" ({})", parts.join("; ")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every study of every model can be described, and its description names each of its
    /// claims and the parameters of its default grid.
    #[test]
    fn every_study_is_described() {
        for model in registry::models() {
            for study in model.studies() {
                let text = describe(study.name()).unwrap_or_else(|e| panic!("{e:#}"));
                for claim in study.claims() {
                    assert!(text.contains(&claim.statement), "{}", study.name());
                }
                let spec = load(None).unwrap_or_default();
                let spec = spec.iter().find(|s| s.name == study.name());
                for axis in spec.iter().flat_map(|s| s.grid.keys()) {
                    assert!(text.contains(&format!("  {axis}: ")), "{}: {axis}", study.name());
                }
            }
        }
    }

    /// An unknown study is the user's input.
    #[test]
    fn an_unknown_study_is_a_usage_error() {
        let err = describe("no-such-study").unwrap_err();
        assert!(err.downcast_ref::<crate::UsageError>().is_some(), "{err:#}");
    }
}
