//! Copy selection by threshold culling (Fantozzi, Pietracaprina, Pucci, Section 4.1):
//! iteration 0 (Lemma 2) chooses `mu = (r+1)/2` of every requested variable's r 0-modules,
//! iteration i >= 1 (Lemma 3) two of the three i-modules of every coloured (i-1)-module.
//!
//! [`cull`] is the routine both use. Every parent has a weight (1 for a variable; `w(u)`, the
//! coloured paths through u, for a module) and ordered candidates. Round `rho = 1, 2, ...`:
//! every still-active parent sends one packet per candidate it has not marked yet to the
//! processor of that candidate module (module ids are below n: `m_0 = n`, `m_i < n`); the
//! module's load is the sum of its packets' weights and it marks them all iff the load is at
//! most the round's threshold ([`Threshold`]), else none; the packets go back. A parent with
//! at least `need` marks keeps the `need` that minimise (round, load, module) and is
//! satisfied. A prefix sum counts the active parents and the new marks: the procedure stops
//! when none is active; if a round marks nothing while parents are active (a stall), or after
//! round `L + 1`, the remaining parents are *forced*: they complete with their marks, then
//! their unmarked candidates in (last load, module) order, and [`Culled::forced`] says so.
//!
//! This realisation routes the packets to the modules with two-phase routing in the whole
//! machine (the paper sorts them and sums loads by prefix inside the shrinking clusters
//! `K_rho`); see docs/models/dbsp-hmos.md, Choices.

use netcore::ProcId;
use netcore::bsp::BspMachine;

use crate::Error;
use crate::prim::{RouteMsg, Sum, prefix, route_two_phase};

/// A culling packet: the parent's home processor and index there, its weight, the
/// candidate's index and module, the module's load in this round and whether it marked the
/// packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CullPacket {
    home: (ProcId, u32),
    weight: u64,
    j: u32,
    module: u32,
    load: u64,
    marked: bool,
}

/// One parent: its weight and its candidate modules, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parent {
    /// The weight its packets add to a module's load: 1 for a variable (iteration 0), the
    /// number of coloured paths `w(u)` through module u (iteration i >= 1).
    pub weight: u64,
    /// Candidate modules (processors), in candidate order.
    pub candidates: Vec<u32>,
}

/// The thresholds of a culling, per round `rho = 1, 2, ...` (docs/models/dbsp-hmos.md,
/// Choices: the shrinking thresholds).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Threshold {
    /// Iteration 0: `theta_rho = max(1, floor(a r (n / 2^(rho-1))^eps))` ([`theta0`]).
    Shrinking {
        /// The constant a.
        a: f64,
        /// The redundancy r.
        r: u32,
        /// The exponent epsilon.
        eps: f64,
    },
    /// Iteration i >= 1: one threshold for every round ([`theta_level`]).
    Constant(u64),
}

impl Threshold {
    /// The threshold of round `rho` on `n` processors.
    pub fn at(self, n: u32, rho: u32) -> u64 {
        match self {
            Threshold::Shrinking { a, r, eps } => theta0(a, r, n, eps, rho),
            Threshold::Constant(theta) => theta,
        }
    }
}

/// `max(1, floor(x + 1e-9))` for a threshold.
fn floor_at_least_one(x: f64) -> u64 {
    let x = (x + 1e-9).floor();
    // A finite, non-negative float below 2^53: the cast is exact.
    if x.is_finite() && x >= 1.0 { x as u64 } else { 1 }
}

/// The outcome of culling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Culled {
    /// Per home processor, per parent (in input order): the chosen candidate indices, sorted.
    pub chosen: Vec<Vec<Vec<u32>>>,
    /// Rounds run.
    pub rounds: u32,
    /// Some parents were completed by force.
    pub forced: bool,
    /// The thresholds of the rounds run.
    pub theta: Vec<u64>,
    /// Loads of the first round, per module (processor).
    pub first_loads: Vec<u64>,
    /// The weight of every module: the sum of the weights of the parents that chose it.
    pub weights: Vec<u64>,
}

struct State {
    /// (round, load, module, j) of every mark.
    marks: Vec<(u32, u64, u32, u32)>,
    /// Last load seen per candidate (u64::MAX if never).
    last_load: Vec<u64>,
    marked: Vec<bool>,
    done: Option<Vec<u32>>,
}

/// The thresholds `theta_rho` of iteration 0 for `rho = 1..`:
/// `max(1, floor(a r (n / 2^(rho-1))^eps))`.
pub fn theta0(a: f64, r: u32, n: u32, eps: f64, rho: u32) -> u64 {
    let size = f64::from(n) / 2_f64.powi(i32::try_from(rho - 1).unwrap_or(i32::MAX));
    floor_at_least_one(a * f64::from(r) * size.powf(eps))
}

/// The threshold of iteration `i >= 1` (Lemma 3): `max(1, floor(a mu 2^i (n / m_i)
/// n^(eps / 2^i)))`, which is `Theta(2^i n^(1 - (1 - eps) / 2^i))`, Lemma 3's bound on `w(u)`,
/// computed with the real `m_i = |U_i|` (docs/models/dbsp-hmos.md, Choices).
pub fn theta_level(a: f64, mu: u32, i: u32, n: u32, m_i: u64, eps: f64) -> u64 {
    let two_i = 2_f64.powi(i32::try_from(i).unwrap_or(i32::MAX));
    let nf = f64::from(n);
    floor_at_least_one(a * f64::from(mu) * two_i * (nf / m_i as f64) * nf.powf(eps / two_i))
}

