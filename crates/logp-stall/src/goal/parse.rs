//! The GOAL text parser and schedule validation (static message matching, acyclic
//! dependencies).
#![warn(clippy::cast_possible_truncation)]

use super::loggops::{ANY, MAX_TIME};
use super::{DepKind, FAR, Op, OpKind, Schedule};
use crate::error::Error;
use crate::limits;

/// Largest accepted `num_ranks` (2^24; bounds the per-rank tables a header can allocate).
pub const MAX_RANKS: u32 = 1 << 24;

/// Longest piece of GOAL text an error message quotes (a 50 MB line gives a one-line error).
pub const ECHO_MAX: usize = 60;

/// `text` as quoted in an error: at most [`ECHO_MAX`] characters, then `...` and its length.
fn echo(text: &str) -> String {
    match text.char_indices().nth(ECHO_MAX) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}... ({} bytes)", &text[..cut], text.len()),
    }
}

fn syntax(line: usize, message: impl Into<String>) -> Error {
    Error::GoalSyntax { line, message: message.into() }
}

fn not_utf8(line: usize) -> Error {
    syntax(line, "the line is not valid UTF-8")
}

fn schedule_err(message: impl Into<String>) -> Error {
    Error::GoalSchedule { message: message.into() }
}

fn too_many_ops(line: usize) -> Error {
    syntax(line, "a schedule holds at most 2^31 - 1 operations")
}

/// An operation count or index as an id.
fn op_id(count: usize, line: usize) -> Result<u32, Error> {
    u32::try_from(count).map_err(|_| too_many_ops(line))
}

/// A line number as stored per operation.
fn line32(line: usize) -> Result<u32, Error> {
    u32::try_from(line).map_err(|_| syntax(line, "a GOAL text has at most 2^32 - 1 lines"))
}

/// One `rank r { ... }` block: its operations are `ops[op_start..op_end]` of the parser's
/// file-order buffers, its dependencies `deps[dep_start..dep_end]` (file-order indices).
#[derive(Debug, Clone, Copy)]
struct Block {
    rank: u32,
    line: usize,
    op_start: u32,
    op_end: u32,
    dep_start: usize,
    dep_end: usize,
}

/// Flat buffers in file order, reused across blocks (no allocation per line or block).
struct Parser {
    p: u32,
    /// Operations plus dependency lines allowed by the memory limit given `p`.
    max_units: u64,
    ops: Vec<Op>,
    /// Each operation's line minus its block's, or [`FAR`] (see [`Schedule::line`]).
    line_off: Vec<u8>,
    /// `(op, line)` of the operations at [`FAR`] or more lines below their block's header.
    far: Vec<(u32, u32)>,
    deps: Vec<Edge>,
    blocks: Vec<Block>,
    /// Line of each rank's block (0 = none yet), to reject a second block; empty in a piece
    /// parsed in parallel ([`Parser::piece`]), which records `headers` instead.
    seen: Vec<u32>,
    /// `(rank, line)` of each block header of a piece parsed in parallel, in file order.
    headers: Vec<(u32, usize)>,
    /// The texts of the open block's labels longer than [`KEY_BYTES`], one after the other
    /// (a shorter label is held whole by its [`key`]).
    names: String,
    /// Labels of the open block: (label, file-order op index).
    labels: Vec<(Name, u32)>,
    /// Dependency lines of the open block, resolved when it closes.
    pending: Vec<(usize, Name, Name, DepKind)>,
    /// The hash table of the open block's labels when it closes ([`Parser::close`]): per
    /// slot, a position in `labels` plus one, or 0 for an empty slot.
    table: Vec<u32>,
}

/// A dependency as the parser keeps it, in 8 bytes: `op` waits for `on`, [`IREQ_BIT`] set in
/// `op` for `irequires` (operation ids are below 2^31 - 1).
#[derive(Debug, Clone, Copy)]
struct Edge {
    op: u32,
    on: u32,
}

impl Edge {
    /// The edge between the operations `op - from + to` and `on - from + to`.
    fn moved(self, from: u32, to: u32) -> Edge {
        let bit = self.op & IREQ_BIT;
        Edge { op: ((self.op & !IREQ_BIT) - from + to) | bit, on: self.on - from + to }
    }
}

/// A label of the open block: its [`key`] and, for a label longer than [`KEY_BYTES`], its
/// text as `names[start..end]` of the [`Parser`] (an empty range for a shorter label, which
/// its key holds whole).
#[derive(Debug, Clone, Copy)]
struct Name {
    key: u128,
    start: usize,
    end: usize,
}

/// Longest label that [`key`] holds whole.
const KEY_BYTES: usize = 15;

/// A label as one number: its first [`KEY_BYTES`] bytes (zero-padded) and its length (255 for
/// 255 bytes or more). Labels are hashed and compared by it first; two labels of at most
/// [`KEY_BYTES`] bytes are equal exactly when their keys are, so their texts are compared only
/// for longer labels.
fn key(label: &str) -> u128 {
    let mut k = [0u8; 16];
    for (to, &from) in k.iter_mut().zip(label.as_bytes().iter().take(KEY_BYTES)) {
        *to = from;
    }
    k[KEY_BYTES] = u8::try_from(label.len()).unwrap_or(u8::MAX);
    u128::from_be_bytes(k)
}

/// Whether a label with key `key` is longer than [`KEY_BYTES`] (its text is kept in `names`).
fn is_long(key: u128) -> bool {
    usize::from(key.to_be_bytes()[KEY_BYTES]) > KEY_BYTES
}

/// The slot of a label with key `key` in a hash table of `2^bits` slots (`bits` in `1..64`):
/// the top bits of the key's halves mixed and multiplied by an odd constant (Fibonacci
/// hashing).
fn slot(key: u128, bits: u32) -> usize {
    let half = |k: u128| u64::try_from(k & u128::from(u64::MAX)).unwrap_or(0);
    let h = (half(key) ^ half(key >> 64).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    usize::try_from(h >> (64 - bits)).unwrap_or(0)
}

/// A label's text (for an error message): from `names` when long, from its key otherwise.
fn label_text(names: &str, n: Name) -> std::borrow::Cow<'_, str> {
    if is_long(n.key) {
        std::borrow::Cow::Borrowed(&names[n.start..n.end])
    } else {
        let k = n.key.to_be_bytes();
        // A short label is whole in its key, and it was a `str`.
        String::from_utf8_lossy(&k[..usize::from(k[KEY_BYTES])]).into_owned().into()
    }
}

/// Bytes read from the GOAL text at a time (lines are parsed from this buffer, so the text
/// is never held whole; a longer line grows it).
const CHUNK: usize = 1 << 18;

