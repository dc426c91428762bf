//! The cycle simulation of δ-LogP on BSP (paper §4): a worked hotspot case, the undo when
//! δ < G, bad input, and properties over random traffic.

use logp_stall::sim::workload::{Workload, programs};
use logp_stall::sim::{
    Prefix, SimConfig, SimOp, SimReport, SortAlgorithm, UnstallOffset, simulate, simulate_and_judge,
};
use logp_stall::{Action, Delivered, Error, Logp, LogpParams, LogpProcess};
use logp_stall::{CheckOpts, MachineConfig, Replay, StallRule, check_legal};
use proptest::prelude::*;

/// Acts at fixed steps: `(step, Some(dest))` submits, `(step, None)` receives, idle between;
/// halts after its last planned action.
#[derive(Debug, Clone)]
struct Timed {
    me: u32,
    plan: Vec<(u64, Option<u32>)>,
    pc: usize,
    got: Vec<(u32, u64)>,
}

impl LogpProcess for Timed {
    type Payload = u64;
    type State = Vec<(u32, u64)>;
    fn next(&mut self, now: u64) -> Action<u64> {
        match self.plan.get(self.pc) {
            Some(&(s, what)) if s <= now => {
                self.pc += 1;
                match what {
                    Some(dest) => Action::Submit { dest, payload: u64::from(self.me) * 100 + now },
                    None => Action::Receive,
                }
            }
            _ => Action::Idle,
        }
    }
    fn on_receive(&mut self, msg: Option<Delivered<u64>>, _now: u64) {
        if let Some(m) = msg {
            self.got.push((m.src, m.payload));
        }
    }
    fn is_halted(&self) -> bool {
        self.pc >= self.plan.len()
    }
    fn state(&self) -> Self::State {
        self.got.clone()
    }
}

fn hotspot3() -> Vec<Timed> {
    let mut procs =
        vec![Timed { me: 0, plan: vec![(4, None), (6, None), (8, None)], pc: 0, got: vec![] }];
    for me in 1..4 {
        procs.push(Timed { me, plan: vec![(0, Some(0))], pc: 0, got: vec![] });
    }
    procs
}

fn cfg(p: u32, gap: u64, latency: u64, delta: u64) -> SimConfig {
    try_cfg(p, gap, latency, delta, 1).unwrap()
}

/// Parameters outside the paper's assumptions get through [`LogpParams::relaxed`], so that
/// the simulation's own checks answer.
fn try_cfg(p: u32, gap: u64, latency: u64, delta: u64, o: u64) -> Result<SimConfig, Error> {
    let params = LogpParams::relaxed(Logp { p, latency, gap, o })?;
    SimConfig::new(&params, delta, 1, 1)?.with_max_cycles(1000)
}

