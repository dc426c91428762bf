//! The parser's buffers: the operations, dependencies and blocks of the text in file order,
//! each block's labels resolved when it closes, then put in rank order and validated
//! ([`Parser::build`]).
#![warn(clippy::cast_possible_truncation)]

use super::edges::{append_dependents, first_cycle};
use super::errors::{echo, line32, op_id, parse_num, schedule_err, syntax, too_many_ops};
use super::labels::{Name, is_long, key, label_text, slot};
use super::shapes::Shapes;
use super::syntax::parse_op;
use super::validate::{Tally, check_message_counts};
use crate::error::Error;
use crate::goal::op_words::OpWords;
use crate::goal::schedule::{DepKind, FAR, IREQ_BIT, Op, Schedule};
use crate::limits;
use netcore::limits::{push, vec_filled, vec_with_capacity};

/// What the parser's arrays hold, for a refused allocation.
const WHAT: &str = "the GOAL schedule";

/// One `rank r { ... }` block: its operations are `ops[op_start..op_end]` of the parser's
/// file-order buffers, its dependents `dep_list[dep_start..dep_end]` (file-order indices), in
/// 24 bytes (a schedule keeps one per rank until it is built: 2^20 of them in a binomial
/// broadcast 2^20). Lines are below 2^32 ([`line32`]) and operations plus dependencies
/// below 2^32 ([`op_id`]): far below, since a parse reads at most the memory limit's units
/// ([`Parser::check_units`]) and merges a piece only below 2^31 of them and 2^32 lines
/// ([`Lines::merge_or_parse`](super::lines::Lines::merge_or_parse)).
#[derive(Debug, Clone, Copy)]
pub(super) struct Block {
    pub(super) rank: u32,
    pub(super) line: u32,
    pub(super) op_start: u32,
    pub(super) op_end: u32,
    pub(super) dep_start: u32,
    pub(super) dep_end: u32,
}

/// An empty buffer with room for `n` items, or without room when the system refuses it (the
/// buffer then grows as it fills).
fn reserved<T>(n: usize) -> Vec<T> {
    vec_with_capacity(WHAT, n).unwrap_or_default()
}

/// Bytes of the shortest operation line, `a: calc 0` and its line end.
const MIN_OP_LINE: usize = 10;
/// Bytes of the shortest dependency line, `a requires b` and its line end.
const MIN_DEP_LINE: usize = 13;

/// Flat buffers in file order, reused across blocks (no allocation per line or block).
pub(super) struct Parser {
    pub(super) p: u32,
    /// Operations, dependency lines and shapes allowed by the memory limit given `p`.
    pub(super) max_units: u64,
    pub(super) ops: OpWords,
    pub(super) shapes: Shapes,
    /// Each operation's line minus its block's, or [`FAR`] (see [`Schedule::line`]).
    pub(super) line_off: Vec<u8>,
    /// `(op, line)` of the operations at [`FAR`] or more lines below their block's header.
    pub(super) far: Vec<(u32, u32)>,
    /// Per operation, where its dependents begin in `dep_list` (a [`Schedule`]'s lists in
    /// file order, each block's appended when it closes).
    pub(super) dep_start: Vec<u32>,
    pub(super) dep_list: Vec<u32>,
    /// The rank and line of the first operation on a dependency cycle of the first rank in
    /// rank order whose block has one, reported once the text is read.
    pub(super) cycle: Option<(u32, usize)>,
    pub(super) blocks: Vec<Block>,
    /// Line of each rank's block (0 = none yet), to reject a second block; empty in a piece
    /// parsed in parallel ([`Lines::piece`](super::lines::Lines::piece)), which records
    /// `headers` instead.
    pub(super) seen: Vec<u32>,
    /// `(rank, line)` of each block header of a piece parsed in parallel, in file order.
    pub(super) headers: Vec<(u32, usize)>,
    /// The texts of the open block's labels longer than
    /// [`KEY_BYTES`](super::labels::KEY_BYTES), one after the other (a shorter label is held
    /// whole by its [`key`]).
    pub(super) names: String,
    /// Labels of the open block: (label, file-order op index).
    pub(super) labels: Vec<(Name, u32)>,
    /// Dependency lines of the open block, resolved when it closes.
    pub(super) pending: Vec<(usize, Name, Name, DepKind)>,
    /// The hash table of the open block's labels when it closes ([`Parser::close`]): per
    /// slot, a position in `labels` plus one, or 0 for an empty slot.
    pub(super) table: Vec<u32>,
    /// The open block's dependencies `(op | kind bit, on)` when it closes, and buffers for
    /// its lists and its cycle check.
    pub(super) edges: Vec<(u32, u32)>,
    pub(super) scratch: [Vec<u32>; 2],
    /// The message tally of the operations read ([`Tally`]).
    pub(super) tally: Tally,
}

