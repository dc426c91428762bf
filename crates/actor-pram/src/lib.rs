//! `actor-pram`: F. Baude, *PRAM implementation on fine-grained MIMD multicomputers* (Warwick
//! RR-220, 1992) as executable models. The actor model of Section 2.2 runs on a deterministic
//! discrete-event runtime ([`actor`]) that measures actor time (the depth of the event DAG)
//! and actor space; PRAM programs (`netcore::pram`) are translated to actor programs and
//! compared with the reference interpreter ([`direct`]), or run with every global step routed
//! over the wrapped butterfly by Ranade's algorithm ([`ranade`], [`butterfly`]); the driver's
//! [`picture`](driver::picture) draws a run (`run --svg`). See `docs/models/actor-pram.md`.

pub mod actor;
pub mod broadcast;
pub mod butterfly;
pub mod cadence;
pub mod direct;
pub mod driver;
mod error;
pub mod hash;
pub mod limits;
pub mod predict;
pub mod ranade;

pub use error::Error;
/// The shared substrate of the workspace's models; its types appear in this crate's public
/// signatures ([`Program`](netcore::pram::Program), [`Limits`](netcore::pram::Limits),
/// [`Cost`](netcore::pram::Cost), ...).
pub use netcore;