/// Worked case of paper §4: p = 4, G = 2, L = 4, δ = 4, so C = 4 and K = ceil(4/2) = 2. P1, P2, P3
/// submit to P0 at step 0 and halt; P0 receives at 4, 6, 8.
/// Cycle 0: sort keys (0,0,1), (0,0,2), (0,0,3) get ranks 1, 2, 3, so delivery times
/// 4 ceil(1/2) = 4, 4 ceil(2/2) = 4, 4 ceil(3/2) = 8; S = {P3's message}; its source gets
/// w_3 = t̄ + 1 = 9 and the episode (trigger = message 2, t' = C(k+1) = 4, t'' = 9), legal
/// since c_0(0) = 3 > K gives the window (0, 2 * 3 + 4] = (0, 10]. P0 receives m0@4, m1@6,
/// m2@8; T = 9; cycles 0, 1, 2 (the last one only simulates step 8 and finds all halted).
#[test]
fn spec_hotspot_delta_4() {
    let r = simulate(&cfg(4, 2, 4, 4), hotspot3()).unwrap();
    let deliveries: Vec<(u64, u32, u64, u64, Option<u64>)> =
        r.messages.iter().map(|m| (m.id, m.src, m.submit, m.deliver, m.received_at)).collect();
    assert_eq!(
        deliveries,
        vec![(0, 1, 0, 4, Some(4)), (1, 2, 0, 4, Some(6)), (2, 3, 0, 8, Some(8))]
    );
    let episodes: Vec<(u32, u64, u64, u64)> =
        r.episodes.iter().map(|e| (e.proc, e.trigger_msg, e.signal, e.unstall)).collect();
    assert_eq!(episodes, vec![(3, 2, 4, 9)]);
    assert_eq!((r.t, r.cycles), (9, 3));
    assert_eq!(r.states[0], vec![(1, 100), (2, 200), (3, 300)]);
    assert!(r.broken_invariants.is_empty());
    assert_legal(&r, &cfg(4, 2, 4, 4));
    assert_replay_equal(&r, hotspot3());
    assert_direct_equal(&r, &cfg(4, 2, 4, 4), hotspot3());
    // Every full cycle runs exactly schedule_len supersteps; the last is sim-local only.
    let lens: Vec<u64> = r.cycle_stats.iter().map(|c| c.supersteps).collect();
    let full = cfg(4, 2, 4, 4).schedule_len();
    assert_eq!(lens, vec![full, full, 1]);
    // p = 4, d = max(2, min(ceil(4/2), floor(1/1))) = 2: 1 + (1 + 3) + 2 (2 * 2 + 1) + 1 = 16.
    assert_eq!(full, 16);
}

/// δ = 1 < G = 2 (C = 2, K = 2), same programs: cycle 0 ranks P3's message 3, delivery
/// 2 ceil(3/2) = 4, the others at 2. P3 is notified, w_3 = 4 + 1 = 5, its episode is
/// (trigger 2, t' = 0 + 1 = 1, t'' = 5) and the steps after its submit are undone (none:
/// it halted right after submitting, so nothing is logged as stalled). P0 receives m0@4,
/// m1@6, m2@8; T = 9, cycles 0..=4.
#[test]
fn undo_when_delta_below_gap() {
    let r = simulate(&cfg(4, 2, 4, 1), hotspot3()).unwrap();
    let deliveries: Vec<(u64, u64)> = r.messages.iter().map(|m| (m.id, m.deliver)).collect();
    assert_eq!(deliveries, vec![(0, 2), (1, 2), (2, 4)]);
    let episodes: Vec<(u32, u64, u64, u64)> =
        r.episodes.iter().map(|e| (e.proc, e.trigger_msg, e.signal, e.unstall)).collect();
    assert_eq!(episodes, vec![(3, 2, 1, 5)]);
    assert_eq!((r.t, r.cycles), (9, 5));
    assert_eq!(r.ops[3], vec![(0, SimOp::Submit(2))]);
    assert_direct_equal(&r, &cfg(4, 2, 4, 1), hotspot3());
}

/// A processor that computes after its violating submit has those steps undone and logged
/// as stalled: p = 4, G = 2, L = 4, δ = 1 (C = 2, K = 2). P1, P2, P3 submit to P0 at step 0,
/// then P3 would idle at step 1 and submit again at 2. Cycle 0: P3's message has rank 3, is
/// delivered at 4, so w_3 = 5: step 1 is undone and stalled, steps 2..4 stalled, and P3's
/// second submit happens at 5 (its plan says "at or after 2").
#[test]
fn undone_steps_become_stalled() {
    let mut procs = hotspot3();
    procs[0].plan = vec![(4, None), (6, None), (8, None), (10, None)];
    procs[3].plan = vec![(0, Some(0)), (2, Some(0))];
    let r = simulate(&cfg(4, 2, 4, 1), procs.clone()).unwrap();
    assert_eq!(
        r.ops[3],
        vec![
            (0, SimOp::Submit(2)),
            (1, SimOp::Stalled),
            (2, SimOp::Stalled),
            (3, SimOp::Stalled),
            (4, SimOp::Stalled),
            (5, SimOp::Submit(3)),
        ]
    );
    assert_eq!(r.cycle_stats[1].undone, 1);
    assert_replay_equal(&r, procs.clone());
    assert_direct_equal(&r, &cfg(4, 2, 4, 1), procs);
    assert_legal(&r, &cfg(4, 2, 4, 1));
    assert_eq!(r.states[0].len(), 4);
}

