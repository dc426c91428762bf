//! `cargo xtask run hpram CONFIG.toml`: one algorithm on one H-PRAM, its cost tree priced under
//! one preset, memory variant and formula (and, in the report, under every formula).
//!
//! ```toml
//! algorithm = "tree-reduce"  # or "tree-prefix", "fft", "alg1" (M = 2P, no n), "shape", or "library"
//! form = "hier"              # tree-reduce, tree-prefix: flat | two-level | hier;
//!                            # fft: flat-naive | flat-lpram | two-level | hier | perm
//! procs = 4                  # P, a power of two for the tree algorithms, 8·2^k for alg1
//! n = 16                     # tree algorithms: N words, a multiple of P; input x_i = i
//! preset = "hypercube"       # pram | hypercube | mesh2d | mesh2d-exact | power | constant
//! scale = "diam"             # diam | diam-log (hypercube, mesh2d, mesh2d-exact)
//! power = [1, 2]             # power: a = num/den
//! constant = [2, 1, 1]       # constant: l, s_alpha, s_beta
//! formula = "exact"          # exact | phase-refined | simplified | two-stage
//! memory = "non-uniform"     # non-uniform | uniform: executed (blocks or checked overlays) and priced (ℓ(P') or ℓ(P))
//! threads = 0                # rayon threads for siblings (0: the global pool)
//! mode = "full"              # full | count-only: the cost tree only, identical siblings run once
//! max_depth = 64             # the deepest level a partition may start (default 64)
//! local_words = 8            # private words per processor (default: what the algorithm needs)
//! shape = "[2:r|2:]"         # algorithm = "shape" only: a synthetic step shape (crate::synth)
//! [model]                    # the root's sub-model (default: the algorithm's, EREW with lpram
//! access = "erew"            # where it keeps blocks); block, scan, multiprefix, lpram,
//!                            # arbitrary_seed as crate::SubModel
//! ```
//!
//! `max_depth`, `local_words` and `[model]` replace what the algorithm would get, so a
//! configuration it does not fit fails at run time with the model's own error and its path
//! (`docs/models/hpram.md`, Choices: Errors from configs).
//!
//! `algorithm = "library"` runs a netcore PRAM program as a flat H-PRAM ([`crate::run_program`]):
//! the program comes from a `[pram]` table, netcore's `PramConfig` as `cargo xtask run pram`
//! reads it (`program = "prefix-sums"` with `n`, `variant`, `seed`, or `file` with `input`;
//! `max_steps`); `P` is its `S_max` and `M` its `.mem`, so `procs`, `form` and `n` are not
//! given, and the mode is full.

use serde::{Deserialize, Serialize};

use netcore::driver::pram::PramConfig;
use netcore::picture::{Picture, check_size};
use netcore::pram::Cost;
use netcore::study::{AnyStudy, ConfigFile, Model, ModelError, RunReport, to_json};

use crate::algs::{
    Alg1, FftForm, MAX_N, TreeForm, fft, fft_output, ntt_reference, prefix_layout, prefix_output,
    tree_prefix, tree_reduce,
};
use crate::config::MemoryVariant;
use crate::cost_model::{Network, Preset, SyncScale, validate_cost_model};
use crate::error::HpramError;
use crate::eval::{Formula, LevelRow};
use crate::{Config, CostTree, SubModel, count, run, run_program};

/// The hpram model entry of `xtask`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Hpram;

/// The algorithms `cargo xtask run hpram` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AlgorithmName {
    /// The paper's hierarchy example (paper Section 2.1, Figure 1).
    Alg1,
    /// Tree reduction (`docs/models/hpram.md`, Choices: Algorithms are ours).
    TreeReduce,
    /// Tree prefix sums (`docs/models/hpram.md`, Choices: Prefix counts are ours).
    TreePrefix,
    /// The number-theoretic FFT (`docs/models/hpram.md`, Choices: FFT conventions).
    Fft,
    /// A synthetic step shape ([`crate::synth::Shape`], the `shape` field) on `M = n` words
    /// (default `P`), every cell 0 at the start.
    Shape,
    /// A netcore PRAM program (the `[pram]` table) as a flat H-PRAM (`docs/models/hpram.md`,
    /// Choices: A PRAM program as a flat H-PRAM).
    Library,
}

