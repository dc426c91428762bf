//! A message on its way to an actor: in flight (a [`Scheduler`](crate::actor::Scheduler)'s
//! queue) or waiting in a mailbox.

use super::id::ActorId;

/// A message in flight or in a mailbox: 16 bytes and the message (depths fit `u32`, see
/// [`ActorError::MeasureOverflow`](crate::actor::ActorError::MeasureOverflow); the sequence number that orders a scheduler's ties is
/// the order of pushes, so a message need not carry it).
#[derive(Debug)]
pub(crate) struct Envelope<M> {
    pub(crate) to: ActorId,
    pub(crate) sdepth: u32,
    /// The sending event (`u64::MAX` for an injected message).
    pub(crate) from_event: u64,
    pub(crate) msg: M,
}
