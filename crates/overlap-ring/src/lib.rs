//! `overlap-ring`: latency hiding by redundant computation (Andrews, Leighton, Metaxas, Zhang,
//! *Improved Methods for Hiding Latency in High Bandwidth Networks*). A guest array whose
//! processors own databases is simulated on a host network whose links have different delays.
//!
//! * [`guest`]: the database model, user programs ([`guest::GuestProgram`]) and the direct run
//!   every simulation is checked against; [`shapes`]: guest rings and 2-D arrays as
//!   super-columns.
//! * [`host`]: host arrays with per-link delays (and rings cut at their slowest link).
//! * [`plan`] + [`engine`]: which processor holds which databases, and the one event-driven
//!   engine that executes any plan (strict compute order, streams, FIFO links with bandwidth `B`,
//!   verification). Every scheme is a plan: [`naive`] (one copy), [`overlap`] (Theorems 2-3),
//!   [`trapezoid`] (Theorems 4-5), [`shapes::array2d_plan`] (Theorem 7).
//! * [`driver`]: what `cargo xtask` drives, not the library API: the single-run configs, the
//!   studies and the [`Model`](netcore::study::Model) implementation.
//!
//! The three entry points take their arguments in one order: the host, the scheme's
//! parameters, the program, the guest steps: [`naive::simulate`] (one copy, pays `d_max`),
//! [`overlap::simulate`] (Theorem 2) and [`trapezoid::simulate`] (the composite scheme of
//! Theorem 5); [`engine::run`] runs any [`plan::Plan`] the same way. `examples/heavy_tailed.rs`
//! runs a custom program on a Pareto host with naive and OVERLAP.
//!
//! Running your own guest program on a host with one slow link:
//!
//! ```
//! use overlap_ring::guest::{GuestProgram, Side};
//! use overlap_ring::host::Host;
//! use overlap_ring::overlap::{C, plan};
//!
//! /// Each cell adds its neighbours and counts its steps in its database.
//! struct Wave;
//! impl GuestProgram for Wave {
//!     type Val = u64;
//!     type Db = u64;
//!     fn init_db(&self, _col: usize) -> u64 { 0 }
//!     fn init_val(&self, col: usize) -> u64 { col as u64 }
//!     fn boundary(&self, _side: Side, _row: u64) -> u64 { 1 }
//!     fn step(&self, db: &mut u64, _col: usize, _row: u64, l: &u64, me: &u64, r: &u64) -> u64 {
//!         *db += 1;
//!         l.wrapping_add(*me).wrapping_add(*r)
//!     }
//! }
//!
//! let mut delays = vec![1; 63];
//! delays[31] = 30; // the root split of n = 64
//! let host = Host::new(64, delays, 6)?;
//! let (plan, labelling) = plan(&host, C::new(3, 1)?, 1)?;
//! let run = overlap_ring::engine::run(&host, &plan, &Wave, 40)?;
//! assert!(run.verified); // every holder's pebbles and final database equal the direct run
//! assert_eq!(labelling.k_max, 1);
//! // OVERLAP hides the long link: about (D + 2m)/(m + 1) = 16 steps per row instead of 30.
//! assert!(run.slowdown < 17.0);
//! # Ok::<(), overlap_ring::Error>(())
//! ```
//!
//! Validated types keep their fields private, so a struct literal cannot skip the checks of
//! their constructors ([`Host::new`], [`overlap::C::new`], [`plan::Plan::new`]); results
//! ([`engine::HostRun`], [`overlap::Labelling`], ...) are `#[non_exhaustive]`: their fields
//! are read, never built, outside the crate.
//!
//! ```compile_fail
//! // A host with a zero delay and no bandwidth: rejected by `Host::new`, and no literal.
//! let host = overlap_ring::Host { delays: vec![0, 0], bandwidth: 0 };
//! ```
//!
//! ```compile_fail
//! // c = 1 is not > 2: `C::new(1, 1)` is an error, and no literal.
//! let c = overlap_ring::overlap::C { num: 1, den: 1 };
//! ```
#![warn(missing_docs)]

pub mod assign_search;
pub mod bounds;
pub mod driver;
pub mod engine;
pub mod error;
pub mod graph;
pub mod guest;
pub mod host;
pub mod hosts;
pub mod naive;
pub mod overlap;
pub mod plan;
pub mod shapes;
pub mod trapezoid;

pub use error::{Error, Result};
pub use guest::{Digest, GuestProgram, Side};
pub use host::Host;

/// The shared core this crate builds on; its types below appear in this crate's signatures.
pub use netcore;
pub use netcore::Step;
pub use netcore::delay::DelayLaw;
pub use netcore::fabric::Fabric;
pub use netcore::limits::TooLarge;
pub use netcore::rng::{SimRng, seeded};
pub use netcore::topology::Topology;
