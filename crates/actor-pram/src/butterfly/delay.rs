//! Theorem 3 of the Appendix executed (Choice 28 of `docs/models/actor-pram.md`): every pass
//! whose actor time reaches `(7d + δ) · 4` for some `δ >= 1` is slow; its forward pass's delay
//! walk (`crate::ranade::DelayWalk`) is checked against the theorem's path of length `8d` and
//! polarised sequence of `min(δ, b d)` messages.

use serde::{Deserialize, Serialize};

use crate::ranade::{Buffers, DelayKind, DelayMessage, DelayStep, DelayWalk, PassStats};

/// The most slow passes the report lists in full (`DelayReport::sequences`); the counts
/// cover them all.
pub const MAX_DELAY_SEQUENCES: usize = 64;

/// The largest dimension a run records its passes' forward rounds at (`delay_sequence`):
/// each open node's round keeps about 300 bytes, so a pass of `R` rounds may keep
/// up to `(3n − 1) 2^n R` of them (the hot spot without combining at `n = 7`: 577 MB
/// peak against 27 MB without; Choice 28).
pub const MAX_DELAY_DIM: u32 = 7;

/// The theorem's `d` on the wrapped butterfly of dimension `n`: its directed diameter
/// `2n − 1` (Choice 28).
pub fn diameter(n: u32) -> u64 {
    2 * u64::from(n) - 1
}

/// A pass's `δ`: `floor(A / 4) − 7d` for actor time `A` (the largest `δ` with
/// `A >= (7d + δ) · 4`), negative when the pass is not slow.
pub fn excess(actor_time: u64, d: u64) -> i64 {
    (actor_time / 4) as i64 - 7 * d as i64
}

/// The theorem's count `min(δ, b d)` (`δ` alone with unbounded buffers).
pub fn sequence_bound(delta: i64, b: Buffers, d: u64) -> u64 {
    let delta = delta.max(0) as u64;
    match b {
        Buffers::Slots(b) => delta.min(u64::from(b) * d),
        Buffers::Unbounded => delta,
    }
}

/// One slow pass and its delay sequence, with the theorem's checks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SlowPass {
    /// The pass (1-based, as in `network.passes`).
    pub pass: u64,
    /// Its actor time `A`.
    pub actor_time: u64,
    /// Its forward and reverse rounds (routing steps).
    pub rounds: [u64; 2],
    /// `δ = floor(A / 4) − 7d >= 1`.
    pub delta: i64,
    /// `min(δ, b d)`.
    pub bound: u64,
    /// Where the most delayed message exits (`[level, row]`) and the round.
    pub start: [u32; 2],
    /// Its exit round.
    pub exit_round: u64,
    /// The walk's steps, most recent first.
    pub steps: Vec<DelayStep>,
    /// How many steps of each kind: move, busy, merge, ghost, buffer.
    pub kinds: [u64; 5],
    /// The nodes the path visits, most recent first (`[level, row]`; a busy step stays).
    pub path: Vec<[u32; 2]>,
    /// The path's length in edges.
    pub path_len: u64,
    /// `path_len <= 8d`.
    pub within_8d: bool,
    /// The messages of the sequence, in the order the walk meets them.
    pub messages: Vec<DelayMessage>,
    /// Messages met within the path's first `8d` edges (all of them if it is shorter).
    pub messages_in_8d: u64,
    /// Keys never increase along the walk.
    pub polarised: bool,
    /// The walk reached round 0 (else where it stopped).
    pub stopped: Option<String>,
    /// `messages_in_8d >= min(δ, b d)`, polarised, and the walk complete.
    pub holds: bool,
}

/// The delay sequences of a run (`[butterfly] delay_sequence = true`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DelayReport {
    /// `d = 2n − 1`.
    pub d: u64,
    /// The slow threshold `(7d + 1) · 4`: a pass of at least this actor time is slow.
    pub slow_from: u64,
    /// Passes run on actors.
    pub passes: u64,
    /// Slow passes.
    pub slow: u64,
    /// Slow passes where the theorem's count holds.
    pub hold: u64,
    /// The least `messages_in_8d − min(δ, b d)` over the slow passes.
    pub least_margin: Option<i64>,
    /// The slow passes, the first [`MAX_DELAY_SEQUENCES`].
    pub sequences: Vec<SlowPass>,
}

/// The run's delay sequences in progress.
#[derive(Debug, Clone)]
pub(super) struct DelayLog {
    b: Buffers,
    report: DelayReport,
}

