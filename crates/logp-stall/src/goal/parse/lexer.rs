//! The GOAL lexer: the tokens of a line outside comments, the byte classes and the keywords
//! packed as integers that the one-pass line reader ([`super::quick`]) compares.

/// The number of 1 to 18 decimal digits at `b[at..]` and the position after its digits.
#[inline(always)]
pub(super) fn number(b: &[u8], at: usize) -> Option<(u64, usize)> {
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
pub(super) const WORD: u8 = 0;

/// [`CLASS`] of a byte that ends a word: the ASCII characters of Unicode's White_Space (tab,
/// line feed, vertical tab, form feed, carriage return, space).
pub(super) const SPACE: u8 = 1;

/// [`CLASS`] of a byte [`quick_line`](super::quick::quick_line) leaves to the general path:
/// `/`, NUL, non-ASCII.
pub(super) const OTHER: u8 = 2;

/// The class of each byte for [`quick_line`](super::quick::quick_line) (one table look-up
/// per byte).
pub(super) const CLASS: [u8; 256] = {
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
pub(super) const fn pack(word: &[u8]) -> u64 {
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

pub(super) const CALC: u64 = pack(b"calc");
pub(super) const SEND: u64 = pack(b"send");
pub(super) const RECV: u64 = pack(b"recv");
pub(super) const TAG: u64 = pack(b"tag");
pub(super) const CPU: u64 = pack(b"cpu");
pub(super) const NIC: u64 = pack(b"nic");

/// A number of 1 to 18 decimal digits.
pub(super) fn digits(text: &[u8]) -> Option<u64> {
    if text.is_empty() || text.len() > 18 {
        return None;
    }
    text.iter().try_fold(0u64, |v, &c| c.is_ascii_digit().then(|| v * 10 + u64::from(c - b'0')))
}

/// Appends the tokens of `raw` outside comments (`// ...` to the end of the line,
/// `/* ... */` across lines, as LogGOPSim's `txt2bin` grammar); `in_comment` carries an open
/// `/*` from line to line.
pub(super) fn tokenize<'a>(raw: &'a str, in_comment: &mut bool, tokens: &mut Vec<&'a str>) {
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
