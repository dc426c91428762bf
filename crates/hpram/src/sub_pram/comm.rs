//! One communication step: each processor's [`MemOp`] is checked against its block and
//! registers, the sub-model's conflict rules are applied through netcore's
//! [`resolve_step`]/[`combine_fetch`], and every access sees the memory before the step.

use netcore::pram::{Access, AccessKind, EMPTY, Variant, combine_fetch, resolve_step};

use crate::error::HpramError;
use crate::proc::MemOp;
use crate::sub_pram::SubPram;
use crate::trace::{self, Fnv64};

/// The accesses of one step, split by kind, each list in pid order.
#[derive(Default)]
struct Batch {
    reads: Vec<Access>,
    /// Register index (into the sub-PRAM's private memory) of each read.
    read_dst: Vec<usize>,
    writes: Vec<Access>,
    fetches: Vec<Access>,
    fetch_dst: Vec<usize>,
    /// `(addr, len, pid)` of every block.
    blocks: Vec<(usize, usize, usize)>,
}

/// Whether two of `writes` name one address.
fn concurrent_writes(writes: &[Access]) -> bool {
    let mut addrs: Vec<u64> = writes.iter().map(|a| a.addr).collect();
    addrs.sort_unstable();
    addrs.windows(2).any(|w| w[0] == w[1])
}

/// The smallest address in both lists of `(addr, pid)` (each sorted), with the lowest pid of
/// each side there.
fn first_common(a: &[(usize, usize)], b: &[(usize, usize)]) -> Option<(usize, usize, usize)> {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return Some((a[i].0, a[i].1, b[j].1)),
        }
    }
    None
}

/// The distinct addresses of a step in ascending order; an access's compact address is its
/// index here.
struct Compact(Vec<u64>);

impl Compact {
    fn new(batch: &Batch) -> Compact {
        let lists = [&batch.reads, &batch.writes, &batch.fetches];
        let mut addrs: Vec<u64> = lists.iter().flat_map(|l| l.iter()).map(|a| a.addr).collect();
        addrs.sort_unstable();
        addrs.dedup();
        Compact(addrs)
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    /// The accesses with compact addresses.
    fn map(&self, accesses: &[Access]) -> Vec<Access> {
        let index = |addr: u64| self.0.partition_point(|&x| x < addr) as u64;
        accesses.iter().map(|a| Access { addr: index(a.addr), ..*a }).collect()
    }

    /// The real address of a compact one.
    fn real(&self, compact: u64) -> usize {
        self.0[compact as usize] as usize
    }
}

fn sorted_addrs(lists: &[&[Access]]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> =
        lists.iter().flat_map(|l| l.iter()).map(|a| (a.addr as usize, a.pid as usize)).collect();
    out.sort_unstable();
    out
}

impl SubPram<'_> {
    fn check_addr(&self, step: u64, pid: usize, addr: usize, len: usize) -> Result<(), HpramError> {
        let limit = self.mem.len();
        if addr.checked_add(len).is_some_and(|end| end <= limit) {
            return Ok(());
        }
        // The first offending address.
        let bad = addr.max(limit.min(addr.saturating_add(len).saturating_sub(1)));
        let (path, gpid) = (self.node.path.clone(), self.node.offset + pid);
        Err(if self.shared.uniform {
            HpramError::AddressOutOfRange { path, step, pid, gpid, addr: bad, mem: limit }
        } else {
            HpramError::PrivateBlockViolation { path, step, pid, gpid, addr: bad, block_len: limit }
        })
    }

    pub(super) fn check_reg(
        &self,
        step: u64,
        pid: usize,
        reg: usize,
        len: usize,
    ) -> Result<(), HpramError> {
        let local_words = self.private_words();
        match reg.checked_add(len) {
            Some(end) if end <= local_words => Ok(()),
            _ => Err(HpramError::LocalMemoryOverflow {
                path: self.node.path.clone(),
                step,
                pid,
                gpid: self.node.offset + pid,
                register: reg.saturating_add(len).saturating_sub(1).max(reg),
                local_words,
                model: self.node.model.to_string(),
            }),
        }
    }

    fn unsupported(&self, step: u64, pid: usize, op: &MemOp) -> HpramError {
        HpramError::UnsupportedOp {
            path: self.node.path.clone(),
            step,
            pid,
            gpid: self.node.offset + pid,
            op: op.name(),
            model: self.node.model.to_string(),
        }
    }

