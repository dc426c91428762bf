//! Study `bsp-bitonic`: the BSP cost of a bitonic sort, measured on the engine, against its
//! closed form (see [`crate::bsp::primitives::bitonic_sort`]).

use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::bsp::primitives::{SortAlgorithm, bitonic_sort, bitonic_stages, ceil_log2};
use crate::bsp::{Bsp, BspMachine, BspParams};
use crate::driver::studies::sort::memory_estimate;
use crate::limits::{DEFAULT_MEMORY, check};
use crate::rng::SimRng;
use crate::study::{Claim, Column, ModelError, ParamError, Plot, Study};

/// The `bsp-bitonic` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct BitonicStudy;

/// One point: `p = 2^log_p` processors with `m` random keys each on BSP(g, l).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BitonicParams {
    /// log2 of the number of processors, 1..=20.
    pub log_p: u32,
    /// Keys per processor, >= 1.
    pub m: u32,
    /// BSP gap g.
    pub g: u64,
    /// BSP latency l.
    pub l: u64,
}

/// One row of `bsp-bitonic`.
#[derive(Debug, Clone, Serialize)]
pub struct BitonicRow {
    /// Processors p.
    pub p: u32,
    /// Supersteps executed.
    pub supersteps: usize,
    /// Messages sent in total.
    pub messages: u64,
    /// Measured BSP cost (sum over supersteps of w + g h + l).
    pub cost: f64,
    /// Closed form `m ceil(log2 m) + S (2m + g m) + (S + 1) l`, `S = log p (log p + 1) / 2`.
    pub bound: f64,
    /// cost / bound.
    pub ratio: f64,
    /// The output equals the reference sort of the same keys.
    pub verified: bool,
}

/// A validated point: the machine's parameters and the keys per processor.
#[derive(Debug, Clone)]
pub struct BitonicPoint {
    bsp: BspParams,
    m: u32,
}

impl Study for BitonicStudy {
    type Params = BitonicParams;
    type Point = BitonicPoint;
    type Row = BitonicRow;

    fn name(&self) -> &'static str {
        "bsp-bitonic"
    }
    fn about(&self) -> &'static str {
        "bitonic sort executed on the BSP engine: measured cost vs its closed form"
    }
    fn point(&self, params: &BitonicParams) -> Result<BitonicPoint, ModelError> {
        if !(1..=20).contains(&params.log_p) {
            return Err(ParamError::new("log_p", "1 <= log_p <= 20", params.log_p).into());
        }
        if params.m == 0 {
            return Err(ParamError::new("m", "m >= 1", params.m).into());
        }
        // The sort's blocks, as `bsp-sort` measured them (2^20 processors with 4096 keys each
        // would need 300 GB).
        let keys = (1u64 << params.log_p) * u64::from(params.m);
        let estimate = memory_estimate(SortAlgorithm::Bitonic, 1 << params.log_p, keys);
        check("m", estimate, DEFAULT_MEMORY, "bytes (estimated)")?;
        let bsp = BspParams::new(Bsp { p: 1 << params.log_p, g: params.g, l: params.l })?;
        Ok(BitonicPoint { bsp, m: params.m })
    }
    fn run(&self, point: &BitonicPoint, rng: &mut SimRng) -> Result<Vec<BitonicRow>, ModelError> {
        let p = point.bsp.p();
        let m = point.m;
        let blocks: Vec<Vec<u64>> =
            (0..p).map(|_| (0..m).map(|_| rng.random::<u64>()).collect()).collect();
        let mut reference: Vec<u64> = blocks.iter().flatten().copied().collect();
        reference.sort_unstable();
        let mut machine = BspMachine::new(point.bsp.clone(), blocks)?;
        bitonic_sort(&mut machine)?;
        let cost = machine.cost();
        let (blocks, ledger) = machine.finish();
        let sorted: Vec<u64> = blocks.into_iter().flatten().collect();
        let stages = bitonic_stages(p);
        let (m, stages) = (f64::from(m), stages as f64);
        let (g, l) = (point.bsp.g() as f64, point.bsp.l() as f64);
        let bound =
            m * ceil_log2(u64::from(point.m)) as f64 + stages * (2.0 + g) * m + (stages + 1.0) * l;
        Ok(vec![BitonicRow {
            p,
            supersteps: ledger.supersteps(),
            messages: ledger.messages(),
            cost,
            bound,
            ratio: cost / bound,
            verified: sorted == reference,
        }])
    }
    fn claims(&self) -> Vec<Claim> {
        // The engine against its own closed form: an identity, a regression check.
        vec![
            Claim::within(
                "measured cost / closed form = 1 (the engine charges exactly w + g h + l)",
                "ratio",
                1.0,
                1.0,
            )
            .consistency(),
        ]
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("log_p", "log2 of the processor count p"),
            Column::new("m", "keys per processor m"),
            Column::new("g", "BSP gap g (time units per message)"),
            Column::new("l", "BSP latency l (time units per superstep)"),
            Column::new("p", "processors p"),
            Column::new("supersteps", "supersteps executed"),
            Column::new("messages", "messages sent in total"),
            Column::new("cost", "measured BSP cost (time units)"),
            Column::new("bound", "closed-form BSP cost of bitonic sort (time units)"),
            Column::new("ratio", "measured cost / closed form"),
        ]
    }

    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new(
                "cost",
                "bitonic sort: measured BSP cost and closed form",
                "log_p",
                &["cost", "bound"],
            )
            .series("m")
            .log_y()
            .bound("bound"),
            Plot::new("ratio", "bitonic sort: measured / closed form", "log_p", &["ratio"])
                .series("m"),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 70 bytes per key: 2^20 processors with 58 keys each need 70 * 58 * 2^20 = 4,257,218,560
    /// bytes, below the 4 GiB limit (4,294,967,296); with 59 keys 4,330,618,880, past it.
    #[test]
    fn refuses_past_the_memory_limit() {
        let point = |m| BitonicStudy.point(&BitonicParams { log_p: 20, m, g: 1, l: 1 });
        assert!(point(58).is_ok());
        let err = point(59).unwrap_err().to_string();
        assert!(err.contains("m is too large") && err.contains("4330618880"), "{err}");
    }
}