#[test]
fn bad_input_is_a_typed_error() {
    let bad = |c: Result<SimConfig, Error>| c.unwrap_err().to_string();
    assert_eq!(
        bad(try_cfg(4, 2, 4, 5, 1)),
        "delta must satisfy 1 <= delta <= L (got delta=5, L=4)"
    );
    assert_eq!(bad(try_cfg(4, 1, 4, 1, 1)), "G must satisfy G >= 2 (got G=1)");
    assert_eq!(bad(try_cfg(4, 2, 8, 1, 1)), "L must satisfy L <= p (got L=8, p=4)");
    // G > L and o > G: relaxed LogP parameters refuse them already.
    assert_eq!(bad(try_cfg(4, 4, 2, 1, 1)), "L must satisfy G <= L (got L=2, G=4)");
    assert_eq!(bad(try_cfg(4, 2, 4, 1, 3)), "o must satisfy o <= G (got o=3, G=2)");
    assert_eq!(
        bad(try_cfg(6, 2, 4, 1, 1)),
        "p must satisfy p a power of two (the simulation's bitonic sort) (got 6)"
    );
    assert_eq!(
        bad(try_cfg(4, 2, 4, 0, 1)),
        "delta must satisfy 1 <= delta <= L (got delta=0, L=4)"
    );
    assert_eq!(
        bad(cfg(4, 2, 4, 2).with_scan_fanin(1)),
        "scan_fanin must satisfy scan_fanin >= 2 (got 1)"
    );
    assert_eq!(
        simulate(&cfg(4, 2, 4, 2), vec![hotspot3()[0].clone(); 3]).unwrap_err().to_string(),
        "procs must satisfy one process per processor (got 3 processes for p = 4)"
    );
    // A program that sends to a nonexistent processor.
    let mut procs = hotspot3();
    procs[1].plan = vec![(0, Some(9))];
    let err = simulate(&cfg(4, 2, 4, 2), procs).unwrap_err().to_string();
    assert_eq!(
        err,
        "cycle simulation, processor 1: P1 submits to P9 at step 0 (destination must be another processor < p = 4)"
    );
    // Two communication operations closer than G.
    let mut procs = hotspot3();
    procs[1].plan = vec![(0, Some(0)), (1, Some(0))];
    let err = simulate(&cfg(4, 2, 4, 2), procs).unwrap_err().to_string();
    assert_eq!(
        err,
        "cycle simulation, processor 1: gap rule: P1 communicates at steps 0 and 1 (need step - previous >= G = 2)"
    );
}