/// The forms a config may name: the tree algorithms take `flat`, `two-level`, `hier`; the FFT
/// takes `flat-naive`, `flat-lpram`, `two-level`, `hier`, `perm`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FormName {
    /// [`TreeForm::Flat`].
    Flat,
    /// [`FftForm::FlatNaive`].
    FlatNaive,
    /// [`FftForm::FlatLpram`].
    FlatLpram,
    /// [`TreeForm::TwoLevel`] or [`FftForm::TwoLevel`].
    TwoLevel,
    /// [`TreeForm::Hier`] or [`FftForm::Hier`].
    Hier,
    /// [`FftForm::Perm`].
    Perm,
}

impl FormName {
    fn tree(self) -> Option<TreeForm> {
        match self {
            FormName::Flat => Some(TreeForm::Flat),
            FormName::TwoLevel => Some(TreeForm::TwoLevel),
            FormName::Hier => Some(TreeForm::Hier),
            FormName::FlatNaive | FormName::FlatLpram | FormName::Perm => None,
        }
    }

    fn fft(self) -> Option<FftForm> {
        match self {
            FormName::FlatNaive => Some(FftForm::FlatNaive),
            FormName::FlatLpram => Some(FftForm::FlatLpram),
            FormName::TwoLevel => Some(FftForm::TwoLevel),
            FormName::Hier => Some(FftForm::Hier),
            FormName::Perm => Some(FftForm::Perm),
            FormName::Flat => None,
        }
    }
}

/// The preset names of a config.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PresetName {
    /// [`Preset::Pram`].
    Pram,
    /// [`Preset::Hypercube`].
    #[default]
    Hypercube,
    /// [`Preset::Mesh2D`].
    Mesh2d,
    /// [`Preset::from_topology`] on the 2-D mesh: its exact diameters.
    Mesh2dExact,
    /// [`Preset::Power`], with `power = [num, den]`.
    Power,
    /// [`Preset::Constant`], with `constant = [l, sa, sb]`.
    Constant,
}

/// The config of `cargo xtask run hpram` (see the module documentation).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HpramConfig {
    /// The algorithm.
    pub algorithm: AlgorithmName,
    /// Its form (tree algorithms and FFT).
    pub form: Option<FormName>,
    /// `P` (every algorithm but `library`, whose `P` is the program's `S_max`).
    pub procs: Option<usize>,
    /// The PRAM program of `library`.
    pub pram: Option<PramConfig>,
    /// `N` (tree-reduce).
    pub n: Option<usize>,
    /// The cost preset.
    #[serde(default)]
    pub preset: PresetName,
    /// The synchronisation scale of hypercube and mesh2d.
    #[serde(default)]
    pub scale: SyncScale,
    /// `[num, den]` of the power preset.
    pub power: Option<[u32; 2]>,
    /// `[l, sa, sb]` of the constant preset.
    pub constant: Option<[u64; 3]>,
    /// The formula the summary reports.
    #[serde(default)]
    pub formula: Formula,
    /// The memory variant the run executes and the latency is priced for.
    #[serde(default)]
    pub memory: MemoryVariant,
    /// Rayon threads for siblings (0: the global pool); unused in count-only mode.
    #[serde(default)]
    pub threads: usize,
    /// Full execution, or count-only (cost tree only, identical siblings run once).
    #[serde(default)]
    pub mode: ExecMode,
    /// The shape of `algorithm = "shape"`.
    pub shape: Option<String>,
    /// The root's sub-model, replacing the algorithm's.
    pub model: Option<SubModel>,
    /// The deepest level a partition may start (default 64).
    pub max_depth: Option<u32>,
    /// Private words per processor, replacing what the algorithm needs.
    pub local_words: Option<usize>,
}

