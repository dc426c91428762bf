//! One global step served by actors (Baude, Section 5, Theorem 2 and Property 1; Choices 18
//! and 22 of `docs/models/actor-pram.md`): the PPUs' injections, the forward pass, the memory
//! exchange at the hosts and the reply pass, each a message protocol between serialized
//! actors, with the appendix's cadence in both passes.
//!
//! Actors: one per virtual node (Choice 18), one memory host and one hash actor `H_i` per
//! router, one PPU actor per PPU `pid < S`. A PPU actor, started by an injected `Issue`,
//! sends its access (or none) to its router's hash actor, which is unserialized (Choice 1):
//! it computes the packet's key (placement and rank, Choice 21) and forwards it as an
//! `Inject` to the router's injection node (Section 5: "one is dedicated to apply the hash
//! function to any PRAM memory address"). A node without a PPU is started by an injected
//! `Start`. A node fires
//! forward round `T` once it holds the round `T − 1` Data of every open input and the Acks
//! of every output that carried a non-final slot. When its forward pass closes, it sends its
//! arrivals to its router's host in batches of at most 4, ping-pong (`More` asks for the
//! next). A host that has every batch of its (up to three) virtual nodes serves them by the
//! variant's rule and sends each node its replies in batches of at most 4, at most
//! `F − 1` messages per event and a `Flush` to itself for the rest. A node that has its
//! replies fires reverse round 0; reverse rounds follow the same cadence with the roles of
//! the links swapped (a Null slot where the lockstep pass sends nothing); a delivery is a
//! `Reply` to the PPU actor.
//!
//! The same actors serve a whole program in one system (the overlapping run, Choice 22):
//! the PPU actors are then the program's replicas, the network's messages carry their pass,
//! and a node that closes a pass's reverse pass records it, resets and serves the next one,
//! holding back the messages of later passes; the hosts own the cells they write.

mod actors;
mod cadence;
mod msg;
mod plan;
mod record;
mod run;

pub(crate) use plan::{PassPlan, op_of};
pub use record::{ActorPass, PassRecord};
pub use run::EVENTS_PER_ACTOR_ROUND;
