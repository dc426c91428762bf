//! Packets and their keys (Baude, Section 5; Choices 13 and 19): a packet's key orders the
//! forward pass's merge; packets for one address combine by the variant's rule, fetch-and-ops
//! with per-part offsets.

use netcore::pram::{Access, AccessKind, Variant};

use crate::error::Error;

/// A packet's key: `(rank, dest, addr, tag)`, compared lexicographically; `tag = 0` with
/// combining, the pid without (Choice 13). Two 64-bit halves (`hi = rank·2^32 + dest`,
/// `lo = addr·2^32 + tag`) order as the 128-bit number `hi·2^64 + lo` would, with 8-byte
/// alignment, so a packet and a slot carry no padding of a 16-aligned `u128`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Key {
    pub(super) hi: u64,
    pub(super) lo: u64,
}

pub(super) fn key(rank: u32, dest: u32, addr: u32, tag: u32) -> Key {
    Key {
        hi: (u64::from(rank) << 32) | u64::from(dest),
        lo: (u64::from(addr) << 32) | u64::from(tag),
    }
}

pub(super) fn key_dest(k: Key) -> u32 {
    // The dest field: the low 32 bits of the high half.
    (k.hi & 0xffff_ffff) as u32
}

pub(super) const INF: Key = Key { hi: u64::MAX, lo: u64::MAX };

impl Key {
    /// The next key (`INF` stays `INF`), as `u128::saturating_add(1)` would give.
    pub(super) fn succ(self) -> Key {
        match self.lo.checked_add(1) {
            Some(lo) => Key { hi: self.hi, lo },
            None => match self.hi.checked_add(1) {
                Some(hi) => Key { hi, lo: 0 },
                None => INF,
            },
        }
    }
}

/// Reads `(pid, addr)` as netcore accesses.
pub(super) fn reads_as_accesses(reads: &[(u32, u32)]) -> Vec<Access> {
    reads
        .iter()
        .map(|&(pid, addr)| Access { pid, kind: AccessKind::Read, addr: u64::from(addr), value: 0 })
        .collect()
}

/// A request packet: one access, or several combined (Choice 19).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Packet {
    pub(super) key: Key,
    pub(super) addr: u32,
    pub(super) kind: AccessKind,
    /// A write's surviving value under the variant's rule, or a fetch-and-op's fold of the
    /// contributions (unused for reads).
    pub(super) value: i64,
    /// The least and greatest pid the packet carries (Priority and Arbitrary writes).
    pub(super) lo: u32,
    pub(super) hi: u32,
    /// The pids whose requests the packet carries, in serialization order, when there are
    /// two or more; empty for a packet of one access, whose pid is `lo` ([`Packet::pids`]):
    /// a packet that has not combined, as most have not, owns no heap allocation, and a
    /// hop's digest reads no second cache line for its pid.
    pub(super) more: Vec<u32>,
}

impl Packet {
    /// The pids whose requests the packet carries, in serialization order (Choice 19).
    pub(super) fn pids(&self) -> &[u32] {
        if self.more.is_empty() { std::slice::from_ref(&self.lo) } else { &self.more }
    }

    /// [`Packet::pids`], owned.
    pub(super) fn into_pids(self) -> Vec<u32> {
        if self.more.is_empty() { vec![self.lo] } else { self.more }
    }
}

/// The conflict error of two packets for one address under `variant`.
pub(super) fn clash(variant: Variant, a: &Packet, b: &Packet, rule: &'static str) -> Error {
    let pids = [a.lo.min(b.lo), a.lo.max(b.lo)];
    Error::Conflict { addr: u64::from(a.addr), pids, rule: format!("{rule} ({variant})") }
}

/// Combines packet `b` (a later part) into `a` by the variant's rule (Choice 19): reads merge
/// (an error under EREW); writes keep the Priority (least pid), Arbitrary (greatest pid),
/// Common (equal values) or fetch-op (fold) value (an error under EREW and CREW); fetch-and-ops
/// fold their contributions. Returns `b`'s offset: for a fetch-and-op the fold of the parts
/// before it, so that its reply is `x op offset` when the combined packet is answered `x`.
pub(super) fn combine(variant: Variant, a: &mut Packet, b: Packet) -> Result<Option<i64>, Error> {
    let mut offset = None;
    match (a.kind, variant) {
        (AccessKind::Read, Variant::Erew) => {
            return Err(clash(variant, a, &b, "exclusive read"));
        }
        (AccessKind::Read, _) => {}
        (AccessKind::Write, Variant::Erew | Variant::Crew) => {
            return Err(clash(variant, a, &b, "exclusive write"));
        }
        (AccessKind::Write, Variant::CrcwCommon) if a.value != b.value => {
            return Err(clash(variant, a, &b, "common write: equal values"));
        }
        (AccessKind::Write, Variant::CrcwCommon) => {}
        (AccessKind::Write, Variant::CrcwPriority) if b.lo < a.lo => a.value = b.value,
        (AccessKind::Write, Variant::CrcwArbitrary) if b.hi > a.hi => a.value = b.value,
        (AccessKind::Write, Variant::CrcwPriority | Variant::CrcwArbitrary) => {}
        (AccessKind::Write, Variant::CrcwFetchOp(op)) => a.value = op.apply(a.value, b.value),
        (AccessKind::Fetch(op), _) => {
            offset = Some(a.value);
            a.value = op.apply(a.value, b.value);
        }
    }
    // `a.lo` is still `a`'s only pid if it has one.
    if a.more.is_empty() {
        a.more.push(a.lo);
    }
    if b.more.is_empty() {
        a.more.push(b.lo);
    } else {
        a.more.extend(b.more);
    }
    a.lo = a.lo.min(b.lo);
    a.hi = a.hi.max(b.hi);
    Ok(offset)
}
