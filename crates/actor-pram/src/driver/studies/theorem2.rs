//! Study `actor-pram-theorem2`: the butterfly translation on actors as the butterfly grows
//! (Baude, Section 5, Theorem 2: actor time `O(T log n)` with high probability with `O(S)`
//! actors; Property 1 of the Appendix: the cadenced actor run of a pass of `R` lockstep
//! rounds has actor time between `R` and `4R + 1` plus the hand-offs outside the rounds,
//! `butterfly::pass_budget`). Each row runs a library program of size
//! `2^floor(log2 N)` on the butterfly of dimension `n` (`N = n · 2^n` routers, one PPU per
//! router at most), every global step served by actors and checked against the lockstep
//! router; the input, hash seed and (random) scheduler seed come from the row's stream, so
//! the sweep's seeds are the random placements. Every row also runs the program as one actor
//! system with its passes overlapping (Choice 22) and gives that actor time next to the
//! barrier measure.

use netcore::pram::Limits;
use netcore::pram::library::Algorithm;
use netcore::rng::SimRng;
use netcore::study::{Claim, Column, Law, ModelError, ParamError, Plot, Study, Verdict};
use rand::Rng;
use serde::{Deserialize, Serialize};

use super::axis::SchedulerAxis;
use super::{THEOREM2_BAND, log_more, sqrt_log_more};
use crate::actor::{Search, deepest_of};
use crate::butterfly::{ButterflyConfig, MAX_DELAY_DIM, Steps, simulate_butterfly_actors};
use crate::hash::{HashFamily, KeyOrder};
use crate::ranade::Buffers;

/// The study.
#[derive(Debug, Clone, Copy, Default)]
pub struct Theorem2;

fn default_b() -> u32 {
    2
}

fn default_combining() -> bool {
    true
}

/// One point.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Theorem2Params {
    /// Butterfly dimension, `2..=MAX_N`.
    pub n: u32,
    /// A library program.
    pub program: Algorithm,
    /// The delivery order of every step's actor run.
    pub scheduler: SchedulerAxis,
    /// Buffer capacity, `1..=64` (default 2).
    #[serde(default = "default_b")]
    pub b: u32,
    /// Combining (default true). The default grid adds hot-spot rows without it, where a
    /// host takes `N` packets and Property 1's hand-offs are longest (Choice 28); every
    /// claim but correctness, the overlapping run and Property 1 reads the combining rows.
    #[serde(default = "default_combining")]
    pub combining: bool,
    /// Greedy/priority restarts of the delivery-order search (`actor::Search`, Choice 2);
    /// 0 (default): no search. At most 16; the search runs only for `n <= 4` (each restart
    /// is a whole run again, with an O(k) pick for the greedy ones), rows above have
    /// `searched = false`.
    #[serde(default)]
    pub restarts: u32,
}

/// The largest `n` the search runs on.
pub const SEARCH_MAX_N: u32 = 4;

/// The largest butterfly dimension a row can run within its memory limit (the runtime's
/// default 1 GiB): at `n = 12` the permutation read (`S = 2^15`) takes about 0.42 GB, at
/// `n = 13` the run's estimate is 1.79 GB and the run is refused (`docs/models/actor-pram.md`,
/// Limits).
pub const MAX_N: u32 = 12;

/// The least `n` whose rows without combining trace Theorem 3's delay sequences: the hot
/// spot's first pass is slow from `n = 4` on (at `n = 3` its 16 PPUs on 24 routers take
/// 201-223 actor time for both passes, below the slow threshold `(7d + 1) 4 = 144` for
/// each), so a traced row without a slow pass fails the claim instead of passing it empty.
pub const DELAY_MIN_N: u32 = 4;

/// A validated point.
#[derive(Debug, Clone)]
pub struct Theorem2Point {
    params: Theorem2Params,
    size: u32,
}