/// How a config runs (`docs/models/hpram.md`, Choices: Count-only mode).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExecMode {
    /// Closures, memory and registers: the result is checked against the plain Rust reference
    /// and hashed.
    #[default]
    Full,
    /// [`crate::count`]: the cost tree only, up to `P = 2^30` and beyond.
    CountOnly,
}

fn bad(field: &'static str, rule: &'static str, got: impl ToString) -> HpramError {
    HpramError::InvalidConfig { field, rule, got: got.to_string() }
}

impl HpramConfig {
    /// The preset this config names, checked for `P = procs` processors.
    pub fn preset(&self, procs: usize) -> Result<Preset, HpramError> {
        let preset = match self.preset {
            PresetName::Pram => Preset::Pram,
            PresetName::Hypercube => Preset::Hypercube(self.scale),
            PresetName::Mesh2d => Preset::Mesh2D(self.scale),
            PresetName::Mesh2dExact => Preset::from_topology(Network::Mesh2D, self.scale),
            PresetName::Power => {
                let [num, den] = self
                    .power
                    .ok_or_else(|| bad("power", "given with preset = \"power\"", "none"))?;
                if den == 0 || num > den {
                    return Err(bad(
                        "power",
                        "[num, den] with 0 <= num <= den, den >= 1",
                        format!("[{num}, {den}]"),
                    ));
                }
                Preset::Power { num, den }
            }
            PresetName::Constant => {
                let [l, sa, sb] = self
                    .constant
                    .ok_or_else(|| bad("constant", "given with preset = \"constant\"", "none"))?;
                Preset::Constant { l, sa, sb }
            }
        };
        if self.power.is_some() && self.preset != PresetName::Power {
            return Err(bad("power", "only given with preset = \"power\"", "power"));
        }
        if self.constant.is_some() && self.preset != PresetName::Constant {
            return Err(bad("constant", "only given with preset = \"constant\"", "constant"));
        }
        validate_cost_model(&preset, procs.max(1) as u64)?;
        Ok(preset)
    }
}

/// The value of every formula.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AllFormulas {
    /// [`Formula::Exact`].
    pub exact: u64,
    /// [`Formula::PhaseRefined`].
    pub phase_refined: u64,
    /// [`Formula::Simplified`].
    pub simplified: u64,
    /// [`Formula::TwoStage`].
    pub two_stage: u64,
}

/// What one run reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HpramReport {
    /// `alg1` or `tree-reduce/<form>`.
    pub algorithm: String,
    /// Full or count-only.
    pub mode: ExecMode,
    /// `P`.
    pub procs: usize,
    /// `M`.
    pub mem_words: usize,
    /// The preset.
    pub preset: Preset,
    /// The memory variant.
    pub memory: MemoryVariant,
    /// The formula of `tau`.
    pub formula: Formula,
    /// The formula's cost.
    pub tau: u64,
    /// Stage 1 of the two-stage analysis.
    pub stage1: u64,
    /// Stage 2.
    pub stage2: u64,
    /// Every formula.
    pub formulas: AllFormulas,
    /// Sub-PRAMs, the root included.
    pub sub_prams: u128,
    /// Levels.
    pub depth: u32,
    /// The result: the sum at address 0 (tree-reduce), the last prefix sum (tree-prefix),
    /// `X_0` (fft).
    pub result: Option<i64>,
    /// The result equals the plain Rust fold, scan or NTT (tree algorithms, fft), or a library
    /// program's output its plain Rust reference (`library`).
    pub verified: Option<bool>,
    /// `library`: the interpreter's `T`, `S`, `G`, `W` (the root's `T + C` is `t`, its `C` is
    /// `g`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interpreter: Option<Cost>,
    /// The replay hash (FNV-1a-64 of every step and the final memory), in hex; none in
    /// count-only mode.
    pub trace_hash: Option<String>,
    /// The critical path's node paths.
    pub critical_path: Vec<String>,
    /// The per-level breakdown along it, and the per-level work.
    pub per_level: Vec<LevelRow>,
    /// The hierarchy, one line per sub-PRAM (at most 64 sub-PRAMs; else empty).
    pub hierarchy: Vec<String>,
}

