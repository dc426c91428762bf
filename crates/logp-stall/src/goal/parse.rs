//! The GOAL text parser and schedule validation (static message matching, acyclic
//! dependencies): the text is read in chunks (`chunks`), line by line (`lines`), each line
//! split by the `lexer` (or read in one pass by `quick`) and read by its `syntax`; the
//! `parser` keeps the operations and resolves each block's `labels`, then `validate`s the
//! schedule.
#![warn(clippy::cast_possible_truncation)]

mod chunks;
mod edges;
mod errors;
mod labels;
mod lexer;
mod lines;
mod parser;
mod quick;
mod shapes;
mod syntax;
mod validate;

#[cfg(test)]
mod tests;

pub use errors::ECHO_MAX;
pub use validate::check_message_counts;

use chunks::{Chunk, Chunks};
use errors::syntax;
use lines::Lines;

use crate::error::Error;
use crate::goal::generate::Generator;
use crate::goal::schedule::Schedule;

/// Parses GOAL text into a validated [`Schedule`].
///
/// Checks: syntax (with the 1-based line number), `num_ranks` in `1..=2^24`, rank ids and
/// peers `< num_ranks`, no duplicate rank block or label, no send/recv to oneself, every
/// dependency names labels of its block, the dependencies of every rank are acyclic, and,
/// without wildcards, as many sends as recvs for each `(src, dst, tag)` (a tally of a hash of
/// each message, then [`check_message_counts`] when it shows a mismatch; unequal counts pass
/// only by a collision of about 2^-61, and the run then reports what is left over; messages
/// are matched dynamically when the schedule runs).
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
    parse_from(text.as_bytes(), text.len(), |e| syntax(0, e.to_string()), threads())
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
    netcore::input::check_file(path, "GOAL file", MAX_GOAL_BYTES).map_err(|e| {
        Error::GoalParam {
            field: "file",
            rule: "a regular, readable GOAL file, relative to the config file",
            value: e.to_string(),
        }
    })?;
    let file = std::fs::File::open(path).map_err(io_err)?;
    // The length only sizes the parser's buffers (a file that changes is still read whole).
    let len = file.metadata().map_or(0, |m| usize::try_from(m.len()).unwrap_or(usize::MAX));
    parse_from(file, len, io_err, threads())
}

/// Parses the schedule of generator `g` on `p` ranks with messages of `bytes` as [`parse()`]
/// parses its text ([`Generator::goal_text`]), the text written a few rank blocks at a time
/// as the parse reads it ([`Generator::reader`]): the same schedule, without holding the text
/// whole (64 MB for a linear all-to-all at p = 1024).
///
/// # Errors
///
/// Those of the generator and of [`parse()`].
pub fn parse_generated(g: Generator, p: u32, bytes: u64) -> Result<Schedule, Error> {
    // Writing into a buffer cannot fail.
    parse_from(g.reader(p, bytes)?, 0, |e| syntax(0, e.to_string()), threads())
}

/// The largest GOAL file read (16 GiB; the text is streamed, the schedule's own limits bound
/// what it may hold).
pub const MAX_GOAL_BYTES: u64 = 16 << 30;

/// Most threads a parse uses.
const MAX_THREADS: usize = 8;

/// The threads a parse uses: the cores available to the process, at most [`MAX_THREADS`].
fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))
}

/// Parses GOAL text of about `len` bytes (0 if unknown; it sizes the parser's buffers,
/// [`Parser::new`](parser::Parser::new)) from `reader` in chunks of whole lines
/// ([`Chunks`]): serially with one thread; with more, the chunks after the `num_ranks` line
/// are parsed as pieces by `threads` threads while this thread reads the next chunks and
/// merges the parsed ones in file order ([`Lines::pipeline`]; the result, errors included,
/// does not depend on `threads`).
fn parse_from<R: std::io::Read>(
    reader: R,
    len: usize,
    io_err: impl Fn(std::io::Error) -> Error,
    threads: usize,
) -> Result<Schedule, Error> {
    let mut st = Lines { len, ..Lines::default() };
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
                    let piece = Lines::piece(p, chunk.text());
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
