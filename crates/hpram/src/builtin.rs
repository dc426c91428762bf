//! The built-in algorithms whose data is `N` words in natural order (`docs/models/hpram.md`,
//! Choices: Algorithms are ours): tree reduction, tree prefix sums and the number-theoretic FFT,
//! each in one of its forms, on `P` processors. [`BuiltinParams`] checks `P` and `N` and sizes
//! the machine (`M`, the private words, the root's sub-model); [`run_builtin`] lays the data
//! out as the algorithm keeps it, runs it and reads the result back in natural order.

use std::sync::Arc;

use serde::Serialize;

use crate::algs::{
    FftForm, MAX_N, TreeForm, fft, fft_output, ntt_reference, prefix_layout, prefix_output,
    tree_prefix, tree_reduce,
};
use crate::config::{Config, SubModel};
use crate::cost_tree::CostTree;
use crate::error::HpramError;
use crate::limits::check_full_run;
use crate::run::run;
use crate::sub_pram::HAlgorithm;
use crate::word::Word;

/// A built-in algorithm in one of its forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    /// Tree reduction: the wrapping sum of the `N` words (`docs/models/hpram.md`, Choices:
    /// Algorithms are ours).
    TreeReduce(TreeForm),
    /// Tree prefix sums: the inclusive wrapping scan (`docs/models/hpram.md`, Choices: Prefix
    /// counts are ours).
    TreePrefix(TreeForm),
    /// The number-theoretic FFT modulo [`MODULUS`](crate::algs::MODULUS)
    /// (`docs/models/hpram.md`, Choices: FFT conventions).
    Fft(FftForm),
}

/// The kebab-case name serde gives `value` (a form's name in a config).
fn kebab(value: impl Serialize) -> String {
    let value = serde_json::to_value(value).ok();
    value.and_then(|v| v.as_str().map(String::from)).unwrap_or_default()
}

impl Builtin {
    /// `tree-reduce/<form>`, `tree-prefix/<form>` or `fft/<form>`, the form as a config names
    /// it.
    pub fn name(self) -> String {
        match self {
            Builtin::TreeReduce(form) => format!("tree-reduce/{}", kebab(form)),
            Builtin::TreePrefix(form) => format!("tree-prefix/{}", kebab(form)),
            Builtin::Fft(form) => format!("fft/{}", kebab(form)),
        }
    }

    /// The plain Rust reference on `x`, as [`run_builtin`] returns the result: `[sum]`, the
    /// inclusive scan, or the transform in natural order ([`ntt_reference`]).
    pub fn reference(self, x: &[Word]) -> Vec<Word> {
        match self {
            Builtin::TreeReduce(_) => vec![x.iter().fold(0, |a: Word, &v| a.wrapping_add(v))],
            Builtin::TreePrefix(_) => x
                .iter()
                .scan(0 as Word, |acc, &v| {
                    *acc = acc.wrapping_add(v);
                    Some(*acc)
                })
                .collect(),
            Builtin::Fft(_) => ntt_reference(x),
        }
    }
}

fn bad(field: &'static str, rule: &'static str, got: impl ToString) -> HpramError {
    HpramError::InvalidConfig { field, rule, got: got.to_string() }
}

/// A built-in algorithm on `P` processors and `N` words, checked, with the H-PRAM it runs on:
/// `M`, the private words per processor and the root's sub-model (EREW; with LPRAM local
/// memory for tree prefix sums and for every FFT form but `flat-naive`, whatever `r`: they
/// keep a block of words per processor, where tree reduction and `flat-naive` need at most
/// [`REGISTERS`](crate::REGISTERS)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuiltinParams {
    builtin: Builtin,
    procs: usize,
    n: usize,
    full: bool,
    mem_words: usize,
    local_words: usize,
    model: SubModel,
}

impl BuiltinParams {
    /// `builtin` on `procs` processors over `n` words, for a full run ([`run_builtin`]).
    ///
    /// # Errors
    ///
    /// [`HpramError::InvalidConfig`] naming the field that breaks its rule, checked in this
    /// order: for the FFT, `n` (a power of two, at most [`MAX_N`]) then `procs` (a power of two
    /// with `n / procs >= 2`); for the tree algorithms, `procs` (a power of two) then `n` (a
    /// positive multiple of `procs`); `procs` when `M` would not fit in `usize`.
    pub fn new(builtin: Builtin, procs: usize, n: usize) -> Result<BuiltinParams, HpramError> {
        BuiltinParams::checked(builtin, procs, n, true)
    }

