//! The interface through which a model exposes runs and sweepable studies to `xtask`.
//!
//! A model crate implements [`Model`] once (for `cargo xtask run MODEL CONFIG.toml`) and one
//! [`Study`] per parameter study (for `cargo xtask sweep`). xtask stays generic: it sees
//! parameters and rows as JSON objects, never a model's internals.
//!
//! A study turns the axes of one sweep point ([`Study::Params`], as the sweep spec writes them)
//! into a validated [`Study::Point`] once, before any point of the sweep runs; [`Study::run`]
//! takes only validated points. One point may produce several rows (one trace re-priced over a
//! parameter grid, one cost tree priced under several formulas). A row is a
//! `#[derive(Serialize)]` struct whose fields become CSV columns in declaration order; xtask
//! prepends the job id, seed, repetition and the point's parameters, so a row carries only
//! measured values, bounds and ratios. A boolean `verified` column (the run's result equals its
//! reference execution) is checked by xtask itself on every study. [`Claim`]s assert further
//! properties of the rows and [`Plot`]s say which columns to draw.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::fault::{Classify, Fault};
use crate::picture::Picture;
use crate::rng::SimRng;

mod claim;

pub use claim::{Check, Claim, Direction, Evidence, Law, Term, Verdict};

/// An error a model reports to xtask: any [`Classify`] error, whose type says whether it is the
/// user's input (exit status 2) or a failed run (exit status 1).
#[derive(Debug)]
pub struct ModelError {
    fault: Fault,
    source: Box<dyn std::error::Error + Send + Sync>,
}

impl ModelError {
    /// Whose fault the error is.
    pub fn fault(&self) -> Fault {
        self.fault
    }
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.source.fmt(f)
    }
}

/// Transparent, like `#[error(transparent)]`: the message is the model's error's, and the
/// chain continues with that error's own source, so `?` works into `Box<dyn Error>` and
/// `anyhow::Error` without printing the message twice.
impl std::error::Error for ModelError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.source()
    }
}

impl<E: Classify> From<E> for ModelError {
    fn from(error: E) -> Self {
        Self { fault: error.fault(), source: Box::new(error) }
    }
}

/// An error of the study plumbing itself: a row that does not serialise to an object, or a
/// sweep point whose fields do not fit the study's parameters.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum StudyError {
    /// A sweep point's axes do not deserialise into the study's parameters.
    #[error("{0}")]
    Params(String),
    /// A row or a parameter struct does not serialise to a JSON object (a bug in the study).
    #[error("{what} must serialise to a JSON object ({detail})")]
    NotAnObject {
        /// `row` or `params`.
        what: &'static str,
        /// What it serialised to, or the serialiser's message.
        detail: String,
    },
}

impl Classify for StudyError {
    fn fault(&self) -> Fault {
        match self {
            StudyError::Params(_) => Fault::Input,
            StudyError::NotAnObject { .. } => Fault::Run,
        }
    }
}

/// A sweep point's parameter that breaks a rule of its study (the user's input).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field} must satisfy {rule} (got {got})")]
pub struct ParamError {
    /// The parameter, as the sweep spec names it.
    pub field: &'static str,
    /// The rule it breaks.
    pub rule: String,
    /// The offending value.
    pub got: String,
}

impl ParamError {
    /// `field` must satisfy `rule`, but is `got`.
    pub fn new(field: &'static str, rule: impl Into<String>, got: impl ToString) -> Self {
        Self { field, rule: rule.into(), got: got.to_string() }
    }
}

impl Classify for ParamError {
    fn fault(&self) -> Fault {
        Fault::Input
    }
}

/// One parameter study of a model.
pub trait Study: Send + Sync {
    /// The axes of one sweep point, as the sweep spec writes them (deserialised from its grid).
    ///
    /// Use `#[serde(deny_unknown_fields)]` so that a misspelt axis is an error. Serialising it
    /// gives the parameter columns xtask puts in front of each row.
    type Params: Serialize + DeserializeOwned + Send + Sync;
    /// A validated point: built only by [`Study::point`], so [`Study::run`] never sees an
    /// invalid one.
    type Point: Send + Sync + 'static;
    /// One row of output; its fields are the CSV columns after the parameters, in order.
    type Row: Serialize;

