//! Tree reduction on a complete binary tree (`docs/models/hpram.md`, Choices: Algorithms are ours):
//! `⊕` is wrapping addition, the input is in block layout (processor `i` owns `[i·r, (i+1)r)`), the
//! result ends at address 0.
//! Register 0 is the accumulator `acc`, register 1 the loaded operand. Addresses go through
//! [`SubPram::home`], so every form runs in both memory variants.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::error::HpramError;
use crate::proc::MemOp;
use crate::sub_pram::{Counted, FnAlg, HAlgorithm, SubPram};

/// The three forms (`docs/models/hpram.md`, Choices: Algorithms are ours).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TreeForm {
    /// The leaf on every home block at level 1, then `p` rounds of `m c m` (a PRAM program).
    Flat,
    /// `[P × 1: Leaf]`, then the same `p` rounds (strict locality).
    TwoLevel,
    /// `TreeH(P') = [2 × P'/2: TreeH]`, then `m c m` (neighbourhood locality).
    Hier,
}
netcore::display_config_name!(TreeForm);

const ACC: usize = 0;
const TMP: usize = 1;

/// The tree reduction in form `form`. `P` must be a power of two and `M = N = P·r`.
pub fn tree_reduce(form: TreeForm) -> Arc<dyn HAlgorithm> {
    match form {
        TreeForm::Flat => FnAlg::arc("TreeFlat", |sp: &mut SubPram<'_>| {
            leaf_steps(sp)?;
            rounds(sp)
        }),
        TreeForm::TwoLevel => FnAlg::arc("TreeTwoLevel", |sp: &mut SubPram<'_>| {
            sp.partition_eq(sp.procs(), 1, leaf(), vec![])?;
            rounds(sp)
        }),
        TreeForm::Hier => Arc::new(TreeH),
    }
}

/// The leaf as a 1-processor algorithm.
fn leaf() -> Arc<dyn HAlgorithm> {
    FnAlg::arc("Leaf", leaf_steps)
}

/// `m (m c)^{r−1} m` on every processor's home block of `r = M'/P'` words: `T = r−1`,
/// `C = r+1`. A count-only run counts the `r − 1` pairs `m c` in one call, so its time does not
/// grow with `r`.
fn leaf_steps(sp: &mut SubPram<'_>) -> Result<(), HpramError> {
    let (r, base) = (sp.mem_len() / sp.procs(), sp.home(0));
    sp.comm(|p| MemOp::Read { addr: base + p.pid * r, dst: ACC })?;
    if sp.counting() {
        sp.count_repeated(r.saturating_sub(1) as u64, &[Counted::Comm, Counted::Compute(1)])?;
        return sp.comm(|_| MemOp::Idle);
    }
    for j in 1..r {
        sp.comm(|p| MemOp::Read { addr: base + p.pid * r + j, dst: TMP })?;
        sp.compute(1, |p| p.local[ACC] = p.local[ACC].wrapping_add(p.local[TMP]))?;
    }
    sp.comm(|p| MemOp::Write { addr: base + p.pid * r, src: ACC })
}

/// `p = log₂P'` rounds of `m c m`: in round `k`, processor `i ≡ 0 (mod 2^k)` reads
/// `(i+2^{k−1})r`, adds, and writes `i·r`.
fn rounds(sp: &mut SubPram<'_>) -> Result<(), HpramError> {
    let (procs, r, base) = (sp.procs(), sp.mem_len() / sp.procs(), sp.home(0));
    let mut span = 2;
    while span <= procs {
        let active = move |pid: usize| pid.is_multiple_of(span);
        sp.comm(|p| match active(p.pid) {
            true => MemOp::Read { addr: base + (p.pid + span / 2) * r, dst: TMP },
            false => MemOp::Idle,
        })?;
        sp.compute(1, |p| {
            if active(p.pid) {
                p.local[ACC] = p.local[ACC].wrapping_add(p.local[TMP]);
            }
        })?;
        sp.comm(|p| match active(p.pid) {
            true => MemOp::Write { addr: base + p.pid * r, src: ACC },
            false => MemOp::Idle,
        })?;
        span *= 2;
    }
    Ok(())
}

/// `TreeH(P') = [2 × P'/2: TreeH]`, then processor 0 (still holding the left total) reads
/// `M'/2`, adds and writes 0; `TreeH(1)` is the leaf.
#[derive(Debug, Clone, Copy)]
struct TreeH;

impl HAlgorithm for TreeH {
    fn name(&self) -> String {
        "TreeH".to_string()
    }

    fn run(&self, sp: &mut SubPram<'_>) -> Result<(), HpramError> {
        if sp.procs() == 1 {
            return leaf_steps(sp);
        }
        sp.partition_eq(2, sp.procs() / 2, Arc::new(TreeH), vec![])?;
        let (half, base) = (sp.mem_len() / 2, sp.home(0));
        sp.comm(|p| match p.pid {
            0 => MemOp::Read { addr: base + half, dst: TMP },
            _ => MemOp::Idle,
        })?;
        sp.compute(1, |p| {
            if p.pid == 0 {
                p.local[ACC] = p.local[ACC].wrapping_add(p.local[TMP]);
            }
        })?;
        sp.comm(|p| match p.pid {
            0 => MemOp::Write { addr: base, src: ACC },
            _ => MemOp::Idle,
        })
    }
}
