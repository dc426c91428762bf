//! A deliberately simple reference for the LogGOPSim-compatible engine: LogGOPSim's event
//! loop (`src/LogGOPSim/LogGOPSim.cpp`) written as literally as possible, with its data
//! layout (one record per queue element, a per-rank graph with `DependOnMe` and
//! `StartDependOnMe` lists, per-rank executable lists, list matching queues) and a linear
//! scan for the smallest `(time, stamp)` instead of a heap. Random schedules (random L, o, g,
//! G, O, S, sizes, tags, wildcards, cpu/nic annotations, requires/irequires and line order)
//! must give the same makespan, per-rank ends, operation and message counts in both, or fail
//! in both. The departures from LogGOPSim are the project's: a 0-byte message has no
//! per-byte cost, and an operation completes once.

use logp_stall::goal::{LogGopsParams, OpKind, Schedule, parse, run_loggops};
use proptest::prelude::*;

const ANY: u32 = u32::MAX;
const OP_SEND: u8 = 1;
const OP_RECV: u8 = 2;
const OP_LOCOP: u8 = 3;
const OP_MSG: u8 = 4;

/// One LogGOPSim graph node (rank-local offsets).
struct Node {
    ty: u8,
    size: u64,
    peer: u32,
    tag: u32,
    proc: usize,
    nic: usize,
    deps: u32,
    depend_on_me: Vec<usize>,
    start_depend_on_me: Vec<usize>,
}

/// One active-queue element (`graph_node_properties`).
#[derive(Clone, Copy)]
struct Elem {
    time: u64,
    ts: u64,
    size: u64,
    target: u32,
    host: u32,
    offset: usize,
    tag: u32,
    proc: usize,
    nic: usize,
    ty: u8,
}

/// A receive-queue or unexpected-queue element.
#[derive(Clone, Copy)]
struct QElem {
    src: u32,
    tag: u32,
    offset: usize,
}

struct Rank {
    nodes: Vec<Node>,
    executable: Vec<usize>,
    completed: Vec<bool>,
}

impl Rank {
    fn mark_started(&mut self, off: usize) {
        for i in 0..self.nodes[off].start_depend_on_me.len() {
            let d = self.nodes[off].start_depend_on_me[i];
            self.nodes[d].deps -= 1;
            if self.nodes[d].deps == 0 {
                self.executable.push(d);
            }
        }
    }

    fn mark_done(&mut self, off: usize, done: &mut u64) {
        // The project's departure: an operation completes once.
        if self.completed[off] {
            return;
        }
        self.completed[off] = true;
        *done += 1;
        for i in 0..self.nodes[off].depend_on_me.len() {
            let d = self.nodes[off].depend_on_me[i];
            self.nodes[d].deps -= 1;
            if self.nodes[d].deps == 0 {
                self.executable.push(d);
            }
        }
    }
}

fn find_match(want_src: u32, want_tag: u32, q: &mut Vec<QElem>) -> Option<QElem> {
    for i in 0..q.len() {
        let e = q[i];
        let src_ok = want_src == ANY || e.src == ANY || e.src == want_src;
        if src_ok && (want_tag == ANY || e.tag == ANY || e.tag == want_tag) {
            q.remove(i);
            return Some(e);
        }
    }
    None
}

/// Takes a rank's executable nodes, stably sorted by type, into the active queue (at time 0
/// at start-up).
fn check(
    host: usize,
    ranks: &mut [Rank],
    aq: &mut Vec<Elem>,
    aqtime: &mut u64,
    nexto: &[Vec<u64>],
    nextgs: &[Vec<u64>],
    start: bool,
) {
    let mut free: Vec<usize> = std::mem::take(&mut ranks[host].executable);
    free.sort_by_key(|&i| ranks[host].nodes[i].ty);
    for off in free {
        let n = &ranks[host].nodes[off];
        let time = if start {
            0
        } else if n.ty == OP_SEND {
            nexto[host][n.proc].max(nextgs[host][n.nic])
        } else {
            nexto[host][n.proc]
        };
        aq.push(Elem {
            time,
            ts: *aqtime,
            size: n.size,
            target: n.peer,
            host: host as u32,
            offset: off,
            tag: n.tag,
            proc: n.proc,
            nic: n.nic,
            ty: n.ty,
        });
        *aqtime += 1;
    }
}