    /// Unique name, kebab-case, used on the command line and as the output directory.
    fn name(&self) -> &'static str;
    /// One line saying what the study measures and against which claim of the paper.
    fn about(&self) -> &'static str;
    /// Validates one point; called for every point before any point of the sweep runs.
    fn point(&self, params: &Self::Params) -> Result<Self::Point, ModelError>;
    /// Executes one point with its own seeded stream; one point may give several rows.
    fn run(&self, point: &Self::Point, rng: &mut SimRng) -> Result<Vec<Self::Row>, ModelError>;
    /// The claims asserted over all rows of the sweep.
    fn claims(&self) -> Vec<Claim> {
        Vec::new()
    }
    /// The plots drawn from the rows.
    fn plots(&self) -> Vec<Plot> {
        Vec::new()
    }
    /// What the columns mean, with their units: the report's glossary and the plots' axis
    /// labels. A column without an entry is labelled by its name.
    fn glossary(&self) -> Vec<Column> {
        Vec::new()
    }
    /// Sentences about what the measured rows show beyond the claims, negative results
    /// included (e.g. "OVERLAP equals naive on every host of this grid"); the report prints
    /// them under "What this shows".
    fn findings(&self, rows: &[JsonObject]) -> Vec<String> {
        let _ = rows;
        Vec::new()
    }
}

/// A column of a study's rows, for its glossary: the name and what it means, unit included.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Column {
    /// The column, e.g. `slowdown`.
    pub name: String,
    /// What it means with its unit, e.g. `slowdown (host steps per guest step)`: the plots'
    /// axis label.
    pub meaning: String,
}

impl Column {
    /// The glossary entry of `name`.
    pub fn new(name: &str, meaning: &str) -> Self {
        Self { name: name.into(), meaning: meaning.into() }
    }
}

/// A JSON object with its keys in insertion order: one row, or one point's parameters.
pub type JsonObject = serde_json::Map<String, serde_json::Value>;

/// Runs a prepared point once with a seeded stream.
type PointRunner<'s> =
    Box<dyn Fn(&mut SimRng) -> Result<Vec<JsonObject>, ModelError> + Send + Sync + 's>;

/// A validated sweep point with its types erased, ready to run any number of times.
pub struct PreparedPoint<'s> {
    /// The point's parameters, serialised from the study's [`Study::Params`] (defaults filled
    /// in), in field order.
    pub params: JsonObject,
    run: PointRunner<'s>,
}

impl PreparedPoint<'_> {
    /// Runs the point once; each row is a JSON object whose keys keep the field order.
    pub fn run(&self, rng: &mut SimRng) -> Result<Vec<JsonObject>, ModelError> {
        (self.run)(rng)
    }
}

impl std::fmt::Debug for PreparedPoint<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreparedPoint").field("params", &self.params).finish_non_exhaustive()
    }
}

/// A [`Study`] with its types erased to JSON, as xtask drives it.
pub trait AnyStudy: Send + Sync {
    /// See [`Study::name`].
    fn name(&self) -> &'static str;
    /// See [`Study::about`].
    fn about(&self) -> &'static str;
    /// Parses and validates one point.
    fn prepare(&self, params: &serde_json::Value) -> Result<PreparedPoint<'_>, ModelError>;
    /// See [`Study::claims`].
    fn claims(&self) -> Vec<Claim>;
    /// See [`Study::plots`].
    fn plots(&self) -> Vec<Plot>;
    /// See [`Study::glossary`].
    fn glossary(&self) -> Vec<Column>;
    /// See [`Study::findings`].
    fn findings(&self, rows: &[JsonObject]) -> Vec<String>;
}

/// A report as JSON for [`RunReport::report`].
pub fn to_json(report: &impl Serialize) -> Result<serde_json::Value, StudyError> {
    serde_json::to_value(report)
        .map_err(|e| StudyError::NotAnObject { what: "report", detail: e.to_string() })
}

