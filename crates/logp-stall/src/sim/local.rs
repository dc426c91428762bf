//! Superstep `sim-local` of a cycle (paper §4): the deliveries and the share of S taken in,
//! step 5 of the previous cycle (stall, and undo when δ < G), then step 1: the next
//! `C(k+1) - max{t_i, w_i}` steps of `P_i`, a submit appending to `Q_out(i)`, a receive
//! popping `Q_in(i)`.

use netcore::Step;
use netcore::bsp::Ctx;

use super::cycle::Sim;
use super::node::{EpisodeRec, Item, LogOp, Node, Snapshot};
use super::params::UnstallOffset;
use super::superstep::SimSuperstep;
use super::wire::Wire;
use crate::error::Error;
use crate::{Action, Delivered, LogpProcess};

/// A simulated processor's state.
type SimNode<P> = Node<P, <P as LogpProcess>::Payload>;
/// The superstep context of a simulated processor.
type SimCtx<'a, P> = Ctx<'a, Wire<Item<<P as LogpProcess>::Payload>>>;

/// What superstep `sim-local` of cycle `k` needs of the simulation's parameters.
#[derive(Debug, Clone, Copy)]
struct Local {
    /// Processors p.
    p: u32,
    /// LogP gap G.
    gap: u64,
    /// Stall lag δ.
    delta: u64,
    /// The unstall rule.
    unstall: UnstallOffset,
    /// The cycle's first step `C k`.
    now: Step,
    /// The next cycle's first step `C (k+1)`.
    end: Step,
}

impl<P: LogpProcess> Sim<P> {
    /// Superstep `sim-local` of cycle k: steps 5 (of cycle k-1), 4's delivery, 6's share, 1.
    pub(super) fn local(&mut self, k: u64) -> Result<u64, Error> {
        let c = self.c;
        let local = Local {
            p: self.cfg.p(),
            gap: self.cfg.gap(),
            delta: self.cfg.delta(),
            unstall: self.cfg.unstall(),
            now: c * k,
            end: c * (k + 1),
        };
        let mut undone_total = 0;
        self.m.superstep(SimSuperstep::Local.as_str(), |ctx, node| {
            let pid = ctx.pid();
            take_inbox::<P>(ctx, node, local.now);
            if !node.notified.is_empty() {
                undone_total += stall::<P>(ctx, node, &local);
            }
            node.snapshot = None;
            run_steps::<P>(ctx, node, &local);
            if node.error.is_none()
                && let Some(fault) = node.process.fault()
            {
                node.error = Some(format!("P{pid}: {fault}"));
            }
            node.t = local.end;
        })?;
        if let Some((pid, e)) =
            self.m.states().iter().enumerate().find_map(|(i, n)| n.error.clone().map(|e| (i, e)))
        {
            return Err(Error::SimRun { proc: pid as u32, message: e });
        }
        Ok(undone_total)
    }
}

/// Deliveries for this cycle boundary (`now`) into `Q_in(i)`, this processor's share of S
/// into its items, and the notifications of step 5.
fn take_inbox<P: LogpProcess>(ctx: &mut SimCtx<'_, P>, node: &mut SimNode<P>, now: Step) {
    for (_, w) in ctx.drain_inbox() {
        match w {
            Wire::Item(item) if item.deliver == Some(now) => node.q_in.push_back(item),
            Wire::Item(item) => node.items.push(item),
            Wire::Notify(seq, deliver) => node.notified.push((seq as u32, deliver)),
            _ => {}
        }
        ctx.charge(1);
    }
}

/// Step 5 of the previous cycle, for a processor with notifications: stall until
/// `w_i` (and undo when δ < G); the actions undone.
fn stall<P: LogpProcess>(ctx: &mut SimCtx<'_, P>, node: &mut SimNode<P>, local: &Local) -> u64 {
    let (pid, now) = (ctx.pid(), local.now);
    let t_bar = node.notified.iter().map(|&(_, d)| d).max().unwrap_or(now);
    let trigger = node.notified.iter().map(|&(s, _)| s).min().unwrap_or(0);
    node.w = match local.unstall {
        UnstallOffset::Strict => t_bar + 1,
        UnstallOffset::PaperLiteral => t_bar,
    };
    let mut signal = now;
    let mut undone = 0;
    if local.delta < local.gap {
        if let Some(snap) = node.snapshot.take().filter(|s| s.seq == trigger) {
            let redo = node.log.len() - snap.log_len;
            node.process = snap.process;
            node.rho = snap.rho;
            node.last_comm = snap.last_comm;
            node.log.truncate(snap.log_len);
            signal = snap.submit_step + 1;
            if !node.process.is_halted() {
                node.log.extend((signal..now).map(|s| (s, LogOp::Stalled)));
            }
            ctx.charge(redo as u64);
            undone = redo as u64;
        } else {
            node.error = Some(format!(
                "undo of P{pid}: no snapshot of its submit #{trigger} (two submits in one cycle with delta < G)"
            ));
        }
    }
    ctx.charge(node.notified.len() as u64);
    node.episodes.push(EpisodeRec { trigger_seq: trigger, signal, unstall: node.w, undone });
    node.notified.clear();
    undone
}