/// The plain Rust reference of a tree algorithm.
enum Expected {
    /// The wrapping sum.
    Sum(i64),
    /// `r` and the inclusive scan.
    Scan(usize, Vec<i64>),
    /// The transform in natural order.
    Transform(Vec<i64>),
}

/// A configured algorithm before any data exists: its label, the algorithm, `M`, the
/// private words per processor and the root's sub-model (EREW, with LPRAM local memory when an
/// algorithm keeps more than `REGISTERS` words per processor).
struct Setup {
    name: String,
    alg: std::sync::Arc<dyn crate::HAlgorithm>,
    mem_words: usize,
    local_words: usize,
    model: SubModel,
}

fn setup(config: &HpramConfig, p: usize) -> Result<Setup, HpramError> {
    let too_big = || bad("procs", "procs and n small enough that M fits in usize", p);
    if config.shape.is_some() != (config.algorithm == AlgorithmName::Shape) {
        return Err(bad("shape", "given exactly with algorithm = \"shape\"", "shape"));
    }
    if let Some(text) = &config.shape {
        if config.form.is_some() {
            return Err(bad("form", "not given with algorithm = \"shape\"", "form"));
        }
        let shape = crate::synth::Shape::parse(text)
            .map_err(|e| bad("shape", "the shape syntax of crate::synth", e))?;
        let mem_words = config.n.unwrap_or(p);
        let (name, model) = ("shape".to_string(), SubModel::EREW);
        return Ok(Setup {
            name,
            alg: std::sync::Arc::new(shape),
            mem_words,
            local_words: 4,
            model,
        });
    }
    if config.algorithm == AlgorithmName::Alg1 {
        if config.form.is_some() || config.n.is_some() {
            return Err(bad("algorithm", "alg1 takes neither form nor n", "form or n"));
        }
        let mem_words = p.checked_mul(2).ok_or_else(too_big)?;
        let alg = std::sync::Arc::new(Alg1);
        let (name, model) = ("alg1".to_string(), SubModel::EREW);
        return Ok(Setup { name, alg, mem_words, local_words: 4, model });
    }
    let form = config.form.ok_or_else(|| bad("form", "given with a tree algorithm", "none"))?;
    let n = config.n.ok_or_else(|| bad("n", "given with a tree algorithm", "none"))?;
    let label = serde_json::to_value(form).ok().and_then(|v| v.as_str().map(String::from));
    let label = label.unwrap_or_default();
    if config.algorithm == AlgorithmName::Fft {
        let form = form.fft().ok_or_else(|| {
            bad("form", "flat-naive | flat-lpram | two-level | hier | perm for the fft", &label)
        })?;
        if !n.is_power_of_two() || (n > MAX_N && config.mode == ExecMode::Full) {
            return Err(bad("n", "a power of two, at most 2^23 unless count-only, for the fft", n));
        }
        if !p.is_power_of_two() || n / p < 2 {
            return Err(bad("procs", "a power of two with n / procs >= 2 for the fft", p));
        }
        return Ok(Setup {
            name: format!("fft/{label}"),
            alg: fft(form, n.trailing_zeros()),
            mem_words: n,
            local_words: n / p,
            // The in-memory butterflies need 2 registers, `LCS` the block of `r` words.
            model: match form {
                FftForm::FlatNaive => SubModel::EREW,
                _ => SubModel::EREW.with_lpram(),
            },
        });
    }
    let form = form
        .tree()
        .ok_or_else(|| bad("form", "flat | two-level | hier for the tree algorithms", &label))?;
    if !p.is_power_of_two() {
        return Err(bad("procs", "a power of two for the tree algorithms", p));
    }
    if n == 0 || !n.is_multiple_of(p) {
        return Err(bad("n", "a positive multiple of procs", n));
    }
    let r = n / p;
    Ok(if config.algorithm == AlgorithmName::TreeReduce {
        Setup {
            name: format!("tree-reduce/{label}"),
            alg: tree_reduce(form),
            mem_words: n,
            local_words: 4,
            model: SubModel::EREW,
        }
    } else {
        // `prefix_layout`: `P` blocks of `r + log₂P + 2` words.
        let block = r.checked_add(p.trailing_zeros() as usize + 2).ok_or_else(too_big)?;
        Setup {
            name: format!("tree-prefix/{label}"),
            alg: tree_prefix(form, r),
            mem_words: p.checked_mul(block).ok_or_else(too_big)?,
            local_words: r.checked_add(3).ok_or_else(too_big)?,
            model: SubModel::EREW.with_lpram(),
        }
    })
}

