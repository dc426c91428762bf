//! Property 1's budget of one pass on actors (Baude, Appendix; Choice 28 of
//! `docs/models/actor-pram.md`): the cadence of the lockstep rounds plus the hand-offs that
//! the rounds do not count.

/// The most actor time a pass of `rounds = R_fwd + R_rev` lockstep rounds may take
/// (Property 1 of the Appendix with the hand-offs the rounds do not count; Choice 28), with
/// at most `k` PPUs per router and at most `arrivals` packets arriving at one host:
///
/// `4R + 1 + (k + 1) + 3B + ceil(B / 7) + 2k + 2`, `B = floor(arrivals / 4) + 3`.
///
/// - `4R + 1`: the cadence (`cadence::cadence_probe`): a node fires a round once it has
///   handled at most 4 messages of the round before (2 Data, 2 Acks; a `Tick` of a stalled
///   node replaces them), so a round's firing is at most 4 deeper than its neighbours' last
///   one, and the last round's messages are absorbed one deeper.
/// - `k + 1`: an injection node fires round 0 at its last `Inject`, the `k`-th it handles
///   serially, each sent by its router's (unserialized) hash actor at depth 2 on a PPU's
///   `Issue` at depth 1: depth `k + 2` instead of a `Start`'s 1.
/// - `3B + ceil(B / 7)`: the exchange, which the lockstep router does between two rounds.
///   A host takes its (up to 3) nodes' arrivals in batches of at most 4, ping-pong
///   (`Arrivals`, `More`: 2 deeper per batch), `B` batches in all, at least one per node,
///   so `B <= floor(arrivals / 4) + 3`; it then sends the `B` reply batches 7 per event
///   (`Flush` to itself for the rest: `ceil(B / 7)` events), and a node handles its own
///   batches serially in order (at most `B` events) before its reverse round 0.
/// - `2k`: the reply `Tick`s of a level-0 node (Choice 23): a reverse firing sends at most
///   7 − 4 = 3 PPU replies of its outbox (2 when it also starts the next pass), a `Tick`
///   the rest; every extra `Tick` event either
///   sends at least one of the node's `k` replies or follows a `Tick` sent while one was
///   queued, so at most `2k` extra events (none for `k = 1`, whose reply goes in the firing).
/// - `2`: the PPU's `Reply` event after the last delivery, and one event for a message of
///   the closing pass absorbed after a node closed.
///
/// It was `4R + 1` before, the cadence alone, which a pass can exceed: the hot-spot read
/// with 64 PPUs on n = 4 without combining, 355 against `4R + 1 = 353` (R = 88).
pub fn pass_budget(rounds: u64, k: u64, arrivals: u64) -> u64 {
    let b = arrivals / 4 + 3;
    4 * rounds + 1 + (k + 1) + 3 * b + b.div_ceil(7) + 2 * k + 2
}
