//! The smallest reproducers of issue 16 (differences from LogGOPSim), each with LogGOPSim's
//! result derived by hand from its event loop (`src/LogGOPSim/LogGOPSim.cpp`, rules in
//! `docs/models/logp-stall.md`, Choices). Stamps: start-up entries are numbered rank by rank,
//! each rank's operations stably sorted send < recv < calc; every later entry takes the next
//! number, a put-back entry keeps its own. `nexto`, `nextgs`, `nextgr`: when a rank's CPU,
//! send gap and receive gap are free.

use logp_stall::goal::{
    Busy, LogGopsParams, linear_alltoall, parse, run_loggops, run_loggops_traced,
};

/// LogGOPSim's defaults: L = 2500, o = 1500, g = 1000, G = 0 (the figures).
const DEFAULTS: LogGopsParams =
    LogGopsParams { latency: 2500, o: 1500, gap: 1000, ..LogGopsParams::LOGGOPSIM };

/// LogGOPSim's results: the makespan, each rank's finish time, and the operations and
/// messages (each counted once).
#[derive(serde::Serialize)]
struct Outcome {
    makespan: u64,
    rank_end: Vec<u64>,
    ops: u64,
    messages: u64,
}

fn run(text: &str, prm: LogGopsParams) -> Outcome {
    let r = run_loggops(&parse(text).unwrap(), prm).unwrap();
    Outcome { makespan: r.makespan, rank_end: r.rank_end, ops: r.ops, messages: r.messages }
}

/// Rank `rank`'s CPU intervals in the order the engine fixed them: what, the operation (a
/// receive names its message's send; operations are numbered rank by rank in line order),
/// start and end. Where two orders give the same ends, these tell them apart.
fn cpu_of(text: &str, prm: LogGopsParams, rank: u32) -> Vec<(Busy, u32, u64, u64)> {
    let (_, trace) = run_loggops_traced(&parse(text).unwrap(), prm).unwrap();
    trace.iter().filter(|i| i.rank == rank).map(|i| (i.what, i.op, i.from, i.to)).collect()
}

/// Reproducer 1a: `b irequires a`, a a calc 10 and b a send on rank 0: a runs [0, 10) and starts
/// b, which is queued at nexto = 10 and runs [10, 1510); its message reaches rank 1 at
/// 10 + o + L = 4010 and is taken in [4010, 5510): ends [1510, 5510], 3 operations, 1 message.
/// Without the edge the start-up order (send before calc) would run b first, [0, 1500), and
/// end at [1510, 5500].
#[test]
fn irequires_of_a_start_up_calc() {
    let text = "num_ranks 2\nrank 0 {\na: calc 10\nb: send 1b to 1\nb irequires a\n}\n\
                rank 1 {\nr: recv 1b from 0\n}\n";
    insta::assert_json_snapshot!(run(text, DEFAULTS));
}

/// Reproducer 1b: Post the recv, then send, on both ranks: each recv is posted at 0 and releases its
/// send at nexto = 0; each send runs [0, 1500) and its message reaches the other rank at
/// o + L = 4000, taken in [4000, 5500): 5500, 4 operations, 2 messages.
#[test]
fn irequires_post_recv_then_send() {
    let text = "num_ranks 2\nrank 0 {\na: recv 1b from 1\nb: send 1b to 1\nb irequires a\n}\n\
                rank 1 {\na: recv 1b from 0\nb: send 1b to 0\nb irequires a\n}\n";
    insta::assert_json_snapshot!(run(text, DEFAULTS));
}

/// Reproducer 2: Ready together, a send goes before a calc whatever the line order: the send runs
/// [0, 1500) (message at 4000, taken at rank 1 in [4000, 5500)); the calc finds the CPU busy,
/// goes back to 1500 and runs [1500, 1600): 5500.
#[test]
fn ready_operations_by_type() {
    let text = "num_ranks 2\nrank 0 {\nc: calc 100\ns: send 1b to 1\n}\n\
                rank 1 {\nr: recv 1b from 0\n}\n";
    insta::assert_json_snapshot!(run(text, DEFAULTS));
}

/// Reproducer 3: o is charged when a message arrives, even before its recv is posted. L = 100, o = 10,
/// g = 1000. Rank 0's message reaches rank 1 at 110: rank 1's CPU is free (its first send
/// ran [0, 10)), so it takes the message in [110, 120) (receive gap until 1110) into the
/// unexpected queue. Rank 1's second send waits for its send gap until 1000, runs
/// [1000, 1010) and completes (eager), releasing the recv at nexto = 1010, which finds the
/// message and completes at once: rank 1 ends at 1010. Rank 2 takes its messages (arriving
/// 110 and 1110) in [110, 120) and [1110, 1120). Ends [10, 1010, 1120].
#[test]
fn overhead_on_arrival_unexpected_queue() {
    let text = "num_ranks 3\nrank 0 {\na: send 1b to 1\n}\n\
                rank 1 {\ns1: send 1b to 2\ns2: send 1b to 2\nr: recv 1b from 0\nr requires s2\n}\n\
                rank 2 {\nx: recv 1b from 1\ny: recv 1b from 1\n}\n";
    insta::assert_json_snapshot!(run(
        text,
        LogGopsParams { latency: 100, o: 10, gap: 1000, ..LogGopsParams::LOGGOPSIM }
    ));
}