impl Parser {
    /// The parser of a text of `p` ranks and `len` bytes (0 if unknown), which claims the
    /// ranks itself (`seen`, a line per rank) and reads at most `max_units` operations,
    /// dependencies and shapes, with room for a block per rank and for as many operations and
    /// dependencies as `len` bytes can hold (at most `max_units`): these buffers never grow by
    /// copying, which would leave the pages of the old copies with the allocator (a third of
    /// the peak of a dissemination 2^16). The room never written takes address space, not
    /// memory (about 1.6 times the text's length, at most about 240 MB); room the system
    /// refuses is left out, and those buffers then grow as they fill.
    pub(super) fn new(p: u32, max_units: u64, len: usize) -> Result<Self, Error> {
        let room = |line: usize| {
            usize::try_from(max_units).map_or(len / line + 1, |max| (len / line + 1).min(max))
        };
        Ok(Parser {
            max_units,
            seen: vec_filled(WHAT, p as usize, 0)?,
            blocks: vec_with_capacity(WHAT, p as usize)?,
            ops: OpWords::reserved(p, room(MIN_OP_LINE)),
            line_off: reserved(room(MIN_OP_LINE)),
            // One more start: the end of the last list.
            dep_start: reserved(room(MIN_OP_LINE) + 1),
            dep_list: reserved(room(MIN_DEP_LINE)),
            ..Parser::piece(p)
        })
    }

    /// The parser of a piece of a text of `p` ranks parsed in parallel
    /// ([`Lines::piece`](super::lines::Lines::piece)): it lists its rank headers instead
    /// of claiming them and checks no limit (the merge does, [`Lines::merge_or_parse`]).
    ///
    /// [`Lines::merge_or_parse`]: super::lines::Lines::merge_or_parse
    pub(super) fn piece(p: u32) -> Self {
        Parser {
            p,
            max_units: u64::MAX,
            ops: OpWords::reserved(p, 0),
            shapes: Shapes::default(),
            line_off: Vec::new(),
            far: Vec::new(),
            dep_start: Vec::new(),
            dep_list: Vec::new(),
            cycle: None,
            blocks: Vec::new(),
            seen: Vec::new(),
            headers: Vec::new(),
            names: String::new(),
            labels: Vec::new(),
            pending: Vec::new(),
            table: Vec::new(),
            edges: Vec::new(),
            scratch: [Vec::new(), Vec::new()],
            tally: Tally::default(),
        }
    }

    /// Appends the parser `w` of a piece parsed after `base` lines
    /// ([`Lines::piece`](super::lines::Lines::piece)): claims its ranks in file order, then
    /// returns its error (a line number `base` further), else takes its operations and blocks.
    pub(super) fn merge(
        &mut self,
        base: usize,
        w: Parser,
        err: Option<Error>,
    ) -> Result<(), Error> {
        for &(rank, line) in &w.headers {
            self.claim(rank, base + line)?;
        }
        if let Some(e) = err {
            return Err(match e {
                Error::GoalSyntax { line, message } => {
                    Error::GoalSyntax { line: base + line, message }
                }
                e => e,
            });
        }
        let shift = op_id(self.ops.len(), base)?;
        let dshift = op_id(self.dep_list.len(), base)?;
        // The caller checked that every line of the piece is below 2^32 (`line32`).
        let base32 = line32(base)?;
        let shape: Vec<u32> = w
            .shapes
            .list
            .iter()
            .map(|&op| self.shapes.store(op).map(|s| s.shape))
            .collect::<Result<_, _>>()?;
        self.ops.extend_from(&w.ops, 0..w.ops.len(), |s| shape[s as usize])?;
        self.line_off.extend_from_slice(&w.line_off);
        self.far.extend(w.far.iter().map(|&(o, line)| (o + shift, line + base32)));
        self.dep_start.extend(w.dep_start.iter().map(|&d| d + dshift));
        self.dep_list
            .extend(w.dep_list.iter().map(|&d| ((d & !IREQ_BIT) + shift) | (d & IREQ_BIT)));
        if let Some((rank, line)) = w.cycle {
            self.note_cycle(rank, base + line);
        }
        self.tally.join(w.tally);
        self.blocks.extend(w.blocks.iter().map(|b| Block {
            rank: b.rank,
            line: b.line + base32,
            op_start: b.op_start + shift,
            op_end: b.op_end + shift,
            dep_start: b.dep_start + dshift,
            dep_end: b.dep_end + dshift,
        }));
        Ok(())
    }

