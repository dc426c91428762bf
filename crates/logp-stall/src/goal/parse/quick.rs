//! The one-pass line reader: a plain line inside a block read straight from its bytes, with
//! the result the general path ([`super::lexer::tokenize`], [`super::parser::Parser`]) gives.

use super::labels::{key, key_at};
use super::lexer::{CALC, CLASS, CPU, NIC, RECV, SEND, SPACE, TAG, WORD, digits, number, pack};
use crate::goal::schedule::{ANY, DepKind, MAX_TIME, Op, OpKind};

/// A body line recognised by [`quick_line`] or [`plain_at`].
pub(super) enum Quick<'a> {
    /// `}`.
    End,
    /// `<a> requires <b>` or `<a> irequires <b>`, each label with its [`key`].
    Dep([(&'a str, u128); 2], DepKind),
    /// `<label>: <operation>`, with the label's [`key`].
    Op(&'a str, u128, Op),
}

/// Most words of a body line: `l: send 8b to 1 tag 0 cpu 0 nic 0`.
const MAX_WORDS: usize = 11;

/// A line inside a block read in one pass over its bytes (words kept as ranges on the stack,
/// keywords compared as packed integers (so a NUL byte is left to the general path),
/// numbers read from the digits), when it is plain: ASCII without `/`, and an operation whose
/// numbers are decimal digits within their bounds (no wildcard). Anything else, errors
/// included, gives `None` and is read by [`tokenize`](super::lexer::tokenize) and
/// [`Parser::body_line`](super::parser::Parser::body_line), whose results these equal.
pub(super) fn quick_line(raw: &str, p: u32, rank: u32) -> Option<Quick<'_>> {
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
        return Some(Quick::Dep([(s(0), key(s(0))), (s(2), key(s(2)))], kind));
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

/// A line in the form that generators write, read straight through (no word list; the
/// keywords with the spaces around them compared as byte strings at their places):
/// `<label>: send <n>b to <peer>[ tag <t>]`, `<label>: recv <n>b from <peer>[ tag <t>]`,
/// `<label>: calc <n>`, `<a> requires|irequires <b>` or `}`, single spaces, nothing after.
/// Any other line gives `None` and is read by the rest of [`quick_line`], whose result
/// (the same checks and bounds) this equals.
pub(super) fn plain_line(raw: &str, p: u32, rank: u32) -> Option<Quick<'_>> {
    plain_at(raw, 0, p, rank).map(|(q, _)| q)
}

/// [`plain_line`] of the line of `text` that starts at `start`, found as it is read (no
/// search for its end first): the line and its result, with the index of its end (its `\n`,
/// or the end of `text`).
#[inline(always)]
pub(super) fn plain_at(text: &str, start: usize, p: u32, rank: u32) -> Option<(Quick<'_>, usize)> {
    let b = text.as_bytes();
    let word_end = |from: usize| {
        from + b[from..]
            .iter()
            .position(|&c| CLASS[usize::from(c)] != WORD)
            .unwrap_or(b.len() - from)
    };
    // Whether the line ends at `at`.
    let ends = |at: usize| b.get(at).is_none_or(|&c| c == b'\n');
    if b.get(start) == Some(&b'}') && ends(start + 1) {
        return Some((Quick::End, start + 1));
    }
    let first = word_end(start);
    if first == start || b.get(first) != Some(&b' ') {
        return None;
    }
    let at = first + 1;
    let Some(label) = text[start..first].strip_suffix(':').filter(|l| !l.is_empty()) else {
        // `<a> requires <b>` or `<a> irequires <b>`.
        let (kind, from) = if b.get(at..at + 9) == Some(b"requires ") {
            (DepKind::Requires, at + 9)
        } else if b.get(at..at + 10) == Some(b"irequires ") {
            (DepKind::Irequires, at + 10)
        } else {
            return None;
        };
        let end = word_end(from);
        if end == from || !ends(end) {
            return None;
        }
        // Built in place, not by `array::map` (whose result a later load read through the
        // stack).
        let labels = [
            (&text[start..first], key_at(text, start, first)),
            (&text[from..end], key_at(text, from, end)),
        ];
        return Some((Quick::Dep(labels, kind), end));
    };
    let label_key = key_at(text, start, first - 1);
    let verb = b.get(at..at + 5)?;
    let (size, at) = number(b, at + 5)?;
    let size = u32::try_from(size).ok().filter(|&v| u64::from(v) <= MAX_TIME)?;
    if verb == b"calc " {
        return ends(at).then_some((
            Quick::Op(
                label,
                label_key,
                Op { size, peer: 0, tag: 0, kind: OpKind::Calc, cpu: 0, nic: 0 },
            ),
            at,
        ));
    }
    // The words after the size compared as byte arrays of a fixed length (a slice of
    // either length would call `memcmp`).
    let (kind, at) = match verb {
        b"send " if b.get(at..at + 5) == Some(b"b to ") => (OpKind::Send, at + 5),
        b"recv " if b.get(at..at + 7) == Some(b"b from ") => (OpKind::Recv, at + 7),
        _ => return None,
    };
    let (peer, at) = number(b, at)?;
    let peer = u32::try_from(peer).ok().filter(|&q| q < p && q != rank)?;
    let (tag, end) = if ends(at) {
        (0, at)
    } else if b.get(at..at + 5)? == b" tag " {
        let (tag, at) = number(b, at + 5)?;
        if !ends(at) {
            return None;
        }
        (u32::try_from(tag).ok().filter(|&t| t != ANY)?, at)
    } else {
        return None;
    };
    Some((Quick::Op(label, label_key, Op { size, peer, tag, kind, cpu: 0, nic: 0 }), end))
}
