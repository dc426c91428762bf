//! The single-run configs of `cargo xtask run dbsp-hmos CONFIG.toml`, dispatched by their
//! `kind`, and the runs of a primitive and of a PRAM program that both the run's report and
//! its picture take.

#![warn(clippy::cast_possible_truncation)]

use netcore::bsp::DbspParams;
use netcore::cost::Ledger;
use netcore::pram::library::Algorithm;
use netcore::rng::seeded;
use netcore::study::ConfigFile;
use netcore::study::ModelError;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::driver::figure::FigureConfig;
use crate::hmos::{Level0, Sizes};
use crate::protocol::{Delivery, Selection};
use crate::run::{Direction, Primitive, PrimitiveRun};
use crate::scheme::{Pricing, Scheme};
use crate::simulation::{PramParams, PramRun, simulate};

/// A single-run config, dispatched by its `kind` (read through netcore's `tagged!`, so an
/// error in a field names its key and line).
#[derive(Debug, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum RunConfig {
    /// One primitive on a random input.
    Primitive(PrimitiveConfig),
    /// Build an HMOS and report its structure.
    Hmos(HmosBuildConfig),
    /// Run a library PRAM program with the HMOS access protocol as its memory.
    Pram(PramConfig),
    /// Follow one variable's copies through an HMOS: Section 3's Figures 1-3.
    HmosFigure(FigureConfig),
}
netcore::tagged!(RunConfig, "kind");

fn three() -> u32 {
    3
}

/// `kind = "hmos"`: the HMOS for `n` processors and `m` variables.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HmosBuildConfig {
    /// Processors (= 0-modules), a power of two <= 2^20.
    pub n: u64,
    /// Variables, m >= n: `m r <= 2^24` for a stored level-0 graph (`shuffled_balanced`,
    /// `polarity`), `m <= 2^40` and the placement work `m r + n 3^k <= 2^30` for a computed one
    /// (`hashed`, `modulo`).
    pub m: u64,
    /// Copies per variable at level 0, odd. Default 3.
    #[serde(default = "three")]
    pub r: u32,
    /// Levels, k <= k_max(n). Default 0.
    #[serde(default)]
    pub k: u32,
    /// Seed of the level-0 graph. Default 0.
    #[serde(default)]
    pub seed: u64,
    /// The level-0 graph: shuffled_balanced (default), hashed, modulo or polarity.
    #[serde(default)]
    pub level0: Level0,
    /// The chain's sizes m_i (Lemma 1): paper (default, the proof's) or tracking.
    #[serde(default)]
    pub sizes: Sizes,
}

/// `kind = "pram"`: a PRAM program whose global memory is the HMOS access protocol: a library
/// program (`algorithm`, `size`) or an assembly file of the user's own (`file`, with `input`
/// and optionally `expect`, as `cargo xtask run pram` reads them).
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PramConfig {
    /// The library program.
    pub algorithm: Option<Algorithm>,
    /// Its size (number of PPUs / items).
    pub size: Option<u32>,
    /// An assembly file, relative to the config file.
    pub file: Option<std::path::PathBuf>,
    /// The file's initial global memory from address 0.
    pub input: Option<Vec<i64>>,
    /// The final memory the file's program must leave (else it is checked against the
    /// reference interpreter's).
    pub expect: Option<netcore::driver::pram::Expect>,
    /// D-BSP processors, a power of two.
    pub n: u32,
    /// The memory scheme: hmos (default), flat_majority, single_copy_hashed or
    /// single_copy_modulo.
    #[serde(default)]
    pub scheme: Scheme,
    /// The level-0 graph of a majority scheme (hmos, flat_majority): shuffled_balanced
    /// (default), hashed, modulo or polarity; a single copy's graph is fixed.
    #[serde(default)]
    pub level0: Option<Level0>,
    /// Copies per variable at level 0, odd. Default 3 (1 for a single copy, which allows
    /// only 1).
    #[serde(default)]
    pub r: Option<u32>,
    /// HMOS levels. Default 0 (the only value a flat scheme allows).
    #[serde(default)]
    pub k: Option<u32>,
    /// g_i = (n/2^i)^alpha.
    pub alpha: f64,
    /// l_i = (n/2^i)^beta.
    pub beta: f64,
    /// Seed of the program's input and of the level-0 graph. Default 0.
    #[serde(default)]
    pub seed: u64,
    /// Copy selection: "naive" (default) or { cull = { a, eps } } (every level).
    #[serde(default = "naive")]
    pub selection: Selection,
    /// Delivery: "staged" (default, Theorem 3), "two_phase" (one routing, the baseline) or
    /// "greedy" (one superstep, Proposition 3's baseline).
    #[serde(default)]
    pub delivery: Delivery,
    /// How the trace is priced: "dbsp" (default) or "flat_bsp" (every level at g_0, l_0).
    #[serde(default)]
    pub pricing: Pricing,
}

fn naive() -> Selection {
    Selection::Naive
}

impl PramConfig {
    /// The validated machine and memory of the run ([`PramParams::new`], then
    /// [`PramParams::with_scheme`]).
    ///
    /// # Errors
    ///
    /// [`Error::Bsp`] for D-BSP parameters, [`Error::Param`] for a `level0`, `r` or `k` the
    /// scheme does not allow.
    pub fn params(&self) -> Result<PramParams, Error> {
        Ok(PramParams::new(self.n, self.alpha, self.beta)?
            .with_scheme(self.scheme, self.level0, self.r, self.k)?
            .with_seed(self.seed)
            .with_selection(self.selection)
            .with_delivery(self.delivery)
            .with_pricing(self.pricing))
    }
}

