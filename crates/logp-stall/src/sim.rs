//! The cycle simulation of δ-LogP on BSP (paper §4, Theorem 2, Corollary 1), fully executed
//! on netcore's [`BspMachine`](netcore::bsp::BspMachine).
//!
//! BSP processor `B_i` runs the *same* [`LogpProcess`] code as LogP processor `P_i`, in
//! cycles of `C = max{G, δ}` steps. Each cycle (paper §4, steps 1-6, as supersteps; the BSP
//! implementation is `docs/models/logp-stall.md`, Choices):
//!
//! 1. `sim-local` (1 superstep): apply last cycle's notifications (step 5: `w_i`, and the undo
//!    when `δ < G`), take delivered messages into `Q_in(i)` and the share of the pool S, then
//!    simulate the next `C(k+1) - max{t_i, w_i}` steps of `P_i`: a submit appends to `Q_out(i)`,
//!    a receive pops `Q_in(i)`.
//! 2. `sort`: the config's sort ([`SortAlgorithm`]: bitonic or cascade) of `S ∪ ⋃ Q_out(i)`
//!    by `(destination, submission step, source)` ([`SortAlgorithm::supersteps`] counts its
//!    supersteps).
//! 3. `rank-scan`: a segmented prefix scan (binary or d-ary, [`Prefix`]) gives each message its rank `r` within its
//!    destination group; its delivery time is `C (k + ceil(r / ceil(L/G)))`, fixed at the
//!    first ranking (netcore's scan, [`scan_levels`]).
//! 4. `s-scan`: a prefix count of the retained messages (`r > ceil(L/G)`) and `|S|`.
//! 5. `route` (1 superstep): messages for cycle `k+1` go to `Q_in(dest)`; the others form S,
//!    evenly redistributed (`<= ceil(|S|/p)` per processor, step 6); the source of every
//!    message that newly entered S is notified of its delivery time.
//!
//! Step 5 of the paper then sets `w_i = t̄ + 1` (strict rule, `docs/models/logp-stall.md`,
//! Choices: strict unstall; `t̄` with
//! [`UnstallOffset::PaperLiteral`]) and, when `δ < G`, undoes the steps after the first submit
//! that ended in S. The simulated execution is returned as a [`crate::trace::Trace`] that passes
//! `check_legal` and that replays on the direct machine to identical final states.
//!
//! Restrictions (reported, not clamped; `docs/models/logp-stall.md`, Choices): `p` must be a
//! power of two (the bitonic sort), overhead mode `Folded` only, gap violations are errors.

pub mod bounds;
mod cycle;
mod exchange;
mod local;
mod node;
mod params;
mod record;
mod report;
mod sort;
pub mod superstep;
mod trace;
mod wire;
pub mod workload;

pub use bounds::{corollary1_delta_l, corollary1_delta1, theorem2_cycle_bound};
pub use netcore::bsp::primitives::{SortAlgorithm, scan_levels};
pub use params::{Prefix, SimConfig, UnstallOffset};
pub use report::{CycleStats, Judged, ReplayOutcome, SimEpisode, SimMessage, SimOp, SimReport};
pub use superstep::SimSuperstep;

use cycle::Sim;

use crate::LogpProcess;
use crate::error::Error;

/// Runs [`simulate`] and judges the run (see [`Judged`]).
pub fn simulate_and_judge<P: LogpProcess>(
    cfg: &SimConfig,
    procs: Vec<P>,
) -> Result<Judged<P::State>, Error> {
    let report = simulate(cfg, procs.clone())?;
    let trace = report.to_trace(cfg)?;
    let legal = crate::check_legal(&trace, crate::CheckOpts::default()).is_ok();
    let direct =
        crate::MachineConfig::new(trace.params, crate::StallRule::Delta { delta: cfg.delta })?;
    let replay = replay_on(&direct, procs, &report, &trace);
    Ok(Judged { report, trace, legal, replay })
}