/// The input `x_i = i` of a tree algorithm or the FFT in its layout, and its plain Rust
/// reference.
fn reference(config: &HpramConfig, p: usize, n: usize) -> (Vec<i64>, Expected) {
    let x: Vec<i64> = (0..n as i64).collect();
    if config.algorithm == AlgorithmName::Fft {
        let transform = ntt_reference(&x);
        return (x, Expected::Transform(transform));
    }
    if config.algorithm == AlgorithmName::TreeReduce {
        let sum = x.iter().fold(0i64, |a, &v| a.wrapping_add(v));
        return (x, Expected::Sum(sum));
    }
    let scan = x
        .iter()
        .scan(0i64, |acc, &v| {
            *acc = acc.wrapping_add(v);
            Some(*acc)
        })
        .collect();
    (prefix_layout(&x, p), Expected::Scan(n / p, scan))
}

/// What a run adds to its cost tree: the result, whether it matches the reference, the replay
/// hash (all `None` in count-only mode).
type Outcome = (Option<i64>, Option<bool>, Option<String>);

/// A config executed (or counted), before pricing.
struct Executed {
    name: String,
    procs: usize,
    mem_words: usize,
    tree: CostTree,
    outcome: Outcome,
    interpreter: Option<Cost>,
}

/// The H-PRAM a built-in algorithm's config runs on: `P` processors, the setup's `M`, private
/// words and sub-model unless the config replaces them.
fn machine(config: &HpramConfig, p: usize, setup: &Setup) -> Config {
    let mut cfg = Config::new(p, setup.mem_words);
    (cfg.threads, cfg.memory) = (config.threads, config.memory);
    cfg.local_words = config.local_words.unwrap_or(setup.local_words);
    cfg.model = config.model.unwrap_or(setup.model);
    cfg.max_depth = config.max_depth.unwrap_or(cfg.max_depth);
    cfg
}

/// What [`run_builtin`] returns: the cost tree and the result in natural order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltinRun {
    /// The cost tree of the run.
    pub cost: CostTree,
    /// The result: `[sum]` (tree-reduce), the inclusive scan (tree-prefix), the transform
    /// `X_0..X_(N-1)` (fft).
    pub output: Vec<i64>,
}