/// Culls on `machine` for `parents[p]` (the parents whose home is processor p), each
/// choosing `need` of its candidates, with the round thresholds `threshold`.
#[allow(clippy::too_many_arguments)]
pub fn cull<S, M>(
    machine: &mut BspMachine<S, M>,
    parents: &[Vec<Parent>],
    need: usize,
    threshold: Threshold,
    wrap: impl Fn(RouteMsg<CullPacket>) -> M + Copy,
    unwrap: impl Fn(M) -> Option<RouteMsg<CullPacket>> + Copy,
    wrap_sum: impl Fn(u64) -> M,
    unwrap_sum: impl Fn(M) -> Option<u64>,
) -> Result<Culled, Error> {
    let n = machine.p();
    let log_n = n.ilog2();
    let mut states: Vec<Vec<State>> = parents
        .iter()
        .map(|ps| {
            ps.iter()
                .map(|p| State {
                    marks: Vec::new(),
                    last_load: vec![u64::MAX; p.candidates.len()],
                    marked: vec![false; p.candidates.len()],
                    done: None,
                })
                .collect()
        })
        .collect();
    let mut theta = Vec::new();
    let mut first_loads = vec![0_u64; n as usize];
    let mut forced = false;
    let mut rho = 0;
    loop {
        rho += 1;
        let th = threshold.at(n, rho);
        theta.push(th);
        let mut outgoing: Vec<Vec<(ProcId, CullPacket)>> = vec![Vec::new(); n as usize];
        for (home, (ps, ss)) in (0..).zip(parents.iter().zip(&states)) {
            for (index, (p, s)) in (0..).zip(ps.iter().zip(ss)) {
                if s.done.is_some() {
                    continue;
                }
                for (j, &module) in (0..).zip(&p.candidates) {
                    if module >= n {
                        let rule = format!("a candidate module names a processor (< n = {n})");
                        return Err(Error::param("candidates", rule, module));
                    }
                    if !s.marked[j as usize] {
                        let (weight, load, marked) = (p.weight, 0, false);
                        let packet =
                            CullPacket { home: (home, index), weight, j, module, load, marked };
                        outgoing[home as usize].push((module, packet));
                    }
                }
            }
        }
        let at_modules = route_two_phase(machine, 0, outgoing, wrap, unwrap)?;
        let mut back: Vec<Vec<(ProcId, CullPacket)>> = vec![Vec::new(); n as usize];
        for (module, packets) in (0..).zip(at_modules.delivered) {
            // Weights are at most n mu 2^k < 2^40 and a module gets at most n packets.
            let load: u64 = packets.iter().map(|p| p.weight).sum();
            if rho == 1 {
                first_loads[module as usize] = load;
            }
            for mut packet in packets {
                packet.load = load;
                packet.marked = load <= th;
                back[module as usize].push((packet.home.0, packet));
            }
        }
        machine.local("cull/count", |pid, _| back[pid as usize].len() as u64)?;
        let returned = route_two_phase(machine, 0, back, wrap, unwrap)?;
        let mut counts: Vec<Vec<u64>> = vec![vec![0]; n as usize];
        let mut new_marks: Vec<Vec<u64>> = vec![vec![0]; n as usize];
        for (home, packets) in returned.delivered.into_iter().enumerate() {
            for packet in packets {
                let Some(s) = states[home].get_mut(packet.home.1 as usize) else {
                    continue;
                };
                s.last_load[packet.j as usize] = packet.load;
                if packet.marked {
                    s.marked[packet.j as usize] = true;
                    s.marks.push((rho, packet.load, packet.module, packet.j));
                    new_marks[home][0] += 1;
                }
            }
            for s in states[home].iter_mut().filter(|s| s.done.is_none()) {
                if s.marks.len() >= need {
                    let mut marks = s.marks.clone();
                    marks.sort_unstable();
                    let mut keep: Vec<u32> = marks[..need].iter().map(|m| m.3).collect();
                    keep.sort_unstable();
                    s.done = Some(keep);
                } else {
                    counts[home][0] += 1;
                }
            }
        }
        let active = prefix(machine, 0, &Sum, &counts, &wrap_sum, &unwrap_sum)?;
        let marked = prefix(machine, 0, &Sum, &new_marks, &wrap_sum, &unwrap_sum)?;
        let active = active.totals.first().copied().unwrap_or(0);
        let marked = marked.totals.first().copied().unwrap_or(0);
        if active == 0 {
            break;
        }
        if marked == 0 || rho > log_n {
            forced = true;
            for (ps, ss) in parents.iter().zip(states.iter_mut()) {
                for (p, s) in ps.iter().zip(ss.iter_mut()).filter(|(_, s)| s.done.is_none()) {
                    let mut keep: Vec<u32> = s.marks.iter().map(|m| m.3).collect();
                    let mut rest: Vec<(u64, u32, u32)> = (0..)
                        .zip(&p.candidates)
                        .filter(|&(j, _)| !s.marked[j as usize])
                        .map(|(j, &u)| (s.last_load[j as usize], u, j))
                        .collect();
                    rest.sort_unstable();
                    keep.extend(rest.iter().map(|x| x.2).take(need.saturating_sub(keep.len())));
                    keep.sort_unstable();
                    s.done = Some(keep);
                }
            }
            break;
        }
    }
    let chosen: Vec<Vec<Vec<u32>>> = states
        .into_iter()
        .map(|ss| ss.into_iter().map(|s| s.done.unwrap_or_default()).collect())
        .collect();
    let mut weights = vec![0_u64; n as usize];
    for (ps, cs) in parents.iter().zip(&chosen) {
        for (p, js) in ps.iter().zip(cs) {
            for &j in js {
                weights[p.candidates[j as usize] as usize] += p.weight;
            }
        }
    }
    Ok(Culled { chosen, rounds: rho, forced, theta, first_loads, weights })
}
