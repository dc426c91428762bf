//! Claims: properties asserted over the rows of a study, with what a referee needs to judge
//! them: the kind of evidence a claim is ([`Evidence`]), the law it tests and the rival laws
//! it must rule out ([`Law`]), and the verdict it is expected to get ([`Verdict`]).
//!
//! xtask evaluates a claim on the measured rows, and, for a claim with a law, on synthetic
//! rows of the law and of each rival over the same grid (the measured rows with `y` replaced
//! by the law's value, scaled to the measurements): the law must pass, and a rival that passes
//! too makes the verdict [`Verdict::Inconclusive`], never reproduced.

use serde::Serialize;

/// A property asserted over the rows of a study.
///
/// The fitted kinds ([`Check::Exponent`], [`Check::Slope`]) and [`Check::Trend`] are evaluated
/// per *group*: rows that agree on every swept axis of the study except `x` (xtask knows the
/// axes), on the columns named by [`Claim::per`], and not on the axes named by
/// [`Claim::pool`]. Seeds and repetitions are always pooled (repeated measurements), so no
/// other axis is ever averaged away silently.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Claim {
    /// What is claimed, in words, e.g. `cost / bound stays within [0.5, 1.5]`.
    pub statement: String,
    /// The column the check reads.
    pub y: String,
    /// Only rows whose columns render equal to these values take part (empty: all rows).
    pub filter: Vec<(String, String)>,
    /// Row columns (beyond the swept axes) that split the rows into groups, e.g. a series
    /// column that one point emits several rows of.
    pub per: Vec<String>,
    /// Swept axes whose values are pooled into one group instead of held fixed.
    pub pool: Vec<String>,
    /// The check itself.
    pub check: Check,
    /// What kind of evidence the claim is; [`Evidence::Unclassified`] until it is restated.
    #[serde(skip_serializing_if = "Evidence::is_unclassified")]
    pub evidence: Evidence,
    /// The law `y` follows if the paper is right, as a function of the study's axes (up to a
    /// constant factor).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub law: Option<Law>,
    /// The laws the claim must rule out: the nearest plausible alternatives (one log factor
    /// more or less, the naive schedule's law).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rivals: Vec<Law>,
    /// The verdict the claim is expected to get on its study's default grid, and for
    /// [`Verdict::NotReproduced`] the paragraph of the crate's docs that explains it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<(Verdict, String)>,
    /// The paper's numbered results the claim is evidence for, as the model's manifest names
    /// them (e.g. `Theorem 2`); the report's referee table lists the claim under each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub results: Vec<String>,
}

/// Which way a [`Check::Trend`] goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Direction {
    /// `y` at the largest `x` is at least `factor` times `y` at the smallest `x`.
    AtLeast,
    /// `y` at the largest `x` is at most `factor` times `y` at the smallest `x`.
    AtMost,
}
crate::display_config_name!(Direction);

/// The kinds of claim.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Check {
    /// Every value of `y` lies in `[lo, hi]`.
    Within {
        /// Lower end of the band.
        lo: f64,
        /// Upper end of the band.
        hi: f64,
    },
    /// The largest `y` is at most `factor` times the smallest `y` (a flat curve).
    Flat {
        /// The largest allowed spread.
        factor: f64,
    },
    /// Every value of `y` is `true`.
    AllTrue,
    /// Per group, the mean `y` at the largest `x` compared with the mean `y` at the smallest
    /// `x` (means over the group's repeated measurements at that `x`).
    Trend {
        /// The column that orders the rows.
        x: String,
        /// Whether the ratio is a floor or a ceiling.
        direction: Direction,
        /// The factor `y(x_max) / y(x_min)` is compared with.
        factor: f64,
    },
    /// Per group, the least-squares fit of `ln y = ln c + a ln x` (the growth exponent of
    /// `y = c x^a`); every group's `a` lies in `[lo, hi]`. Needs `x, y > 0` and at least
    /// three distinct `x` per group.
    Exponent {
        /// The column `y` grows with.
        x: String,
        /// Lower end of the exponent's band.
        lo: f64,
        /// Upper end of the exponent's band.
        hi: f64,
    },
    /// Per group, the least-squares slope of `y` against `log2 x`, divided by the group's
    /// mean `y`: the change of `y` per doubling of `x` as a fraction of its level. A
    /// normalised ratio that "stays bounded" has this slope in a band around 0. Needs at least
    /// three distinct `x` per group.
    Slope {
        /// The column whose doublings the slope is taken over.
        x: String,
        /// Lower end of the band of the relative slope.
        lo: f64,
        /// Upper end of the band of the relative slope.
        hi: f64,
    },
}

