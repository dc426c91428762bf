//! The config of `cargo xtask run hpram CONFIG.toml` ([`HpramConfig`]): one algorithm on one
//! H-PRAM, its cost tree priced under one preset, memory variant and formula (and, in the
//! report, under every formula).
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
//! threads = 0                # rayon threads for siblings (0: the global pool; at most 1024)
//! mode = "full"              # full | count-only: the cost tree only, identical siblings run once
//! max_depth = 64             # the deepest sub-PRAM level, the root's being 1 (default and most 64)
//! local_words = 8            # private words per processor (default: what the algorithm needs)
//! shape = "[2:r|2:]"         # algorithm = "shape" only: a synthetic step shape (crate::synth)
//! [network]                  # also execute on a network (paper Section 3; crate::network):
//! topology = "hypercube"     # hypercube | mesh | torus (P >= 16); full mode, non-uniform memory
//! link_delay = 1             # time units per link (default 1)
//! seed = 1                   # the hash functions' seed (default 1)
//! per_level = [[3, 3, 2], [1, 1, 1]]  # also price with the per-level variant of paper Section 3.1:
//!                            # [l, s_alpha, s_beta] per level (top-level key, before any table)
//! [model]                    # the root's sub-model (default: the algorithm's, EREW with lpram
//! access = "erew"            # where it keeps blocks); block, scan, multiprefix, lpram,
//!                            # arbitrary_seed as crate::SubModel
//! ```
//!
//! `max_depth`, `local_words` and `[model]` replace what the algorithm would get: too few
//! private words for a built-in algorithm are refused before the run
//! ([`crate::BuiltinParams::check_machine`]), too shallow a depth fails at run time with the
//! model's own error and its path (`docs/models/hpram.md`, Choices: Errors from configs).
//!
//! `algorithm = "library"` runs a netcore PRAM program as a flat H-PRAM ([`crate::run_program`]):
//! the program comes from a `[pram]` table, netcore's `PramConfig` as `cargo xtask run pram`
//! reads it.
#![warn(clippy::cast_possible_truncation)]

use serde::{Deserialize, Serialize};

use netcore::driver::pram::PramConfig;

use crate::algs::{FftForm, TreeForm};
use crate::config::{MemoryVariant, SubModel};
use crate::cost_model::{Network, Preset, SyncScale, validate_cost_model};
use crate::error::HpramError;
use crate::eval::Formula;
use crate::network::{NetworkParams, PerLevel};

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
netcore::display_config_name!(AlgorithmName);

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
netcore::display_config_name!(FormName);

impl FormName {
    /// The tree algorithms' form of this name.
    pub fn tree(self) -> Option<TreeForm> {
        match self {
            FormName::Flat => Some(TreeForm::Flat),
            FormName::TwoLevel => Some(TreeForm::TwoLevel),
            FormName::Hier => Some(TreeForm::Hier),
            FormName::FlatNaive | FormName::FlatLpram | FormName::Perm => None,
        }
    }

    /// The FFT's form of this name.
    pub fn fft(self) -> Option<FftForm> {
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
netcore::display_config_name!(PresetName);

/// The config of `cargo xtask run hpram` (see the module documentation). The `--json` report
/// shows it (defaults filled in, an omitted optional key left out) under `config`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HpramConfig {
    /// The algorithm.
    pub algorithm: AlgorithmName,
    /// Its form (tree algorithms and FFT).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub form: Option<FormName>,
    /// `P` (every algorithm but `library`, whose `P` is the program's `S_max`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub procs: Option<usize>,
    /// The PRAM program of `library`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pram: Option<PramConfig>,
    /// `N`: the data words of tree-reduce, tree-prefix and fft; `M` of a shape (default `P`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n: Option<usize>,
    /// The cost preset.
    #[serde(default)]
    pub preset: PresetName,
    /// The synchronisation scale of hypercube, mesh2d and mesh2d-exact (default diam, shown
    /// in the report's config with the other defaults; refused with another preset).
    #[serde(default, serialize_with = "scale_or_default")]
    pub scale: Option<SyncScale>,
    /// `[num, den]` of the power preset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub power: Option<Exactly<u32, 2>>,
    /// `[l, sa, sb]` of the constant preset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub constant: Option<Exactly<u64, 3>>,
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
    /// The root's sub-model, replacing the algorithm's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<SubModel>,
    /// The deepest level a sub-PRAM may have, the root's being 1 (default 64, at most
    /// [`crate::MAX_DEPTH`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_depth: Option<u32>,
    /// Private words per processor, replacing what the algorithm needs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub local_words: Option<usize>,
    /// Execute the run on a network as well (paper Section 3; [`crate::network`]): the
    /// `[network]` table's `topology` (hypercube | mesh | torus), `link_delay` and `seed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub network: Option<NetworkParams>,
    /// The per-level variant of paper Section 3.1 as a second pricing: `[ℓ_λ, (s_α)_λ,
    /// (s_β)_λ]` for `λ = 1, 2, ...` (a deeper level takes the last row).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_level: Option<Vec<Exactly<u64, 3>>>,
}

/// `N` numbers of a config array (`power`, `constant`, a `per_level` row): an array of
/// another length is refused as it is read, naming the key, the rule and the length got
/// (before, serde took the first `N` and dropped the rest, `constant = [2, 1, 1, 99]` running
/// as `[2, 1, 1]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exactly<T, const N: usize>([T; N]);

impl<T: Copy, const N: usize> Exactly<T, N> {
    /// The `N` numbers.
    pub fn get(self) -> [T; N] {
        self.0
    }
}

/// The rule of [`Exactly`] in a refusal: `exactly N numbers`.
struct ExactlyN(usize);

impl serde::de::Expected for ExactlyN {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "exactly {} numbers", self.0)
    }
}

