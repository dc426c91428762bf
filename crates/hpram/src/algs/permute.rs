//! Memory remapping (paper Section 3.2): `permute(sp, π)` moves the sub-PRAM's `N' = M'` words to
//! `π(j)` with `P'` processors, `r' = N'/P'` each: `r'` reads of its home block into private
//! memory, then `r'` writes. `T = 0`, `C = 2r'`; EREW-valid because `π` is a bijection, and in
//! place because every read precedes every write. Needs `local_words >= r'` on an `lpram` sub-model
//! when `r' > REGISTERS`.

use crate::error::HpramError;
use crate::proc::MemOp;
use crate::sub_pram::{Part, SubPram};

/// Applies `π` to the sub-PRAM's (home) block: the word at offset `j` moves to offset `π(j)`.
pub fn permute(
    sp: &mut SubPram<'_>,
    pi: &(dyn Fn(usize) -> usize + Sync),
) -> Result<(), HpramError> {
    let (r, base) = (sp.mem_len() / sp.procs(), sp.home(0));
    for k in 0..r {
        sp.comm(|p| MemOp::Read { addr: base + p.pid * r + k, dst: k })?;
    }
    for k in 0..r {
        sp.comm(|p| MemOp::Write { addr: base + pi(p.pid * r + k), src: k })?;
    }
    Ok(())
}

/// `remap_partition(sp, π, parts)` (paper Section 3.2; `docs/models/hpram.md`, Choices: Algorithms
/// are ours): applies `π`, runs the partition step, then applies `π⁻¹`, so children whose data is
/// scattered get it in their own blocks.
/// `π` must be a bijection of the block's offsets (`0..M'`); otherwise a write collides
/// (`ExclusiveWriteViolation` under EREW) or leaves the block.
pub fn remap_partition(
    sp: &mut SubPram<'_>,
    pi: &(dyn Fn(usize) -> usize + Sync),
    parts: Vec<Part>,
) -> Result<(), HpramError> {
    // Count-only runs never run the closures that read the table.
    let words = if sp.counting() { 0 } else { sp.mem_len() };
    let mut inverse = vec![0; words];
    for j in 0..words {
        if let Some(slot) = inverse.get_mut(pi(j)) {
            *slot = j;
        }
    }
    permute(sp, pi)?;
    sp.partition(parts)?;
    permute(sp, &|j| inverse[j])
}