impl DelayLog {
    pub(super) fn new(n: u32, b: Buffers) -> DelayLog {
        let d = diameter(n);
        let report = DelayReport {
            d,
            slow_from: (7 * d + 1) * 4,
            passes: 0,
            slow: 0,
            hold: 0,
            least_margin: None,
            sequences: Vec::new(),
        };
        DelayLog { b, report }
    }

    /// Pass `pass` on actors took `actor_time`; its lockstep stats `s` carry the walk.
    pub(super) fn pass(&mut self, pass: u64, s: &PassStats, actor_time: u64) {
        let rep = &mut self.report;
        rep.passes += 1;
        let delta = excess(actor_time, rep.d);
        if delta < 1 {
            return;
        }
        rep.slow += 1;
        let slow =
            slow_pass(pass, s, actor_time, delta, sequence_bound(delta, self.b, rep.d), rep.d);
        let margin = slow.messages_in_8d as i64 - slow.bound as i64;
        rep.least_margin = Some(rep.least_margin.map_or(margin, |m| m.min(margin)));
        rep.hold += u64::from(slow.holds);
        if rep.sequences.len() < MAX_DELAY_SEQUENCES {
            rep.sequences.push(slow);
        }
    }

    pub(super) fn finish(self) -> DelayReport {
        self.report
    }
}

/// The slow pass's sequence and checks (an empty walk, when no packet exited, holds nothing).
pub(super) fn slow_pass(
    pass: u64,
    s: &PassStats,
    actor_time: u64,
    delta: i64,
    bound: u64,
    d: u64,
) -> SlowPass {
    let empty = DelayWalk {
        start: [0, 0],
        exit_round: 0,
        steps: Vec::new(),
        messages: Vec::new(),
        path_len: 0,
        messages_by_edge: vec![0],
        polarised: true,
        stopped: Some("no packet exited".into()),
    };
    let w = s.delay.as_ref().unwrap_or(&empty);
    let mut kinds = [0u64; 5];
    let mut path = vec![w.start];
    for step in &w.steps {
        kinds[match step.kind {
            DelayKind::Move => 0,
            DelayKind::Busy => 1,
            DelayKind::Merge => 2,
            DelayKind::Ghost => 3,
            DelayKind::Buffer => 4,
        }] += 1;
        if step.kind != DelayKind::Busy {
            path.push(step.node);
        }
    }
    let edges = usize::try_from((8 * d).min(w.path_len)).unwrap_or(usize::MAX);
    let messages_in_8d = w.messages_by_edge.get(edges).copied().unwrap_or(0);
    SlowPass {
        pass,
        actor_time,
        rounds: [s.r_fwd, s.r_rev],
        delta,
        bound,
        start: w.start,
        exit_round: w.exit_round,
        steps: w.steps.clone(),
        kinds,
        path,
        path_len: w.path_len,
        within_8d: w.path_len <= 8 * d,
        messages: w.messages.clone(),
        messages_in_8d,
        polarised: w.polarised,
        stopped: w.stopped.clone(),
        holds: messages_in_8d >= bound && w.polarised && w.stopped.is_none(),
    }
}

impl SlowPass {
    /// The pass in a few lines of text: the checks, the path and the messages.
    pub fn describe(&self, d: u64) -> String {
        let path: Vec<String> = self.path.iter().map(|[l, r]| format!("({l},{r})")).collect();
        let msgs: Vec<String> = self
            .messages
            .iter()
            .map(|m| format!("[rank {} dest {} addr {} tag {}]", m.rank, m.dest, m.addr, m.tag))
            .collect();
        let [mv, busy, merge, ghost, buffer] = self.kinds;
        format!(
            "pass {}: actor time {} >= (7d + {}) 4 (d = {d}), rounds {} + {}; most delayed \
             message exits at ({},{}) in round {}; {} steps: {mv} move, {busy} busy and {merge} \
             merge (m-delays), {ghost} ghost, {buffer} buffer (b-delays); path of {} edges \
             (8d = {}): {}; {} messages ({} within 8d edges) against min(delta, b d) = {}: {}; \
             polarised {}{}\n  messages: {}",
            self.pass,
            self.actor_time,
            self.delta,
            self.rounds[0],
            self.rounds[1],
            self.start[0],
            self.start[1],
            self.exit_round,
            self.steps.len(),
            self.path_len,
            8 * d,
            path.join(" "),
            self.messages.len(),
            self.messages_in_8d,
            self.bound,
            if self.holds { "holds" } else { "FAILS" },
            self.polarised,
            self.stopped.as_ref().map_or(String::new(), |s| format!(", walk stopped: {s}")),
            msgs.join(" "),
        )
    }
}
