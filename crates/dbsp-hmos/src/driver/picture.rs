//! The picture of one run (`cargo xtask run dbsp-hmos CONFIG.toml --svg FILE`): its D-BSP
//! ledger through netcore's [`ledger_picture`], one column per superstep split into `w`,
//! `g_i h` and `l_i` at their real widths (`g_i = (n / 2^i)^alpha`, `l_i = (n / 2^i)^beta`,
//! Section 2), the superstep's i-clusters nested inside it. A PRAM run's columns are grouped
//! by the access protocol's phases (Section 4, [`Phase`](crate::phase::Phase): combine, select/0..select/k, deliver, reply,
//! uncombine), each a labelled box with its cost. An HMOS build has no run to draw.

use netcore::bsp::picture::ledger_picture;
use netcore::picture::{Picture, check_size};
use netcore::study::{ConfigFile, Model, ModelError, NoPicture};

use crate::driver::config::{RunConfig, pram_run, primitive_run};

/// The picture of the run of `config`: refused before the run past the picture's lanes (`n`
/// processors), and after it, before drawing, past its cost units (the total cost).
pub fn picture(model: &dyn Model, config: &ConfigFile<'_>) -> Result<Picture, ModelError> {
    match config.parse::<RunConfig>()? {
        RunConfig::Primitive(c) => {
            check_size("n", u64::from(c.n), "cost", 0)?;
            let (params, _, ledger, verified) = primitive_run(&c)?;
            let title = format!(
                "{:?} on D-BSP n = {}, alpha = {}, beta = {}: verified {verified}",
                c.primitive, c.n, c.alpha, c.beta
            );
            Ok(ledger_picture(&ledger, c.n, &params, title)?)
        }
        RunConfig::Pram(c) => {
            check_size("n", u64::from(c.n), "cost", 0)?;
            let run = pram_run(&c)?;
            let report = &run.report;
            let title = format!(
                "{:?} (size {}) on D-BSP n = {}, {} r = {}, k = {}: {} global steps, {} supersteps",
                c.algorithm,
                c.size,
                c.n,
                c.scheme.name(),
                report.r,
                report.k,
                report.pram_g,
                report.supersteps
            );
            Ok(ledger_picture(&run.ledger, c.n, &run.priced, title)?)
        }
        RunConfig::Hmos(_) => {
            Err(NoPicture { model: model.name(), what: "an HMOS build (kind = \"hmos\")" }.into())
        }
    }
}
