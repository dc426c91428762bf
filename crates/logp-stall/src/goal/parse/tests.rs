//! Tests of the GOAL parser's paths: serial and in pieces, the one-pass line reader against
//! the general path, labels, error positions.

use super::lexer::tokenize;
use super::parser::{Block, Parser};
use super::quick::{Quick, plain_line, quick_line};
use super::validate::Tally;
use super::*;
use crate::goal::schedule::ANY;
use crate::goal::{Op, OpKind, binomial_broadcast, dissemination, linear_alltoall};

/// The parse of `text` with 1 thread (serial) and with 2, 3 and 8 (in pieces).
fn all_threads(text: &[u8]) -> Vec<Result<Schedule, String>> {
    [1, 2, 3, 8]
        .iter()
        .map(|&t| {
            parse_from(text, text.len(), |e| syntax(0, e.to_string()), t).map_err(|e| e.to_string())
        })
        .collect()
}

/// `text` with `rank <r> {` replaced by `new` (`new` lines) then the header.
fn before_block(text: &str, r: u32, new: &str) -> String {
    let header = format!("\nrank {r} {{\n");
    text.replacen(&header, &format!("\n{new}rank {r} {{\n"), 1)
}

/// The block of rank `r` in `text` (the ranks in order).
fn block(text: &str, r: u32) -> &str {
    let a = text.find(&format!("rank {r} {{")).expect("present");
    let b = text.find(&format!("rank {} {{", r + 1)).expect("present");
    &text[a..b]
}

fn line_of(text: &str, needle: &str) -> usize {
    text[..text.find(needle).expect("present")].matches('\n').count() + 1
}

/// The state after `line` (line 2 of rank 1's block, `p` = 4) read by the general path
/// ([`tokenize`], [`Parser::body_line`]) and, if it takes it, by [`quick_line`].
fn both_paths(line: &str) -> (Result<String, String>, Option<String>) {
    let block = Block { rank: 1, line: 1, op_start: 0, op_end: 0, dep_start: 0, dep_end: 0 };
    let state = |ps: &Parser| {
        format!("{:?} {:?} {:?} {:?} {}", ps.ops, ps.shapes.list, ps.labels, ps.pending, ps.names)
    };
    let mut general = Parser::new(4, u64::MAX, 0).expect("room for 4 ranks");
    let (mut tokens, mut in_comment) = (Vec::new(), false);
    tokenize(line, &mut in_comment, &mut tokens);
    let slow = general.body_line(2, &tokens, &block).map(|()| state(&general));
    let mut quick = Parser::new(4, u64::MAX, 0).expect("room for 4 ranks");
    let fast = quick_line(line, 4, 1).map(|q| {
        match q {
            Quick::Dep(labels, kind) => quick.push_dep(2, labels, kind),
            Quick::Op(label, key, op) => quick.push_op(2, label, key, op, &block).expect("room"),
            Quick::End => panic!("not a body line"),
        }
        state(&quick)
    });
    (slow.map_err(|e| e.to_string()), fast)
}

#[test]
fn the_one_pass_line_reader_gives_the_general_paths_result_or_leaves_the_line_to_it() {
    // Plain lines: read in one pass, with the general path's result.
    for line in [
        "a: send 8b to 2",
        "  lab_1:\tsend 0b to 0 tag 7 cpu 3 nic 255\r",
        "x: recv 2147483648b from 3 tag 4294967294",
        "x: recv 12b from 0 cpu 1",
        "c: calc 007",
        "c: calc 5 cpu 255",
        "a requires b",
        "a:b irequires c:",
        "a: requires b",
        "a_label_longer_than_fifteen_bytes: calc 1",
        "a: send 8b to 2 tag 5",
        "label_of_15_byt: send 8b to 2 tag 5",
        "label_of_16_byte: recv 8b from 0",
        "a_label_of_255_bytes_or_more_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx: calc 1",
        "x:: recv 00b from 0 tag 4294967294",
        "x: recv 1b from 3 tag 4294967296",
        "a: send 8bb to 2",
        "a: calc 8b",
        "a: send 8b to 2 tag 5 ",
        "a: send 8b to 2  tag 5",
        "a: send 8b to 2 tag 1x",
        "a: recv 8b to 2",
        "a: calc 1234567890123456789",
        "a  requires b",
        "a irequires b:c",
        "a requires ",
    ] {
        let (slow, fast) = both_paths(line);
        assert_eq!(fast.as_ref(), slow.as_ref().ok(), "{line:?}");
    }
    // The generators' forms are read straight through by `plain_line`.
    for line in [
        "s0: send 8b to 1 tag 0",
        "r0: recv 8b from 3 tag 7",
        "c: calc 100",
        "s1 requires r0",
        "s1 irequires r0",
    ] {
        assert!(plain_line(line, 4, 2).is_some(), "{line:?}");
    }
    // Wildcards, comments, non-ASCII, NUL, `+`, bounds and errors: left to the general
    // path.
    for line in [
        "x: recv 8b from -1",
        "x: recv 8b from 2 tag -1",
        "a: send 8b to 2 // note",
        "a: send 8b to 2 /* note */",
        "é: calc 5",
        "a: calc 5 cpu\0 1",
        "a: calc +5",
        "a: calc 2147483649",
        "a: send 8b to 4",
        "a: send 8b to 1",
        "a: send 8b to 2 tag 4294967295",
        "a: send 8b to 2 cpu 256",
        "a: send 8b to 2 cpu 1 tag 2",
        "a: send 8b to 2 tag",
        "a: send 8 to 2",
        "a: send 8b from 2",
        "a: calc 5 nic 1",
        ": calc 5",
        "a calc 5",
        "a: sleep 5",
        "a: send 8b to 2 tag 1 cpu 1 nic 1 x 1",
    ] {
        assert_eq!(both_paths(line).1, None, "{line:?}");
    }
}

