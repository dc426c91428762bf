//! The interface through which a model exposes runs and sweepable studies to `xtask`.
//!
//! A model crate implements [`Model`] once (for `cargo xtask run MODEL CONFIG.toml`) and one
//! [`Study`] per parameter study (for `cargo xtask sweep`). xtask stays generic: it sees
//! parameters and rows as JSON objects, never a model's internals.
//!
//! A study's row is a `#[derive(Serialize)]` struct; its fields become the CSV columns in
//! declaration order. Every row carries its parameters, the measured quantities, the paper's
//! bound at those parameters and measured / bound. [`Claim`]s assert properties of the rows
//! (a normalised ratio stays in a band, a ratio grows, a verification column is all true),
//! and [`Plot`]s say which columns to draw.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::rng::SimRng;

/// An error a model reports to xtask.
///
/// `Config` is the user's input breaking a rule (exit status 2); `Run` is a run that failed
/// after validation (exit status 1), e.g. a simulation whose result differs from the reference.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ModelError {
    /// Invalid input: the message names the field and the rule.
    #[error("{0}")]
    Config(String),
    /// A failed run.
    #[error("{0}")]
    Run(String),
}

impl From<crate::Error> for ModelError {
    fn from(error: crate::Error) -> Self {
        ModelError::Config(error.to_string())
    }
}

/// One parameter study of a model.
pub trait Study: Send + Sync {
    /// The parameters of one sweep point (deserialised from the sweep spec's grid).
    ///
    /// Use `#[serde(deny_unknown_fields)]` so that a misspelt axis is an error.
    type Params: DeserializeOwned + Send + Sync;
    /// The row one point produces; its fields are the CSV columns, in order.
    type Row: Serialize;

    /// Unique name, kebab-case, used on the command line and as the output directory.
    fn name(&self) -> &'static str;
    /// One line saying what the study measures and against which claim of the paper.
    fn about(&self) -> &'static str;
    /// Validates one point before any point of the sweep runs.
    fn check(&self, params: &Self::Params) -> Result<(), ModelError>;
    /// Executes one point with its own seeded stream.
    fn run(&self, params: &Self::Params, rng: &mut SimRng) -> Result<Self::Row, ModelError>;
    /// The claims asserted over all rows of the sweep.
    fn claims(&self) -> Vec<Claim> {
        Vec::new()
    }
    /// The plots drawn from the rows.
    fn plots(&self) -> Vec<Plot> {
        Vec::new()
    }
}

/// A [`Study`] with its types erased to JSON, as xtask drives it.
pub trait AnyStudy: Send + Sync {
    /// See [`Study::name`].
    fn name(&self) -> &'static str;
    /// See [`Study::about`].
    fn about(&self) -> &'static str;
    /// Parses and validates one point.
    fn check_json(&self, params: &serde_json::Value) -> Result<(), ModelError>;
    /// Parses and runs one point; the row is a JSON object whose keys keep the field order.
    fn run_json(
        &self,
        params: &serde_json::Value,
        rng: &mut SimRng,
    ) -> Result<serde_json::Map<String, serde_json::Value>, ModelError>;
    /// See [`Study::claims`].
    fn claims(&self) -> Vec<Claim>;
    /// See [`Study::plots`].
    fn plots(&self) -> Vec<Plot>;
}

fn parse_params<P: DeserializeOwned>(params: &serde_json::Value) -> Result<P, ModelError> {
    P::deserialize(params).map_err(|e| ModelError::Config(e.to_string()))
}

impl<S: Study> AnyStudy for S {
    fn name(&self) -> &'static str {
        Study::name(self)
    }
    fn about(&self) -> &'static str {
        Study::about(self)
    }
    fn check_json(&self, params: &serde_json::Value) -> Result<(), ModelError> {
        self.check(&parse_params(params)?)
    }
    fn run_json(
        &self,
        params: &serde_json::Value,
        rng: &mut SimRng,
    ) -> Result<serde_json::Map<String, serde_json::Value>, ModelError> {
        let row = self.run(&parse_params(params)?, rng)?;
        match serde_json::to_value(row) {
            Ok(serde_json::Value::Object(map)) => Ok(map),
            Ok(other) => {
                Err(ModelError::Run(format!("row must serialise to an object, got {other}")))
            }
            Err(e) => Err(ModelError::Run(format!("row does not serialise: {e}"))),
        }
    }
    fn claims(&self) -> Vec<Claim> {
        Study::claims(self)
    }
    fn plots(&self) -> Vec<Plot> {
        Study::plots(self)
    }
}

/// What one `cargo xtask run MODEL CONFIG.toml` produced.
#[derive(Debug, Clone, PartialEq)]
pub struct RunReport {
    /// A short readable summary, printed by default.
    pub summary: String,
    /// The full report, printed with `--json`.
    pub report: serde_json::Value,
}