    /// As [`BuiltinParams::new`], for a count-only run ([`count`](crate::count()), no data):
    /// the FFT's `n` may exceed [`MAX_N`].
    ///
    /// # Errors
    ///
    /// As [`BuiltinParams::new`].
    pub fn count_only(
        builtin: Builtin,
        procs: usize,
        n: usize,
    ) -> Result<BuiltinParams, HpramError> {
        BuiltinParams::checked(builtin, procs, n, false)
    }

    fn checked(
        builtin: Builtin,
        p: usize,
        n: usize,
        full: bool,
    ) -> Result<BuiltinParams, HpramError> {
        let too_big = || bad("procs", "procs and n small enough that M fits in usize", p);
        let sized = |mem_words, local_words, model| BuiltinParams {
            builtin,
            procs: p,
            n,
            full,
            mem_words,
            local_words,
            model,
        };
        if let Builtin::Fft(form) = builtin {
            if !n.is_power_of_two() || (n > MAX_N && full) {
                return Err(bad(
                    "n",
                    "a power of two, at most 2^23 unless count-only, for the fft",
                    n,
                ));
            }
            if !p.is_power_of_two() || n / p < 2 {
                return Err(bad("procs", "a power of two with n / procs >= 2 for the fft", p));
            }
            if form == FftForm::Perm && !full {
                crate::limits::check_counted_perm(p)?;
            }
            // The in-memory butterflies need 2 registers, `LCS` the block of `r` words.
            let model = match form {
                FftForm::FlatNaive => SubModel::EREW,
                _ => SubModel::EREW.with_lpram(),
            };
            return Ok(sized(n, n / p, model));
        }
        if !p.is_power_of_two() {
            return Err(bad("procs", "a power of two for the tree algorithms", p));
        }
        if n == 0 || !n.is_multiple_of(p) {
            return Err(bad("n", "a positive multiple of procs", n));
        }
        let r = n / p;
        Ok(match builtin {
            Builtin::TreePrefix(_) => {
                // `prefix_layout`: `P` blocks of `r + log₂P + 2` words.
                let block = r.checked_add(p.trailing_zeros() as usize + 2).ok_or_else(too_big)?;
                sized(
                    p.checked_mul(block).ok_or_else(too_big)?,
                    r.checked_add(3).ok_or_else(too_big)?,
                    SubModel::EREW.with_lpram(),
                )
            }
            _ => sized(n, 4, SubModel::EREW),
        })
    }

    /// The algorithm and its form.
    pub fn builtin(&self) -> Builtin {
        self.builtin
    }

    /// `P`.
    pub fn procs(&self) -> usize {
        self.procs
    }

    /// `N`, the data words.
    pub fn n(&self) -> usize {
        self.n
    }

    /// `M`, the words of global memory (`N`, or the prefix sums' `P` blocks).
    pub fn mem_words(&self) -> usize {
        self.mem_words
    }

    /// The private words per processor the algorithm needs.
    pub fn local_words(&self) -> usize {
        self.local_words
    }

    /// The root's sub-model the algorithm needs.
    pub fn model(&self) -> SubModel {
        self.model
    }

    /// The private words a processor of the algorithm uses: 2 for tree reduction (`acc` and
    /// the operand) and the FFT's `flat-naive` form (a butterfly's two words), `r + 3` for tree
    /// prefix sums (the leaf's `r` values, `A`, `A2`, `O`), `r = n / procs` for the other FFT
    /// forms (`LCS` and the remapping hold a block) (`docs/models/hpram.md`, Choices: Errors
    /// from configs).
    pub fn private_words_used(&self) -> usize {
        let r = self.n / self.procs;
        match self.builtin {
            Builtin::TreeReduce(_) | Builtin::Fft(FftForm::FlatNaive) => 2,
            Builtin::TreePrefix(_) => r.saturating_add(3),
            Builtin::Fft(_) => r,
        }
    }