/// An independent check of the δ-LogP rules (paper §2 and §2.1) on a simulated
/// execution: windows from recomputed `c_j(t)`, the gap rule, receives take the buffer head
/// (order `(deliver, submit, src)`, `None` iff empty), every stalled step lies in an episode,
/// episodes are triggered by violating submissions with `t < t' <= t + δ` and
/// `t̄ < t'' <= t̄ + δ`, `t̄` the latest delivery of the processor's violating submissions in
/// `[t, t')`.
fn assert_legal<S>(r: &SimReport<S>, c: &SimConfig) {
    let k = c.latency().div_ceil(c.gap());
    let count = |m: &logp_stall::sim::SimMessage| {
        r.messages
            .iter()
            .filter(|x| x.dest == m.dest && x.submit <= m.submit && x.deliver > m.submit)
            .count() as u64
    };
    for m in &r.messages {
        let cj = count(m);
        let window = if cj > k { c.gap() * cj + c.latency() } else { c.latency() };
        assert!(m.submit < m.deliver && m.deliver <= m.submit + window, "window of {m:?}");
    }
    for (proc, log) in r.ops.iter().enumerate() {
        let mut last: Option<u64> = None;
        for &(step, op) in log {
            if matches!(op, SimOp::Submit(_) | SimOp::Receive(_)) {
                assert!(last.is_none_or(|l| step - l >= c.gap()), "gap at P{proc} step {step}");
                last = Some(step);
            }
            if let SimOp::Receive(got) = op {
                let mut buffer: Vec<&logp_stall::sim::SimMessage> = r
                    .messages
                    .iter()
                    .filter(|m| {
                        m.dest == proc as u32
                            && m.deliver <= step
                            && m.received_at.is_none_or(|t| t >= step)
                    })
                    .collect();
                buffer.sort_by_key(|m| (m.deliver, m.submit, m.src));
                assert_eq!(got, buffer.first().map(|m| m.id), "buffer head at P{proc} step {step}");
            }
            if op == SimOp::Stalled {
                assert!(
                    r.episodes
                        .iter()
                        .any(|e| { e.proc == proc as u32 && e.signal <= step && step < e.unstall }),
                    "P{proc} stalled at {step} outside every episode"
                );
            }
        }
    }
    for e in &r.episodes {
        let trigger = &r.messages[e.trigger_msg as usize];
        let t = trigger.submit;
        assert!(count(trigger) > k, "episode {e:?}: trigger not violating");
        assert!(t < e.signal && e.signal <= t + c.delta(), "episode {e:?}: signal");
        let t_bar = r
            .messages
            .iter()
            .filter(|m| m.src == e.proc && m.submit >= t && m.submit < e.signal && count(m) > k)
            .map(|m| m.deliver)
            .max()
            .unwrap_or(0);
        assert!(
            t_bar < e.unstall && e.unstall <= t_bar + c.delta(),
            "episode {e:?}: unstall, t_bar {t_bar}"
        );
    }
}

/// The simulated run judged by the machine's tools: its trace passes `check_legal`, and replayed
/// on the direct machine (`Replay`) it gives the same op logs and the same final states.
fn assert_direct_equal<P: LogpProcess>(r: &SimReport<P::State>, c: &SimConfig, procs: Vec<P>) {
    let trace = r.to_trace(c).unwrap();
    if let Err(v) = check_legal(&trace, CheckOpts::default()) {
        panic!("simulated trace is illegal: {v:?}");
    }
    let mc = MachineConfig::new(trace.params, StallRule::Delta { delta: c.delta() }).unwrap();
    let direct = logp_stall::run(&mc, procs, &mut Replay::new(&trace)).unwrap();
    assert_eq!(direct.states, r.states, "replayed final states differ");
    assert_eq!(direct.trace.ops, trace.ops, "replayed op logs differ");
    assert_eq!(direct.trace.messages, trace.messages, "replayed messages differ");
    assert_eq!(direct.t, r.t);
}

/// A buffered message: (deliver, submit, src, id, payload).
type Buffered<Pl> = (u64, u64, u32, u64, Pl);