/// A run's JSON `report` (an object) with `config`, the config it ran (its defaults filled
/// in), as its first field, so that a saved report says what produced it. The report's
/// fields are moved, not copied (a traced run's report can be most of the run's memory).
///
/// # Errors
///
/// [`StudyError::NotAnObject`] if `report` is not an object or already has a field `config`.
pub fn with_config(
    config: &impl Serialize,
    report: serde_json::Value,
) -> Result<serde_json::Value, StudyError> {
    let serde_json::Value::Object(fields) = report else {
        return Err(StudyError::NotAnObject { what: "report", detail: format!("got {report}") });
    };
    if fields.contains_key("config") {
        return Err(StudyError::NotAnObject {
            what: "report",
            detail: "it has a field `config` of its own".into(),
        });
    }
    let mut out = JsonObject::new();
    out.insert("config".into(), to_json(config)?);
    out.extend(fields);
    Ok(serde_json::Value::Object(out))
}

fn to_object(what: &'static str, value: impl Serialize) -> Result<JsonObject, StudyError> {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::Object(map)) => Ok(map),
        Ok(other) => Err(StudyError::NotAnObject { what, detail: format!("got {other}") }),
        Err(e) => Err(StudyError::NotAnObject { what, detail: e.to_string() }),
    }
}

impl<S: Study> AnyStudy for S {
    fn name(&self) -> &'static str {
        Study::name(self)
    }
    fn about(&self) -> &'static str {
        Study::about(self)
    }
    fn prepare(&self, params: &serde_json::Value) -> Result<PreparedPoint<'_>, ModelError> {
        let typed =
            S::Params::deserialize(params).map_err(|e| StudyError::Params(e.to_string()))?;
        let point = self.point(&typed)?;
        let params = to_object("params", &typed)?;
        let run = move |rng: &mut SimRng| -> Result<Vec<JsonObject>, ModelError> {
            let rows = self.run(&point, rng)?;
            Ok(rows.into_iter().map(|row| to_object("row", row)).collect::<Result<_, _>>()?)
        };
        Ok(PreparedPoint { params, run: Box::new(run) })
    }
    fn claims(&self) -> Vec<Claim> {
        Study::claims(self)
    }
    fn plots(&self) -> Vec<Plot> {
        Study::plots(self)
    }
    fn glossary(&self) -> Vec<Column> {
        Study::glossary(self)
    }
    fn findings(&self, rows: &[JsonObject]) -> Vec<String> {
        Study::findings(self, rows)
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

/// A config file's text and the directory it lives in, so that a config can name other files
/// (a trace, a program) relative to itself.
#[derive(Debug, Clone, Copy)]
pub struct ConfigFile<'a> {
    /// The TOML text.
    pub text: &'a str,
    /// The directory relative paths in the config are resolved against.
    pub dir: &'a Path,
}

impl<'a> ConfigFile<'a> {
    /// A config whose relative paths resolve against `dir`.
    pub fn new(text: &'a str, dir: &'a Path) -> Self {
        Self { text, dir }
    }

    /// `path` as written in the config, resolved against the config's directory (an absolute
    /// path stays as it is).
    pub fn resolve(&self, path: impl AsRef<Path>) -> PathBuf {
        self.dir.join(path)
    }

    /// Parses the text into `T` (see [`parse_toml`]).
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, TomlError> {
        parse_toml(self.text)
    }
}

/// The model manifest: what a model brings to xtask besides its runs and studies, so that
/// xtask derives the report's sections, the default sweep and the committed pictures from
/// its registry of models alone (docs/ARCHITECTURE.md, "Adding a model").
#[derive(Debug, Clone, Copy)]
pub struct Manifest {
    /// The paper (or part of the workspace) the model reproduces.
    pub paper: Paper,
    /// The model's sweep spec, embedded in the binary: a bare `cargo xtask sweep` runs it.
    /// `None` only for a model whose studies another model's spec runs.
    pub sweep: Option<EmbeddedSweep>,
    /// The pictures of `docs/pictures/` drawn from this model's fixtures.
    pub pictures: &'static [CommittedPicture],
    /// Every numbered result of the paper (definitions, lemmas, theorems, propositions,
    /// corollaries, facts, figures, worked examples, remarks that state a quantity) and how
    /// the reproduction covers it: the report's referee table.
    pub results: &'static [PaperResult],
}

