//! GOAL schedules: the text format of LogGOPSim and its Schedgen generator, as a workload
//! source beyond the paper (issue 4, item 7).
//!
//! - [`parse()`]: the grammar `num_ranks <P>` then `rank <r> { ... }` blocks of lines
//!   `<label>: send <n>b to <dst> [tag <t>]`, `<label>: recv <n>b from <src> [tag <t>]`,
//!   `<label>: calc <time>`, `<label> requires <label>`, `<label> irequires <label>`, comments
//!   `//`. Malformed text is an [`Error::GoalSyntax`](crate::Error::GoalSyntax) with its line
//!   number; a schedule that cannot run (unmatched send/recv, dependency cycle) an
//!   [`Error::GoalSchedule`](crate::Error::GoalSchedule).
//! - [`generate`]: binomial broadcast, dissemination and linear all-to-all schedules, written as
//!   GOAL text.
//! - [`loggops`]: the LogGOPSim-compatible engine on netcore's
//!   [`EventQueue`](netcore::event::EventQueue) (no capacity limit, `g` per processor per
//!   direction, `o` per send/recv, makespan = latest end of CPU-busy time).
//! - [`picture`]: the picture of a LogGOPSim-compatible run, as LogGOPSim's timelines.
//! - [`logp`]: a GOAL rank as a [`LogpProcess`](crate::LogpProcess), to run schedules on the
//!   LogP machine under every stalling rule and on the cycle simulation of [`crate::sim`].
//!
//! The grammar is LogGOPSim's `txt2bin` grammar: besides the above, `/* ... */` comments
//! (across lines), `recv ... from -1` and `tag -1` (any source, any tag) and the annotations
//! `cpu <c>` and `nic <k>` (after the tag, in this order; a calc takes only `cpu`).
//!
//! Messages are matched dynamically as LogGOPSim matches them (see [`loggops`]). Without
//! wildcards a schedule with more sends than recvs for some `(src, dst, tag)` (or the
//! reverse) is rejected before it runs. The LogP mode ([`logp`]) matches statically: the
//! k-th send from `s` to `d` with tag `t` is received by the k-th recv at `d` from `s` with
//! tag `t`; it does not model wildcards or annotations.

pub mod config;
pub mod generate;
pub mod loggops;
pub mod logp;
pub mod parse;
pub mod picture;

pub use generate::{binomial_broadcast, dissemination, linear_alltoall};
pub use loggops::{Busy, CpuInterval, LogGopsParams, LogGopsRun, run_loggops, run_loggops_traced};
pub use logp::{GoalProcess, GoalRankState, goal_programs};
pub use parse::{parse, parse_file};

use serde::Serialize;

/// What one GOAL operation does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OpKind {
    /// `send <bytes>b to <peer> tag <tag>`.
    Send,
    /// `recv <bytes>b from <peer> tag <tag>`.
    Recv,
    /// `calc <time>` (`size` is the time, `peer` and `tag` are 0).
    Calc,
}

/// One GOAL operation (24 bytes; schedules hold millions of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Op {
    /// Bytes of a send/recv, duration of a calc (at most [`loggops::MAX_TIME`] = 2^31 from
    /// the parser; 4 bytes keep an operation at 16 bytes).
    pub size: u32,
    /// Destination of a send, source of a recv.
    pub peer: u32,
    /// Message tag (0 if absent, [`loggops::ANY`] for `tag -1`).
    pub tag: u32,
    /// Send, recv or calc.
    pub kind: OpKind,
    /// CPU index (`cpu <c>`, 0 if absent).
    pub cpu: u8,
    /// NIC index (`nic <k>`, 0 if absent).
    pub nic: u8,
}

/// A dependency between two operations of one rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DepKind {
    /// `a requires b`: `a` may start once `b` has completed.
    Requires,
    /// `a irequires b`: `a` may start once `b` has started (a recv starts when it is posted).
    Irequires,
}

/// `a (i)requires b`, both as global operation indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Dep {
    /// The dependent operation.
    pub op: u32,
    /// The operation it waits for.
    pub on: u32,
    /// Completion or start.
    pub kind: DepKind,
}

/// In [`Schedule::line_off`]: the line is kept in [`Schedule::far`].
const FAR: u8 = u8::MAX;

/// A parsed GOAL schedule in flat form: the operations of rank `r` are
/// `ops[rank_start[r]..rank_start[r + 1]]`, in line order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Schedule {
    /// Number of ranks P.
    pub num_ranks: u32,
    /// Offsets of each rank's operations (`num_ranks + 1` entries).
    pub rank_start: Vec<u32>,
    /// All operations.
    pub ops: Vec<Op>,
    /// The line (1-based) of each rank's `rank r {` header (0 for a rank without a block).
    block_line: Vec<u32>,
    /// Each operation's line minus its rank's [`Schedule::block_line`], or [`FAR`] when that
    /// is `FAR` or more (the line is then in `far`): 1 byte per operation, read only for error
    /// messages ([`Schedule::line`]).
    line_off: Vec<u8>,
    /// `(op, line)` of the operations whose `line_off` is [`FAR`], by operation.
    far: Vec<(u32, u32)>,
    /// The dependencies, stored once, as reverse lists in CSR form: the operations waiting
    /// for operation `v` are `dep_list[dep_start[v]..dep_start[v + 1]]` (in line order), each
    /// with [`parse::IREQ_BIT`] set for an `irequires` edge (8 bytes per operation plus 4 per
    /// dependency; see [`Schedule::deps`]).
    dep_start: Vec<u32>,
    dep_list: Vec<u32>,
}