/// Runs built-in `algorithm` (tree-reduce, tree-prefix or fft) in `form` on `procs` processors
/// over the data `x` (`N = x.len()` words, laid out as the algorithm keeps them), non-uniform
/// memory, with the checks of `cargo xtask run hpram` (the same `procs`, `n` and memory
/// rules); `threads` as in [`Config`]. The fft's `x` must lie in `[0, p)`.
///
/// # Examples
///
/// ```
/// use hpram::{AlgorithmName, FormName, HpramError, run_builtin};
///
/// let x = [1, 2, 3, 4, 5, 6, 7, 8];
/// let done = run_builtin(AlgorithmName::TreePrefix, FormName::Hier, 4, &x, 1)?;
/// assert_eq!(done.output, vec![1, 3, 6, 10, 15, 21, 28, 36]);
/// # Ok::<(), HpramError>(())
/// ```
///
/// # Errors
///
/// - [`HpramError::InvalidConfig`] naming `algorithm` if it is not tree-reduce, tree-prefix
///   or fft, or the field that breaks the rules of `cargo xtask run hpram` (e.g. `procs`,
///   or `n = x.len()`);
/// - [`HpramError::TooLarge`] past the crate's stated limits;
/// - the run's errors, as in [`run`](crate::run()).
pub fn run_builtin(
    algorithm: AlgorithmName,
    form: FormName,
    procs: usize,
    x: &[i64],
    threads: usize,
) -> Result<BuiltinRun, HpramError> {
    if !matches!(
        algorithm,
        AlgorithmName::TreeReduce | AlgorithmName::TreePrefix | AlgorithmName::Fft
    ) {
        return Err(bad("algorithm", "tree-reduce, tree-prefix or fft", format!("{algorithm:?}")));
    }
    let config = HpramConfig {
        algorithm,
        form: Some(form),
        procs: Some(procs),
        pram: None,
        n: Some(x.len()),
        preset: PresetName::default(),
        scale: SyncScale::default(),
        power: None,
        constant: None,
        formula: Formula::default(),
        memory: MemoryVariant::NonUniform,
        threads,
        mode: ExecMode::Full,
        shape: None,
        model: None,
        max_depth: None,
        local_words: None,
    };
    let setup = setup(&config, procs)?;
    let cfg = machine(&config, procs, &setup);
    crate::limits::check_full_run(&cfg, "n")?;
    let input = match algorithm {
        AlgorithmName::TreePrefix => prefix_layout(x, procs),
        _ => x.to_vec(),
    };
    let done = run(&cfg, setup.alg, vec![], &input)?;
    let output = match algorithm {
        AlgorithmName::TreeReduce => vec![done.memory[0]],
        AlgorithmName::TreePrefix => prefix_output(&done.memory, procs, x.len() / procs),
        _ => fft_output(&done.memory),
    };
    Ok(BuiltinRun { cost: done.cost, output })
}

/// Runs a built-in algorithm's config; the preset is checked first.
fn execute_builtin(config: &HpramConfig) -> Result<(Preset, Executed), HpramError> {
    let p = config.procs.ok_or_else(|| bad("procs", "given with a built-in algorithm", "none"))?;
    if config.pram.is_some() {
        return Err(bad("pram", "only given with algorithm = \"library\"", "a [pram] table"));
    }
    let preset = config.preset(p)?;
    let setup = setup(config, p)?;
    let cfg = machine(config, p, &setup);
    let Setup { name, alg, mem_words, .. } = setup;
    let (tree, outcome): (_, Outcome) = match config.mode {
        ExecMode::CountOnly => (count(&cfg, alg, vec![])?, (None, None, None)),
        ExecMode::Full => {
            // `M` grows with `n` (tree algorithms, fft) or with `procs` (alg1).
            let words_field = if config.n.is_some() { "n" } else { "procs" };
            crate::limits::check_full_run(&cfg, words_field)?;
            let (input, expected) = match config.n {
                Some(_) if config.algorithm == AlgorithmName::Shape => (Vec::new(), None),
                Some(n) => {
                    let (input, expected) = reference(config, p, n);
                    (input, Some(expected))
                }
                None => (Vec::new(), None),
            };
            let done = run(&cfg, alg, vec![], &input)?;
            let (result, verified) = match &expected {
                None => (None, None),
                Some(Expected::Sum(sum)) => (Some(done.memory[0]), Some(done.memory[0] == *sum)),
                Some(Expected::Scan(r, scan)) => {
                    let out = prefix_output(&done.memory, p, *r);
                    (out.last().copied(), Some(&out == scan))
                }
                Some(Expected::Transform(transform)) => {
                    let out = fft_output(&done.memory);
                    (out.first().copied(), Some(&out == transform))
                }
            };
            (done.cost, (result, verified, Some(format!("{:016x}", done.trace_hash))))
        }
    };
    let executed = Executed { name, procs: p, mem_words, tree, outcome, interpreter: None };
    Ok((preset, executed))
}

