//! The processors (paper §2): each step an operational processor performs one operation of
//! its program (compute, submit, receive, or idle), keeping the gap rule between its
//! communication operations; a stalled one performs none.

use netcore::Step;
use netcore::limits::{OutOfMemory, collect_exact, vec_filled};

use super::network::Network;
use crate::error::Error;
use crate::params::{EmptyReceive, GapPolicy, MachineConfig, OverheadMode};
use crate::trace::{Op, OpRun, push_op};
use crate::{Action, LogpProcess};

/// The programs and their per-processor state.
pub(super) struct Processors<P: LogpProcess> {
    /// One program per processor.
    pub(super) procs: Vec<P>,
    /// Whether each program has halted.
    pub(super) halted: Vec<bool>,
    /// Step of each processor's last action.
    pub(super) last_action: Vec<Option<Step>>,
    /// Step of each processor's last communication operation (for the gap rule).
    last_comm: Vec<Option<Step>>,
    /// An action held back by `GapPolicy::AutoDelay` until the gap rule allows it.
    held: Vec<Option<Action<P::Payload>>>,
    /// Run-length op log per processor.
    pub(super) logs: Vec<Vec<OpRun>>,
    /// Runs in all op logs (the trace's size, with the messages).
    pub(super) runs: u64,
    /// Actions executed per processor (ρ).
    pub(super) rho: Vec<u64>,
    /// Per processor: busy with the overhead of its last communication op before this step.
    busy_until: Vec<Step>,
    /// Steps a communication op occupies: `max(1, o)` with `OverheadMode::Busy`, else 1.
    busy_len: u64,
    /// Idle steps forced by `GapPolicy::AutoDelay`.
    pub(super) gap_wait_steps: u64,
    /// The gap G.
    gap: u64,
    /// What a gap violation does.
    gap_policy: GapPolicy,
    /// What a receive on an empty buffer does.
    empty_receive: EmptyReceive,
}

impl<P: LogpProcess> Processors<P> {
    /// The programs `procs` at step 0 under `cfg`; the per-processor arrays are allocated
    /// fallibly ([`OutOfMemory`] when the system refuses them).
    pub(super) fn new(cfg: &MachineConfig, procs: Vec<P>) -> Result<Self, OutOfMemory> {
        let p = procs.len();
        let busy_len = if cfg.overhead == OverheadMode::Busy { cfg.params.o().max(1) } else { 1 };
        Ok(Self {
            halted: collect_exact(
                "the processors' states",
                p,
                procs.iter().map(|q| q.is_halted()),
            )?,
            procs,
            last_action: vec_filled("the processors' states", p, None)?,
            last_comm: vec_filled("the processors' states", p, None)?,
            held: collect_exact("the processors' states", p, (0..p).map(|_| None))?,
            logs: vec_filled("the op logs", p, Vec::new())?,
            runs: 0,
            rho: vec_filled("the processors' states", p, 0)?,
            busy_until: vec_filled("the processors' states", p, 0)?,
            busy_len,
            gap_wait_steps: 0,
            gap: cfg.params.gap(),
            gap_policy: cfg.gap_policy,
            empty_receive: cfg.empty_receive,
        })
    }

    /// Whether a program is still running or some overhead is still elapsing at step `t`.
    pub(super) fn is_live(&self, t: Step) -> bool {
        self.halted.iter().any(|h| !h) || self.busy_until.iter().any(|&b| b > t)
    }

    /// Whether running processor `i` only awaits a message at step `t`: no overhead elapsing,
    /// no action held back, and its program [awaits one](LogpProcess::awaits_message).
    pub(super) fn awaits_message(&self, i: usize, t: Step) -> bool {
        self.busy_until[i] <= t && self.held[i].is_none() && self.procs[i].awaits_message()
    }

    /// Halted processor `i` at step `t`: it halted on a communication op and finishes that
    /// op's overhead.
    #[inline]
    pub(super) fn finish_overhead(&mut self, i: usize, t: Step) {
        if self.busy_until[i] > t {
            self.runs += push_op(&mut self.logs[i], t, Op::Busy);
            self.last_action[i] = Some(t);
        }
    }

