//! The recorded run executed on the network (paper Sections 3.1 and 3.2): every sub-PRAM's
//! block hashed over its sub-network, every shared access a routed request and reply served
//! by the memory module that holds the cell, a scan barrier after every communication step and
//! computation phase, and every partition step's unhash + rehash one routed permutation each
//! way, with the β-synchronisation a scan over the children's designated nodes.

use std::collections::BTreeMap;

use crate::error::HpramError;
use crate::network::construct::{Construct, Measured};
use crate::network::engine::{Engine, Transfer};
use crate::network::place::{Net, Region};
use crate::step_log::{CommLog, Ev, NodeLog};
use crate::trace::Fnv64;
use crate::word::Word;

/// A sub-PRAM's hash (paper Section 3.2): the linear permutation `s = (m·i + c) mod M'` of its
/// block offsets `i` (`m` coprime to `M'`), cell `i` at processor `offset + s mod P'`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Hash {
    region: Region,
    base: usize,
    len: usize,
    mult: u64,
    add: u64,
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl Hash {
    /// The hash of `log`'s block over its region, drawn from `seed` and its position.
    pub(crate) fn of(log: &NodeLog, seed: u64) -> Hash {
        let mut h = Fnv64::default();
        for w in [seed, u64::from(log.level), log.offset as u64, log.mem_len as u64] {
            h.word(w);
        }
        let len = log.mem_len.max(1) as u64;
        let mut mult = (h.finish() % len).max(1);
        while gcd(mult, len) != 1 {
            mult = mult % len + 1;
        }
        h.word(1);
        let region = Region { offset: log.offset, procs: log.procs };
        Hash { region, base: log.mem_base, len: log.mem_len, mult, add: h.finish() % len }
    }

    /// The node holding global address `addr` of the block.
    pub(crate) fn home(&self, net: &Net, addr: usize) -> u32 {
        let i = (addr - self.base) as u128;
        let s = (u128::from(self.mult) * i + u128::from(self.add)) % self.len as u128;
        net.node(self.region.offset + (s as usize) % self.region.procs)
    }
}

/// A measured construct's key: what, level, `P'`, `Q` (0 for none); its value is
/// `(count, sum, max)`.
pub(crate) type StatKey = (Construct, u32, u64, u64);

/// The executor's state: the engine, the memory modules' contents, the measurements.
pub(crate) struct Exec<'n> {
    pub(crate) engine: Engine<'n>,
    /// Per node, the cells it holds (global address → value).
    pub(crate) store: Vec<BTreeMap<usize, Word>>,
    pub(crate) seed: u64,
    pub(crate) stats: BTreeMap<StatKey, (u64, u64, u64)>,
}

/// A sub-PRAM's measured time: without and with the partition permutations.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Times {
    pub(crate) steps: u64,
    pub(crate) total: u64,
}