    pub(super) fn rank_header(&mut self, line: usize, tokens: &[&str]) -> Result<Block, Error> {
        let p = self.p;
        let r = match tokens {
            ["rank", r, "{"] => *r,
            _ => {
                return Err(syntax(
                    line,
                    format!("expected `rank <r> {{` (got `{}`)", echo(&tokens.join(" "))),
                ));
            }
        };
        let rank: u32 = parse_num(line, r, "rank id")?;
        if rank >= p {
            return Err(syntax(line, format!("rank id must be < num_ranks = {p} (got {rank})")));
        }
        if self.seen.is_empty() {
            // A piece parsed in parallel: the rank is claimed when the piece is merged.
            self.headers.push((rank, line));
        } else {
            self.claim(rank, line)?;
        }
        let at = self.next_op(line)?;
        let d = op_id(self.dep_list.len(), line)?;
        Ok(Block { rank, line: line32(line)?, op_start: at, op_end: at, dep_start: d, dep_end: d })
    }

    /// Records rank `rank`'s block at `line`; rejects a second block.
    pub(super) fn claim(&mut self, rank: u32, line: usize) -> Result<(), Error> {
        let prev = self.seen[rank as usize];
        if prev > 0 {
            return Err(syntax(
                line,
                format!("rank {rank} has a second block (first at line {prev})"),
            ));
        }
        self.seen[rank as usize] = line32(line)?;
        Ok(())
    }

    pub(super) fn body_line(
        &mut self,
        line: usize,
        tokens: &[&str],
        block: &Block,
    ) -> Result<(), Error> {
        self.check_units(line)?;
        if let [a, word @ ("requires" | "irequires"), b] = tokens {
            let kind = if *word == "requires" { DepKind::Requires } else { DepKind::Irequires };
            self.push_dep(line, [(a, key(a)), (b, key(b))], kind);
            return Ok(());
        }
        let Some(label) = tokens.first().and_then(|t| t.strip_suffix(':')) else {
            return Err(syntax(
                line,
                format!(
                    "expected `<label>: send|recv|calc ...`, `<label> requires <label>` or `}}` (got `{}`)",
                    echo(&tokens.join(" "))
                ),
            ));
        };
        if label.is_empty() {
            return Err(syntax(line, "empty label before `:`"));
        }
        let op = parse_op(line, &tokens[1..], self.p, block.rank)?;
        self.push_op(line, label, key(label), op, block)
    }

    /// Rejects one more operation or dependency line beyond the memory limit (a shape counts
    /// as a unit too: a schedule whose operations all differ holds one per operation).
    pub(super) fn check_units(&self, line: usize) -> Result<(), Error> {
        let units = (self.ops.len() + self.dep_list.len() + self.pending.len() + self.shapes.len())
            as u64
            + 1;
        if units > self.max_units {
            let p = self.p;
            let value = || {
                format!(
                    "{p} with more than {} operations and dependencies by goal line {line}",
                    self.max_units
                )
            };
            limits::check("num_ranks", value, limits::goal_estimate(u64::from(p), units))?;
        }
        Ok(())
    }

    /// Records the dependency line `a requires b` (or `irequires`) of the open block, each
    /// label with its [`key`].
    pub(super) fn push_dep(&mut self, line: usize, [a, b]: [(&str, u128); 2], kind: DepKind) {
        let (a, b) = (self.name(a.0, a.1), self.name(b.0, b.1));
        self.pending.push((line, a, b, kind));
    }