/// `(makespan, rank ends, ops completed, messages processed)`, or `None` when some operation
/// never completes or a queue is left non-empty.
type Outcome = Option<(u64, Vec<u64>, u64, u64)>;

/// The [`Outcome`] of `s` run with `prm`.
fn reference(s: &Schedule, prm: LogGopsParams) -> Outcome {
    reference_counted(s, prm).0
}

/// [`reference`], with the entries taken from the active queue (put-back ones again) and the
/// largest length of the active queue (at start-up and after each entry).
fn reference_counted(s: &Schedule, prm: LogGopsParams) -> (Outcome, u64, u64) {
    let p = s.num_ranks as usize;
    let (o, big_o, g, l, big_g, big_s) =
        (prm.o, prm.overhead_per_byte, prm.gap, prm.latency, prm.gap_per_byte, prm.s);
    let ncpus = s.ops().map(|x| usize::from(x.cpu)).max().unwrap_or(0) + 1;
    let nnics = s.ops().map(|x| usize::from(x.nic)).max().unwrap_or(0) + 1;
    let mut ranks: Vec<Rank> = (0..p)
        .map(|r| {
            let base = s.rank_start[r] as usize;
            let mut nodes: Vec<Node> = s
                .rank_ops(r as u32)
                .map(|x| Node {
                    ty: match x.kind {
                        OpKind::Send => OP_SEND,
                        OpKind::Recv => OP_RECV,
                        OpKind::Calc => OP_LOCOP,
                    },
                    size: u64::from(x.size),
                    peer: x.peer,
                    tag: x.tag,
                    proc: usize::from(x.cpu),
                    nic: usize::from(x.nic),
                    deps: 0,
                    depend_on_me: vec![],
                    start_depend_on_me: vec![],
                })
                .collect();
            for d in s.deps() {
                let (a, b) = (d.op as usize, d.on as usize);
                if a >= base && a < base + nodes.len() {
                    let (a, b) = (a - base, b - base);
                    nodes[a].deps += 1;
                    match d.kind {
                        logp_stall::goal::DepKind::Requires => nodes[b].depend_on_me.push(a),
                        logp_stall::goal::DepKind::Irequires => nodes[b].start_depend_on_me.push(a),
                    }
                }
            }
            let executable = (0..nodes.len()).filter(|&i| nodes[i].deps == 0).collect();
            Rank { completed: vec![false; nodes.len()], nodes, executable }
        })
        .collect();
    let mut nexto = vec![vec![0u64; ncpus]; p];
    let mut nextgr = vec![vec![0u64; nnics]; p];
    let mut nextgs = vec![vec![0u64; nnics]; p];
    let mut rq: Vec<Vec<QElem>> = vec![vec![]; p];
    let mut uq: Vec<Vec<QElem>> = vec![vec![]; p];
    let mut aq: Vec<Elem> = vec![];
    let mut aqtime = 0u64;
    let (mut done, mut messages) = (0u64, 0u64);
    let pb = |size: u64, per: u64| size.saturating_sub(1) * per;

    for host in 0..p {
        check(host, &mut ranks, &mut aq, &mut aqtime, &nexto, &nextgs, true);
    }
    let (mut events, mut peak) = (0u64, aq.len() as u64);
    while !aq.is_empty() {
        events += 1;
        let mut best = 0;
        for i in 1..aq.len() {
            if (aq[i].time, aq[i].ts) < (aq[best].time, aq[best].ts) {
                best = i;
            }
        }
        let mut elem = aq.swap_remove(best);
        let h = elem.host as usize;
        let mut check_hosts: Vec<usize> = vec![];
        match elem.ty {
            OP_LOCOP => {
                if nexto[h][elem.proc] <= elem.time {
                    nexto[h][elem.proc] = elem.time + elem.size;
                    ranks[h].mark_started(elem.offset);
                    ranks[h].mark_done(elem.offset, &mut done);
                    check_hosts.push(h);
                } else {
                    elem.time = nexto[h][elem.proc];
                    aq.push(elem);
                }
            }
            OP_SEND => {
                if nexto[h][elem.proc].max(nextgs[h][elem.nic]) <= elem.time {
                    ranks[h].mark_started(elem.offset);
                    check_hosts.push(h);
                    nexto[h][elem.proc] = elem.time + o + pb(elem.size, big_o);
                    nextgs[h][elem.nic] = elem.time + g + pb(elem.size, big_g);
                    let mut msg = elem;
                    msg.ty = OP_MSG;
                    msg.host = elem.target;
                    msg.target = elem.host;
                    msg.time = elem.time + o + l;
                    msg.ts = aqtime;
                    aqtime += 1;
                    aq.push(msg);
                    if elem.size <= big_s {
                        ranks[h].mark_done(elem.offset, &mut done);
                    }
                } else {
                    elem.time = nexto[h][elem.proc].max(nextgs[h][elem.nic]);
                    aq.push(elem);
                }
            }
            OP_RECV => {
                ranks[h].mark_started(elem.offset);
                check_hosts.push(h);
                if let Some(m) = find_match(elem.target, elem.tag, &mut uq[h]) {
                    if elem.size > big_s {
                        let src = m.src as usize;
                        ranks[src].mark_done(m.offset, &mut done);
                        check_hosts.push(src);
                        nexto[src][elem.proc] = nexto[src][elem.proc].max(elem.time);
                        nextgs[src][elem.nic] = nextgs[src][elem.nic].max(elem.time);
                    }
                    ranks[h].mark_done(elem.offset, &mut done);
                } else {
                    rq[h].push(QElem { src: elem.target, tag: elem.tag, offset: elem.offset });
                }
            }
            _ => {
                if nexto[h][elem.proc].max(nextgr[h][elem.nic]) <= elem.time {
                    nexto[h][elem.proc] =
                        elem.time + o + pb(elem.size, big_o).max(pb(elem.size, big_g));
                    nextgr[h][elem.nic] = elem.time + g + pb(elem.size, big_g);
                    messages += 1;
                    if let Some(m) = find_match(elem.target, elem.tag, &mut rq[h]) {
                        if elem.size > big_s {
                            let src = elem.target as usize;
                            ranks[src].mark_done(elem.offset, &mut done);
                            check_hosts.push(src);
                            nexto[src][elem.proc] = nexto[src][elem.proc].max(elem.time);
                            nextgs[src][elem.nic] = nextgs[src][elem.nic].max(elem.time);
                        }
                        ranks[h].mark_done(m.offset, &mut done);
                        check_hosts.push(h);
                    } else {
                        uq[h].push(QElem { src: elem.target, tag: elem.tag, offset: elem.offset });
                    }
                } else {
                    elem.time = nexto[h][elem.proc].max(nextgr[h][elem.nic]);
                    aq.push(elem);
                }
            }
        }
        check_hosts.sort();
        check_hosts.dedup();
        for host in check_hosts {
            check(host, &mut ranks, &mut aq, &mut aqtime, &nexto, &nextgs, false);
        }
        peak = peak.max(aq.len() as u64);
    }
    let complete =
        done == s.n_ops() as u64 && rq.iter().all(Vec::is_empty) && uq.iter().all(Vec::is_empty);
    if !complete {
        return (None, events, peak);
    }
    let ends: Vec<u64> = nexto.iter().map(|c| *c.iter().max().unwrap()).collect();
    (Some((*ends.iter().max().unwrap(), ends, done, messages)), events, peak)
}

