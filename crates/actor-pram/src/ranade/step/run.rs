//! The lockstep router's passes run on actors (Property 1; Choice 22): one pass's actor
//! system, one pass checked slot for slot, and the overlapping run of a whole program.

use std::collections::{BTreeMap, VecDeque};
use std::ops::Range;

use netcore::pram::{Access, Variant};

use super::actors::{HashActor, HostActor, NodeActor, NodeCold, PpuActor, ReplicaActor, StepActor};
use super::cadence::{Cadence, Phase};
use super::msg::{MAX_PASSES, StepMsg};
use super::plan::{PassPlan, StepEnv, op_of};
use super::record::{ActorPass, ActorProgram, PassRecord};
use crate::actor::{ActorId, Limits, Runtime, Scheduler};
use crate::direct::{Code, PpuActor as Replica};
use crate::error::Error;
use crate::ranade::host::Held;
use crate::ranade::lockstep::LockstepRouter;
use crate::ranade::network::NodeTally;
use crate::ranade::packet::reads_as_accesses;
use crate::ranade::settings::FetchOrder;
use crate::ranade::stats::SlotDigest;

/// The events one actor of a pass may take per round in [`LockstepRouter::pass_event_limit`]
/// (a virtual node takes 2.0 per round in the measured permutation reads at n = 12, 14).
pub const EVENTS_PER_ACTOR_ROUND: u64 = 4;

impl LockstepRouter {
    /// The events a pass on actors with `ppus` PPUs may take (Section 5, Theorem 2: a pass
    /// takes `O(n + S / 2^n)` rounds with high probability, `S / 2^n` being the packets per
    /// row): [`EVENTS_PER_ACTOR_ROUND`] times the run's actors (`(3n − 1) 2^n` virtual nodes,
    /// a host and a hash actor per router, the PPUs) times the rounds of the forward and the
    /// reverse pass, each counted as at most `2 (3n − 1) + 4 ceil(S / 2^n)` (twice the empty
    /// pass's, and four per packet per row; measured at n = 12 and 14 with `S = N`: 89 and
    /// 103 forward rounds against 118 and 138), and never below [`Limits::default`]'s
    /// `10^8`. With `S = N` this is 274,530,304 at n = 12 and 1,501,298,688 at n = 14,
    /// against 46,676,442 and 263,577,054 events measured (seed 1); the example
    /// `route_permutation` prints it with the run. The overlapping run of a whole program
    /// runs within `program_event_limit`, the sum of its passes' limits.
    pub fn pass_event_limit(&self, ppus: u64) -> u64 {
        self.pass_events_scaled(ppus).max(Limits::default().max_events)
    }

    /// [`LockstepRouter::pass_event_limit`] before its floor of `10^8`.
    fn pass_events_scaled(&self, ppus: u64) -> u64 {
        let n = u64::from(self.n);
        let rows = u64::from(self.rows);
        let nodes = u64::from(self.levels) * rows;
        let actors = nodes + 2 * u64::from(self.routers()) + ppus;
        let rounds = 2 * (3 * n - 1) + 4 * ppus.div_ceil(rows);
        EVENTS_PER_ACTOR_ROUND.saturating_mul(actors).saturating_mul(2 * rounds)
    }

    /// The events the overlapping run of a whole program may take (Choice 22): each pass of
    /// `plan` as [`LockstepRouter::pass_event_limit`] scales it (with the pass's PPUs), plus
    /// one event per instruction of each of the `ppus` replicas, at most `t` (the
    /// reference's time) each, the sum never below [`Limits::default`]'s `10^8`. So the
    /// run's limit grows with the program and the network as the barrier run's passes do
    /// (before, it kept the runtime's `10^8`, which `actor-pram-theorem2`'s permutation read
    /// at n = 12 passes: 122 M events).
    pub(crate) fn program_event_limit(&self, plan: &[PassPlan], ppus: u64, t: u64) -> u64 {
        let passes = plan.iter().fold(0u64, |sum, pass| {
            let pass_ppus = u64::from(pass.ppus.end - pass.ppus.start);
            sum.saturating_add(self.pass_events_scaled(pass_ppus))
        });
        passes.saturating_add(ppus.saturating_mul(t)).max(Limits::default().max_events)
    }

