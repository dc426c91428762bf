//! Schedgen-style generators that write GOAL text: binomial broadcast, dissemination
//! (barrier/allreduce pattern) and linear all-to-all, as one string ([`Generator::goal_text`])
//! or a rank block at a time ([`Generator::reader`], for
//! [`parse_generated`](super::parse::parse_generated): the text of a large schedule is then
//! never held whole).

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::schedule::MAX_RANKS;
use crate::error::Error;

/// Largest `p` of [`linear_alltoall`] (it has `2 p (p - 1)` operations).
pub const MAX_ALLTOALL_RANKS: u32 = 1 << 13;

/// A generated schedule, by name (`generator = "binomial_broadcast"` in a config).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Generator {
    /// [`binomial_broadcast`].
    BinomialBroadcast,
    /// [`dissemination`].
    Dissemination,
    /// [`linear_alltoall`].
    LinearAlltoall,
}
netcore::display_config_name!(Generator);

impl Generator {
    /// The GOAL text of this generator's schedule on `p` ranks with messages of `bytes`.
    ///
    /// # Errors
    ///
    /// Those of the generator's function.
    pub fn goal_text(self, p: u32, bytes: u64) -> Result<String, Error> {
        Writer::new(self, p, bytes).map(|w| w.text())
    }

    /// The same text as [`Generator::goal_text`], written a few rank blocks at a time as it is
    /// read (about 64 KiB held at once).
    ///
    /// # Errors
    ///
    /// Those of the generator's function.
    pub fn reader(self, p: u32, bytes: u64) -> Result<GoalTextReader, Error> {
        let w = Writer::new(self, p, bytes)?;
        let mut buf = String::with_capacity(REFILL + 1024);
        w.header(&mut buf);
        Ok(GoalTextReader { w, next: 0, buf, pos: 0 })
    }
}

/// Bytes of rank blocks a [`GoalTextReader`] writes at a time (at least one block).
const REFILL: usize = 1 << 16;

/// A generator's GOAL text as a [`std::io::Read`] ([`Generator::reader`]).
pub struct GoalTextReader {
    w: Writer,
    /// The next rank whose block is to be written.
    next: u32,
    buf: String,
    /// Bytes of `buf` read already.
    pos: usize,
}

