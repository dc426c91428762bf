//! A config of `cargo xtask run hpram` executed (or counted) before pricing: a built-in
//! algorithm ([`crate::BuiltinParams`] for the tree algorithms and the FFT, `alg1`, a step
//! shape) on the H-PRAM the config describes, or a netcore PRAM program as a flat H-PRAM.

use std::sync::Arc;

use netcore::driver::pram::{LoadedProgram, PramConfig};
use netcore::limits::check;
use netcore::pram::Cost;
use netcore::study::ConfigFile;

use crate::algs::Alg1;
use crate::builtin::{Builtin, BuiltinParams};
use crate::config::{Config, SubModel};
use crate::cost_model::Preset;
use crate::cost_tree::CostTree;
use crate::driver::config::{AlgorithmName, ExecMode, HpramConfig, bad};
use crate::error::HpramError;
use crate::limits::{check_full_run, check_shape};
use crate::network::{NetworkNeed, NetworkRun, run_on_network};
use crate::run::{count, run, run_program};
use crate::sub_pram::{BACKEND_WORDS, HAlgorithm, MAX_PROC_STEPS};
use crate::word::Word;

/// A configured algorithm before any data exists: its label, the algorithm, `M`, the
/// private words per processor and the root's sub-model (EREW; with LPRAM local memory for
/// tree prefix sums and every FFT form but `flat-naive`, as `BuiltinParams` sizes them), and
/// for a built-in algorithm
/// on data its params (its input `x_i = i` and its plain Rust reference).
struct Setup {
    name: String,
    alg: Arc<dyn HAlgorithm>,
    mem_words: usize,
    local_words: usize,
    model: SubModel,
    builtin: Option<BuiltinParams>,
}

impl Setup {
    /// The setup of a checked built-in algorithm.
    fn builtin(params: BuiltinParams) -> Setup {
        Setup {
            name: params.builtin().name(),
            alg: params.algorithm(),
            mem_words: params.mem_words(),
            local_words: params.local_words(),
            model: params.model(),
            builtin: Some(params),
        }
    }
}

fn setup(config: &HpramConfig, p: usize) -> Result<Setup, HpramError> {
    match (&config.shape, config.algorithm == AlgorithmName::Shape) {
        (None, true) => return Err(bad("shape", "given with algorithm = \"shape\"", "none")),
        (Some(text), false) => {
            let rule = "only given with algorithm = \"shape\"";
            return Err(bad("shape", rule, format!("a shape of {} characters", text.len())));
        }
        _ => {}
    }
    if let Some(text) = &config.shape {
        if config.form.is_some() {
            return Err(bad("form", "not given with algorithm = \"shape\"", "form"));
        }
        let mem_words = config.n.unwrap_or(p);
        if mem_words == 0 {
            return Err(bad("n", "n >= 1 for a shape (M = n words)", mem_words));
        }
        let (local_words, model) = (4, SubModel::EREW);
        let full = config.mode == ExecMode::Full;
        let cfg = machine(config, p, (mem_words, local_words, model));
        // Its items, before they are built (a shape's memory grows with its length).
        check_shape(text.len(), full.then_some(&cfg), words_field(config))?;
        let shape = crate::synth::Shape::parse(text)
            .map_err(|e| bad("shape", "the shape syntax of crate::synth", e))?;
        if full {
            let rule = "processor-steps (the shape's steps times their processors)";
            check("shape", shape.proc_steps(p), MAX_PROC_STEPS, rule)?;
        }
        if let Some(words) = config.local_words.filter(|&w| w < 2 && shape.accesses()) {
            return Err(bad(
                "local_words",
                "local_words >= 2 for a shape with access items (r w x f b o keep gpid + 1 in register 1)",
                words,
            ));
        }
        let (name, alg) = ("shape".to_string(), Arc::new(shape));
        return Ok(Setup { name, alg, mem_words, local_words, model, builtin: None });
    }
    if config.algorithm == AlgorithmName::Alg1 {
        let rule = "not given with algorithm = \"alg1\" (M = 2 procs, one form)";
        if let Some(form) = config.form {
            return Err(bad("form", rule, form));
        }
        if let Some(n) = config.n {
            return Err(bad("n", rule, n));
        }
        // Any other P fails a partition deep in the tree: the config's field is named first.
        if !Alg1::valid_procs(p) {
            return Err(bad(
                "procs",
                "procs = 8 * 2^k for alg1 (its partitions halve P down to 8)",
                p,
            ));
        }
        let too_big = || bad("procs", "procs and n small enough that M fits in usize", p);
        let mem_words = p.checked_mul(2).ok_or_else(too_big)?;
        let alg = Arc::new(Alg1);
        let (name, model) = ("alg1".to_string(), SubModel::EREW);
        return Ok(Setup { name, alg, mem_words, local_words: 4, model, builtin: None });
    }
    let form = config.form.ok_or_else(|| bad("form", "given with a tree algorithm", "none"))?;
    let n = config.n.ok_or_else(|| bad("n", "given with a tree algorithm", "none"))?;
    let label = serde_json::to_value(form).ok().and_then(|v| v.as_str().map(String::from));
    let label = label.unwrap_or_default();
    let builtin = if config.algorithm == AlgorithmName::Fft {
        Builtin::Fft(form.fft().ok_or_else(|| {
            bad("form", "flat-naive | flat-lpram | two-level | hier | perm for the fft", &label)
        })?)
    } else {
        let form = form.tree().ok_or_else(|| {
            bad("form", "flat | two-level | hier for the tree algorithms", &label)
        })?;
        match config.algorithm {
            AlgorithmName::TreeReduce => Builtin::TreeReduce(form),
            _ => Builtin::TreePrefix(form),
        }
    };
    let params = match config.mode {
        ExecMode::Full => BuiltinParams::new(builtin, p, n)?,
        ExecMode::CountOnly => BuiltinParams::count_only(builtin, p, n)?,
    };
    Ok(Setup::builtin(params))
}