/// Parses GOAL text into a validated [`Schedule`].
///
/// Checks: syntax (with the 1-based line number), `num_ranks` in `1..=2^24`, rank ids and
/// peers `< num_ranks`, no duplicate rank block or label, no send/recv to oneself, every
/// dependency names labels of its block, the dependencies of every rank are acyclic, and,
/// without wildcards, as many sends as recvs for each `(src, dst, tag)`
/// ([`check_message_counts`]; messages are matched dynamically when the schedule runs).
/// Rank blocks may come in any order; missing ranks have no operations.
///
/// # Examples
///
/// ```
/// let schedule = logp_stall::goal::parse("num_ranks 2\nrank 0 {\na: send 8b to 1\n}\nrank 1 {\na: recv 8b from 0\n}\n")?;
/// assert_eq!(schedule.num_ranks, 2);
/// # Ok::<(), logp_stall::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::GoalSyntax`] naming the 1-based line and the rule for a line that does not parse
/// or a bound it breaks; [`Error::GoalSchedule`] for a schedule that parses but cannot run
/// (unequal send and recv counts for a `(src, dst, tag)`, a dependency cycle).
pub fn parse(text: &str) -> Result<Schedule, Error> {
    // Reading a byte slice cannot fail.
    parse_from(text.as_bytes(), |e| syntax(0, e.to_string()), threads())
}

/// Parses the GOAL file at `path` as [`parse()`] parses text, reading it in chunks of 256 KiB
/// (the text is never held whole).
///
/// # Errors
///
/// Those of [`parse()`]; [`Error::GoalSyntax`] for a line that is not UTF-8; and
/// [`Error::GoalParam`] naming `path` for a file that cannot be opened or read.
pub fn parse_file(path: &std::path::Path) -> Result<Schedule, Error> {
    let io_err = |e: std::io::Error| Error::GoalParam {
        field: "file",
        rule: "a readable GOAL file, relative to the config file",
        value: format!("{} ({e})", path.display()),
    };
    parse_from(std::fs::File::open(path).map_err(io_err)?, io_err, threads())
}

/// The line-by-line state of a parse.
#[derive(Default)]
struct Lines {
    parser: Option<Parser>,
    open: Option<Block>,
    in_comment: bool,
    last_line: usize,
}

/// The threads a parse uses: the cores available to the process, at most [`MAX_THREADS`].
fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))
}