/// One numbered result of a paper and how the reproduction covers it.
#[derive(Debug, Clone, Copy)]
pub struct PaperResult {
    /// As the paper numbers it, e.g. `Theorem 2` or `Figure 3`.
    pub id: &'static str,
    /// What it states, in a few words.
    pub states: &'static str,
    /// How it is covered.
    pub coverage: Coverage,
}

/// How the reproduction covers a paper's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coverage {
    /// By the claims that name it ([`Claim::of`]); a test checks that at least one does.
    Claims,
    /// By a test only: its name (`crate::path::test_name` as `cargo test` prints it), and
    /// why no sweep claim states it.
    Tests {
        /// The test's name.
        test: &'static str,
        /// Why a test and not a claim.
        why: &'static str,
    },
    /// Built nowhere, and why.
    NotBuilt(&'static str),
}

/// The paper a model reproduces, as the reproduction report titles its section.
#[derive(Debug, Clone, Copy)]
pub struct Paper {
    /// Authors and title, e.g. `Baude: PRAM Implementation on Fine-Grained MIMD
    /// Multicomputers`.
    pub title: &'static str,
    /// The model's page under `docs/models/` (its file name), with the choices made where
    /// the paper is vague.
    pub docs: &'static str,
}

/// A sweep spec embedded in the binary (`include_str!` of a file under `fixtures/sweeps/`).
#[derive(Debug, Clone, Copy)]
pub struct EmbeddedSweep {
    /// The file, relative to the workspace root (for messages).
    pub file: &'static str,
    /// Its text.
    pub text: &'static str,
}

/// A committed picture: a fixture of the model (relative to the workspace root) and the SVG
/// file under `docs/pictures/` that `cargo xtask run MODEL CONFIG --svg` draws from it.
#[derive(Debug, Clone, Copy)]
pub struct CommittedPicture {
    /// The fixture.
    pub config: &'static str,
    /// The picture's file name.
    pub picture: &'static str,
}

/// A model crate as xtask sees it.
pub trait Model: Sync {
    /// The crate's name, e.g. `logp-stall`.
    fn name(&self) -> &'static str;
    /// One line about the model and its paper.
    fn about(&self) -> &'static str;
    /// The model's paper, embedded sweep spec and committed pictures.
    fn manifest(&self) -> Manifest;
    /// The model's studies.
    fn studies(&self) -> Vec<Box<dyn AnyStudy>>;
    /// Runs one configuration.
    fn run_config(&self, config: &ConfigFile<'_>) -> Result<RunReport, ModelError>;
    /// Runs one configuration once and returns both its report and its picture
    /// (`cargo xtask run MODEL CONFIG.toml --svg FILE`): what [`Model::run_config`] gives, and
    /// the picture drawn from the same execution. A model calls
    /// [`crate::picture::check_size`] before the run, so a picture too large to draw is
    /// refused before anything runs; a model without pictures (the default) refuses with
    /// [`NoPicture`].
    fn run_pictured(&self, config: &ConfigFile<'_>) -> Result<(RunReport, Picture), ModelError> {
        let _ = config;
        Err(NoPicture { model: self.name(), what: "a run" }.into())
    }
}

/// A run asked for a picture its model (or its kind of config) does not draw (the user's
/// input).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no picture for {what} of model {model} (--svg is not available here)")]
pub struct NoPicture {
    /// The model.
    pub model: &'static str,
    /// What has no picture: `this model`, or a kind of config.
    pub what: &'static str,
}

impl Classify for NoPicture {
    fn fault(&self) -> Fault {
        Fault::Input
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
    /// The y columns that are bounds (a paper's formula), drawn dashed.
    pub bounds: Vec<String>,
    /// Only rows whose columns render equal to these values are drawn (empty: all rows), as
    /// [`Claim::filter`]: one plot per value of an axis.
    pub filter: Vec<(String, String)>,
}

impl Plot {
    /// Every column the plot reads: `x`, the `y` columns, the series and the filter (the
    /// bounds are among the `y` columns).
    pub fn columns(&self) -> Vec<&str> {
        let filter = self.filter.iter().map(|(column, _)| column.as_str());
        let y = self.y.iter().chain(&self.bounds).map(String::as_str);
        std::iter::once(self.x.as_str())
            .chain(y)
            .chain(self.series.as_deref())
            .chain(filter)
            .collect()
    }

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
            bounds: Vec::new(),
            filter: Vec::new(),
        }
    }
    /// Draws only the rows where `column` renders as `value`.
    pub fn only(mut self, column: &str, value: impl ToString) -> Self {
        self.filter.push((column.into(), value.to_string()));
        self
    }
    /// Marks the y column `column` as a bound (a formula, not a measurement): drawn dashed.
    pub fn bound(mut self, column: &str) -> Self {
        self.bounds.push(column.into());
        self
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

/// A TOML text that does not parse into the expected type: `line L, column C: message`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TomlError(pub String);

impl Classify for TomlError {
    fn fault(&self) -> Fault {
        Fault::Input
    }
}

/// Parses a TOML config into `T`; the error names the line and the key.
pub fn parse_toml<T: DeserializeOwned>(config: &str) -> Result<T, TomlError> {
    toml::from_str(config).map_err(|e| TomlError(toml_error(config, &e)))
}

pub use crate::toml_line::toml_error;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bsp::BspError;

    /// A study that prices one trace under `k` parameter sets: one point, `k` rows.
    struct Repriced;

    #[derive(Debug, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Params {
        k: u32,
        #[serde(default)]
        label: Option<String>,
    }

