//! GOAL import and the LogGOPSim-compatible engine: closed forms, hand-derived small cases,
//! malformed input, committed fixtures.

use logp_stall::Error;
use logp_stall::goal::{
    Busy, LogGopsParams, OpKind, binomial_broadcast, dissemination, linear_alltoall, parse,
    parse_file, run_loggops, run_loggops_traced,
};

fn prm(l: u64, o: u64, g: u64) -> LogGopsParams {
    LogGopsParams { latency: l, o, gap: g, ..LogGopsParams::LOGGOPSIM }
}

fn makespan(text: &str, p: LogGopsParams) -> u64 {
    run_loggops(&parse(text).expect("generated GOAL parses"), p).expect("runs").makespan
}

/// Binomial broadcast, `p = 2^k`, `o >= g`: `T = k (2o + L)`.
///
/// Derivation: a rank that finishes its recv at `T` starts its i-th send (i = 0, 1, ...) at
/// `T + i o` (the CPU is the bottleneck since `o >= g`); that message arrives at
/// `T + (i + 1) o + L` and its recv ends at `T + i o + 2o + L`. Along the tree path to rank
/// `v` with send indices `i_1..i_d`, `v` finishes at `d (2o + L) + o (i_1 + ... + i_d)`, and
/// in a binomial tree `d + i_1 + ... + i_d <= k` (each hop of index i skips i dimensions).
/// So the maximum is `k (2o + L)`, attained by rank `2^k - 1` (all indices 0), and every send
/// ends earlier than the recvs it enables. The latest CPU-busy end is therefore `k (2o + L)`.
#[test]
fn binomial_broadcast_takes_k_times_2o_plus_l() {
    for k in 1..=7u32 {
        for (l, o, g) in [(1, 1, 1), (10, 2, 2), (7, 5, 3), (100, 4, 1), (0, 3, 2)] {
            let t = makespan(&binomial_broadcast(1 << k, 8).unwrap(), prm(l, o, g));
            assert_eq!(t, u64::from(k) * (2 * o + l), "k={k} L={l} o={o} g={g}");
        }
    }
}

/// Dissemination, `p = 2^k`, `o >= g`: `T = k (2o + L)`.
///
/// Derivation: all ranks are symmetric. If every rank starts its round-j send at `T_j`, the
/// CPU is busy `[T_j, T_j + o)`, the message arrives at `T_j + o + L` (one arrival per rank
/// per round, so the receive gap never binds), the recv runs `[T_j + o + L, T_j + 2o + L)`
/// and the round-(j+1) send (which requires it) starts at `T_{j+1} = T_j + 2o + L`. With
/// `T_0 = 0` the last recv ends at `k (2o + L)`.
#[test]
fn dissemination_takes_k_times_2o_plus_l() {
    for k in 1..=7u32 {
        for (l, o, g) in [(1, 1, 1), (10, 2, 2), (7, 5, 3), (100, 4, 1), (0, 3, 2)] {
            let t = makespan(&dissemination(1 << k, 4).unwrap(), prm(l, o, g));
            assert_eq!(t, u64::from(k) * (2 * o + l), "k={k} L={l} o={o} g={g}");
        }
    }
}

/// Linear all-to-all: `T = 2o (p - 1)` when `o >= g` and `L <= (p - 2) o`.
///
/// Derivation: every rank's p - 1 sends are ready at 0 and queued before any recv, so the CPU
/// sends during `[0, (p-1) o)`, the n-th send (n = 0..p-2) starting at `n o`. Rank i's n-th
/// recv is from `i - 1 - n`, whose n-th send targets i, so it arrives at `(n + 1) o + L`
/// (arrivals o >= g apart, the receive gap never binds). The CPU reaches recv n at
/// `(p - 1 + n) o >= (n + 1) o + L` iff `L <= (p - 2) o`, so it never idles: `2 o (p - 1)`.
#[test]
fn linear_alltoall_takes_2o_times_p_minus_1() {
    for p in [3u32, 4, 5, 8, 16, 33, 64] {
        for (l, o, g) in [(1, 1, 1), (2, 2, 1), (3, 3, 3), (10, 10, 2)] {
            if l > u64::from(p - 2) * o {
                continue;
            }
            let t = makespan(&linear_alltoall(p, 8).unwrap(), prm(l, o, g));
            assert_eq!(t, 2 * o * u64::from(p - 1), "p={p} L={l} o={o} g={g}");
        }
    }
    // Outside the condition the CPU idles and the closed form is only a lower bound:
    // p = 3, o = 1, L = 5: sends [0,1), [1,2); recv 0 arrives 1 + 5 = 6, runs [6,7); recv 1
    // arrives 2 + 5 = 7, runs [7,8). T = 8 > 2 o (p - 1) = 4.
    assert_eq!(makespan(&linear_alltoall(3, 8).unwrap(), prm(5, 1, 1)), 8);
}

