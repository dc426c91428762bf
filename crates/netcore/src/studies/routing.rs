//! Study `dbsp-routing`: a random (k1, k2)-relation confined to i-clusters, routed in one
//! i-superstep on the D-BSP engine with the (alpha, beta) parameter family, against the
//! bound `k1 + g_i k2 + l_i` (a message to oneself is a local move charged one operation, so
//! `w <= k1`; `h <= max(k1, k2) = k2`).

use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::bsp::primitives::route;
use crate::bsp::{BspMachine, CostModel, DbspParams};
use crate::message::ProcId;
use crate::rng::SimRng;
use crate::study::{Claim, ModelError, Plot, Study};

/// The `dbsp-routing` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct RoutingStudy;

/// One point.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoutingParams {
    /// Number of processors n, a power of two in 2..=2^20.
    pub n: u32,
    /// The i-superstep's level, 0..=log2(n).
    pub level: u32,
    /// Messages sent per processor, k1 >= 1.
    pub k1: u32,
    /// Most messages received per processor, k2 >= k1.
    pub k2: u32,
    /// g_i = (n / 2^i)^alpha.
    pub alpha: f64,
    /// l_i = (n / 2^i)^beta.
    pub beta: f64,
}

/// One row of `dbsp-routing`.
#[derive(Debug, Clone, Serialize)]
pub struct RoutingRow {
    /// log2 n.
    pub log_n: u32,
    /// n.
    pub n: u32,
    /// Level i.
    pub level: u32,
    /// k1.
    pub k1: u32,
    /// k2.
    pub k2: u32,
    /// alpha.
    pub alpha: f64,
    /// beta.
    pub beta: f64,
    /// Measured h.
    pub h: u64,
    /// Measured cost of the i-superstep.
    pub cost: u64,
    /// `k1 + g_i k2 + l_i`.
    pub bound: u64,
    /// cost / bound.
    pub ratio: f64,
    /// Every message arrived at its destination exactly once.
    pub verified: bool,
}

impl Study for RoutingStudy {
    type Params = RoutingParams;
    type Row = RoutingRow;

    fn name(&self) -> &'static str {
        "dbsp-routing"
    }
    fn about(&self) -> &'static str {
        "random (k1,k2)-relations inside i-clusters on the D-BSP engine: cost vs k1 + g_i k2 + l_i"
    }
    fn check(&self, params: &RoutingParams) -> Result<(), ModelError> {
        let dbsp = DbspParams::alpha_beta(params.n, params.alpha, params.beta)?;
        if !(2..=1 << 20).contains(&params.n) {
            return Err(crate::Error::param("n", "2 <= n <= 2^20", params.n).into());
        }
        if params.level > dbsp.log_n() {
            let rule = format!("level <= log2(n) = {}", dbsp.log_n());
            return Err(crate::Error::param("level", rule, params.level).into());
        }
        if params.k1 == 0 || params.k2 < params.k1 {
            let rule = format!("1 <= k1 <= k2 (k1 = {})", params.k1);
            return Err(crate::Error::param("k2", rule, params.k2).into());
        }
        Ok(())
    }
    fn run(&self, params: &RoutingParams, rng: &mut SimRng) -> Result<RoutingRow, ModelError> {
        self.check(params)?;
        let n = params.n;
        let dbsp = DbspParams::alpha_beta(n, params.alpha, params.beta)?;
        let cluster = n >> params.level;
        // In each cluster, every destination offers k2 slots; a random k1-per-sender choice of
        // distinct slots makes a (k1, k2)-relation.
        let mut outgoing: Vec<Vec<(ProcId, u64)>> = vec![Vec::new(); n as usize];
        for base in (0..n).step_by(cluster as usize) {
            let mut slots: Vec<ProcId> = (base..base + cluster)
                .flat_map(|d| std::iter::repeat_n(d, params.k2 as usize))
                .collect();
            for i in 0..slots.len() {
                let j = rng.random_range(i..slots.len());
                slots.swap(i, j);
            }
            for (index, &dest) in slots.iter().take((cluster * params.k1) as usize).enumerate() {
                let src = base + index as u32 / params.k1;
                outgoing[src as usize].push((dest, u64::from(src) << 32 | index as u64));
            }
        }
        let mut expected: Vec<Vec<(ProcId, u64)>> = vec![Vec::new(); n as usize];
        for (src, msgs) in outgoing.iter().enumerate() {
            for &(dest, tag) in msgs {
                expected[dest as usize].push((src as ProcId, tag));
            }
        }
        let mut machine = BspMachine::new(CostModel::Dbsp(dbsp.clone()), outgoing)?;
        route(&mut machine, Some(params.level))?;
        let (received, ledger) = machine.finish();
        let record = &ledger.records[0];
        let level = params.level as usize;
        let bound = u64::from(params.k1) + dbsp.g()[level] * u64::from(params.k2) + dbsp.l()[level];
        Ok(RoutingRow {
            log_n: dbsp.log_n(),
            n,
            level: params.level,
            k1: params.k1,
            k2: params.k2,
            alpha: params.alpha,
            beta: params.beta,
            h: record.h,
            cost: record.cost,
            bound,
            ratio: record.cost as f64 / bound as f64,
            verified: received == expected,
        })
    }
    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim::all_true(
                "every message is delivered exactly once, to its destination",
                "verified",
            ),
            Claim::within(
                "cost / (k1 + g_i k2 + l_i) stays within [0.4, 1] (h >= k1 >= k2 / 2 on this grid)",
                "ratio",
                0.4,
                1.0,
            ),
        ]
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new("cost", "i-superstep routing cost vs bound", "n", &["cost", "bound"])
                .series("level")
                .log_x()
                .log_y(),
            Plot::new("ratio", "routing cost / (k1 + g_i k2 + l_i)", "n", &["ratio"])
                .series("level")
                .log_x(),
        ]
    }
}