/// Lines in the generators' form are read straight through the text ([`plain_at`](super::quick::plain_at),
/// which finds each line's end as it reads it, and the label's key from the bytes that follow
/// its start, of the next line too); a space at the end of every line sends each line to the
/// rest of the line reader instead. Both give the same schedule, or the same error, with 1
/// thread and in pieces: schedules the generators write (ranks of one or many lines, the last
/// line with and without its `\n`) and hand-written ones (a dependency on a later label,
/// `irequires`, long labels, lines of both readers in one block, an undefined label, a
/// cycle).
#[test]
fn lines_read_straight_through_give_the_result_of_the_rest_of_the_reader() {
    let texts = [
        binomial_broadcast(37, 8).expect("valid"),
        dissemination(19, 16).expect("valid"),
        linear_alltoall(9, 8).expect("valid"),
        "num_ranks 2\nrank 0 {\na: send 8b to 1 tag 3\nb: calc 5\nb requires c\nc: calc 1\nc irequires a\n}\nrank 1 {\nx: recv 8b from 0 tag 3\n}".to_string(),
        "num_ranks 2\nrank 1 {\na_label_longer_than_fifteen_bytes: calc 2\nb: calc 1\nb requires a_label_longer_than_fifteen_bytes\n}\n".to_string(),
        "num_ranks 1\nrank 0 {\na: calc 1\na requires b\n}\n".to_string(),
        // Lines of both readers in one block: labels keyed by one, found by the other.
        "num_ranks 1\nrank 0 {\nfirst_label: calc 1\nsecond: calc 2 cpu 1\nsecond requires first_label  \nthird: calc 3\nthird irequires second\n}\n".to_string(),
        "num_ranks 1\nrank 0 {\na: calc 1\nb: calc 1\na requires b\nb requires a\n}\n".to_string(),
    ];
    for text in texts {
        let spaced: String = text.lines().map(|l| format!("{l} \n")).collect();
        let unended = text.trim_end_matches('\n');
        let straight = all_threads(text.as_bytes());
        assert_eq!(straight, all_threads(spaced.as_bytes()), "{text}");
        assert_eq!(straight, all_threads(unended.as_bytes()), "{text}");
    }
}

#[test]
fn long_labels_that_share_their_first_15_bytes_and_length_are_told_apart() {
    // `..._x` and `..._y` (20 bytes) share a key: their texts decide (line 6 depends on
    // line 4's `_y`); `..._z` is not defined (a key alone would find `_y` or `_x` when it
    // is the block's only label of that key), and a second `..._x` is a duplicate.
    let block = |body: &str| parse(&format!("num_ranks 1\nrank 0 {{\n{body}}}\n"));
    let ok = block("labels_sharing_key_x: calc 1\nlabels_sharing_key_y: calc 2\nc: calc 3\nc requires labels_sharing_key_y\n").expect("valid");
    assert_eq!(ok.deps().map(|d| (d.op, d.on)).collect::<Vec<_>>(), [(2, 1)]);
    let err = |body: &str| block(body).map(|_| ()).map_err(|e| e.to_string());
    assert_eq!(
        err("labels_sharing_key_x: calc 1\nc: calc 3\nc requires labels_sharing_key_z\n"),
        Err("goal line 5: label `labels_sharing_key_z` is not defined in rank 0".to_string())
    );
    assert_eq!(
        err(
            "labels_sharing_key_x: calc 1\nlabels_sharing_key_y: calc 2\nc requires labels_sharing_key_z\nc: calc 3\n"
        ),
        Err("goal line 5: label `labels_sharing_key_z` is not defined in rank 0".to_string())
    );
    assert_eq!(
        err("labels_sharing_key_x: calc 1\nc: calc 3\nlabels_sharing_key_x: calc 2\n"),
        Err("goal line 5: label `labels_sharing_key_x` is defined twice in rank 0".to_string())
    );
}

