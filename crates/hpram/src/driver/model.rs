//! The hpram entry of `xtask` ([`Hpram`]): `cargo xtask run hpram CONFIG.toml` reads a
//! [`HpramConfig`], executes it (`execute.rs`), reports it
//! ([`super::report`]) or draws it (`--svg`, [`super::picture`]); the studies are
//! [`super::studies`].

use netcore::picture::Picture;
use netcore::pram::Cost;
use netcore::study::{
    AnyStudy, CommittedPicture, ConfigFile, EmbeddedSweep, Manifest, Model, ModelError, Paper,
    RunReport, to_json, with_config,
};

use crate::driver::config::ExecMode;
use crate::driver::config::HpramConfig;
use crate::driver::execute::execute;
use crate::driver::picture::{check_drawable, executed_picture};
use crate::driver::report::{HpramReport, NetworkReport, NotVerified, report, run_hpram_config};
use crate::driver::studies::fft_locality::FftLocality;
use crate::driver::studies::iso::Isoefficiency;
use crate::driver::studies::model::ModelResults;
use crate::driver::studies::network::NetworkStudy;
use crate::driver::studies::tree_r::TreeR;
use crate::driver::studies::usable::UsableProcs;

/// The hpram model entry of `xtask`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Hpram;

impl Model for Hpram {
    fn name(&self) -> &'static str {
        "hpram"
    }
    fn about(&self) -> &'static str {
        "the Hierarchical PRAM (Heywood & Ranka): partition steps, non-uniform and uniform memory with a determinacy checker, the cost tree priced by the exact, phase-refined, simplified and two-stage recursions"
    }
    fn manifest(&self) -> Manifest {
        Manifest {
            paper: Paper {
                title: "Heywood and Ranka: A Practical Hierarchical Model of Parallel Computation",
                docs: "hpram.md",
            },
            sweep: Some(EmbeddedSweep {
                file: "fixtures/sweeps/hpram.toml",
                text: include_str!("../../../../fixtures/sweeps/hpram.toml"),
            }),
            results: crate::driver::results::RESULTS,
            pictures: &[CommittedPicture {
                config: "fixtures/hpram/shape-nested-p8-hypercube.toml",
                picture: "hpram-shape-nested-p8.svg",
            }],
        }
    }
    fn studies(&self) -> Vec<Box<dyn AnyStudy>> {
        vec![
            Box::new(ModelResults),
            Box::new(TreeR),
            Box::new(UsableProcs),
            Box::new(Isoefficiency),
            Box::new(FftLocality),
            Box::new(NetworkStudy),
        ]
    }
    fn run_config(&self, config: &ConfigFile<'_>) -> Result<RunReport, ModelError> {
        let parsed: HpramConfig = config.parse()?;
        run_report(&parsed, run_hpram_config(&parsed, config)?)
    }
    /// One execution of `config`, drawn (the picture's refusals first) and reported.
    fn run_pictured(&self, config: &ConfigFile<'_>) -> Result<(RunReport, Picture), ModelError> {
        let parsed: HpramConfig = config.parse()?;
        check_drawable(&parsed, config)?;
        let (preset, executed) = execute(&parsed, config)?;
        let picture = executed_picture(&parsed, &preset, &executed)?;
        Ok((run_report(&parsed, report(&parsed, preset, executed)?)?, picture))
    }
}

/// The run report of an H-PRAM run of `config` (its config under `config`, then the report's
/// fields): refused (a failed run) if its result differs from the plain Rust reference.
fn run_report(config: &HpramConfig, report: HpramReport) -> Result<RunReport, ModelError> {
    if let Some(failure) = NotVerified::of(&report) {
        return Err(failure.into());
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
        "{}{mode} on P = {}, M = {} ({} memory, {}, {} formula): tau = {}, stage1 = {}, stage2 = {}, {}, depth {}{result}",
        report.algorithm,
        report.procs,
        report.mem_words,
        report.memory,
        report.preset,
        report.formula,
        report.tau,
        report.stage1,
        report.stage2,
        super::report::sub_prams(report.sub_prams),
        report.depth,
    );
    let network = report.network.as_ref().map(network_summary).unwrap_or_default();
    let per_level = report
        .per_level_model
        .as_ref()
        .map(|p| {
            format!(
                "\nper-level model (paper Section 3.1) {:?}: tau = {} ({} formula)",
                p.model.levels(),
                p.tau,
                report.formula
            )
        })
        .unwrap_or_default();
    let report = with_config(config, to_json(&report)?)?;
    Ok(RunReport { summary: summary + &network + &per_level, report })
}

/// The network lines of a summary: the network, its times beside the predictions, then one
/// line per construct, its measured mean and largest time beside the preset's value.
fn network_summary(net: &NetworkReport) -> String {
    use std::fmt::Write;
    let run = &net.run;
    let mut out = format!(
        "\nnetwork {} ({} nodes, {} directed links, link delay {}, hash seed {}): final memory equals the abstract run; measured time {} (with the partitions' memory permutations {}); predicted (phase-refined) {} by the preset, {} by the per-level model calibrated on this run; {} messages, {} hops",
        run.params.topology,
        run.nodes,
        run.links,
        run.params.link_delay,
        run.params.seed,
        run.time,
        run.total,
        net.preset_tau,
        net.per_level_tau,
        run.messages,
        run.hops,
    );
    for c in &net.vs_preset {
        let q = c.q.map(|q| format!(", Q = {q}")).unwrap_or_default();
        let ratio = c.ratio.map(|r| format!(" (measured/predicted {r:.2})")).unwrap_or_default();
        let _ = write!(
            out,
            "\n  {} at level {}, P' = {}{q} (x{}): measured mean {:.2}, max {}; predicted {} = {}{ratio}",
            c.construct,
            c.level,
            c.procs,
            c.count,
            c.measured,
            c.measured_max,
            c.predicted,
            c.label,
        );
    }
    out
}
