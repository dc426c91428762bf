//! Replay hashes (`docs/models/hpram.md`, Choices: Replay hash): each sub-PRAM hashes a canonical
//! little-endian `u64` stream with FNV-1a-64 (release-stable, unlike `DefaultHasher`): on entry its
//! level, processor offset, processors, home block and name; per step its kind, then `(pid, opcode,
//! addr, value)` in
//! pid order; per partition `Q`, the sizes and the children's hashes in index order (a Merkle
//! tree); on exit a marker. The root also hashes the final memory. The hash therefore does not
//! depend on the schedule or the thread count.

/// FNV-1a-64 over little-endian `u64` words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fnv64(u64);

impl Default for Fnv64 {
    fn default() -> Self {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv64 {
    /// Feeds one word.
    pub fn word(&mut self, x: u64) {
        for byte in x.to_le_bytes() {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// Feeds a string's bytes, as the FNV-1a hash of the string.
    pub fn name(&mut self, s: &str) {
        let mut h = Fnv64::default();
        for byte in s.bytes() {
            h.0 = (h.0 ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        self.word(h.0);
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// Stream markers.
pub(crate) const ENTER: u64 = 0x0045_4e54_4552;
pub(crate) const EXIT: u64 = 0x4558_4954;
pub(crate) const COMPUTE: u64 = 1;
pub(crate) const COMM: u64 = 2;
pub(crate) const PARTITION: u64 = 3;
pub(crate) const SCAN: u64 = 4;
pub(crate) const ANY: u64 = 5;
pub(crate) const MULTIPREFIX: u64 = 6;
/// Opcodes of the per-access tuples.
pub(crate) const OP_READ: u64 = 1;
pub(crate) const OP_WRITE: u64 = 2;
pub(crate) const OP_FETCH: u64 = 3;
