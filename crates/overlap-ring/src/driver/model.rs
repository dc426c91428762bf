//! The [`Model`] through which `xtask` lists, runs and sweeps this crate.
#![warn(clippy::cast_possible_truncation)]

use netcore::picture::Picture;
use netcore::study::{
    AnyStudy, CommittedPicture, ConfigFile, EmbeddedSweep, Manifest, Model, ModelError, Paper,
    RunReport,
};

/// The `overlap-ring` model.
#[derive(Debug, Clone, Copy, Default)]
pub struct OverlapRing;

impl Model for OverlapRing {
    fn name(&self) -> &'static str {
        "overlap-ring"
    }
    fn about(&self) -> &'static str {
        "latency hiding by redundant computation (Andrews, Leighton, Metaxas, Zhang): guest arrays, rings and 2-D arrays on host arrays, rings and graphs with per-link delays; naive, OVERLAP, trapezoid, composite"
    }
    fn manifest(&self) -> Manifest {
        Manifest {
            paper: Paper {
                title: "Andrews, Leighton, Metaxas and Zhang: Improved Methods for Hiding Latency in High \
                 Bandwidth Networks",
                docs: "overlap-ring.md",
            },
            sweep: Some(EmbeddedSweep {
                file: "fixtures/sweeps/overlap-ring.toml",
                text: include_str!("../../../../fixtures/sweeps/overlap-ring.toml"),
            }),
            results: crate::driver::results::RESULTS,
            pictures: &[CommittedPicture {
                config: "fixtures/overlap-ring/overlap_long_link.toml",
                picture: "overlap-ring-overlap-long-link.svg",
            }],
        }
    }
    fn studies(&self) -> Vec<Box<dyn AnyStudy>> {
        vec![
            Box::new(crate::driver::studies::NaiveVsDmax),
            Box::new(crate::driver::studies::SingleLongLink),
            Box::new(crate::driver::studies::HeavyTailed),
            Box::new(crate::driver::studies::Crossover),
            Box::new(crate::driver::studies::Theorem4),
            Box::new(crate::driver::studies::Growth),
            Box::new(crate::driver::studies::WorkEfficiency),
            Box::new(crate::driver::studies::GeneralGraphs),
            Box::new(crate::driver::studies::Theorem6),
            Box::new(crate::driver::studies::Grid2d),
            Box::new(crate::driver::studies::H1Bound),
            Box::new(crate::driver::studies::H2Bound),
            Box::new(crate::driver::studies::Theorem10Exact),
        ]
    }
    fn run_config(&self, config: &ConfigFile<'_>) -> Result<RunReport, ModelError> {
        crate::driver::config::run_config(config)
    }
    fn run_pictured(&self, config: &ConfigFile<'_>) -> Result<(RunReport, Picture), ModelError> {
        crate::driver::picture::pictured(config)
    }
}
