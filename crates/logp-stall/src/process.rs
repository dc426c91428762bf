//! The LogP program interface (paper §2: an operational processor performs one operation per
//! step, compute, submit or receive).

use std::fmt::Debug;

use netcore::Step;
use serde::Serialize;

/// What an operational processor does in one step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action<P> {
    /// One local operation.
    Compute,
    /// Nothing.
    Idle,
    /// Submit a message to another processor.
    Submit {
        /// Destination processor.
        dest: u32,
        /// Message contents.
        payload: P,
    },
    /// Take the head of the input buffer (or nothing if it is empty).
    Receive,
}

/// A message taken from the input buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivered<P> {
    /// Its source.
    pub src: u32,
    /// Its contents.
    pub payload: P,
}

/// A LogP program for one processor. `Clone` lets the simulation snapshot and undo.
pub trait LogpProcess: Clone + Send {
    /// Message contents.
    type Payload: Clone + Eq + Debug + Serialize;
    /// The final state compared across executions.
    type State: Eq + Debug + Serialize;
    /// The action at step `now` (called only when operational and not halted).
    fn next(&mut self, now: Step) -> Action<Self::Payload>;
    /// The result of a `Receive` performed at `now`.
    fn on_receive(&mut self, msg: Option<Delivered<Self::Payload>>, now: Step);
    /// Whether the program has no further action.
    fn is_halted(&self) -> bool;
    /// The state to compare.
    fn state(&self) -> Self::State;
    /// Why the program stopped on its own, if it failed (a script that loops without taking a
    /// step). The machine and the simulation turn it into a run error.
    fn fault(&self) -> Option<&str> {
        None
    }
    /// The destination of the `Submit` just returned as the program computed it, when it
    /// does not fit the action's `u32` (a script's `dest = -1` or `2^32`, carried as
    /// `u32::MAX`): the machine's and the simulation's errors name it (paper §2: a message
    /// goes to another processor `< p`). Default `None`.
    fn submitted_dest(&self) -> Option<i64> {
        None
    }
    /// Whether the program only waits for a message: its next action is a `Receive`, and an
    /// empty one leaves it in the same state, so nothing but a message can move it on. When
    /// every running program awaits a message and none is in transit or buffered for it,
    /// nothing can change, and [`run`](crate::machine::run) stops with
    /// [`Error::Quiescent`](crate::Error::Quiescent) instead of running to `max_steps`. The
    /// default, `false`, makes no such promise (the run then goes on to the step limit).
    fn awaits_message(&self) -> bool {
        false
    }
}
