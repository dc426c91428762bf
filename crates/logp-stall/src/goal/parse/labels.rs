//! The labels of a rank block: each as one number (its [`key`]) for hashing and comparing,
//! its text kept only when longer than [`KEY_BYTES`].

/// A label of the open block: its [`key`] and, for a label longer than [`KEY_BYTES`], its
/// text as `names[start..end]` of the [`Parser`](super::parser::Parser) (an empty range for
/// a shorter label, which its key holds whole).
#[derive(Debug, Clone, Copy)]
pub(super) struct Name {
    pub(super) key: u128,
    pub(super) start: usize,
    pub(super) end: usize,
}

/// Longest label that [`key`] holds whole.
pub(super) const KEY_BYTES: usize = 15;

/// A label as one number: its first [`KEY_BYTES`] bytes (zero-padded) and its length (255 for
/// 255 bytes or more). Labels are hashed and compared by it first; two labels of at most
/// [`KEY_BYTES`] bytes are equal exactly when their keys are, so their texts are compared only
/// for longer labels.
pub(super) fn key(label: &str) -> u128 {
    let mut k = [0u8; 16];
    for (to, &from) in k.iter_mut().zip(label.as_bytes().iter().take(KEY_BYTES)) {
        *to = from;
    }
    k[KEY_BYTES] = u8::try_from(label.len()).unwrap_or(u8::MAX);
    u128::from_be_bytes(k)
}

/// The [`key`] of the label `text[start..end]` (`start < end`), from the 16 bytes at `start`
/// when `text` has them (one load, masked to the label: the bytes after it are dropped).
pub(super) fn key_at(text: &str, start: usize, end: usize) -> u128 {
    match text.as_bytes()[start..].first_chunk::<16>() {
        Some(head) => {
            let label = end - start;
            let kept = label.min(KEY_BYTES);
            let len = u128::from(u8::try_from(label).unwrap_or(u8::MAX));
            (u128::from_be_bytes(*head) & (u128::MAX << (8 * (16 - kept)))) | len
        }
        None => key(&text[start..end]),
    }
}

/// Whether a label with key `key` is longer than [`KEY_BYTES`] (its text is kept in `names`).
pub(super) fn is_long(key: u128) -> bool {
    usize::from(key.to_be_bytes()[KEY_BYTES]) > KEY_BYTES
}

/// The slot of a label with key `key` in a hash table of `2^bits` slots (`bits` in `1..64`):
/// the top bits of the key's halves mixed and multiplied by an odd constant (Fibonacci
/// hashing).
pub(super) fn slot(key: u128, bits: u32) -> usize {
    let half = |k: u128| u64::try_from(k & u128::from(u64::MAX)).unwrap_or(0);
    let h = (half(key) ^ half(key >> 64).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    usize::try_from(h >> (64 - bits)).unwrap_or(0)
}

/// A label's text (for an error message): from `names` when long, from its key otherwise.
pub(super) fn label_text(names: &str, n: Name) -> std::borrow::Cow<'_, str> {
    if is_long(n.key) {
        std::borrow::Cow::Borrowed(&names[n.start..n.end])
    } else {
        let k = n.key.to_be_bytes();
        // A short label is whole in its key, and it was a `str`.
        String::from_utf8_lossy(&k[..usize::from(k[KEY_BYTES])]).into_owned().into()
    }
}
