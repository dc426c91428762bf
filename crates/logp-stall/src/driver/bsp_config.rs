//! `cargo xtask run logp-stall CONFIG.toml` with `kind = "bsp"`: a BSP-native program on
//! netcore's BSP engine with its own `p`, `g`, `l` (paper §2, BSP: a superstep costs
//! `w + g h + l`), reported superstep by superstep. The one program is the BSP-native
//! 2-compaction (paper §3's problem; `docs/models/logp-stall.md`, Choices: BSP-native baseline).

use netcore::bsp::picture::ledger_picture;
use netcore::bsp::{Bsp, BspParams};
use netcore::cost::Ledger;
use netcore::picture::{Picture, check_size};
use netcore::study::{ModelError, RunReport};
use serde::Deserialize;
use serde_json::json;

use crate::Error;
use crate::algorithms::{bsp_compaction_bound, bsp_two_compaction, reference_compaction};

/// The BSP programs a config names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
enum BspAlgorithm {
    /// [`bsp_two_compaction`].
    TwoCompaction,
}

/// The `kind = "bsp"` configuration.
#[derive(Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct BspConfig {
    /// The `kind` key that chose this table (read first by [`crate::driver::model`]).
    #[serde(default, rename = "kind")]
    #[serde(skip_serializing)]
    _kind: serde::de::IgnoredAny,
    algorithm: BspAlgorithm,
    p: u32,
    g: u64,
    l: u64,
    x: Vec<i64>,
}

/// Runs a `kind = "bsp"` configuration: per superstep its label, `w`, `h` (with `h_send`,
/// `h_recv`) and cost `w + g h + l`; the total, the bound `6 + 2g + 2l`, the outputs and the
/// reference.
pub fn run_bsp_config(c: &BspConfig) -> Result<RunReport, ModelError> {
    let (bsp, got, ledger) = execute(c)?;
    report(c, &bsp, got, &ledger)
}

/// One run of a `kind = "bsp"` configuration, reported and drawn (the picture's refusals
/// first).
pub fn bsp_pictured(c: &BspConfig) -> Result<(RunReport, Picture), ModelError> {
    check_size("p", u64::from(c.p), "cost", 0)?;
    let (bsp, got, ledger) = execute(c)?;
    let picture = picture(c, &bsp, &ledger)?;
    Ok((report(c, &bsp, got, &ledger)?, picture))
}

/// The report of the run of `c` on `bsp`: its outputs `got` and its `ledger`.
fn report(
    c: &BspConfig,
    bsp: &BspParams,
    got: Outputs,
    ledger: &Ledger,
) -> Result<RunReport, ModelError> {
    let want = reference_compaction(c.p, &c.x)?;
    let costs = ledger.priced(bsp).map_err(Error::from)?;
    let supersteps: Vec<_> = ledger
        .records
        .iter()
        .zip(&costs)
        .map(|(r, cost)| {
            json!({ "label": r.label, "w": r.w, "h": r.h, "h_send": r.h_send,
                "h_recv": r.h_recv, "cost": cost })
        })
        .collect();
    let cost: f64 = costs.iter().sum();
    let bound = bsp_compaction_bound(bsp);
    let verified = got == want;
    let summary = format!(
        "BSP two_compaction (p={}, g={}, l={}): {} supersteps, cost {cost} (bound 6 + 2g + 2l = {bound}), verified = {verified}",
        c.p,
        c.g,
        c.l,
        supersteps.len()
    );
    let report = json!({ "algorithm": "two_compaction", "p": c.p, "g": c.g, "l": c.l,
        "supersteps": supersteps, "cost": cost, "bound": bound, "outputs": got,
        "reference": want, "verified": verified });
    Ok(RunReport { summary, report })
}

/// The picture of the `ledger` of the run of `c` on `bsp`, refused past its cost.
fn picture(c: &BspConfig, bsp: &BspParams, ledger: &Ledger) -> Result<Picture, ModelError> {
    let title = format!("BSP two_compaction (p = {}, g = {}, l = {})", c.p, c.g, c.l);
    Ok(ledger_picture(ledger, c.p, bsp, title)?)
}

/// The outputs of 2-compaction: where the (at most two) nonzeros ended up.
type Outputs = (Option<(u32, i64)>, Option<(u32, i64)>);

/// Checks `c` and runs it: the machine's parameters, the outputs and the ledger.
fn execute(c: &BspConfig) -> Result<(BspParams, Outputs, Ledger), ModelError> {
    let BspAlgorithm::TwoCompaction = c.algorithm;
    let bad = |field, rule, value: String| -> Result<_, ModelError> {
        Err(Error::ConfigParam { field, rule, value }.into())
    };
    if c.p < 2 {
        return bad("p", "p >= 2 (2-compaction sends to B_0 and B_1)", c.p.to_string());
    }
    for (field, rule, v) in [("g", "1 <= g <= 2^32", c.g), ("l", "1 <= l <= 2^32", c.l)] {
        if v == 0 || v > 1 << 32 {
            return bad(field, rule, format!("{field}={v}"));
        }
    }
    let bsp = BspParams::new(Bsp { p: c.p, g: c.g, l: c.l }).map_err(Error::from)?;
    let (got, ledger) = bsp_two_compaction(bsp.clone(), &c.x)?;
    Ok((bsp, got, ledger))
}
