//! What a sub-PRAM's steps read and write (paper Section 2.1; `docs/models/hpram.md`, Choices:
//! Memory blocks are contiguous and in child order): in non-uniform memory its own block; in
//! uniform memory an [`Overlay`] of the whole memory — a read-only view of the
//! parent at partition entry, the sub-PRAM's own writes, and a [`Footprint`] of every access
//! in its subtree, which the determinacy checker ([`check_siblings`]) compares at the join.

use std::collections::BTreeMap;

use crate::async_comm::{Accessor, AsyncKind};
use crate::error::HpramError;
use crate::word::Word;

/// The memory a sub-PRAM's steps address.
#[derive(Debug)]
pub(crate) enum Mem<'a> {
    /// A plain array: a non-uniform block, or the uniform root's whole memory.
    Block(&'a mut [Word]),
    /// A uniform sub-PRAM's view of the whole memory.
    Overlay(Overlay<'a>),
}

/// A uniform sub-PRAM's memory: the parent as it was at partition entry, plus its own writes.
#[derive(Debug)]
pub(crate) struct Overlay<'a> {
    parent: &'a Mem<'a>,
    writes: BTreeMap<usize, Word>,
    pub(crate) footprint: Footprint,
}

/// What a finished uniform child hands back: its writes and its subtree's footprint.
pub(crate) type ChildWrites = (BTreeMap<usize, Word>, Footprint);

impl<'a> Overlay<'a> {
    pub(crate) fn new(parent: &'a Mem<'a>) -> Overlay<'a> {
        Overlay { parent, writes: BTreeMap::new(), footprint: Footprint::default() }
    }
}

impl Mem<'_> {
    /// An overlay's writes and footprint (`None` for a block).
    pub(crate) fn into_child_writes(self) -> Option<ChildWrites> {
        match self {
            Mem::Block(_) => None,
            Mem::Overlay(o) => Some((o.writes, o.footprint)),
        }
    }
}

impl Mem<'_> {
    /// The addressable words.
    pub(crate) fn len(&self) -> usize {
        match self {
            Mem::Block(words) => words.len(),
            Mem::Overlay(o) => o.parent.len(),
        }
    }

    pub(crate) fn get(&self, addr: usize) -> Word {
        match self {
            Mem::Block(words) => words[addr],
            Mem::Overlay(o) => o.writes.get(&addr).copied().unwrap_or_else(|| o.parent.get(addr)),
        }
    }

    pub(crate) fn set(&mut self, addr: usize, value: Word) {
        match self {
            Mem::Block(words) => words[addr] = value,
            Mem::Overlay(o) => {
                o.writes.insert(addr, value);
            }
        }
    }

    pub(crate) fn footprint_mut(&mut self) -> Option<&mut Footprint> {
        match self {
            Mem::Block(_) => None,
            Mem::Overlay(o) => Some(&mut o.footprint),
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Touch {
    gpid: usize,
    step: u64,
    value: Word,
}

/// The accesses of one cell in a subtree.
#[derive(Debug, Clone, Copy, Default)]
struct Cell {
    read: Option<Touch>,
    write: Option<Touch>,
    /// The first write of a value other than `write`'s.
    other: Option<Touch>,
}

/// Per address of a uniform subtree: read or not, the first written value, whether a different
/// value was written too, and the first access of each kind.
#[derive(Debug, Clone, Default)]
pub(crate) struct Footprint {
    cells: BTreeMap<usize, Cell>,
}

impl Footprint {
    pub(crate) fn read(&mut self, addr: usize, gpid: usize, step: u64, value: Word) {
        let cell = self.cells.entry(addr).or_default();
        cell.read.get_or_insert(Touch { gpid, step, value });
    }

    pub(crate) fn write(&mut self, addr: usize, gpid: usize, step: u64, value: Word) {
        let touch = Touch { gpid, step, value };
        let cell = self.cells.entry(addr).or_default();
        match cell.write {
            None => cell.write = Some(touch),
            Some(first) if first.value != value && cell.other.is_none() => cell.other = Some(touch),
            Some(_) => {}
        }
    }

    /// Adds a child's footprint (its subtree is part of this one).
    fn absorb(&mut self, child: &Footprint) {
        for (&addr, c) in &child.cells {
            if let Some(t) = c.read {
                self.read(addr, t.gpid, t.step, t.value);
            }
            for t in [c.write, c.other].into_iter().flatten() {
                self.write(addr, t.gpid, t.step, t.value);
            }
        }
    }
}

fn accessor(child: usize, t: Touch) -> Accessor {
    Accessor { child, gpid: t.gpid, step: t.step, value: t.value }
}

/// The conflict of children `i < j` at one cell, if any; ReadWrite is checked first.
fn pair_conflict(
    i: usize,
    a: &Cell,
    j: usize,
    b: &Cell,
) -> Option<(AsyncKind, Accessor, Accessor)> {
    if let (Some(r), Some(w)) = (a.read, b.write) {
        return Some((AsyncKind::ReadWrite, accessor(i, r), accessor(j, w)));
    }
    if let (Some(w), Some(r)) = (a.write, b.read) {
        return Some((AsyncKind::ReadWrite, accessor(i, w), accessor(j, r)));
    }
    let (Some(wa), Some(wb)) = (a.write, b.write) else { return None };
    let second = match (wa.value != wb.value, a.other, b.other) {
        (true, _, _) => wb,
        (false, Some(o), _) => {
            return Some((
                AsyncKind::WriteWrite { v1: o.value, v2: wb.value },
                accessor(i, o),
                accessor(j, wb),
            ));
        }
        (false, None, Some(o)) => o,
        (false, None, None) => return None,
    };
    Some((
        AsyncKind::WriteWrite { v1: wa.value, v2: second.value },
        accessor(i, wa),
        accessor(j, second),
    ))
}

/// The determinacy checker (`docs/models/hpram.md`, Choices: The determinacy checker is literal and
/// sound, not complete): the smallest conflicting address, and there the lexicographically smallest
/// pair of children, preferring ReadWrite.
pub(crate) fn check_siblings(path: &str, children: &[&Footprint]) -> Result<(), HpramError> {
    let mut by_addr: BTreeMap<usize, Vec<(usize, &Cell)>> = BTreeMap::new();
    for (index, footprint) in children.iter().enumerate() {
        for (&addr, cell) in &footprint.cells {
            by_addr.entry(addr).or_default().push((index, cell));
        }
    }
    for (addr, cells) in by_addr {
        let mut best: Option<(AsyncKind, Accessor, Accessor)> = None;
        for (x, &(i, a)) in cells.iter().enumerate() {
            for &(j, b) in &cells[x + 1..] {
                let Some(found) = pair_conflict(i, a, j, b) else { continue };
                let better = match &best {
                    None => true,
                    Some((kind, _, _)) => {
                        matches!(found.0, AsyncKind::ReadWrite)
                            && !matches!(kind, AsyncKind::ReadWrite)
                    }
                };
                if better {
                    best = Some(found);
                }
            }
        }
        if let Some((kind, first, second)) = best {
            return Err(HpramError::AsyncCommunication {
                partition_path: path.to_string(),
                addr,
                kind,
                first,
                second,
            });
        }
    }
    Ok(())
}

/// After a successful check: the children's writes, in index order, and their footprints go
/// into the parent.
pub(crate) fn merge_children(parent: &mut Mem<'_>, children: Vec<ChildWrites>) {
    for (writes, footprint) in children {
        for (addr, value) in writes {
            parent.set(addr, value);
        }
        if let Some(own) = parent.footprint_mut() {
            own.absorb(&footprint);
        }
    }
}
