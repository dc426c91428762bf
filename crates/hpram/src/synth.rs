//! Synthetic step shapes (`docs/models/hpram.md`, Choices: Exact cases and studies are ours): `c`
//! is a computation step, `m` a communication step in which every processor is idle, and
//! `[P_1:S_1|...|P_Q:S_Q]` a general partition step whose children run shapes `S_i` (possibly
//! empty). E.g. `cmc[4:mcm|2:cccm|2:]m`.
//!
//! The access items (Choices: Errors from configs) are one communication step each, every
//! processor on the first cell of its home block, `home(0)`, unless said otherwise: `r` reads it
//! into register 0, `w` writes `gpid + 1` there, `x` reads it on even pids and writes `gpid + 1`
//! on odd ones, `f` fetch-ops `gpid + 1` into it, `b` block-reads one word from it, `o` reads
//! `home(M')`, one past the home block (the next sibling's first cell in uniform memory), and `a`
//! is `any` (always false). They let a config reach each step-level error of the model.

use std::sync::Arc;

use crate::error::HpramError;
use crate::proc::MemOp;
use crate::sub_pram::{HAlgorithm, Part, SubPram};
use crate::word::Word;

/// One item of a shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// A computation step.
    Compute,
    /// A communication step (all idle).
    Comm,
    /// A communication step in which every processor issues `access` (letters `rwxfbo`).
    Access(Access),
    /// `any` (always false).
    Any,
    /// A partition step: `(P_i, shape)` per child.
    Partition(Vec<(usize, Shape)>),
}

/// The access of an [`Item::Access`] step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// `r`: read `home(0)`.
    Read,
    /// `w`: write `gpid + 1` to `home(0)`.
    Write,
    /// `x`: even pids read `home(0)`, odd ones write `gpid + 1` there.
    ReadWrite,
    /// `f`: fetch-op `gpid + 1` into `home(0)`.
    Fetch,
    /// `b`: block-read one word from `home(0)`.
    Block,
    /// `o`: read `home(M')`, one past the home block.
    Outside,
}

/// A sequence of steps and partitions, runnable as an [`HAlgorithm`] named `Shape`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Shape(pub Vec<Item>);

impl Shape {
    /// Parses the shape syntax; the message names the byte offset and the rule. Partitions
    /// nest at most [`MAX_NESTING`] deep, checked before the parser recurses into a deeper one.
    pub fn parse(text: &str) -> Result<Shape, String> {
        let bytes = text.as_bytes();
        let mut at = 0;
        let shape = parse_seq(bytes, &mut at, 0)?;
        if at != bytes.len() {
            return Err(format!("shape: unexpected `{}` at offset {at}", bytes[at] as char));
        }
        Ok(shape)
    }
}

impl Shape {
    /// A random shape for `procs` processors: at most 6 items, each a computation step, an idle
    /// communication step or (while `depth > 0`) a general partition into random sizes summing
    /// to `procs`, whose children get random shapes nested at most `depth - 1` deeper. `below(n)`
    /// draws uniformly from `0..n` (`n >= 1`); the generator is the caller's seeded stream.
    pub fn random(below: &mut dyn FnMut(u64) -> u64, procs: usize, depth: u32) -> Shape {
        let mut items = Vec::new();
        for _ in 0..below(7) {
            match below(5) {
                0 | 1 => items.push(Item::Compute),
                2 | 3 => items.push(Item::Comm),
                _ if depth > 0 => {
                    let mut sizes = Vec::new();
                    let mut left = procs;
                    while left > 0 {
                        // `below(left) < left`, so `take` is in `1..=left`.
                        let take = 1 + usize::try_from(below(left as u64)).unwrap_or(0);
                        sizes.push(take);
                        left -= take;
                    }
                    let children = sizes
                        .into_iter()
                        .map(|p| (p, Shape::random(below, p, depth - 1)))
                        .collect();
                    items.push(Item::Partition(children));
                }
                _ => items.push(Item::Compute),
            }
        }
        Shape(items)
    }

    /// Whether the shape has a partition step (nested ones sit inside one).
    pub fn partitions(&self) -> bool {
        self.0.iter().any(|item| matches!(item, Item::Partition(_)))
    }

    /// The processor-steps of a full run of the shape on `procs` processors: every step item
    /// counts the processors of its sub-PRAM, a partition its children's (saturating), as
    /// the run's processor-step limit counts them (`docs/models/hpram.md`, Limits).
    pub fn proc_steps(&self, procs: usize) -> u64 {
        self.0.iter().fold(0u64, |sum, item| {
            let steps = match item {
                Item::Partition(children) => children
                    .iter()
                    .fold(0u64, |s, (p, shape)| s.saturating_add(shape.proc_steps(*p))),
                _ => procs as u64,
            };
            sum.saturating_add(steps)
        })
    }

