//! What an actor pass reports (Property 1): its slots and deliveries, checked against the
//! lockstep router's, and the actor measures of a pass or of an overlapping run.

use serde::Serialize;

use crate::actor::ActorMetrics;
use crate::direct::PpuActor as Replica;
use crate::ranade::stats::SlotDigest;

/// What one pass run by actors measured (Property 1: all of it equals the lockstep pass's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PassRecord {
    /// Forward rounds: 1 + the last round in which a node was open.
    pub r_fwd: u64,
    /// Reverse rounds.
    pub r_rev: u64,
    /// Combines.
    pub combines: u64,
    /// Host arrivals.
    pub arrivals: u64,
    /// The largest buffer occupancy a virtual-node actor saw (`<= b`: a breach is an error).
    pub max_occupancy: u64,
    /// The longest direction queue a virtual-node actor held.
    pub max_dq: u64,
    /// Exits (pid list, level, row, round), sorted by round, level, row.
    pub exits: Vec<(Vec<u32>, u32, u32, u64)>,
    /// Deliveries (pid, reverse round, value), sorted by round, then pid.
    pub deliveries: Vec<(u32, u64, i64)>,
    /// Per served address, sorted: the pids in the hosts' order.
    pub serialization: Vec<(u64, Vec<u32>)>,
    /// The digest of every slot of either pass.
    pub slots: SlotDigest,
}

/// What one step run by actors measured: the pass and the run's measures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ActorPass {
    /// The pass (Property 1: equal to the lockstep pass's).
    #[serde(flatten)]
    pub pass: PassRecord,
    /// The actor run's measures.
    pub actor: ActorMetrics,
}

/// What the overlapping run of a program measured (Choice 22): every pass's record (each
/// to be compared with the lockstep router's pass), the run's measures (its actor time is
/// the depth of the whole run's event DAG), the final memory and the replicas.
#[derive(Debug, Clone)]
pub(crate) struct ActorProgram {
    pub(crate) passes: Vec<PassRecord>,
    pub(crate) actor: ActorMetrics,
    pub(crate) memory: Vec<i64>,
    pub(crate) replicas: Vec<Replica>,
}
