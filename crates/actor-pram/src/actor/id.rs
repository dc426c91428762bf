//! An actor's id (Baude, Section 2.2: the name an acquaintance holds).

use serde::Serialize;

/// An actor's id: its index in the runtime's arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct ActorId(pub u32);

impl std::fmt::Display for ActorId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "actor {}", self.0)
    }
}