impl Claim {
    fn with(statement: impl Into<String>, y: &str, check: Check) -> Self {
        Self {
            statement: statement.into(),
            y: y.into(),
            filter: Vec::new(),
            per: Vec::new(),
            pool: Vec::new(),
            check,
            evidence: Evidence::Unclassified,
            law: None,
            rivals: Vec::new(),
            expected: None,
            results: Vec::new(),
        }
    }
    /// A claim that column `y` stays within `[lo, hi]`.
    pub fn within(statement: impl Into<String>, y: &str, lo: f64, hi: f64) -> Self {
        Self::with(statement, y, Check::Within { lo, hi })
    }
    /// A claim that, per group, column `y` grows by at least `factor` from the smallest to the
    /// largest `x`.
    pub fn grows(statement: impl Into<String>, y: &str, x: &str, factor: f64) -> Self {
        Self::with(
            statement,
            y,
            Check::Trend { x: x.into(), direction: Direction::AtLeast, factor },
        )
    }
    /// A claim that, per group, column `y` at the largest `x` is at most `factor` times `y` at
    /// the smallest `x`.
    pub fn grows_at_most(statement: impl Into<String>, y: &str, x: &str, factor: f64) -> Self {
        Self::with(statement, y, Check::Trend { x: x.into(), direction: Direction::AtMost, factor })
    }
    /// A claim that column `y` varies by at most `factor`.
    pub fn flat(statement: impl Into<String>, y: &str, factor: f64) -> Self {
        Self::with(statement, y, Check::Flat { factor })
    }
    /// A claim that boolean column `y` is true on every row.
    pub fn all_true(statement: impl Into<String>, y: &str) -> Self {
        Self::with(statement, y, Check::AllTrue)
    }
    /// A claim that, per group, `y = c x^a` with the fitted exponent `a` in `[lo, hi]`.
    pub fn exponent(statement: impl Into<String>, y: &str, x: &str, lo: f64, hi: f64) -> Self {
        Self::with(statement, y, Check::Exponent { x: x.into(), lo, hi })
    }
    /// A claim that, per group, the slope of `y` per doubling of `x`, relative to the mean `y`,
    /// lies in `[lo, hi]` (e.g. `[-0.1, 0.1]`: a normalised ratio that does not grow or fall
    /// by more than a tenth of its level per doubling).
    pub fn slope(statement: impl Into<String>, y: &str, x: &str, lo: f64, hi: f64) -> Self {
        Self::with(statement, y, Check::Slope { x: x.into(), lo, hi })
    }
    /// Restricts the claim to rows where `column` renders as `value`.
    pub fn only(mut self, column: &str, value: impl ToString) -> Self {
        self.filter.push((column.into(), value.to_string()));
        self
    }
    /// Evaluates the claim separately for each value of row column `column`.
    pub fn per(mut self, column: &str) -> Self {
        self.per.push(column.into());
        self
    }
    /// Pools the values of swept axis `column` into one group instead of holding it fixed.
    pub fn pool(mut self, column: &str) -> Self {
        self.pool.push(column.into());
        self
    }
    /// A paper's result, tested against rivals: `y` follows `law`, not any rival (add them
    /// with [`Claim::rival`]). Expected verdict: [`Verdict::Reproduced`].
    pub fn result(mut self, law: Law) -> Self {
        self.evidence = Evidence::Result;
        self.law = Some(law);
        self
    }
    /// A law the claim must rule out on its grid.
    pub fn rival(mut self, law: Law) -> Self {
        self.rivals.push(law);
        self
    }
    /// A paper's exact statement (a count, an equality), checked exactly: there is no rival.
    pub fn exact(mut self) -> Self {
        self.evidence = Evidence::Result;
        self
    }
    /// An upper bound of the paper checked without tightness.
    pub fn bound(mut self) -> Self {
        self.evidence = Evidence::Bound;
        self
    }
    /// A lower bound or a worst case shown on the project's own construction or a sample.
    pub fn illustration(mut self) -> Self {
        self.evidence = Evidence::Illustration;
        self
    }
    /// An identity or self-consistency check (a regression check, not a reproduced result).
    pub fn consistency(mut self) -> Self {
        self.evidence = Evidence::Consistency;
        self
    }
    /// A correctness check: every run's result equals its reference execution.
    pub fn correctness(mut self) -> Self {
        self.evidence = Evidence::Correctness;
        self
    }
    /// The claim is expected to get `verdict` on the default grid (instead of the one its
    /// evidence gets when it holds); `why` names the paragraph of `docs/models/<crate>.md`
    /// that explains a [`Verdict::NotReproduced`] or [`Verdict::Inconclusive`] (e.g.
    /// `docs/models/actor-pram.md#theorem-2-at-small-n`).
    pub fn expect(mut self, verdict: Verdict, why: &str) -> Self {
        self.expected = Some((verdict, why.into()));
        self
    }
    /// The claim is evidence for the paper's result `result` (a name from the model's
    /// manifest, e.g. `Theorem 2`).
    pub fn of(mut self, result: &str) -> Self {
        self.results.push(result.into());
        self
    }
    /// The verdict expected on the default grid.
    pub fn expected_verdict(&self) -> Verdict {
        match &self.expected {
            Some((verdict, _)) => *verdict,
            None => self.evidence.holds(),
        }
    }
    /// Whether the check is exact (every row true, or a band of one value): a result checked
    /// exactly needs no rival law.
    pub fn is_exact(&self) -> bool {
        match self.check {
            Check::AllTrue => true,
            Check::Within { lo, hi } => lo.to_bits() == hi.to_bits(),
            _ => false,
        }
    }
}