/// A random schedule as GOAL text: messages between random ranks (random sizes, tags, some
/// wildcard recvs), calcs, random annotations, dependencies from later-generated to
/// earlier-generated operations of a rank (acyclic), then every rank's lines shuffled.
#[derive(Debug, Clone)]
struct Case {
    text: String,
    prm: LogGopsParams,
}

fn case() -> impl Strategy<Value = Case> {
    let small = prop_oneof![Just(0u64), Just(1), Just(2), Just(5), Just(10), Just(100), Just(1000)];
    let prm = (
        small.clone(),
        small.clone(),
        small.clone(),
        prop_oneof![Just(0u64), Just(1), Just(6)],
        prop_oneof![Just(0u64), Just(0), Just(1), Just(3)],
        prop_oneof![Just(0u64), Just(2), Just(4), Just(65535)],
    )
        .prop_map(|(l, o, g, big_g, big_o, s)| LogGopsParams {
            latency: l,
            o,
            gap: g,
            gap_per_byte: big_g,
            overhead_per_byte: big_o,
            s,
        });
    // (kind 0 message / 1 calc, a, b, size, tag, wildcard, cpu/nic)
    let item = (0u8..3, 0u32..5, 0u32..5, 0u64..9, 0u32..3, 0u8..8, 0u8..6);
    let dep = (any::<prop::sample::Index>(), any::<prop::sample::Index>(), any::<bool>());
    (
        2u32..6,
        prm,
        prop::collection::vec(item, 1..14),
        prop::collection::vec(dep, 0..16),
        any::<u64>(),
    )
        .prop_map(build)
}

