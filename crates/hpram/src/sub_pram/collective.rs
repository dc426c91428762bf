//! Collective communication steps (`docs/models/hpram.md`, Choices: `scan` is an inclusive prefix):
//! `scan` (a sub-model feature) and `any`, the only way an algorithm branches on data. Each counts
//! as one communication step.

use netcore::pram::FetchOp;

use crate::error::HpramError;
use crate::proc::Proc;
use crate::sub_pram::SubPram;
use crate::trace;

impl SubPram<'_> {
    /// Inclusive prefix over processors: `local[dst]` of processor `i` becomes
    /// `local[src]_0 op ... op local[src]_i`. Needs the sub-model's `scan`.
    pub fn scan(&mut self, op: FetchOp, src: usize, dst: usize) -> Result<(), HpramError> {
        self.node.c += 1;
        self.in_phase = false;
        let step = self.step_index();
        let words = self.shared.local_words;
        if !self.node.model.scan {
            return Err(HpramError::UnsupportedOp {
                path: self.node.path.clone(),
                step,
                pid: 0,
                gpid: self.node.offset,
                op: "scan",
                model: self.node.model.to_string(),
            });
        }
        for register in [src, dst] {
            if register >= words {
                return Err(HpramError::LocalMemoryOverflow {
                    path: self.node.path.clone(),
                    step,
                    pid: 0,
                    gpid: self.node.offset,
                    register,
                    local_words: words,
                });
            }
        }
        if self.shared.count_only {
            return Ok(());
        }
        self.hash.word(trace::SCAN);
        let mut acc = op.identity();
        for regs in self.local.chunks_mut(words) {
            acc = op.apply(acc, regs[src]);
            regs[dst] = acc;
            self.hash.word(acc as u64);
        }
        Ok(())
    }

    /// Whether `pred` holds for some processor (one communication step, on every sub-model).
    /// In count-only mode it is `DataDependentControl`: there is no data to branch on.
    pub fn any(&mut self, pred: impl Fn(&Proc<'_>) -> bool + Sync) -> Result<bool, HpramError> {
        use rayon::prelude::*;
        self.node.c += 1;
        self.in_phase = false;
        if self.shared.count_only {
            return Err(HpramError::DataDependentControl {
                path: self.node.path.clone(),
                step: self.step_index(),
            });
        }
        let (offset, nprocs, params) = (self.node.offset, self.node.procs, self.params);
        let found = self
            .local
            .par_chunks_mut(self.shared.local_words)
            .enumerate()
            .any(|(pid, local)| pred(&Proc { pid, gpid: offset + pid, nprocs, local, params }));
        self.hash.word(trace::ANY);
        self.hash.word(u64::from(found));
        Ok(found)
    }
}
