//! Judging a claim as a referee would: its check on the measured rows, and, for a claim with
//! a law, the same check on synthetic rows of the law and of each rival over the same grid.
//!
//! The synthetic rows are the measured rows with `y` replaced by `c * law(row)`, where the
//! constant `c` is fitted to the measurements (the geometric mean of `y / law`) separately for
//! each of the claim's groups (a band's groups are the values of its `per` columns): a law
//! fixes how `y` changes, not its level.
//! The law's rows must pass (else the claim is misstated), and a rival whose rows pass too
//! makes the verdict INCONCLUSIVE: the grid cannot tell the paper's law from the rival.

use std::collections::BTreeMap;

use netcore::study::{Check, Claim, Evidence, Law, Verdict};
use serde_json::Value;

use crate::claims::{Outcome, evaluate};
use crate::table::{Row, cell, number, selects};

/// The grid a study ran on, which decides what its claims' expected verdicts mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Grid {
    /// The embedded spec's default axes, for which every claim's expected verdict is written:
    /// any other verdict is a regression.
    Default,
    /// The embedded spec's quick axes (small sizes, too few to separate laws or even to fit
    /// them): only a failed correctness or consistency check counts.
    Quick,
    /// A spec file's axes (a user's grid, or a large preset): only a failed correctness or
    /// consistency check counts, and a claim without the rows it needs is NOT EVALUATED.
    Custom,
}

/// The judgement of one claim.
pub(crate) struct Judgement {
    /// The claim's statement.
    pub(crate) statement: String,
    /// The paper's results the claim is evidence for.
    pub(crate) results: Vec<String>,
    pub(crate) verdict: Verdict,
    /// The report line: statement, observation, the law's and rivals' scores, verdict, and
    /// the expectation when the verdict differs from it.
    pub(crate) line: String,
    /// Whether the verdict is the expected one. Expectations are the default grid's: on any
    /// other grid ([`Grid`]) only a failed correctness or consistency check counts against it.
    pub(crate) as_expected: bool,
}

/// How a law's synthetic rows fared.
struct Score {
    name: String,
    outcome: Result<Outcome, String>,
}

impl Score {
    fn passes(&self) -> bool {
        self.outcome.as_ref().is_ok_and(|o| o.pass)
    }

    fn describe(&self, role: &str) -> String {
        match &self.outcome {
            Ok(o) => {
                let fate = match (role, o.pass) {
                    ("law", true) => "passes",
                    ("law", false) => "FAILS its own band",
                    (_, true) => "ADMITTED",
                    (_, false) => "rejected",
                };
                format!("{role} {} scores {} ({fate})", self.name, o.score)
            }
            Err(why) => format!("{role} {} cannot be evaluated ({why})", self.name),
        }
    }
}

/// Judges `claim` on `rows` (`axes`: the study's swept axes; `grid`: which grid they come
/// from).
pub(crate) fn judge(claim: &Claim, rows: &[Row], axes: &[String], grid: Grid) -> Judgement {
    let outcome = evaluate(claim, rows, axes);
    let law = claim.law.as_ref().map(|law| score(claim, law, rows, axes));
    let rivals: Vec<Score> = claim.rivals.iter().map(|r| score(claim, r, rows, axes)).collect();
    let verdict = if outcome.evaluated {
        verdict(claim, outcome.pass, law.as_ref(), &rivals)
    } else {
        Verdict::NotEvaluated
    };
    let expected = claim.expected_verdict();
    // The expectations are the default grid's; another grid (a smoke test at small sizes, or
    // a user's) is held only to its correctness and consistency checks.
    let quick = grid != Grid::Default;
    let as_expected = if quick { verdict != Verdict::Fail } else { verdict == expected };
    let mut line = format!("{}: {}", claim.statement, outcome.observed);
    if let Some(law) = &law {
        line += &format!("; {}", law.describe("law"));
    }
    for rival in &rivals {
        line += &format!("; {}", rival.describe("rival"));
    }
    line += &format!(": {}", verdict.as_str());
    if verdict != expected {
        let whose = if quick { "the default grid expects" } else { "expected" };
        line += &format!(" ({whose} {})", expected.as_str());
    }
    if let Some((_, why)) = &claim.expected {
        line += &format!(" (see {why})");
    }
    Judgement {
        statement: claim.statement.clone(),
        results: claim.results.clone(),
        verdict,
        line,
        as_expected,
    }
}