/// One row.
#[derive(Debug, Clone, Serialize)]
pub struct Theorem2Row {
    /// Routers `N = n · 2^n`.
    pub routers: u32,
    /// The program's size `2^floor(log2 N)`.
    pub size: u32,
    /// PRAM time.
    #[serde(rename = "T")]
    pub t: u64,
    /// PRAM global steps.
    #[serde(rename = "G")]
    pub g: u64,
    /// Actor time of the whole program (`(T − G) + Σ` steps, Choice 22).
    pub actor_time: u64,
    /// `actor_time / (T · log2 N)` (Theorem 2: levels off).
    pub actor_time_over_t_log_n: f64,
    /// `(actor_time − T) / (G · (3n − 1))`: the steps' extra depth over the empty pass.
    pub step_over_3n_1: f64,
    /// Mean forward rounds per pass over `3n − 1`.
    pub fwd_ratio: f64,
    /// Mean lockstep rounds per pass `R_fwd + R_rev` over `3n − 1` (the decomposition's
    /// routing factor, Theorem 2).
    pub rounds_per_pass_over_3n_1: f64,
    /// Passes per global step (1 with one PPU per router; the decomposition's third factor).
    pub passes_per_step: f64,
    /// The steps' actor time over their lockstep rounds: the actor-time depth of a round
    /// (Property 1: at most `4 + 1/R` for the rounds alone, plus the hand-offs).
    pub per_round: f64,
    /// The least pass's actor time over its rounds `R = R_fwd + R_rev`.
    pub pass_per_round_min: f64,
    /// The greatest.
    pub pass_per_round_max: f64,
    /// Every pass's actor time in `[R, pass_budget]` (Property 1, the Appendix's cadence
    /// `4R + 1` plus the hand-offs: `butterfly::pass_budget`; `[R, 4R + 1]` before).
    pub cadence: bool,
    /// The greatest `A − (4R + 1)` of a pass (positive: the hand-offs took it past the
    /// cadence alone).
    pub max_over_cadence: i64,
    /// Events over all steps.
    pub events: u64,
    /// `events / (G · S · log2 N)`: the actor program's operations per PRAM access over
    /// `log2 N` (Section 6: at least a logarithmic increase in operations).
    pub events_per_access_over_log_n: f64,
    /// Actors of one step.
    pub actors: u64,
    /// The overlapping run's actors (the whole program as one actor system) over `N`
    /// (Theorem 2: `O(S(n))` actors, a constant per router).
    pub actors_per_router: f64,
    /// Actor time of the overlapping run (one actor system, its DAG depth; Choice 22).
    pub overlap_actor_time: u64,
    /// `overlap_actor_time / (T · log2 N)`.
    pub overlap_over_t_log_n: f64,
    /// `overlap_actor_time / actor_time`.
    pub overlap_ratio: f64,
    /// `overlap_actor_time <= actor_time`.
    pub overlap_le_barrier: bool,
    /// Equal to the reference, every step equal to the lockstep router's.
    pub verified: bool,
    /// The search ran (`restarts > 0`).
    pub searched: bool,
    /// The deepest barrier-measure actor time the search found (FIFO, LIFO, max-depth and
    /// the restarts; Definition 1's maximum from below), with `restarts > 0`.
    pub deepest_actor_time: Option<u64>,
    /// `deepest_actor_time / (T · log2 N)`.
    pub deepest_over_t_log_n: Option<f64>,
    /// `deepest_actor_time` over FIFO's.
    pub deepest_over_fifo: Option<f64>,
    /// Theorem 3's delay sequences were traced: the rows without combining (the hot spot,
    /// whose passes are slow) with `DELAY_MIN_N <= n <= MAX_DELAY_DIM` (Choice 28).
    pub traced: bool,
    /// Traced rows: the passes of at least `(7d + 1) 4` actor time (slow, Theorem 3).
    pub slow_passes: Option<u64>,
    /// Traced rows: some pass is slow, and on every slow pass the delay sequence's path of
    /// at most `8d` edges carries at least `min(delta, b d)` polarised messages (Theorem 3).
    pub delay_holds: Option<bool>,
}

impl Study for Theorem2 {
    type Params = Theorem2Params;
    type Point = Theorem2Point;
    type Row = Theorem2Row;

