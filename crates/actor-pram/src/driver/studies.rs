//! The studies of `actor-pram` (`cargo xtask sweep <name>`).

pub mod baselines;
pub mod broadcast;
pub mod direct;
pub mod hotspot;
pub mod permutation;
pub mod theorem2;

mod axis;

pub use axis::SchedulerAxis;
