//! The messages of the step's actors (Choice 22): 32 bytes each, the network's carrying
//! their pass; the batch and fan-out caps of the host exchange.

use netcore::pram::Access;

use crate::actor::ActorId;
use crate::ranade::network::{RSlot, Slot};
use crate::ranade::packet::Packet;

/// Arrivals and replies travel between a node and its host in batches of at most this many.
pub(super) const BATCH: usize = 4;

/// The fan-out cap `F` of [`Limits::default`] (Choice 3).
pub(super) const F_SEND: usize = 8;

/// The messages of the actors: 32 bytes (rounds in 32 bits, passes in 16, a port in 8), so
/// that an envelope in the runtime's queue takes 48 bytes. The messages of the network carry
/// their pass (Choice 22: in the overlapping run a node holds back the messages of a later
/// pass than the one it serves; a run has at most [`MAX_PASSES`] passes).
#[derive(Debug, Clone)]
pub(super) enum StepMsg {
    /// Starts a PPU actor (the global instruction's event), or runs a replica's next
    /// instruction.
    Issue,
    /// A PPU's access (or none) of pass `pass` for its router's hash actor.
    Access { pass: u16, access: Option<Box<Access>> },
    /// A PPU's packet (or none), keyed by the hash actor, for its injection node.
    Inject { pass: u16, packet: Option<Box<Packet>> },
    /// Starts pass `pass` at a node without a PPU in it.
    Start { pass: u16 },
    /// Forward slot of round `round` on the receiver's input `input`.
    Data { pass: u16, round: u32, input: u8, slot: Slot },
    /// Forward freed count of round `round` for the receiver's output `output`.
    Ack { pass: u16, round: u32, output: u8, freed: u32 },
    /// A batch of a node's arrivals for its host; `last` ends the node's arrivals.
    Arrivals { node: ActorId, batch: Vec<Packet>, last: bool },
    /// The host asks for the next batch.
    More,
    /// A batch of a node's replies, in its exit order, starting at its `from`-th arrival
    /// (taken in order: select-accept, since the scheduler may reorder a host's batches).
    Replies { from: u32, batch: Vec<i64> },
    /// A host sends itself the rest of its reply batches.
    Flush,
    /// Reverse slot of round `round` on the receiver's reverse input `input` (its forward
    /// output), `None` for a Null slot.
    RData { pass: u16, round: u32, input: u8, slot: Option<RSlot> },
    /// Reverse freed count of round `round` for the receiver's reverse output `output` (its
    /// forward input).
    RAck { pass: u16, round: u32, output: u8, freed: u32 },
    /// A PPU's reply.
    Reply(i64),
    /// A node to itself: fire the next round with nothing to await, or send queued replies
    /// (Choice 23).
    Tick,
}

const _: () = assert!(std::mem::size_of::<StepMsg>() == 32);

/// The most passes of one actor run (a pass number travels in 16 bits, and a node that has
/// served them all holds `MAX_PASSES`).
pub(crate) const MAX_PASSES: usize = u16::MAX as usize;

impl StepMsg {
    /// The pass of a message between virtual nodes.
    pub(super) fn link_pass(&self) -> Option<u16> {
        match self {
            StepMsg::Data { pass, .. }
            | StepMsg::Ack { pass, .. }
            | StepMsg::RData { pass, .. }
            | StepMsg::RAck { pass, .. } => Some(*pass),
            _ => None,
        }
    }
}