/// Parses GOAL text from `reader` in chunks of whole lines ([`Chunks`]): serially with one
/// thread; with more, the chunks after the `num_ranks` line are parsed as pieces by `threads`
/// threads while this thread reads the next chunks and merges the parsed ones in file order
/// ([`Lines::pipeline`]; the result, errors included, does not depend on `threads`).
fn parse_from<R: std::io::Read>(
    reader: R,
    io_err: impl Fn(std::io::Error) -> Error,
    threads: usize,
) -> Result<Schedule, Error> {
    let mut st = Lines::default();
    let mut chunks = Chunks { reader, io_err, carry: Vec::new(), eof: false };
    let mut buf = Vec::new();
    // Serially up to the chunk holding `num_ranks`, and to the end once the text is read
    // (a text of one chunk starts no thread).
    let p = loop {
        match (threads, st.parser.as_ref()) {
            (2.., Some(ps)) if !chunks.eof => break ps.p,
            _ => {
                let Some(chunk) = chunks.next(buf)? else { return st.finish() };
                st.text(chunk.text())?;
                buf = chunk.buf;
            }
        }
    };
    let (jobs, job_rx) = std::sync::mpsc::channel::<(usize, Chunk)>();
    let job_rx = std::sync::Mutex::new(job_rx);
    let (done_tx, done) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (job_rx, done_tx) = (&job_rx, done_tx.clone());
            // A thread ends when the jobs' sender or the results' receiver is dropped.
            scope.spawn(move || {
                while let Some((seq, chunk)) = job_rx.lock().ok().and_then(|rx| rx.recv().ok()) {
                    let piece = Parser::piece(p, chunk.text());
                    if done_tx.send((seq, chunk, Some(piece))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done_tx);
        st.pipeline(&mut chunks, jobs, &done, 2 * threads)
    })?;
    st.finish()
}

/// Most threads a parse uses.
const MAX_THREADS: usize = 8;

/// `\n}\n`: the end of a line `}` (a block's end, or an error outside a block).
const BLOCK_END: &[u8] = b"\n}\n";

/// The position just after the last [`BLOCK_END`] of `text`.
fn last_block_end(text: &[u8]) -> Option<usize> {
    text.windows(BLOCK_END.len()).rposition(|w| w == BLOCK_END).map(|i| i + BLOCK_END.len())
}

/// Whole lines of the GOAL text, `buf[..len]`; `piece` when they end with a line `}` (so the
/// next chunk can be parsed on its own when this one ends outside any block).
struct Chunk {
    buf: Vec<u8>,
    len: usize,
    piece: bool,
}

impl Chunk {
    fn text(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

/// A parsed piece: its parse state and its first error ([`Parser::piece`]).
type Piece = (Lines, Option<Error>);

/// The chunks of a reader: about [`CHUNK`] bytes, cut after the last line `}` (the lines after
/// it are carried to the next chunk), or after the last line end when there is none.
struct Chunks<R, F> {
    reader: R,
    io_err: F,
    /// The bytes after the last chunk's end, read already.
    carry: Vec<u8>,
    eof: bool,
}

impl<R: std::io::Read, F: Fn(std::io::Error) -> Error> Chunks<R, F> {
    /// The next chunk, read into `buf` (a buffer reused from chunk to chunk); `None` at the end.
    fn next(&mut self, mut buf: Vec<u8>) -> Result<Option<Chunk>, Error> {
        let size = CHUNK.max(2 * self.carry.len());
        if buf.len() < size {
            buf.resize(size, 0);
        }
        let mut filled = self.carry.len();
        buf[..filled].copy_from_slice(&self.carry);
        self.carry.clear();
        loop {
            while filled < buf.len() && !self.eof {
                match self.reader.read(&mut buf[filled..]) {
                    Ok(0) => self.eof = true,
                    Ok(n) => filled += n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err((self.io_err)(e)),
                }
            }
            // At the end, the last line needs no `\n` (a `\r` before a `\n` is whitespace to
            // the tokenizer).
            let whole = if self.eof {
                filled
            } else {
                buf[..filled].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)
            };
            let (len, piece) = match last_block_end(&buf[..whole]) {
                Some(cut) => (cut, true),
                None if whole > 0 => (whole, false),
                None if self.eof => return Ok(None),
                // A line longer than the buffer.
                None => {
                    buf.resize(2 * buf.len(), 0);
                    continue;
                }
            };
            self.carry.extend_from_slice(&buf[len..filled]);
            return Ok(Some(Chunk { buf, len, piece }));
        }
    }
}

impl Lines {
    /// Reads the chunks of `chunks`, sends those that end with a line `}` to the parse threads
    /// (`jobs`, each numbered in file order; at most `limit` chunks are read and not merged),
    /// and merges their results (`done`) in file order ([`Lines::merge_or_parse`]); the other
    /// chunks are parsed here in their turn. A read error is returned after the chunks before
    /// it are merged (and their first error, if any, instead).
    fn pipeline<R: std::io::Read, F: Fn(std::io::Error) -> Error>(
        &mut self,
        chunks: &mut Chunks<R, F>,
        jobs: std::sync::mpsc::Sender<(usize, Chunk)>,
        done: &std::sync::mpsc::Receiver<(usize, Chunk, Option<Piece>)>,
        limit: usize,
    ) -> Result<(), Error> {
        let mut ready = std::collections::BTreeMap::new();
        let mut pool = Vec::new();
        let (mut read, mut merged) = (0, 0);
        let (mut reading, mut read_err) = (true, None);
        loop {
            while reading && read - merged < limit {
                match chunks.next(pool.pop().unwrap_or_default()) {
                    Ok(Some(chunk)) if chunk.piece => {
                        // Without parse threads (never: they end after `jobs`), parsed here.
                        if let Err(std::sync::mpsc::SendError((seq, chunk))) =
                            jobs.send((read, chunk))
                        {
                            ready.insert(seq, (chunk, None));
                        }
                    }
                    Ok(Some(chunk)) => {
                        ready.insert(read, (chunk, None));
                    }
                    Ok(None) => reading = false,
                    Err(e) => (reading, read_err) = (false, Some(e)),
                }
                read += usize::from(reading);
            }
            if merged == read {
                break;
            }
            let (chunk, piece) = loop {
                if let Some(next) = ready.remove(&merged) {
                    break next;
                }
                let (seq, chunk, piece) = done.recv().expect("a parse thread does not panic");
                ready.insert(seq, (chunk, piece));
            };
            self.merge_or_parse(chunk.text(), piece)?;
            pool.push(chunk.buf);
            merged += 1;
        }
        read_err.map_or(Ok(()), Err)
    }

    /// Appends the whole lines `text`, parsed as a piece (`piece`), when that is what a serial
    /// parse gives: this parse is outside any block and comment, the piece ends outside them
    /// too (or at its first error), and no limit can be reached inside it (memory estimate,
    /// 2^31 operations, 2^32 lines; pieces do not check them); parses `text` here otherwise.
    fn merge_or_parse(&mut self, text: &[u8], piece: Option<Piece>) -> Result<(), Error> {
        let outside = |st: &Lines| st.open.is_none() && !st.in_comment;
        if let (Some((piece, err)), true, Some(ps)) = (piece, outside(self), self.parser.as_mut()) {
            // At most `text.len()` lines and as many operations and dependencies.
            let units = (ps.ops.len() + ps.deps.len() + text.len()) as u64;
            let fits = units < ps.max_units.min((1 << 31) - 1)
                && ((self.last_line + text.len()) as u64) < u64::from(u32::MAX);
            if fits && (err.is_some() || outside(&piece)) {
                let base = self.last_line;
                let lines = piece.last_line;
                ps.merge(base, piece, err)?;
                self.last_line = base + lines;
                return Ok(());
            }
        }
        self.text(text)
    }

    /// Parses the whole lines `bytes`, checked as UTF-8: on a byte that is not, the lines
    /// before its line are parsed, then its line is the error.
    fn text(&mut self, bytes: &[u8]) -> Result<(), Error> {
        match std::str::from_utf8(bytes) {
            Ok(text) => self.lines(text),
            Err(e) => {
                let cut = bytes[..e.valid_up_to()].iter().rposition(|&b| b == b'\n');
                let valid = &bytes[..cut.map_or(0, |i| i + 1)];
                self.lines(std::str::from_utf8(valid).map_err(|_| not_utf8(self.last_line + 1))?)?;
                Err(not_utf8(self.last_line + 1))
            }
        }
    }

    /// Parses the whole lines `text`.
    fn lines(&mut self, text: &str) -> Result<(), Error> {
        if text.is_empty() {
            return Ok(());
        }
        let mut tokens: Vec<&str> = Vec::with_capacity(8);
        // `str::lines` without the `\r` stripping: a `\r` is whitespace to the tokenizer.
        for raw in text.strip_suffix('\n').unwrap_or(text).split('\n') {
            tokens.clear();
            self.line(raw, &mut tokens)?;
        }
        Ok(())
    }

    /// Parses the next line, `raw`; `tokens` is an empty buffer for its tokens.
    fn line<'a>(&mut self, raw: &'a str, tokens: &mut Vec<&'a str>) -> Result<(), Error> {
        self.last_line += 1;
        let line = self.last_line;
        if let (false, Some(ps), Some(block)) = (self.in_comment, self.parser.as_mut(), self.open) {
            match quick_line(raw, ps.p, block.rank) {
                Some(Quick::End) => {
                    self.open = None;
                    return ps.close(block);
                }
                Some(Quick::Dep(a, b, kind)) => {
                    ps.check_units(line)?;
                    ps.push_dep(line, a, b, kind);
                    return Ok(());
                }
                Some(Quick::Op(label, key, op)) => {
                    ps.check_units(line)?;
                    return ps.push_op(line, label, key, op, &block);
                }
                None => {}
            }
        }
        tokenize(raw, &mut self.in_comment, tokens);
        if tokens.is_empty() {
            return Ok(());
        }
        let Some(ps) = self.parser.as_mut() else {
            let p = parse_num_ranks(line, tokens)?;
            let value = || format!("{p} (goal line {line})");
            limits::check("num_ranks", value, limits::goal_estimate(u64::from(p), 0))?;
            let max_units = (limits::MEMORY_LIMIT - limits::goal_estimate(u64::from(p), 0))
                / limits::GOAL_BYTES_PER_OP;
            self.parser = Some(Parser::new(p, max_units, vec![0; p as usize]));
            return Ok(());
        };
        match self.open.take() {
            None => self.open = Some(ps.rank_header(line, tokens)?),
            Some(block) if tokens[..] == ["}"] => ps.close(block)?,
            Some(block) => {
                ps.body_line(line, tokens, &block)?;
                self.open = Some(block);
            }
        }
        Ok(())
    }

    fn finish(self) -> Result<Schedule, Error> {
        let last_line = self.last_line;
        if self.in_comment {
            return Err(syntax(last_line, "a `/*` comment is not closed by `*/` before the end"));
        }
        let Some(ps) = self.parser else {
            return Err(syntax(last_line.max(1), "missing `num_ranks <P>` header"));
        };
        if let Some(block) = self.open {
            return Err(syntax(
                last_line,
                format!(
                    "rank {} block opened at line {} is not closed by `}}`",
                    block.rank, block.line
                ),
            ));
        }
        ps.build()
    }
}

/// A body line recognised by [`quick_line`].
enum Quick<'a> {
    /// `}`.
    End,
    /// `<a> requires <b>` or `<a> irequires <b>`.
    Dep(&'a str, &'a str, DepKind),
    /// `<label>: <operation>`, with the label's [`key`].
    Op(&'a str, u128, Op),
}

/// Most words of a body line: `l: send 8b to 1 tag 0 cpu 0 nic 0`.
const MAX_WORDS: usize = 11;

/// A line inside a block read in one pass over its bytes (words kept as ranges on the stack,
/// keywords compared as packed integers (so a NUL byte is left to the general path),
/// numbers read from the digits), when it is plain: ASCII without `/`, and an operation whose
/// numbers are decimal digits within their bounds (no wildcard). Anything else, errors
/// included, gives `None` and is read by [`tokenize`] and [`Parser::body_line`], whose results
/// these equal.
fn quick_line(raw: &str, p: u32, rank: u32) -> Option<Quick<'_>> {
    if let Some(q) = plain_line(raw, p, rank) {
        return Some(q);
    }
    let b = raw.as_bytes();
    let mut words = [(0usize, 0usize); MAX_WORDS];
    let mut n = 0;
    let mut i = 0;
    loop {
        while i < b.len() && CLASS[usize::from(b[i])] == SPACE {
            i += 1;
        }
        if i == b.len() {
            break;
        }
        let start = i;
        while i < b.len() {
            match CLASS[usize::from(b[i])] {
                WORD => i += 1,
                SPACE => break,
                _ => return None,
            }
        }
        *words.get_mut(n)? = (start, i);
        n += 1;
    }
    let w = |k: usize| &b[words[k].0..words[k].1];
    let s = |k: usize| &raw[words[k].0..words[k].1];
    // Keywords compared as packed integers (a slice comparison calls `memcmp`).
    let kw = |k: usize| pack(w(k));
    if n == 1 && kw(0) == pack(b"}") {
        return Some(Quick::End);
    }
    if n == 3 && (kw(1) == pack(b"requires") || w(1) == b"irequires") {
        let kind = if kw(1) == pack(b"requires") { DepKind::Requires } else { DepKind::Irequires };
        return Some(Quick::Dep(s(0), s(2), kind));
    }
    if n < 3 {
        return None;
    }
    let label = s(0).strip_suffix(':').filter(|l| !l.is_empty())?;
    let verb = kw(1);
    // The size's word without its `b` (a byte compared, not a slice: that calls `memcmp`).
    let size_word = match (verb == CALC, w(2).split_last()) {
        (true, _) => w(2),
        (false, Some((&b'b', number))) => number,
        (false, _) => return None,
    };
    let size = digits(size_word).filter(|&v| v <= MAX_TIME).and_then(|v| u32::try_from(v).ok())?;
    let op = match verb {
        CALC => {
            let cpu = match n {
                3 => 0,
                5 if kw(3) == CPU => u8::try_from(digits(w(4))?).ok()?,
                _ => return None,
            };
            Op { size, peer: 0, tag: 0, kind: OpKind::Calc, cpu, nic: 0 }
        }
        SEND | RECV => {
            let (kind, want) = if verb == SEND {
                (OpKind::Send, pack(b"to"))
            } else {
                (OpKind::Recv, pack(b"from"))
            };
            if n < 5 || kw(3) != want || n % 2 == 0 {
                return None;
            }
            let peer = u32::try_from(digits(w(4))?).ok().filter(|&q| q < p && q != rank)?;
            let (mut tag, mut cpu, mut nic, mut seen) = (0, 0, 0, 0);
            for k in (5..n).step_by(2) {
                let (order, v) = match kw(k) {
                    TAG => (1, digits(w(k + 1))?),
                    CPU => (2, digits(w(k + 1))?),
                    NIC => (3, digits(w(k + 1))?),
                    _ => return None,
                };
                if order <= seen {
                    return None;
                }
                seen = order;
                match order {
                    1 => tag = u32::try_from(v).ok().filter(|&t| t != ANY)?,
                    2 => cpu = u8::try_from(v).ok()?,
                    _ => nic = u8::try_from(v).ok()?,
                }
            }
            Op { size, peer, tag, kind, cpu, nic }
        }
        _ => return None,
    };
    Some(Quick::Op(label, key(label), op))
}