/// Replays `trace` of the simulated `report` on the direct machine `direct`: equal when the op
/// logs and final states are the simulation's, refused when the machine stops at its trace or
/// step limit (nothing compared), else different.
fn replay_on<P: LogpProcess>(
    direct: &crate::MachineConfig,
    procs: Vec<P>,
    report: &SimReport<P::State>,
    trace: &crate::Trace,
) -> ReplayOutcome {
    match crate::run(direct, procs, &mut crate::Replay::new(trace)) {
        Ok(d) if d.states == report.states && d.trace.ops == trace.ops => ReplayOutcome::Equal,
        Err(e @ (Error::TraceLimit { .. } | Error::StepLimitExceeded { .. })) => {
            ReplayOutcome::Refused { reason: e.to_string() }
        }
        Ok(_) | Err(_) => ReplayOutcome::Differs,
    }
}

/// Runs the cycle simulation of `procs` (one per LogP processor) on a BSP(p, g, ℓ) machine.
///
/// # Examples
///
/// The ping-pong of [`run`](crate::run)'s example, simulated with `p = 4`, `G = 2`, `L = 4`,
/// `δ = 2` on a BSP machine with `g = ℓ = 1`:
///
/// ```
/// use logp_stall::goal::{goal_programs, parse};
/// use logp_stall::{Logp, LogpParams};
/// use logp_stall::sim::{SimConfig, simulate};
///
/// let schedule = parse(
///     "num_ranks 4\nrank 0 {\na: send 8b to 1\nb: recv 8b from 1\nb requires a\n}\n\
///      rank 1 {\na: recv 8b from 0\nb: send 8b to 0\nb requires a\n}\n",
/// )?;
/// let cfg = SimConfig::new(&LogpParams::new(Logp { p: 4, latency: 4, gap: 2, o: 1 })?, 2, 1, 1)?;
/// let report = simulate(&cfg, goal_programs(&schedule, 2)?)?;
/// assert_eq!(report.messages.len(), 2);
/// # Ok::<(), logp_stall::Error>(())
/// ```
///
/// # Errors
///
/// `procs.len() != p` ([`Error::SimParam`] naming `procs`), a program fault, more than
/// `max_cycles` cycles, or the memory budget passed ([`Error::SimMemoryLimit`]).
pub fn simulate<P: LogpProcess>(
    cfg: &SimConfig,
    procs: Vec<P>,
) -> Result<SimReport<P::State>, Error> {
    if procs.len() != cfg.p() as usize {
        return Err(Error::SimParam {
            field: "procs",
            rule: "one process per processor",
            value: format!("{} processes for p = {}", procs.len(), cfg.p()),
        });
    }
    Sim::new(cfg, procs)?.run()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Logp, LogpParams, MachineConfig, StallRule};

    /// The hot spot of `tests/it/sim.rs` (p = 4, G = 2, L = 4, δ = 4: three messages to P0):
    /// the replay is equal under the default limits, refused when the direct machine's trace
    /// limit is one event, and different when the replayed programs are not the simulated
    /// ones (P0 then expects nothing, so its final state differs).
    #[test]
    fn a_replay_is_equal_refused_or_different() {
        let params = LogpParams::new(Logp { p: 4, latency: 4, gap: 2, o: 1 }).unwrap();
        let cfg = SimConfig::new(&params, 4, 1, 1).unwrap();
        let mut rng = netcore::rng::seeded(1, 0);
        let (procs, _) = workload::programs(workload::Workload::Hotspot, 4, 2, 3, &mut rng);
        let report = simulate(&cfg, procs.clone()).unwrap();
        let trace = report.to_trace(&cfg).unwrap();
        let direct = MachineConfig::new(params, StallRule::Delta { delta: 4 }).unwrap();
        assert_eq!(replay_on(&direct, procs.clone(), &report, &trace), ReplayOutcome::Equal);
        let tight = direct.with_max_trace_events(1);
        let refused = replay_on(&tight, procs.clone(), &report, &trace);
        assert!(matches!(&refused, ReplayOutcome::Refused { reason } if reason.contains("trace")));
        assert!(!refused.ran() && !refused.is_equal());
        let (other, _) = workload::programs(workload::Workload::Hotspot, 4, 2, 1, &mut rng);
        assert_eq!(replay_on(&direct, other, &report, &trace), ReplayOutcome::Differs);
    }
}