/// The receive gap g: two messages that reach rank 2 at the same step are taken g apart.
/// L = 2, o = 1, g = 4: ranks 0 and 1 send at 0, both arrive at 0 + o + L = 3; rank 2's NIC
/// accepts the first at 3 and the second at 3 + g = 7; recvs run [3,4) and [7,8): T = 8.
#[test]
fn receive_gap_spaces_simultaneous_arrivals() {
    let text = "num_ranks 3\nrank 0 {\na: send 1b to 2\n}\nrank 1 {\na: send 1b to 2\n}\n\
                rank 2 {\nx: recv 1b from 0\ny: recv 1b from 1\n}\n";
    let run = run_loggops(&parse(text).unwrap(), prm(2, 1, 4)).unwrap();
    assert_eq!(run.rank_end, vec![1, 1, 8]);
    assert_eq!(run.messages, 2);
}

/// The send gap g: rank 0 sends twice, L = 2, o = 1, g = 5: sends start at 0 and 5 (the CPU
/// is free at 1 but the NIC only at 5: the second send goes back to the active queue at 5),
/// arrive at 3 and 8, rank 1 receives them in [3, 4) and [8, 9) (the receive gap: 3 + 5).
/// With G = 2 per byte and 3-byte messages (n - 1)G = 4: the first send holds the NIC until
/// 0 + 5 + 4 = 9, so the second starts at 9 (CPU until 10) and arrives at 12; rank 1 takes
/// the first message in [3, 3 + 1 + 4 = 8) with its receive gap until 3 + 5 + 4 = 12, the
/// second in [12, 17).
#[test]
fn send_gap_and_per_byte_gap() {
    let text = "num_ranks 2\nrank 0 {\na: send 3b to 1\nb: send 3b to 1\n}\n\
                rank 1 {\nx: recv 3b from 0\ny: recv 3b from 0\n}\n";
    let s = parse(text).unwrap();
    assert_eq!(run_loggops(&s, prm(2, 1, 5)).unwrap().rank_end, vec![6, 9]);
    let big = LogGopsParams { gap_per_byte: 2, ..prm(2, 1, 5) };
    assert_eq!(run_loggops(&s, big).unwrap().rank_end, vec![10, 17]);
}

/// `irequires` waits for the start, `requires` for the end. Rank 1 posts a recv (message
/// arrives at o + L = 11 with o = 1, L = 10, rank 1 takes it in [11, 12)) and has a calc 5.
/// `c irequires r`: the recv is posted at 0, so the calc runs [0, 5): T = 12.
/// `c requires r`: the calc runs after the recv, [12, 17): T = 17.
/// Either way 3 operations and 1 message, each counted once.
#[test]
fn irequires_versus_requires() {
    let base =
        "num_ranks 2\nrank 0 {\na: send 1b to 1\n}\nrank 1 {\nr: recv 1b from 0\nc: calc 5\n";
    let ireq = format!("{base}c irequires r\n}}\n");
    let req = format!("{base}c requires r\n}}\n");
    for (text, want) in [(ireq, 12), (req, 17)] {
        let run = run_loggops(&parse(&text).unwrap(), prm(10, 1, 1)).unwrap();
        assert_eq!((run.makespan, run.ops, run.messages), (want, 3, 1));
    }
}

#[test]
fn writer_round_trips() {
    for text in [
        binomial_broadcast(13, 3).unwrap(),
        dissemination(6, 1).unwrap(),
        linear_alltoall(5, 2).unwrap(),
    ] {
        let s = parse(&text).unwrap();
        let back = parse(&s.to_goal()).unwrap();
        // Line numbers differ (no comment line, dependencies at the end of each block).
        assert_eq!(
            (&back.rank_start, back.ops().collect::<Vec<_>>(), back.deps().collect::<Vec<_>>()),
            (&s.rank_start, s.ops().collect::<Vec<_>>(), s.deps().collect::<Vec<_>>())
        );
    }
}

