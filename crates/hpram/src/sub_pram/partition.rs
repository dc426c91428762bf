//! The partition step (spec §1.1, §2.2): validation in the spec's order, the non-uniform
//! split of memory and private state into disjoint child blocks, children run with rayon and
//! joined in index order.

use std::sync::Arc;

use rayon::prelude::*;

use crate::config::{SubModel, Word};
use crate::cost_tree::CostNode;
use crate::error::HpramError;
use crate::sub_pram::{HAlgorithm, SubPram};

/// One sub-PRAM of a general partition step: `P_i` processors running `alg(params)`.
#[derive(Clone)]
pub struct Part {
    /// `P_i`.
    pub procs: usize,
    /// The algorithm.
    pub alg: Arc<dyn HAlgorithm>,
    /// Its parameters.
    pub params: Vec<Word>,
    /// Its sub-model, if it differs from the parent's.
    pub model: Option<SubModel>,
}

impl Part {
    /// `P_i` processors running `alg(params)` under the parent's sub-model.
    pub fn new(procs: usize, alg: Arc<dyn HAlgorithm>, params: Vec<Word>) -> Part {
        Part { procs, alg, params, model: None }
    }

    /// The same part under another sub-model.
    pub fn with_model(self, model: SubModel) -> Part {
        Part { model: Some(model), ..self }
    }
}

/// Checks `Q >= 1`, then sizes `>= 1` (first index), then `Σ P_i = P'` (spec §1.7 order).
fn check_sizes(path: &str, parent: usize, sizes: &[usize]) -> Result<(), HpramError> {
    if sizes.is_empty() {
        return Err(HpramError::EmptySubPram { path: path.to_string(), index: 0 });
    }
    if let Some(index) = sizes.iter().position(|&p| p == 0) {
        return Err(HpramError::EmptySubPram { path: path.to_string(), index });
    }
    let got = sizes.iter().fold(0usize, |sum, &p| sum.saturating_add(p));
    if got != parent {
        return Err(HpramError::PartitionSizeMismatch {
            path: path.to_string(),
            expected: parent,
            got,
            sizes: sizes.to_vec(),
        });
    }
    Ok(())
}

/// The non-uniform block lengths `M'·P_i/P'`, contiguous and in child order.
fn block_lengths(
    path: &str,
    mem: usize,
    parent: usize,
    sizes: &[usize],
) -> Result<Vec<usize>, HpramError> {
    sizes
        .iter()
        .map(|&p| {
            let words = (mem as u128) * (p as u128);
            if words.is_multiple_of(parent as u128) {
                Ok((words / parent as u128) as usize)
            } else {
                Err(HpramError::NonIntegralBlock {
                    path: path.to_string(),
                    mem,
                    sizes: sizes.to_vec(),
                })
            }
        })
        .collect()
}

impl SubPram<'_> {
    pub(super) fn run_partition(&mut self, parts: Vec<Part>) -> Result<(), HpramError> {
        let path = self.partition_path();
        let sizes: Vec<usize> = parts.iter().map(|p| p.procs).collect();
        check_sizes(&path, self.procs(), &sizes)?;
        let blocks = block_lengths(&path, self.mem.len(), self.procs(), &sizes)?;
        let level = self.node.level + 1;
        if level > self.shared.max_depth {
            return Err(HpramError::MaxDepthExceeded {
                path,
                level,
                max_depth: self.shared.max_depth,
            });
        }
        let shared = self.shared;
        let mut mem_rest: &mut [Word] = &mut *self.mem;
        let mut local_rest: &mut [Word] = &mut *self.local;
        let (mut offset, mut mem_base) = (self.node.offset, self.node.mem_base);
        let mut children = Vec::with_capacity(parts.len());
        for (index, part) in parts.iter().enumerate() {
            let (mem, rest) = std::mem::take(&mut mem_rest).split_at_mut(blocks[index]);
            mem_rest = rest;
            let (local, rest) =
                std::mem::take(&mut local_rest).split_at_mut(part.procs * shared.local_words);
            local_rest = rest;
            let model = part.model.unwrap_or(self.node.model);
            children.push(SubPram::new(
                shared,
                format!("{path}[{index}]"),
                part.alg.name(),
                level,
                offset,
                mem_base,
                model,
                mem,
                local,
                &part.params,
            ));
            offset += part.procs;
            mem_base += blocks[index];
        }
        let results: Vec<Result<CostNode, HpramError>> = children
            .into_par_iter()
            .zip(parts.par_iter())
            .map(|(mut child, part)| {
                part.alg.run(&mut child)?;
                Ok(child.finish())
            })
            .collect();
        // The lowest-index failing child's error wins (spec §2.2).
        let children = results.into_iter().collect::<Result<Vec<_>, _>>()?;
        self.node.partitions.push(children);
        Ok(())
    }
}
