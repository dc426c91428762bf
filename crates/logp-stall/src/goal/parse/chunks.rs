//! The GOAL text in chunks of whole lines, cut after a line `}` where possible, so that the
//! chunks after the `num_ranks` line can be parsed as pieces in parallel.

use crate::error::Error;

/// Bytes read from the GOAL text at a time (lines are parsed from this buffer, so the text
/// is never held whole; a longer line grows it).
pub(super) const CHUNK: usize = 1 << 18;

/// `\n}\n`: the end of a line `}` (a block's end, or an error outside a block).
const BLOCK_END: &[u8] = b"\n}\n";

/// The position just after the last [`BLOCK_END`] of `text`.
pub(super) fn last_block_end(text: &[u8]) -> Option<usize> {
    text.windows(BLOCK_END.len()).rposition(|w| w == BLOCK_END).map(|i| i + BLOCK_END.len())
}

/// Whole lines of the GOAL text, `buf[..len]`; `piece` when they end with a line `}` (so the
/// next chunk can be parsed on its own when this one ends outside any block).
pub(super) struct Chunk {
    pub(super) buf: Vec<u8>,
    pub(super) len: usize,
    pub(super) piece: bool,
}

impl Chunk {
    pub(super) fn text(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

/// The chunks of a reader: about [`CHUNK`] bytes, cut after the last line `}` (the lines after
/// it are carried to the next chunk), or after the last line end when there is none.
pub(super) struct Chunks<R, F> {
    pub(super) reader: R,
    pub(super) io_err: F,
    /// The bytes after the last chunk's end, read already.
    pub(super) carry: Vec<u8>,
    pub(super) eof: bool,
}

impl<R: std::io::Read, F: Fn(std::io::Error) -> Error> Chunks<R, F> {
    /// The next chunk, read into `buf` (a buffer reused from chunk to chunk); `None` at the end.
    pub(super) fn next(&mut self, mut buf: Vec<u8>) -> Result<Option<Chunk>, Error> {
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