/// What a run adds to its cost tree: the result, whether it matches the reference, the replay
/// hash (all `None` in count-only mode).
pub(crate) type Outcome = (Option<i64>, Option<bool>, Option<String>);

/// A config executed (or counted), before pricing.
pub(crate) struct Executed {
    /// The algorithm's label (`tree-reduce/hier`, `library/prefix-sums`, ...).
    pub(crate) name: String,
    /// `P`.
    pub(crate) procs: usize,
    /// `M`.
    pub(crate) mem_words: usize,
    /// The recorded cost tree.
    pub(crate) tree: CostTree,
    /// The result, its verdict and the replay hash.
    pub(crate) outcome: Outcome,
    /// `library`: the interpreter's cost.
    pub(crate) interpreter: Option<Cost>,
    /// `library`: the first output cell that differs from the expected output, if one does.
    pub(crate) mismatch: Option<String>,
    /// `[network]`: the network execution (its memory equals the abstract run's).
    pub(crate) network: Option<NetworkRun>,
}

/// The config field that sets `M`: `n` when given (tree algorithms, fft, a shape), else
/// `procs` (alg1's `M = 2P`, a shape's default `M = P`).
fn words_field(config: &HpramConfig) -> &'static str {
    if config.n.is_some() { "n" } else { "procs" }
}

/// The H-PRAM a config runs on: `P` processors, the algorithm's (or shape's) `M`, private
/// words and sub-model unless the config replaces them.
fn machine(
    config: &HpramConfig,
    p: usize,
    (mem_words, local_words, model): (usize, usize, SubModel),
) -> Config {
    let mut cfg = Config::new(p, mem_words);
    (cfg.threads, cfg.memory) = (config.threads, config.memory);
    cfg.local_words = config.local_words.unwrap_or(local_words);
    cfg.model = config.model.unwrap_or(model);
    cfg.max_depth = config.max_depth.unwrap_or(cfg.max_depth);
    cfg
}