    /// The actor of virtual node `(l, r)`: its index.
    pub(super) fn actor_id(&self, l: u32, r: u32) -> ActorId {
        // idx < levels · rows <= (3·16 − 1) · 2^16 fits u32.
        ActorId(u32::try_from(self.idx(l, r)).unwrap_or(u32::MAX))
    }

    /// Spawns the actors of a run serving `env.plan`'s passes: one actor per virtual node, one
    /// host and one hash actor per router, and the PPU actors of pids `ppus` (`ppu` makes
    /// them); injects their `Issue`s and the first pass's `Start`s. Actor ids: nodes, hosts,
    /// hash actors, PPUs.
    pub(super) fn spawn_run(
        &self,
        rt: &mut Runtime<StepActor>,
        env: &StepEnv,
        ppus: Range<u32>,
        held: &Held,
        mut ppu: impl FnMut(u32, ActorId) -> StepActor,
    ) -> Result<(), Error> {
        let nn = self.routers();
        let size = self.levels * self.rows;
        let host_id = |router: u32| ActorId(size + router);
        let hash_id = |router: u32| ActorId(size + nn + router);
        let first_pid = ppus.start;
        let ppu_id = |pid: u32| ActorId(size + 2 * nn + (pid - first_pid));
        rt.reserve((size + 2 * nn) as usize + ppus.len())?;
        let last = self.levels - 1;
        // A program without global steps has no pass: its nodes are done from the start.
        let first = env.plan.first();
        let mut at_router: Vec<Vec<(u32, ActorId)>> = vec![Vec::new(); nn as usize];
        for p in ppus.clone() {
            at_router[self.router_of(p) as usize].push((p, ppu_id(p)));
        }
        let mut starts = Vec::new();
        for l in 0..self.levels {
            for r in 0..self.rows {
                let mut acq = Vec::new();
                for k in 0..2 {
                    if l < last {
                        let (l2, r2) = self.succ(l, r, k);
                        acq.push(self.actor_id(l2, r2));
                    }
                    if l >= 1 {
                        let (l0, r0) = self.pred(l, r, k);
                        acq.push(self.actor_id(l0, r0));
                    }
                }
                let router = r * self.n + l % self.n;
                acq.push(host_id(router));
                let mine = if l < self.n {
                    std::mem::take(&mut at_router[router as usize])
                } else {
                    Vec::new()
                };
                acq.extend(mine.iter().map(|q| q.1));
                let mut actor = NodeActor {
                    l,
                    phase: Phase::Forward,
                    cad: Cadence::new(l == 0),
                    slots: [None, None],
                    credits: [0; 2],
                    rslots: [None, None],
                    ticking: false,
                    pass: 0,
                    words: 24,
                    cold: Box::new(NodeCold {
                        node: self.init_node(l),
                        r,
                        host: host_id(router),
                        due: 0,
                        ppus: mine,
                        inbox: Vec::new(),
                        outbox: VecDeque::new(),
                        arrived: Vec::new(),
                        sent: 0,
                        replies: 0,
                        closed_fwd: None,
                        closed_rev: None,
                        records: Vec::new(),
                        stats: NodeTally::default(),
                        trace: SlotDigest::default(),
                    }),
                };
                match first {
                    Some(plan) => actor.cold.due = actor.due_in(plan),
                    None => actor.phase = Phase::Done,
                }
                if first.is_some() && actor.cold.due == 0 {
                    starts.push(self.actor_id(l, r));
                }
                rt.spawn(StepActor::Node(actor), &acq)?;
            }
        }
        for router in 0..nn {
            let (c, r) = self.injection_node(router);
            let levels: Vec<u32> = (0..3).map(|k| c + k * self.n).filter(|&l| l <= last).collect();
            let acq: Vec<ActorId> = levels.iter().map(|&l| self.actor_id(l, r)).collect();
            let host = HostActor {
                router,
                nodes: levels.len() as u32,
                ended: 0,
                packets: Vec::new(),
                outbox: VecDeque::new(),
                pass: 0,
                own: BTreeMap::new(),
                held: held.for_host(self.hashing(), router),
                // One pass in a step's run: no room for more (the overlapping run grows it).
                served: Vec::with_capacity(1),
            };
            rt.spawn(StepActor::Host(Box::new(host)), &acq)?;
        }
        let words = 1 + self.hashing().words();
        for router in 0..nn {
            let (c, r) = self.injection_node(router);
            let node = self.actor_id(c, r);
            rt.spawn(StepActor::Hash(HashActor { node, words }), &[node])?;
        }
        for pid in ppus.clone() {
            let hash = hash_id(self.router_of(pid));
            rt.spawn(ppu(pid, hash), &[hash])?;
        }
        for pid in ppus {
            rt.inject(ppu_id(pid), StepMsg::Issue)?;
        }
        for node in starts {
            rt.inject(node, StepMsg::Start { pass: 0 })?;
        }
        Ok(())
    }

