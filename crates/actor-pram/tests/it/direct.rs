//! The direct translation against the reference interpreter.

use actor_pram::actor::Scheduler;
use actor_pram::direct::simulate_direct;
use netcore::pram::Limits;
use netcore::pram::library::Algorithm;

use crate::specs::SCHEDULERS;

/// Every library program, under every variant it is valid for, at n = 1, 2, 5, 8, 16 (powers
/// of two where required), under every scheduler: final memory, CPU and PPU registers equal the
/// reference's, and the measures (events, messages, actor space) do not depend on the
/// scheduler (only the depth may).
#[test]
fn library_programs_equal_reference() {
    for algorithm in Algorithm::ALL {
        for n in [1u32, 2, 5, 8, 16] {
            if algorithm.check_size(n).is_err() {
                continue;
            }
            let instance = algorithm.instance(n, 7).unwrap();
            for variant in algorithm.variants() {
                let program = instance.program.with_variant(variant);
                let mut first = None;
                for sched in SCHEDULERS {
                    let r = simulate_direct(&program, &instance.input, sched, &Limits::default())
                        .unwrap_or_else(|e| {
                            panic!("{} n={n} {variant} {sched}: {e}", algorithm.name())
                        });
                    assert!(r.verified, "{} n={n} {variant} {sched}", algorithm.name());
                    assert_eq!(&r.memory[instance.output.clone()], &instance.expected[..]);
                    let key = (
                        r.actor.events,
                        r.actor.messages,
                        r.actor.actor_space,
                        r.cell_actors,
                        r.pram,
                    );
                    match &first {
                        None => first = Some(key),
                        Some(k) => assert_eq!(k, &key),
                    }
                    assert!(r.actor.actor_time >= r.pram.t);
                }
            }
        }
    }
}

/// The paper's prefix sums (Section 2.1 example; `T = 40`, `G = 9`), n = 8, EREW, every
/// scheduler. Every instruction is one event of each PPU actor (a chain of 40 events from the
/// injected `Step`); a read adds two levels (the cell's event, then the reply's event at the
/// PPU, which sends the next `Step`). PPU 7 takes part in both reads of each of the 3
/// iterations (`r2 = [c0 <= 7]`): 6 reads, so its chain ends at depth 40 + 2·6 = 52 when no
/// cell lags, and none does (each cell is touched by at most one PPU per step).
/// Events: 8 × 40 instructions, + 41 reads (24 unpredicated, 7 + 6 + 4 predicated) each
/// with a cell event and a reply event, + 24 write events at cells = 320 + 82 + 24 = 426;
/// messages = events (each consumed once). Actor space: 8 PPU actors × 36 words = 288, plus
/// 8 cells × 4 words + 2 words per (cell, step) pair of the schedules (24 + 17 + 24 = 65)
/// = 32 + 130: 450. Max acquaintances 4 (PPU i reads cells i and i − 1, i − 2, i − 4).
#[test]
fn prefix_sums_depth() {
    let instance = Algorithm::PrefixSums.instance(8, 1).unwrap();
    let mut rows = Vec::new();
    for sched in SCHEDULERS {
        let r =
            simulate_direct(&instance.program, &instance.input, sched, &Limits::default()).unwrap();
        assert!(r.verified);
        rows.push(format!(
            "{sched}: T={} actor_time={} events={} messages={} actor_space={} max_mailbox={} max_reads={} max_acq={}",
            r.pram.t, r.actor.actor_time, r.actor.events, r.actor.messages, r.actor.actor_space,
            r.actor.max_mailbox, r.max_reads, r.max_acquaintances
        ));
    }
    insta::assert_yaml_snapshot!(rows);
}

/// A program the reference rejects fails with the reference's error (kind and global step).
#[test]
fn conflicts_are_the_reference_errors() {
    let text =
        ".variant erew\n.mem 4\n.ppus 2\n.lmem 0\nactive 2\np.set r0,1\np.read r1,[r0]\nhalt\n";
    let program = netcore::pram::Program::parse(text).unwrap();
    let err = simulate_direct(&program, &[], Scheduler::Fifo, &Limits::default()).unwrap_err();
    let reference = netcore::pram::run(&program, &[], &Limits::default()).unwrap_err();
    assert_eq!(err, actor_pram::Error::Pram(reference));
    assert!(err.to_string().contains("global step 1"), "{err}");
}