impl std::io::Read for GoalTextReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.pos == self.buf.len() {
            self.buf.clear();
            self.pos = 0;
            while self.next < self.w.p && self.buf.len() < REFILL {
                self.w.rank(self.next, &mut self.buf);
                self.next += 1;
            }
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf.as_bytes()[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// What a generator writes: its header, then one block per rank.
struct Writer {
    g: Generator,
    p: u32,
    bytes: u64,
    /// Linear all-to-all: the ranks' decimal texts, written once (`write!` per line spent
    /// more on formatting than the engine on running them), and the middles of its lines.
    num: Vec<String>,
    send: String,
    recv: String,
}

impl Writer {
    fn new(g: Generator, p: u32, bytes: u64) -> Result<Self, Error> {
        let (mut num, mut send, mut recv) = (Vec::new(), String::new(), String::new());
        match g {
            Generator::BinomialBroadcast | Generator::Dissemination => {
                check_p(p, MAX_RANKS, "2 <= p <= 2^24")?;
            }
            Generator::LinearAlltoall => {
                check_p(p, MAX_ALLTOALL_RANKS, "2 <= p <= 8192")?;
                num = (0..p).map(|v| v.to_string()).collect();
                send = format!(": send {bytes}b to ");
                recv = format!(": recv {bytes}b from ");
            }
        }
        Ok(Self { g, p, bytes, num, send, recv })
    }

    /// Rounds of dissemination.
    fn rounds(&self) -> u32 {
        32 - (self.p - 1).leading_zeros()
    }

    /// The whole text, reserved at once (growing the text of p = 1024, 64 MB, copied it).
    fn text(&self) -> String {
        let p = self.p as usize;
        let capacity = match self.g {
            Generator::BinomialBroadcast => p * 64,
            Generator::Dissemination => p * (16 + 64 * self.rounds() as usize),
            // At most `22 + 2 digits(p) + digits(bytes)` bytes per line, `2 (p - 1)` lines
            // per rank.
            Generator::LinearAlltoall => {
                let width = 22 + 2 * self.p.to_string().len() + self.bytes.to_string().len();
                64 + p * (16 + 2 * (p - 1) * width)
            }
        };
        let mut out = String::with_capacity(capacity);
        self.header(&mut out);
        for v in 0..self.p {
            self.rank(v, &mut out);
        }
        out
    }

    fn header(&self, out: &mut String) {
        let (p, bytes) = (self.p, self.bytes);
        let _ = match self.g {
            Generator::BinomialBroadcast => {
                writeln!(out, "// binomial broadcast, p = {p}, {bytes} bytes, root 0")
            }
            Generator::Dissemination => {
                let rounds = self.rounds();
                writeln!(out, "// dissemination, p = {p}, {bytes} bytes, {rounds} rounds")
            }
            Generator::LinearAlltoall => {
                writeln!(out, "// linear all-to-all, p = {p}, {bytes} bytes")
            }
        };
        let _ = writeln!(out, "num_ranks {p}");
    }

    /// The block of rank `v`.
    fn rank(&self, v: u32, out: &mut String) {
        let _ = writeln!(out, "rank {v} {{");
        match self.g {
            Generator::BinomialBroadcast => self.broadcast_rank(v, out),
            Generator::Dissemination => self.dissemination_rank(v, out),
            Generator::LinearAlltoall => self.alltoall_rank(v, out),
        }
        out.push_str("}\n");
    }

    fn broadcast_rank(&self, v: u32, out: &mut String) {
        let (p, bytes) = (self.p, self.bytes);
        let low = if v == 0 { p.next_power_of_two() } else { v & v.wrapping_neg() };
        if v > 0 {
            let _ = writeln!(out, "r: recv {bytes}b from {} tag 0", v - low);
        }
        let mut mask = low >> 1;
        let mut i = 0;
        while mask > 0 {
            if v + mask < p {
                let _ = writeln!(out, "s{i}: send {bytes}b to {} tag 0", v + mask);
                if v > 0 {
                    let _ = writeln!(out, "s{i} requires r");
                }
                i += 1;
            }
            mask >>= 1;
        }
    }

    fn dissemination_rank(&self, i: u32, out: &mut String) {
        let (p, bytes) = (self.p, self.bytes);
        for j in 0..self.rounds() {
            let d = 1u32 << j;
            let _ = writeln!(out, "s{j}: send {bytes}b to {} tag {j}", (i + d) % p);
            let _ = writeln!(out, "r{j}: recv {bytes}b from {} tag {j}", (i + p - d) % p);
            if j > 0 {
                let _ = writeln!(out, "s{j} requires r{}", j - 1);
            }
        }
    }

    fn alltoall_rank(&self, i: u32, out: &mut String) {
        let p = self.p;
        let line = |out: &mut String, label: char, n: u32, text: &str, peer: u32| {
            out.push(label);
            out.push_str(&self.num[n as usize]);
            out.push_str(text);
            out.push_str(&self.num[peer as usize]);
            out.push_str(" tag 0\n");
        };
        for n in 1..p {
            line(out, 's', n, &self.send, (i + n) % p);
        }
        for n in 1..p {
            line(out, 'r', n, &self.recv, (i + p - n) % p);
        }
    }
}

fn check_p(p: u32, max: u32, rule: &'static str) -> Result<(), Error> {
    if p < 2 || p > max {
        return Err(Error::GoalParam { field: "p", rule, value: p.to_string() });
    }
    Ok(())
}

/// Binomial-tree broadcast of `bytes` from rank 0 (MPICH order: the largest subtree first).
///
/// Rank `v > 0` receives from `v - 2^j` where `2^j` is its lowest set bit, then sends to
/// `v + 2^(j-1), v + 2^(j-2), ..., v + 1` (those `< p`), each send `requires` the recv. Rank 0
/// sends to `2^(k-1), ..., 1` with `k = ceil(log2 p)`.
pub fn binomial_broadcast(p: u32, bytes: u64) -> Result<String, Error> {
    Generator::BinomialBroadcast.goal_text(p, bytes)
}

/// Dissemination pattern (Hensgen, Finkel, Manber): in round `j = 0..ceil(log2 p)` rank `i`
/// sends to `(i + 2^j) mod p` and receives from `(i - 2^j) mod p`, tag `j`; the round-`j` send
/// `requires` the round-`(j-1)` recv.
pub fn dissemination(p: u32, bytes: u64) -> Result<String, Error> {
    Generator::Dissemination.goal_text(p, bytes)
}

/// Linear all-to-all: rank `i` sends to `i+1, i+2, ..., i+p-1` (mod p), then receives from
/// `i-1, i-2, ..., i-p+1` (mod p), no dependencies (all operations are posted at time 0).
pub fn linear_alltoall(p: u32, bytes: u64) -> Result<String, Error> {
    Generator::LinearAlltoall.goal_text(p, bytes)
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::Generator;

    /// The reader gives the text of `goal_text`, byte for byte, read in pieces of any size.
    #[test]
    fn reader_gives_the_text() {
        for g in [Generator::BinomialBroadcast, Generator::Dissemination, Generator::LinearAlltoall]
        {
            for p in [2, 3, 8, 100, 301] {
                let text = g.goal_text(p, 5).unwrap();
                for piece in [1, 7, 4096, 1 << 20] {
                    let mut r = g.reader(p, 5).unwrap();
                    let (mut got, mut buf) = (Vec::new(), vec![0; piece]);
                    loop {
                        let n = r.read(&mut buf).unwrap();
                        if n == 0 {
                            break;
                        }
                        got.extend_from_slice(&buf[..n]);
                    }
                    assert_eq!(got, text.as_bytes(), "{g} p = {p} piece {piece}");
                }
            }
        }
    }

    /// The schedule parsed from the reader is the one parsed from the text (2.3 MB for the
    /// all-to-all at p = 200: several chunks, parsed in parallel with 2 or more cores).
    #[test]
    fn parse_generated_gives_the_parsed_schedule() {
        for (g, p) in [
            (Generator::BinomialBroadcast, 30_000),
            (Generator::Dissemination, 3000),
            (Generator::LinearAlltoall, 200),
            (Generator::LinearAlltoall, 7),
        ] {
            let text = g.goal_text(p, 8).unwrap();
            let want = crate::goal::parse(&text).unwrap();
            assert_eq!(crate::goal::parse_generated(g, p, 8).unwrap(), want, "{g} p = {p}");
        }
        assert_eq!(
            crate::goal::parse_generated(Generator::LinearAlltoall, 1, 8).unwrap_err().to_string(),
            crate::goal::linear_alltoall(1, 8).unwrap_err().to_string()
        );
    }
}
