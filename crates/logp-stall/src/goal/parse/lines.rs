//! The line-by-line state of a parse ([`Lines`]): serially, or merging the pieces parsed in
//! parallel in file order.
#![warn(clippy::cast_possible_truncation)]

use super::chunks::{Chunk, Chunks};
use super::errors::{not_utf8, syntax};
use super::lexer::tokenize;
use super::parser::{Block, Parser};
use super::quick::{Quick, plain_at, quick_line};
use super::syntax::parse_num_ranks;
use crate::error::Error;
use crate::goal::schedule::Schedule;
use crate::limits;

/// The line-by-line state of a parse.
#[derive(Default)]
pub(super) struct Lines {
    pub(super) parser: Option<Parser>,
    pub(super) open: Option<Block>,
    pub(super) in_comment: bool,
    pub(super) last_line: usize,
    /// Bytes of the whole text, if known (else 0), for [`Parser::new`].
    pub(super) len: usize,
}

/// A parsed piece: its parse state and its first error ([`Lines::piece`]).
pub(super) type Piece = (Lines, Option<Error>);

impl Lines {
    /// Parses `text`, whole lines starting outside any block and comment, as [`Lines::line`]
    /// would, on its own buffers (lines counted from 1 at the piece's start, ranks not claimed
    /// but listed); returns them, with the piece's line count, and its first error.
    pub(super) fn piece(p: u32, text: &[u8]) -> Piece {
        let mut st = Lines { parser: Some(Parser::piece(p)), ..Lines::default() };
        let err = st.text(text).err();
        (st, err)
    }

    /// Reads the chunks of `chunks`, sends those that end with a line `}` to the parse threads
    /// (`jobs`, each numbered in file order; at most `limit` chunks are read and not merged),
    /// and merges their results (`done`) in file order ([`Lines::merge_or_parse`]); the other
    /// chunks are parsed here in their turn. A read error is returned after the chunks before
    /// it are merged (and their first error, if any, instead).
    pub(super) fn pipeline<R: std::io::Read, F: Fn(std::io::Error) -> Error>(
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
    /// 2^31 operations, 2^32 lines: a piece does not check the estimate, and its errors for
    /// the other two are kept only when this check holds, where they cannot arise); parses
    /// `text` here otherwise.
    pub(super) fn merge_or_parse(
        &mut self,
        text: &[u8],
        piece: Option<Piece>,
    ) -> Result<(), Error> {
        let outside = |st: &Lines| st.open.is_none() && !st.in_comment;
        if let (Some((piece, err)), true, Some(ps)) = (piece, outside(self), self.parser.as_mut()) {
            // At most `text.len()` lines, and as many operations, dependencies and shapes
            // (an operation line is at least 10 bytes and adds at most one shape).
            let units = (ps.ops.len() + ps.dep_list.len() + ps.shapes.len() + text.len()) as u64;
            let fits = units < ps.max_units.min((1 << 31) - 1)
                && ((self.last_line + text.len()) as u64) < u64::from(u32::MAX);
            if fits && (err.is_some() || outside(&piece)) {
                let base = self.last_line;
                let lines = piece.last_line;
                ps.merge(base, piece.parser.expect("a piece starts with its parser"), err)?;
                self.last_line = base + lines;
                return Ok(());
            }
        }
        self.text(text)
    }

    /// Parses the whole lines `bytes`, checked as UTF-8: on a byte that is not, the lines
    /// before its line are parsed, then its line is the error.
    pub(super) fn text(&mut self, bytes: &[u8]) -> Result<(), Error> {
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

    /// Parses the whole lines `text`: a line in a block in the generators' form read
    /// straight through ([`plain_at`], which finds its end as it reads), any other found
    /// by its `\n` and read by [`Lines::line`].
    pub(super) fn lines(&mut self, text: &str) -> Result<(), Error> {
        let mut tokens: Vec<&str> = Vec::with_capacity(8);
        let mut at = 0;
        // The lines of `str::lines`, but without its `\r` stripping: a `\r` is whitespace
        // to the tokenizer (and no plain line holds one).
        while at < text.len() {
            if let (false, Some(ps), Some(block)) =
                (self.in_comment, self.parser.as_mut(), self.open)
                && let Some((q, end)) = plain_at(text, at, ps.p, block.rank)
            {
                self.last_line += 1;
                quick(ps, &mut self.open, self.last_line, q, block)?;
                at = end + 1;
                continue;
            }
            let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
            tokens.clear();
            self.line(&text[at..end], &mut tokens)?;
            at = end + 1;
        }
        Ok(())
    }

    /// Parses the next line, `raw`; `tokens` is an empty buffer for its tokens.
    pub(super) fn line<'a>(
        &mut self,
        raw: &'a str,
        tokens: &mut Vec<&'a str>,
    ) -> Result<(), Error> {
        self.last_line += 1;
        let line = self.last_line;
        if let (false, Some(ps), Some(block)) = (self.in_comment, self.parser.as_mut(), self.open)
            && let Some(q) = quick_line(raw, ps.p, block.rank)
        {
            return quick(ps, &mut self.open, line, q, block);
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
            self.parser = Some(Parser::new(p, max_units, self.len)?);
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

    pub(super) fn finish(self) -> Result<Schedule, Error> {
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

/// Appends the body line `line` of the open `block` (`open`) that [`plain_at`] or
/// [`quick_line`] read.
#[inline(always)]
fn quick(
    ps: &mut Parser,
    open: &mut Option<Block>,
    line: usize,
    q: Quick<'_>,
    block: Block,
) -> Result<(), Error> {
    match q {
        Quick::End => {
            *open = None;
            ps.close(block)
        }
        Quick::Dep(labels, kind) => {
            ps.check_units(line)?;
            ps.push_dep(line, labels, kind);
            Ok(())
        }
        Quick::Op(label, key, op) => {
            ps.check_units(line)?;
            ps.push_op(line, label, key, op, &block)
        }
    }
}