/// Bad inputs are typed errors, refused before allocating (`actor_pram::limits`): the PPU
/// actors over the budget (S = 2^16 at 1536 bytes each, 100.7 MB, against a 16 MiB budget
/// that the reference's own estimate, 188 bytes per PPU, fits: field `S`), the schedules
/// over it (field `accesses`), the cell actors over it (field `cells`), a broadcast tree
/// beyond 2^24 PPUs, a router with b = 0 or n = 1, a probe with 0 rounds.
#[test]
fn bad_inputs_are_typed_errors() {
    use netcore::fault::{Classify, Fault};
    use netcore::limits::TooLarge;
    let too_large = |field, limit, estimate| {
        actor_pram::Error::TooLarge(TooLarge { field, limit, estimate, unit: "bytes (estimated)" })
    };
    let text = ".variant erew\n.mem 4\n.ppus 65536\n.lmem 0\nhalt\n";
    let program = netcore::pram::Program::parse(text).unwrap();
    let limits = Limits { max_bytes: 1 << 20, ..Limits::default() };
    let err = simulate_direct(&program, &[], Scheduler::Fifo, &limits).unwrap_err();
    assert_eq!(err, too_large(actor_pram::limits::PPUS_FIELD, 1 << 20, 65536 * 1536));
    let limits = Limits { max_bytes: 16 << 20, ..Limits::default() };
    let err = simulate_direct(&program, &[], Scheduler::Fifo, &limits).unwrap_err();
    assert_eq!(err, too_large(actor_pram::limits::PPUS_FIELD, 16 << 20, 65536 * 1536));
    assert_eq!(err.fault(), Fault::Input);
    assert_eq!(
        err.to_string(),
        "pram (its S PPUs) is too large: the run needs 100663296 bytes (estimated), the limit is 16777216"
    );
    // Prefix sums on 1024 values: the 1024 PPU actors (1.6 MB) fit a 2 MB budget, the cells'
    // schedules (about 50,000 accesses at 64 bytes) do not: refused while the trace is read.
    let instance = Algorithm::PrefixSums.instance(1024, 1).unwrap();
    let limits = Limits { max_bytes: 2_000_000, ..Limits::default() };
    let err =
        simulate_direct(&instance.program, &instance.input, Scheduler::Fifo, &limits).unwrap_err();
    assert!(
        matches!(&err, actor_pram::Error::TooLarge(TooLarge { field: "accesses", limit: 2_000_000, estimate, .. }) if *estimate > 2_000_000),
        "{err}"
    );
    // 1024 PPUs each writing its own cell: PPU actors 1,572,864 bytes and 1024 accesses
    // (65,536 bytes of entries) fit, the 1024 cell actors (1,048,576 bytes) do not.
    let text = ".variant erew\n.mem 1024\n.ppus 1024\n.lmem 0\nactive 1024\np.pid r0\np.write [r0],r0\nhalt\n";
    let program = netcore::pram::Program::parse(text).unwrap();
    let err = simulate_direct(&program, &[], Scheduler::Fifo, &limits).unwrap_err();
    assert_eq!(err, too_large("cells", 2_000_000, 1_572_864 + 65_536 + 1_048_576));
    let err = actor_pram::broadcast::broadcast_tree((1 << 24) + 1, Scheduler::Fifo).unwrap_err();
    assert_eq!(err.to_string(), "s must satisfy s <= 2^24 (got 16777217)");
    let err = actor_pram::ranade::LockstepRouter::new(2, 0, true).unwrap_err();
    assert_eq!(err.to_string(), "b must satisfy b >= 1 (got 0)");
    assert!(actor_pram::ranade::LockstepRouter::new(1, 1, true).is_err());
    let err = actor_pram::cadence::cadence_probe(2, 0, Scheduler::Fifo).unwrap_err();
    assert_eq!(err.to_string(), "rounds must satisfy 1 <= rounds <= 10^6 (got 0)");
}