impl<'de, T: Deserialize<'de>, const N: usize> Deserialize<'de> for Exactly<T, N> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let numbers = Vec::<T>::deserialize(deserializer)?;
        let got = numbers.len();
        let numbers: [T; N] =
            numbers.try_into().map_err(|_| serde::de::Error::invalid_length(got, &ExactlyN(N)))?;
        Ok(Exactly(numbers))
    }
}

impl<T: Serialize, const N: usize> Serialize for Exactly<T, N> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.as_slice().serialize(serializer)
    }
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
netcore::display_config_name!(ExecMode);

/// The scale a config runs with, as its report shows it: the default when not given.
fn scale_or_default<S: serde::Serializer>(
    scale: &Option<SyncScale>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    scale.unwrap_or_default().serialize(serializer)
}

/// A config field that breaks its rule.
pub(crate) fn bad(field: &'static str, rule: &'static str, got: impl ToString) -> HpramError {
    HpramError::InvalidConfig { field, rule, got: got.to_string() }
}

impl HpramConfig {
    /// Refuses a root sub-model's `arbitrary_seed` under an access rule other than
    /// `crcw-arbitrary`, where no winner is drawn.
    pub fn check_model(&self) -> Result<(), HpramError> {
        match self.model {
            Some(SubModel { access, arbitrary_seed: Some(seed), .. })
                if access != netcore::pram::Variant::CrcwArbitrary =>
            {
                Err(bad("arbitrary_seed", "only given with access = \"crcw-arbitrary\"", seed))
            }
            _ => Ok(()),
        }
    }

    /// The per-level model of `per_level`, if given (checked: at least one row, `ℓ_λ >= 1`).
    pub fn per_level(&self) -> Result<Option<PerLevel>, HpramError> {
        let rows = self.per_level.as_ref().map(|rows| rows.iter().map(|r| r.get()).collect());
        rows.map(PerLevel::new).transpose()
    }

    /// The preset this config names, checked for `P = procs` processors.
    pub fn preset(&self, procs: usize) -> Result<Preset, HpramError> {
        let scale = self.scale.unwrap_or_default();
        let preset = match self.preset {
            PresetName::Pram => Preset::Pram,
            PresetName::Hypercube => Preset::Hypercube(scale),
            PresetName::Mesh2d => Preset::Mesh2D(scale),
            PresetName::Mesh2dExact => Preset::from_topology(Network::Mesh2D, scale),
            PresetName::Power => {
                let [num, den] = self
                    .power
                    .map(Exactly::get)
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
                    .map(Exactly::get)
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
        let scaled = [PresetName::Hypercube, PresetName::Mesh2d, PresetName::Mesh2dExact];
        if self.scale.is_some() && !scaled.contains(&self.preset) {
            let rule = "only given with preset = \"hypercube\", \"mesh2d\" or \"mesh2d-exact\"";
            return Err(bad("scale", rule, "scale"));
        }
        validate_cost_model(&preset, procs.max(1) as u64)?;
        Ok(preset)
    }
}
