//! The [`Model`] through which `xtask` lists, runs and sweeps this crate: the reports of the
//! single runs of `cargo xtask run dbsp-hmos CONFIG.toml` ([`config`](super::config)) and
//! their pictures ([`picture`](super::picture)).

#![warn(clippy::cast_possible_truncation)]

use netcore::picture::Picture;
use netcore::study::{
    AnyStudy, CommittedPicture, ConfigFile, EmbeddedSweep, Manifest, Model, ModelError, Paper,
    RunReport, to_json, with_config,
};
use serde::Serialize;

use crate::Error;
use crate::driver::config::{
    HmosBuildConfig, PramConfig, PrimitiveConfig, PrimitiveExecution, RunConfig, pram_run,
    primitive_run,
};
use crate::driver::figure::{FigureConfig, FigureRun};
use crate::driver::picture::{check_lanes, no_picture, pram_picture, primitive_picture};
use crate::driver::studies::primitives::bound;
use crate::hmos::{Hmos, HmosConfig, Lemma1Check, k_max_with};
use crate::run::Primitive;
use crate::simulation::PramRun;

/// The `dbsp-hmos` model.
#[derive(Debug, Clone, Copy, Default)]
pub struct DbspHmos;

/// One level's Lemma 1 graph in a report.
#[derive(Debug, Serialize)]
pub struct LevelReport {
    /// |X| = m_(i-1).
    pub w: u32,
    /// Points of AG(j, 3).
    pub z: u32,
    /// Bundle size d_i.
    pub d: u32,
    /// |Y| = m_i.
    pub ny: u32,
    /// Lemma 1's properties.
    pub properties: Lemma1Check,
}

/// The report of an HMOS build.
#[derive(Debug, Serialize)]
pub struct HmosReport {
    /// The largest valid k for n.
    pub k_max: u32,
    /// m_0..m_k.
    pub m_levels: Vec<u64>,
    /// d_1..d_k.
    pub d_levels: Vec<u64>,
    /// t_1..t_k.
    pub t_levels: Vec<u64>,
    /// The Lemma 1 graphs.
    pub levels: Vec<LevelReport>,
    /// Copies per variable, r 3^k.
    pub copies: u64,
    /// The processors of every copy of variable 0, by copy index.
    pub loc_variable_0: Vec<u64>,
    /// Largest number of copies a processor holds.
    pub capacity_max: u64,
    /// Mean copies per processor, r 3^k m / n.
    pub capacity_mean: f64,
    /// Processors holding no copy.
    pub empty_processors: usize,
}

fn run_hmos(config: &HmosBuildConfig) -> Result<RunReport, ModelError> {
    let hc = HmosConfig::with_graph_and_sizes(
        config.n,
        config.m,
        config.r,
        config.k,
        config.seed,
        config.level0,
        config.sizes,
    )?;
    // The capacities visit every edge of the level-0 graph: a computed one takes m <= 2^40.
    crate::limits::check_placement_work(config.n, config.m, config.r, config.k)
        .map_err(Error::from)?;
    let hmos = Hmos::build(&hc)?;
    let c = hmos.chain().clone();
    let levels = hmos
        .levels()
        .iter()
        .map(|g| LevelReport { w: g.w, z: g.z, d: g.d, ny: g.ny, properties: g.check() })
        .collect();
    let cap = hmos.capacities()?;
    let loc_variable_0 =
        (0..hmos.copies()).map(|copy| hmos.loc(0, copy)).collect::<Result<Vec<_>, _>>()?;
    let report = HmosReport {
        k_max: k_max_with(config.n, config.sizes),
        m_levels: c.m.clone(),
        d_levels: c.d.clone(),
        t_levels: c.t.clone(),
        levels,
        copies: hmos.copies(),
        loc_variable_0,
        capacity_max: cap.iter().copied().max().unwrap_or(0),
        capacity_mean: cap.iter().sum::<u64>() as f64 / cap.len() as f64,
        empty_processors: cap.iter().filter(|&&c| c == 0).count(),
    };
    let summary = format!(
        "HMOS n = {}, m = {}, r = {}, k = {} (k_max {}): m_i {:?}, d_i {:?}, t_i {:?}, {} copies per variable, capacity max {} mean {:.2}",
        config.n,
        config.m,
        config.r,
        config.k,
        report.k_max,
        report.m_levels,
        report.d_levels,
        report.t_levels,
        report.copies,
        report.capacity_max,
        report.capacity_mean
    );
    Ok(RunReport { summary, report: with_config(config, to_json(&report)?)? })
}