#[test]
fn malformed_goal_gives_line_numbers() {
    let cases: &[(&str, &str)] = &[
        ("", "goal line 1: missing `num_ranks <P>` header"),
        (
            "rank 0 {\n}\n",
            "goal line 1: expected `num_ranks <P>` as the first line (got `rank 0 {`)",
        ),
        ("num_ranks 0\n", "goal line 1: num_ranks must satisfy 1 <= num_ranks <= 16777216 (got 0)"),
        ("num_ranks 2\nrank 2 {\n}\n", "goal line 2: rank id must be < num_ranks = 2 (got 2)"),
        (
            "num_ranks 2\n// c\nrank 0 {\na: send 4 to 1\n}\n",
            "goal line 4: message size must be written `<n>b` (got `4`)",
        ),
        (
            "num_ranks 2\nrank 0 {\na: send 4b to 7\n}\n",
            "goal line 3: peer rank must be < num_ranks = 2 (got 7)",
        ),
        (
            "num_ranks 2\nrank 0 {\na: send 4b from 1\n}\n",
            "goal line 3: `send` needs `to <rank>` (got `from`)",
        ),
        (
            "num_ranks 2\nrank 0 {\na: calc x\n}\n",
            "goal line 3: calc time must be a non-negative integer (got `x`)",
        ),
        (
            "num_ranks 2\nrank 0 {\na: calc 1\na: calc 2\n}\n",
            "goal line 4: label `a` is defined twice in rank 0",
        ),
        (
            "num_ranks 2\nrank 0 {\na: calc 1\na requires b\n}\n",
            "goal line 4: label `b` is not defined in rank 0",
        ),
        (
            "num_ranks 2\nrank 0 {\na: calc 1\n",
            "goal line 3: rank 0 block opened at line 2 is not closed by `}`",
        ),
        (
            "num_ranks 2\nrank 0 {\n}\nrank 0 {\n}\n",
            "goal line 4: rank 0 has a second block (first at line 2)",
        ),
        (
            "num_ranks 2\nrank 0 {\na: send 1b to 0\n}\n",
            "goal line 3: rank 0 cannot send a message to itself",
        ),
        (
            "num_ranks 2\nrank 0 {\na: send 1b to 1 tag\n}\n",
            "goal line 3: expected optional `tag <t>`, `cpu <c>`, `nic <k>` in this order (got `tag`)",
        ),
        (
            "num_ranks 2\nrank 0 {\nhello\n}\n",
            "goal line 3: expected `<label>: send|recv|calc ...`, `<label> requires <label>` or `}` (got `hello`)",
        ),
        (
            "num_ranks 2\nrank 0 {\na: calc 1\nb: calc 1\na requires b\nb requires a\n}\n",
            "goal schedule: the dependencies of rank 0 form a cycle (through the operation at line 3)",
        ),
        (
            "num_ranks 2\nrank 0 {\na: send 1b to 1 tag 3\n}\n",
            "goal schedule: send from rank 0 to rank 1 tag 3 at line 3 has no matching recv",
        ),
        (
            "num_ranks 2\nrank 0 {\na: send 1b to -1\n}\n",
            "goal line 3: peer rank must be a non-negative integer (got `-1`)",
        ),
        (
            "num_ranks 2\nrank 0 {\na: calc 1 nic 1\n}\n",
            "goal line 3: expected optional `cpu <c>` (got `nic 1`)",
        ),
        (
            "num_ranks 2\nrank 0 {\na: recv 1b from 1 cpu 1 tag 2\n}\n",
            "goal line 3: expected optional `tag <t>`, `cpu <c>`, `nic <k>` in this order (got `tag 2`)",
        ),
        (
            "num_ranks 2\nrank 0 {\na: calc 1 cpu 256\n}\n",
            "goal line 3: cpu index (0..=255) must be a non-negative integer (got `256`)",
        ),
        (
            "num_ranks 2\n/* open\nrank 0 {\n}\n",
            "goal line 4: a `/*` comment is not closed by `*/` before the end",
        ),
    ];
    for (text, want) in cases {
        let err = parse(text).expect_err(text);
        assert!(matches!(err, Error::GoalSyntax { .. } | Error::GoalSchedule { .. }));
        assert_eq!(err.to_string(), *want, "input:\n{text}");
    }
}