/// A line in the form that generators write, read straight through (each byte once, the
/// keywords with the spaces around them compared as byte strings at their places, no word list):
/// `<label>: send <n>b to <peer>[ tag <t>]`, `<label>: recv <n>b from <peer>[ tag <t>]`,
/// `<label>: calc <n>` or `<a> requires|irequires <b>`, single spaces, nothing after.
/// Any other line gives `None` and is read by the rest of [`quick_line`], whose result
/// (the same checks and bounds) this equals.
fn plain_line(raw: &str, p: u32, rank: u32) -> Option<Quick<'_>> {
    let b = raw.as_bytes();
    let word_end = |from: usize| {
        from + b[from..]
            .iter()
            .position(|&c| CLASS[usize::from(c)] != WORD)
            .unwrap_or(b.len() - from)
    };
    let first = word_end(0);
    if first == 0 || b.get(first) != Some(&b' ') {
        return None;
    }
    let at = first + 1;
    let Some(label) = raw[..first].strip_suffix(':').filter(|l| !l.is_empty()) else {
        // `<a> requires <b>` or `<a> irequires <b>`.
        let (kind, from) = if b.get(at..at + 9) == Some(b"requires ") {
            (DepKind::Requires, at + 9)
        } else if b.get(at..at + 10) == Some(b"irequires ") {
            (DepKind::Irequires, at + 10)
        } else {
            return None;
        };
        let end = word_end(from);
        return (end > from && end == b.len())
            .then(|| Quick::Dep(&raw[..first], &raw[from..], kind));
    };
    // The label's key from the line's first 16 bytes when it has them (one load, masked).
    let label_key = match b.first_chunk::<16>() {
        Some(head) => {
            let kept = label.len().min(KEY_BYTES);
            let len = u128::from(u8::try_from(label.len()).unwrap_or(u8::MAX));
            (u128::from_be_bytes(*head) & (u128::MAX << (8 * (16 - kept)))) | len
        }
        None => key(label),
    };
    let verb = b.get(at..at + 5)?;
    let (size, at) = number(b, at + 5)?;
    let size = u32::try_from(size).ok().filter(|&v| u64::from(v) <= MAX_TIME)?;
    if verb == b"calc " {
        return (at == b.len()).then_some(Quick::Op(
            label,
            label_key,
            Op { size, peer: 0, tag: 0, kind: OpKind::Calc, cpu: 0, nic: 0 },
        ));
    }
    let (kind, want): (_, &[u8]) = match verb {
        b"send " => (OpKind::Send, b"b to "),
        b"recv " => (OpKind::Recv, b"b from "),
        _ => return None,
    };
    if b.get(at..at + want.len())? != want {
        return None;
    }
    let (peer, at) = number(b, at + want.len())?;
    let peer = u32::try_from(peer).ok().filter(|&q| q < p && q != rank)?;
    let tag = if at == b.len() {
        0
    } else if b.get(at..at + 5)? == b" tag " {
        let (tag, at) = number(b, at + 5)?;
        if at != b.len() {
            return None;
        }
        u32::try_from(tag).ok().filter(|&t| t != ANY)?
    } else {
        return None;
    };
    Some(Quick::Op(label, label_key, Op { size, peer, tag, kind, cpu: 0, nic: 0 }))
}