    /// Checks every op and gathers the step's accesses.
    fn gather(&self, step: u64, ops: &[MemOp]) -> Result<Batch, HpramError> {
        let words = self.shared.local_words;
        let model = self.node.model;
        let mut batch = Batch::default();
        for (pid, op) in ops.iter().enumerate() {
            let register = |r: usize| self.local[pid * words + r];
            match *op {
                MemOp::Idle => {}
                MemOp::Read { addr, dst } => {
                    self.check_addr(step, pid, addr, 1)?;
                    self.check_reg(step, pid, dst, 1)?;
                    batch.reads.push(access(pid, AccessKind::Read, addr, 0));
                    batch.read_dst.push(pid * words + dst);
                }
                MemOp::Write { addr, src } => {
                    self.check_addr(step, pid, addr, 1)?;
                    self.check_reg(step, pid, src, 1)?;
                    batch.writes.push(access(pid, AccessKind::Write, addr, register(src)));
                }
                MemOp::FetchOp { addr, src, dst } => {
                    let Variant::CrcwFetchOp(f) = model.access else {
                        return Err(self.unsupported(step, pid, op));
                    };
                    self.check_addr(step, pid, addr, 1)?;
                    self.check_reg(step, pid, src, 1)?;
                    self.check_reg(step, pid, dst, 1)?;
                    batch.fetches.push(access(pid, AccessKind::Fetch(f), addr, register(src)));
                    batch.fetch_dst.push(pid * words + dst);
                }
                MemOp::BlockRead { addr, len, dst } => {
                    if !model.block {
                        return Err(self.unsupported(step, pid, op));
                    }
                    self.check_addr(step, pid, addr, len)?;
                    self.check_reg(step, pid, dst, len)?;
                    for j in 0..len {
                        batch.reads.push(access(pid, AccessKind::Read, addr + j, 0));
                        batch.read_dst.push(pid * words + dst + j);
                    }
                    batch.blocks.push((addr, len, pid));
                }
                MemOp::BlockWrite { addr, len, src } => {
                    if !model.block {
                        return Err(self.unsupported(step, pid, op));
                    }
                    self.check_addr(step, pid, addr, len)?;
                    self.check_reg(step, pid, src, len)?;
                    for j in 0..len {
                        let value = register(src + j);
                        batch.writes.push(access(pid, AccessKind::Write, addr + j, value));
                    }
                    batch.blocks.push((addr, len, pid));
                }
            }
        }
        Ok(batch)
    }

    /// Blocks of one step must be disjoint (`docs/models/hpram.md`, Choices: Block cost).
    fn check_blocks(
        &self,
        step: u64,
        blocks: &mut Vec<(usize, usize, usize)>,
    ) -> Result<(), HpramError> {
        blocks.retain(|b| b.1 > 0);
        blocks.sort_unstable();
        let mut reach: Option<(usize, usize)> = None; // (end, pid) of the furthest block so far
        for &(addr, len, pid) in blocks.iter() {
            if let Some((end, owner)) = reach
                && addr < end
            {
                return Err(HpramError::BlockOverlap {
                    path: self.node.path.clone(),
                    step,
                    addr,
                    pids: [owner.min(pid), owner.max(pid)],
                });
            }
            if reach.is_none_or(|(end, _)| addr + len > end) {
                reach = Some((addr + len, pid));
            }
        }
        Ok(())
    }

    /// Uniform memory: every read, write and fetch-op of the step goes into the footprint
    /// (fetch-ops as a read of the old value and a write of the new one, per processor).
    fn record_footprint(&mut self, step: u64, batch: &Batch, read_values: &[i64]) {
        let offset = self.node.offset;
        let old: Vec<i64> = batch.fetches.iter().map(|a| self.mem.get(a.addr as usize)).collect();
        let Some(footprint) = self.mem.footprint_mut() else { return };
        for (a, &value) in batch.reads.iter().zip(read_values) {
            footprint.read(a.addr as usize, offset + a.pid as usize, step, value);
        }
        for a in &batch.writes {
            footprint.write(a.addr as usize, offset + a.pid as usize, step, a.value);
        }
        for (a, &value) in batch.fetches.iter().zip(&old) {
            footprint.read(a.addr as usize, offset + a.pid as usize, step, value);
            footprint.write(a.addr as usize, offset + a.pid as usize, step, a.value);
        }
    }