    /// Running processor `i` at step `t`: stalls if `stalled`, is busy with overhead, or
    /// performs its program's next operation; a submission's id is pushed onto `subs`.
    #[inline]
    pub(super) fn act(
        &mut self,
        i: usize,
        t: Step,
        stalled: bool,
        net: &mut Network<P::Payload>,
        subs: &mut Vec<u64>,
    ) -> Result<(), Error> {
        if stalled {
            self.runs += push_op(&mut self.logs[i], t, Op::Stalled);
            return Ok(());
        }
        if self.busy_until[i] > t {
            self.runs += push_op(&mut self.logs[i], t, Op::Busy);
            return Ok(());
        }
        let action = match self.held[i].take() {
            Some(a) => a,
            None => self.procs[i].next(t),
        };
        let comm = matches!(action, Action::Submit { .. } | Action::Receive);
        let Some(action) = (if comm { self.gap_rule(i, t, action)? } else { Some(action) }) else {
            return Ok(());
        };
        let op = self.perform(i, t, action, net, subs)?;
        if comm {
            self.last_comm[i] = Some(t);
            self.busy_until[i] = t + self.busy_len;
        }
        self.runs += push_op(&mut self.logs[i], t, op);
        self.rho[i] += 1;
        self.last_action[i] = Some(t);
        if self.procs[i].is_halted() {
            fault(i, t, &self.procs[i])?;
            self.halted[i] = true;
        }
        Ok(())
    }

    /// The gap rule for communication `action` of processor `i` at step `t`: at least G steps
    /// since its previous communication op. Returns the action if it may go ahead; otherwise
    /// an error, or (`GapPolicy::AutoDelay`) `None` after holding it back for an idle step.
    /// Inlined into the step loop, as before the machine's modules were split (callgrind: a
    /// call per op cost 2% of a stall-free compaction's instructions).
    #[inline]
    fn gap_rule(
        &mut self,
        i: usize,
        t: Step,
        action: Action<P::Payload>,
    ) -> Result<Option<Action<P::Payload>>, Error> {
        let Some(previous) = self.last_comm[i].filter(|&prev| t - prev < self.gap) else {
            return Ok(Some(action));
        };
        match self.gap_policy {
            GapPolicy::Error => {
                Err(Error::GapViolation { proc: i as u32, step: t, previous, gap: self.gap })
            }
            GapPolicy::AutoDelay => {
                self.held[i] = Some(action);
                self.gap_wait_steps += 1;
                self.runs += push_op(&mut self.logs[i], t, Op::Idle);
                Ok(None)
            }
        }
    }

    /// Performs `action` of processor `i` at step `t`; returns its op (inlined, as
    /// [`Self::gap_rule`]).
    #[inline]
    fn perform(
        &mut self,
        i: usize,
        t: Step,
        action: Action<P::Payload>,
        net: &mut Network<P::Payload>,
        subs: &mut Vec<u64>,
    ) -> Result<Op, Error> {
        Ok(match action {
            Action::Compute => Op::Compute,
            Action::Idle => Op::Idle,
            Action::Receive => Op::Receive(self.receive(i, t, net)?),
            Action::Submit { dest, payload } => {
                let p = self.procs.len();
                if dest as usize >= p {
                    return Err(Error::DestinationOutOfRange {
                        proc: i as u32,
                        step: t,
                        dest: self.procs[i].submitted_dest().unwrap_or(i64::from(dest)),
                        p: p as u32,
                    });
                }
                if dest as usize == i {
                    return Err(Error::SelfSend { proc: i as u32, step: t });
                }
                let id = net.submit(i as u32, dest, t, payload);
                subs.push(id);
                Op::Submit(id)
            }
        })
    }

    /// Processor `i` receives the head of its input buffer at step `t` (nothing if empty,
    /// or an error with `EmptyReceive::Error`); returns the message id.
    fn receive(
        &mut self,
        i: usize,
        t: Step,
        net: &mut Network<P::Payload>,
    ) -> Result<Option<u64>, Error> {
        let got = net.receive(i, t);
        if got.is_none() && self.empty_receive == EmptyReceive::Error {
            return Err(Error::EmptyReceive { proc: i as u32, step: t });
        }
        let (id, delivered) = got.unzip();
        self.procs[i].on_receive(delivered, t);
        Ok(id)
    }
}

/// [`Error::ProgramFault`] if program `i` failed by step `t` (see [`LogpProcess::fault`]).
pub(crate) fn fault<P: LogpProcess>(i: usize, t: Step, proc: &P) -> Result<(), Error> {
    match proc.fault() {
        Some(message) => {
            Err(Error::ProgramFault { proc: i as u32, step: t, message: message.to_string() })
        }
        None => Ok(()),
    }
}
