//! Collective communication steps (`docs/models/hpram.md`, Choices: `scan` is an inclusive prefix):
//! `scan` and `multiprefix` (sub-model features) and `any`, the only way an algorithm branches on data. Each counts
//! as one communication step.

use std::collections::BTreeMap;

use netcore::pram::FetchOp;

use crate::word::Word;

use crate::error::HpramError;
use crate::proc::Proc;
use crate::sub_pram::SubPram;
use crate::trace;

/// Which prefix collective a step is.
#[derive(Clone, Copy)]
enum Prefix {
    /// One prefix over all processors.
    Scan,
    /// One prefix per label, the label in this register.
    Multi(usize),
}

impl SubPram<'_> {
    /// Inclusive prefix over processors: `local[dst]` of processor `i` becomes
    /// `local[src]_0 op ... op local[src]_i`. Needs the sub-model's `scan`.
    pub fn scan(&mut self, op: FetchOp, src: usize, dst: usize) -> Result<(), HpramError> {
        self.prefix(Prefix::Scan, op, src, dst)
    }

    /// Multiprefix (paper Section 2.1): the inclusive prefix among the processors with the
    /// same label, `local[dst]` of processor `i` becoming the `op`-fold of `local[src]_j` over
    /// `j <= i` with `local[label]_j = local[label]_i`, in pid order. Needs the sub-model's
    /// `multiprefix`; one communication step.
    pub fn multiprefix(
        &mut self,
        op: FetchOp,
        label: usize,
        src: usize,
        dst: usize,
    ) -> Result<(), HpramError> {
        self.prefix(Prefix::Multi(label), op, src, dst)
    }

    /// `scan` and `multiprefix`: checks the feature and the registers (processor 0 stands for
    /// all: every processor names the same registers), then folds in pid order.
    fn prefix(
        &mut self,
        kind: Prefix,
        op: FetchOp,
        src: usize,
        dst: usize,
    ) -> Result<(), HpramError> {
        self.issue(1)?;
        self.node.c += 1;
        self.in_phase = false;
        let step = self.step_index();
        let (name, enabled, label) = match kind {
            Prefix::Scan => ("scan", self.node.model.scan, None),
            Prefix::Multi(label) => ("multiprefix", self.node.model.multiprefix, Some(label)),
        };
        if !enabled {
            return Err(HpramError::UnsupportedOp {
                path: self.node.path.clone(),
                step,
                pid: 0,
                gpid: self.node.offset,
                op: name,
                model: self.node.model.to_string(),
            });
        }
        for register in [Some(src), Some(dst), label].into_iter().flatten() {
            self.check_reg(step, 0, register, 1)?;
        }
        if self.shared.count_only {
            return Ok(());
        }
        if self.shared.record {
            self.log.push(crate::step_log::Ev::Unsupported(name));
        }
        let words = self.shared.local_words;
        match label {
            None => {
                self.hash.word(trace::SCAN);
                let mut acc = op.identity();
                for regs in self.local.chunks_mut(words) {
                    acc = op.apply(acc, regs[src]);
                    regs[dst] = acc;
                    self.hash.word(acc as u64);
                }
            }
            Some(label) => {
                self.hash.word(trace::MULTIPREFIX);
                let mut acc: BTreeMap<Word, Word> = BTreeMap::new();
                for regs in self.local.chunks_mut(words) {
                    let sum = acc.entry(regs[label]).or_insert(op.identity());
                    *sum = op.apply(*sum, regs[src]);
                    regs[dst] = *sum;
                    self.hash.word(regs[label] as u64);
                    self.hash.word(*sum as u64);
                }
            }
        }
        Ok(())
    }

    /// Whether `pred` holds for some processor (one communication step, on every sub-model).
    /// In count-only mode it is `DataDependentControl`: there is no data to branch on.
    pub fn any(&mut self, pred: impl Fn(&Proc<'_>) -> bool + Sync) -> Result<bool, HpramError> {
        use rayon::prelude::*;
        self.issue(1)?;
        self.node.c += 1;
        self.in_phase = false;
        if self.shared.count_only {
            return Err(HpramError::DataDependentControl {
                path: self.node.path.clone(),
                step: self.step_index(),
            });
        }
        if self.shared.record {
            self.log.push(crate::step_log::Ev::Unsupported("any"));
        }
        let (offset, nprocs, params) = (self.node.offset, self.node.procs, self.params);
        let limit = self.private_words();
        let found = self
            .local
            .par_chunks_mut(self.shared.local_words)
            .enumerate()
            .with_min_len(crate::sub_pram::GRAIN)
            .any(|(pid, local)| {
                let local = &mut local[..limit];
                pred(&Proc { pid, gpid: offset + pid, nprocs, local, params })
            });
        self.hash.word(trace::ANY);
        self.hash.word(u64::from(found));
        Ok(found)
    }
}