/// A plain step-by-step LogP execution (paper §2) that replays the simulated run's
/// nondeterministic choices (delivery times by (src, submit), stall intervals from the
/// episodes) on fresh copies of the programs, and checks that every action, every receive
/// and every final state is the same as in the simulation.
fn assert_replay_equal<P: LogpProcess>(r: &SimReport<P::State>, mut procs: Vec<P>) {
    let p = procs.len();
    let deliver_of = |src: u32, submit: u64| {
        r.messages
            .iter()
            .find(|m| m.src == src && m.submit == submit)
            .map(|m| (m.id, m.deliver, m.dest))
    };
    let stalled = |i: usize, t: u64| {
        r.episodes.iter().any(|e| e.proc == i as u32 && e.signal <= t && t < e.unstall)
    };
    let mut buffers: Vec<Vec<Buffered<P::Payload>>> = vec![Vec::new(); p];
    let mut in_flight: Vec<(u64, u64, u32, u32, u64, P::Payload)> = Vec::new();
    let mut logs: Vec<Vec<(u64, SimOp)>> = vec![Vec::new(); p];
    let horizon = r.messages.iter().map(|m| m.deliver).max().unwrap_or(0).max(r.t) + 1;
    for t in 0..horizon {
        // Deliver, keeping each buffer in (deliver, submit, src) order.
        let (now, later): (Vec<_>, Vec<_>) = in_flight.drain(..).partition(|m| m.0 == t);
        in_flight = later;
        for (d, submit, src, dest, id, payload) in now {
            buffers[dest as usize].push((d, submit, src, id, payload));
            buffers[dest as usize].sort_by_key(|b| (b.0, b.1, b.2));
        }
        for (i, proc) in procs.iter_mut().enumerate() {
            if proc.is_halted() {
                continue;
            }
            if stalled(i, t) {
                logs[i].push((t, SimOp::Stalled));
                continue;
            }
            let op = match proc.next(t) {
                Action::Compute => SimOp::Compute,
                Action::Idle => SimOp::Idle,
                Action::Submit { dest, payload } => {
                    let (id, d, dest2) =
                        deliver_of(i as u32, t).expect("submit recorded by the simulation");
                    assert_eq!(dest, dest2, "P{i} submits to another destination at {t}");
                    in_flight.push((d, t, i as u32, dest, id, payload));
                    SimOp::Submit(id)
                }
                Action::Receive => {
                    if buffers[i].is_empty() {
                        proc.on_receive(None, t);
                        SimOp::Receive(None)
                    } else {
                        let (_, _, src, id, payload) = buffers[i].remove(0);
                        proc.on_receive(Some(Delivered { src, payload }), t);
                        SimOp::Receive(Some(id))
                    }
                }
            };
            logs[i].push((t, op));
        }
    }
    assert_eq!(logs, r.ops, "replayed op logs differ from the simulation's");
    let states: Vec<P::State> = procs.iter().map(|p| p.state()).collect();
    assert_eq!(states, r.states, "replayed final states differ");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Random traffic on random parameters: every processor receives exactly the multiset
    /// sent to it, the per-cycle invariants hold, deliveries respect the LogP windows
    /// recomputed from the trace, and the same seed gives the same run.
    #[test]
    fn random_traffic_is_simulated_soundly(
        log_p in 2u32..=5,
        gap in 2u64..=4,
        l_over_g in 1u64..=3,
        delta_pick in 0u64..3,
        r in 1u32..=4,
        seed in 0u64..1000,
    ) {
        let p = 1u32 << log_p;
        let latency = gap * l_over_g;
        prop_assume!(latency <= u64::from(p));
        let delta = [1, gap, latency][delta_pick as usize];
        let params = LogpParams::new(Logp { p, latency, gap, o: 1 }).unwrap();
        let c = SimConfig::new(&params, delta, 2, 3).unwrap().with_max_cycles(1000).unwrap();
        let mut rng = netcore::rng::seeded(seed, 0);
        let (procs, reference) = programs(Workload::RandomTraffic, p, gap, r, &mut rng);
        let rep = simulate(&c, procs.clone()).unwrap();
        assert_legal(&rep, &c);
        assert_replay_equal(&rep, procs.clone());
        assert_direct_equal(&rep, &c, procs.clone());
        prop_assert_eq!(&rep.states, &reference);
        prop_assert!(rep.broken_invariants.is_empty(), "{:?}", rep.broken_invariants);
        let k = latency.div_ceil(gap);
        for m in &rep.messages {
            // c_j(t): messages to the same destination submitted at or before m, still in
            // transit at m's submission step.
            let count = rep.messages.iter().filter(|x| {
                x.dest == m.dest && x.submit <= m.submit && x.deliver > m.submit
            }).count() as u64;
            let window = if count > k { gap * count + latency } else { latency };
            prop_assert!(m.submit < m.deliver && m.deliver <= m.submit + window,
                "message {:?} outside its window (c = {}, K = {})", m, count, k);
            prop_assert!(m.received_at.is_some_and(|t| t >= m.deliver));
        }
        let again = simulate(&c, procs).unwrap();
        prop_assert_eq!(&again.ledger, &rep.ledger);
        prop_assert_eq!(again.cost, rep.cost);
        prop_assert_eq!(again.ops, rep.ops);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Every (sort, prefix) pair simulates random traffic soundly: legal, equal to the direct
    /// machine's replay, the per-cycle invariants (`schedule_len` supersteps per full cycle
    /// among them), every processor receives exactly the payloads sent to it, and the LogP
    /// execution (ops, messages, T) does not depend on the pair, only the BSP cost does.
    #[test]
    fn every_sort_and_prefix_simulates_soundly(
        log_p in 2u32..=5,
        gap in 2u64..=3,
        l_over_g in 1u64..=4,
        delta_pick in 0u64..3,
        r in 1u32..=3,
        (g, l) in (1u64..=3, 1u64..=12),
        seed in 0u64..1000,
    ) {
        let p = 1u32 << log_p;
        let latency = gap * l_over_g;
        prop_assume!(latency <= u64::from(p));
        let delta = [1, gap, latency][delta_pick as usize];
        let params = LogpParams::new(Logp { p, latency, gap, o: 1 }).unwrap();
        let mut rng = netcore::rng::seeded(seed, 0);
        let (procs, reference) = programs(Workload::RandomTraffic, p, gap, r, &mut rng);
        let mut first: Option<SimReport<_>> = None;
        for sort in SortAlgorithm::ALL {
            for prefix in Prefix::ALL {
                let c = SimConfig::new(&params, delta, g, l).unwrap()
                    .with_sort(sort)
                    .with_prefix(prefix).unwrap()
                    .with_max_cycles(1000).unwrap();
                let judged = simulate_and_judge(&c, procs.clone()).unwrap();
                let rep = judged.report;
                prop_assert!(judged.legal, "{sort}/{prefix}: illegal");
                prop_assert!(judged.replay.is_equal(), "{sort}/{prefix}: replay {}", judged.replay);
                prop_assert!(rep.broken_invariants.is_empty(), "{sort}/{prefix}: {:?}", rep.broken_invariants);
                prop_assert_eq!(&rep.states, &reference, "{}/{}", sort, prefix);
                assert_legal(&rep, &c);
                let full = rep.cycle_stats.iter().take(rep.cycle_stats.len().saturating_sub(1));
                prop_assert!(full.into_iter().all(|s| s.supersteps == c.schedule_len()));
                if prefix == Prefix::Binary {
                    prop_assert_eq!(c.fanin(), 2);
                }
                match &first {
                    None => first = Some(rep),
                    Some(f) => {
                        prop_assert_eq!(&rep.ops, &f.ops, "{}/{}", sort, prefix);
                        prop_assert_eq!(&rep.messages, &f.messages, "{}/{}", sort, prefix);
                        prop_assert_eq!(rep.t, f.t, "{}/{}", sort, prefix);
                    }
                }
            }
        }
    }
}

/// Binary scans against the default d-ary ones: p = 16 = 2^4, G = 2, L = δ = 16 (C = 16),
/// g = 1, l = 16. The d-ary fan-in is max(2, min(ceil(16/2), floor(16/1))) = 8, so a scan
/// takes 2 ceil(log_8 16) + 1 = 5 supersteps; a binary one 2 * 4 + 1 = 9. With the bitonic
/// sort's 1 + 4 * 5 / 2 = 11: 1 + 11 + 2 * 5 + 1 = 23 and 1 + 11 + 2 * 9 + 1 = 31 supersteps per
/// cycle. An explicit fan-in overrides the d-ary rule: 4 gives 2 ceil(log_4 16) + 1 = 5, 23 as
/// well; with binary scans it is refused.
#[test]
fn prefix_sets_the_scan_fanin() {
    let params = LogpParams::new(Logp { p: 16, latency: 16, gap: 2, o: 1 }).unwrap();
    let dary = SimConfig::new(&params, 16, 1, 16).unwrap();
    assert_eq!((dary.sort(), dary.prefix()), (SortAlgorithm::Bitonic, Prefix::Dary));
    assert_eq!((dary.fanin(), dary.schedule_len()), (8, 23));
    let binary = dary.clone().with_prefix(Prefix::Binary).unwrap();
    assert_eq!((binary.fanin(), binary.schedule_len()), (2, 31));
    let four = dary.with_scan_fanin(4).unwrap();
    assert_eq!((four.fanin(), four.schedule_len()), (4, 23));
    assert_eq!(
        four.with_prefix(Prefix::Binary).unwrap_err().to_string(),
        "scan_fanin must satisfy scan_fanin only with prefix = \"dary\" (got prefix=binary, scan_fanin=4)"
    );
    // The cascade on blocks of b = 2 ceil(C/G) = 16 < 32 keys is binary (fan-in 2):
    // 12 log2 16 = 48 supersteps, so 1 + 48 + 18 + 1 = 68 per cycle.
    let cascade = binary.with_sort(SortAlgorithm::Cascade);
    assert_eq!(cascade.slot_capacity(), 16);
    assert_eq!(cascade.schedule_len(), 68);
}

/// GOAL schedules run as LogP programs on the cycle simulation, for δ = 1, G and L: every
/// rank completes all its operations and takes exactly the messages its recvs match.
#[test]
fn goal_schedules_on_the_cycle_simulation() {
    use logp_stall::goal::{
        binomial_broadcast, dissemination, goal_programs, linear_alltoall, parse,
    };
    for text in [
        binomial_broadcast(8, 8).unwrap(),
        dissemination(8, 8).unwrap(),
        linear_alltoall(8, 8).unwrap(),
    ] {
        let s = parse(&text).unwrap();
        for delta in [1, 2, 8] {
            let c = cfg(8, 2, 8, delta);
            let rep = simulate(&c, goal_programs(&s, 2).unwrap()).unwrap();
            assert_replay_equal(&rep, goal_programs(&s, 2).unwrap());
            assert_direct_equal(&rep, &c, goal_programs(&s, 2).unwrap());
            assert_eq!(rep.states, s.reference_states().unwrap(), "delta = {delta}");
            assert_legal(&rep, &c);
            assert!(rep.broken_invariants.is_empty());
        }
    }
}

/// The paper's step 5(a) sets `w_i = t̄` (`docs/models/logp-stall.md`, Choices: strict
/// unstall); with `paper_literal` the episode of the hotspot case above unstalls at t'' = t̄ = 8, which breaks the rule `t̄ < t''` (our default gives 9).
#[test]
fn paper_literal_unstall_is_t_bar() {
    let c = cfg(4, 2, 4, 4).with_unstall(UnstallOffset::PaperLiteral);
    let r = simulate(&c, hotspot3()).unwrap();
    assert_eq!((r.episodes[0].signal, r.episodes[0].unstall), (4, 8));
    assert_eq!(r.messages[2].deliver, 8);
    // The strict checker rejects it (rule L10), the lenient one accepts it.
    let trace = r.to_trace(&c).unwrap();
    let strict = check_legal(&trace, CheckOpts::default()).unwrap_err();
    assert!(strict.violations().iter().any(|v| v.rule == "L10"), "{strict:?}");
    assert!(check_legal(&trace, CheckOpts { lenient_unstall: true }).is_ok());
}

/// A script ending on `wait_until 8` is simulated like `idle 8` (issue 15, item 1): both take
/// steps 0..7, so T = 8 and, with C = max{G, delta} = 4, the simulation runs ceil(8 / 4) = 2
/// cycles. The satisfied wait used to take step 8 as well: T = 9 and a third cycle.
#[test]
fn trailing_wait_costs_no_extra_cycle() {
    use logp_stall::script::{Instr, Operand, Script};
    let run = |last: Instr| {
        let procs: Vec<Script> = (0..4)
            .map(|pid| {
                let code = if pid == 0 { vec![last.clone()] } else { vec![] };
                Script::new(code, pid, 4, 2, 8).unwrap()
            })
            .collect();
        let r = simulate(&cfg(4, 2, 4, 4), procs).unwrap();
        (r.t, r.cycles)
    };
    assert_eq!(run(Instr::Idle { k: 8 }), (8, 2));
    assert_eq!(run(Instr::WaitUntil { t: Operand::Imm(8) }), (8, 2));
}
