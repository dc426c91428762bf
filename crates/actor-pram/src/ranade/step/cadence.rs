//! The appendix's cadence of a virtual node's rounds (Baude, appendix; Choice 22): which
//! Data and Acks a node waits for before it fires a forward or a reverse round.

/// The appendix's cadence for one pass at one node: round `T` fires once the Data of round
/// `T − 1` of every input not yet ended and the Ack of every output that carried a non-final
/// slot in round `T − 1` are there.
#[derive(Debug, Clone, Default)]
pub(super) struct Cadence {
    /// The next round to fire (`0`: not started).
    pub(super) next: u64,
    pub(super) started: bool,
    pub(super) in_final: Pair,
    pub(super) await_ack: Pair,
    pub(super) got_data: Pair,
    pub(super) got_ack: Pair,
}

/// Two flags, one per input or output, in one byte (bit `j` for port `j`), so that a
/// cadence takes 16 bytes in a node's hot record; shown as `[bool; 2]`.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Pair(pub(super) u8);

impl Pair {
    pub(super) fn both(v: bool) -> Self {
        Pair(if v { 0b11 } else { 0 })
    }
    pub(super) fn get(self, j: usize) -> bool {
        (self.0 >> j) & 1 == 1
    }
    pub(super) fn set(&mut self, j: usize, v: bool) {
        if v {
            self.0 |= 1 << j;
        } else {
            self.0 &= !(1 << j);
        }
    }
}

impl std::fmt::Debug for Pair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        [self.get(0), self.get(1)].fmt(f)
    }
}

impl Cadence {
    pub(super) fn new(no_inputs: bool) -> Self {
        Self { in_final: Pair::both(no_inputs), ..Self::default() }
    }
    /// Every input not ended has its Data, every awaited output its Ack.
    pub(super) fn ready(&self) -> bool {
        (self.in_final.0 | self.got_data.0) == 0b11 && (self.await_ack.0 & !self.got_ack.0) == 0
    }
    pub(super) fn takes_data(&self, round: u32) -> bool {
        self.started && u64::from(round) + 1 == self.next
    }
    pub(super) fn live_ack(&self, round: u32, output: u8) -> bool {
        self.started && u64::from(round) + 1 == self.next && self.await_ack.get(usize::from(output))
    }
    /// Starts round `next`: clears what the previous round awaited.
    pub(super) fn advance(&mut self) -> u64 {
        let round = self.next;
        self.next = round + 1;
        self.await_ack = Pair::default();
        self.got_data = Pair::default();
        self.got_ack = Pair::default();
        round
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    Forward,
    Exchange,
    Reverse,
    Done,
}
