//! Tree prefix sums (`docs/models/hpram.md`, Choices: Prefix counts are ours), inclusive, wrapping
//! `+`, in the flat, two-level and hierarchical forms. Processor `i`'s block holds `[x_0..x_{r−1},
//! tot_0..tot_p, off]` (`B = r + p + 2` words, `M = P·B`). Registers `0..r` hold the leaf's values,
//! then `A`, `A2`
//! and `O` (so `local_words = r + 3`, on an `lpram` sub-model).
//!
//! - Leaf up: load (`m^r`), local scan (`c^{r−1}`, one phase), store (`m^r`), write `tot_0`
//!   (`m`).
//! - Combine at a node of `2^k` processors, by its processor 0: read its own `tot_{k−1}` and
//!   the right half's first block's `tot_{k−1}`, add, write `tot_k` (`m m c m`).
//! - Distribute at a node of `2^k`, by its processor 0, before its halves: read `off` and the
//!   left half's `tot_{k−1}`, add, write the sum into the right half's first `off` (`m m c m`).
//! - Leaf down: read `off` (`m`), load (`m^r`), add `off` (`c^r`, one phase), store (`m^r`).

use std::sync::Arc;

use crate::algs::TreeForm;
use crate::error::HpramError;
use crate::proc::MemOp;
use crate::sub_pram::{FnAlg, HAlgorithm, SubPram};
use crate::word::Word;

/// The prefix algorithm in form `form` for `r` words per processor (its only parameter).
pub fn tree_prefix(form: TreeForm, r: usize) -> Arc<dyn HAlgorithm> {
    let alg: Arc<dyn HAlgorithm> = match form {
        TreeForm::Flat => FnAlg::arc("PrefixFlat", move |sp: &mut SubPram<'_>| {
            leaf_up(sp, r)?;
            rounds_up(sp, r)?;
            rounds_down(sp, r)?;
            leaf_down(sp, r)
        }),
        TreeForm::TwoLevel => FnAlg::arc("PrefixTwoLevel", move |sp: &mut SubPram<'_>| {
            let p = sp.procs();
            sp.partition_eq(p, 1, FnAlg::arc("LeafUp", move |sp| leaf_up(sp, r)), vec![])?;
            rounds_up(sp, r)?;
            rounds_down(sp, r)?;
            sp.partition_eq(p, 1, FnAlg::arc("LeafDown", move |sp| leaf_down(sp, r)), vec![])
        }),
        TreeForm::Hier => FnAlg::arc("PrefixH", move |sp: &mut SubPram<'_>| {
            Up(r).run(sp)?;
            Down(r).run(sp)
        }),
    };
    alg
}

/// The initial memory for input `x` (`P·r` words) on `P` processors: `x` in block layout.
pub fn prefix_layout(x: &[Word], procs: usize) -> Vec<Word> {
    let r = x.len() / procs;
    let block = r + procs.trailing_zeros() as usize + 2;
    let mut memory = vec![0; procs * block];
    for (i, chunk) in x.chunks(r).enumerate() {
        memory[i * block..i * block + r].copy_from_slice(chunk);
    }
    memory
}

/// The prefix sums back out of a final memory laid out by [`prefix_layout`].
pub fn prefix_output(memory: &[Word], procs: usize, r: usize) -> Vec<Word> {
    let block = memory.len() / procs;
    memory.chunks(block).flat_map(|b| b[..r].to_vec()).collect()
}

/// `(B, p)`: the block size and `p = B − r − 2`, from the sub-PRAM.
fn shape(sp: &SubPram<'_>, r: usize) -> (usize, usize) {
    let block = sp.mem_len() / sp.procs();
    (block, block - r - 2)
}

fn leaf_up(sp: &mut SubPram<'_>, r: usize) -> Result<(), HpramError> {
    let ((block, _), base) = (shape(sp, r), sp.home(0));
    for j in 0..r {
        sp.comm(|p| MemOp::Read { addr: base + p.pid * block + j, dst: j })?;
    }
    sp.compute(r as u32 - 1, |p| {
        for j in 1..r {
            p.local[j] = p.local[j].wrapping_add(p.local[j - 1]);
        }
    })?;
    for j in 0..r {
        sp.comm(|p| MemOp::Write { addr: base + p.pid * block + j, src: j })?;
    }
    sp.comm(|p| MemOp::Write { addr: base + p.pid * block + r, src: r - 1 })
}

fn leaf_down(sp: &mut SubPram<'_>, r: usize) -> Result<(), HpramError> {
    let ((block, p_root), base) = (shape(sp, r), sp.home(0));
    let off = r + p_root + 1;
    sp.comm(|p| MemOp::Read { addr: base + p.pid * block + off, dst: r + 2 })?;
    for j in 0..r {
        sp.comm(|p| MemOp::Read { addr: base + p.pid * block + j, dst: j })?;
    }
    sp.compute(r as u32, |p| {
        for j in 0..r {
            p.local[j] = p.local[j].wrapping_add(p.local[r + 2]);
        }
    })?;
    for j in 0..r {
        sp.comm(|p| MemOp::Write { addr: base + p.pid * block + j, src: j })?;
    }
    Ok(())
}