impl Claim {
    /// Every column the claim reads: `y`, the `x` of a trend or fitted check, and the columns
    /// of its filter, `per` and `pool`, and those its laws read. A study's test checks that each is a column of its
    /// rows, so a misspelt name fails a test instead of matching no row.
    pub fn columns(&self) -> Vec<&str> {
        let x = match &self.check {
            Check::Trend { x, .. } | Check::Exponent { x, .. } | Check::Slope { x, .. } => {
                Some(x.as_str())
            }
            Check::Within { .. } | Check::Flat { .. } | Check::AllTrue => None,
        };
        let filter = self.filter.iter().map(|(column, _)| column.as_str());
        let grouping = self.per.iter().chain(&self.pool).map(String::as_str);
        let laws = self.law.iter().chain(&self.rivals).flat_map(Law::columns);
        std::iter::once(self.y.as_str())
            .chain(x)
            .chain(filter)
            .chain(grouping)
            .chain(laws)
            .collect()
    }
}

/// What kind of evidence a claim is, as a referee of the paper would file it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Evidence {
    /// A paper's result checked so that it could fail: against rival laws ([`Claim::result`])
    /// or exactly ([`Claim::exact`]).
    Result,
    /// An upper bound checked without tightness.
    Bound,
    /// A lower bound or worst case shown on the project's own construction or a sample;
    /// never counted as reproduced.
    Illustration,
    /// An identity or self-consistency check.
    Consistency,
    /// A correctness check (a run's result equals its reference execution): PASS or FAIL.
    Correctness,
    /// Not yet restated as one of the above (a test fails on it): judged PASS or FAIL.
    Unclassified,
}
crate::display_config_name!(Evidence);

impl Evidence {
    fn is_unclassified(&self) -> bool {
        *self == Evidence::Unclassified
    }

    /// The verdict a claim of this kind gets when its check holds.
    pub fn holds(self) -> Verdict {
        match self {
            Evidence::Result => Verdict::Reproduced,
            Evidence::Bound => Verdict::BoundHolds,
            Evidence::Illustration => Verdict::Illustration,
            Evidence::Consistency => Verdict::Consistency,
            Evidence::Correctness | Evidence::Unclassified => Verdict::Pass,
        }
    }

