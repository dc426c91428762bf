//! The H-PRAM executed on a network, as paper Section 3 describes it
//! (`docs/models/hpram.md`, H-PRAM on a network): the abstract run is recorded step by step,
//! then executed on a netcore topology with a timed store-and-forward engine. Each sub-PRAM
//! runs on an aligned sub-network (a sub-cube or, through the Morton order, a sub-mesh) and
//! its block of the non-uniform memory is hashed over that sub-network's memory modules
//! (Section 3.2); every shared access is a request routed to the module holding the cell and a
//! reply routed back; every α- and β-synchronisation is a scan over a tree of the sub-network
//! (Section 3.1); every partition step's unhash + rehash is one routed permutation, and its
//! inverse at the join (Section 3.2). The modules really hold the values: every read must
//! return the value the abstract run read, and the final memory gathered from the modules must
//! equal the abstract run's, else the run fails ([`HpramError::NetworkMismatch`]).

mod compare;
mod construct;
mod engine;
mod exec;
mod place;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use compare::{Comparison, PerLevel, compare, per_level_of};
pub use construct::{Construct, Measured};
pub use place::{MAX_NETWORK_PROCS, NetKind};

use crate::config::{Config, MemoryVariant};
use crate::error::HpramError;
use crate::run::{Run, run_logged};
use crate::sub_pram::HAlgorithm;
use crate::word::Word;
use engine::Engine;
use exec::{Exec, Hash};
use place::Net;

/// The largest memory the network executor accepts (`2^20` words): the recorded run keeps
/// every access until the network has executed it.
pub const MAX_NETWORK_WORDS: usize = 1 << 20;

/// What the network executor needs of a machine before it runs (paper Section 3.2): a
/// driver checks it against its config's fields, [`run_on_network`] against the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NetworkNeed {
    /// Non-uniform memory: each sub-PRAM's private block is hashed over its sub-network.
    NonUniform,
    /// `M <=` [`MAX_NETWORK_WORDS`].
    Words,
    /// Concurrent writes won by the lowest pid, as the modules serve them (not
    /// crcw-arbitrary).
    LowestPidWins,
}

impl NetworkNeed {
    /// The first need `cfg` does not meet, with what `cfg` has instead.
    pub fn unmet(cfg: &Config) -> Option<(NetworkNeed, String)> {
        if cfg.memory != MemoryVariant::NonUniform {
            Some((NetworkNeed::NonUniform, cfg.memory.to_string()))
        } else if cfg.mem_words > MAX_NETWORK_WORDS {
            Some((NetworkNeed::Words, cfg.mem_words.to_string()))
        } else if cfg.model.access == netcore::pram::Variant::CrcwArbitrary {
            Some((NetworkNeed::LowestPidWins, cfg.model.to_string()))
        } else {
            None
        }
    }

    /// The rule, as an error message states it.
    pub fn rule(self) -> &'static str {
        match self {
            NetworkNeed::NonUniform => "non-uniform memory (paper Section 3.2)",
            NetworkNeed::Words => "M <= 2^20 words",
            NetworkNeed::LowestPidWins => {
                "a sub-model whose concurrent writes the lowest pid wins (not crcw-arbitrary)"
            }
        }
    }
}

/// The network a run executes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkParams {
    /// The family: hypercube, mesh or torus.
    pub topology: NetKind,
    /// The delay of every link in time units (default 1), `1 ..= 2^20`.
    #[serde(default = "one")]
    pub link_delay: u64,
    /// The seed of the sub-PRAMs' hash functions (default 1).
    #[serde(default = "one")]
    pub seed: u64,
}

fn one() -> u64 {
    1
}

impl NetworkParams {
    /// `topology` with link delay 1 and seed 1.
    pub fn new(topology: NetKind) -> NetworkParams {
        NetworkParams { topology, link_delay: 1, seed: 1 }
    }
}