#[test]
fn a_duplicate_label_is_reported_at_the_earliest_second_definition() {
    // `a` is defined at lines 3, 6 and 7, `b` at lines 4 and 5: `b`'s second definition
    // (line 5) comes first. With 200 other labels the table probes past many collisions;
    // every dependency still finds its label (line 3 + i depends on line 2 + i).
    let block = |body: &str| parse(&format!("num_ranks 1\nrank 0 {{\n{body}}}\n"));
    assert_eq!(
        block("a: calc 1\nb: calc 1\nb: calc 2\na: calc 2\na: calc 3\n")
            .map(|_| ())
            .map_err(|e| e.to_string()),
        Err("goal line 5: label `b` is defined twice in rank 0".to_string())
    );
    let mut body: String = (0..200).map(|i| format!("l{i}: calc 1\n")).collect();
    body.extend((1..200).map(|i| format!("l{i} requires l{}\n", i - 1)));
    let s = block(&body).expect("valid");
    let deps: Vec<_> = s.deps().map(|d| (d.op, d.on)).collect();
    assert_eq!(deps, (1..200).map(|i| (i, i - 1)).collect::<Vec<_>>());
}

#[test]
fn a_count_mismatch_names_the_first_operation_left_over_in_line_order() {
    // Rank 0 sends tag 5 to rank 1 three times (lines 3, 5, 6), rank 1 receives two (lines
    // 9, 10): the third send is left over. With the counts swapped (three recvs, lines 10,
    // 12, 13), the third recv is.
    let sends = "num_ranks 2\nrank 0 {\na: send 8b to 1 tag 5\nb: send 8b to 1 tag 4\nc: send 8b to 1 tag 5\nd: send 8b to 1 tag 5\n}\nrank 1 {\nb: recv 8b from 0 tag 4\na: recv 8b from 0 tag 5\nc: recv 8b from 0 tag 5\n}\n";
    assert_eq!(
        parse(sends).map(|_| ()).map_err(|e| e.to_string()),
        Err("goal schedule: send from rank 0 to rank 1 tag 5 at line 6 has no matching recv"
            .to_string())
    );
    let recvs = "num_ranks 2\nrank 1 {\na: send 8b to 0 tag 4\nb: send 8b to 0 tag 5\nc: send 8b to 0 tag 5\n}\nrank 0 {\nx: calc 1\nb: recv 8b from 1 tag 4\na: recv 8b from 1 tag 5\ny: calc 1\nc: recv 8b from 1 tag 5\nd: recv 8b from 1 tag 5\n}\n";
    assert_eq!(
        parse(recvs).map(|_| ()).map_err(|e| e.to_string()),
        Err("goal schedule: recv at rank 0 from rank 1 tag 5 at line 13 has no matching send"
            .to_string())
    );
}

