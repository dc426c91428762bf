//! The partition step (paper Section 2.1): validation (in the order of `docs/models/hpram.md`,
//! Choices: Validation order), private state split into disjoint child slices, memory split into
//! disjoint child blocks (non-uniform) or given to each child as an overlay (uniform), children
//! run with rayon and joined in index order,
//! then (uniform) checked for asynchronous communication and merged.

use std::sync::Arc;

use rayon::prelude::*;

use crate::config::SubModel;
use crate::cost_tree::{CostNode, Siblings, push_sibling};
use crate::error::HpramError;
use crate::memory::{ChildWrites, Mem, Overlay, check_siblings, merge_children};
use crate::step_log::{Ev, NodeLog};
use crate::sub_pram::{HAlgorithm, SubPram};
use crate::trace;
use crate::word::Word;

/// What a finished child hands back: its cost node, (uniform) its writes and footprint, and
/// its replay hash.
type ChildDone = ((CostNode, Option<ChildWrites>, u64), NodeLog);

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

/// The children's results joined in index order (`docs/models/hpram.md`, Choices:
/// Lowest-index error): the lowest-index failing child's error, except that a
/// [`HpramError::WorkLimit`] anywhere wins, then a [`HpramError::ProcStepLimit`], then a
/// [`HpramError::RecordLimit`]. Siblings
/// share the counters, so which of them trips one, and whether a sibling meets its own error
/// before the limit, depends on how the threads interleave; whether some step passes the
/// limit does not.
fn join_children<T>(results: Vec<Result<T, HpramError>>) -> Result<Vec<T>, HpramError> {
    let shared = |wanted: fn(&HpramError) -> bool| {
        results.iter().find_map(|r| r.as_ref().err().filter(|e| wanted(e)).cloned())
    };
    let work = shared(|e| matches!(e, HpramError::WorkLimit { .. }))
        .or_else(|| shared(|e| matches!(e, HpramError::ProcStepLimit { .. })))
        .or_else(|| shared(|e| matches!(e, HpramError::RecordLimit { .. })));
    if let Some(e) = work {
        return Err(e);
    }
    results.into_iter().collect()
}

/// Checks `Q >= 1`, then sizes `>= 1` (first index), then `Σ P_i = P'` (`docs/models/hpram.md`,
/// Choices: Validation order).
fn check_sizes(path: &str, parent: usize, sizes: &[usize]) -> Result<(), HpramError> {
    if sizes.is_empty() {
        return Err(HpramError::EmptySubPram { path: path.to_string(), index: 0 });
    }
    if let Some(index) = sizes.iter().position(|&p| p == 0) {
        return Err(HpramError::EmptySubPram { path: path.to_string(), index });
    }
    let got: u128 = sizes.iter().map(|&p| p as u128).sum();
    if got != parent as u128 {
        return Err(HpramError::PartitionSizeMismatch {
            path: path.to_string(),
            expected: parent,
            sizes: sizes.to_vec(),
        });
    }
    Ok(())
}

/// The block length `M'·p/P'` of a child of `p` processors. A non-integral split is an error in
/// non-uniform memory (naming every size, `sizes()`); in uniform memory the home blocks (used
/// only by `home`) are rounded down.
fn block_length(
    path: &str,
    (mem, parent, p): (usize, usize, usize),
    uniform: bool,
    sizes: impl FnOnce() -> Vec<usize>,
) -> Result<usize, HpramError> {
    let words = (mem as u128) * (p as u128);
    if uniform || words.is_multiple_of(parent as u128) {
        Ok((words / parent as u128) as usize)
    } else {
        Err(HpramError::NonIntegralBlock { path: path.to_string(), mem, sizes: sizes() })
    }
}

/// The block lengths of every child, contiguous and in child order.
fn block_lengths(
    path: &str,
    mem: usize,
    parent: usize,
    sizes: &[usize],
    uniform: bool,
) -> Result<Vec<usize>, HpramError> {
    sizes
        .iter()
        .map(|&p| block_length(path, (mem, parent, p), uniform, || sizes.to_vec()))
        .collect()
}