/// The verdict from the check on the measured rows and the laws' scores.
fn verdict(claim: &Claim, pass: bool, law: Option<&Score>, rivals: &[Score]) -> Verdict {
    if !pass {
        // A grid on which the paper's own law fails the check (too few sizes to fit, say)
        // cannot contradict the paper.
        if law.is_some_and(|law| !law.passes()) {
            return Verdict::Inconclusive;
        }
        return claim.evidence.fails();
    }
    match claim.evidence {
        // A misstated claim (its own law fails, or a rival cannot be evaluated) proves
        // nothing: it is never reproduced.
        // A result with a band but no law cannot tell the paper's law from a rival.
        Evidence::Result if claim.law.is_none() && !claim.is_exact() => Verdict::Inconclusive,
        Evidence::Result if claim.law.is_some() => {
            let law_passes = law.is_some_and(Score::passes);
            let evaluated = rivals.iter().all(|r| r.outcome.is_ok());
            if law_passes && evaluated && !rivals.is_empty() && !rivals.iter().any(Score::passes) {
                Verdict::Reproduced
            } else {
                Verdict::Inconclusive
            }
        }
        evidence => evidence.holds(),
    }
}

/// Whether `claim` is stated so that it can decide on `rows` (the study's grid): a result's
/// law passes its check, and when the claim expects REPRODUCED, every rival fails it; a
/// result with a band names a law and a rival. The error says what is wrong.
#[cfg(test)]
pub(crate) fn discriminates(claim: &Claim, rows: &[Row], axes: &[String]) -> Result<(), String> {
    if claim.evidence != Evidence::Result || claim.is_exact() {
        return Ok(());
    }
    let Some(law) = &claim.law else {
        return Err("a result with a band names the law it tests (Claim::result)".into());
    };
    if claim.rivals.is_empty() {
        return Err(format!("law {} has no rival to rule out (Claim::rival)", law.name));
    }
    let law = score(claim, law, rows, axes);
    if !law.passes() {
        return Err(law.describe("law"));
    }
    if claim.expected_verdict() == Verdict::Reproduced {
        for rival in claim.rivals.iter().map(|r| score(claim, r, rows, axes)) {
            if rival.outcome.as_ref().map_or(true, |o| o.pass) {
                return Err(format!(
                    "{} although REPRODUCED is expected (expect INCONCLUSIVE, or narrow the band)",
                    rival.describe("rival")
                ));
            }
        }
    }
    Ok(())
}

/// The outcome of `claim`'s check on the synthetic rows of `law`.
fn score(claim: &Claim, law: &Law, rows: &[Row], axes: &[String]) -> Score {
    let outcome = synthetic(claim, law, rows, axes).map(|rows| evaluate(claim, &rows, axes));
    Score { name: law.name.clone(), outcome }
}

/// The rows `claim` selects with `y` replaced by `c * law(row)`, `c` fitted per group of the
/// claim (for a band, per value of its `per` columns).
fn synthetic(claim: &Claim, law: &Law, rows: &[Row], axes: &[String]) -> Result<Vec<Row>, String> {
    // The claim's own groups: a fitted or trend check's (every swept axis but `x` and the
    // pooled ones, and the `per` columns); a band's are its `per` columns alone.
    let x = match &claim.check {
        Check::Trend { x, .. } | Check::Exponent { x, .. } | Check::Slope { x, .. } => Some(x),
        Check::Within { .. } | Check::Flat { .. } | Check::AllTrue => None,
    };
    let held: Vec<&String> = axes
        .iter()
        .filter(|a| x.is_some_and(|x| x != *a) && !claim.pool.contains(a))
        .chain(claim.per.iter())
        .collect();
    let selected: Vec<&Row> = rows.iter().filter(|row| selects(&claim.filter, row)).collect();
    let mut values = Vec::with_capacity(selected.len());
    let mut logs: BTreeMap<String, (f64, usize)> = BTreeMap::new();
    for row in &selected {
        let value = law
            .value(|c| row.get(c).and_then(number))
            .ok_or("a column of the law is missing or not positive on a row")?;
        let key = group_key(row, &held);
        let measured = row.get(&claim.y).and_then(number).filter(|y| *y > 0.0 && y.is_finite());
        if let Some(y) = measured {
            let entry = logs.entry(key.clone()).or_insert((0.0, 0));
            entry.0 += (y / value).ln();
            entry.1 += 1;
        }
        values.push((key, value));
    }
    let mut out = Vec::with_capacity(selected.len());
    for (row, (key, value)) in selected.iter().zip(values) {
        let scale = logs.get(&key).map_or(1.0, |(sum, n)| (sum / *n as f64).exp());
        let mut row = (*row).clone();
        let y = serde_json::Number::from_f64(scale * value).ok_or("a non-finite law value")?;
        row.insert(claim.y.clone(), Value::Number(y));
        out.push(row);
    }
    Ok(out)
}