impl<'n> Exec<'n> {
    fn net(&self) -> &'n Net {
        self.engine.net
    }

    fn note(&mut self, what: Construct, level: u32, procs: u64, q: u64, time: u64) {
        let agg = self.stats.entry((what, level, procs, q)).or_insert((0, 0, 0));
        *agg = (agg.0 + 1, agg.1 + time, agg.2.max(time));
    }

    fn mismatch(log: &NodeLog, what: String) -> HpramError {
        HpramError::NetworkMismatch { path: log.path.clone(), what }
    }

    /// An α-barrier over the sub-PRAM's sub-network, rooted at its processor 0's node.
    fn barrier(&mut self, log: &NodeLog) -> Result<u64, HpramError> {
        let region = Region { offset: log.offset, procs: log.procs };
        let nodes: Vec<u32> = self.net().region_nodes(region).collect();
        let (time, total) = self.engine.scan_barrier(region, nodes[0], &nodes);
        if total != log.procs as u64 {
            return Err(Self::mismatch(log, format!("barrier counted {total} processors")));
        }
        self.note(Construct::Barrier, log.level, log.procs as u64, 0, time);
        Ok(time)
    }

    /// One communication step: requests and replies routed, values read from and written to
    /// the modules; every read must see the abstract run's value.
    fn comm(&mut self, log: &NodeLog, hash: &Hash, step: &CommLog) -> Result<u64, HpramError> {
        let net = self.net();
        let region = Region { offset: log.offset, procs: log.procs };
        let src = |pid: u32| net.node(log.offset + pid as usize);
        let all = step.reads.iter().chain(&step.writes);
        let transfers: Vec<Transfer> = all
            .map(|&(pid, addr, _)| Transfer {
                src: src(pid),
                dst: hash.home(net, addr),
                reply: true,
            })
            .collect();
        let done = self.engine.route(region, &transfers);
        let time = done.iter().copied().max().unwrap_or(0);
        for (&(pid, addr, want), tr) in step.reads.iter().zip(&transfers) {
            match self.store[tr.dst as usize].get(&addr) {
                Some(&got) if got == want => {}
                got => {
                    let what = format!(
                        "processor {pid} read cell {addr} at node {} as {got:?}, the abstract run read {want}",
                        tr.dst
                    );
                    return Err(Self::mismatch(log, what));
                }
            }
        }
        // The lowest pid's write of a cell wins (writes come in pid order).
        let mut written: BTreeMap<usize, ()> = BTreeMap::new();
        for (&(_, addr, value), tr) in step.writes.iter().zip(&transfers[step.reads.len()..]) {
            if written.insert(addr, ()).is_none() {
                let cell = self.store[tr.dst as usize].get_mut(&addr);
                let Some(cell) = cell else {
                    return Err(Self::mismatch(
                        log,
                        format!("cell {addr} is not at node {}", tr.dst),
                    ));
                };
                *cell = value;
            }
        }
        self.note(Construct::PramStep, log.level, log.procs as u64, 0, time);
        Ok(time)
    }

    /// Moves every cell of `log`'s block from where `from` puts it to where `to` does, as
    /// one routed permutation inside `log`'s sub-network; returns its time.
    fn permute(
        &mut self,
        log: &NodeLog,
        from: &dyn Fn(usize) -> u32,
        to: &dyn Fn(usize) -> u32,
    ) -> Result<u64, HpramError> {
        let region = Region { offset: log.offset, procs: log.procs };
        let mut transfers = Vec::new();
        for addr in log.mem_base..log.mem_base + log.mem_len {
            let (a, b) = (from(addr), to(addr));
            let Some(value) = self.store[a as usize].remove(&addr) else {
                return Err(Self::mismatch(log, format!("cell {addr} is not at node {a}")));
            };
            self.store[b as usize].insert(addr, value);
            if a != b {
                transfers.push(Transfer { src: a, dst: b, reply: false });
            }
        }
        Ok(self.engine.route(region, &transfers).into_iter().max().unwrap_or(0))
    }

    /// A partition step: permutation in, the children, the β-scan, permutation out.
    fn partition(
        &mut self,
        log: &NodeLog,
        hash: &Hash,
        children: &[NodeLog],
    ) -> Result<Times, HpramError> {
        let net = self.net();
        let hashes: Vec<Hash> = children.iter().map(|c| Hash::of(c, self.seed)).collect();
        let ends: Vec<usize> = children.iter().map(|c| c.mem_base + c.mem_len).collect();
        let child_home = |addr: usize| {
            let q = ends.partition_point(|&end| end <= addr);
            hashes[q].home(net, addr)
        };
        let parent_home = |addr: usize| hash.home(net, addr);
        let perm_in = self.permute(log, &parent_home, &child_home)?;
        let mut slowest = Times::default();
        for child in children {
            let t = self.node(child)?;
            slowest =
                Times { steps: slowest.steps.max(t.steps), total: slowest.total.max(t.total) };
        }
        let region = Region { offset: log.offset, procs: log.procs };
        let designated: Vec<u32> = children.iter().map(|c| net.node(c.offset)).collect();
        let (beta, total) = self.engine.scan_barrier(region, net.node(log.offset), &designated);
        if total != children.len() as u64 {
            return Err(Self::mismatch(log, format!("beta-sync counted {total} sub-PRAMs")));
        }
        let perm_out = self.permute(log, &child_home, &parent_home)?;
        let (q, p) = (children.len() as u64, log.procs as u64);
        self.note(Construct::BetaSync, log.level, p, q, beta);
        self.note(Construct::Permutation, log.level, p, q, perm_in + perm_out);
        Ok(Times { steps: slowest.steps + beta, total: perm_in + slowest.total + beta + perm_out })
    }

    /// Executes a sub-PRAM whose block is in place under its hash; returns its time.
    pub(crate) fn node(&mut self, log: &NodeLog) -> Result<Times, HpramError> {
        let region = Region { offset: log.offset, procs: log.procs };
        if !Net::aligned(region) {
            return Err(HpramError::NetworkUnsupported {
                path: log.path.clone(),
                rule: "every sub-PRAM on an aligned sub-network (P' a power of two, offset a multiple of P')",
                got: format!("P' = {} at offset {}", log.procs, log.offset),
            });
        }
        let hash = Hash::of(log, self.seed);
        let (mut own, mut in_phase) = (0u64, false);
        let mut children = Times::default();
        for ev in &log.events {
            match ev {
                Ev::Compute(k) => {
                    own += u64::from(*k);
                    in_phase = true;
                }
                Ev::Comm(step) => {
                    if std::mem::take(&mut in_phase) {
                        own += self.barrier(log)?;
                    }
                    own += self.comm(log, &hash, step)?;
                    own += self.barrier(log)?;
                }
                Ev::Partition(kids) => {
                    let t = self.partition(log, &hash, kids)?;
                    children =
                        Times { steps: children.steps + t.steps, total: children.total + t.total };
                }
                Ev::Unsupported(what) => {
                    return Err(HpramError::NetworkUnsupported {
                        path: log.path.clone(),
                        rule: "reads and writes only, concurrent writes won by the lowest pid (no fetch-op, block transfer, scan, multiprefix or any)",
                        got: (*what).to_string(),
                    });
                }
            }
        }
        if in_phase {
            own += self.barrier(log)?;
        }
        Ok(Times { steps: own + children.steps, total: own + children.total })
    }
}