    /// Refuses, before the run, `local_words` private words on the root's sub-model `model`
    /// (a config's `local_words` and `[model]`, which replace [`BuiltinParams::local_words`]
    /// and [`BuiltinParams::model`]) when they give a processor fewer private words than
    /// [`BuiltinParams::private_words_used`]: naming `local_words` when it is below them, else
    /// `model.lpram` (without LPRAM local memory a processor has [`REGISTERS`](crate::REGISTERS)).
    /// Every access variant admits the algorithms' exclusive reads and writes, so the access
    /// itself is never refused (`docs/models/hpram.md`, Choices: Errors from configs).
    ///
    /// # Errors
    ///
    /// [`HpramError::InvalidConfig`] naming `local_words` or `model.lpram`.
    pub fn check_machine(&self, local_words: usize, model: SubModel) -> Result<(), HpramError> {
        let used = self.private_words_used();
        if model.private_words(local_words) >= used {
            return Ok(());
        }
        let uses =
            format!("{} with n / procs = {} uses {used}", self.builtin.name(), self.n / self.procs);
        if local_words < used {
            return Err(bad(
                "local_words",
                "at least the private words the algorithm uses (tree-reduce, fft flat-naive: 2; tree-prefix: n / procs + 3; other fft forms: n / procs)",
                format!("{local_words} ({uses})"),
            ));
        }
        Err(bad(
            "model.lpram",
            "true when the algorithm uses more private words than the 4 registers of a processor without LPRAM local memory",
            format!("false ({uses})"),
        ))
    }

    /// The algorithm, ready for [`run`](crate::run()) or [`count`](crate::count()).
    pub fn algorithm(&self) -> Arc<dyn HAlgorithm> {
        match self.builtin {
            Builtin::TreeReduce(form) => tree_reduce(form),
            Builtin::TreePrefix(form) => tree_prefix(form, self.n / self.procs),
            Builtin::Fft(form) => fft(form, self.n.trailing_zeros()),
        }
    }

    /// The H-PRAM it runs on: `P`, `M`, the private words and the sub-model above, otherwise
    /// [`Config::new`]'s defaults (non-uniform memory, depth 64, the global pool).
    pub fn config(&self) -> Config {
        let mut cfg = Config::new(self.procs, self.mem_words);
        cfg.local_words = self.local_words;
        cfg.model = self.model;
        cfg
    }

    /// The initial memory for the data `x` (`N` words): `x` itself, or in the prefix sums'
    /// block layout ([`prefix_layout`]).
    pub fn layout(&self, x: &[Word]) -> Vec<Word> {
        match self.builtin {
            Builtin::TreePrefix(_) => prefix_layout(x, self.procs),
            _ => x.to_vec(),
        }
    }

    /// The result in natural order out of a run's final memory: `[sum]` (tree reduction),
    /// the inclusive scan (tree prefix sums), the transform `X_0..X_(N-1)` (FFT).
    pub fn output(&self, memory: &[Word]) -> Vec<Word> {
        match self.builtin {
            Builtin::TreeReduce(_) => vec![memory[0]],
            Builtin::TreePrefix(_) => prefix_output(memory, self.procs, self.n / self.procs),
            Builtin::Fft(_) => fft_output(memory),
        }
    }
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

/// Runs the built-in algorithm of `params` over the data `x` (its `N` words in natural order)
/// on [`BuiltinParams::config`] with `threads` as in [`Config`]. The FFT's `x` must lie in
/// `[0, p)`.
///
/// # Examples
///
/// ```
/// use hpram::algs::TreeForm;
/// use hpram::{Builtin, BuiltinParams, HpramError, run_builtin};
///
/// let x = [1, 2, 3, 4, 5, 6, 7, 8];
/// let params = BuiltinParams::new(Builtin::TreePrefix(TreeForm::Hier), 4, x.len())?;
/// let done = run_builtin(&params, &x, 1)?;
/// assert_eq!(done.output, vec![1, 3, 6, 10, 15, 21, 28, 36]);
/// # Ok::<(), HpramError>(())
/// ```
///
/// # Errors
///
/// - [`HpramError::InvalidConfig`] naming `n` if `x` is not `N` words long, or `mode` if
///   `params` are [`BuiltinParams::count_only`];
/// - [`HpramError::TooLarge`] past the crate's stated limits;
/// - the run's errors, as in [`run`](crate::run()).
pub fn run_builtin(
    params: &BuiltinParams,
    x: &[Word],
    threads: usize,
) -> Result<BuiltinRun, HpramError> {
    if !params.full {
        return Err(bad("mode", "full to run on data (BuiltinParams::new)", "count-only"));
    }
    if x.len() != params.n {
        return Err(bad("n", "the length of the data", x.len()));
    }
    let mut cfg = params.config();
    cfg.threads = threads;
    check_full_run(&cfg, "n")?;
    let done = run(&cfg, params.algorithm(), vec![], &params.layout(x))?;
    Ok(BuiltinRun { cost: done.cost, output: params.output(&done.memory) })
}
