//! The [`Model`] through which `xtask` lists, runs and sweeps this crate.

use netcore::study::{AnyStudy, ConfigFile, Model, ModelError, RunReport};

/// The `dbsp-hmos` model.
#[derive(Debug, Clone, Copy, Default)]
pub struct DbspHmos;

impl Model for DbspHmos {
    fn name(&self) -> &'static str {
        "dbsp-hmos"
    }
    fn about(&self) -> &'static str {
        "D-BSP primitives (Propositions 1-3) and the HMOS PRAM simulation (Fantozzi, Pietracaprina, Pucci)"
    }
    fn studies(&self) -> Vec<Box<dyn AnyStudy>> {
        vec![]
    }
    fn run_config(&self, config: &ConfigFile<'_>) -> Result<RunReport, ModelError> {
        let _ = config;
        Err(crate::Error::param("kind", "a known run kind", "none yet").into())
    }
}