    /// Every pass's record from the nodes and hosts after a run; `memory` gets the hosts'
    /// writes.
    pub(super) fn records(
        rt: &Runtime<StepActor>,
        passes: usize,
        memory: &mut [i64],
    ) -> Result<Vec<PassRecord>, Error> {
        let mut out: Vec<PassRecord> = (0..passes)
            .map(|_| PassRecord {
                r_fwd: 0,
                r_rev: 0,
                combines: 0,
                arrivals: 0,
                max_occupancy: 0,
                max_dq: 0,
                exits: Vec::new(),
                deliveries: Vec::new(),
                serialization: Vec::new(),
                slots: SlotDigest::default(),
            })
            .collect();
        for b in rt.behaviours() {
            match b {
                StepActor::Node(v) => {
                    // The earlier passes' records, then the last pass in the node's fields.
                    let last = match (v.cold.closed_fwd, v.cold.closed_rev) {
                        (Some(f), Some(rv)) => Some((
                            u64::from(f),
                            u64::from(rv),
                            v.cold.arrived.len() as u64,
                            &v.cold.stats,
                            &v.cold.trace,
                        )),
                        _ => None,
                    };
                    let recs: Vec<_> = v
                        .cold
                        .records
                        .iter()
                        .map(|r| (r.closed_fwd, r.closed_rev, r.arrivals, &r.stats, &r.trace))
                        .chain(last)
                        .collect();
                    if recs.len() != passes {
                        return Err(Error::Routing {
                            what: format!("virtual node ({},{}) never closed", v.l, v.cold.r),
                        });
                    }
                    for (pass, (f, rv, arrivals, stats, trace)) in out.iter_mut().zip(recs) {
                        pass.r_fwd = pass.r_fwd.max(f + 1);
                        pass.r_rev = pass.r_rev.max(rv + 1);
                        pass.combines += stats.combines;
                        pass.arrivals += arrivals;
                        pass.max_occupancy = pass.max_occupancy.max(stats.max_occupancy);
                        pass.max_dq = pass.max_dq.max(stats.max_dq);
                        pass.exits.extend(stats.exits.iter().cloned());
                        pass.deliveries.extend(stats.deliveries.iter().copied());
                        pass.slots.merge(trace);
                    }
                }
                StepActor::Host(h) => {
                    for (pass, (writes, serialization)) in out.iter_mut().zip(&h.served) {
                        for &(addr, value) in writes {
                            // `serve` checked the address against the memory's length.
                            if let Some(cell) = memory.get_mut(addr as usize) {
                                *cell = value;
                            }
                        }
                        pass.serialization.extend(serialization.iter().cloned());
                    }
                }
                StepActor::Hash(_) | StepActor::Ppu(_) | StepActor::Replica(_) => {}
            }
        }
        for pass in &mut out {
            pass.exits.sort_by_key(|a| (a.3, a.1, a.2));
            pass.deliveries.sort_unstable_by_key(|d| (d.1, d.0));
            pass.serialization.sort_unstable();
        }
        Ok(out)
    }

