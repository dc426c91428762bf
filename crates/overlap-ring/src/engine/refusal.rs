//! Why the sweeping engines ([`crate::engine::fast`]) do not run a plan: a leaf of its own so
//! that the crate's [`Error`](crate::error::Error) names it without importing an engine.

/// Why the row-sweep engine does not run a plan; [`crate::engine::simulate`] runs the event
/// engine instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// A directed link crossed by `streams` streams of weight-`weight` pebbles could get more
    /// units in one step than its bandwidth: a queue could form.
    #[error(
        "directed link {link} carries {streams} streams of weight {weight}, more than bandwidth B = {bandwidth} units per step: a queue could form"
    )]
    Bandwidth {
        /// The directed link (the fabric's numbering).
        link: usize,
        /// Streams routed over it.
        streams: u64,
        /// Pebble weight `w`.
        weight: u32,
        /// Bandwidth `B`.
        bandwidth: u32,
    },
    /// More processors, held columns or streams than 32-bit indices address.
    #[error("{what} = {value} exceeds the row-sweep engine's 32-bit indices")]
    Size {
        /// What is counted.
        what: &'static str,
        /// Its value.
        value: usize,
    },
}