/// Heavy contention, as in a linear all-to-all: 2-4 ranks with 20-60 operations, nearly all
/// ready at once, `o` above or below `g`, `L` small against the queues, so that most sends and
/// messages are put back many times and buckets move, merge and settle (rendezvous raises
/// included).
fn contended() -> impl Strategy<Value = Case> {
    let prm = (0u64..12, 1u64..5, 0u64..7, prop_oneof![Just(0u64), Just(1)], 0u64..2, 0u64..4)
        .prop_map(|(l, o, g, big_g, big_o, s)| LogGopsParams {
            latency: l,
            o,
            gap: g,
            gap_per_byte: big_g,
            overhead_per_byte: big_o,
            s: [1, 3, 8, 65535][s as usize],
        });
    // Messages mostly (kind 1-7), no wildcards, a quarter annotated `cpu`/`nic`.
    let item = (0u8..8, 0u32..4, 0u32..4, 0u64..9, 0u32..2, 2u8..12, 0u8..12);
    let dep = (any::<prop::sample::Index>(), any::<prop::sample::Index>(), any::<bool>());
    (
        2u32..5,
        prm,
        prop::collection::vec(item, 20..60),
        prop::collection::vec(dep, 0..8),
        any::<u64>(),
    )
        .prop_map(build)
}