/// The number of 1 to 18 decimal digits at `b[at..]` and the position after its digits.
fn number(b: &[u8], at: usize) -> Option<(u64, usize)> {
    let (mut v, mut i) = (0u64, at);
    while let Some(&c) = b.get(i).filter(|c| c.is_ascii_digit()) {
        if i - at == 18 {
            return None;
        }
        v = v * 10 + u64::from(c - b'0');
        i += 1;
    }
    (i > at).then_some((v, i))
}

/// [`CLASS`] of a byte of a word.
const WORD: u8 = 0;
/// [`CLASS`] of a byte that ends a word: the ASCII characters of Unicode's White_Space (tab,
/// line feed, vertical tab, form feed, carriage return, space).
const SPACE: u8 = 1;
/// [`CLASS`] of a byte [`quick_line`] leaves to the general path: `/`, NUL, non-ASCII.
const OTHER: u8 = 2;

/// The class of each byte for [`quick_line`] (one table look-up per byte).
const CLASS: [u8; 256] = {
    let mut t = [OTHER; 256];
    let mut c: u8 = 1;
    while c < 128 {
        t[c as usize] = match c {
            b'\t'..=b'\r' | b' ' => SPACE,
            b'/' => OTHER,
            _ => WORD,
        };
        c += 1;
    }
    t
};

/// A word of at most 8 bytes as one number (its bytes, zero-padded; 0 for a longer word).
const fn pack(word: &[u8]) -> u64 {
    if word.len() > 8 {
        return 0;
    }
    let mut k = [0u8; 8];
    let mut i = 0;
    while i < word.len() {
        k[i] = word[i];
        i += 1;
    }
    u64::from_le_bytes(k)
}

const CALC: u64 = pack(b"calc");
const SEND: u64 = pack(b"send");
const RECV: u64 = pack(b"recv");
const TAG: u64 = pack(b"tag");
const CPU: u64 = pack(b"cpu");
const NIC: u64 = pack(b"nic");

/// A number of 1 to 18 decimal digits.
fn digits(text: &[u8]) -> Option<u64> {
    if text.is_empty() || text.len() > 18 {
        return None;
    }
    text.iter().try_fold(0u64, |v, &c| c.is_ascii_digit().then(|| v * 10 + u64::from(c - b'0')))
}

/// Appends the tokens of `raw` outside comments (`// ...` to the end of the line,
/// `/* ... */` across lines, as LogGOPSim's `txt2bin` grammar); `in_comment` carries an open
/// `/*` from line to line.
fn tokenize<'a>(raw: &'a str, in_comment: &mut bool, tokens: &mut Vec<&'a str>) {
    if !*in_comment && !raw.contains('/') {
        split_words(raw, tokens);
        return;
    }
    let mut rest = raw;
    loop {
        if *in_comment {
            match rest.find("*/") {
                Some(i) => {
                    rest = &rest[i + 2..];
                    *in_comment = false;
                }
                None => return,
            }
        }
        let line_comment = rest.find("//");
        match rest.find("/*") {
            Some(b) if line_comment.is_none_or(|l| b < l) => {
                split_words(&rest[..b], tokens);
                rest = &rest[b + 2..];
                *in_comment = true;
            }
            _ => {
                split_words(&rest[..line_comment.unwrap_or(rest.len())], tokens);
                return;
            }
        }
    }
}

/// Appends the whitespace-separated words of `text` (as `split_whitespace`, with a faster
/// path for ASCII text).
fn split_words<'a>(text: &'a str, tokens: &mut Vec<&'a str>) {
    if !text.is_ascii() {
        tokens.extend(text.split_whitespace());
        return;
    }
    // The ASCII characters of Unicode's White_Space: tab, line feed, vertical tab, form feed,
    // carriage return, space.
    let space = |b: u8| matches!(b, b'\t'..=b'\r' | b' ');
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        while i < bytes.len() && space(bytes[i]) {
            i += 1;
        }
        let start = i;
        while i < bytes.len() && !space(bytes[i]) {
            i += 1;
        }
        if i > start {
            tokens.push(&text[start..i]);
        }
    }
}

fn parse_num<T: std::str::FromStr>(line: usize, token: &str, what: &str) -> Result<T, Error> {
    token.parse::<T>().map_err(|_| {
        syntax(line, format!("{what} must be a non-negative integer (got `{}`)", echo(token)))
    })
}

fn parse_num_ranks(line: usize, tokens: &[&str]) -> Result<u32, Error> {
    match tokens {
        ["num_ranks", n] => {
            let p: u32 = parse_num(line, n, "num_ranks")?;
            if p == 0 || p > MAX_RANKS {
                return Err(syntax(
                    line,
                    format!("num_ranks must satisfy 1 <= num_ranks <= {MAX_RANKS} (got {p})"),
                ));
            }
            Ok(p)
        }
        _ => Err(syntax(
            line,
            format!(
                "expected `num_ranks <P>` as the first line (got `{}`)",
                echo(&tokens.join(" "))
            ),
        )),
    }
}