/// Step 1: the stalled steps up to `w_i`, then steps `max(t_i, w_i) .. C(k+1) - 1` of the
/// program, until it halts or breaks a rule (kept as the node's error).
fn run_steps<P: LogpProcess>(ctx: &mut SimCtx<'_, P>, node: &mut SimNode<P>, local: &Local) {
    let end = local.end;
    let stall_end = node.w.min(end);
    for s in node.t..stall_end {
        if node.process.is_halted() {
            break;
        }
        node.log.push((s, LogOp::Stalled));
    }
    let (start, pid) = (node.t.max(node.w), ctx.pid());
    for step in start..end {
        if node.process.is_halted() || node.error.is_some() {
            break;
        }
        ctx.charge(1);
        node.rho += 1;
        let done = match node.process.next(step) {
            Action::Compute => {
                node.log.push((step, LogOp::Compute));
                Ok(())
            }
            Action::Idle => {
                node.log.push((step, LogOp::Idle));
                Ok(())
            }
            Action::Submit { dest, payload } => submit::<P>(node, local, pid, step, dest, payload),
            Action::Receive => receive::<P>(node, local, pid, step),
        };
        if let Err(e) = done {
            node.error = Some(e);
            break;
        }
    }
}

/// A submit of `payload` to `dest` at `step`: appended to `Q_out(i)`, with the snapshot of
/// the processor before its first submit of the cycle when δ < G (step 5(b) may undo it).
fn submit<P: LogpProcess>(
    node: &mut SimNode<P>,
    local: &Local,
    pid: u32,
    step: Step,
    dest: u32,
    payload: P::Payload,
) -> Result<(), String> {
    check_comm(node.last_comm, step, local.gap, pid)?;
    let p = local.p;
    if dest >= p || dest == pid {
        // A script's destination past `u32` is named as it computed it.
        let named = node.process.submitted_dest().unwrap_or(i64::from(dest));
        return Err(format!(
            "P{pid} submits to P{named} at step {step} (destination must be another processor < p = {p})"
        ));
    }
    let seq = node.sent;
    node.sent += 1;
    node.items.push(Item {
        dest,
        submit: step,
        src: pid,
        seq,
        deliver: None,
        rank: 0,
        s_index: 0,
        payload,
    });
    node.log.push((step, LogOp::Submit(seq)));
    node.last_comm = Some(step);
    if local.delta < local.gap && node.snapshot.is_none() {
        node.snapshot = Some(Snapshot {
            process: node.process.clone(),
            rho: node.rho,
            log_len: node.log.len(),
            submit_step: step,
            seq,
            last_comm: node.last_comm,
        });
    }
    Ok(())
}

/// A receive at `step`: the head of `Q_in(i)`, or nothing.
fn receive<P: LogpProcess>(
    node: &mut SimNode<P>,
    local: &Local,
    pid: u32,
    step: Step,
) -> Result<(), String> {
    check_comm(node.last_comm, step, local.gap, pid)?;
    node.last_comm = Some(step);
    match node.q_in.pop_front() {
        Some(item) => {
            node.received.push((item.src, item.seq, step));
            node.log.push((step, LogOp::Receive(Some((item.src, item.seq)))));
            node.process.on_receive(Some(Delivered { src: item.src, payload: item.payload }), step);
        }
        None => {
            node.log.push((step, LogOp::Receive(None)));
            node.process.on_receive(None, step);
        }
    }
    Ok(())
}

/// The gap rule: a communication at `step` at least `G` after the previous one.
fn check_comm(last: Option<Step>, step: Step, gap: u64, pid: u32) -> Result<(), String> {
    match last {
        Some(prev) if step - prev < gap => Err(format!(
            "gap rule: P{pid} communicates at steps {prev} and {step} (need step - previous >= G = {gap})"
        )),
        _ => Ok(()),
    }
}