/// Reproducer 4: Equal times go by stamp, and a put-back entry keeps its stamp. L = 90, o = 10, g = 1.
/// Stamps: rank 0 send s 0, recv z 1; rank 1 recv r 2, calc c1 3. s runs [0, 10), its message
/// M (stamp 4) reaches rank 1 at 100. c1 runs [0, 200) and releases c2 at 200 (stamp 5). M at
/// 100 finds the CPU busy and goes back to 200 with stamp 4, so at 200 it comes before c2
/// (FIFO order would run c2 first): taken in [200, 210), completes r, which releases d at
/// 210 (stamp 6). c2 (stamp 5) goes back to 210 and runs [210, 260); d goes back to 260, runs
/// [260, 270), its message reaches rank 0 at 360, taken in [360, 370). Ends [370, 270].
/// FIFO order gives the same ends (c2 [200, 250), M [250, 260), d [260, 270)), so the test
/// also checks rank 1's CPU intervals in the order the engine fixed them: c1 [0, 200), M's
/// receive [200, 210), c2 [210, 260), d's send [260, 270).
#[test]
fn equal_times_by_stamp() {
    let text = "num_ranks 2\nrank 0 {\ns: send 1b to 1\nz: recv 1b from 1\n}\n\
                rank 1 {\nc1: calc 200\nc2: calc 50\nr: recv 1b from 0\nd: send 1b to 0\n\
                c2 requires c1\nd requires r\n}\n";
    let prm = LogGopsParams { latency: 90, o: 10, gap: 1, ..LogGopsParams::LOGGOPSIM };
    // Operations: s 0, z 1 (rank 0); c1 2, c2 3, r 4, d 5 (rank 1).
    assert_eq!(
        cpu_of(text, prm, 1),
        [
            (Busy::Calc, 2, 0, 200),
            (Busy::Receive, 0, 200, 210),
            (Busy::Calc, 3, 210, 260),
            (Busy::Send, 5, 260, 270)
        ]
    );
    insta::assert_json_snapshot!(run(text, prm));
}

/// Reproducer 5: o < g: a send waiting for its gap goes back to the active queue and the CPU serves the
/// next operation. Linear all-to-all, P = 64, L = 2500, o = 500, g = 1000: LogGOPSim gives
/// 66000 (issue 16).
#[test]
fn alltoall_64_send_waits_for_gap() {
    let s = parse(&linear_alltoall(64, 1).unwrap()).unwrap();
    let r = run_loggops(
        &s,
        LogGopsParams { latency: 2500, o: 500, gap: 1000, ..LogGopsParams::LOGGOPSIM },
    )
    .unwrap();
    assert_eq!((r.makespan, r.ops, r.messages), (66000, 64 * 63 * 2, 64 * 63));
}

/// Reproducer 6: o < g: the receive gap counts from the CPU's processing. L = 100, o = 10, g = 1000.
/// Both messages reach rank 2 at 110 while it computes [0, 500): the first (stamp lower) is
/// taken in [500, 510) with the receive gap until 1500, the second goes back to 510, then to
/// 1500, and is taken in [1500, 1510). Ends [10, 10, 1510]; either order of the two messages
/// gives these ends, so rank 2's CPU intervals are checked too: c (operation 2), then a's
/// message (operation 0), then b's (operation 1).
#[test]
fn receive_gap_from_processing() {
    let text = "num_ranks 3\nrank 0 {\na: send 1b to 2\n}\nrank 1 {\nb: send 1b to 2\n}\n\
                rank 2 {\nc: calc 500\nx: recv 1b from 0\ny: recv 1b from 1\n}\n";
    let prm = LogGopsParams { latency: 100, o: 10, gap: 1000, ..LogGopsParams::LOGGOPSIM };
    assert_eq!(
        cpu_of(text, prm, 2),
        [(Busy::Calc, 2, 0, 500), (Busy::Receive, 0, 500, 510), (Busy::Receive, 1, 1500, 1510)]
    );
    insta::assert_json_snapshot!(run(text, prm));
}

/// Reproducer 7a: Rendezvous above S = 1 (L = 100, o = 10, g = 5). Rank 0's 2-byte send runs [0, 10) and
/// stays incomplete; its message reaches rank 1 at 110 while rank 1 computes [0, 1000), goes
/// back to 1000 (stamp 2, before the recv released at 1000 with stamp 3), is taken in
/// [1000, 1010) into the unexpected queue; the recv is posted at 1000, matches it and, as
/// 2 > S, completes the send and raises rank 0's nexto and nextgs to 1000; c runs
/// [1000, 1001). Ends [1001, 1010].
#[test]
fn rendezvous_above_s() {
    let text = "num_ranks 2\nrank 0 {\ns: send 2b to 1\nc: calc 1\nc requires s\n}\n\
                rank 1 {\nx: calc 1000\nr: recv 2b from 0\nr requires x\n}\n";
    let prm = LogGopsParams {
        s: 1,
        ..LogGopsParams { latency: 100, o: 10, gap: 5, ..LogGopsParams::LOGGOPSIM }
    };
    insta::assert_json_snapshot!(run(text, prm));
}

