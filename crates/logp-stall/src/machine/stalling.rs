//! δ-stalling (paper §2.1, items 2 and 3): a violating submission at step `t` may be
//! signalled to stall at `t'` with `t < t' <= t + δ`; the processor is stalled on
//! `[t', t'')` where `t̄ < t'' <= t̄ + δ` and `t̄` is the latest arrival of the messages that
//! caused the stall during `[t, t')`.

use netcore::Step;
use netcore::limits::{OutOfMemory, vec_filled};

use super::answer::check_range;
use crate::adversary::{Adversary, SignalQuery, UnstallQuery};
use crate::error::Error;
use crate::trace::Episode;

/// An episode whose stall signal `t'` has been chosen but not yet reached.
#[derive(Debug, Clone, Copy)]
struct Pending {
    /// The triggering violating submission.
    msg: u64,
    /// The signal step `t'`.
    signal: Step,
    /// `t̄` so far: the latest arrival of the violating submissions since the trigger.
    t_bar: Step,
}

/// The stall episodes of every processor under the δ rule.
pub(super) struct Stalling {
    /// The stall lag δ.
    delta: u64,
    /// The pending episode per processor.
    pending: Vec<Option<Pending>>,
    /// Per processor: stalled on the steps before this one (the last unstall `t''`).
    stalled_until: Vec<Step>,
    /// Episodes whose unstall step has been chosen.
    episodes: Vec<Episode>,
}

impl Stalling {
    /// No episodes yet, for `p` processors ([`OutOfMemory`] when the system refuses the
    /// per-processor arrays).
    pub(super) fn new(p: usize, delta: u64) -> Result<Self, OutOfMemory> {
        Ok(Self {
            delta,
            pending: vec_filled("the stall episodes", p, None)?,
            stalled_until: vec_filled("the stall episodes", p, 0)?,
            episodes: Vec::new(),
        })
    }

    /// Whether some stall signal is still to come.
    pub(super) fn has_pending(&self) -> bool {
        self.pending.iter().any(Option::is_some)
    }

    /// Whether processor `i` is stalled at step `t`.
    pub(super) fn is_stalled(&self, i: usize, t: Step) -> bool {
        self.stalled_until[i] > t
    }

    /// Applies the stall signals effective at step `t`: asks `adv` for each unstall step
    /// `t''` in `(t̄, t̄ + δ]` and stalls the processor on `[t, t'')`.
    pub(super) fn signal(&mut self, t: Step, adv: &mut dyn Adversary) -> Result<(), Error> {
        for i in 0..self.pending.len() {
            if let Some(pe) = self.pending[i]
                && pe.signal == t
            {
                let q = UnstallQuery {
                    proc: i as u32,
                    msg: pe.msg,
                    signal: t,
                    lo: pe.t_bar + 1,
                    hi: pe.t_bar + self.delta,
                };
                let u = adv.unstall(&q)?;
                check_range("unstall", q.proc, t, u, q.lo, q.hi)?;
                self.episodes.push(Episode {
                    proc: q.proc,
                    trigger_msg: pe.msg,
                    signal: t,
                    unstall: u,
                });
                if u > t {
                    self.stalled_until[i] = u;
                }
                self.pending[i] = None;
            }
        }
        Ok(())
    }

    /// A violating submission `msg` of `proc` at step `t`, arriving at `tm`: extends `t̄` of
    /// the pending episode, or triggers one if `adv` signals a stall at `t'` in
    /// `(t, t + δ]`.
    pub(super) fn violation(
        &mut self,
        proc: u32,
        msg: u64,
        t: Step,
        tm: Step,
        adv: &mut dyn Adversary,
    ) -> Result<(), Error> {
        if let Some(pe) = self.pending[proc as usize].as_mut() {
            pe.t_bar = pe.t_bar.max(tm);
            return Ok(());
        }
        let q = SignalQuery { proc, msg, step: t, lo: t + 1, hi: t + self.delta };
        if let Some(signal) = adv.stall_signal(&q)? {
            check_range("signal", proc, t, signal, q.lo, q.hi)?;
            self.pending[proc as usize] = Some(Pending { msg, signal, t_bar: tm });
        }
        Ok(())
    }

    /// The episodes, by processor and signal step.
    pub(super) fn into_episodes(mut self) -> Vec<Episode> {
        self.episodes.sort_by_key(|e| (e.proc, e.signal));
        self.episodes
    }
}
