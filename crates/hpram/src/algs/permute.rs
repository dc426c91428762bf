//! Memory remapping (spec §3.4): `permute(sp, π)` moves the sub-PRAM's `N' = M'` words to
//! `π(j)` with `P'` processors, `r' = N'/P'` each: `r'` reads of its home block into private
//! memory, then `r'` writes. `T = 0`, `C = 2r'`; EREW-valid because `π` is a bijection, and in
//! place because every read precedes every write. Needs `local_words >= r'`.

use crate::error::HpramError;
use crate::proc::MemOp;
use crate::sub_pram::SubPram;

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
