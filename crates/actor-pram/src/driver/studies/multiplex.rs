//! Study `actor-pram-multiplex`: Section 5's remark on `S(n) > p`, scaled in `S / N`. Each
//! node of the `N`-router butterfly hosts `k = S / N` PPU actors (exactly: `S = k N`), and
//! one library program instance runs on actors in both multiplex modes (Choice 23) on the
//! same placement: `sequential`, the remark's construction (the simulation of a step applied
//! `S / N` times, one pass per PPU of a router), and `pipelined` (one pass whose injection
//! queues hold all `k` packets of a router), one reading of the "pipeline effect" the remark
//! hopes for (within a step; \[Ran89\]'s lookahead overlaps successive steps, which the
//! `steps = "overlapping"` run does, Choice 22). Actor times are per PRAM global step (`G`).
//! The `kN` packets of a step cross `Θ(log N)` edges each, so no schedule of this placement
//! beats `Θ(k log N)` per step (`pipe_over_congestion`): the pipeline can gain a constant
//! factor only, and the claims say so.

use netcore::pram::Cost;
use netcore::pram::library::Algorithm;
use netcore::rng::SimRng;
use netcore::study::{Claim, Column, Law, ModelError, ParamError, Plot, Study};
use rand::Rng;
use serde::{Deserialize, Serialize};

use super::theorem2::MAX_N;
use crate::butterfly::ButterflyConfig;
use crate::hash::{HashFamily, KeyOrder};
use crate::ranade::{Buffers, Multiplex};

/// The study.
#[derive(Debug, Clone, Copy, Default)]
pub struct MultiplexStudy;

/// One point.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MultiplexParams {
    /// Butterfly dimension, `2..=MAX_N` (the run's memory and work estimates refuse a
    /// point too large for the actor runtime before it allocates).
    pub n: u32,
    /// PPUs per router `k = S / N`, `1..=64`.
    pub k: u32,
    /// A library program (any size `S = k N` it accepts).
    pub program: Algorithm,
}

/// A validated point.
#[derive(Debug, Clone)]
pub struct MultiplexPoint {
    params: MultiplexParams,
    routers: u32,
    size: u32,
}

/// One row.
#[derive(Debug, Clone, Serialize)]
pub struct MultiplexRow {
    /// Routers `N = n · 2^n`.
    pub routers: u32,
    /// PPUs `S = k N`.
    pub size: u32,
    /// PRAM global steps.
    #[serde(rename = "G")]
    pub g: u64,
    /// `k + log2 N`: the rival's law for a pipelined step (a step whose `k` packets per router
    /// pipeline behind one `log N` latency).
    pub k_plus_log_n: f64,
    /// Passes of the sequential run (`k` per global step).
    pub seq_passes: u64,
    /// Passes of the pipelined run (one per global step).
    pub pipe_passes: u64,
    /// Lockstep rounds (forward + reverse) per global step, sequential.
    pub seq_rounds_per_step: f64,
    /// Lockstep rounds (forward + reverse) per global step, pipelined.
    pub pipe_rounds_per_step: f64,
    /// Actor time per global step, sequential.
    pub seq_time_per_step: f64,
    /// Actor time per global step, pipelined.
    pub pipe_time_per_step: f64,
    /// `seq_time_per_step / k`: one application's share of the sequential step.
    pub seq_time_over_k: f64,
    /// `pipe_time_per_step / (k + log2 N)`.
    pub pipe_time_over_k_plus_log_n: f64,
    /// `seq_time_per_step / pipe_time_per_step`: the pipeline effect.
    pub seq_over_pipe: f64,
    /// The pipelined run's rounds over its edge-congestion bound `hops / E`, `E = (3n − 2)
    /// 2^(n+1)` the edges of the levelled network (Choice 12: every edge carries at most one
    /// slot per round, in the forward and in the reverse pass), at least 1.
    pub pipe_over_congestion: f64,
    /// Both runs equal the reference and the program's expected output.
    pub verified: bool,
}

/// One run's measures.
struct Measured {
    cost: Cost,
    passes: u64,
    rounds: u64,
    hops: u64,
    actor_time: u64,
    verified: bool,
}

