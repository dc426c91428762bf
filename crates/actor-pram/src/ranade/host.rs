//! The memory hosts (Choices 15, 19 and 23): the rule a host applies to the packets that
//! arrive for its cells, and the writes held across the passes of a multiplexed step.

use std::collections::BTreeMap;

use netcore::pram::{AccessKind, Variant};

use super::packet::{Packet, combine};
use crate::error::Error;
use crate::hash::Hashing;

/// What the hosts did with the packets of one exchange.
#[derive(Debug, Clone, Default)]
pub(super) struct Served {
    /// The reply of every packet, indexed like the packets.
    pub(super) replies: Vec<i64>,
    /// The values stored, one per written cell: (address, value).
    pub(super) writes: Vec<(u32, i64)>,
    /// Per served address: the pids in the hosts' order (Choice 19).
    pub(super) serialization: Vec<(u64, Vec<u32>)>,
}

/// The memory a host serves from: a base memory and, in the overlapping run (Choice 22), the
/// cells the host has written since the run began, which it owns.
#[derive(Debug, Clone, Copy)]
pub(super) struct Cells<'a> {
    pub(super) base: &'a [i64],
    pub(super) own: Option<&'a BTreeMap<u32, i64>>,
}

impl Cells<'_> {
    /// The cell's value (0 beyond the memory's end, as a read there gives).
    pub(super) fn get(&self, addr: u32) -> i64 {
        let own = self.own.and_then(|o| o.get(&addr).copied());
        own.unwrap_or_else(|| self.base.get(addr as usize).copied().unwrap_or(0))
    }
}

/// The hosts' rule (Choices 15 and 19): the packets of each address, in order of least pid,
/// are folded by the variant's rule (a forbidden conflict is an error); a read is answered
/// with the value before the step (0 beyond `memory`), a fetch-and-op with the value before
/// it in that order, a write with 0 (an acknowledgement); writes and fetch-and-ops store the
/// result (an address beyond `memory` is an error). The packets must hold every packet of
/// each address they name (one host's arrivals, or all of them).
pub(super) fn serve(
    variant: Variant,
    packets: &[&Packet],
    memory: Cells<'_>,
) -> Result<Served, Error> {
    let mut order: Vec<usize> = (0..packets.len()).collect();
    order.sort_by_key(|&i| (packets[i].addr, packets[i].lo));
    let mut served = Served { replies: vec![0; packets.len()], ..Served::default() };
    for group in order.chunk_by(|&i, &j| packets[i].addr == packets[j].addr) {
        let first = packets[group[0]];
        let at = usize::try_from(first.addr).unwrap_or(usize::MAX);
        let old = memory.get(first.addr);
        let mut acc = first.clone();
        for &i in &group[1..] {
            combine(variant, &mut acc, packets[i].clone())?;
        }
        let mut stored = None;
        match first.kind {
            AccessKind::Read => group.iter().for_each(|&i| served.replies[i] = old),
            AccessKind::Write => stored = Some(acc.value),
            AccessKind::Fetch(op) => {
                let mut x = old;
                for &i in group {
                    served.replies[i] = x;
                    x = op.apply(x, packets[i].value);
                }
                stored = Some(x);
            }
        }
        if let Some(value) = stored {
            if at >= memory.base.len() {
                return Err(Error::InvalidConfig {
                    field: "addr",
                    rule: "a written address < memory length",
                    got: first.addr.to_string(),
                });
            }
            served.writes.push((first.addr, value));
        }
        served.serialization.push((u64::from(first.addr), acc.into_pids()));
    }
    Ok(served)
}

/// The writes the hosts hold across the passes of one multiplexed step (Choice 23): a step
/// of writes in several passes stores nothing before its last pass, which resolves every
/// write of the step by the variant's rule (so Priority, Arbitrary, Common, the fetch-op fold
/// and exclusive-write conflicts span the passes). Reads never store, and fetch-and-ops are
/// applied at once (passes run in pid order, the reference's serialization).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    pub(super) packets: Vec<Packet>,
    pub(super) last: bool,
}

impl Held {
    /// Nothing held; `last`: the next pass is the step's last.
    pub fn new(last: bool) -> Self {
        Self { packets: Vec::new(), last }
    }

    /// Marks whether the next pass is the step's last.
    pub fn set_last(&mut self, last: bool) {
        self.last = last;
    }

    /// The write packets held.
    pub fn len(&self) -> usize {
        self.packets.len()
    }

    /// Nothing held.
    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }

    /// The hosts' rule ([`serve`]) on one pass's `packets` together with the held writes (of
    /// `host`'s addresses, or all with `None`): replies for `packets` only; no store before
    /// the last pass of a write step.
    pub(super) fn serve(
        &self,
        variant: Variant,
        hashing: &Hashing,
        host: Option<u32>,
        packets: &[&Packet],
        memory: Cells<'_>,
    ) -> Result<Served, Error> {
        let mut all: Vec<&Packet> = self
            .packets
            .iter()
            .filter(|p| host.is_none_or(|h| hashing.dest(p.addr) == h))
            .collect();
        let earlier = all.len();
        all.extend_from_slice(packets);
        let mut served = serve(variant, &all, memory)?;
        served.replies.drain(..earlier);
        if !self.last && all.first().is_some_and(|p| p.kind == AccessKind::Write) {
            served.writes.clear();
        }
        Ok(served)
    }

    /// The held writes of `host`'s cells (a host of the actor runs holds its own).
    pub(super) fn for_host(&self, hashing: &Hashing, host: u32) -> Held {
        let packets = self.packets.iter().filter(|p| hashing.dest(p.addr) == host).cloned();
        Held { packets: packets.collect(), last: self.last }
    }

    /// Keeps a pass's write packets if more passes follow.
    pub(super) fn keep(&mut self, packets: impl Iterator<Item = Packet>) {
        if !self.last {
            self.packets.extend(packets.filter(|p| p.kind == AccessKind::Write));
        }
    }
}