    /// CRCW arbitrary with a seed: at every written cell the winner among its writers (in pid
    /// order) is `hash(seed, path, step, addr) mod writers`, the same under every schedule.
    fn seeded_winners(
        &self,
        seed: u64,
        step: u64,
        table: &Compact,
        raw: &[Access],
        writes: &mut [Access],
    ) {
        let mut writers: Vec<Vec<i64>> = vec![Vec::new(); table.len()];
        for (a, compact) in raw.iter().zip(table.map(raw)) {
            writers[compact.addr as usize].push(a.value);
        }
        for w in writes.iter_mut() {
            let candidates = &writers[w.addr as usize];
            let mut h = Fnv64::default();
            h.word(seed);
            h.name(&self.node.path);
            h.word(step);
            h.word(table.real(w.addr) as u64);
            w.value = candidates[(h.finish() % candidates.len() as u64) as usize];
        }
    }

    /// Feeds the step into the replay hash: `(pid, opcode, addr, value)` in pid order (reads
    /// with the value read, writes with the value written, fetch-ops with the contribution).
    fn hash_step(&mut self, batch: &Batch, read_values: &[i64]) {
        let tuple =
            |a: &Access, opcode, value: i64| [u64::from(a.pid), opcode, a.addr, value as u64];
        let reads = batch.reads.iter().zip(read_values).map(|(a, &v)| tuple(a, trace::OP_READ, v));
        let writes = batch.writes.iter().map(|a| tuple(a, trace::OP_WRITE, a.value));
        let fetches = batch.fetches.iter().map(|a| tuple(a, trace::OP_FETCH, a.value));
        let all = reads.chain(writes).chain(fetches);
        self.hash.word(trace::COMM);
        let kinds = [batch.reads.len(), batch.writes.len(), batch.fetches.len()];
        if kinds.iter().filter(|&&n| n > 0).count() <= 1 {
            // One kind of access: its list is in (pid, addr) order already, the sorted order.
            all.for_each(|t| t.into_iter().for_each(|w| self.hash.word(w)));
        } else {
            let mut tuples: Vec<[u64; 4]> = all.collect();
            tuples.sort_unstable();
            tuples.into_iter().for_each(|t| t.into_iter().for_each(|w| self.hash.word(w)));
        }
    }

    /// Records the step for the network executor at global addresses (fetch-ops and blocks
    /// as an unsupported step, and so are concurrent writes under a sub-model that does not
    /// let the lowest pid win them, `crcw-arbitrary` or `crcw-fetch-<op>`: the network keeps
    /// the lowest pid's value).
    fn record_step(&mut self, batch: &Batch, read_values: &[i64]) -> Result<(), HpramError> {
        use crate::step_log::{CommLog, Ev};
        if !batch.fetches.is_empty() || !batch.blocks.is_empty() {
            let what = if batch.fetches.is_empty() { "block transfer" } else { "fetch-op" };
            self.log.push(Ev::Unsupported(what));
            return Ok(());
        }
        let folds =
            matches!(self.node.model.access, Variant::CrcwArbitrary | Variant::CrcwFetchOp(_));
        if folds && concurrent_writes(&batch.writes) {
            self.log
                .push(Ev::Unsupported("concurrent writes under crcw-arbitrary or crcw-fetch-op"));
            return Ok(());
        }
        self.shared.work.record((batch.reads.len() + batch.writes.len()) as u64)?;
        let base = if self.shared.uniform { 0 } else { self.node.mem_base };
        let reads = batch.reads.iter().zip(read_values);
        let reads = reads.map(|(a, &v)| (a.pid, base + a.addr as usize, v)).collect();
        let writes =
            batch.writes.iter().map(|a| (a.pid, base + a.addr as usize, a.value)).collect();
        self.log.push(Ev::Comm(CommLog { reads, writes }));
        Ok(())
    }