impl Parser {
    fn new(p: u32, max_units: u64, seen: Vec<u32>) -> Self {
        Parser {
            p,
            max_units,
            ops: Vec::new(),
            line_off: Vec::new(),
            far: Vec::new(),
            deps: Vec::new(),
            blocks: Vec::new(),
            seen,
            headers: Vec::new(),
            names: String::new(),
            labels: Vec::new(),
            pending: Vec::new(),
            table: Vec::new(),
        }
    }

    /// Parses `text`, whole lines starting outside any block and comment, as [`Lines::line`]
    /// would, on its own buffers (lines counted from 1 at the piece's start, ranks not claimed
    /// but listed); returns them, with the piece's line count, and its first error.
    fn piece(p: u32, text: &[u8]) -> Piece {
        let mut st =
            Lines { parser: Some(Parser::new(p, u64::MAX, Vec::new())), ..Lines::default() };
        let err = st.text(text).err();
        (st, err)
    }

    /// Appends a piece parsed after `base` lines ([`Parser::piece`]): claims its ranks in file
    /// order, then returns its error (a line number `base` further), else takes its operations
    /// and blocks.
    fn merge(&mut self, base: usize, piece: Lines, err: Option<Error>) -> Result<(), Error> {
        let w = piece.parser.expect("a piece starts with its parser");
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
        let dshift = self.deps.len();
        // The caller checked that every line of the piece is below 2^32 (`line32`).
        let base32 = line32(base)?;
        self.ops.extend_from_slice(&w.ops);
        self.line_off.extend_from_slice(&w.line_off);
        self.far.extend(w.far.iter().map(|&(o, line)| (o + shift, line + base32)));
        self.deps.extend(w.deps.iter().map(|d| d.moved(0, shift)));
        self.blocks.extend(w.blocks.iter().map(|b| Block {
            rank: b.rank,
            line: b.line + base,
            op_start: b.op_start + shift,
            op_end: b.op_end + shift,
            dep_start: b.dep_start + dshift,
            dep_end: b.dep_end + dshift,
        }));
        Ok(())
    }

    fn rank_header(&mut self, line: usize, tokens: &[&str]) -> Result<Block, Error> {
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
        let d = self.deps.len();
        Ok(Block { rank, line, op_start: at, op_end: at, dep_start: d, dep_end: d })
    }

    /// Records rank `rank`'s block at `line`; rejects a second block.
    fn claim(&mut self, rank: u32, line: usize) -> Result<(), Error> {
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

    fn body_line(&mut self, line: usize, tokens: &[&str], block: &Block) -> Result<(), Error> {
        self.check_units(line)?;
        if let [a, word @ ("requires" | "irequires"), b] = tokens {
            let kind = if *word == "requires" { DepKind::Requires } else { DepKind::Irequires };
            self.push_dep(line, a, b, kind);
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

    /// Rejects one more operation or dependency line beyond the memory limit.
    fn check_units(&self, line: usize) -> Result<(), Error> {
        let units = (self.ops.len() + self.deps.len() + self.pending.len()) as u64 + 1;
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

    /// Records the dependency line `a requires b` (or `irequires`) of the open block.
    fn push_dep(&mut self, line: usize, a: &str, b: &str, kind: DepKind) {
        let (a, b) = (self.name(a, key(a)), self.name(b, key(b)));
        self.pending.push((line, a, b, kind));
    }

    /// Appends the operation `op` labelled `label` (whose [`key`] is `key`) at `line` to the
    /// open block.
    fn push_op(
        &mut self,
        line: usize,
        label: &str,
        key: u128,
        op: Op,
        block: &Block,
    ) -> Result<(), Error> {
        let id = self.next_op(line)?;
        let name = self.name(label, key);
        self.labels.push((name, id));
        self.ops.push(op);
        // The header's line fits in a u32 (checked), so a smaller offset gives a line that fits.
        match u8::try_from(line - block.line).ok().filter(|&off| off < FAR) {
            Some(off) => self.line_off.push(off),
            None => {
                self.line_off.push(FAR);
                self.far.push((id, line32(line)?));
            }
        }
        Ok(())
    }

    /// Closes a block: rejects duplicate labels, resolves its dependencies.
    /// The id of the next operation. Ids use the top bit as a flag (dependency kind,
    /// completion dependents), so a schedule holds fewer than 2^31 operations.
    fn next_op(&self, line: usize) -> Result<u32, Error> {
        op_id(self.ops.len(), line)
            .and_then(|id| if id < (1 << 31) - 1 { Ok(id) } else { Err(too_many_ops(line)) })
    }

    /// A label of the open block, whose [`key`] is `key` (its text stored when longer than
    /// [`KEY_BYTES`]).
    fn name(&mut self, label: &str, key: u128) -> Name {
        let start = self.names.len();
        if is_long(key) {
            self.names.push_str(label);
        }
        Name { key, start, end: self.names.len() }
    }

    fn close(&mut self, mut block: Block) -> Result<(), Error> {
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
                self.line_of(block.line, id),
                format!("label `{}` is defined twice in rank {r}", echo(&label_text(names, name))),
            ));
        }
        let table = &self.table;
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
            self.deps.push(Edge { op: op | bit, on });
        }
        self.names.clear();
        self.labels.clear();
        self.pending.clear();
        block.op_end = op_id(self.ops.len(), block.line)?;
        block.dep_end = self.deps.len();
        self.blocks.push(block);
        Ok(())
    }

    /// The line of the operation `op` (file order) of the block whose header is at `block_line`.
    fn line_of(&self, block_line: usize, op: u32) -> usize {
        match self.line_off[op as usize] {
            FAR => self.far[self.far.partition_point(|&(o, _)| o < op)].1 as usize,
            off => block_line + usize::from(off),
        }
    }