    fn name(&self) -> &'static str {
        "actor-pram-theorem2"
    }
    fn about(&self) -> &'static str {
        "Theorem 2 and Property 1: library programs through the butterfly translation on actors; actor_time / (T log2 N) as n grows, every pass within [R, 4R + 1 + hand-offs]"
    }
    fn point(&self, p: &Theorem2Params) -> Result<Theorem2Point, ModelError> {
        if !(2..=MAX_N).contains(&p.n) {
            return Err(ParamError::new("n", format!("2 <= n <= {MAX_N}"), p.n).into());
        }
        if !(1..=64).contains(&p.b) {
            return Err(ParamError::new("b", "1 <= b <= 64", p.b).into());
        }
        if p.restarts > 16 {
            return Err(ParamError::new("restarts", "restarts <= 16", p.restarts).into());
        }
        let routers = p.n << p.n;
        let size = 1u32 << routers.ilog2();
        p.program.check_size(size)?;
        Ok(Theorem2Point { params: p.clone(), size })
    }
    fn run(&self, p: &Theorem2Point, rng: &mut SimRng) -> Result<Vec<Theorem2Row>, ModelError> {
        let n = p.params.n;
        let instance = p.params.program.instance(p.size, rng.next_u64())?;
        let config = ButterflyConfig {
            dim: Some(n),
            b: Buffers::Slots(p.params.b),
            hash: HashFamily::Poly,
            keys: KeyOrder::Ranked,
            hash_seed: rng.next_u64(),
            steps: Steps::Overlapping,
            combining: p.params.combining,
            // Theorem 3's delay sequences on the rows whose passes are slow (Choice 28).
            delay_sequence: !p.params.combining && (DELAY_MIN_N..=MAX_DELAY_DIM).contains(&n),
            ..ButterflyConfig::default()
        };
        let scheduler = p.params.scheduler.scheduler(rng);
        let r = simulate_butterfly_actors(
            &instance.program,
            &instance.input,
            &config,
            scheduler,
            &Limits::default(),
        )?;
        let a = r.actor.ok_or_else(|| {
            ModelError::from(crate::error::Error::Mismatch {
                program: p.params.program.name().to_string(),
                what: "an actor run without actor measures".into(),
            })
        })?;
        let o = a.overlapping.as_ref().ok_or_else(|| {
            ModelError::from(crate::error::Error::Mismatch {
                program: p.params.program.name().to_string(),
                what: "an overlapping run without its measures".into(),
            })
        })?;
        let output_ok = r.memory.get(instance.output.clone()) == Some(&instance.expected[..]);
        let empty = f64::from(3 * n - 1);
        // Drawn after the row's own seeds, so that the rows without a search are unchanged.
        let deepest = if p.params.restarts > 0 && n <= SEARCH_MAX_N {
            let search = Search { restarts: p.params.restarts, seed: rng.next_u64() };
            Some(deepest_of(&search, |sched| -> Result<u64, ModelError> {
                let r = simulate_butterfly_actors(
                    &instance.program,
                    &instance.input,
                    &config,
                    sched,
                    &Limits::default(),
                )?;
                Ok(r.actor.map_or(0, |a| a.actor_time))
            })?)
        } else {
            None
        };
        let t_log_n = r.pram.t.max(1) as f64 * f64::from(r.routers.max(2)).log2();
        Ok(vec![Theorem2Row {
            routers: r.routers,
            size: p.size,
            t: r.pram.t,
            g: r.pram.g,
            actor_time: a.actor_time,
            actor_time_over_t_log_n: a.actor_time_over_t_log_n,
            step_over_3n_1: a.actor_time.saturating_sub(r.pram.t) as f64
                / (r.pram.g.max(1) as f64 * empty),
            fwd_ratio: r.fwd_over_3n_1,
            rounds_per_pass_over_3n_1: r.rounds_per_pass / empty,
            passes_per_step: r.passes as f64 / r.pram.g.max(1) as f64,
            per_round: a.actor_time_per_round,
            pass_per_round_min: a.pass_per_round_min,
            pass_per_round_max: a.pass_per_round_max,
            cadence: a.cadence,
            max_over_cadence: a.max_over_cadence,
            events: a.events,
            events_per_access_over_log_n: a.events as f64
                / (r.pram.g.max(1) as f64 * f64::from(p.size) * f64::from(r.routers.max(2)).log2()),
            actors: a.actors,
            actors_per_router: o.actors as f64 / f64::from(r.routers.max(1)),
            overlap_actor_time: o.actor_time,
            overlap_over_t_log_n: o.actor_time_over_t_log_n,
            overlap_ratio: o.actor_time as f64 / a.actor_time.max(1) as f64,
            overlap_le_barrier: o.actor_time <= a.actor_time,
            verified: r.verified && output_ok,
            searched: deepest.is_some(),
            deepest_actor_time: deepest.map(|d| d.actor_time),
            deepest_over_t_log_n: deepest.map(|d| d.actor_time as f64 / t_log_n),
            deepest_over_fifo: deepest
                .map(|d| d.actor_time as f64 / d.fifo_actor_time.max(1) as f64),
            traced: r.delay.is_some(),
            slow_passes: r.delay.as_ref().map(|d| d.slow),
            delay_holds: r.delay.as_ref().map(|d| d.slow > 0 && d.hold == d.slow),
        }])
    }
    fn claims(&self) -> Vec<Claim> {
        let mut claims = vec![
            Claim::all_true(
                "equal to the reference; every step equal to the lockstep router",
                "verified",
            )
            .correctness(),
            // What the grid shows, not a guarantee: every pass of the overlapping run equal to
            // the lockstep router's is enforced by the run itself (a `Mismatch` error), but
            // "at most the barrier measure" is not proved; a serialized actor's handling
            // order can put the overlapping run above it (the fetch-add counter with 64 PPUs
            // on n = 3 under max-depth, pid fetch order, destination-major keys: 803 against
            // 801, fixture overlap-above-barrier.toml). It was a CONSISTENCY claim before,
            // which would have reported such a legitimate run as a bug.
            Claim::all_true(
                "the overlapping run (one actor system, Choice 22) is at most the barrier measure on every row of this grid (measured, not proved: it can be above, Choice 22's counterexample)",
                "overlap_le_barrier",
            )
            .illustration(),
            // The band was [R, 4R + 1], the cadence alone, before; a pass also holds the
            // hand-offs the lockstep rounds do not count (injection, the host exchange, the
            // reply Ticks), and the hot spot without combining went past 4R + 1 (355 against
            // 353 at n = 4). The budget adds each hand-off's derived cost
            // (`butterfly::pass_budget`), and the grid's combining-off rows exercise it.
            Claim::all_true(
                "Property 1 (the Appendix's cadence, a constant-time loss over the synchronous routing): every pass's actor time A lies in [R, 4R + 1 + (k + 1) + 3B + ceil(B/7) + 2k + 2], R its lockstep rounds, k PPUs per router, B = floor(a/4) + 3 for a arrivals at one host (the cadence plus the hand-offs, Choice 28)",
                "cadence",
            )
            .bound()
            .of("Property 1"),
            // Theorem 3 on the runs where it has something to say: the hot spot without
            // combining, whose first pass is slow (DELAY_MIN_N), traced back from its most
            // delayed message (Choice 28); a traced row without a slow pass fails the claim.
            Claim::all_true(
                "Theorem 3 (Appendix): on the hot-spot rows without combining, 4 <= n <= 7, some pass is slow (actor time at least (7d + 1) 4, d = 2n - 1) and on every slow pass the delay sequence traced back from its most delayed message runs along a path of at most 8d edges carrying at least min(delta, b d) polarised messages",
                "delay_holds",
            )
            .only("traced", true)
            .bound()
            .of("Theorem 3"),
            // The band is the permutation study's [1, 3]: it was [1, 2.5] until the review of
            // 2026-12-02, set just under the log^1.5 N rival (2.57) after the measurement,
            // which made the verdict hang on where the band was drawn.
            Claim::within(
                "Theorem 2 (routing in O(log N) rounds): forward rounds per pass / (3n - 1) stays within [1, 3] (measured 1.40-2.14 on n = 2..6, up to 2.38 at n = 8; the rival log^2 N spreads x2.9, log^1.5 N stays inside)",
                "fwd_ratio",
                1.0,
                3.0,
            )
            .only("combining", true)
            .result(Law::new("log N rounds (constant ratio)"))
            .rival(sqrt_log_more("log^1.5 N rounds"))
            .rival(log_more("log^2 N rounds"))
            .of("Theorem 2")
            .expect(Verdict::Inconclusive, "docs/models/actor-pram.md#theorem-2-routing-rounds"),
            // The theorem's other half, checked on the run of the whole program as one actor
            // system (the overlapping run, Choice 22), so that actors made anew per step or
            // per packet would show: the paper's four actors per butterfly node (Section 5's
            // proof), here one per virtual node of the levelled network (Choices 12 and 18:
            // (3n - 1) 2^n of them), N hosts, N hash actors and S <= N PPUs, counted in the
            // run's arena at its end. It holds by the construction, which is the paper's
            // argument, so it is a CONSISTENCY check of the construction, not a measurement
            // that could have come out otherwise.
            Claim::slope(
                "Theorem 2's O(S(n)) actors: the actors of the whole program (one actor system) per router (N, the paper's S(n) butterfly nodes) change by at most 0.145 of their level per doubling of n (measured 0.014-0.023 on n = 2..9; the rival O(N log N) actors scores about 0.54-0.59)",
                "actors_per_router",
                "n",
                -THEOREM2_BAND,
                THEOREM2_BAND,
            )
            .only("combining", true)
            .result(Law::new("O(N) actors (constant per router)"))
            .rival(log_more("O(N log N) actors"))
            .consistency()
            .of("Theorem 2"),
        ];
        // Section 6's remark is about every translation of an unpredictable program, so our
        // construction's count only illustrates it. It pays more than the log factor: every
        // virtual node works in every round (ghosts, Choice 13), and the rounds per pass over
        // 3n - 1 still creep (Theorem 2 routing rounds).
        claims.push(
            Claim::grows(
                "Section 6's logarithmic increase in operations, on this construction: the actor program's events per PRAM access over log2 N do not fall as n grows (at least x1 from the smallest to the largest n; measured x2.6-2.7 on n = 2..9, x2.6 on n = 2..6: more than a log factor here; the rival, a constant number of operations per access, falls like 1/log2 N)",
                "events_per_access_over_log_n",
                "n",
                1.0,
            )
            .only("combining", true)
            .result(Law::new("log N operations per access"))
            .rival(Law::new("O(1) operations per access (log2 N less)").log2("routers", -1.0))
            .illustration()
            .of("Remark (Section 6, logarithmic increase in operations)"),
        );
        claims.extend(decomposition());
        claims.extend(theorem2_slopes());
        claims.push(
            Claim::within(
                "the overlapping run saves a few percent of the barrier measure on the project's own construction (Choice 22): overlap_actor_time / actor_time within [0.8, 1] (measured 0.88-0.98 for n = 2..6)",
                "overlap_ratio",
                0.8,
                1.0,
            )
            .only("combining", true)
            .illustration(),
        );
        claims
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("n", "butterfly dimension n (levels)"),
            Column::new("program", "a library program"),
            Column::new("scheduler", "the delivery order of every step's actor run"),
            Column::new("b", "buffer capacity b (packets per edge)"),
            Column::new("combining", "combine requests for one cell"),
            Column::new("routers", "routers N = n · 2^n"),
            Column::new("size", "the program's size 2^floor(log2 N)"),
        ]
        .into_iter()
        .chain(super::pram_cost_columns())
        .chain([
            Column::new(
                "actor_time",
                "actor time of the whole program ((T − G) + Σ steps, Choice 22)",
            ),
            Column::new(
                "actor_time_over_t_log_n",
                "actor_time / (T · log2 N) (Theorem 2: levels off)",
            ),
            Column::new(
                "step_over_3n_1",
                "(actor_time − T) / (G · (3n − 1)): the steps' extra depth over the empty pass",
            ),
            Column::new("fwd_ratio", "mean forward rounds per pass over 3n − 1"),
            Column::new(
                "rounds_per_pass_over_3n_1",
                "mean lockstep rounds per pass (forward + reverse) over 3n − 1",
            ),
            Column::new("passes_per_step", "passes per global step"),
            Column::new(
                "per_round",
                "depth per round: the steps' actor time over their lockstep rounds (actor-time units per round)",
            ),
            Column::new(
                "pass_per_round_min",
                "the least pass's actor time over its rounds R = R_fwd + R_rev",
            ),
            Column::new(
                "pass_per_round_max",
                "the greatest pass's actor time over its rounds R = R_fwd + R_rev",
            ),
            Column::new(
                "cadence",
                "every pass's actor time A in [R, 4R + 1 + (k + 1) + 3B + ceil(B/7) + 2k + 2], B = floor(a/4) + 3 (Property 1's cadence plus the hand-offs, Choice 28)",
            ),
            Column::new(
                "max_over_cadence",
                "the greatest A − (4R + 1) of a pass (positive: past the cadence alone)",
            ),
            Column::new("events", "events over all steps"),
            Column::new(
                "events_per_access_over_log_n",
                "events / (G · S · log2 N): the actor program's operations per PRAM access over log2 N",
            ),
            Column::new("actors", "actors of one step"),
            Column::new(
                "actors_per_router",
                "actors of the whole program's one actor system (the overlapping run) per router",
            ),
            Column::new(
                "overlap_actor_time",
                "actor time of the overlapping run: one actor system, its DAG depth (Choice 22)",
            ),
            Column::new("overlap_over_t_log_n", "overlap_actor_time / (T · log2 N)"),
            Column::new("overlap_ratio", "overlap_actor_time / actor_time"),
            Column::new("overlap_le_barrier", "overlap_actor_time <= actor_time"),
            Column::new(
                "verified",
                "equal to the reference, every step equal to the lockstep router's",
            ),
            Column::new("restarts", "restarts of the delivery-order search (0: none)"),
            Column::new("searched", "the search ran (restarts > 0)"),
            Column::new(
                "deepest_actor_time",
                "the deepest barrier-measure actor time found (FIFO, LIFO, max-depth, restarts; Choice 2)",
            ),
            Column::new("deepest_over_t_log_n", "deepest_actor_time / (T · log2 N)"),
            Column::new("deepest_over_fifo", "deepest_actor_time over FIFO's"),
            Column::new(
                "traced",
                "Theorem 3's delay sequences traced (no combining, 4 <= n <= 7; Choice 28)",
            ),
            Column::new(
                "slow_passes",
                "traced rows: passes of at least (7d + 1) 4 actor time, d = 2n - 1",
            ),
            Column::new(
                "delay_holds",
                "traced rows: some pass is slow, and every slow pass has a path of at most 8d edges with at least min(delta, b d) polarised messages",
            ),
        ])
        .collect()
    }

    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new(
                "actor-time",
                "butterfly translation on actors: actor time / (T log2 N)",
                "n",
                &["actor_time_over_t_log_n", "overlap_over_t_log_n"],
            )
            .series("program")
            .only("scheduler", "fifo"),
            Plot::new(
                "rounds-per-pass",
                "Theorem 2 taken apart, the routing factor (FIFO): lockstep rounds per pass / (3n - 1)",
                "n",
                &["rounds_per_pass_over_3n_1"],
            )
            .series("program")
            .only("scheduler", "fifo"),
            Plot::new(
                "depth-per-round",
                "Theorem 2 taken apart, the cadence factor (FIFO): actor-time depth per lockstep round",
                "n",
                &["per_round"],
            )
            .series("program")
            .only("scheduler", "fifo"),
            Plot::new(
                "per-round",
                "actor time per lockstep round (Property 1: 4 + 1/R per pass for the rounds alone, plus the hand-offs)",
                "n",
                &["pass_per_round_min", "pass_per_round_max"],
            )
            .series("program")
            .only("scheduler", "fifo"),
        ]
    }
}