/// `m m c m` by the processors `active`, reading `(own, other)` into `A, A2` and writing
/// `A + A2` to `target`; addresses are relative to the active processor's block.
fn combine_step(
    sp: &mut SubPram<'_>,
    r: usize,
    active: impl Fn(usize) -> bool + Sync + Copy,
    reads: impl Fn(usize) -> (usize, usize) + Sync + Copy,
    target: impl Fn(usize) -> usize + Sync + Copy,
) -> Result<(), HpramError> {
    let base = sp.home(0);
    let (a, a2) = (r, r + 1);
    sp.comm(|p| match active(p.pid) {
        true => MemOp::Read { addr: base + reads(p.pid).0, dst: a },
        false => MemOp::Idle,
    })?;
    sp.comm(|p| match active(p.pid) {
        true => MemOp::Read { addr: base + reads(p.pid).1, dst: a2 },
        false => MemOp::Idle,
    })?;
    sp.compute(1, |p| {
        if active(p.pid) {
            p.local[a] = p.local[a].wrapping_add(p.local[a2]);
        }
    })?;
    sp.comm(|p| match active(p.pid) {
        true => MemOp::Write { addr: base + target(p.pid), src: a },
        false => MemOp::Idle,
    })
}

/// Combine at span `2^k` for every node of the flat and two-level forms (processors
/// `i ≡ 0 mod 2^k`), or at the whole sub-PRAM (hierarchical: `k = log₂P'`).
fn combine(sp: &mut SubPram<'_>, r: usize, k: usize, only_root: bool) -> Result<(), HpramError> {
    let (block, _) = shape(sp, r);
    let half = 1 << (k - 1);
    let active = move |pid: usize| if only_root { pid == 0 } else { pid.is_multiple_of(2 * half) };
    let tot = |level: usize| r + level;
    combine_step(
        sp,
        r,
        active,
        move |pid| (pid * block + tot(k - 1), (pid + half) * block + tot(k - 1)),
        move |pid| pid * block + tot(k),
    )
}

/// Distribute at span `2^k`: `off` of the right half's first block becomes
/// `off + tot_{k−1}` of the left half.
fn distribute(sp: &mut SubPram<'_>, r: usize, k: usize, only_root: bool) -> Result<(), HpramError> {
    let (block, p_root) = shape(sp, r);
    let half = 1 << (k - 1);
    let off = r + p_root + 1;
    let active = move |pid: usize| if only_root { pid == 0 } else { pid.is_multiple_of(2 * half) };
    combine_step(
        sp,
        r,
        active,
        move |pid| (pid * block + off, pid * block + r + k - 1),
        move |pid| (pid + half) * block + off,
    )
}

fn rounds_up(sp: &mut SubPram<'_>, r: usize) -> Result<(), HpramError> {
    let p = sp.procs().trailing_zeros() as usize;
    (1..=p).try_for_each(|k| combine(sp, r, k, false))
}

fn rounds_down(sp: &mut SubPram<'_>, r: usize) -> Result<(), HpramError> {
    let p = sp.procs().trailing_zeros() as usize;
    (1..=p).rev().try_for_each(|k| distribute(sp, r, k, false))
}

/// `Up(P') = [2 × P'/2: Up]`, then combine; `Up(1)` is the leaf's up-sweep.
struct Up(usize);

impl HAlgorithm for Up {
    fn name(&self) -> String {
        "PrefixUp".to_string()
    }
    fn run(&self, sp: &mut SubPram<'_>) -> Result<(), HpramError> {
        if sp.procs() == 1 {
            return leaf_up(sp, self.0);
        }
        sp.partition_eq(2, sp.procs() / 2, Arc::new(Up(self.0)), vec![])?;
        combine(sp, self.0, sp.procs().trailing_zeros() as usize, true)
    }
}

/// `Down(P')`: distribute, then `[2 × P'/2: Down]`; `Down(1)` is the leaf's down-sweep.
struct Down(usize);

impl HAlgorithm for Down {
    fn name(&self) -> String {
        "PrefixDown".to_string()
    }
    fn run(&self, sp: &mut SubPram<'_>) -> Result<(), HpramError> {
        if sp.procs() == 1 {
            return leaf_down(sp, self.0);
        }
        distribute(sp, self.0, sp.procs().trailing_zeros() as usize, true)?;
        sp.partition_eq(2, sp.procs() / 2, Arc::new(Down(self.0)), vec![])
    }
}