#[test]
fn parsing_in_pieces_gives_the_serial_schedule_and_errors() {
    // 2.4 MB and 2.7 MB of text: many chunks of 256 KiB, each parsed as a piece.
    let diss = dissemination(2048, 8).expect("valid p");
    let bcast = binomial_broadcast(30_000, 8).expect("valid p");
    // Blocks out of rank order: rank 1500's block moved to the end.
    let moved = {
        let a = diss.find("rank 1500 {").expect("present");
        let b = diss.find("rank 1501 {").expect("present");
        format!("{}{}{}", &diss[..a], &diss[b..], &diss[a..b])
    };
    // An operation 300 lines below its header (its line is kept aside) without a recv.
    let far_send = before_block(&diss, 1600, "").replacen(
        "rank 1600 {\n",
        &format!("rank 1600 {{\n{}x: send 8b to 0 tag 99\n", "// pad\n".repeat(300)),
        1,
    );
    // Dependency cycles (`r0 requires s1` against `s1 requires r0`) in ranks 1900 and 300,
    // rank 300's block moved to the end: the lower rank's is reported, through its `r0`,
    // after any syntax error of the text.
    let cycle = |text: &str, r: u32| {
        let header = format!("rank {r} {{\n");
        text.replacen(&header, &format!("{header}r0 requires s1\n"), 1)
    };
    let cycles = {
        let text = cycle(&cycle(&diss, 1900), 300);
        let a = text.find("rank 300 {").expect("present");
        let b = text.find("rank 301 {").expect("present");
        format!("{}{}{}", &text[..a], &text[b..], &text[a..b])
    };
    let cycle_then_bad = before_block(&cycle(&diss, 300), 1700, "bad line\n");
    let cases = [
        (cycles.clone(), Some(line_of(&cycles, "rank 300 {") + 3)),
        (cycle_then_bad.clone(), Some(line_of(&cycle_then_bad, "bad line"))),
        (diss.clone(), None),
        (bcast, None),
        (moved, None),
        (far_send.clone(), Some(line_of(&far_send, "x: send 8b to 0 tag 99"))),
        // A second block of rank 1200 after rank 1500's, errors inside blocks, one
        // outside, and an unclosed block.
        (before_block(&diss, 1501, "rank 1200 {\n}\n"), Some(line_of(&diss, "rank 1501 {"))),
        (
            diss.replacen(
                "rank 1300 {\ns0: send 8b to 1301",
                "rank 1300 {\ns0: send 8b to 9999",
                1,
            ),
            Some(line_of(&diss, "rank 1300 {") + 1),
        ),
        (
            diss.replacen("rank 1400 {\ns0:", "rank 1400 {\nr0:", 1),
            Some(line_of(&diss, "rank 1400 {") + 2),
        ),
        (before_block(&diss, 1700, "bad line\n"), Some(line_of(&diss, "rank 1700 {"))),
        (
            diss.replacen("rank 1800 {", "rank 1800 {\nrank 1801 {", 1),
            Some(line_of(&diss, "rank 1800 {") + 1),
        ),
        (format!("{diss}rank 2047 {{\n"), Some(diss.matches('\n').count() + 1)),
        // Lines `}` inside a `/*` comment (a chunk may end inside it, the next chunk is
        // then parsed serially), and a copy of a block in a comment.
        (
            before_block(&diss, 1100, "/*\n}\n}\n".repeat(100_000).as_str()).replacen(
                "}\nrank 1100",
                "*/\nrank 1100",
                1,
            ),
            None,
        ),
        (before_block(&diss, 1901, &format!("/*\n{}*/\n", block(&diss, 1900))), None),
    ];
    let mut cases: Vec<(Vec<u8>, Option<usize>)> =
        cases.into_iter().map(|(text, line)| (text.into_bytes(), line)).collect();
    // A byte that is not UTF-8 in rank 1700's block.
    let mut bad = diss.clone().into_bytes();
    let at = diss.find("rank 1700 {").expect("present") + 14;
    bad[at] = 0xff;
    cases.push((bad, Some(line_of(&diss, "rank 1700 {") + 1)));
    for (text, error_line) in cases {
        let results = all_threads(&text);
        for r in &results[1..] {
            assert_eq!(r, &results[0]);
        }
        match (&results[0], error_line) {
            (Ok(_), None) => {}
            (Err(e), Some(line)) => {
                let mut named = e.split("line ").skip(1).filter_map(|t| {
                    t.split(|c: char| !c.is_ascii_digit()).next()?.parse::<usize>().ok()
                });
                assert!(named.any(|l| l == line), "{e} names line {line}")
            }
            (r, want) => panic!("{:?} where {want:?} was expected", r.as_ref().map(|_| ())),
        }
    }
}