/// Theorem 2's actor time taken apart (Section 5): `actor_time − (T − G)` is the passes
/// times the rounds per pass times the depth per round, so `actor_time / (T log2 N)` is
/// about `(G / T) · passes_per_step · (rounds_per_pass / (3n − 1)) · depth_per_round ·
/// (3n − 1) / log2 N`; each factor against its own limit.
fn decomposition() -> Vec<Claim> {
    let constant = |what: &str| Law::new(&format!("{what} (constant)"));
    let band = THEOREM2_BAND;
    vec![
        Claim::slope(
            "Theorem 2's routing factor: lockstep rounds per pass (forward + reverse) / (3n - 1) changes by at most 0.145 of its level per doubling of n (halfway to the nearest rival sqrt(log2 N) more, 0.295 on n = 2..9; log2 N more 0.54)",
            "rounds_per_pass_over_3n_1",
            "n",
            -band,
            band,
        )
        .only("combining", true)
        .result(constant("O(log N) rounds per pass"))
        .rival(sqrt_log_more("log^1.5 N rounds per pass"))
        .rival(log_more("log^2 N rounds per pass"))
        .of("Theorem 2")
        .expect(Verdict::NotReproduced, "docs/models/actor-pram.md#theorem-2-routing-rounds"),
        Claim::slope(
            "Theorem 2's cadence factor: depth per round (the steps' actor time over their lockstep rounds) changes by at most 0.145 of its level per doubling of n (halfway to the nearest rival sqrt(log2 N) more, 0.295 on n = 2..9; log2 N more 0.54; Property 1's cadence gives 4 + 1/R for the rounds alone, the hand-offs add to it)",
            "per_round",
            "n",
            -band,
            band,
        )
        .only("combining", true)
        .result(constant("O(1) depth per round"))
        .rival(sqrt_log_more("sqrt(log N) depth per round"))
        .rival(log_more("log N depth per round"))
        .of("Theorem 2"),
        // One pass per step holds by construction, not by the paper's argument: the rows
        // run pipelined, where `Multiplex::passes` makes one pass of every step whatever S
        // (and S <= N here anyway, so Section 5's remark on S(n) > p does not arise). A
        // CONSISTENCY check that the decomposition's third factor is the constant it is
        // built to be, not a reproduction of Theorem 2 (it was an exact claim before).
        Claim::within(
            "the decomposition's step factor: one pass per global step on every row (by construction: one PPU per router at most, S <= N, pipelined)",
            "passes_per_step",
            1.0,
            1.0,
        )
        .consistency()
        .of("Theorem 2"),
    ]
}