    pub(super) fn execute_comm(&mut self, ops: &[MemOp]) -> Result<(), HpramError> {
        let step = self.step_index();
        let mut batch = self.gather(step, ops)?;
        if !batch.blocks.is_empty() {
            self.check_blocks(step, &mut batch.blocks)?;
            self.node.b += batch.blocks.iter().map(|b| b.1 as u64).max().unwrap_or(0);
        }
        let variant = self.node.model.access;
        let path = &self.node.path;
        // netcore's rules index a slot table by address: resolve on the step's distinct
        // addresses, numbered in ascending order, so the table is as small as the step.
        let table = Compact::new(&batch);
        let mut slot = vec![EMPTY; table.len()];
        let mut resolved = Vec::new();
        if !variant.concurrent_read()
            && let Some(c) =
                resolve_step(variant, &table.map(&batch.reads), &mut slot, &mut resolved)
        {
            let pids = [c.pids[0] as usize, c.pids[1] as usize];
            return Err(HpramError::ExclusiveReadViolation {
                path: path.clone(),
                step,
                addr: table.real(c.addr),
                pids,
            });
        }
        let mut writes = Vec::new();
        if let Some(c) = resolve_step(variant, &table.map(&batch.writes), &mut slot, &mut writes) {
            let (addr, pids) = (table.real(c.addr), [c.pids[0] as usize, c.pids[1] as usize]);
            return Err(match variant {
                Variant::CrcwCommon => HpramError::CommonWriteMismatch {
                    path: path.clone(),
                    step,
                    addr,
                    pids,
                    values: c.values,
                },
                _ => HpramError::ExclusiveWriteViolation { path: path.clone(), step, addr, pids },
            });
        }
        if let (Variant::CrcwArbitrary, Some(seed)) = (variant, self.node.model.arbitrary_seed) {
            self.seeded_winners(seed, step, &table, &batch.writes, &mut writes);
        }
        let path = &self.node.path;
        // A read and a write (or fetch-op) of one cell, or a write and a fetch-op of one cell;
        // a step of one kind of access (the common case) has none.
        let (reads, writes_, fetches) =
            (!batch.reads.is_empty(), !batch.writes.is_empty(), !batch.fetches.is_empty());
        let clash = if (reads && (writes_ || fetches)) || (fetches && writes_) {
            let readers = sorted_addrs(&[&batch.reads]);
            let writers = sorted_addrs(&[&batch.writes, &batch.fetches]);
            let fetchers = sorted_addrs(&[&batch.fetches]);
            let only_writers = sorted_addrs(&[&batch.writes]);
            [first_common(&readers, &writers), first_common(&fetchers, &only_writers)]
                .into_iter()
                .flatten()
                .min()
        } else {
            None
        };
        if let Some((addr, reader, writer)) = clash {
            return Err(HpramError::ReadWriteSameStep {
                path: path.clone(),
                step,
                addr,
                reader,
                writer,
            });
        }
        // Apply: every access sees the memory before the step.
        let read_values: Vec<i64> =
            batch.reads.iter().map(|a| self.mem.get(a.addr as usize)).collect();
        self.record_footprint(step, &batch, &read_values);
        if self.shared.record {
            self.record_step(&batch, &read_values)?;
        }
        if let (Variant::CrcwFetchOp(op), false) = (variant, batch.fetches.is_empty()) {
            let n = batch.fetches.len();
            let (mut prefix, mut rix, mut folded) = (vec![0; n], vec![0u32; n], Vec::new());
            let fetches = table.map(&batch.fetches);
            combine_fetch(op, &fetches, &mut slot, &mut folded, &mut prefix, &mut rix);
            let old: Vec<i64> = folded.iter().map(|a| self.mem.get(table.real(a.addr))).collect();
            for (a, &before) in folded.iter().zip(&old) {
                self.mem.set(table.real(a.addr), op.apply(before, a.value));
            }
            for k in 0..n {
                self.local[batch.fetch_dst[k]] = op.apply(old[rix[k] as usize], prefix[k]);
            }
        }
        for w in &writes {
            self.mem.set(table.real(w.addr), w.value);
        }
        self.hash_step(&batch, &read_values);
        for (k, value) in read_values.into_iter().enumerate() {
            self.local[batch.read_dst[k]] = value;
        }
        Ok(())
    }
}

fn access(pid: usize, kind: AccessKind, addr: usize, value: i64) -> Access {
    Access { pid: pid as u32, kind, addr: addr as u64, value }
}