    /// The verdict a claim of this kind gets when its check fails.
    pub fn fails(self) -> Verdict {
        match self {
            Evidence::Result | Evidence::Bound | Evidence::Illustration => Verdict::NotReproduced,
            Evidence::Consistency | Evidence::Correctness | Evidence::Unclassified => Verdict::Fail,
        }
    }
}

/// The verdict on a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Verdict {
    /// A discriminating check of a paper's result passed.
    Reproduced,
    /// A check of a paper's result (or bound, or illustrated lower bound) failed.
    NotReproduced,
    /// The check passed, but so would a rival law on this grid.
    Inconclusive,
    /// An upper bound held (tightness not checked).
    BoundHolds,
    /// A lower bound or worst case shown on a construction of the project's own.
    Illustration,
    /// An identity or self-consistency check held.
    Consistency,
    /// A consistency or correctness check failed (a bug).
    Fail,
    /// A correctness check held.
    Pass,
    /// The grid gave the check too few rows to decide (no row selected, or no group with
    /// enough sizes to fit): a custom grid without the rows a claim needs.
    NotEvaluated,
}
crate::display_config_name!(Verdict => as_str);

impl Verdict {
    /// Every verdict, in the order the report counts them.
    pub const ALL: [Verdict; 9] = [
        Verdict::Reproduced,
        Verdict::NotReproduced,
        Verdict::Inconclusive,
        Verdict::BoundHolds,
        Verdict::Illustration,
        Verdict::Consistency,
        Verdict::Fail,
        Verdict::Pass,
        Verdict::NotEvaluated,
    ];

    /// As the report prints it.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Reproduced => "REPRODUCED",
            Verdict::NotReproduced => "NOT REPRODUCED",
            Verdict::Inconclusive => "INCONCLUSIVE",
            Verdict::BoundHolds => "BOUND HOLDS",
            Verdict::Illustration => "ILLUSTRATION",
            Verdict::Consistency => "CONSISTENCY",
            Verdict::Fail => "FAIL",
            Verdict::Pass => "PASS",
            Verdict::NotEvaluated => "NOT EVALUATED",
        }
    }
}

/// A law `y` may follow, up to a constant factor: a product of powers of terms of the row's
/// columns, e.g. `T log2(N)` as `Law::new("T log N").pow("T", 1.0).log2("N", 1.0)`. The
/// empty product is the constant law (a ratio that stays bounded).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Law {
    /// As the report prints it, e.g. `n^alpha log n`.
    pub name: String,
    /// The factors: a term and its power.
    pub factors: Vec<(Term, f64)>,
}

/// A term of a [`Law`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Term {
    /// The column's value.
    Column(String),
    /// `log2` of the column's value.
    Log2(String),
    /// `2` to the column's value (a column that is itself a logarithm, such as `log_n`).
    Exp2(String),
}

impl Law {
    /// The constant law, named `name`, before factors are added.
    pub fn new(name: &str) -> Self {
        Self { name: name.into(), factors: Vec::new() }
    }
    /// Times `column^power`.
    pub fn pow(mut self, column: &str, power: f64) -> Self {
        self.factors.push((Term::Column(column.into()), power));
        self
    }
    /// Times `log2(column)^power`.
    pub fn log2(mut self, column: &str, power: f64) -> Self {
        self.factors.push((Term::Log2(column.into()), power));
        self
    }
    /// Times `(2^column)^power`.
    pub fn exp2(mut self, column: &str, power: f64) -> Self {
        self.factors.push((Term::Exp2(column.into()), power));
        self
    }
    /// The law's value on a row whose columns `value` reads; `None` when a column is missing
    /// or the value is not a positive finite number.
    pub fn value(&self, value: impl Fn(&str) -> Option<f64>) -> Option<f64> {
        let mut product = 1.0;
        for (term, power) in &self.factors {
            let base = match term {
                Term::Column(c) => value(c)?,
                Term::Log2(c) => value(c)?.log2(),
                Term::Exp2(c) => value(c)?.exp2(),
            };
            product *= base.powf(*power);
        }
        (product.is_finite() && product > 0.0).then_some(product)
    }
    /// The columns the law reads.
    pub fn columns(&self) -> impl Iterator<Item = &str> {
        self.factors.iter().map(|(term, _)| match term {
            Term::Column(c) | Term::Log2(c) | Term::Exp2(c) => c.as_str(),
        })
    }
}
