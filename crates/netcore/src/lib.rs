//! # netcore: the shared core of the parallel-models workspace
//!
//! Think twice before adding anything here: netcore holds only what at least two model crates
//! use.
//!
//! - [`topology`]: linear array, ring, mesh, torus, hypercube, wrapped butterfly, complete
//!   graph, any graph from an edge list; degree, BFS distances, diameter, shortest paths;
//!   closed-form diameters; the directed wrapped butterfly with its greedy routes.
//! - [`delay`]: per-link integer delays (uniform, explicit, seeded network-of-workstations laws).
//! - [`event`]: deterministic discrete-event queues (ties broken by push order) with per-step
//!   batches: a radix heap and a timing wheel.
//! - [`fabric`]: the [`fabric::Fabric`] an engine sends over (positions, directed links with
//!   delays and bandwidth, routes) and the directed-link numbering every fabric shares.
//! - [`toml_line`]: one-line TOML error messages; [`mod@tagged`]: internally tagged enums whose
//!   field errors keep the field and its line.
//! - [`modular`]: `pow_mod`, shared by the number-theoretic programs.
//! - [`rng`]: [`rng::SimRng`] and [`rng::seeded`]; no unseeded randomness compiles.
//! - [`cost`]: the ledger of a (D-)BSP run and its pricing by per-level costs
//!   ([`cost::LevelCosts`]), after the run.
//! - [`bsp`]: the BSP and D-BSP machine that executes supersteps, the cluster hierarchy, and
//!   shared primitives (bitonic sort, routing, the d-ary tree scan).
//! - [`pram`]: the SIMD PRAM (CPU + PPUs, EREW..CRCW fetch-and-op): assembly, builder, the
//!   reference interpreter over a pluggable global memory, and a program library.
//! - [`limits`]: stated size limits ([`limits::check`], [`limits::TooLarge`]), checked before
//!   a run allocates.
//! - [`picture`]: the model-agnostic picture of one run (lanes, intervals, arrows, marks,
//!   nested boxes) that `cargo xtask run MODEL CONFIG.toml --svg FILE` draws, and its size
//!   limit.
//! - [`fault`]: [`fault::Fault`] and [`fault::Classify`]: every error says whether it is the
//!   user's input (exit status 2) or a failed run (exit status 1).
//! - [`study`]: the [`study::Model`] and [`study::Study`] interfaces through which `xtask` runs
//!   and sweeps any model.
//! - [`driver`]: what `cargo xtask` drives, not the library API: netcore's own studies and its
//!   entries for `cargo xtask run netcore` and `cargo xtask run pram`.
//!
//! ```
//! use netcore::bsp::{BspMachine, Bsp, BspParams};
//!
//! // Every processor sends its id to its right neighbour on a 4-processor BSP(g = 2, l = 5).
//! let mut machine = BspMachine::<u32, u32>::new(BspParams::new(Bsp { p: 4, g: 2, l: 5 })?, vec![0; 4])?;
//! machine.superstep("shift", |ctx, _| ctx.send((ctx.pid() + 1) % ctx.p(), ctx.pid()))?;
//! machine.superstep("store", |ctx, state| *state = ctx.inbox()[0].1)?;
//! let (states, ledger) = machine.finish();
//! assert_eq!(states, vec![3, 0, 1, 2]);
//! // Superstep 1: w = 0, h = 1, cost 0 + 2 * 1 + 5; superstep 2: w = 0, h = 0, cost 5.
//! assert_eq!(ledger.cost(&BspParams::new(Bsp { p: 4, g: 2, l: 5 })?)?, 12.0);
//! # Ok::<(), netcore::bsp::BspError>(())
//! ```

#![warn(missing_docs)]

pub mod bsp;
pub mod cost;
pub mod delay;
pub mod driver;
pub mod event;
pub mod fabric;
pub mod fault;
pub mod fit;
pub mod input;
pub mod limits;
pub mod modular;
pub mod name;
pub mod picture;
pub mod pram;
pub mod rng;
pub mod study;
pub mod tagged;
pub mod toml_line;
pub mod topology;

/// A processor id.
pub type ProcId = u32;

/// A time step of a simulated machine (integer time everywhere).
pub type Step = u64;