/// The report of figure config `config`: the variable's subdag per level.
fn figure_report(config: &FigureConfig, run: &FigureRun) -> Result<RunReport, ModelError> {
    Ok(RunReport { summary: run.summary(), report: with_config(config, to_json(run.report())?)? })
}

fn run_pram(config: &PramConfig, file: &ConfigFile<'_>) -> Result<RunReport, ModelError> {
    pram_report(config, &pram_run(config, file)?)
}

/// The report of `run`, the run of PRAM config `config`.
fn pram_report(config: &PramConfig, run: &PramRun) -> Result<RunReport, ModelError> {
    let report = &run.report;
    let (r, k) = (report.r, report.k);
    let summary = format!(
        "{} on D-BSP n = {} with {} r = {}, k = {}: {} global steps, {} supersteps, comm {:.1} ({} pricing), verified {} against {}",
        config.name(),
        config.n,
        config.scheme.name(),
        r,
        k,
        report.pram_g,
        report.supersteps,
        report.comm,
        config.pricing.name(),
        report.verified,
        config.checked_against()
    );
    Ok(RunReport { summary, report: with_config(config, to_json(report)?)? })
}

/// The report of a primitive run.
#[derive(Debug, Serialize)]
pub struct PrimitiveReport {
    /// The primitive.
    pub primitive: Primitive,
    /// Number of processors.
    pub n: u32,
    /// `(label, h)` of every superstep, in order.
    pub trace: Vec<(u32, u64)>,
    /// Supersteps per label `0..=deepest`.
    pub label_histogram: Vec<u64>,
    /// Communication cost `sum (g_i h + l_i)`.
    pub comm: f64,
    /// Local work `sum w`.
    pub work: u64,
    /// The proposition's bound (see the `dbsp-primitives` study).
    pub bound: f64,
    /// comm / bound.
    pub ratio: f64,
    /// The output equals the sequential reference.
    pub verified: bool,
}

fn run_primitive(config: &PrimitiveConfig) -> Result<RunReport, ModelError> {
    primitive_report(config, &primitive_run(config)?)
}

/// The report of `run`, the run of primitive config `config`.
fn primitive_report(
    config: &PrimitiveConfig,
    run: &PrimitiveExecution,
) -> Result<RunReport, ModelError> {
    let (params, run, ledger, verified) = run;
    let verified = *verified;
    let comm = ledger.comm(params).map_err(Error::from)?;
    let (bound, _) = bound(run, config.alpha, config.beta);
    let report = PrimitiveReport {
        primitive: config.primitive,
        n: config.n,
        trace: ledger.records.iter().filter_map(|r| r.level.map(|l| (l, r.h))).collect(),
        label_histogram: ledger.label_histogram(),
        comm,
        work: ledger.work(),
        bound,
        ratio: comm / bound,
        verified,
    };
    let summary = format!(
        "{} on n = {}: {} supersteps, comm {:.3}, work {}, comm / bound {:.3} (bound {:.3} = {}), verified {}",
        report.primitive.name(),
        report.n,
        report.trace.len(),
        report.comm,
        report.work,
        report.ratio,
        report.bound,
        report.primitive.bound_name(),
        report.verified
    );
    Ok(RunReport { summary, report: with_config(config, to_json(&report)?)? })
}