#[test]
fn file_is_parsed_in_chunks_with_true_line_numbers() {
    // The file is read 256 KiB at a time: a rank block, a label list and an error placed past
    // the first chunks keep their line numbers, and a file parses as its text does.
    let text = dissemination(4096, 8).unwrap();
    assert!(text.len() > 3 << 18, "the text spans several chunks");
    let dir = std::env::temp_dir().join(format!("goal-chunks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("d.goal");
    std::fs::write(&path, &text).unwrap();
    assert_eq!(parse_file(&path).unwrap(), parse(&text).unwrap());
    let lines = text.lines().count();
    let bad = format!("{}rank 4096 {{\n", text);
    let err = parse(&bad).unwrap_err().to_string();
    assert_eq!(
        err,
        format!("goal line {}: rank id must be < num_ranks = 4096 (got 4096)", lines + 1)
    );
    // A line that is not UTF-8, after the lines before it parsed.
    let mut bytes = text.clone().into_bytes();
    bytes.extend_from_slice(b"rank 4095 {\n\xff: calc 1\n}\n");
    std::fs::write(&path, &bytes).unwrap();
    let err = parse_file(&path).unwrap_err().to_string();
    let first = text.lines().position(|l| l == "rank 4095 {").unwrap() + 1;
    let want =
        format!("goal line {}: rank 4095 has a second block (first at line {first})", lines + 1);
    assert_eq!(err, want);
    bytes.truncate(text.len());
    bytes.extend_from_slice(b"// \xff\n");
    std::fs::write(&path, &bytes).unwrap();
    let err = parse_file(&path).unwrap_err().to_string();
    assert_eq!(err, format!("goal line {}: the line is not valid UTF-8", lines + 1));
    let missing = dir.join("missing.goal");
    let err = parse_file(&missing).unwrap_err().to_string();
    assert!(err.contains(&missing.display().to_string()), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cross_rank_deadlock_is_an_error() {
    // Each rank receives before it sends to the other: nothing can ever start.
    let text = "num_ranks 2\nrank 0 {\nr: recv 1b from 1\ns: send 1b to 1\ns requires r\n}\n\
                rank 1 {\nr: recv 1b from 0\ns: send 1b to 0\ns requires r\n}\n";
    let err = run_loggops(&parse(text).unwrap(), prm(1, 1, 1)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "goal schedule: deadlock: 4 of 4 operations never complete, the first at line 3 (rank 0)"
    );
}

#[test]
fn engine_limits_are_typed_errors() {
    let s = parse(&binomial_broadcast(4, 8).unwrap()).unwrap();
    let err = run_loggops(&s, prm(1 << 40, 1, 1)).unwrap_err();
    assert_eq!(err.to_string(), "L must satisfy L <= 2^31 (got 1099511627776)");
    // The parser refuses a size over the limit at its line (only the parser builds a
    // schedule, so the engine never meets one).
    let text = "num_ranks 1\nrank 0 {\na: calc 4294967295\n}\n";
    let want = "goal line 3: calc time must satisfy time <= 2^31, the engine's limit (got time = 4294967295)";
    assert_eq!(parse(text).unwrap_err().to_string(), want);
    let text = "num_ranks 1\nrank 0 {\na: calc 99999999999\n}\n";
    assert!(parse(text).unwrap_err().to_string().ends_with("(got time = 99999999999)"));
}

#[test]
fn generator_parameters_are_checked() {
    assert_eq!(
        binomial_broadcast(1, 8).unwrap_err().to_string(),
        "p must satisfy 2 <= p <= 2^24 (got 1)"
    );
    assert_eq!(
        linear_alltoall(10_000, 8).unwrap_err().to_string(),
        "p must satisfy 2 <= p <= 8192 (got 10000)"
    );
}

/// The committed fixtures are exactly what the generators write, and keep their closed forms.
#[test]
fn committed_goal_fixtures_match_generators() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/traces");
    let cases = [
        ("binomial-bcast-p8.goal", binomial_broadcast(8, 8).unwrap(), 3 * (2 * 2 + 10)),
        ("dissemination-p8.goal", dissemination(8, 8).unwrap(), 3 * (2 * 2 + 10)),
        ("alltoall-linear-p8.goal", linear_alltoall(8, 8).unwrap(), 2 * 2 * 7),
    ];
    for (name, generated, closed_form) in cases {
        let path = format!("{dir}/{name}");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(text, generated, "{name} differs from its generator");
        assert_eq!(makespan(&text, prm(10, 2, 1)), closed_form, "{name}");
    }
}

/// The trace is off by default and changes nothing: the traced run equals the plain one, and
/// it holds one CPU interval per send, per calc and per message processed, each within the
/// makespan and with its rank's CPU intervals disjoint (one CPU per rank here). The hand case
/// `bcast-calc-p8.goal` (its fixture's comment): rank 7 receives over [23, 24) and computes
/// over [24, 27).
#[test]
fn traced_run_equals_the_plain_run_and_has_one_interval_per_cpu_use() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/traces");
    for (name, p) in [
        ("bcast-calc-p8.goal", prm(6, 1, 3)),
        ("dissemination-p8.goal", prm(5, 3, 2)),
        ("alltoall-linear-p8.goal", prm(10, 2, 1)),
    ] {
        let text = std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
        let schedule = parse(&text).unwrap();
        let plain = run_loggops(&schedule, p).unwrap();
        let (run, trace) = run_loggops_traced(&schedule, p).unwrap();
        assert_eq!(run, plain, "{name}");
        let busy = |what| trace.iter().filter(|i| i.what == what).count() as u64;
        let of = |kind| schedule.ops().filter(|o| o.kind == kind).count() as u64;
        assert_eq!(busy(Busy::Send), of(OpKind::Send), "{name}");
        assert_eq!(busy(Busy::Calc), of(OpKind::Calc), "{name}");
        assert_eq!(busy(Busy::Receive), run.messages, "{name}");
        assert_eq!(trace.len() as u64, run.ops, "{name}: a recv takes no CPU time");
        for r in 0..schedule.num_ranks {
            let mut mine: Vec<_> = trace.iter().filter(|i| i.rank == r).collect();
            mine.sort_by_key(|i| i.from);
            assert!(mine.windows(2).all(|w| w[0].to <= w[1].from), "{name}: rank {r} overlaps");
            assert!(mine.iter().all(|i| i.to <= run.rank_end[r as usize]), "{name}");
        }
        if name == "bcast-calc-p8.goal" {
            let last: Vec<_> =
                trace.iter().filter(|i| i.rank == 7).map(|i| (i.what, i.from, i.to)).collect();
            assert_eq!(last, [(Busy::Receive, 23, 24), (Busy::Calc, 24, 27)]);
        }
    }
}

#[test]
fn an_operation_waiting_for_hundreds_of_others_is_released_by_the_last() {
    // The engine keeps counts of 254 or more dependencies aside (1 byte per operation
    // otherwise). Rank 0: 300 calcs of 1 run back to back over [0, 300); the send `z` requires
    // all of them, so it starts at 300 (o = 2: CPU until 302), arrives at 300 + 2 + 10 = 312
    // and rank 1 takes its receive overhead over [312, 314). On the one CPU, z released a few
    // calcs early would still wait behind them (their stamps are lower), so these ends only
    // show it released at all, and not at start-up.
    let schedule = |z_cpu: &str| {
        let mut text = String::from("num_ranks 2\nrank 0 {\n");
        for i in 0..300 {
            text.push_str(&format!("c{i}: calc 1\n"));
        }
        text.push_str(&format!("z: send 8b to 1{z_cpu}\n"));
        for i in 0..300 {
            text.push_str(&format!("z requires c{i}\n"));
        }
        text.push_str("}\nrank 1 {\nr: recv 8b from 0\n}\n");
        parse(&text).unwrap()
    };
    let run = run_loggops(&schedule(""), prm(10, 2, 1)).unwrap();
    assert_eq!(run.rank_end, vec![302, 314]);
    assert_eq!(run.ops, 302);
    // On its own CPU, z is fixed the moment it is released: a calc completes when it starts,
    // and a released operation is queued at its own CPU's `nexto` (0 here, although the
    // engine is at 299: LogGOPSim's rule, Choices, "LogGOPSim rules"), so z comes right after
    // the calc that released it, c299: 301st of rank 0's intervals, over [0, 2). Released by
    // c298, it would come 300th.
    let (_, trace) = run_loggops_traced(&schedule(" cpu 1"), prm(10, 2, 1)).unwrap();
    let rank0: Vec<_> = trace.iter().filter(|i| i.rank == 0).collect();
    let z = rank0.iter().position(|i| i.what == Busy::Send).unwrap();
    assert_eq!((z, rank0[z].from, rank0[z].to), (300, 0, 2));
}
