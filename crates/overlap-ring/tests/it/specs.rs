//! Fixture snapshots and hand-checked exact cases.
