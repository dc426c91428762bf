//! The Hierarchical PRAM of Heywood & Ranka (*A Practical Hierarchical Model of Parallel
//! Computation: The Model*, 1991), executed.
//!
//! A `P`-processor H-PRAM starts as one synchronous PRAM; a *partition step* splits its
//! processors into disjoint groups, each running an independent synchronous *sub-PRAM*
//! (level λ+1), and ends when all of them have finished. Algorithms drive a SIMD controller,
//! [`SubPram`]: [`SubPram::compute`] and [`SubPram::comm`] are synchronous steps over all
//! processors, [`SubPram::partition`] and [`SubPram::partition_eq`] are the general and
//! abbreviated partition steps. Memory is non-uniform (each child gets a disjoint block) or
//! uniform (each child gets an overlay of the whole memory, and a determinacy checker rejects
//! asynchronous communication between siblings at every join).
//!
//! Every global step obeys netcore's PRAM variant rules ([`netcore::pram::resolve_step`]).
//! A run records a [`CostTree`] (`T`, `T'`, `C`, `B` per sub-PRAM); [`CostTree::eval`] prices
//! it under any [`CostModel`] (the [`Preset`]s), [`MemoryVariant`] and [`Formula`].
//! [`count`] records the same tree without closures or memory, running identical siblings once
//! (`docs/models/hpram.md`, Choices: Count-only mode), which reaches `P = 2^30`.
//!
//! - [`algs`]: the paper's `Alg1` hierarchy and tree reduction (flat, two-level, hierarchical).
//! - [`run_builtin`]: a [`Builtin`] algorithm (tree reduction, tree prefix sums, the FFT, in one
//!   of their forms) on checked [`BuiltinParams`], over data in natural order.
//! - [`instances`]: the LPRAM, BPRAM and Gibbons' APRAM as H-PRAM instances (paper Section 2.4).
//! - [`network`]: a run executed on a hypercube, mesh or torus with a timed store-and-forward
//!   engine (paper Section 3): hashed memory, routed steps, scan barriers, partition
//!   permutations, checked against the abstract run; and the per-level cost model of Section 3.1.
//! - [`driver`]: `cargo xtask run hpram CONFIG.toml` (its `--svg` picture too) and the studies
//!   `hpram-model` (the paper's Sections 2.1-2.4 on executed random programs), X1 (`hpram-tree-r`),
//!   X2 (`hpram-usable-procs` and its inverse `hpram-isoefficiency`, count-only), X3
//!   (`hpram-fft-locality`) and `hpram-network` (paper Section 3).
//!
//! ```
//! use hpram::{Config, Formula, MemoryVariant, Preset, SyncScale, algs, run};
//!
//! // Tree reduction of 0..16 on 4 processors, hierarchical form (exact case E3;
//! // `docs/models/hpram.md`, Choices: Exact cases and studies are ours).
//! let input: Vec<i64> = (0..16).collect();
//! let done = run(&Config::new(4, 16), algs::tree_reduce(algs::TreeForm::Hier), vec![], &input)?;
//! assert_eq!(done.memory[0], 120);
//! let cube = Preset::Hypercube(SyncScale::Diam);
//! assert_eq!(done.cost.eval(&cube, MemoryVariant::NonUniform, Formula::Exact)?.total, 27);
//! # Ok::<(), hpram::HpramError>(())
//! ```

#![warn(missing_docs)]

pub mod algs;
mod async_comm;
mod builtin;
mod config;
mod cost_model;
mod cost_tree;
pub mod driver;
mod error;
mod eval;
pub mod instances;
pub mod limits;
mod memory;
pub mod network;
mod proc;
mod run;
mod step_log;
mod sub_pram;
pub mod synth;
mod trace;
mod word;

pub use async_comm::{Accessor, AsyncKind};
pub use builtin::{Builtin, BuiltinParams, BuiltinRun, run_builtin};
pub use config::{Config, MAX_DEPTH, MAX_THREADS, MemoryVariant, REGISTERS, SubModel};
pub use cost_model::{
    CostModel, Network, Preset, SyncScale, ceil_log2, ceil_pow, ceil_sqrt, validate_cost_model,
};
pub use cost_tree::{CostNode, CostTree, Siblings, StepCounts};
pub use error::HpramError;
pub use eval::{Eval, Formula, LevelRow, Placed, Timeline};
/// The shared substrate of the workspace's models; its types appear in this crate's public
/// signatures ([`Program`](netcore::pram::Program), [`Limits`](netcore::pram::Limits),
/// [`PramRun`](netcore::pram::PramRun), ...).
pub use netcore;

pub use proc::{MemOp, Proc};
pub use run::{ProgramRun, Run, count, run, run_program};
pub use sub_pram::{FnAlg, HAlgorithm, Part, SubPram};
pub use trace::Fnv64;
pub use word::Word;