/// Runs a built-in algorithm's config; the preset is checked first.
fn execute_builtin(config: &HpramConfig) -> Result<(Preset, Executed), HpramError> {
    let p = config.procs.ok_or_else(|| bad("procs", "given with a built-in algorithm", "none"))?;
    if config.pram.is_some() {
        return Err(bad("pram", "only given with algorithm = \"library\"", "a [pram] table"));
    }
    let preset = config.preset(p)?;
    config.check_model()?;
    config.per_level()?;
    let setup = setup(config, p)?;
    let cfg = machine(config, p, (setup.mem_words, setup.local_words, setup.model));
    if let Some(params) = &setup.builtin {
        params.check_machine(cfg.local_words, cfg.model)?;
    }
    let Setup { name, alg, mem_words, builtin, .. } = setup;
    if config.network.is_some() && config.mode == ExecMode::CountOnly {
        return Err(bad(
            "network",
            "given only in full mode (the network needs the data)",
            "count-only",
        ));
    }
    let mut network = None;
    let (tree, outcome): (_, Outcome) = match config.mode {
        ExecMode::CountOnly => (count(&cfg, alg, vec![])?, (None, None, None)),
        ExecMode::Full => {
            let words_field = words_field(config);
            check_full_run(&cfg, words_field)?;
            // A built-in algorithm's input `x_i = i` in its layout, and its plain Rust reference.
            let (input, expected) = match &builtin {
                Some(params) => {
                    let x: Vec<Word> = (0..params.n() as Word).collect();
                    (params.layout(&x), Some((params, params.builtin().reference(&x))))
                }
                None => (Vec::new(), None),
            };
            let (done, net) = match &config.network {
                None => (run(&cfg, alg, vec![], &input)?, None),
                Some(params) => {
                    check_network(&cfg, words_field)?;
                    let (done, net) = run_on_network(&cfg, alg, vec![], &input, params)?;
                    (done, Some(net))
                }
            };
            network = net;
            let (result, verified) = match expected {
                None => (None, None),
                Some((params, expected)) => {
                    let out = params.output(&done.memory);
                    let result = match params.builtin() {
                        Builtin::TreePrefix(_) => out.last(),
                        Builtin::TreeReduce(_) | Builtin::Fft(_) => out.first(),
                    };
                    (result.copied(), Some(out == expected))
                }
            };
            (done.cost, (result, verified, Some(format!("{:016x}", done.trace_hash))))
        }
    };
    let executed = Executed {
        name,
        procs: p,
        mem_words,
        tree,
        outcome,
        interpreter: None,
        mismatch: None,
        network,
    };
    Ok((preset, executed))
}

/// Refuses a `[network]` table beside a machine the network executor cannot run, naming the
/// config's field: `memory`, the field that sets `M` (`words_field`), or `model`.
fn check_network(cfg: &Config, words_field: &'static str) -> Result<(), HpramError> {
    let Some((need, got)) = NetworkNeed::unmet(cfg) else { return Ok(()) };
    let (field, rule) = match need {
        NetworkNeed::NonUniform => {
            ("memory", "non-uniform with a [network] table (paper Section 3.2)")
        }
        NetworkNeed::Words => (words_field, "M <= 2^20 words with a [network] table"),
        NetworkNeed::LowestPidWins => (
            "model",
            "not crcw-arbitrary with a [network] table (a module gives a concurrent write to the lowest pid)",
        ),
    };
    Err(bad(field, rule, got))
}