    /// Appends the operation `op` labelled `label` (whose [`key`] is `key`) at `line` to the
    /// open block.
    pub(super) fn push_op(
        &mut self,
        line: usize,
        label: &str,
        key: u128,
        op: Op,
        block: &Block,
    ) -> Result<(), Error> {
        let id = self.next_op(line)?;
        let name = self.name(label, key);
        push(WHAT, &mut self.labels, (name, id))?;
        let stored = self.shapes.store(op)?;
        self.ops.push(stored)?;
        self.tally.add(block.rank, &op);
        // The header's line fits in a u32 (checked), so a smaller offset gives a line that fits.
        match u8::try_from(line - block.line as usize).ok().filter(|&off| off < FAR) {
            Some(off) => push(WHAT, &mut self.line_off, off)?,
            None => {
                push(WHAT, &mut self.line_off, FAR)?;
                push(WHAT, &mut self.far, (id, line32(line)?))?;
            }
        }
        Ok(())
    }

    /// The id of the next operation. Ids use the top bit as a flag (dependency kind,
    /// completion dependents), so a schedule holds fewer than 2^31 operations.
    pub(super) fn next_op(&self, line: usize) -> Result<u32, Error> {
        op_id(self.ops.len(), line)
            .and_then(|id| if id < (1 << 31) - 1 { Ok(id) } else { Err(too_many_ops(line)) })
    }

    /// A label of the open block, whose [`key`] is `key` (its text stored when longer than
    /// [`KEY_BYTES`](super::labels::KEY_BYTES)).
    pub(super) fn name(&mut self, label: &str, key: u128) -> Name {
        let start = self.names.len();
        if is_long(key) {
            self.names.push_str(label);
        }
        Name { key, start, end: self.names.len() }
    }

    /// Closes a block: rejects duplicate labels, resolves its dependencies into the
    /// schedule's reverse lists and records a cycle among them ([`Parser::note_cycle`]).
    pub(super) fn close(&mut self, mut block: Block) -> Result<(), Error> {
        let r = block.rank;
        // The labels in a hash table of at least twice their number of slots (open
        // addressing, linear probing), inserted in file order: the first label found there
        // already is the earliest second definition. Keys are compared first, texts only for
        // two long labels of one key.
        let bits = (2 * self.labels.len()).max(2).next_power_of_two().trailing_zeros();
        let mask = (1usize << bits) - 1;
        self.table.clear();
        self.table.resize(mask + 1, 0);
        let (names, labels, table) = (&self.names, &self.labels, &mut self.table);
        let same = |a: Name, b: Name| {
            a.key == b.key && (!is_long(a.key) || names[a.start..a.end] == names[b.start..b.end])
        };
        let twice = (1u32..).zip(labels).find(|&(i, &(name, _))| {
            let mut at = slot(name.key, bits);
            while let Some(j) = table[at].checked_sub(1) {
                if same(labels[j as usize].0, name) {
                    return true;
                }
                at = (at + 1) & mask;
            }
            table[at] = i;
            false
        });
        if let Some((_, &(name, id))) = twice {
            return Err(syntax(
                self.line_of(block.line as usize, id),
                format!("label `{}` is defined twice in rank {r}", echo(&label_text(names, name))),
            ));
        }
        let table = &self.table;
        self.edges.clear();
        for &(line, a, b, kind) in &self.pending {
            let find = |label: Name| {
                let mut at = slot(label.key, bits);
                while let Some(j) = table[at].checked_sub(1) {
                    let (l, id) = labels[j as usize];
                    if same(l, label) {
                        return Ok(id);
                    }
                    at = (at + 1) & mask;
                }
                Err(syntax(
                    line,
                    format!(
                        "label `{}` is not defined in rank {r}",
                        echo(&label_text(names, label))
                    ),
                ))
            };
            let (op, on) = (find(a)?, find(b)?);
            if op == on {
                return Err(syntax(
                    line,
                    format!("label `{}` cannot depend on itself", echo(&label_text(names, a))),
                ));
            }
            let bit = if kind == DepKind::Irequires { IREQ_BIT } else { 0 };
            push(WHAT, &mut self.edges, (op | bit, on))?;
        }
        let first = block.op_start;
        let n = self.ops.len() - first as usize;
        let [count, stack] = &mut self.scratch;
        let lists = [&mut self.dep_start, &mut self.dep_list, &mut *count];
        append_dependents(first, n, &self.edges, lists)?;
        let list = &self.dep_list[block.dep_start as usize..];
        let starts = &self.dep_start[first as usize..];
        if let Some(op) = first_cycle(first, &self.edges, starts, list, [count, stack]) {
            let line = self.line_of(block.line as usize, op);
            self.note_cycle(r, line);
        }
        self.names.clear();
        self.labels.clear();
        self.pending.clear();
        block.op_end = op_id(self.ops.len(), block.line as usize)?;
        block.dep_end = op_id(self.dep_list.len(), block.line as usize)?;
        self.blocks.push(block);
        Ok(())
    }

