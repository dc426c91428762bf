//! `Alg1`, the paper's hierarchy example (its Section 2.1 and Figure 1; `docs/models/hpram.md`,
//! Choices: Figure 1 is reconstructed): `Alg1(P') = partition{2, P'/2, Alg1}` for `P' >= 16`, else
//! `partition{P'/2: Alg2; P'/4: Alg3; P'/8: Alg4; P'/8: Alg5}`. `Alg2`..`Alg5` have no steps.

use std::sync::Arc;

use crate::error::HpramError;
use crate::sub_pram::{HAlgorithm, Part, SubPram};

/// The paper's `Alg1`; only `P = 8·2^k` is valid, any other `P` fails with a partition error.
#[derive(Debug, Clone, Copy, Default)]
pub struct Alg1;

impl Alg1 {
    /// Whether `Alg1` partitions `p` processors: it halves `P'` while `P' >= 16` and splits 8
    /// into 4 + 2 + 1 + 1 (paper Section 2.1), so only `p = 8·2^k`.
    pub fn valid_procs(p: usize) -> bool {
        p.is_multiple_of(8) && (p / 8).is_power_of_two()
    }
}

/// An algorithm with no steps, named as the hierarchy should show it.
#[derive(Debug, Clone)]
pub struct Empty(pub String);

impl HAlgorithm for Empty {
    fn name(&self) -> String {
        self.0.clone()
    }
    fn run(&self, _sp: &mut SubPram<'_>) -> Result<(), HpramError> {
        Ok(())
    }
}

impl HAlgorithm for Alg1 {
    fn name(&self) -> String {
        "Alg1".to_string()
    }

    fn run(&self, sp: &mut SubPram<'_>) -> Result<(), HpramError> {
        let p = sp.procs();
        if p >= 16 {
            return sp.partition_eq(2, p / 2, Arc::new(Alg1), vec![]);
        }
        let leaf =
            |name: &str, procs: usize| Part::new(procs, Arc::new(Empty(name.to_string())), vec![]);
        sp.partition(vec![
            leaf("Alg2", p / 2),
            leaf("Alg3", p / 4),
            leaf("Alg4", p / 8),
            leaf("Alg5", p / 8),
        ])
    }
}