    /// One pass of a global step ([`LockstepRouter::step_pass_traced`]) served by actors
    /// under `scheduler` (Choices 18, 22 and 23): one PPU actor per pid in `ppus` (each sends
    /// its access or none to the hash actor `H_i` of router `i = pid mod N`, which keys it
    /// and forwards it to the router's injection node; that node starts once all its PPUs'
    /// packets have come), one actor per virtual node, one host and one hash actor per
    /// router; `held` carries
    /// the writes of a multiplexed step's earlier passes. `memory` gets the hosts' writes.
    /// Property 1: the slots of both passes, the rounds, the deliveries and the
    /// serialization equal the lockstep pass's for every scheduler; only the depth varies.
    ///
    /// The run may take `max_events` actor events ([`LockstepRouter::pass_event_limit`] for
    /// `ppus.len()` PPUs scales with the pass); past them,
    /// `Error::Actor(ActorError::EventLimit { limit: max_events })`.
    #[expect(
        clippy::too_many_arguments,
        reason = "one pass: the step, its PPUs, the held writes, the scheduler and the limit"
    )]
    pub fn actor_step_pass(
        &self,
        variant: Variant,
        accesses: &[Access],
        memory: &mut [i64],
        fetch_order: FetchOrder,
        ppus: Range<u32>,
        held: &mut Held,
        scheduler: Scheduler,
        max_events: u64,
    ) -> Result<ActorPass, Error> {
        if let Some(a) = accesses.iter().find(|a| !ppus.contains(&a.pid)) {
            return Err(Error::InvalidConfig {
                field: "pid",
                rule: "pid among the pass's PPUs",
                got: format!("{} not in {ppus:?}", a.pid),
            });
        }
        Self::check_accesses(variant, accesses)?;
        // Each access travels in its PPU's `Access` to the hash actor.
        let mut issued: Vec<Option<Box<Access>>> = vec![None; ppus.len()];
        for a in accesses {
            issued[(a.pid - ppus.start) as usize] = Some(Box::new(*a));
        }
        let plan = PassPlan { variant, op: op_of(accesses), ppus: ppus.clone(), last: held.last };
        let env = StepEnv {
            router: self.clone(),
            fetch_order,
            memory: memory.to_vec(),
            plan: vec![plan],
            code: None,
            per_step: 1,
        };
        let limits = Limits { max_events, ..Limits::default() };
        let mut rt: Runtime<StepActor> = Runtime::new(scheduler, limits);
        let start = ppus.start;
        self.spawn_run(&mut rt, &env, ppus, held, |pid, hash| {
            let access = issued[(pid - start) as usize].take();
            StepActor::Ppu(PpuActor { hash, access, replies: Vec::new() })
        })?;
        let actor = rt.run(&env)?;
        let pass = Self::records(&rt, 1, memory)?.remove(0);
        for b in rt.behaviours() {
            if let StepActor::Host(h) = b {
                held.keep(h.packets.iter().flat_map(|(_, ps)| ps.iter().cloned()));
            }
        }
        Ok(ActorPass { pass, actor })
    }

    /// A whole program in one actor system (the overlapping run, Choice 22): the replicas of
    /// `code` (pids `0..S`) run as PPU actors, one event per instruction, and send the access
    /// (or none) of each global step to their router's hash actor; the virtual nodes, hosts
    /// and hash actors persist over `plan`'s passes (`per_step` per global step), every
    /// network message carries its pass and a node serves its passes in order. `memory`:
    /// the memory at the start (the hosts own what they write); `t`: the reference's time,
    /// for the run's event limit ([`LockstepRouter::program_event_limit`]).
    #[expect(
        clippy::too_many_arguments,
        reason = "a whole program: its code, memory, passes, their order and the reference's time"
    )]
    pub(crate) fn actor_program(
        &self,
        code: &Code,
        memory: &[i64],
        plan: Vec<PassPlan>,
        per_step: u32,
        fetch_order: FetchOrder,
        scheduler: Scheduler,
        t: u64,
    ) -> Result<ActorProgram, Error> {
        let passes = plan.len();
        if passes > MAX_PASSES {
            return Err(Error::InvalidConfig {
                field: "butterfly.steps",
                rule: "an overlapping run of at most 65,535 passes",
                got: passes.to_string(),
            });
        }
        let s = code.ppus;
        let lmem = code.lmem;
        let env = StepEnv {
            router: self.clone(),
            fetch_order,
            memory: memory.to_vec(),
            plan,
            code: Some(code.clone()),
            per_step,
        };
        let max_events = self.program_event_limit(&env.plan, u64::from(s), t);
        let limits = Limits { max_events, ..Limits::default() };
        let mut rt: Runtime<StepActor> = Runtime::new(scheduler, limits);
        self.spawn_run(&mut rt, &env, 0..s, &Held::new(false), |pid, hash| {
            StepActor::Replica(Box::new(ReplicaActor {
                ppu: Replica::new(pid, lmem),
                hash,
                steps: 0,
                wait: None,
            }))
        })?;
        let actor = rt.run(&env)?;
        let mut memory = memory.to_vec();
        let passes = Self::records(&rt, passes, &mut memory)?;
        let replicas: Vec<Replica> = rt
            .behaviours()
            .iter()
            .filter_map(|b| match b {
                StepActor::Replica(p) => Some(p.ppu.clone()),
                _ => None,
            })
            .collect();
        if let Some(p) = replicas.iter().find(|p| !p.halted) {
            return Err(Error::Diverged { pid: p.pid, what: format!("not halted at pc {}", p.pc) });
        }
        Ok(ActorProgram { passes, actor, memory, replicas })
    }

    /// [`LockstepRouter::read_pass`] served by actors: PPUs `0..N` take part (one per router;
    /// PPUs without a read send none), within [`LockstepRouter::pass_event_limit`] events.
    pub fn actor_read_pass(
        &self,
        reads: &[(u32, u32)],
        memory: &[i64],
        scheduler: Scheduler,
    ) -> Result<ActorPass, Error> {
        let max_events = self.pass_event_limit(u64::from(self.routers()));
        self.actor_read_pass_within(reads, memory, scheduler, max_events)
    }

    /// [`LockstepRouter::actor_read_pass`] with at most `max_events` actor events (past them,
    /// `Error::Actor(ActorError::EventLimit { limit: max_events })`).
    pub fn actor_read_pass_within(
        &self,
        reads: &[(u32, u32)],
        memory: &[i64],
        scheduler: Scheduler,
        max_events: u64,
    ) -> Result<ActorPass, Error> {
        let mut memory = memory.to_vec();
        let accesses = reads_as_accesses(reads);
        let nn = self.routers();
        self.actor_step_pass(
            Variant::Crew,
            &accesses,
            &mut memory,
            FetchOrder::Pid,
            0..nn,
            &mut Held::new(true),
            scheduler,
            max_events,
        )
    }
}