/// Broadcast-sync (baseline B2, Theorem 1's construction) on a program of local
/// instructions only (`active S; p.pid r0; p.set r1,1; halt`, T = 4) with a full tree of
/// `S = 2^(h+1) − 1` PPU actors (levels 0..h). Per instruction started by the CPU actor's
/// event at depth D: a PPU actor of level k gets `Go` at D + 1 + k; a leaf (level h) sends
/// `Done` at once (depth D + 1 + h); a PPU actor of level k < h takes its two children's
/// `Done`s, both sent at the same depth, in two serialized events, so its own `Done` leaves
/// 2 deeper than its children's: PPU actor 0 at D + 1 + 3h, the CPU actor's next event at
/// D + 2 + 3h. With the injected start at depth 1: actor time `1 + T (3h + 2)` under every
/// scheduler: S = 1: 9, S = 3: 21, S = 7: 33, S = 15: 45. Events: the injected start, then
/// per instruction S `Go` events and S − 1 `Done` events at PPU actors and the CPU actor's
/// `Done` event (which starts the next instruction): `1 + 2 T S` = 9, 25, 57, 121.
#[test]
fn broadcast_sync_full_trees() {
    use actor_pram::direct::simulate_broadcast_sync;
    let mut rows = Vec::new();
    for s in [1u32, 3, 7, 15] {
        let text = format!(
            ".variant erew\n.mem 1\n.ppus {s}\n.lmem 0\nactive {s}\np.pid r0\np.set r1,1\nhalt\n"
        );
        let program = netcore::pram::Program::parse(&text).unwrap();
        let mut times = Vec::new();
        for sched in SCHEDULERS {
            let r = simulate_broadcast_sync(&program, &[0], sched, &Limits::default()).unwrap();
            assert!(r.verified);
            times.push((r.pram.t, r.actor.actor_time, r.actor.events));
        }
        times.dedup();
        rows.push(format!("S={s}: (T, actor_time, events) = {times:?}"));
    }
    insta::assert_yaml_snapshot!(rows);
}

/// Broadcast-sync gives the reference's outcome for every library program under every
/// variant and scheduler (the same cells and schedules as the direct translation), and costs
/// at least the tree's `2 · floor(log2 S) + 2` per instruction.
#[test]
fn broadcast_sync_library_programs() {
    use actor_pram::direct::simulate_broadcast_sync;
    for algorithm in Algorithm::ALL {
        for n in [1u32, 5, 16] {
            if algorithm.check_size(n).is_err() {
                continue;
            }
            let instance = algorithm.instance(n, 3).unwrap();
            for variant in algorithm.variants() {
                let program = instance.program.with_variant(variant);
                for sched in SCHEDULERS {
                    let r = simulate_broadcast_sync(
                        &program,
                        &instance.input,
                        sched,
                        &Limits::default(),
                    )
                    .unwrap_or_else(|e| {
                        panic!("{} n={n} {variant} {sched}: {e}", algorithm.name())
                    });
                    assert!(r.verified, "{} n={n} {variant} {sched}", algorithm.name());
                    assert_eq!(&r.memory[instance.output.clone()], &instance.expected[..]);
                    let h = u64::from(program.ppus().ilog2());
                    assert!(r.actor.actor_time > r.pram.t * (2 * h + 2), "{}", algorithm.name());
                }
            }
        }
    }
}

/// A recorded run (for a picture) is the plain run plus its DAG: broadcast-sync of 7 PPUs has
/// 57 events (above), so 57 DAG nodes (8 actors named) and the same measures, every edge from
/// an earlier event to a later one; the plain run records nothing. With at most 56 events it
/// stops at the runtime's event limit.
#[test]
fn recorded_run_equals_the_plain_run() {
    use actor_pram::actor::ActorError;
    use actor_pram::direct::{Sync, simulate_broadcast_sync, simulate_recorded};
    let text = ".variant erew\n.mem 1\n.ppus 7\n.lmem 0\nactive 7\np.pid r0\np.set r1,1\nhalt\n";
    let program = netcore::pram::Program::parse(text).unwrap();
    let limits = Limits::default();
    let plain = simulate_broadcast_sync(&program, &[0], Scheduler::Lifo, &limits).unwrap();
    let recorded =
        simulate_recorded(&program, &[0], Scheduler::Lifo, &limits, Sync::Broadcast, 57).unwrap();
    assert_eq!(plain.recorded, None);
    assert_eq!(recorded.actor, plain.actor);
    let (dag, names) = recorded.recorded.unwrap();
    assert_eq!(dag.nodes.len(), 57);
    assert_eq!(names.len(), 8);
    assert!(dag.edges.iter().all(|&(from, to)| from < to));
    let e = simulate_recorded(&program, &[0], Scheduler::Lifo, &limits, Sync::Broadcast, 56)
        .unwrap_err();
    assert!(matches!(e, actor_pram::Error::Actor(ActorError::EventLimit { limit: 56 })), "{e}");
}
