//! Synthetic step shapes (`docs/models/hpram.md`, Choices: Exact cases and studies are ours): `c`
//! is a computation step, `m` a communication step in which every processor is idle, and
//! `[P_1:S_1|...|P_Q:S_Q]` a general partition step whose children run shapes `S_i` (possibly
//! empty). E.g. `cmc[4:mcm|2:cccm|2:]m`.

use std::sync::Arc;

use crate::error::HpramError;
use crate::proc::MemOp;
use crate::sub_pram::{HAlgorithm, Part, SubPram};

/// One item of a shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// A computation step.
    Compute,
    /// A communication step (all idle).
    Comm,
    /// A partition step: `(P_i, shape)` per child.
    Partition(Vec<(usize, Shape)>),
}

/// A sequence of steps and partitions, runnable as an [`HAlgorithm`] named `Shape`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Shape(pub Vec<Item>);

impl Shape {
    /// Parses the shape syntax; the message names the byte offset and the rule.
    pub fn parse(text: &str) -> Result<Shape, String> {
        let bytes = text.as_bytes();
        let mut at = 0;
        let shape = parse_seq(bytes, &mut at)?;
        if at != bytes.len() {
            return Err(format!("shape: unexpected `{}` at offset {at}", bytes[at] as char));
        }
        Ok(shape)
    }
}

fn parse_seq(bytes: &[u8], at: &mut usize) -> Result<Shape, String> {
    let mut items = Vec::new();
    while let Some(&b) = bytes.get(*at) {
        match b {
            b'c' => items.push(Item::Compute),
            b'm' => items.push(Item::Comm),
            b'[' => {
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
                    children.push((procs, parse_seq(bytes, at)?));
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