/// Runs `algorithm = "library"`: the `[pram]` table's program on netcore's interpreter with a
/// flat H-PRAM as its memory ([`run_program`]); the preset is checked before the run.
fn execute_program(
    config: &HpramConfig,
    file: &ConfigFile<'_>,
) -> Result<(Preset, Executed), HpramError> {
    let given = [
        ("procs", config.procs.is_some()),
        ("form", config.form.is_some()),
        ("n", config.n.is_some()),
        ("shape", config.shape.is_some()),
        ("model", config.model.is_some()),
        ("max_depth", config.max_depth.is_some()),
        ("local_words", config.local_words.is_some()),
    ];
    if let Some((field, _)) = given.into_iter().find(|&(_, given)| given) {
        return Err(bad(
            field,
            "not given with algorithm = \"library\" (the [pram] table sets the program)",
            field,
        ));
    }
    if config.mode != ExecMode::Full {
        return Err(bad(
            "mode",
            "full with algorithm = \"library\" (the interpreter needs the data)",
            "count-only",
        ));
    }
    let pram = config
        .pram
        .as_ref()
        .ok_or_else(|| bad("pram", "a [pram] table with algorithm = \"library\"", "none"))?;
    let static_error =
        |source| HpramError::Pram { path: "root".to_string(), step: 0, source: Box::new(source) };
    let loaded = pram.load(file).map_err(static_error)?;
    let (program, limits) = (&loaded.program, &loaded.limits);
    let too_big = |field, got: u64| bad(field, "fits in usize", got);
    let procs =
        usize::try_from(program.ppus()).map_err(|_| too_big("ppus", program.ppus().into()))?;
    let mem_words = usize::try_from(program.mem()).map_err(|_| too_big("mem", program.mem()))?;
    let preset = config.preset(procs)?;
    let mut cfg = Config::new(procs, mem_words);
    (cfg.memory, cfg.local_words) = (config.memory, crate::sub_pram::BACKEND_WORDS);
    crate::limits::check_full_run(&cfg, if pram.file.is_some() { "file" } else { "n" })?;
    let done = run_program(&loaded.name, program, &loaded.input, limits, config.threads)?;
    let verified = loaded.expected.is_some().then(|| loaded.output_ok(&done.run.memory));
    let hash = format!("{:016x}", done.run.trace_hash);
    let executed = Executed {
        name: format!("library/{}", loaded.name),
        procs,
        mem_words,
        tree: done.run.cost,
        outcome: (None, verified, Some(hash)),
        interpreter: Some(done.pram.cost),
    };
    Ok((preset, executed))
}

/// The picture of a config's run ([`crate::picture`]): refused before the run past the
/// picture's lanes (`procs`) or for the two-stage formula, and after it past its cost units.
pub fn hpram_picture(config: &HpramConfig, file: &ConfigFile<'_>) -> Result<Picture, ModelError> {
    crate::picture::drawable(config.formula)?;
    if let Some(p) = config.procs {
        check_size("procs", p as u64, "tau", 0)?;
    }
    let (preset, executed) = execute(config, file)?;
    if executed.outcome.1 == Some(false) {
        let got = executed.outcome.0.unwrap_or_default();
        return Err(NotVerified { algorithm: executed.name, got }.into());
    }
    let title = format!(
        "{} on P = {}, M = {} ({:?}, {:?})",
        executed.name, executed.procs, executed.mem_words, preset, config.memory
    );
    let picture = crate::picture::tree_picture(
        &executed.tree,
        &preset,
        config.memory,
        config.formula,
        title,
    )?;
    Ok(picture)
}

/// Executes (or counts) a config; the preset is checked first.
fn execute(config: &HpramConfig, file: &ConfigFile<'_>) -> Result<(Preset, Executed), HpramError> {
    match config.algorithm {
        AlgorithmName::Library => execute_program(config, file),
        _ => execute_builtin(config),
    }
}