    /// Whether the shape, or a shape nested in it, has an access item (`r w x f b o`): each
    /// writes `gpid + 1` to register 1, so it needs `local_words >= 2`.
    pub fn accesses(&self) -> bool {
        self.0.iter().any(|item| match item {
            Item::Access(_) => true,
            Item::Partition(children) => children.iter().any(|(_, shape)| shape.accesses()),
            _ => false,
        })
    }
}

/// The deepest nesting of partitions a shape may have: a partition nested `k` deep starts
/// level `k + 1`, which must be at most `max_depth <= MAX_DEPTH` (paper Section 2.1's levels;
/// `docs/models/hpram.md`, Limits).
pub const MAX_NESTING: usize = crate::config::MAX_DEPTH as usize - 1;

fn parse_seq(bytes: &[u8], at: &mut usize, nesting: usize) -> Result<Shape, String> {
    let mut items = Vec::new();
    while let Some(&b) = bytes.get(*at) {
        match b {
            b'c' => items.push(Item::Compute),
            b'm' => items.push(Item::Comm),
            b'a' => items.push(Item::Any),
            b'r' => items.push(Item::Access(Access::Read)),
            b'w' => items.push(Item::Access(Access::Write)),
            b'x' => items.push(Item::Access(Access::ReadWrite)),
            b'f' => items.push(Item::Access(Access::Fetch)),
            b'b' => items.push(Item::Access(Access::Block)),
            b'o' => items.push(Item::Access(Access::Outside)),
            b'[' => {
                if nesting >= MAX_NESTING {
                    return Err(format!(
                        "shape: partitions nested at most {MAX_NESTING} deep (a partition nested k deep starts level k + 1 <= max_depth <= {}); `[` at offset {} is nested {} deep",
                        crate::config::MAX_DEPTH,
                        *at,
                        nesting + 1
                    ));
                }
                *at += 1;
                let mut children = Vec::new();
                loop {
                    let start = *at;
                    while bytes.get(*at).is_some_and(u8::is_ascii_digit) {
                        *at += 1;
                    }
                    let procs = std::str::from_utf8(&bytes[start..*at])
                        .ok()
                        .and_then(|s| s.parse().ok())
                        .ok_or_else(|| format!("shape: a child size expected at offset {start}"))?;
                    if bytes.get(*at) != Some(&b':') {
                        return Err(format!("shape: `:` expected at offset {}", *at));
                    }
                    *at += 1;
                    children.push((procs, parse_seq(bytes, at, nesting + 1)?));
                    match bytes.get(*at) {
                        Some(b'|') => *at += 1,
                        Some(b']') => break,
                        _ => return Err(format!("shape: `|` or `]` expected at offset {}", *at)),
                    }
                }
                items.push(Item::Partition(children));
            }
            _ => break,
        }
        *at += 1;
    }
    Ok(Shape(items))
}

impl HAlgorithm for Shape {
    fn name(&self) -> String {
        "Shape".to_string()
    }

    fn run(&self, sp: &mut SubPram<'_>) -> Result<(), HpramError> {
        for item in &self.0 {
            match item {
                Item::Compute => sp.compute(1, |_| {})?,
                Item::Comm => sp.comm(|_| MemOp::Idle)?,
                Item::Any => {
                    sp.any(|_| false)?;
                }
                Item::Access(access) => {
                    let (first, outside) = (sp.home(0), sp.home(sp.mem_len()));
                    sp.comm(|p| {
                        // A full run has fewer than 2^32 processors (its memory limit).
                        // Register 1 exists when `local_words >= 2` (the driver refuses less
                        // for a shape with access items); without it, an access naming
                        // register 1 is the machine's `LocalMemoryOverflow`.
                        if let Some(r1) = p.local.get_mut(1) {
                            *r1 = Word::try_from(p.gpid).unwrap_or(Word::MAX).wrapping_add(1);
                        }
                        match access {
                            Access::Read => MemOp::Read { addr: first, dst: 0 },
                            Access::Write => MemOp::Write { addr: first, src: 1 },
                            Access::ReadWrite if p.pid % 2 == 0 => {
                                MemOp::Read { addr: first, dst: 0 }
                            }
                            Access::ReadWrite => MemOp::Write { addr: first, src: 1 },
                            Access::Fetch => MemOp::FetchOp { addr: first, src: 1, dst: 0 },
                            Access::Block => MemOp::BlockRead { addr: first, len: 1, dst: 0 },
                            Access::Outside => MemOp::Read { addr: outside, dst: 0 },
                        }
                    })?;
                }
                Item::Partition(children) => {
                    let parts = children
                        .iter()
                        .map(|(procs, shape)| Part::new(*procs, Arc::new(shape.clone()), vec![]))
                        .collect();
                    sp.partition(parts)?;
                }
            }
        }
        Ok(())
    }
}