#[test]
fn a_schedule_with_more_shapes_than_one_word_holds_parses_the_same_in_two() {
    // 2^22 + 1 ranks take 23 bits of the word, leaving 512 shapes. The first 12,000 ranks
    // share one calc (the first piece of 256 KiB, which the parse in pieces reads serially,
    // ends within them), the next 20,000 have a calc of their own each: the words turn to
    // two per operation in a later piece's merge. Rank 7's block moved to the end (the
    // blocks put back in rank order), 0.9 MB of text.
    let p = (1u32 << 22) + 1;
    let time = |r: u32| if r < 12_000 { 0 } else { r };
    let block = |r: u32| format!("rank {r} {{\nc: calc {}\n}}\n", time(r));
    let mut text = format!("num_ranks {p}\n");
    for r in (0..32_000).filter(|&r| r != 7) {
        text.push_str(&block(r));
    }
    text.push_str(&block(7));
    assert!(text.find("rank 12000 {").expect("present") > 256 << 10, "past the first piece");
    let parsed = all_threads(text.as_bytes());
    let serial = parsed[0].as_ref().expect("a valid schedule");
    assert_eq!(serial.ops.width(), 8, "two words per operation");
    let want: Vec<u32> = (0..32_000).map(time).collect();
    assert_eq!(serial.ops().map(|o| o.size).collect::<Vec<_>>(), want);
    assert!(serial.ops().all(|o| o.kind == OpKind::Calc && o.peer == 0));
    for other in &parsed[1..] {
        assert_eq!(other.as_ref(), Ok(serial));
    }
}

#[test]
fn the_message_tally_flags_a_schedule_exactly_when_its_send_and_recv_counts_differ() {
    // The tally of operations listed by rank.
    let differ = |ranks: &[&[Op]]| {
        let mut tally = Tally::default();
        for (rank, ops) in (0..).zip(ranks) {
            for op in *ops {
                tally.add(rank, op);
            }
        }
        tally.may_differ()
    };
    let op = |kind, peer, tag| Op { size: 8, peer, tag, kind, cpu: 0, nic: 0 };
    // Rank 0 sends to rank 1 with tag 5, rank 1 receives from rank 0 with tag 5.
    let send = op(OpKind::Send, 1, 5);
    let recv = op(OpKind::Recv, 0, 5);
    let calc = op(OpKind::Calc, 0, 0);
    assert!(!differ(&[&[], &[]]));
    assert!(differ(&[&[send], &[]]));
    assert!(differ(&[&[], &[recv]]));
    // A matched pair cancels, in either rank order, with a calc.
    assert!(!differ(&[&[send, calc], &[recv]]));
    assert!(!differ(&[&[op(OpKind::Recv, 1, 5)], &[op(OpKind::Send, 0, 5)]]));
    // The recv at another rank, from another source or with another tag does not.
    assert!(differ(&[&[send], &[], &[recv]]));
    assert!(differ(&[&[send], &[op(OpKind::Recv, 2, 5)], &[]]));
    assert!(differ(&[&[send], &[op(OpKind::Recv, 0, 6)]]));
    // Two sends against one recv, and a send from the recv's rank the other way.
    assert!(differ(&[&[send, send], &[recv]]));
    assert!(differ(&[&[send], &[op(OpKind::Send, 0, 5)]]));
    // A wildcard leaves the counts to the run.
    assert!(!differ(&[&[send], &[], &[op(OpKind::Recv, ANY, 5)]]));
    // Every generated schedule is balanced.
    for text in [binomial_broadcast(13, 3), dissemination(6, 1), linear_alltoall(5, 2)] {
        let s = parse(&text.expect("generated")).expect("parses");
        let ranks: Vec<Vec<Op>> = (0..s.num_ranks).map(|r| s.rank_ops(r).collect()).collect();
        assert!(!differ(&ranks.iter().map(Vec::as_slice).collect::<Vec<_>>()));
    }
    // The parser sums the tally as it reads, serially and in pieces: 4,000 blocks of calcs
    // (about 690 KB, so the last block lies past the first piece), the last with one send
    // too many. The tally is that send's alone, and every parse names it (a piece's tally
    // left out of the merge would leave the sum 0).
    let extra = op(OpKind::Send, 1, 99);
    let mut text = String::from("num_ranks 4000\n");
    for r in 0..4000 {
        text.push_str(&format!("rank {r} {{\n"));
        text.extend((0..10).map(|i| format!("c{i}: calc 1\n")));
        if r == 3999 {
            text.push_str("x: send 8b to 1 tag 99\n");
        }
        text.push_str("}\n");
    }
    assert!(text.find("rank 3999 {").expect("present") > 256 << 10, "past the first piece");
    let mut lines = Lines::default();
    lines.text(text.as_bytes()).expect("every line reads");
    let mut want = Tally::default();
    want.add(3999, &extra);
    assert!(want.may_differ());
    assert_eq!(lines.parser.expect("a header").tally, want);
    let line = line_of(&text, "x: send 8b to 1 tag 99");
    let message = format!(
        "goal schedule: send from rank 3999 to rank 1 tag 99 at line {line} has no matching recv"
    );
    assert!(all_threads(text.as_bytes()).iter().all(|r| r.as_ref().err() == Some(&message)));
}
