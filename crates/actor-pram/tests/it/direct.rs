//! The direct translation against the reference interpreter.

use actor_pram::actor::Scheduler;
use actor_pram::direct::simulate_direct;
use netcore::pram::Limits;
use netcore::pram::library::Algorithm;

use crate::specs::SCHEDULERS;

/// Every library program, under every variant it is valid for, at n = 1, 2, 5, 8 (powers of
/// two where required), under every scheduler: final memory, CPU and PPU registers equal the
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
                    let key = (r.actor.events, r.actor.messages, r.cell_actors, r.pram);
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
