//! The levelled virtual network over the directed wrapped butterfly and the lockstep reference
//! router of one access pass (Baude, Section 5, Theorem 2 and Property 1; the routing rules
//! are Ranade's, which the paper relies on without restating them: Choices 12-16 of
//! `docs/models/actor-pram.md`).
//!
//! *Levelled network* (Choice 12): Ranade's merge needs an acyclic levelled network, so the
//! wrapped butterfly of dimension `n` (`netcore::topology::WrappedButterfly`) is unrolled three
//! times: levels `0..=L`, `L = 3n - 2`; virtual node `(l, r)` lives in router `<l mod n, r>`;
//! edges `(l, r) -> (l+1, r)` (S) and `(l+1, r xor 2^(l mod n))` (X). A PPU at `<c, r>` injects
//! at level `c`; the greedy rule, applied at the virtual node's router, exits by level
//! `c + 2n - 1 <= L`.
//!
//! *Forward pass* (Choice 13): every virtual node forwards the packet with the least key among
//! its inputs once every other input's bound (head key, ghost lower bound, or end of stream)
//! exceeds it; packets with equal keys are combined; every edge carries one slot per round
//! (packet, ghost, end of stream, or idle after it); credits (freed counts in acks) keep
//! every buffer within `b`.
//!
//! *Reverse pass* (Choice 14): replies retrace the recorded directions in order; a node closes
//! when its direction queue is empty and both successors have closed.
//!
//! *One global step* (Choices 15 and 19): reads, writes and fetch-and-ops combine by the
//! variant's rule (fetch-and-ops with per-part offsets), the hosts apply the rule to what
//! arrives, and the replies (read values, fetch-and-op old values, write acknowledgements)
//! retrace the paths. Addresses are placed by a hash family and keys carry a random rank or
//! none (Choice 21, [`crate::hash`]). The whole step also runs as actors (`step`: PPUs,
//! virtual nodes through both passes, hosts; Choice 22), slot for slot equal to the lockstep
//! router (Property 1).

mod ahead;
mod delay;
mod directions;
mod host;
mod lockstep;
mod network;
mod packet;
mod queue;
mod settings;
mod stats;
mod step;

pub use delay::{DelayKind, DelayMessage, DelayStep, DelayWalk};
pub use host::Held;
pub use lockstep::{LockstepRouter, round_limit};
pub use settings::{Buffers, FetchOrder, Multiplex};
pub use stats::{PassEvent, PassEventKind, PassStats, SlotDigest};
pub use step::{ActorPass, EVENTS_PER_ACTOR_ROUND, PassRecord};
pub(crate) use step::{PassPlan, op_of};
