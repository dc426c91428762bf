//! The scheduler as a sweep axis of the studies (Section 2.2: one run per scheduler bounds
//! the actor time from below, Choice 2).

use serde::{Deserialize, Serialize};

use crate::actor::Scheduler;

/// A scheduler as a sweep axis (the random one draws its seed from the point's stream).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SchedulerAxis {
    /// [`Scheduler::Fifo`].
    Fifo,
    /// [`Scheduler::Lifo`].
    Lifo,
    /// [`Scheduler::DepthOrder`].
    DepthOrder,
    /// [`Scheduler::MaxDepth`].
    MaxDepth,
    /// [`Scheduler::Random`] with a seed from the point's stream.
    Random,
}
netcore::display_config_name!(SchedulerAxis);

impl SchedulerAxis {
    /// The scheduler, drawing a seed for the random one.
    pub fn scheduler(self, rng: &mut netcore::rng::SimRng) -> Scheduler {
        use rand::Rng;
        match self {
            SchedulerAxis::Fifo => Scheduler::Fifo,
            SchedulerAxis::Lifo => Scheduler::Lifo,
            SchedulerAxis::DepthOrder => Scheduler::DepthOrder,
            SchedulerAxis::MaxDepth => Scheduler::MaxDepth,
            SchedulerAxis::Random => Scheduler::Random { seed: rng.next_u64() },
        }
    }
}