    /// Puts the blocks in rank order and validates the schedule.
    fn build(mut self) -> Result<Schedule, Error> {
        let p = self.p;
        let in_order = self.blocks.windows(2).all(|w| w[0].rank < w[1].rank);
        let (ops, line_off, far, deps) = if in_order {
            (self.ops, self.line_off, self.far, self.deps)
        } else {
            self.blocks.sort_unstable_by_key(|b| b.rank);
            let mut ops = Vec::with_capacity(self.ops.len());
            let mut line_off = Vec::with_capacity(self.ops.len());
            let mut far = Vec::with_capacity(self.far.len());
            let mut deps = Vec::with_capacity(self.deps.len());
            let mut base = 0u32;
            for b in &self.blocks {
                let (a, e) = (b.op_start as usize, b.op_end as usize);
                ops.extend_from_slice(&self.ops[a..e]);
                line_off.extend_from_slice(&self.line_off[a..e]);
                let shift = |i: u32| i - b.op_start + base;
                let first = self.far.partition_point(|&(o, _)| o < b.op_start);
                let end = self.far.partition_point(|&(o, _)| o < b.op_end);
                far.extend(self.far[first..end].iter().map(|&(o, line)| (shift(o), line)));
                deps.extend(
                    self.deps[b.dep_start..b.dep_end].iter().map(|d| d.moved(b.op_start, base)),
                );
                base += b.op_end - b.op_start;
            }
            (ops, line_off, far, deps)
        };
        let mut rank_start = Vec::with_capacity(p as usize + 1);
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
        let mut schedule = Schedule {
            num_ranks: p,
            rank_start,
            ops,
            block_line: self.seen,
            line_off,
            far,
            dep_start: Vec::new(),
            dep_list: Vec::new(),
        };
        // The send/recv counts are checked before the dependents are built (the check's
        // buffers, freed, leave room for them: at most the memory of the later run is held at
        // once), but a cycle is reported first.
        let counts = if schedule.ops.iter().any(|op| op.peer == ANY || op.tag == ANY) {
            Ok(())
        } else {
            check_message_counts(&schedule)
        };
        (schedule.dep_start, schedule.dep_list) = dependents(schedule.ops.len(), &deps);
        drop(deps);
        check_acyclic(&schedule)?;
        counts?;
        Ok(schedule)
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

/// A calc time or message size: a number up to [`MAX_TIME`] (so it is stored in 4 bytes).
fn parse_size(line: usize, token: &str, kind: OpKind, what: &str) -> Result<u32, Error> {
    let size: u64 = parse_num(line, token, what)?;
    if size > MAX_TIME {
        return Err(syntax(line, size_limit_message(kind, size)));
    }
    u32::try_from(size).map_err(|_| syntax(line, size_limit_message(kind, size)))
}

fn parse_op(line: usize, tokens: &[&str], p: u32, rank: u32) -> Result<Op, Error> {
    Ok(match tokens {
        ["calc", t, rest @ ..] => {
            let (_, cpu, _) = annotations(line, rest, false)?;
            let size = parse_size(line, t, OpKind::Calc, "calc time")?;
            Op { size, peer: 0, tag: 0, kind: OpKind::Calc, cpu, nic: 0 }
        }
        [verb @ ("send" | "recv"), bytes, dir, peer, rest @ ..] => {
            let (kind, want) =
                if *verb == "send" { (OpKind::Send, "to") } else { (OpKind::Recv, "from") };
            if *dir != want {
                return Err(syntax(
                    line,
                    format!("`{verb}` needs `{want} <rank>` (got `{}`)", echo(dir)),
                ));
            }
            let Some(n) = bytes.strip_suffix('b') else {
                return Err(syntax(
                    line,
                    format!("message size must be written `<n>b` (got `{}`)", echo(bytes)),
                ));
            };
            let size = parse_size(line, n, kind, "message size")?;
            let peer: u32 = if *peer == "-1" && kind == OpKind::Recv {
                ANY
            } else {
                let peer: u32 = parse_num(line, peer, "peer rank")?;
                if peer >= p {
                    return Err(syntax(
                        line,
                        format!("peer rank must be < num_ranks = {p} (got {peer})"),
                    ));
                }
                peer
            };
            if peer == rank {
                return Err(syntax(line, format!("rank {peer} cannot {verb} a message to itself")));
            }
            let (tag, cpu, nic) = annotations(line, rest, true)?;
            Op { size, peer, tag, kind, cpu, nic }
        }
        rest => {
            return Err(syntax(
                line,
                format!(
                    "expected `send <n>b to <dst> [tag <t>] [cpu <c>] [nic <k>]`, `recv <n>b from <src> [tag <t>] [cpu <c>] [nic <k>]` or `calc <time> [cpu <c>]` (got `{}`)",
                    echo(&rest.join(" "))
                ),
            ));
        }
    })
}

/// The optional `tag <t>` (`-1` = any), `cpu <c>` and `nic <k>` after an operation, in this
/// order (`txt2bin`'s grammar; a calc takes only `cpu`).
fn annotations(line: usize, mut rest: &[&str], message: bool) -> Result<(u32, u8, u8), Error> {
    let (mut tag, mut cpu, mut nic) = (0, 0, 0);
    let mut seen = 0;
    while let [word, value, tail @ ..] = rest {
        let order = match *word {
            "tag" if message => 1,
            "cpu" => 2,
            "nic" if message => 3,
            _ => break,
        };
        if order <= seen {
            break;
        }
        seen = order;
        match order {
            1 if *value == "-1" => tag = ANY,
            1 => {
                tag = parse_num(line, value, "tag")?;
                if tag == ANY {
                    return Err(syntax(line, "tag 4294967295 is reserved for `-1` (any tag)"));
                }
            }
            2 => cpu = parse_num(line, value, "cpu index (0..=255)")?,
            _ => nic = parse_num(line, value, "nic index (0..=255)")?,
        }
        rest = tail;
    }
    if !rest.is_empty() {
        let expected = if message {
            "optional `tag <t>`, `cpu <c>`, `nic <k>` in this order"
        } else {
            "optional `cpu <c>`"
        };
        return Err(syntax(line, format!("expected {expected} (got `{}`)", echo(&rest.join(" ")))));
    }
    Ok((tag, cpu, nic))
}

/// Kahn's algorithm over the dependency graph; a leftover operation lies on or behind a cycle.
/// Dependencies join operations of one rank (labels are resolved in their block), so one
/// rank is checked at a time, on buffers the size of the largest rank (not of the schedule:
/// they were the process's peak); the error names the first rank with a cycle and its first
/// leftover operation in line order.
fn check_acyclic(s: &Schedule) -> Result<(), Error> {
    let mut indegree: Vec<u32> = Vec::new();
    let mut stack: Vec<u32> = Vec::new();
    for (r, w) in (0u32..).zip(s.rank_start.windows(2)) {
        let (first, end) = (w[0], w[1]);
        let at = |op: u32| (op - first) as usize;
        indegree.clear();
        indegree.resize(at(end), 0);
        for op in first..end {
            for &w in s.dependents_of(op) {
                indegree[at(w & !IREQ_BIT)] += 1;
            }
        }
        stack.clear();
        stack.extend((first..end).filter(|&op| indegree[at(op)] == 0));
        let mut seen = 0;
        while let Some(v) = stack.pop() {
            seen += 1;
            for &w in s.dependents_of(v) {
                let w = w & !IREQ_BIT;
                indegree[at(w)] -= 1;
                if indegree[at(w)] == 0 {
                    stack.push(w);
                }
            }
        }
        if seen < at(end) {
            let op = (first..end).find(|&op| indegree[at(op)] > 0).unwrap_or(first);
            return Err(schedule_err(format!(
                "the dependencies of rank {r} form a cycle (through the operation at line {})",
                s.line(op)
            )));
        }
    }
    Ok(())
}

/// Marks an `irequires` edge in [`dependents`] lists.
pub(crate) const IREQ_BIT: u32 = 1 << 31;

/// The reverse dependency lists of `n` operations in CSR form: the dependents of `v` are
/// `list[start[v]..start[v + 1]]` in the order of `deps`, each with [`IREQ_BIT`] set for
/// `irequires` edges. Dependencies are counted with operations against the memory limit, so
/// fewer than 2^31 of them.
fn dependents(n: usize, deps: &[Edge]) -> (Vec<u32>, Vec<u32>) {
    // Counts at `on + 1` and prefix sums give the offsets; `start[on]` then serves as the
    // fill cursor of `on`'s list, which leaves it at the end of that list = the start of the
    // next, so shifting by one restores the offsets (no second array).
    let mut start = vec![0u32; n + 1];
    for d in deps {
        start[d.on as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut list = vec![0u32; deps.len()];
    for d in deps {
        let cursor = &mut start[d.on as usize];
        list[*cursor as usize] = d.op;
        *cursor += 1;
    }
    start.copy_within(0..n, 1);
    start[0] = 0;
    (start, list)
}

/// Every send has a recv and every recv a send: for each `(src, dst, tag)` the sends from
/// `src` to `dst` with tag `t` are as many as the recvs at `dst` from `src` with tag `t` (a
/// schedule without wildcards, where a mismatch surely leaves a message or a recv unmatched
/// at the end of a run). The error names the smallest `(src, dst, tag)` with a mismatch and
/// the first operation in line order left over in it.
pub fn check_message_counts(s: &Schedule) -> Result<(), Error> {
    // The recvs grouped by source as `(dst, tag)` (counting sort: 8 bytes per recv), each
    // group in rank and line order; then one source at a time, its sends and its recvs as
    // `(dst, tag)`, sorted: the k-th send and the k-th recv of a `(dst, tag)` sit at the same
    // position. The operations are read in order only; the one an error names is found again.
    let p = s.num_ranks as usize;
    let mut start = vec![0u32; p + 1];
    let mut n_recvs = 0;
    for op in &s.ops {
        if op.kind == OpKind::Recv {
            start[op.peer as usize + 1] += 1;
            n_recvs += 1;
        }
    }
    for i in 0..p {
        start[i + 1] += start[i];
    }
    let mut by_src: Vec<(u32, u32)> = vec![(0, 0); n_recvs];
    for (r, w) in (0u32..).zip(s.rank_start.windows(2)) {
        for op in &s.ops[w[0] as usize..w[1] as usize] {
            if op.kind == OpKind::Recv {
                let cursor = &mut start[op.peer as usize];
                by_src[*cursor as usize] = (r, op.tag);
                *cursor += 1;
            }
        }
    }
    // `start[src]` now ends the group of `src`, so the group is `end(src - 1)..start[src]`.
    let mut sends: Vec<(u32, u32)> = Vec::new();
    let mut from = 0;
    for (src, w) in (0u32..).zip(s.rank_start.windows(2)) {
        let to = start[src as usize] as usize;
        sends.clear();
        sends.extend(
            s.ops[w[0] as usize..w[1] as usize]
                .iter()
                .filter(|op| op.kind == OpKind::Send)
                .map(|op| (op.peer, op.tag)),
        );
        let recvs = &mut by_src[from..to];
        from = to;
        sends.sort_unstable();
        recvs.sort_unstable();
        // The `k`-th operation of `kind` with `(peer, tag)` at rank `rank`, in line order
        // (`k` = its position in the sorted list less that of the first with its key).
        let nth = |list: &[(u32, u32)], at: usize, rank: u32, kind: OpKind, peer: u32| {
            let key = list[at];
            let k = at - list.partition_point(|&x| x < key);
            let ops = s.rank_start[rank as usize]..s.rank_start[rank as usize + 1];
            let op = |i: u32| s.ops[i as usize];
            ops.filter(|&i| (op(i).kind, op(i).peer, op(i).tag) == (kind, peer, key.1))
                .nth(k)
                .map_or(0, |i| s.line(i))
        };
        let (mut a, mut b) = (0, 0);
        loop {
            match (sends.get(a), recvs.get(b)) {
                (Some(x), Some(y)) if x == y => {
                    a += 1;
                    b += 1;
                }
                (Some(x), y) if y.is_none_or(|y| x < y) => {
                    return Err(schedule_err(format!(
                        "send from rank {src} to rank {} tag {} at line {} has no matching recv",
                        x.0,
                        x.1,
                        nth(&sends, a, src, OpKind::Send, x.0)
                    )));
                }
                (_, Some(y)) => {
                    return Err(schedule_err(format!(
                        "recv at rank {} from rank {src} tag {} at line {} has no matching send",
                        y.0,
                        y.1,
                        nth(recvs, b, y.0, OpKind::Recv, src)
                    )));
                }
                (_, None) => break,
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::goal::{binomial_broadcast, dissemination};

    /// The parse of `text` with 1 thread (serial) and with 2, 3 and 8 (in pieces).
    fn all_threads(text: &[u8]) -> Vec<Result<Schedule, String>> {
        [1, 2, 3, 8]
            .iter()
            .map(|&t| parse_from(text, |e| syntax(0, e.to_string()), t).map_err(|e| e.to_string()))
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
        let state =
            |ps: &Parser| format!("{:?} {:?} {:?} {}", ps.ops, ps.labels, ps.pending, ps.names);
        let mut general = Parser::new(4, u64::MAX, vec![0; 4]);
        let (mut tokens, mut in_comment) = (Vec::new(), false);
        tokenize(line, &mut in_comment, &mut tokens);
        let slow = general.body_line(2, &tokens, &block).map(|()| state(&general));
        let mut quick = Parser::new(4, u64::MAX, vec![0; 4]);
        let fast = quick_line(line, 4, 1).map(|q| {
            match q {
                Quick::Dep(a, b, kind) => quick.push_dep(2, a, b, kind),
                Quick::Op(label, key, op) => {
                    quick.push_op(2, label, key, op, &block).expect("room")
                }
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
        let cases = [
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
                    assert!(e.contains(&format!("line {line}")), "{e} names line {line}")
                }
                (r, want) => panic!("{:?} where {want:?} was expected", r.as_ref().map(|_| ())),
            }
        }
    }
}