impl PramConfig {
    /// The program's name in summaries: the library program with its size, or the file.
    pub fn name(&self) -> String {
        match (&self.algorithm, &self.file) {
            (Some(a), _) => format!("{} (size {})", a.name(), self.size.unwrap_or(0)),
            (None, Some(f)) => f.display().to_string(),
            (None, None) => "program".to_string(),
        }
    }

    /// What the run's output is checked against.
    pub fn checked_against(&self) -> &'static str {
        match (&self.algorithm, &self.expect) {
            (Some(_), _) => "its plain-Rust reference",
            (None, Some(_)) => "the config's expect",
            (None, None) => "the reference interpreter's final memory",
        }
    }
}

/// Runs the program of `config` with the HMOS access protocol as its global memory (Sections
/// 3-4, [`simulate`]): its report, ledger and the pricing its costs use. A library program
/// (`algorithm` with `size`) is checked against its plain-Rust reference; a file (with
/// `input` and optionally `expect`) against its `expect`, or else against the reference
/// interpreter's final memory. Fields of the other source are refused, and every error names
/// this config's fields (`size` or `file` where the program's size is at fault).
pub(crate) fn pram_run(config: &PramConfig, file: &ConfigFile<'_>) -> Result<PramRun, ModelError> {
    let params = config.params()?;
    let (instance, field) = match (config.algorithm, &config.file) {
        (Some(_), Some(path)) => {
            let rule = "not given with algorithm (the program is a library algorithm or a file)";
            return Err(Error::param("file", rule, path.display()).into());
        }
        (None, None) => {
            let rule = "given, or file (the program to run)";
            return Err(Error::param("algorithm", rule, "neither").into());
        }
        (Some(algorithm), None) => {
            let only_file = "given with file only (a library program makes its own input and is \
                             checked against its plain-Rust reference)";
            if config.input.is_some() {
                return Err(Error::param("input", only_file, "a list").into());
            }
            if config.expect.is_some() {
                return Err(Error::param("expect", only_file, "a table").into());
            }
            let size =
                config.size.ok_or_else(|| Error::param("size", "given with algorithm", "none"))?;
            (params.library_instance(algorithm, size, config.seed)?, "size")
        }
        (None, Some(path)) => {
            if let Some(size) = config.size {
                let rule =
                    "given with algorithm only (a file's program declares its own .mem and .ppus)";
                return Err(Error::param("size", rule, size).into());
            }
            let loaded = netcore::driver::pram::PramConfig {
                program: None,
                n: None,
                seed: config.seed,
                file: Some(path.clone()),
                input: config.input.clone(),
                variant: None,
                max_steps: None,
                expect: config.expect.clone(),
            }
            .load(file)?;
            params.check_program(&loaded.program).map_err(|e| e.renamed("size", "file"))?;
            (loaded.instance()?, "file")
        }
    };
    Ok(simulate(&params, &instance).map_err(|e| e.renamed("size", field))?)
}

fn one() -> u32 {
    1
}

/// `kind = "primitive"`: one primitive on `n` processors priced with the power law.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrimitiveConfig {
    /// The primitive.
    pub primitive: Primitive,
    /// Number of processors, a power of two, 2..=2^20.
    pub n: u32,
    /// Items per processor (routing: k_min). Default 1.
    #[serde(default = "one")]
    pub k: u32,
    /// Routing only: k_max / k_min. Default 1.
    #[serde(default = "one")]
    pub skew: u32,
    /// Routing only: gather or scatter. Default gather.
    #[serde(default)]
    pub direction: Direction,
    /// g_i = (n/2^i)^alpha, 0 <= alpha <= 1.
    pub alpha: f64,
    /// l_i = (n/2^i)^beta, 0 <= beta <= 1.
    pub beta: f64,
    /// Seed of the random input. Default 0.
    #[serde(default)]
    pub seed: u64,
}

/// One run of a primitive: the machine's parameters, the run, its ledger and whether its
/// output equals the sequential reference.
pub(crate) type PrimitiveExecution = (DbspParams, PrimitiveRun, Ledger, bool);

/// Runs the primitive of `config`: its pricing, the run, its ledger and whether its output
/// equals the sequential reference.
pub(crate) fn primitive_run(config: &PrimitiveConfig) -> Result<PrimitiveExecution, ModelError> {
    let params = DbspParams::power_law(config.n, config.alpha, config.beta).map_err(Error::from)?;
    // Checked here, on the config's field, so that the run's own check (on log2 n) is never
    // what a user sees.
    if !(2..=1_u32 << crate::run::MAX_LOG_N).contains(&config.n) {
        return Err(
            Error::param("n", format!("2 <= n <= 2^{}", crate::run::MAX_LOG_N), config.n).into()
        );
    }
    let log_n = params.log_n();
    let run = PrimitiveRun::new(config.primitive, log_n, config.k, config.skew, config.direction)?;
    let mut rng = seeded(config.seed, 0);
    let (ledger, verified) = run.execute(&params, &mut rng)?;
    Ok((params, run, ledger, verified))
}