    #[derive(Serialize)]
    struct Row {
        index: u32,
        cost: f64,
    }

    impl Study for Repriced {
        type Params = Params;
        type Point = u32;
        type Row = Row;
        fn name(&self) -> &'static str {
            "repriced"
        }
        fn about(&self) -> &'static str {
            "one point, several rows"
        }
        fn point(&self, params: &Params) -> Result<u32, ModelError> {
            if params.k == 0 {
                return Err(ParamError::new("k", "k >= 1", 0).into());
            }
            Ok(params.k)
        }
        fn run(&self, k: &u32, _: &mut SimRng) -> Result<Vec<Row>, ModelError> {
            Ok((0..*k).map(|index| Row { index, cost: f64::from(index) * 1.5 }).collect())
        }
    }

    #[test]
    fn one_point_gives_several_rows_and_its_params_with_defaults() {
        let point = Repriced.prepare(&serde_json::json!({ "k": 3 })).unwrap();
        assert_eq!(
            serde_json::Value::Object(point.params.clone()),
            serde_json::json!({ "k": 3, "label": null })
        );
        let rows = point.run(&mut crate::rng::seeded(0, 0)).unwrap();
        let costs: Vec<_> = rows.iter().map(|r| r["cost"].as_f64().unwrap()).collect();
        assert_eq!(costs, vec![0.0, 1.5, 3.0]);
    }

    #[test]
    fn errors_carry_their_fault() {
        let bad = Repriced.prepare(&serde_json::json!({ "k": 0 })).unwrap_err();
        assert_eq!(
            (bad.fault(), bad.to_string()),
            (Fault::Input, "k must satisfy k >= 1 (got 0)".into())
        );
        let unknown = Repriced.prepare(&serde_json::json!({ "k": 1, "kk": 2 })).unwrap_err();
        assert_eq!(unknown.fault(), Fault::Input);
        let run: ModelError = BspError::LeavesCluster {
            superstep: 0,
            label: "x".into(),
            level: 1,
            cluster_size: 4,
            src: 3,
            dest: 4,
        }
        .into();
        assert_eq!(run.fault(), Fault::Run);
        let config = ConfigFile::new("k = [", Path::new("/cfg"));
        let toml = config.parse::<Params>().unwrap_err();
        assert!(toml.to_string().starts_with("line 1, column"), "{toml}");
        assert_eq!(ModelError::from(toml).fault(), Fault::Input);
        assert_eq!(config.resolve("t.goal"), Path::new("/cfg/t.goal"));
    }

    /// `ModelError` is a `std::error::Error`: `?` turns it into a `Box<dyn Error>` with the
    /// model's message, and the chain holds no second copy of that message.
    #[test]
    fn model_errors_are_std_errors() {
        fn fails() -> Result<(), Box<dyn std::error::Error>> {
            Err(ModelError::from(BspError::NoProcessors))?
        }
        let boxed = fails().unwrap_err();
        assert_eq!(boxed.to_string(), BspError::NoProcessors.to_string());
        assert!(boxed.source().is_none());
    }
}