/// A network execution.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NetworkRun {
    /// The network.
    pub params: NetworkParams,
    /// `P`.
    pub procs: usize,
    /// `M`.
    pub mem_words: usize,
    /// Its nodes.
    pub nodes: usize,
    /// Directed links.
    pub links: usize,
    /// The measured time of the run as the H-PRAM charges it: steps, barriers, β-syncs and
    /// partitions (slowest child), without the memory permutations.
    pub time: u64,
    /// The same with every partition's two permutations.
    pub total: u64,
    /// Per construct, level and size.
    pub measured: Vec<Measured>,
    /// Link hops taken.
    pub hops: u64,
    /// Messages delivered.
    pub messages: u64,
    /// The final memory, gathered from the modules.
    #[serde(skip)]
    pub memory: Vec<Word>,
}

/// Runs `alg(params)` on the H-PRAM `cfg` (as [`crate::run`]) and executes the recorded run on
/// the network `net`; returns both. Checked: every read on the network returns the abstract
/// run's value and the final memory gathered from the modules equals the abstract run's.
///
/// # Errors
///
/// - [`HpramError::InvalidConfig`] for a network that cannot hold `cfg` (`P` not a power of two
///   or above [`MAX_NETWORK_PROCS`], a torus below 16 nodes, a bad link delay), and
///   [`HpramError::NetworkUnsupported`] for uniform memory or `M >` [`MAX_NETWORK_WORDS`],
///   all before the run;
/// - every error of [`crate::run`];
/// - [`HpramError::NetworkUnsupported`] for a sub-PRAM that is not an aligned sub-network or
///   a step other than reads and writes;
/// - [`HpramError::NetworkMismatch`] if the network execution differs from the abstract run.
pub fn run_on_network(
    cfg: &Config,
    alg: Arc<dyn HAlgorithm>,
    params: Vec<Word>,
    input: &[Word],
    net: &NetworkParams,
) -> Result<(Run, NetworkRun), HpramError> {
    if let Some((need, got)) = NetworkNeed::unmet(cfg) {
        return Err(HpramError::NetworkUnsupported {
            path: "root".to_string(),
            rule: need.rule(),
            got,
        });
    }
    let network = Net::new(net.topology, cfg.procs, net.link_delay)?;
    let (run, log) = run_logged(cfg, alg, params, input, true)?;
    let mut exec = Exec {
        engine: Engine::new(&network),
        store: vec![BTreeMap::new(); network.nodes()],
        seed: net.seed,
        stats: BTreeMap::new(),
    };
    // The input in place under the root's hash (loading it is not charged).
    let mut initial = input.to_vec();
    initial.resize(cfg.mem_words, 0);
    let root_hash = Hash::of(&log, net.seed);
    for (addr, &value) in initial.iter().enumerate() {
        exec.store[root_hash.home(&network, addr) as usize].insert(addr, value);
    }
    let times = exec.node(&log)?;
    let mut memory = Vec::with_capacity(cfg.mem_words);
    for addr in 0..cfg.mem_words {
        let node = root_hash.home(&network, addr) as usize;
        memory.push(exec.store[node].get(&addr).copied().unwrap_or(Word::MIN));
    }
    if let Some(addr) = (0..cfg.mem_words).find(|&a| memory[a] != run.memory[a]) {
        return Err(HpramError::NetworkMismatch {
            path: "root".to_string(),
            what: format!(
                "final cell {addr} is {} on the network, {} in the abstract run",
                memory[addr], run.memory[addr]
            ),
        });
    }
    let measured = exec::constructs(&exec);
    let network_run = NetworkRun {
        params: *net,
        procs: cfg.procs,
        mem_words: cfg.mem_words,
        nodes: network.nodes(),
        links: network.links(),
        time: times.steps,
        total: times.total,
        measured,
        hops: exec.engine.hops,
        messages: exec.engine.messages,
        memory,
    };
    Ok((run, network_run))
}
