//! The conflict rules of one global step, shared by the reference interpreter and by every
//! executor that resolves a step's accesses itself (hpram's sub-PRAMs).
//!
//! Both functions take one homogeneous batch of accesses sorted by pid and a slot table with
//! one entry per address of the memory the batch addresses; every entry must be [`EMPTY`] on
//! entry, and is [`EMPTY`] again on return.

use crate::pram::isa::{FetchOp, Variant};
use crate::pram::memory::Access;

/// An unused entry of a slot table.
pub const EMPTY: u32 = u32::MAX;

/// The first conflict of a step: smallest address, then its two smallest pids (for a common
/// write mismatch: the lowest writer and the lowest writer of another value; Choices 2 and 5
/// of `docs/models/pram.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepConflict {
    /// The smallest conflicting address.
    pub addr: u64,
    /// Its two smallest pids.
    pub pids: [u32; 2],
    /// Their values.
    pub values: [i64; 2],
}

impl StepConflict {
    /// Keeps the conflict at the smaller address; at one address the first found has the
    /// smallest pids, since accesses are scanned in pid order.
    fn keep(slot: &mut Option<StepConflict>, new: StepConflict) {
        if slot.is_none_or(|old| new.addr < old.addr) {
            *slot = Some(new);
        }
    }
}

/// Resolves `raw` (sorted by pid) into `resolved`, one access per address, by the variant's
/// rules, and returns the step's first conflict if the variant forbids what happened.
///
/// For reads only exclusivity matters (call it only when `!variant.concurrent_read()`); for
/// writes, the resolved access carries the surviving value (priority: lowest pid; arbitrary:
/// highest pid; fetch-op: the fold in pid order).
pub fn resolve_step(
    variant: Variant,
    raw: &[Access],
    slot: &mut [u32],
    resolved: &mut Vec<Access>,
) -> Option<StepConflict> {
    let mut conflict = None;
    resolved.clear();
    for access in raw {
        let entry = &mut slot[access.addr as usize];
        if *entry == EMPTY {
            *entry = resolved.len() as u32;
            resolved.push(*access);
            continue;
        }
        let first = &mut resolved[*entry as usize];
        let clash = StepConflict {
            addr: access.addr,
            pids: [first.pid, access.pid],
            values: [first.value, access.value],
        };
        match variant {
            Variant::Erew | Variant::Crew => StepConflict::keep(&mut conflict, clash),
            Variant::CrcwCommon if first.value != access.value => {
                StepConflict::keep(&mut conflict, clash);
            }
            Variant::CrcwCommon | Variant::CrcwPriority => {}
            Variant::CrcwArbitrary => first.value = access.value,
            Variant::CrcwFetchOp(op) => first.value = op.apply(first.value, access.value),
        }
    }
    for access in resolved.iter() {
        slot[access.addr as usize] = EMPTY;
    }
    conflict
}

/// Combines the fetch-ops of `raw` (sorted by pid) into one per address in `resolved`:
/// `prefix[k]` gets the fold of the contributions of lower pids at `raw[k]`'s address (the
/// identity for the first), and `rix[k]` the index in `resolved` of that address.
pub fn combine_fetch(
    op: FetchOp,
    raw: &[Access],
    slot: &mut [u32],
    resolved: &mut Vec<Access>,
    prefix: &mut [i64],
    rix: &mut [u32],
) {
    resolved.clear();
    for (k, access) in raw.iter().enumerate() {
        let entry = &mut slot[access.addr as usize];
        if *entry == EMPTY {
            *entry = resolved.len() as u32;
            resolved.push(*access);
            prefix[k] = op.identity();
        } else {
            let first = &mut resolved[*entry as usize];
            prefix[k] = first.value;
            first.value = op.apply(first.value, access.value);
        }
        rix[k] = *entry;
    }
    for access in resolved.iter() {
        slot[access.addr as usize] = EMPTY;
    }
}