/// Runs a config (`file` locates a `[pram]` table's assembly file).
pub fn run_hpram_config(
    config: &HpramConfig,
    file: &ConfigFile<'_>,
) -> Result<HpramReport, HpramError> {
    let (preset, executed) = execute(config, file)?;
    let Executed { name, procs, mem_words, tree, outcome, interpreter } = executed;
    let (result, verified, trace_hash) = outcome;
    let tree = &tree;
    let price = |f| tree.eval(&preset, config.memory, f).total;
    let eval = tree.eval(&preset, config.memory, config.formula);
    Ok(HpramReport {
        algorithm: name,
        mode: config.mode,
        procs,
        mem_words,
        preset,
        memory: config.memory,
        formula: config.formula,
        tau: eval.total,
        stage1: eval.stage1,
        stage2: eval.stage2,
        formulas: AllFormulas {
            exact: price(Formula::Exact),
            phase_refined: price(Formula::PhaseRefined),
            simplified: price(Formula::Simplified),
            two_stage: price(Formula::TwoStage),
        },
        sub_prams: tree.sub_prams(),
        depth: tree.root.depth(),
        result,
        verified,
        interpreter,
        trace_hash,
        critical_path: eval.critical_path,
        per_level: eval.per_level,
        hierarchy: if tree.sub_prams() <= 64 {
            tree.render().lines().map(String::from).collect()
        } else {
            Vec::new()
        },
    })
}

/// A run whose result differs from the plain Rust fold: a failed run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{algorithm}: result {got} differs from the plain Rust reference")]
pub struct NotVerified {
    /// The algorithm.
    pub algorithm: String,
    /// Its result.
    pub got: i64,
}

impl netcore::fault::Classify for NotVerified {
    fn fault(&self) -> netcore::fault::Fault {
        netcore::fault::Fault::Run
    }
}

impl Model for Hpram {
    fn name(&self) -> &'static str {
        "hpram"
    }
    fn about(&self) -> &'static str {
        "the Hierarchical PRAM (Heywood & Ranka): partition steps, non-uniform and uniform memory with a determinacy checker, the cost tree priced by the exact, phase-refined, simplified and two-stage recursions"
    }
    fn studies(&self) -> Vec<Box<dyn AnyStudy>> {
        vec![
            Box::new(crate::driver::studies::tree_r::TreeR),
            Box::new(crate::driver::studies::usable::UsableProcs),
            Box::new(crate::driver::studies::fft_locality::FftLocality),
        ]
    }
    fn picture(&self, config: &ConfigFile<'_>) -> Result<Picture, ModelError> {
        hpram_picture(&config.parse()?, config)
    }
    fn run_config(&self, config: &ConfigFile<'_>) -> Result<RunReport, ModelError> {
        let report = run_hpram_config(&config.parse()?, config)?;
        if report.verified == Some(false) {
            let got = report.result.unwrap_or_default();
            return Err(NotVerified { algorithm: report.algorithm.clone(), got }.into());
        }
        let result = match (report.result, report.interpreter, report.verified) {
            (Some(r), _, _) => format!(", result {r}, verified = true"),
            (None, Some(Cost { t, g, .. }), verified) => {
                let verified = verified.map(|v| format!(", verified = {v}")).unwrap_or_default();
                format!(", interpreter T = {t}, G = {g}{verified}")
            }
            (None, None, _) => String::new(),
        };
        let mode = match report.mode {
            ExecMode::Full => "",
            ExecMode::CountOnly => " (count-only)",
        };
        let summary = format!(
            "{}{mode} on P = {}, M = {} ({:?}, {:?}, {:?}): tau = {}, stage1 = {}, stage2 = {}, {} sub-PRAMs, depth {}{result}",
            report.algorithm,
            report.procs,
            report.mem_words,
            report.memory,
            report.preset,
            report.formula,
            report.tau,
            report.stage1,
            report.stage2,
            report.sub_prams,
            report.depth,
        );
        Ok(RunReport { summary, report: to_json(&report)? })
    }
}