fn measure(
    program: Algorithm,
    instance: &netcore::pram::library::Instance,
    config: &ButterflyConfig,
) -> Result<Measured, ModelError> {
    let (r, actors, verified) = super::fifo_actor_run(program, instance, config)?;
    Ok(Measured {
        cost: r.pram,
        passes: r.passes,
        rounds: r.rounds_fwd + r.rounds_rev,
        hops: r.hops,
        actor_time: actors.actor_time,
        verified,
    })
}

impl Study for MultiplexStudy {
    type Params = MultiplexParams;
    type Point = MultiplexPoint;
    type Row = MultiplexRow;

    fn name(&self) -> &'static str {
        "actor-pram-multiplex"
    }
    fn about(&self) -> &'static str {
        "Section 5's remark on S(n) > p: k = S/N PPU actors per router, the step applied k times (sequential) against one pipelined pass, on actors"
    }
    fn point(&self, p: &MultiplexParams) -> Result<MultiplexPoint, ModelError> {
        if !(2..=MAX_N).contains(&p.n) {
            return Err(ParamError::new("n", format!("2 <= n <= {MAX_N}"), p.n).into());
        }
        if !(1..=64).contains(&p.k) {
            return Err(ParamError::new("k", "1 <= k <= 64", p.k).into());
        }
        let routers = p.n << p.n;
        let size = routers * p.k;
        p.program.check_size(size)?;
        Ok(MultiplexPoint { params: p.clone(), routers, size })
    }
    fn run(&self, p: &MultiplexPoint, rng: &mut SimRng) -> Result<Vec<MultiplexRow>, ModelError> {
        let (alg, k) = (p.params.program, p.params.k);
        let instance = alg.instance(p.size, rng.next_u64())?;
        let pipelined = ButterflyConfig {
            dim: Some(p.params.n),
            b: Buffers::Slots(2),
            hash: HashFamily::Poly,
            keys: KeyOrder::Ranked,
            hash_seed: rng.next_u64(),
            multiplex: Multiplex::Pipelined,
            ..ButterflyConfig::default()
        };
        let sequential = ButterflyConfig { multiplex: Multiplex::Sequential, ..pipelined.clone() };
        let pipe = measure(alg, &instance, &pipelined)?;
        let seq = measure(alg, &instance, &sequential)?;
        if pipe.cost != seq.cost {
            return Err(crate::error::Error::Mismatch {
                program: alg.name().to_string(),
                what: format!("PRAM costs {:?} pipelined, {:?} sequential", pipe.cost, seq.cost),
            }
            .into());
        }
        if pipe.cost.g == 0 || pipe.hops == 0 {
            let rule = "a program with a global step (a step to multiplex)";
            return Err(ParamError::new("program", rule, alg.name()).into());
        }
        let g = pipe.cost.g as f64;
        let per_step = |x: u64| x as f64 / g;
        let k_plus_log_n = f64::from(k) + f64::from(p.routers).log2();
        let (seq_time, pipe_time) = (per_step(seq.actor_time), per_step(pipe.actor_time));
        let n = p.params.n;
        let edges = f64::from(3 * n - 2) * f64::from(1u32 << (n + 1));
        Ok(vec![MultiplexRow {
            routers: p.routers,
            size: p.size,
            g: pipe.cost.g,
            k_plus_log_n,
            seq_passes: seq.passes,
            pipe_passes: pipe.passes,
            seq_rounds_per_step: per_step(seq.rounds),
            pipe_rounds_per_step: per_step(pipe.rounds),
            seq_time_per_step: seq_time,
            pipe_time_per_step: pipe_time,
            seq_time_over_k: seq_time / f64::from(k),
            pipe_time_over_k_plus_log_n: pipe_time / k_plus_log_n,
            seq_over_pipe: seq_time / pipe_time,
            pipe_over_congestion: pipe.rounds as f64 * edges / pipe.hops as f64,
            verified: pipe.verified && seq.verified,
        }])
    }
    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim::all_true("both multiplex modes equal the reference", "verified").correctness(),
            Claim::slope(
                "the remark's construction: the sequential step applies the simulation k = S/N times, each application costing the same (seq_time_per_step / k: relative slope per doubling of k within [-0.15, 0.15])",
                "seq_time_over_k",
                "k",
                -0.15,
                0.15,
            )
            .result(Law::new("k applications of one pass (constant per application)"))
            .rival(Law::new("k + log N (pipelined)").pow("k_plus_log_n", 1.0).pow("k", -1.0))
            .consistency()
            .of("Remark (Section 5, S(n) > p)"),
            Claim::within(
                "every edge of the levelled network carries at most one slot per round: the pipelined rounds are at least the edge-congestion bound hops / E, E = (3n - 2) 2^(n+1) edges (pipe_over_congestion >= 1)",
                "pipe_over_congestion",
                1.0,
                f64::INFINITY,
            )
            .consistency(),
            Claim::grows(
                "the pipeline effect the remark hopes for, within a step: one pipelined pass is faster than k applications, seq_over_pipe grows x1.5 at least from k = 1 (both modes one pass, ratio 1) to the largest k (the rival, no pipeline effect, stays at 1)",
                "seq_over_pipe",
                "k",
                1.5,
            )
            .illustration()
            .of("Remark (Section 5, S(n) > p)"),
            // The finding: the kN packets cross Θ(log N) edges each, so both modes cost
            // Θ(k log N) per step and the pipeline gains a constant factor. It follows from
            // counting, so the claim can fail only the other way (a gain shrinking with N);
            // the rival is the pipeline the remark could be read to hope for.
            Claim::slope(
                "the pipeline effect is a constant factor: at each k, seq_over_pipe does not grow with N (relative slope per doubling of n within [-0.15, 0.15]); the kN packets of a step cross Θ(log N) edges each, so both modes cost Θ(k log N) per step and the remark's O(S/p) applications are tight up to a constant; the rival, a pipelined step in O(k + log N), would gain a factor growing like log N",
                "seq_over_pipe",
                "n",
                -0.15,
                0.15,
            )
            .result(Law::new("a constant factor (both Θ(k log N))"))
            .rival(
                Law::new("k log N against a pipelined O(k + log N) (a log N gain at large k)")
                    .pow("k", 1.0)
                    .log2("routers", 1.0)
                    .pow("k_plus_log_n", -1.0),
            )
            .illustration()
            .of("Remark (Section 5, S(n) > p)"),
        ]
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("n", "butterfly dimension n (levels)"),
            Column::new("k", "PPUs per router k = S / N"),
            Column::new("program", "a library program"),
            Column::new("routers", "routers N = n · 2^n"),
            Column::new("size", "PPUs S = k N"),
            Column::new("G", "PRAM global steps G"),
            Column::new("k_plus_log_n", "k + log2 N (the rival's law for a pipelined step)"),
            Column::new("seq_passes", "passes of the sequential run (k per global step)"),
            Column::new("pipe_passes", "passes of the pipelined run (one per global step)"),
            Column::new(
                "seq_rounds_per_step",
                "lockstep rounds (forward + reverse) per global step, sequential",
            ),
            Column::new(
                "pipe_rounds_per_step",
                "lockstep rounds (forward + reverse) per global step, pipelined",
            ),
            Column::new("seq_time_per_step", "actor time per global step, sequential"),
            Column::new("pipe_time_per_step", "actor time per global step, pipelined"),
            Column::new("seq_time_over_k", "seq_time_per_step / k"),
            Column::new("pipe_time_over_k_plus_log_n", "pipe_time_per_step / (k + log2 N)"),
            Column::new("seq_over_pipe", "seq_time_per_step / pipe_time_per_step"),
            Column::new(
                "pipe_over_congestion",
                "pipelined rounds over the edge-congestion bound hops / E, E = (3n - 2) 2^(n+1) edges of the levelled network (at least 1)",
            ),
            Column::new(
                "verified",
                "both runs equal the reference and the program's expected output",
            ),
        ]
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new(
                "time-per-step",
                "S > N: actor time per global step against PPUs per router",
                "k",
                &["seq_time_per_step", "pipe_time_per_step"],
            )
            .series("n")
            .log_x()
            .log_y(),
            Plot::new(
                "seq-over-pipe",
                "S > N: the pipeline effect, sequential / pipelined actor time",
                "k",
                &["seq_over_pipe"],
            )
            .series("n")
            .log_x(),
            Plot::new(
                "seq-over-pipe-by-n",
                "S > N: the pipeline effect against the butterfly's dimension, per k",
                "n",
                &["seq_over_pipe"],
            )
            .series("k"),
        ]
    }
}