impl Model for DbspHmos {
    fn name(&self) -> &'static str {
        "dbsp-hmos"
    }
    fn about(&self) -> &'static str {
        "D-BSP primitives (Propositions 1-3) and the HMOS PRAM simulation (Fantozzi, Pietracaprina, Pucci)"
    }
    fn manifest(&self) -> Manifest {
        Manifest {
            paper: Paper {
                title: "Fantozzi, Pietracaprina and Pucci: A General PRAM Simulation Scheme for Clustered \
                 Machines",
                docs: "dbsp-hmos.md",
            },
            sweep: Some(EmbeddedSweep {
                file: "fixtures/sweeps/dbsp-hmos.toml",
                text: include_str!("../../../../fixtures/sweeps/dbsp-hmos.toml"),
            }),
            results: crate::driver::results::RESULTS,
            pictures: &[
                CommittedPicture {
                    config: "fixtures/dbsp-hmos/prim-route-gather.toml",
                    picture: "dbsp-hmos-prim-route-gather.svg",
                },
                CommittedPicture {
                    config: "fixtures/dbsp-hmos/pram-hot-spot-read-n4.toml",
                    picture: "dbsp-hmos-pram-hot-spot-read-n4.svg",
                },
                CommittedPicture {
                    config: "fixtures/dbsp-hmos/hmos-figure-1.toml",
                    picture: "dbsp-hmos-figure-1.svg",
                },
                CommittedPicture {
                    config: "fixtures/dbsp-hmos/hmos-figure-2.toml",
                    picture: "dbsp-hmos-figure-2.svg",
                },
                CommittedPicture {
                    config: "fixtures/dbsp-hmos/hmos-figure-3.toml",
                    picture: "dbsp-hmos-figure-3.svg",
                },
            ],
        }
    }
    fn studies(&self) -> Vec<Box<dyn AnyStudy>> {
        vec![
            Box::new(crate::driver::studies::PrimitivesStudy),
            Box::new(crate::driver::studies::Lemma2Study),
            Box::new(crate::driver::studies::Lemma3Study),
            Box::new(crate::driver::studies::SlowdownStudy),
            Box::new(crate::driver::studies::CrossoverStudy),
            Box::new(crate::driver::studies::Theorem3Study),
            Box::new(crate::driver::studies::ExpansionStudy),
        ]
    }
    fn run_config(&self, config: &ConfigFile<'_>) -> Result<RunReport, ModelError> {
        match config.parse::<RunConfig>()? {
            RunConfig::Primitive(p) => run_primitive(&p),
            RunConfig::Hmos(h) => run_hmos(&h),
            RunConfig::Pram(p) => run_pram(&p, config),
            RunConfig::HmosFigure(f) => figure_report(&f, &FigureRun::new(&f)?),
        }
    }
    /// One run of a primitive or a PRAM config, reported and drawn (the picture's refusals
    /// first), or one of Section 3's figures drawn from its HMOS; an HMOS build has no
    /// picture.
    fn run_pictured(&self, config: &ConfigFile<'_>) -> Result<(RunReport, Picture), ModelError> {
        match config.parse::<RunConfig>()? {
            RunConfig::Primitive(c) => {
                check_lanes(c.n)?;
                let run = primitive_run(&c)?;
                let picture = primitive_picture(&c, &run)?;
                Ok((primitive_report(&c, &run)?, picture))
            }
            RunConfig::Pram(c) => {
                check_lanes(c.n)?;
                let run = pram_run(&c, config)?;
                let picture = pram_picture(&c, &run)?;
                Ok((pram_report(&c, &run)?, picture))
            }
            RunConfig::HmosFigure(f) => {
                let run = FigureRun::new(&f)?;
                let picture = run.picture()?;
                Ok((figure_report(&f, &run)?, picture))
            }
            RunConfig::Hmos(_) => Err(no_picture(self)),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use netcore::fault::Fault;
    use netcore::study::{ConfigFile, Model};

    use super::DbspHmos;

    /// Past 128 processors a run's picture is refused before it runs (n = 2^20 would route a
    /// million items), naming `n` and the limit; an HMOS build has no picture.
    #[test]
    fn too_large_and_builds_are_refused() {
        let text = "kind = \"primitive\"\nprimitive = \"route_two_phase\"\nn = 1048576\nalpha = 0.5\nbeta = 0.5\n";
        let e = DbspHmos.run_pictured(&ConfigFile::new(text, Path::new("."))).unwrap_err();
        assert_eq!(e.fault(), Fault::Input);
        assert!(e.to_string().starts_with("n is too large: the run needs 1048576 lanes"), "{e}");
        assert!(e.to_string().contains("the limit is 128"), "{e}");
        let text = "kind = \"hmos\"\nn = 8\nm = 8\n";
        let e = DbspHmos.run_pictured(&ConfigFile::new(text, Path::new("."))).unwrap_err();
        assert!(e.to_string().contains("no picture for an HMOS build"), "{e}");
    }
}
