//! A [`Schedule`]'s operations as the LogGOPSim-compatible engine ([`loggops`](super::loggops))
//! reads them ([`OpTable`]): one view per form of its words ([`OpWords`]), so that the engine,
//! generic over the view, decides the form once per run instead of once per operation read (a
//! run reads operations many times: per event, per sort of released operations, per match).

use super::op_words::{OpWords, StoredOp, unpack};
use super::schedule::{Op, Schedule, shaped};

/// Operation `i` of a schedule, read through one form of its words.
pub(super) trait OpTable: Copy {
    /// Operation `i` (`i <` [`Schedule::n_ops`]), as [`Schedule::op`] gives it.
    fn op(self, i: u32) -> Op;
}

/// The operations of a schedule held in one word each ([`OpWords::Packed`]).
#[derive(Clone, Copy)]
pub(super) struct PackedTable<'a> {
    words: &'a [u32],
    bits: u32,
    shapes: &'a [Op],
}

/// The operations of a schedule held in two words each ([`OpWords::Wide`]).
#[derive(Clone, Copy)]
pub(super) struct WideTable<'a> {
    ops: &'a [StoredOp],
    shapes: &'a [Op],
}

impl OpTable for PackedTable<'_> {
    #[inline]
    fn op(self, i: u32) -> Op {
        shaped(unpack(self.words[i as usize], self.bits), self.shapes)
    }
}

impl OpTable for WideTable<'_> {
    #[inline]
    fn op(self, i: u32) -> Op {
        shaped(self.ops[i as usize], self.shapes)
    }
}

/// A schedule's operations in the view of their form.
pub(super) enum Table<'a> {
    Packed(PackedTable<'a>),
    Wide(WideTable<'a>),
}

impl<'a> Table<'a> {
    /// `s`'s operations in the view of their form.
    pub(super) fn of(s: &'a Schedule) -> Self {
        match &s.ops {
            OpWords::Packed { words, bits } => {
                Table::Packed(PackedTable { words, bits: *bits, shapes: &s.shapes })
            }
            OpWords::Wide(ops) => Table::Wide(WideTable { ops, shapes: &s.shapes }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::goal::{Generator, LogGopsParams, parse, parse_generated, run_loggops_traced};

    /// `s` with its operations moved to two words each (the form of a schedule with more
    /// shapes than one word holds).
    fn wide(s: &Schedule) -> Schedule {
        let mut w = s.clone();
        w.ops = OpWords::Wide((0..s.ops.len()).map(|i| s.ops.get(i)).collect());
        w
    }

    /// Either view gives every operation as [`Schedule::op`] does, and the engine runs the
    /// same through both: the same run and the same CPU intervals, on the generated schedules
    /// and on one with wildcards, tags, a calc on a second CPU, a second NIC, an `irequires`
    /// and a rendezvous whose message waits in the unexpected queue for a recv posted late
    /// (the recv's own CPU and NIC, not the send's, index the sender's clocks).
    #[test]
    fn the_engine_runs_the_same_through_either_view() {
        let text = "num_ranks 3\n\
            rank 0 {\na: send 8b to 1 tag 4\nb: send 70000b to 2 tag 5 cpu 1 nic 1\n\
            c: calc 300 cpu 1\nc requires a\nb irequires a\n}\n\
            rank 1 {\na: recv 8b from -1 tag -1\nb: send 16b to 2\nb requires a\n}\n\
            rank 2 {\na: recv 70000b from 0 tag 5\nb: recv 16b from -1 tag 0\n\
            c: calc 100000\na requires c\n}\n";
        let mut schedules = vec![parse(text).expect("valid")];
        for g in [Generator::BinomialBroadcast, Generator::Dissemination, Generator::LinearAlltoall]
        {
            schedules.push(parse_generated(g, 13, 64).expect("valid"));
        }
        let prm = LogGopsParams { s: 1024, ..LogGopsParams::LOGGOPSIM };
        for s in &schedules {
            let w = wide(s);
            let (Table::Packed(packed), Table::Wide(wide)) = (Table::of(s), Table::of(&w)) else {
                panic!("one word per operation in `s`, two in `w`");
            };
            for i in 0..u32::try_from(s.n_ops()).expect("few operations") {
                assert_eq!((packed.op(i), wide.op(i)), (s.op(i), s.op(i)));
            }
            let (mut packed, packed_trace) = run_loggops_traced(s, prm).expect("runs");
            let (mut wide, wide_trace) = run_loggops_traced(&w, prm).expect("runs");
            // Only the bytes per operation differ: 4 more in two words.
            assert!((wide.bytes_per_op - packed.bytes_per_op - 4.0).abs() < 1e-9);
            (packed.bytes_per_op, wide.bytes_per_op) = (0.0, 0.0);
            assert_eq!(packed, wide);
            assert_eq!(packed_trace, wide_trace);
            assert!(packed.messages > 0);
        }
    }
}