impl Schedule {
    /// The operations of rank `r`.
    pub fn rank_ops(&self, r: u32) -> &[Op] {
        &self.ops[self.rank_start[r as usize] as usize..self.rank_start[r as usize + 1] as usize]
    }

    /// The rank owning global operation `op`.
    pub fn rank_of(&self, op: u32) -> u32 {
        (self.rank_start.partition_point(|&s| s <= op) - 1) as u32
    }

    /// The source line (1-based) of operation `op`, for error messages.
    pub fn line(&self, op: u32) -> u32 {
        match self.line_off[op as usize] {
            FAR => self.far[self.far.partition_point(|&(o, _)| o < op)].1,
            off => self.block_line[self.rank_of(op) as usize] + u32::from(off),
        }
    }

    /// Number of operations.
    pub fn n_ops(&self) -> usize {
        self.ops.len()
    }

    /// Number of dependencies.
    pub fn n_deps(&self) -> usize {
        self.dep_list.len()
    }

    /// The operations waiting for operation `on`, in line order, each with [`parse::IREQ_BIT`]
    /// set for an `irequires` edge.
    pub(crate) fn dependents_of(&self, on: u32) -> &[u32] {
        &self.dep_list
            [self.dep_start[on as usize] as usize..self.dep_start[on as usize + 1] as usize]
    }

    /// Every dependency, ordered by the operation waited for, then line order.
    pub fn deps(&self) -> impl Iterator<Item = Dep> + '_ {
        (0u32..).zip(self.dep_start.windows(2)).flat_map(move |(on, w)| {
            self.dep_list[w[0] as usize..w[1] as usize].iter().map(move |&d| Dep {
                op: d & !parse::IREQ_BIT,
                on,
                kind: if d & parse::IREQ_BIT == 0 { DepKind::Requires } else { DepKind::Irequires },
            })
        })
    }

    /// Bytes held by the schedule's arrays.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.ops.capacity() * std::mem::size_of::<Op>()
            + self.line_off.capacity()
            + self.far.capacity() * 8
            + (self.block_line.capacity()
                + self.rank_start.capacity()
                + self.dep_start.capacity()
                + self.dep_list.capacity())
                * 4
    }

    /// The final state every rank must reach: all operations completed, and the messages
    /// `(src, tag, k)` its recvs are matched with.
    pub fn reference_states(&self) -> Vec<GoalRankState> {
        (0..self.num_ranks)
            .map(|r| {
                let mut counts: std::collections::BTreeMap<(u32, u32), u32> =
                    std::collections::BTreeMap::new();
                let mut received = Vec::new();
                for op in self.rank_ops(r) {
                    if op.kind == OpKind::Recv {
                        let c = counts.entry((op.peer, op.tag)).or_insert(0);
                        received.push((op.peer, op.tag, *c));
                        *c += 1;
                    }
                }
                received.sort_unstable();
                GoalRankState { completed: self.rank_ops(r).len() as u32, received }
            })
            .collect()
    }

    /// Writes the schedule back as GOAL text (labels `l<i>` with `i` the rank-local index).
    pub fn to_goal(&self) -> String {
        let mut out = format!("num_ranks {}\n", self.num_ranks);
        for r in 0..self.num_ranks {
            let base = self.rank_start[r as usize];
            out.push_str(&format!("rank {r} {{\n"));
            for (i, op) in self.rank_ops(r).iter().enumerate() {
                let any = |v: u32| if v == loggops::ANY { "-1".to_string() } else { v.to_string() };
                match op.kind {
                    OpKind::Send => out.push_str(&format!(
                        "l{i}: send {}b to {} tag {}",
                        op.size,
                        op.peer,
                        any(op.tag)
                    )),
                    OpKind::Recv => out.push_str(&format!(
                        "l{i}: recv {}b from {} tag {}",
                        op.size,
                        any(op.peer),
                        any(op.tag)
                    )),
                    OpKind::Calc => out.push_str(&format!("l{i}: calc {}", op.size)),
                }
                if op.cpu != 0 {
                    out.push_str(&format!(" cpu {}", op.cpu));
                }
                if op.nic != 0 {
                    out.push_str(&format!(" nic {}", op.nic));
                }
                out.push('\n');
            }
            for on in base..self.rank_start[r as usize + 1] {
                for &d in self.dependents_of(on) {
                    let word = if d & parse::IREQ_BIT == 0 { "requires" } else { "irequires" };
                    out.push_str(&format!(
                        "l{} {word} l{}\n",
                        (d & !parse::IREQ_BIT) - base,
                        on - base
                    ));
                }
            }
            out.push_str("}\n");
        }
        out
    }
}
