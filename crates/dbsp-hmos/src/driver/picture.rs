//! The picture of one run (`cargo xtask run dbsp-hmos CONFIG.toml --svg FILE`): its D-BSP
//! ledger through netcore's [`ledger_picture`], one column per superstep split into `w`,
//! `g_i h` and `l_i` at their real widths (`g_i = (n / 2^i)^alpha`, `l_i = (n / 2^i)^beta`,
//! Section 2), the superstep's i-clusters nested inside it. A PRAM run's columns are grouped
//! by the access protocol's phases (Section 4, [`Phase`](crate::phase::Phase): combine, select/0..select/k, deliver, reply,
//! uncombine), each a labelled box with its cost. An HMOS build has no run to draw.

use netcore::bsp::picture::ledger_picture;
use netcore::picture::{Picture, check_size};
use netcore::study::{Model, ModelError, NoPicture};

use crate::driver::config::{PramConfig, PrimitiveConfig, PrimitiveExecution};
use crate::simulation::PramRun;

/// Refuses, before the run, a run on more processors `n` than the picture's lanes.
pub fn check_lanes(n: u32) -> Result<(), ModelError> {
    Ok(check_size("n", u64::from(n), "cost", 0)?)
}

/// An HMOS build has no run to draw.
pub fn no_picture(model: &dyn Model) -> ModelError {
    NoPicture { model: model.name(), what: "an HMOS build (kind = \"hmos\")" }.into()
}

/// The picture of `run`, the run of primitive config `c`, refused past its cost.
pub fn primitive_picture(
    c: &PrimitiveConfig,
    run: &PrimitiveExecution,
) -> Result<Picture, ModelError> {
    let (params, _, ledger, verified) = run;
    let title = format!(
        "{} on D-BSP n = {}, alpha = {}, beta = {}: verified {verified}",
        c.primitive.name(),
        c.n,
        c.alpha,
        c.beta
    );
    Ok(ledger_picture(ledger, c.n, params, title)?)
}

/// The picture of `run`, the run of PRAM config `c`, its supersteps grouped by the access
/// protocol's phases, refused past its cost.
pub fn pram_picture(c: &PramConfig, run: &PramRun) -> Result<Picture, ModelError> {
    let report = &run.report;
    let title = format!(
        "{} on D-BSP n = {}, {} r = {}, k = {}: {} global steps, {} supersteps",
        c.name(),
        c.n,
        c.scheme.name(),
        report.r,
        report.k,
        report.pram_g,
        report.supersteps
    );
    Ok(ledger_picture(run.ledger(), c.n, &run.priced, title)?)
}