fn group_key(row: &Row, held: &[&String]) -> String {
    let parts: Vec<String> = held
        .iter()
        .map(|c| format!("{c}={}", row.get(c.as_str()).map(cell).unwrap_or_default()))
        .collect();
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows of `ratio = time / log2(n)` for a time `t * log2(n)^power`, i.e.
    /// `ratio = t * log2(n)^(power - 1)`, over n = 2^2..2^6 and t = 3, 7: the two `t` groups
    /// have the same shape in `n` but levels 3 and 7 apart, so a law's constant `c` fitted per
    /// group differs from one pooled over both (see `a_law_is_scaled_per_group`).
    fn rows(power: f64) -> Vec<Row> {
        let mut rows = Vec::new();
        for t in [3.0, 7.0] {
            for k in 2..=6 {
                let n = f64::from(1u32 << k);
                let y = t * n.log2().powf(power - 1.0);
                let row = serde_json::json!({ "t": t, "n": n, "ratio": y });
                rows.push(row.as_object().cloned().unwrap_or_default());
            }
        }
        rows
    }

    fn axes() -> Vec<String> {
        vec!["t".into(), "n".into()]
    }

    /// `ratio = actor time / (T log N)` must stay flat: the law `T log N` (a constant ratio)
    /// passes a narrow slope band and the rival `T log^2 N` (ratio ~ log N) fails it, so the
    /// measured rows of the law are REPRODUCED and those of the rival NOT REPRODUCED.
    #[test]
    fn a_narrow_band_separates_the_law_from_its_rival() {
        let claim = Claim::slope("ratio bounded", "ratio", "n", -0.1, 0.1)
            .result(Law::new("constant ratio"))
            .rival(Law::new("log N more").log2("n", 1.0));
        let law = judge(&claim, &rows(1.0), &axes(), Grid::Default);
        assert_eq!(law.verdict, Verdict::Reproduced, "{}", law.line);
        assert!(law.line.contains("rival log N more scores"), "{}", law.line);
        let rival = judge(&claim, &rows(2.0), &axes(), Grid::Default);
        assert_eq!(rival.verdict, Verdict::NotReproduced, "{}", rival.line);
    }

    /// Widening the band until it admits the rival (the relative slope of log N over
    /// n = 4..64 is about 0.27) turns the same measurements INCONCLUSIVE, never REPRODUCED.
    #[test]
    fn a_band_that_admits_the_rival_is_inconclusive() {
        let claim = Claim::slope("ratio bounded", "ratio", "n", 0.0, 0.6)
            .result(Law::new("constant ratio"))
            .rival(Law::new("log N more").log2("n", 1.0));
        let judged = judge(&claim, &rows(1.0), &axes(), Grid::Default);
        assert_eq!(judged.verdict, Verdict::Inconclusive, "{}", judged.line);
        assert!(judged.line.contains("(ADMITTED)"), "{}", judged.line);
        assert!(!judged.as_expected);
        assert!(judge(&claim, &rows(1.0), &axes(), Grid::Quick).as_expected);
        let consistency = Claim::within("identity", "ratio", 5.0, 6.0).consistency();
        assert!(!judge(&consistency, &rows(1.0), &axes(), Grid::Quick).as_expected);
    }

    /// A law's constant `c` is fitted per group of the claim (for a band, per value of its
    /// `per` columns), not once over all rows: per `t`, the law's rows are the measured levels
    /// and the rival's spread around each level leaves the band; one pooled `c` would squash
    /// the law to one level and put the rival inside the band.
    #[test]
    fn a_law_is_scaled_per_group() {
        // Measured (rows(1.0)): ratio = 3 for t = 3 and 7 for t = 7, inside [2, 8].
        // Law "constant ratio" (value 1): c per t = 3 and 7, rows [3, 7], passes; pooled c =
        // sqrt(3 * 7) = 4.5826, rows [4.5826, 4.5826].
        // Rival "log N more" (value log2 n = 2..6, geometric mean 720^(1/5) = 3.7279): c per t
        // = t / 3.7279, rows 2 t / 3.7279 .. 6 t / 3.7279 = [1.6095, 4.8284] for t = 3 and
        // [3.7554, 11.2663] for t = 7, so [1.6095, 11.2663] overall, rejected by [2, 8];
        // pooled c = 4.5826 / 3.7279 = 1.2293, rows [2.4585, 7.3755], ADMITTED.
        let claim = Claim::within("ratio in [2, 8]", "ratio", 2.0, 8.0)
            .per("t")
            .result(Law::new("constant ratio"))
            .rival(Law::new("log N more").log2("n", 1.0));
        let judged = judge(&claim, &rows(1.0), &axes(), Grid::Default);
        assert!(
            judged.line.contains("law constant ratio scores [3.0000, 7.0000] (passes)"),
            "{}",
            judged.line
        );
        assert!(
            judged.line.contains("rival log N more scores [1.6095, 11.2663] (rejected)"),
            "{}",
            judged.line
        );
        assert_eq!(judged.verdict, Verdict::Reproduced, "{}", judged.line);
    }

    /// A band that rejects its own law is never REPRODUCED, whatever the measurements.
    #[test]
    fn a_band_that_rejects_its_law_is_not_reproduced() {
        let claim = Claim::exponent("grows like n", "ratio", "n", 0.9, 1.1)
            .result(Law::new("n").pow("n", 1.0))
            .rival(Law::new("n^0.5").pow("n", 0.5));
        // Measurements that pass by accident (y ~ n) while the law is the constant.
        let mut rows = rows(1.0);
        for row in &mut rows {
            let n = row["n"].as_f64().unwrap_or_default();
            row.insert("ratio".into(), serde_json::json!(n));
        }
        let misstated = Claim { law: Some(Law::new("constant")), ..claim.clone() };
        assert_eq!(judge(&misstated, &rows, &axes(), Grid::Default).verdict, Verdict::Inconclusive);
        assert_eq!(judge(&claim, &rows, &axes(), Grid::Default).verdict, Verdict::Reproduced);
    }

    /// A grid too small to fit (two sizes for a slope) cannot decide the claim: NOT
    /// EVALUATED, which is a regression on the default grid (its expectations were written
    /// for it) and acceptable on a quick or custom grid.
    #[test]
    fn a_grid_too_small_to_fit_is_not_evaluated() {
        let claim = Claim::slope("ratio bounded", "ratio", "n", -0.1, 0.1)
            .result(Law::new("constant ratio"))
            .rival(Law::new("log N more").log2("n", 1.0));
        let two_sizes: Vec<Row> =
            rows(1.0).into_iter().filter(|r| r["n"].as_f64() <= Some(8.0)).collect();
        let judged = judge(&claim, &two_sizes, &axes(), Grid::Default);
        assert_eq!(judged.verdict, Verdict::NotEvaluated, "{}", judged.line);
        assert!(!judged.as_expected);
        assert!(judge(&claim, &two_sizes, &axes(), Grid::Quick).as_expected);
        assert!(judge(&claim, &two_sizes, &axes(), Grid::Custom).as_expected);
    }

    /// A claim pinned to rows a custom grid does not have (`only("n", 1024)` on sizes up to
    /// 16) is NOT EVALUATED, never FAIL, whatever its kind.
    #[test]
    fn a_claim_without_rows_is_not_evaluated() {
        let claim = Claim::within("ratio near 1", "ratio", 0.5, 2.0).consistency().only("n", 1024);
        let judged = judge(&claim, &rows(1.0), &axes(), Grid::Custom);
        assert_eq!(judged.verdict, Verdict::NotEvaluated, "{}", judged.line);
        assert!(judged.as_expected);
    }
}