#[cfg(test)]
mod tests {
    use netcore::pram::Variant;

    use super::{LockstepRouter, PassPlan};

    /// The overlapping run's limit for `actor-pram-theorem2`'s permutation read at n = 12
    /// (`S = 2^15` PPUs, `T = 6`, three passes of every PPU), by hand: the actors are
    /// `(3n − 1) 2^n = 35 · 4096 = 143,360` virtual nodes, a host and a hash actor for each of
    /// the `N = n 2^n = 49,152` routers and the 32,768 PPUs, 274,432 in all; a pass's rounds
    /// `2 · 35 + 4 · ceil(32,768 / 4096) = 102`; its limit `4 · 274,432 · 2 · 102 =
    /// 223,936,512`, three of them 671,809,536, plus `S · T = 196,608` replica instructions:
    /// 672,006,144. That row's overlapping run took 122,466,917 events, past the runtime's
    /// default `10^8` it ran under before; a one-pass program on n = 2 (8 PPUs, `T = 10`:
    /// `4 · (5 · 4 + 2 · 8 + 8) · 2 · (10 + 8) + 80 = 6,416`) stays at `10^8`.
    #[test]
    fn program_event_limit_sums_the_passes() {
        let pass =
            |ppus: u32| PassPlan { variant: Variant::Crew, op: None, ppus: 0..ppus, last: true };
        let router = LockstepRouter::new(12, 2, true).unwrap();
        let plan = vec![pass(1 << 15), pass(1 << 15), pass(1 << 15)];
        assert_eq!(router.pass_event_limit(1 << 15), 223_936_512);
        assert_eq!(router.program_event_limit(&plan, 1 << 15, 6), 672_006_144);
        let small = LockstepRouter::new(2, 2, true).unwrap();
        assert_eq!(small.program_event_limit(&[pass(8)], 8, 10), 100_000_000);
    }
}
