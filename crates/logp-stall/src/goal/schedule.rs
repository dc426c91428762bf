//! A parsed GOAL schedule in flat form ([`Schedule`]: its operations, its dependencies in CSR
//! form) and the bounds of the GOAL format every part of [`crate::goal`] shares: the
//! wildcard [`ANY`], the size limit [`MAX_TIME`], [`MAX_RANKS`].

use serde::Serialize;

use super::op_words::{OpWords, StoredOp};

/// The wildcard source or tag (`-1` in GOAL text), LogGOPSim's `ANY_SOURCE`/`ANY_TAG`.
pub const ANY: u32 = u32::MAX;

/// Largest accepted parameter, message size or calc time.
pub const MAX_TIME: u64 = 1 << 31;

/// Largest accepted `num_ranks` (2^24; bounds the per-rank tables a header can allocate).
pub const MAX_RANKS: u32 = 1 << 24;

/// Marks an `irequires` edge in the dependency lists of a [`Schedule`] (and of the parser).
pub(crate) const IREQ_BIT: u32 = 1 << 31;

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
netcore::display_config_name!(OpKind);

/// One GOAL operation, as [`Schedule::op`] gives it (a schedule stores it in 4 bytes, or 8
/// with many shapes: its peer and the index of its shape, the operation with peer 0, kept
/// once).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Op {
    /// Bytes of a send/recv, duration of a calc (at most [`MAX_TIME`] = 2^31: the parser
    /// refuses more).
    pub size: u32,
    /// Destination of a send, source of a recv.
    pub peer: u32,
    /// Message tag (0 if absent, [`ANY`] for `tag -1`).
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
netcore::display_config_name!(DepKind);

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
pub(super) const FAR: u8 = u8::MAX;

/// A parsed GOAL schedule in flat form: the operations of rank `r` are operations
/// `rank_start[r]..rank_start[r + 1]`, in line order. Only the parser builds one
/// ([`parse()`](super::parse())), so every schedule holds what it checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    /// Number of ranks P.
    pub num_ranks: u32,
    /// Offsets of each rank's operations (`num_ranks + 1` entries).
    pub rank_start: Vec<u32>,
    /// All operations ([`Schedule::op`]).
    pub(super) ops: OpWords,
    /// The operations' shapes in order of first appearance in the text ([`StoredOp`]).
    pub(super) shapes: Vec<Op>,
    /// The line (1-based) of each rank's `rank r {` header (0 for a rank without a block).
    pub(super) block_line: Vec<u32>,
    /// Each operation's line minus its rank's [`Schedule::block_line`], or [`FAR`] when that
    /// is `FAR` or more (the line is then in `far`): 1 byte per operation, read only for error
    /// messages ([`Schedule::line`]).
    pub(super) line_off: Vec<u8>,
    /// `(op, line)` of the operations whose `line_off` is [`FAR`], by operation.
    pub(super) far: Vec<(u32, u32)>,
    /// The dependencies, stored once, as reverse lists in CSR form: the operations waiting
    /// for operation `v` are `dep_list[dep_start[v]..dep_start[v + 1]]` (in line order), each
    /// with [`IREQ_BIT`] set for an `irequires` edge (4 bytes per operation plus 4 per
    /// dependency; see [`Schedule::deps`]).
    pub(super) dep_start: Vec<u32>,
    pub(super) dep_list: Vec<u32>,
}

/// The operation stored as `stored`, its shape taken from `shapes` (a schedule's).
#[inline]
pub(super) fn shaped(stored: StoredOp, shapes: &[Op]) -> Op {
    Op { peer: stored.peer, ..shapes[stored.shape as usize] }
}

impl Schedule {
    /// Operation `i` (`i <` [`Schedule::n_ops`]).
    #[inline]
    pub fn op(&self, i: u32) -> Op {
        shaped(self.ops.get(i as usize), &self.shapes)
    }

    /// The operations, in rank order.
    pub fn ops(&self) -> impl ExactSizeIterator<Item = Op> + '_ {
        (0..self.ops.len()).map(|i| shaped(self.ops.get(i), &self.shapes))
    }

    /// The operations of rank `r`.
    pub fn rank_ops(&self, r: u32) -> impl ExactSizeIterator<Item = Op> + '_ {
        let (a, b) = (self.rank_start[r as usize], self.rank_start[r as usize + 1]);
        (a..b).map(|i| self.op(i))
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

    /// The operations waiting for operation `on`, in line order, each with [`IREQ_BIT`]
    /// set for an `irequires` edge.
    pub(crate) fn dependents_of(&self, on: u32) -> &[u32] {
        &self.dep_list
            [self.dep_start[on as usize] as usize..self.dep_start[on as usize + 1] as usize]
    }

    /// Every dependency, ordered by the operation waited for, then line order.
    pub fn deps(&self) -> impl Iterator<Item = Dep> + '_ {
        (0u32..).zip(self.dep_start.windows(2)).flat_map(move |(on, w)| {
            self.dep_list[w[0] as usize..w[1] as usize].iter().map(move |&d| Dep {
                op: d & !IREQ_BIT,
                on,
                kind: if d & IREQ_BIT == 0 { DepKind::Requires } else { DepKind::Irequires },
            })
        })
    }

    /// Bytes the schedule's arrays use (their lengths: the parser reserves room for as many
    /// operations as the text could hold, address space that is never written).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.ops.len() * self.ops.width()
            + self.shapes.len() * std::mem::size_of::<Op>()
            + self.line_off.len()
            + self.far.len() * 8
            + (self.block_line.len()
                + self.rank_start.len()
                + self.dep_start.len()
                + self.dep_list.len())
                * 4
    }

    /// Writes the schedule back as GOAL text (labels `l<i>` with `i` the rank-local index).
    pub fn to_goal(&self) -> String {
        let mut out = format!("num_ranks {}\n", self.num_ranks);
        for r in 0..self.num_ranks {
            let base = self.rank_start[r as usize];
            out.push_str(&format!("rank {r} {{\n"));
            for (i, op) in self.rank_ops(r).enumerate() {
                let any = |v: u32| if v == ANY { "-1".to_string() } else { v.to_string() };
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
                    let word = if d & IREQ_BIT == 0 { "requires" } else { "irequires" };
                    out.push_str(&format!("l{} {word} l{}\n", (d & !IREQ_BIT) - base, on - base));
                }
            }
            out.push_str("}\n");
        }
        out
    }
}

/// The message of an operation of `kind` whose size or time `size` exceeds [`MAX_TIME`], the
/// limit of the LogGOPSim-compatible engine (`docs/models/logp-stall.md`, Limits).
pub(crate) fn size_limit_message(kind: OpKind, size: u64) -> String {
    let (what, field) = match kind {
        OpKind::Calc => ("calc time", "time"),
        OpKind::Send | OpKind::Recv => ("message size", "bytes"),
    };
    format!("{what} must satisfy {field} <= 2^31, the engine's limit (got {field} = {size})")
}