/// What makes siblings identical in count-only mode: the same algorithm object (not only the
/// same name: every [`crate::synth::Shape`] is named `Shape`), parameters, processors and
/// sub-model (`docs/models/hpram.md`, Choices: Count-only mode).
fn memo_key(part: &Part) -> (*const (), &[Word], usize, Option<SubModel>) {
    (Arc::as_ptr(&part.alg) as *const (), &part.params, part.procs, part.model)
}

impl SubPram<'_> {
    pub(super) fn run_partition(&mut self, parts: Vec<Part>) -> Result<(), HpramError> {
        let path = self.partition_path();
        let sizes: Vec<usize> = parts.iter().map(|p| p.procs).collect();
        check_sizes(&path, self.procs(), &sizes)?;
        let blocks =
            block_lengths(&path, self.node.mem_len, self.procs(), &sizes, self.shared.uniform)?;
        let level = self.child_level(&path)?;
        if self.shared.count_only {
            return self.count_partition(&path, level, &parts, &blocks);
        }
        let shared = self.shared;
        let results: Vec<Result<ChildDone, HpramError>> = {
            // Child memories: disjoint blocks (non-uniform) or overlays of this sub-PRAM's
            // memory as it is now (uniform).
            let mems: Vec<Mem<'_>> = if shared.uniform {
                let view: &Mem<'_> = &self.mem;
                blocks.iter().map(|_| Mem::Overlay(Overlay::new(view))).collect()
            } else {
                let Mem::Block(words) = &mut self.mem else {
                    unreachable!("a non-uniform sub-PRAM owns a block")
                };
                let mut rest: &mut [Word] = words;
                blocks
                    .iter()
                    .map(|&len| {
                        let (mine, tail) = std::mem::take(&mut rest).split_at_mut(len);
                        rest = tail;
                        Mem::Block(mine)
                    })
                    .collect()
            };
            let mut local_rest: &mut [Word] = &mut *self.local;
            let (mut offset, mut mem_base) = (self.node.offset, self.node.mem_base);
            let mut children = Vec::with_capacity(parts.len());
            for ((index, part), mem) in parts.iter().enumerate().zip(mems) {
                let (local, rest) =
                    std::mem::take(&mut local_rest).split_at_mut(part.procs * shared.local_words);
                local_rest = rest;
                let model = part.model.unwrap_or(self.node.model);
                children.push(SubPram::new(
                    shared,
                    format!("{path}[{index}]"),
                    part.alg.name(),
                    level,
                    (offset, part.procs),
                    (mem_base, blocks[index]),
                    model,
                    mem,
                    local,
                    &part.params,
                ));
                offset += part.procs;
                mem_base += blocks[index];
            }
            children
                .into_par_iter()
                .zip(parts.par_iter())
                .map(|(mut child, part)| {
                    part.alg.run(&mut child)?;
                    let log = child.take_log();
                    Ok((child.finish(), log))
                })
                .collect()
        };
        let done = join_children(results)?;
        self.hash.word(trace::PARTITION);
        self.hash.word(sizes.len() as u64);
        sizes.iter().for_each(|&p| self.hash.word(p as u64));
        let mut runs = Vec::new();
        let mut writes = Vec::with_capacity(done.len());
        let mut logs = Vec::new();
        for ((node, child_writes, hash), log) in done {
            logs.push(log);
            self.hash.word(hash);
            push_sibling(&mut runs, Arc::new(node), 1);
            writes.push(child_writes);
        }
        let writes: Vec<ChildWrites> = writes.into_iter().flatten().collect();
        if !writes.is_empty() {
            check_siblings(&path, &writes.iter().map(|(_, f)| f).collect::<Vec<_>>())?;
            merge_children(&mut self.mem, writes);
        }
        if shared.record {
            self.log.push(Ev::Partition(logs));
        }
        self.push_partition(runs);
        Ok(())
    }

    /// The level of this sub-PRAM's children, checked against `max_depth`.
    fn child_level(&self, path: &str) -> Result<u32, HpramError> {
        let level = self.node.level + 1;
        if level > self.shared.max_depth {
            return Err(HpramError::MaxDepthExceeded {
                path: path.to_string(),
                level,
                max_depth: self.shared.max_depth,
            });
        }
        Ok(level)
    }

    /// Count-only `partition{Q, P_i, A}` (`Q·P_i = P'` already checked): one child runs and
    /// stands for all `Q` (`docs/models/hpram.md`, Choices: Count-only mode).
    pub(super) fn count_partition_eq(&mut self, q: usize, part: Part) -> Result<(), HpramError> {
        let path = self.partition_path();
        let (mem, parent) = (self.node.mem_len, self.procs());
        let block = block_length(&path, (mem, parent, part.procs), self.shared.uniform, || {
            vec![part.procs; q]
        })?;
        let level = self.child_level(&path)?;
        let at = (0, self.node.offset, self.node.mem_base);
        let node = self.count_child(&path, level, at, &part, block)?;
        self.push_partition(vec![Siblings { count: q, node: Arc::new(node) }]);
        Ok(())
    }

    /// Count-only general partition: each run of consecutive identical parts (same algorithm
    /// object, parameters, processors and sub-model) runs its first child once.
    fn count_partition(
        &mut self,
        path: &str,
        level: u32,
        parts: &[Part],
        blocks: &[usize],
    ) -> Result<(), HpramError> {
        let mut runs = Vec::new();
        let (mut offset, mut mem_base, mut index) = (self.node.offset, self.node.mem_base, 0);
        while let Some(part) = parts.get(index) {
            let key = memo_key(part);
            let same = parts[index..].iter().take_while(|p| memo_key(p) == key).count();
            let node =
                self.count_child(path, level, (index, offset, mem_base), part, blocks[index])?;
            push_sibling(&mut runs, Arc::new(node), same);
            offset += same * part.procs;
            mem_base += same * blocks[index];
            index += same;
        }
        self.push_partition(runs);
        Ok(())
    }

    /// Runs child `index` at `(offset, mem_base)` in count-only mode: no memory, no registers.
    fn count_child(
        &self,
        path: &str,
        level: u32,
        (index, offset, mem_base): (usize, usize, usize),
        part: &Part,
        block: usize,
    ) -> Result<CostNode, HpramError> {
        let mut child = SubPram::new(
            self.shared,
            format!("{path}[{index}]"),
            part.alg.name(),
            level,
            (offset, part.procs),
            (mem_base, block),
            part.model.unwrap_or(self.node.model),
            Mem::Block(&mut []),
            &mut [],
            &part.params,
        );
        part.alg.run(&mut child)?;
        Ok(child.finish().0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sub_pram::MAX_STEP_CALLS;

    fn other(path: &str) -> HpramError {
        HpramError::DataDependentControl { path: path.to_string(), step: 1 }
    }

    /// Without a work limit the lowest-index error wins; a work limit anywhere wins over
    /// every other error, so the joined result does not depend on which sibling's thread
    /// reached the shared counter first.
    #[test]
    fn join_children_lowest_index_error_and_work_limit_first() {
        let limit = HpramError::WorkLimit { limit: MAX_STEP_CALLS };
        assert_eq!(join_children::<u8>(vec![Ok(1), Ok(2)]), Ok(vec![1, 2]));
        assert_eq!(
            join_children::<u8>(vec![Ok(1), Err(other("a[1]")), Err(other("a[2]"))]),
            Err(other("a[1]"))
        );
        assert_eq!(
            join_children::<u8>(vec![Err(other("a[0]")), Ok(2), Err(limit.clone())]),
            Err(limit.clone())
        );
        assert_eq!(join_children::<u8>(vec![Err(limit.clone()), Err(other("a[1]"))]), Err(limit));
    }
}