/// The program of `algorithm = "library"`, loaded from the `[pram]` table after the fields
/// that do not go with it are refused; `--svg` reads its processors from it before the run.
pub(crate) fn library_program<'a>(
    config: &'a HpramConfig,
    file: &ConfigFile<'_>,
) -> Result<(&'a PramConfig, LoadedProgram), HpramError> {
    let given = [
        ("procs", config.procs.is_some()),
        ("form", config.form.is_some()),
        ("n", config.n.is_some()),
        ("shape", config.shape.is_some()),
        ("model", config.model.is_some()),
        ("max_depth", config.max_depth.is_some()),
        ("local_words", config.local_words.is_some()),
        ("network", config.network.is_some()),
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
    Ok((pram, loaded))
}

/// Runs `algorithm = "library"`: the `[pram]` table's program on netcore's interpreter with a
/// flat H-PRAM as its memory ([`run_program`]); the preset is checked before the run.
fn execute_program(
    config: &HpramConfig,
    file: &ConfigFile<'_>,
) -> Result<(Preset, Executed), HpramError> {
    let (pram, loaded) = library_program(config, file)?;
    let (program, limits) = (&loaded.program, &loaded.limits);
    let too_big = |field, got: u64| bad(field, "fits in usize", got);
    let procs =
        usize::try_from(program.ppus()).map_err(|_| too_big("ppus", program.ppus().into()))?;
    let mem_words = usize::try_from(program.mem()).map_err(|_| too_big("mem", program.mem()))?;
    let preset = config.preset(procs)?;
    config.per_level()?;
    let mut cfg = Config::new(procs, mem_words);
    (cfg.memory, cfg.local_words) = (config.memory, BACKEND_WORDS);
    check_full_run(&cfg, if pram.file.is_some() { "file" } else { "n" })?;
    let done = run_program(&loaded.name, program, &loaded.input, limits, config.threads)?;
    let mismatch = match loaded.expected {
        Some(_) => loaded.first_difference(&done.run.memory),
        None => against_reference(&done, &loaded),
    };
    let verified = Some(mismatch.is_none());
    let hash = format!("{:016x}", done.run.trace_hash);
    let executed = Executed {
        name: format!("library/{}", loaded.name),
        procs,
        mem_words,
        tree: done.run.cost,
        outcome: (None, verified, Some(hash)),
        interpreter: Some(done.pram.cost),
        mismatch,
        network: None,
    };
    Ok((preset, executed))
}

/// A file's program without `expect`, checked against netcore's plain reference interpreter
/// (`docs/models/hpram.md`, Choices: A PRAM program as a flat H-PRAM): the interpreter runs the
/// program again on a plain memory, and the H-PRAM's final memory, registers and `T, S, G, W`
/// must equal its own. The first difference, if any (the reference stopping with an error
/// where the H-PRAM's run finished is one).
fn against_reference(
    done: &crate::run::ProgramRun,
    loaded: &netcore::driver::pram::LoadedProgram,
) -> Option<String> {
    let reference = match netcore::pram::run(&loaded.program, &loaded.input, &loaded.limits) {
        Ok(reference) => reference,
        Err(e) => return Some(format!("the reference interpreter stopped: {e}")),
    };
    let (memory, pram) = (&done.run.memory, &done.pram);
    let cell = (0..reference.memory.len().max(memory.len()))
        .find(|&i| memory.get(i) != reference.memory.get(i));
    if let Some(i) = cell {
        let show = |w: Option<&i64>| w.map_or("outside memory".to_string(), i64::to_string);
        Some(format!(
            "cell {i} is {}, the reference interpreter's is {}",
            show(memory.get(i)),
            show(reference.memory.get(i))
        ))
    } else if (pram.cpu_regs, &pram.ppu_regs) != (reference.cpu_regs, &reference.ppu_regs) {
        Some("the registers differ from the reference interpreter's".to_string())
    } else if pram.cost != reference.cost {
        Some(format!(
            "T, S, G, W = {:?} differ from the reference interpreter's {:?}",
            pram.cost, reference.cost
        ))
    } else {
        None
    }
}

/// Executes (or counts) a config; the preset is checked first.
pub(crate) fn execute(
    config: &HpramConfig,
    file: &ConfigFile<'_>,
) -> Result<(Preset, Executed), HpramError> {
    match config.algorithm {
        AlgorithmName::Library => execute_program(config, file),
        _ => execute_builtin(config),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use netcore::driver::pram::LoadedProgram;
    use netcore::pram::{Limits, library::Algorithm};

    /// A file's program without `expect` is checked against the reference interpreter's run:
    /// the H-PRAM's own run of the paper's prefix sums at n = 8 equals it, and a run with one
    /// cell or one register changed is reported at the first difference.
    #[test]
    fn a_file_without_expect_is_checked_against_the_reference() {
        let prefix = Algorithm::PrefixSums.instance(8, 0).unwrap();
        let loaded = LoadedProgram {
            name: "prefix.pasm".to_string(),
            program: prefix.program,
            input: prefix.input,
            limits: Limits::default(),
            expected: None,
            checked_against: None,
        };
        let done =
            run_program(&loaded.name, &loaded.program, &loaded.input, &loaded.limits, 1).unwrap();
        assert_eq!(against_reference(&done, &loaded), None);
        // The prefix sums of 1..8 leave 1, 3, 6, 10, ... in cells 0..8: cell 3 holds 10.
        let mut cell = done.clone();
        cell.run.memory[3] += 1;
        assert_eq!(
            against_reference(&cell, &loaded).as_deref(),
            Some("cell 3 is 11, the reference interpreter's is 10")
        );
        let mut register = done;
        register.pram.cpu_regs[0] += 1;
        assert_eq!(
            against_reference(&register, &loaded).as_deref(),
            Some("the registers differ from the reference interpreter's")
        );
    }
}