    /// Records a dependency cycle in rank `rank` through the operation at `line`, unless
    /// one of a lower rank is recorded.
    pub(super) fn note_cycle(&mut self, rank: u32, line: usize) {
        if self.cycle.is_none_or(|(r, _)| rank < r) {
            self.cycle = Some((rank, line));
        }
    }

    /// The line of the operation `op` (file order) of the block whose header is at `block_line`.
    pub(super) fn line_of(&self, block_line: usize, op: u32) -> usize {
        match self.line_off[op as usize] {
            FAR => self.far[self.far.partition_point(|&(o, _)| o < op)].1 as usize,
            off => block_line + usize::from(off),
        }
    }

    /// Puts the blocks in rank order and validates the schedule.
    pub(super) fn build(mut self) -> Result<Schedule, Error> {
        if let Some((r, line)) = self.cycle {
            return Err(schedule_err(format!(
                "the dependencies of rank {r} form a cycle (through the operation at line {line})"
            )));
        }
        let p = self.p;
        let in_order = self.blocks.windows(2).all(|w| w[0].rank < w[1].rank);
        let (ops, line_off, far, mut dep_start, dep_list) = if in_order {
            (self.ops, self.line_off, self.far, self.dep_start, self.dep_list)
        } else {
            self.blocks.sort_unstable_by_key(|b| b.rank);
            let mut ops = self.ops.with_capacity_like(self.ops.len())?;
            let mut line_off = vec_with_capacity(WHAT, self.ops.len())?;
            let mut far = vec_with_capacity(WHAT, self.far.len())?;
            let mut dep_start = vec_with_capacity(WHAT, self.ops.len() + 1)?;
            let mut dep_list = vec_with_capacity(WHAT, self.dep_list.len())?;
            let mut base = 0u32;
            for b in &self.blocks {
                let (a, e) = (b.op_start as usize, b.op_end as usize);
                ops.extend_from(&self.ops, a..e, |s| s)?;
                line_off.extend_from_slice(&self.line_off[a..e]);
                let shift = |i: u32| i - b.op_start + base;
                let first = self.far.partition_point(|&(o, _)| o < b.op_start);
                let end = self.far.partition_point(|&(o, _)| o < b.op_end);
                far.extend(self.far[first..end].iter().map(|&(o, line)| (shift(o), line)));
                // Fewer than 2^31 dependencies (counted against the memory limit).
                let d_base = u32::try_from(dep_list.len()).unwrap_or(u32::MAX);
                dep_start.extend(self.dep_start[a..e].iter().map(|&d| d - b.dep_start + d_base));
                dep_list.extend(
                    self.dep_list[b.dep_start as usize..b.dep_end as usize]
                        .iter()
                        .map(|&d| shift(d & !IREQ_BIT) | (d & IREQ_BIT)),
                );
                base += b.op_end - b.op_start;
            }
            (ops, line_off, far, dep_start, dep_list)
        };
        push(WHAT, &mut dep_start, op_id(dep_list.len(), 0)?)?;
        let mut rank_start = vec_with_capacity(WHAT, p as usize + 1)?;
        let mut next = 0;
        let mut at = 0u32;
        for r in 0..p {
            rank_start.push(at);
            if let Some(b) = self.blocks.get(next).filter(|b| b.rank == r) {
                at += b.op_end - b.op_start;
                next += 1;
            }
        }
        rank_start.push(at);
        drop(self.blocks);
        let schedule = Schedule {
            num_ranks: p,
            rank_start,
            ops,
            shapes: self.shapes.list,
            block_line: self.seen,
            line_off,
            far,
            dep_start,
            dep_list,
        };
        if self.tally.may_differ() {
            check_message_counts(&schedule)?;
        }
        Ok(schedule)
    }
}