/// A model crate as xtask sees it.
pub trait Model: Sync {
    /// The crate's name, e.g. `logp-stall`.
    fn name(&self) -> &'static str;
    /// One line about the model and its paper.
    fn about(&self) -> &'static str;
    /// The model's studies.
    fn studies(&self) -> Vec<Box<dyn AnyStudy>>;
    /// Runs one configuration given as TOML text.
    fn run_config(&self, config: &str) -> Result<RunReport, ModelError>;
}

/// A property asserted over the rows of a study.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Claim {
    /// What is claimed, in words, e.g. `cost / bound stays within [0.5, 1.5]`.
    pub statement: String,
    /// The column the check reads.
    pub y: String,
    /// Only rows whose columns render equal to these values take part (empty: all rows).
    pub filter: Vec<(String, String)>,
    /// The check itself.
    pub check: Check,
}

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
    /// With rows ordered by column `x`, the mean `y` at the largest `x` is at least `factor`
    /// times the mean `y` at the smallest `x`.
    Grows {
        /// The column that orders the rows.
        x: String,
        /// The least growth factor.
        factor: f64,
    },
    /// The largest `y` is at most `factor` times the smallest `y` (a flat curve).
    Flat {
        /// The largest allowed spread.
        factor: f64,
    },
    /// Every value of `y` is `true`.
    AllTrue,
}

impl Claim {
    /// A claim that column `y` stays within `[lo, hi]`.
    pub fn within(statement: impl Into<String>, y: &str, lo: f64, hi: f64) -> Self {
        Self {
            statement: statement.into(),
            y: y.into(),
            filter: Vec::new(),
            check: Check::Within { lo, hi },
        }
    }
    /// A claim that column `y` grows by at least `factor` from the smallest to the largest `x`.
    pub fn grows(statement: impl Into<String>, y: &str, x: &str, factor: f64) -> Self {
        Self {
            statement: statement.into(),
            y: y.into(),
            filter: Vec::new(),
            check: Check::Grows { x: x.into(), factor },
        }
    }
    /// A claim that column `y` varies by at most `factor`.
    pub fn flat(statement: impl Into<String>, y: &str, factor: f64) -> Self {
        Self {
            statement: statement.into(),
            y: y.into(),
            filter: Vec::new(),
            check: Check::Flat { factor },
        }
    }
    /// A claim that boolean column `y` is true on every row.
    pub fn all_true(statement: impl Into<String>, y: &str) -> Self {
        Self { statement: statement.into(), y: y.into(), filter: Vec::new(), check: Check::AllTrue }
    }
    /// Restricts the claim to rows where `column` renders as `value`.
    pub fn only(mut self, column: &str, value: impl ToString) -> Self {
        self.filter.push((column.into(), value.to_string()));
        self
    }
}

/// A plot drawn from a study's rows (SVG, one per plot).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plot {
    /// File stem, e.g. `ratio` for `ratio.svg`.
    pub name: String,
    /// The title drawn above the plot.
    pub title: String,
    /// The x column.
    pub x: String,
    /// The y columns, one line each (per series).
    pub y: Vec<String>,
    /// A column that splits rows into separate lines (e.g. the algorithm), if any.
    pub series: Option<String>,
    /// Logarithmic x axis.
    pub log_x: bool,
    /// Logarithmic y axis.
    pub log_y: bool,
}

impl Plot {
    /// A linear plot of columns `y` against `x`.
    pub fn new(name: &str, title: &str, x: &str, y: &[&str]) -> Self {
        Self {
            name: name.into(),
            title: title.into(),
            x: x.into(),
            y: y.iter().map(|c| (*c).into()).collect(),
            series: None,
            log_x: false,
            log_y: false,
        }
    }
    /// Splits the lines by the values of `column`.
    pub fn series(mut self, column: &str) -> Self {
        self.series = Some(column.into());
        self
    }
    /// Uses a logarithmic x axis.
    pub fn log_x(mut self) -> Self {
        self.log_x = true;
        self
    }
    /// Uses a logarithmic y axis.
    pub fn log_y(mut self) -> Self {
        self.log_y = true;
        self
    }
}

/// Parses a TOML config into `T`, turning the parser's message into a [`ModelError::Config`]
/// that names the line and the key.
pub fn parse_toml<T: DeserializeOwned>(config: &str) -> Result<T, ModelError> {
    toml::from_str(config).map_err(|e| ModelError::Config(toml_error(config, &e)))
}

/// One line describing a TOML error: `line L, column C: message`.
pub fn toml_error(text: &str, error: &toml::de::Error) -> String {
    let message = error.message().trim_end().replace('\n', " ");
    match error.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!("line {line}, column {column}: {message}")
        }
        None => message,
    }
}
