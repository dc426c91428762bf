//! The binary cluster hierarchy of D-BSP (Bilardi, Pietracaprina, Pucci, Section 2): the
//! `n = 2^k` processors split into `2^i` i-clusters of `n / 2^i` consecutive ids, each
//! i-cluster the union of two (i+1)-clusters. Processor `p` lies in i-cluster `p >> (k - i)`.
//! The same hierarchy describes hpram's equal partitions into sub-PRAMs.

use std::ops::Range;

use serde::Serialize;

use super::error::BspError;

/// The i-clusters of `n = 2^log_n` processors, levels `0..=log_n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ClusterHierarchy {
    log_n: u32,
}

impl ClusterHierarchy {
    /// The hierarchy of `n` processors; `n` must be a power of two.
    pub fn new(n: u32) -> Result<Self, BspError> {
        if !n.is_power_of_two() {
            return Err(BspError::NotPowerOfTwo { field: "n", value: u64::from(n) });
        }
        Ok(Self { log_n: n.trailing_zeros() })
    }

    /// Number of processors.
    pub fn n(&self) -> u32 {
        1 << self.log_n
    }

    /// The deepest level `log2 n` (its clusters are single processors).
    pub fn log_n(&self) -> u32 {
        self.log_n
    }

    /// Checks `level <= log2 n`.
    fn check(&self, level: u32) -> Result<u32, BspError> {
        if level > self.log_n {
            return Err(BspError::LevelOutOfRange { level, max: self.log_n });
        }
        Ok(self.log_n - level)
    }

    /// Number of processors of an i-cluster, `n / 2^i`.
    pub fn cluster_size(&self, level: u32) -> Result<u32, BspError> {
        Ok(1 << self.check(level)?)
    }

    /// The index `j` of the i-cluster holding `pid`.
    pub fn cluster_of(&self, pid: u32, level: u32) -> Result<u32, BspError> {
        Ok(pid >> self.check(level)?)
    }

    /// The processors of i-cluster `j`: `[j n / 2^i, (j + 1) n / 2^i)`; an error if there is
    /// no such cluster.
    pub fn range(&self, level: u32, j: u32) -> Result<Range<u32>, BspError> {
        let shift = self.check(level)?;
        if j >> level != 0 {
            return Err(BspError::Precondition {
                field: "j",
                rule: format!("j < 2^{level} clusters at level {level}"),
                got: j.to_string(),
            });
        }
        Ok(j << shift..(j + 1) << shift)
    }

    /// Whether `a` and `b` share an i-cluster (their ids agree on the top `i` bits).
    pub fn same_cluster(&self, a: u32, b: u32, level: u32) -> Result<bool, BspError> {
        let shift = self.check(level)?;
        Ok(a >> shift == b >> shift)
    }

    /// The processor at the same offset in the sibling (i+1)-cluster inside `pid`'s
    /// i-cluster: `pid xor n / 2^(i+1)`; `None` at the deepest level `log2 n`.
    pub fn partner(&self, pid: u32, level: u32) -> Result<Option<u32>, BspError> {
        let shift = self.check(level)?;
        Ok((shift > 0).then(|| pid ^ (1 << (shift - 1))))
    }
}