/// `measured` sorted into rows.
pub(crate) fn constructs(exec: &Exec<'_>) -> Vec<Measured> {
    exec.stats
        .iter()
        .map(|(&(what, level, procs, q), &(count, sum, max))| Measured {
            construct: what,
            level,
            procs,
            q: (q > 0).then_some(q),
            count,
            mean: sum as f64 / count as f64,
            max,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::place::NetKind;

    fn log(offset: usize, procs: usize, mem_base: usize, mem_len: usize) -> NodeLog {
        let path = "root".to_string();
        NodeLog { path, level: 2, offset, procs, mem_base, mem_len, events: Vec::new() }
    }

    /// A sub-PRAM's hash is a bijection of its block onto its sub-network's slots: every
    /// node of the region holds `M'/P'` cells (paper Section 3.2: a linear permutation), and
    /// no cell lands outside the region; other seeds give other placements.
    #[test]
    fn hash_is_a_balanced_bijection() {
        let net = Net::new(NetKind::Mesh, 16, 1).unwrap();
        for (offset, procs, len) in [(0, 16, 64), (8, 8, 24), (4, 4, 4), (12, 1, 5)] {
            let node = log(offset, procs, 100, len);
            let hash = Hash::of(&node, 7);
            let mut load: BTreeMap<u32, usize> = BTreeMap::new();
            for addr in 100..100 + len {
                *load.entry(hash.home(&net, addr)).or_default() += 1;
            }
            let region: Vec<u32> = net.region_nodes(Region { offset, procs }).collect();
            assert!(load.keys().all(|n| region.contains(n)));
            let (lo, hi) = (len / procs, len.div_ceil(procs));
            assert!(load.values().all(|&c| (lo..=hi).contains(&c)), "{load:?}");
            assert_eq!(load.values().sum::<usize>(), len);
        }
        let node = log(0, 16, 0, 64);
        let place = |seed| (0..64).map(|a| Hash::of(&node, seed).home(&net, a)).collect::<Vec<_>>();
        assert_ne!(place(1), place(2));
    }
}
