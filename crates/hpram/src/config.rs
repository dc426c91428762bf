//! The machine's parameters (paper Section 2.1; `docs/models/hpram.md`, Limits), the PRAM
//! sub-models a sub-PRAM may run and the memory variants (paper Section 2.1).

use std::fmt;

use netcore::pram::Variant;
use serde::{Deserialize, Serialize};

use crate::error::HpramError;

/// The PRAM sub-model of one sub-PRAM: netcore's access variant (its conflict rules apply to
/// every global step), plus the sub-model features of paper Section 2.1 that this slice executes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubModel {
    /// EREW, CREW, CRCW common / arbitrary / priority, or CRCW fetch-and-op (netcore's rules).
    pub access: Variant,
    /// Whether `BlockRead`/`BlockWrite` are available (BPRAM).
    #[serde(default)]
    pub block: bool,
    /// Whether the `scan` collective is available.
    #[serde(default)]
    pub scan: bool,
    /// Whether the `multiprefix` collective is available (paper Section 2.1, Ranade's
    /// multiprefix).
    #[serde(default)]
    pub multiprefix: bool,
    /// LPRAM local memory (paper Section 2.1): each processor may use all `local_words` words
    /// of its private memory. Without it a processor has [`REGISTERS`] registers, the small
    /// private memory of a PRAM processor (paper Section 2.2).
    #[serde(default)]
    pub lpram: bool,
    /// Under `crcw-arbitrary`: the seed of the replay-stable pseudo-random winner
    /// `hash(seed, path, step, addr)` (`docs/models/hpram.md`, Choices: Conflict rules are
    /// netcore's); `None` keeps netcore's rule (highest pid).
    #[serde(default)]
    pub arbitrary_seed: Option<u64>,
}

impl SubModel {
    /// An EREW PRAM without block transfers.
    pub const EREW: SubModel = SubModel {
        access: Variant::Erew,
        block: false,
        scan: false,
        multiprefix: false,
        lpram: false,
        arbitrary_seed: None,
    };

    /// The same sub-model with another access variant.
    pub const fn with_access(self, access: Variant) -> SubModel {
        SubModel { access, ..self }
    }

    /// The same sub-model with LPRAM local memory.
    pub const fn with_lpram(self) -> SubModel {
        SubModel { lpram: true, ..self }
    }

    /// The private words each processor may use when `local_words` are allocated:
    /// all of them with `lpram`, else at most [`REGISTERS`].
    pub fn private_words(&self, local_words: usize) -> usize {
        if self.lpram { local_words } else { local_words.min(REGISTERS) }
    }
}

/// The registers of a processor on a sub-model without LPRAM local memory (`docs/models/hpram.md`,
/// Choices: LPRAM local memory).
pub const REGISTERS: usize = 4;

impl fmt::Display for SubModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.access)?;
        if self.block {
            f.write_str("+block")?;
        }
        if self.scan {
            f.write_str("+scan")?;
        }
        if self.multiprefix {
            f.write_str("+multiprefix")?;
        }
        if self.lpram {
            f.write_str("+lpram")?;
        }
        if let Some(seed) = self.arbitrary_seed {
            write!(f, "+seed{seed}")?;
        }
        Ok(())
    }
}

/// The memory variant of paper Section 2.1: how a partition step gives memory to its
/// children. Execution owns it (blocks or checked overlays, [`Config::memory`]); pricing reads
/// it for the latency (paper Section 2.3.1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MemoryVariant {
    /// Memory is split with the processors: `ℓ = ℓ(P')`.
    #[default]
    NonUniform,
    /// Every sub-PRAM sees all memory: `ℓ = ℓ(P)` of the whole H-PRAM.
    Uniform,
}

impl std::fmt::Display for MemoryVariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MemoryVariant::NonUniform => "non-uniform",
            MemoryVariant::Uniform => "uniform",
        })
    }
}

/// The largest `max_depth` a config may ask for (`docs/models/hpram.md`, Limits): far above
/// any study's hierarchy (a count-only tree reduction or FFT on `P = 2^30` is 31 levels deep),
/// and shallow enough that the recursive execution, counting and pricing (paper Section 2.3.1's
/// cost recursion) stay within a 2 MiB thread stack even in a debug build (about 100 levels
/// fit there).
pub const MAX_DEPTH: u32 = 64;

/// The most rayon threads a run may start (as `cargo xtask --threads`): a pool of `2^31`
/// threads would not finish starting.
pub const MAX_THREADS: usize = 1024;

/// The parameters of one H-PRAM run (paper Section 2.1; `docs/models/hpram.md`, Limits). The cost model is not here: execution never consults it (`docs/models/hpram.md`,
/// Choices: Cost tree).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// `P`, the processors of the whole H-PRAM, `>= 1`.
    pub procs: usize,
    /// `M`, the words of global memory, `>= 1`.
    pub mem_words: usize,
    /// The root's sub-model; children inherit it unless their [`crate::Part`] names another.
    pub model: SubModel,
    /// Non-uniform (each child gets its own block) or uniform (overlays of the whole memory,
    /// checked for asynchronous communication at every join).
    pub memory: MemoryVariant,
    /// Private words per processor, `>= 1`; they persist across partitions. A sub-model
    /// without `lpram` uses only the first [`REGISTERS`] of them.
    pub local_words: usize,
    /// The deepest level a sub-PRAM may have (the root is level 1, a partition of a level-`k`
    /// sub-PRAM starts level `k + 1`), `1 ..= MAX_DEPTH`.
    pub max_depth: u32,
    /// Rayon threads for sibling sub-PRAMs; 0 uses the global pool; at most [`MAX_THREADS`].
    pub threads: usize,
}

impl Config {
    /// `P` processors, `M` words, EREW, non-uniform, 4 registers, depth 64, the global pool.
    pub fn new(procs: usize, mem_words: usize) -> Config {
        Config {
            procs,
            mem_words,
            model: SubModel::EREW,
            memory: MemoryVariant::NonUniform,
            local_words: 4,
            max_depth: 64,
            threads: 0,
        }
    }

    /// Checks every field's rule.
    pub fn validate(&self) -> Result<(), HpramError> {
        let bad = |field, rule, got: usize| {
            Err(HpramError::InvalidConfig { field, rule, got: got.to_string() })
        };
        if self.procs == 0 {
            return bad("procs", "procs >= 1", self.procs);
        }
        if self.mem_words == 0 {
            return bad("mem_words", "mem_words >= 1", self.mem_words);
        }
        if self.local_words == 0 {
            return bad("local_words", "local_words >= 1", self.local_words);
        }
        if self.max_depth == 0 {
            return bad("max_depth", "max_depth >= 1", self.max_depth as usize);
        }
        if self.max_depth > MAX_DEPTH {
            return bad("max_depth", "max_depth <= 64", self.max_depth as usize);
        }
        if self.threads > MAX_THREADS {
            return bad("threads", "threads <= 1024", self.threads);
        }
        Ok(())
    }
}