/// The text of a random case: `items` as calcs or messages on `p` ranks, `deps` within each
/// rank, lines shuffled by `seed`.
#[allow(clippy::type_complexity)]
fn build(
    (p, prm, items, deps, seed): (
        u32,
        LogGopsParams,
        Vec<(u8, u32, u32, u64, u32, u8, u8)>,
        Vec<(prop::sample::Index, prop::sample::Index, bool)>,
        u64,
    ),
) -> Case {
    let mut lines: Vec<Vec<String>> = vec![vec![]; p as usize];
    let mut labels: Vec<Vec<String>> = vec![vec![]; p as usize];
    let ann = |c: u8| match c {
        0 => " cpu 1",
        1 => " nic 1",
        2 => " cpu 1 nic 1",
        _ => "",
    };
    for (i, &(kind, a, b, size, tag, wild, c)) in items.iter().enumerate() {
        let (a, b) = (a % p, b % p);
        if kind == 0 || a == b {
            let label = format!("c{i}");
            lines[a as usize].push(format!("{label}: calc {}", size * 7));
            labels[a as usize].push(label);
            continue;
        }
        let size = [1, 2, 3, 5, 8, 0, 1, 1, 40][size as usize];
        let (src, rtag) = match wild {
            0 => ("-1".to_string(), tag.to_string()),
            1 => (a.to_string(), "-1".to_string()),
            _ => (a.to_string(), tag.to_string()),
        };
        lines[a as usize].push(format!("s{i}: send {size}b to {b} tag {tag}{}", ann(c)));
        labels[a as usize].push(format!("s{i}"));
        lines[b as usize].push(format!("r{i}: recv {size}b from {src} tag {rtag}{}", ann(c / 2)));
        labels[b as usize].push(format!("r{i}"));
    }
    let mut rng = seed;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut text = format!("num_ranks {p}\n");
    for r in 0..p as usize {
        let n = labels[r].len();
        let mut body = lines[r].clone();
        for (x, y, irq) in &deps {
            if n >= 2 {
                let (i, j) = (x.index(n), y.index(n));
                if i != j {
                    let (later, earlier) = (i.max(j), i.min(j));
                    let word = if *irq { "irequires" } else { "requires" };
                    body.push(format!("{} {word} {}", labels[r][later], labels[r][earlier]));
                }
            }
        }
        // Shuffle the operation lines and, separately, the dependency lines.
        let ops = lines[r].len();
        for i in (1..ops).rev() {
            let j = (next() % (i as u64 + 1)) as usize;
            body.swap(i, j);
        }
        for i in (ops + 1..body.len()).rev() {
            let j = ops + (next() % (i - ops + 1) as u64) as usize;
            body.swap(i, j);
        }
        text.push_str(&format!("rank {r} {{\n{}\n}}\n", body.join("\n")));
    }
    Case { text, prm }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// The engine and the literal transcription agree on every random schedule: the same
    /// makespan, rank ends, operations and messages, or both find it incomplete.
    #[test]
    fn engine_equals_literal_loggopsim(c in case()) {
        match parse(&c.text) {
            // Unbalanced message counts (no wildcards) are refused before running.
            Err(e) => prop_assert!(e.to_string().contains("no matching"), "{e}\n{}", c.text),
            Ok(s) => {
                let fast = run_loggops(&s, c.prm)
                    .map(|r| (r.makespan, r.rank_end, r.ops, r.messages))
                    .ok();
                prop_assert_eq!(fast, reference(&s, c.prm), "{}\n{:?}", c.text, c.prm);
            }
        }
    }

    /// Under heavy contention the engine equals the literal transcription in everything it
    /// reports: makespan, rank ends, operations, messages, entries taken and queue peak.
    #[test]
    fn engine_equals_literal_loggopsim_under_contention(c in contended()) {
        if let Ok(s) = parse(&c.text) {
            let fast = run_loggops(&s, c.prm)
                .map(|r| ((r.makespan, r.rank_end, r.ops, r.messages), r.events, r.peak_events))
                .ok();
            let (outcome, events, peak) = reference_counted(&s, c.prm);
            let slow = outcome.map(|o| (o, events, peak));
            prop_assert_eq!(fast, slow, "{}\n{:?}", c.text, c.prm);
        }
    }

    /// The engine takes entries from the active queue exactly as often as the literal
    /// transcription (each put-back entry again, though the engine moves put-back entries a
    /// bucket at a time) and its queue peaks at the same length, on every random schedule
    /// that runs to the end.
    #[test]
    fn engine_counts_entries_as_literal_loggopsim(c in case()) {
        if let Ok(s) = parse(&c.text)
            && let Ok(run) = run_loggops(&s, c.prm)
        {
            let (_, events, peak) = reference_counted(&s, c.prm);
            prop_assert_eq!((run.events, run.peak_events), (events, peak), "{}\n{:?}", c.text, c.prm);
        }
    }
}

/// The reference itself gives LogGOPSim's makespans on the corpus (`goal_corpus.rs`), so that
/// agreeing with it means agreeing with LogGOPSim: every case of at most 1000 operations (its
/// linear scan of the active queue is quadratic; the engine runs all 304 in
/// `goal_corpus.rs`).
#[test]
fn reference_matches_the_corpus() {
    let mut wrong = Vec::new();
    let mut checked = 0;
    for c in crate::goal_corpus::corpus() {
        let s = parse(&c.text).unwrap();
        if s.n_ops() > 1000 {
            continue;
        }
        checked += 1;
        let got = reference(&s, c.prm).map(|r| r.0);
        if got != Some(c.makespan) {
            wrong.push(format!("{}: LogGOPSim {}, reference {got:?}", c.file, c.makespan));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    eprintln!("reference checked on {checked} corpus cases");
    assert!(checked >= 200, "only {checked} corpus cases are small enough");
}
