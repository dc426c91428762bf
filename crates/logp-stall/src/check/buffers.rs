//! Input buffers (paper §2: an arrived message waits in its destination's input buffer until
//! a receive takes it): rules L5 and L6.

use std::collections::VecDeque;

use netcore::Step;

use super::{Checker, Log};
use crate::trace::{Op, TraceMessage};

impl<'a> Checker<'a> {
    /// Every processor's inbound messages in buffer order `(t_m, submit, src)`, for
    /// [`Checker::receives`].
    pub(super) fn inbound(&self) -> Vec<Vec<&'a TraceMessage>> {
        let mut inbound: Vec<Vec<&TraceMessage>> = vec![Vec::new(); self.p()];
        for m in self.msgs() {
            inbound[m.dest as usize].push(m);
        }
        for list in &mut inbound {
            list.sort_by_key(|m| (m.deliver, m.submit, m.src));
        }
        inbound
    }

    /// L6: every message's record says when the op logs received it (`received`, filled by
    /// [`Checker::receives`] over every processor).
    pub(super) fn received_as_recorded(&mut self, received: &[Option<Step>]) {
        for m in self.msgs() {
            if m.received_at != received[m.id as usize] {
                self.bad(
                    "L6",
                    format!(
                        "message {} records received_at {:?}, the op logs give {:?}",
                        m.id, m.received_at, received[m.id as usize]
                    ),
                );
            }
        }
    }

    /// L5, L6: processor `i`'s receive ops replay its input buffer filled from `inbound` (in
    /// buffer order): each receive returns the buffer head, and each message is received at
    /// most once, by its destination, never before delivery; records each receive step in
    /// `received`.
    pub(super) fn receives(
        &mut self,
        i: usize,
        log: &Log,
        inbound: &[&TraceMessage],
        received: &mut [Option<Step>],
    ) {
        let mut buf: VecDeque<u64> = VecDeque::new();
        let mut next = 0;
        for &(s, op) in log {
            let Op::Receive(got) = op else { continue };
            while next < inbound.len() && inbound[next].deliver <= s {
                buf.push_back(inbound[next].id);
                next += 1;
            }
            let head = buf.pop_front();
            if head != got {
                self.bad(
                    "L5",
                    format!(
                        "P{i} receive at step {s} returned {got:?}, but the buffer head is {head:?}"
                    ),
                );
            }
            if let Some(id) = got {
                self.received_once(i, s, id, received);
            }
        }
    }

    /// L6: message `id`, received by processor `i` at step `s`, was delivered to `i` by then
    /// and not received before.
    fn received_once(&mut self, i: usize, s: Step, id: u64, received: &mut [Option<Step>]) {
        match self.msgs().get(id as usize) {
            Some(m) if m.dest as usize == i && m.deliver <= s => {
                if received[id as usize].replace(s).is_some() {
                    self.bad("L6", format!("message {id} received twice"));
                }
            }
            _ => self.bad(
                "L6",
                format!("P{i} at step {s} receives message {id}, not delivered to it by then"),
            ),
        }
    }
}