/// Theorem 2 itself: the ratios of actor time to `T log2 N` against the rivals `T log^1.5 N`
/// and `T log^2 N`, scored by the referee on the same grid.
fn theorem2_slopes() -> Vec<Claim> {
    let laws = |claim: Claim| {
        claim
            .only("combining", true)
            .result(Law::new("T log N (constant ratio)"))
            .rival(sqrt_log_more("T log^1.5 N"))
            .rival(log_more("T log^2 N"))
            .of("Theorem 2")
    };
    let band = THEOREM2_BAND;
    vec![
        laws(Claim::slope(
            "Theorem 2: actor_time / (T log2 N) changes by at most 0.145 of its level per doubling of n (halfway to the nearest rival T log^1.5 N, which scores 0.295 on n = 2..9 and 0.315 on n = 2..6; T log^2 N scores 0.540 and 0.592)",
            "actor_time_over_t_log_n",
            "n",
            -band,
            band,
        ))
        .expect(Verdict::NotReproduced, "docs/models/actor-pram.md#theorem-2-at-small-n"),
        laws(Claim::slope(
            "Theorem 2 for the overlapping run (the whole program, Choice 22): overlap_actor_time / (T log2 N) changes by at most 0.145 of its level per doubling of n (rivals as above)",
            "overlap_over_t_log_n",
            "n",
            -band,
            band,
        ))
        .expect(Verdict::NotReproduced, "docs/models/actor-pram.md#theorem-2-at-small-n"),
        laws(Claim::slope(
            "Theorem 2 per global step: (actor_time - T) / (G (3n - 1)), a step's depth over the empty pass's rounds, changes by at most 0.145 of its level per doubling of n (rivals as above)",
            "step_over_3n_1",
            "n",
            -band,
            band,
        ))
        .expect(Verdict::NotReproduced, "docs/models/actor-pram.md#theorem-2-at-small-n"),
        Claim::within(
            "Definition 1's maximum from below (Choice 2): the deepest order the search finds (FIFO, LIFO, max-depth, greedy and priority restarts; rows with restarts > 0, n <= 4) is at least FIFO's and within 1.5 times it (measured 1.008-1.088 with 4 restarts)",
            "deepest_over_fifo",
            1.0,
            1.5,
        )
        .only("searched", true)
        .only("combining", true)
        .consistency(),
        laws(
            Claim::slope(
                "Theorem 2 with the deepest order found (rows with restarts > 0, n <= 4): deepest_actor_time / (T log2 N) changes by at most 0.145 of its level per doubling of n (rivals as above)",
                "deepest_over_t_log_n",
                "n",
                -band,
                band,
            )
            .only("searched", true),
        )
        .expect(Verdict::NotReproduced, "docs/models/actor-pram.md#theorem-2-at-small-n"),
    ]
}