/// Reproducer 7b: Per-byte O = 2 on 11 bytes (L = 100, o = 10, g = 5, G = 0): the send holds the CPU for
/// o + 10 O = 30; the message reaches rank 1 at 110 and holds its CPU for
/// o + max(10 O, 10 G) = 30: ends [30, 140].
#[test]
fn per_byte_overhead() {
    let text = "num_ranks 2\nrank 0 {\ns: send 11b to 1\n}\nrank 1 {\nr: recv 11b from 0\n}\n";
    let prm = LogGopsParams {
        overhead_per_byte: 2,
        ..LogGopsParams { latency: 100, o: 10, gap: 5, ..LogGopsParams::LOGGOPSIM }
    };
    insta::assert_json_snapshot!(run(text, prm));
}

/// Reproducer 7c: `cpu` and `nic` annotations (L = 100, o = 10, g = 1000), with Schedgen's `/* */`
/// comments. Rank 0 (stamps: sends s1 0, s2 1, calcs c0 2, c1 3): s1 runs [0, 10) on CPU 0
/// and NIC 0; s2 (NIC 1, whose gap is free) finds CPU 0 busy and goes back to 10 (not to
/// g = 1000); c0 goes back to 10 too; c1 runs on CPU 1, [0, 100). At 10 s2 (stamp 1) runs
/// [10, 20), c0 goes back to 20 and runs [20, 120). The messages reach rank 1 at 110 and 120
/// and use the receive gaps of NICs 0 and 1 (their sends' NICs; the recvs name none): taken
/// in [110, 120) and [120, 130). Ends [120, 130] (a rank ends at its latest CPU). The recvs'
/// own NIC 0 would hold the second message until the gap 110 + 1000: ends [120, 1120].
#[test]
fn cpu_and_nic_annotations() {
    let text = "/* a Schedgen-style\n   comment */\nnum_ranks 2\nrank 0 {\n\
                c0: calc 100 cpu 0\nc1: calc 100 cpu 1\n/* two NICs */\n\
                s1: send 1b to 1 tag 0 cpu 0 nic 0\ns2: send 1b to 1 tag 0 nic 1\n}\n\
                rank 1 {\nr1: recv 1b from 0\nr2: recv 1b from 0\n}\n";
    insta::assert_json_snapshot!(run(
        text,
        LogGopsParams { latency: 100, o: 10, gap: 1000, ..LogGopsParams::LOGGOPSIM }
    ));
}

/// Reproducer 7d: Wildcards: rank 2 receives twice from any source with any tag (L = 100, o = 10,
/// g = 5). Both messages reach it at 110: rank 0's (stamp lower) is taken in [110, 120), rank
/// 1's goes back to 120 and is taken in [120, 130). Ends [10, 10, 130]; either order gives
/// these ends, so rank 2's CPU intervals are checked too: a's message (operation 0) first.
#[test]
fn wildcard_source_and_tag() {
    let text = "num_ranks 3\nrank 0 {\na: send 1b to 2 tag 5\n}\nrank 1 {\nb: send 1b to 2 tag 7\n}\n\
                rank 2 {\nx: recv 1b from -1 tag -1\ny: recv 1b from -1 tag -1\n}\n";
    let prm = LogGopsParams { latency: 100, o: 10, gap: 5, ..LogGopsParams::LOGGOPSIM };
    assert_eq!(cpu_of(text, prm, 2), [(Busy::Receive, 0, 110, 120), (Busy::Receive, 1, 120, 130)]);
    insta::assert_json_snapshot!(run(text, prm));
}

/// Reproducer 8: Matching in posting order: rank 1 posts r_b (line 2) before r_a (which waits for u,
/// which waits for r_b). Static k-th-to-k-th matching would pair r_a with s1 and deadlock
/// (s2 waits for t, t for u, u for r_b, r_b for s2). L = 100, o = 10, g = 5: s1 runs [0, 10),
/// reaches rank 1 at 110, taken [110, 120) by r_b; u runs [120, 130) (message at 230), r_a
/// posted at 130; rank 0 takes u's message [230, 240), completing t; s2 runs [240, 250),
/// reaches rank 1 at 350, taken [350, 360) by r_a. Ends [250, 360].
#[test]
fn matching_in_posting_order() {
    let text = "num_ranks 2\nrank 0 {\ns1: send 1b to 1\ns2: send 1b to 1\nt: recv 1b from 1 tag 9\n\
                s2 requires t\n}\n\
                rank 1 {\nr_a: recv 1b from 0\nr_b: recv 1b from 0\nu: send 1b to 0 tag 9\n\
                u requires r_b\nr_a requires u\n}\n";
    insta::assert_json_snapshot!(run(
        text,
        LogGopsParams { latency: 100, o: 10, gap: 5, ..LogGopsParams::LOGGOPSIM }
    ));
}
