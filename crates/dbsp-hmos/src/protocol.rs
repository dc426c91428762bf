//! The access protocol of Fantozzi, Pietracaprina and Pucci (Section 4) as a netcore PRAM
//! [`GlobalMemory`] back end.
//!
//! Every global step runs on one D-BSP machine whose ledger accumulates over the run, one
//! ledger [`Phase`] per part (`combine`, `select/0`..`select/k`, `deliver`, `reply`, `uncombine`):
//!
//! 1. **combine** (Section 4: concurrent accesses reduced to exclusive ones "by sorting"):
//!    the accesses, `ceil(len / n)` per processor (access `i` starts at processor `i mod n`),
//!    are k-sorted by (address, index); one label-0 superstep tells every processor the last
//!    address of its predecessor, so the first key of every run of equal addresses (the
//!    representative) is known.
//! 2. **select/0..k** (Section 4.1): every representative gets a target set of `mu 2^k`
//!    copies, `mu = (r+1)/2` root copies and two of the three branches below every coloured
//!    node. With [`Selection::Cull`], iteration 0 culls the 0-modules (Lemma 2) and iteration
//!    `i` sorts the coloured paths by their (i-1)-module, sums the weights `w(u)` by a segmented
//!    scan, culls two of the three i-modules of every coloured u (Lemma 3), spreads the choice
//!    along the run and returns it to the representatives; with [`Selection::Naive`] the first
//!    `mu` roots and branches 0 and 1 are taken, with no machine work.
//! 3. **deliver**: every representative sends one message per selected copy to `loc(v, c)`,
//!    in k + 1 stages (Theorem 3, [`Delivery::Staged`]) or by one two-phase routing
//!    ([`Delivery::TwoPhase`], the baseline), or greedily in one superstep
//!    ([`Delivery::Greedy`], Proposition 3's baseline); the largest load `delta_i` at the start
//!    of every stage is recorded in every mode.
//! 4. **reply**: a write stores `(value, step)` in the copy's cell; a read replies with the
//!    cell's `(value, timestamp)` by one two-phase routing, and the representative keeps the
//!    reply with the largest timestamp (any two target sets share a copy).
//! 5. **uncombine**: a segmented prefix along the runs gives every access its
//!    representative's value; a greedy label-0 routing returns it to the access's processor.
//!
//! A fetch-and-op is a read round, then a write round of `op(old, value)` to the same target
//! sets. The contract of [`GlobalMemory::step`] has no error channel: a failed superstep (a
//! bug, never an input) is kept and reported by [`HmosMemory::error`], and the step's values
//! are then not reliable.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use netcore::ProcId;
use netcore::bsp::primitives::SortBlock;
use netcore::bsp::{BspMachine, DbspParams};
use netcore::cost::Ledger;
use netcore::limits::vec_filled;
use netcore::pram::{Access, AccessKind, GlobalMemory};

use crate::Error;
use crate::hmos::{Hmos, HmosConfig};
use crate::phase::Phase;
use crate::prim::{
    Flip, Held, Max, Monoid, SegSum, ksort, ksort_upto, prefix, route_greedy, route_two_phase,
    route_two_phase_until, suffix,
};
use crate::select::{CullKey, Culled, Parent, Threshold, cull, theta_level};

/// How a target set is chosen (Section 4.1).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Selection {
    /// The first `mu` 0-modules and branches 0 and 1 below every coloured node (the naive
    /// baseline).
    Naive,
    /// Threshold culling at every level, iteration 0 (Lemma 2) and iterations 1..k (Lemma 3),
    /// with constant `a > 0` and exponent `0 < eps < 1`.
    Cull {
        /// The threshold constant a.
        a: f64,
        /// The exponent epsilon.
        eps: f64,
    },
}

impl Selection {
    /// Checks `a > 0` (finite) and `0 < eps < 1` for culling.
    pub fn check(self) -> Result<Self, Error> {
        if let Selection::Cull { a, eps } = self {
            if !(a.is_finite() && a > 0.0) {
                return Err(Error::param("a", "finite and > 0", a));
            }
            if !(eps > 0.0 && eps < 1.0) {
                return Err(Error::param("eps", "0 < eps < 1", eps));
            }
        }
        Ok(self)
    }
}

/// How the messages reach the selected copies (Section 4.2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Delivery {
    /// Theorem 3: stages `k+1, ..., 1`; stage i is a two-phase routing inside every
    /// `tau_i`-cluster (`tau_(k+1) = 0`, `tau_i = log n - log t_i`) that leaves every message
    /// balanced over the `tau_(i-1)`-cluster of its destination's (i-1)-block (`tau_0 = log n`:
    /// stage 1 delivers).
    #[default]
    Staged,
    /// One two-phase routing in the whole machine (the baseline).
    TwoPhase,
    /// Every packet sent straight to its copy's processor in one 0-superstep, which costs
    /// `g_0 h + l_0` with `h` the largest number of packets a processor sends or receives
    /// (the greedy baseline of Proposition 3; Choices).
    Greedy,
}
netcore::display_config_name!(Delivery);

/// A sort key: (address, access index); padding sorts last.
type Key = (u64, u32);
const PAD: Key = (u64::MAX, u32::MAX);

/// A coloured path's sort key in iteration i: its (i-1)-module and its name, the home
/// processor and the path's index among that processor's paths (representatives in order,
/// each one's paths in order) packed as `home << bits | index`, with `bits` the fewest
/// that hold the largest count of paths on a processor. The order is that of (module, home,
/// representative, path), in 8 bytes instead of 16 (Choices).
type EndKey = [u32; 2];

/// A copy's reply to a read, routed to the representative's processor (20 bytes, 24 routed:
/// aligned to 4 bytes, so neither it nor a message holding it has padding; Choices).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C, packed(4))]
pub struct Reply {
    /// The variable, which names the representative at its home processor.
    pub v: u32,
    /// The copy's timestamp.
    pub ts: u64,
    /// The copy's value.
    pub value: i64,
}

/// A representative: (position in its sorted block, variable, value written).
type Rep = (u32, u64, Option<i64>);

/// A choice returned to a coloured path: (path's index at its home processor, bit mask of the
/// two chosen branches).
type Choice = (u32, u8);

/// Per processor, per representative.
type PerRep<T> = Vec<Vec<T>>;

/// Per processor, a value from a neighbour, if any.
type FromNeighbour = Vec<Option<u64>>;

/// What one culling did: its rounds, whether it forced, the sum of its thresholds and the
/// active parents at the start of every round (all empty for naive selection).
#[derive(Debug, Clone, Default)]
struct Culling {
    rounds: u32,
    forced: bool,
    theta_sum: u64,
    active: Vec<u64>,
}

impl Culling {
    fn of(culled: &Culled) -> Self {
        Culling {
            rounds: culled.rounds,
            forced: culled.forced,
            theta_sum: culled.theta.iter().sum(),
            active: culled.active.clone(),
        }
    }

    fn stats(self, level: u32, w_max: u64) -> LevelStats {
        let Culling { rounds, forced, theta_sum, active } = self;
        LevelStats { level, rounds, forced, theta_sum, w_max, active }
    }
}

/// The message of the protocol's machine itself: a neighbour's boundary key, the last of the
/// predecessor (`true`) or the first of the successor (`false`). Every other phase runs on the
/// same states and ledger with its own message type ([`BspMachine::with_messages`]), so each
/// message is as small as its kind (Choices).
pub type Edge = (bool, u64);

/// What travels to a copy (24 bytes; routed, with its destination, 28: aligned to 4 bytes, so
/// neither it nor a message holding it has padding; Choices). A write's timestamp is the
/// step's number, which every processor knows, so it does not travel. The variable and the
/// copy index fit 32 bits each (an HMOS has `m r <= 2^24`: Limits), and the variable names
/// its representative at the home processor (one representative per variable).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C, packed(4))]
pub struct Packet {
    /// The variable.
    pub v: u32,
    /// The copy index, below `r 3^k`.
    pub copy: u32,
    /// The processor of the variable's representative.
    pub home: ProcId,
    /// A read or a write.
    pub op: Op,
    /// The value written (0 for a read).
    pub value: i64,
}

/// What a packet does at its copy: a 32-bit word, so the packet's fields are five whole
/// words with no padding byte between them (a `bool` left three, and copying a routed packet
/// then went through partial stores and loads on the stack: docs/benchmarks/dbsp-hmos.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum Op {
    /// Read the copy and reply.
    Read,
    /// Write the value with the step's timestamp.
    Write,
}

/// One processor: its cells `(v, copy) -> (value, timestamp)`, its block of sort keys, its
/// block of coloured-path keys and its block of culling packets.
#[derive(Debug, Clone, Default)]
pub struct Proc {
    cells: BTreeMap<(u64, u64), (i64, u64)>,
    keys: Vec<Key>,
    ends: Vec<EndKey>,
    packets: Vec<CullKey>,
}

impl SortBlock<Key> for Proc {
    fn block(&mut self) -> &mut Vec<Key> {
        &mut self.keys
    }
}

impl SortBlock<EndKey> for Proc {
    fn block(&mut self) -> &mut Vec<EndKey> {
        &mut self.ends
    }
}

impl SortBlock<CullKey> for Proc {
    fn block(&mut self) -> &mut Vec<CullKey> {
        &mut self.packets
    }
}

/// "Copy the run's first value": `(f1, v1) ⊕ (f2, v2) = (f1 or f2, if f2 then v2 else v1)`.
struct Segmented;

impl Monoid for Segmented {
    type Item = (bool, i64);
    fn identity(&self) -> (bool, i64) {
        (false, 0)
    }
    fn op(&self, a: &(bool, i64), b: &(bool, i64)) -> (bool, i64) {
        (a.0 || b.0, if b.0 { b.1 } else { a.1 })
    }
}

/// A coloured path of a target set being built (Section 4.1): its root copy `j0`, its
/// branches so far as base-3 digits, and the module it ends at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PathEnd {
    j0: u32,
    branches: u64,
    module: u32,
}

/// What one iteration of copy selection did (Section 4.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LevelStats {
    /// The iteration (= the level of the modules it colours).
    pub level: u32,
    /// Culling rounds run (0 for naive selection).
    pub rounds: u32,
    /// Some parents were completed by force.
    pub forced: bool,
    /// The sum of the thresholds of the rounds run (culling's hard bound on a weight when
    /// nothing was forced; 0 for naive selection).
    pub theta_sum: u64,
    /// The largest weight `w(u)` of a module of this level: the coloured paths through it.
    pub w_max: u64,
    /// The culling's active parents at the start of every round, `|A_1|, |A_2|, ...`
    /// (Lemma 2's halving: `|A_(rho+1)| <= n / 2^rho`, [`crate::select::halves`]; empty for
    /// naive selection).
    pub active: Vec<u64>,
}

/// What one PRAM step did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepStats {
    /// Copy selection, iterations 0..=k.
    pub levels: Vec<LevelStats>,
    /// Per protocol round (two for a fetch-and-op), the delivery's largest per-processor load
    /// at the start of stages `k+1, ..., 1` and at the end: `delta_(k+1), ..., delta_0`.
    pub deltas: Vec<Vec<u64>>,
}

/// The HMOS access protocol as a PRAM global memory.
#[derive(Debug)]
pub struct HmosMemory {
    hmos: Hmos,
    size: u64,
    n: u32,
    mu: u64,
    selection: Selection,
    delivery: Delivery,
    machine: BspMachine<Proc, Edge>,
    error: Option<Error>,
    stats: Vec<StepStats>,
    targets: Vec<(u64, Vec<u64>)>,
}

/// The largest weight of a module among coloured paths: how many end at each module.
fn w_max(ends: &[Vec<Vec<PathEnd>>]) -> u64 {
    // Modules are numbered below `m_i <= n <= 2^20`: one counter per module up to the largest.
    let Some(top) = ends.iter().flatten().flatten().map(|e| e.module).max() else { return 0 };
    let mut w = vec![0_u64; top as usize + 1];
    for e in ends.iter().flatten().flatten() {
        w[e.module as usize] += 1;
    }
    w.into_iter().max().unwrap_or(0)
}

/// Per processor, whether each key of its sorted block starts a run of equal `field` values
/// (`prev`: the predecessor's last value) and whether it ends one (`next`: the successor's
/// first value).
fn run_bounds<K>(
    block: &[K],
    field: impl Fn(&K) -> u64,
    prev: Option<u64>,
    next: Option<u64>,
) -> (Vec<bool>, Vec<bool>) {
    let len = block.len();
    let at = |j: usize| Some(field(&block[j]));
    let starts = (0..len).map(|j| (if j == 0 { prev } else { at(j - 1) }) != at(j)).collect();
    let ends = (0..len).map(|j| (if j + 1 == len { next } else { at(j + 1) }) != at(j)).collect();
    (starts, ends)
}

impl HmosMemory {
    /// A memory of `size` cells holding `input` (then zeros) on the D-BSP machine `params`
    /// with an HMOS of redundancy `r`, `k` levels and level-0 seed `seed` over
    /// `m = max(size, n)` variables (the balanced shuffled level-0 graph; see
    /// [`HmosMemory::with_hmos`] for any other).
    ///
    /// # Examples
    ///
    /// ```
    /// use dbsp_hmos::netcore::bsp::DbspParams;
    /// use dbsp_hmos::netcore::pram::{Limits, NoTrace, library::Algorithm, run_with};
    /// use dbsp_hmos::protocol::{HmosMemory, Selection};
    ///
    /// let prefix = Algorithm::PrefixSums.instance(8, 0)?;
    /// let params = DbspParams::power_law(8, 0.5, 0.5)?;
    /// let size = prefix.program.mem();
    /// let mut memory = HmosMemory::new(params.clone(), size, &prefix.input, 3, 0, 0, Selection::Naive)?;
    /// let done = run_with(&prefix.program, &mut memory, &Limits::default(), &mut NoTrace)?;
    /// assert_eq!(memory.error(), None);
    /// assert_eq!(&done.memory[prefix.output.clone()], &prefix.expected[..]);
    /// println!("D-BSP cost {}", memory.ledger().cost(&params)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`HmosConfig::with_graph`] and [`Hmos::build`] for `n = params.n()`,
    /// `m = max(size, n)`, `r`, `k`; then those of [`HmosMemory::with_hmos`].
    pub fn new(
        params: DbspParams,
        size: u64,
        input: &[i64],
        r: u32,
        k: u32,
        seed: u64,
        selection: Selection,
    ) -> Result<Self, Error> {
        let n = u64::from(params.n());
        let hmos = Hmos::build(&HmosConfig::new(n, size.max(n), r, k, seed)?)?;
        Self::with_hmos(params, hmos, size, input, selection)
    }

    /// A memory of `size <= m` cells holding `input` (then zeros) on the D-BSP machine
    /// `params` with the HMOS `hmos` (built for `n` processors). The input is written to
    /// every copy with timestamp 0, uncharged (the initial memory contents). `selection`
    /// chooses the target sets; the delivery is [`Delivery::Staged`] unless
    /// [`HmosMemory::with_delivery`] says otherwise.
    ///
    /// # Errors
    ///
    /// - [`Error::Param`] if `selection`'s constants are out of range, `input` is longer than
    ///   `size`, `hmos` was built for another `n`, or `size` exceeds its `m`;
    /// - [`Error::Bsp`] from the D-BSP machine;
    /// - [`Error::OutOfMemory`] if the system refuses the processors' state.
    pub fn with_hmos(
        params: DbspParams,
        hmos: Hmos,
        size: u64,
        input: &[i64],
        selection: Selection,
    ) -> Result<Self, Error> {
        let selection = selection.check()?;
        let n = params.n();
        if input.len() as u64 > size {
            return Err(Error::param(
                "input",
                format!("input length <= size = {size}"),
                input.len(),
            ));
        }
        if hmos.n() != u64::from(n) {
            return Err(Error::param("hmos", format!("built for n = {n} processors"), hmos.n()));
        }
        if size > hmos.m() {
            return Err(Error::param("size", format!("size <= m = {}", hmos.m()), size));
        }
        let mu = u64::from(hmos.r()).div_ceil(2);
        let mut procs = vec_filled("the processors", n as usize, Proc::default())?;
        for (v, &x) in (0..).zip(input) {
            if x != 0 {
                for copy in 0..hmos.copies() {
                    let p = hmos.loc(v, copy)?;
                    procs[p as usize].cells.insert((v, copy), (x, 0));
                }
            }
        }
        let machine = BspMachine::new(params, procs)?;
        Ok(Self {
            hmos,
            size,
            n,
            mu,
            selection,
            delivery: Delivery::default(),
            machine,
            error: None,
            stats: Vec::new(),
            targets: Vec::new(),
        })
    }

    /// The same memory with delivery `delivery`.
    pub fn with_delivery(mut self, delivery: Delivery) -> Self {
        self.delivery = delivery;
        self
    }

    /// The first error a step hit, if any (then the results of that step and later ones are
    /// not reliable).
    pub fn error(&self) -> Option<&Error> {
        self.error.as_ref()
    }

    /// One entry per PRAM step that accessed memory: selection and delivery statistics.
    pub fn stats(&self) -> &[StepStats] {
        &self.stats
    }

    /// The target sets of the last step: `(variable, selected copy indices)`, per
    /// representative.
    pub fn targets(&self) -> &[(u64, Vec<u64>)] {
        &self.targets
    }

    /// The ledger of every step so far.
    pub fn ledger(&self) -> &Ledger {
        self.machine.ledger()
    }

    /// The HMOS.
    pub fn hmos(&self) -> &Hmos {
        &self.hmos
    }

    /// One label-0 superstep: every processor sends `last[p]` to its successor and, if
    /// `first` is given, `first[p]` to its predecessor; returns what each processor got from
    /// its predecessor and from its successor.
    fn neighbours(
        &mut self,
        label: &str,
        last: &[Option<u64>],
        first: Option<&[Option<u64>]>,
    ) -> Result<(FromNeighbour, FromNeighbour), Error> {
        self.machine.dsuperstep(0, label, |ctx, _| {
            let pid = ctx.pid();
            if pid + 1 < ctx.p()
                && let Some(x) = last[pid as usize]
            {
                ctx.send(pid + 1, (true, x));
            }
            if pid > 0
                && let Some(x) = first.and_then(|f| f[pid as usize])
            {
                ctx.send(pid - 1, (false, x));
            }
        })?;
        let n = self.n as usize;
        let (mut prev, mut next) = (
            vec_filled("the neighbours' keys", n, None)?,
            vec_filled("the neighbours' keys", n, None)?,
        );
        for p in 0..self.n {
            for (_, m) in self.machine.drain_delivered(p) {
                match m {
                    (true, x) => prev[p as usize] = Some(x),
                    (false, x) => next[p as usize] = Some(x),
                }
            }
        }
        Ok((prev, next))
    }

    /// Iteration 0: the root copies `j0` of every representative, the first `mu` or culled
    /// (Lemma 2), with the culling's (rounds, forced, sum of thresholds).
    fn roots(&mut self, reps: &[Vec<Rep>]) -> Result<(PerRep<Vec<u32>>, Culling), Error> {
        let naive: Vec<u32> = (0..u32::try_from(self.mu).unwrap_or(u32::MAX)).collect();
        let Selection::Cull { a, eps } = self.selection else {
            let chosen = reps.iter().map(|rs| vec![naive.clone(); rs.len()]).collect();
            return Ok((chosen, Culling::default()));
        };
        let mut parents: Vec<Vec<Parent>> = Vec::with_capacity(reps.len());
        for rs in reps {
            let mut ps = Vec::with_capacity(rs.len());
            for &(_, v, _) in rs {
                ps.push(Parent { weight: 1, candidates: self.hmos.adj0(v)?.to_vec() });
            }
            parents.push(ps);
        }
        self.machine.enter_phase(Phase::Select(0).to_string());
        let need = usize::try_from(self.mu).unwrap_or(usize::MAX);
        let threshold = Threshold::Shrinking { a, r: self.hmos.r(), eps };
        let culled =
            self.machine.with_messages(|m| cull(m, &parents, need, threshold, |x| x, Some))?;
        let summary = Culling::of(&culled);
        Ok((culled.chosen, summary))
    }

    /// Iteration `i >= 1` by culling (Lemma 3), in phase `select/i`: the coloured paths
    /// `ends` (per processor, per representative) are k-sorted by their (i-1)-module; one
    /// label-0 superstep with the neighbours' boundary keys marks the runs of equal modules; a
    /// segmented suffix count gives the first key of every run (the module's parent, at home
    /// there) its weight `w(u)`; culling with the constant threshold [`theta_level`] chooses
    /// two of u's three i-modules; a segmented prefix spreads the choice along the run and a
    /// greedy label-0 routing returns it to every path's representative. Returns, per
    /// processor, representative and path, the bit mask of the two chosen branches, and the
    /// culling's (rounds, forced, sum of thresholds).
    fn cull_level(
        &mut self,
        i: u32,
        ends: &[PerRep<PathEnd>],
        a: f64,
        eps: f64,
    ) -> Result<(PerRep<Vec<u8>>, Culling), Error> {
        let label = Phase::Select(i).to_string();
        self.machine.enter_phase(label.clone());
        let n = self.n;
        // The coloured paths as sort keys; the sort pads every block to the largest with
        // sentinels that never travel.
        let path_counts = |reps: &PerRep<PathEnd>| reps.iter().map(|es| es.len() as u64).sum();
        let counts: Vec<Vec<u64>> = ends.iter().map(|reps| vec![path_counts(reps)]).collect();
        let most = self.machine.with_messages(|m| prefix(m, 0, &Max, &counts, |x| x, Some))?;
        let most = most.totals.first().copied().unwrap_or(0);
        let bits = u64::BITS - most.saturating_sub(1).leading_zeros();
        // bits < 32 and n << bits <= 2^32: every name fits 32 bits (a run this large exceeds
        // the memory limits long before).
        if bits >= 32 || u64::from(n) << bits > 1 << 32 {
            let rule = "n times the most paths on a processor, rounded up to a power of two, \
                        at most 2^32";
            return Err(Error::param("paths", rule, format!("n = {n}, {most} paths")));
        }
        let most = usize::try_from(most).map_err(|_| Error::param("paths", "fit usize", most))?;
        let keys: Vec<Vec<EndKey>> = (0..n)
            .zip(ends)
            .map(|(p, reps)| {
                let named = (0_u32..).zip(reps.iter().flatten());
                // p << bits | index < n << bits <= 2^32 (checked above).
                named.map(|(index, e)| [e.module, (p << bits) | index]).collect()
            })
            .collect();
        for (proc, block) in self.machine.states_mut().iter_mut().zip(keys) {
            proc.ends = block;
        }
        // The sort's messages are its 8-byte keys alone (Choices: one message type per phase).
        self.machine.with_messages(|m: &mut BspMachine<Proc, EndKey>| {
            ksort_upto(m, 0, most, |key| key, Some)
        })?;
        let blocks: Vec<Vec<EndKey>> =
            self.machine.states().iter().map(|s| s.ends.clone()).collect();
        let module = |k: &EndKey| u64::from(k[0]);
        let firsts: Vec<Option<u64>> = blocks.iter().map(|b| b.first().map(module)).collect();
        let lasts: Vec<Option<u64>> = blocks.iter().map(|b| b.last().map(module)).collect();
        let (prev, next) = self.neighbours(&label, &lasts, Some(&firsts))?;
        let bounds: Vec<(Vec<bool>, Vec<bool>)> =
            (0..n as usize).map(|p| run_bounds(&blocks[p], module, prev[p], next[p])).collect();
        // w(u) at every key: the count from it to the end of its run.
        let items: Vec<Vec<(bool, u64)>> = blocks
            .iter()
            .zip(&bounds)
            .map(|(b, (_, last))| b.iter().zip(last).map(|(_, &e)| (e, 1)).collect())
            .collect();
        let weights =
            self.machine.with_messages(|m| suffix(m, 0, &Flip(SegSum), &items, |x| x, Some))?;
        let up = &self.hmos.levels()[i as usize - 1].up;
        let mut parents: Vec<Vec<Parent>> =
            vec_filled("the selection's parents", n as usize, Vec::new())?;
        // Every run's first key is its module's parent, with the run's count as weight.
        for (p, ((b, (first, _)), w)) in
            blocks.iter().zip(&bounds).zip(&weights.prefixes).enumerate()
        {
            for ((k, _), &(_, weight)) in b.iter().zip(first).zip(w).filter(|((_, l), _)| **l) {
                let candidates = up.get(k[0] as usize).map(|c| c.to_vec()).unwrap_or_default();
                parents[p].push(Parent { weight, candidates });
            }
        }
        let m_i = self.hmos.chain().m[i as usize];
        let mu = u32::try_from(self.mu).unwrap_or(u32::MAX);
        let theta = theta_level(a, mu, i, n, m_i, eps);
        let culled = self
            .machine
            .with_messages(|m| cull(m, &parents, 2, Threshold::Constant(theta), |x| x, Some))?;
        // The choice, as a bit mask of branches, spread from every run's first key.
        let items: Vec<Vec<(bool, i64)>> = bounds
            .iter()
            .zip(&culled.chosen)
            .map(|((lead, _), chosen)| {
                let mut next = chosen.iter();
                let mask = |js: &Vec<u32>| js.iter().fold(0_i64, |m, &j| m | (1 << j));
                lead.iter()
                    .map(|&l| if l { (true, next.next().map_or(0, mask)) } else { (false, 0) })
                    .collect()
            })
            .collect();
        let spread =
            self.machine.with_messages(|m| prefix(m, 0, &Segmented, &items, |x| x, Some))?;
        let mut back: Vec<Vec<(ProcId, Choice)>> =
            vec_filled("the selection's answers", n as usize, Vec::new())?;
        for ((out, b), masks) in back.iter_mut().zip(&blocks).zip(&spread.prefixes) {
            for (&[_, name], &(_, mask)) in b.iter().zip(masks) {
                let (home, index) = (name >> bits, name & ((1 << bits) - 1));
                // A mask of branches 0..3 fits a byte.
                out.push((home, (index, u8::try_from(mask).unwrap_or(0))));
            }
        }
        let returned = self.machine.with_messages(|m| route_greedy(m, 0, back, |x| x, Some))?;
        let mut masks: Vec<Vec<Vec<u8>>> = Vec::with_capacity(ends.len());
        for (reps, got) in ends.iter().zip(returned.delivered) {
            // The paths in index order, then cut into the representatives' paths.
            let mut flat = vec![0; reps.iter().map(Vec::len).sum()];
            for (index, mask) in got {
                if let Some(slot) = flat.get_mut(index as usize) {
                    *slot = mask;
                }
            }
            let mut rest = flat.as_slice();
            let per_rep = reps.iter().map(|es| {
                let (mine, later) = rest.split_at(es.len());
                rest = later;
                mine.to_vec()
            });
            masks.push(per_rep.collect());
        }
        Ok((masks, Culling::of(&culled)))
    }

    /// Copy selection (Section 4.1), iterations 0..=k: per processor, the target set (copy
    /// indices) of every representative, and what every iteration did.
    fn select(&mut self, reps: &[Vec<Rep>]) -> Result<(PerRep<Vec<u64>>, Vec<LevelStats>), Error> {
        let (roots, culling) = self.roots(reps)?;
        let mut ends: Vec<Vec<Vec<PathEnd>>> = Vec::with_capacity(reps.len());
        for (rs, js) in reps.iter().zip(&roots) {
            let mut per = Vec::with_capacity(rs.len());
            for (&(_, v, _), j0s) in rs.iter().zip(js) {
                let adj = self.hmos.adj0(v)?;
                let start = |&j0: &u32| PathEnd { j0, branches: 0, module: adj[j0 as usize] };
                per.push(j0s.iter().map(start).collect::<Vec<_>>());
            }
            ends.push(per);
        }
        let mut stats = vec![culling.stats(0, w_max(&ends))];
        for i in 1..=self.hmos.k() {
            let (masks, culling) = match self.selection {
                Selection::Naive => {
                    let m = ends.iter().map(|r| r.iter().map(|es| vec![0b011; es.len()]).collect());
                    (m.collect(), Culling::default())
                }
                Selection::Cull { a, eps } => self.cull_level(i, &ends, a, eps)?,
            };
            let up = &self.hmos.levels()[i as usize - 1].up;
            let mut work = vec_filled("the processors' work", self.n as usize, 0_u64)?;
            for ((reps_ends, reps_masks), w) in ends.iter_mut().zip(&masks).zip(&mut work) {
                for (es, ms) in reps_ends.iter_mut().zip(reps_masks) {
                    let mut grown = Vec::with_capacity(2 * es.len());
                    for (e, &mask) in es.iter().zip(ms) {
                        for b in (0..3_u32).filter(|b| mask & (1 << b) != 0) {
                            let module = up[e.module as usize][b as usize];
                            let branches = e.branches * 3 + u64::from(b);
                            grown.push(PathEnd { j0: e.j0, branches, module });
                        }
                    }
                    *w += grown.len() as u64;
                    *es = grown;
                }
            }
            if matches!(self.selection, Selection::Cull { .. }) {
                self.machine.local(&format!("select/{i}"), |p, _| work[p as usize])?;
            }
            stats.push(culling.stats(i, w_max(&ends)));
        }
        let pow = 3_u64.pow(self.hmos.k());
        let copies = ends
            .iter()
            .map(|reps| {
                let copy = |e: &PathEnd| u64::from(e.j0) * pow + e.branches;
                reps.iter().map(|es| es.iter().map(copy).collect()).collect()
            })
            .collect();
        Ok((copies, stats))
    }

    /// `tau_i` of Section 4.2: `0` for `i = k + 1`, `log n - log t_i` for `1 <= i <= k`, and
    /// `log n` for `i = 0`.
    fn tau(&self, i: u32) -> u32 {
        let (k, log_n) = (self.hmos.k(), self.n.ilog2());
        match i {
            0 => log_n,
            i if i > k => 0,
            i => log_n - self.hmos.chain().t[i as usize - 1].ilog2(),
        }
    }

    /// Delivers every packet to its copy's processor (Section 4.2), in phase `deliver`: per
    /// processor the packets that arrived, and `delta_(k+1), ..., delta_0`.
    fn deliver(
        &mut self,
        outgoing: Vec<Vec<(ProcId, Packet)>>,
    ) -> Result<(Vec<Vec<Packet>>, Vec<u64>), Error> {
        self.machine.enter_phase(Phase::Deliver.to_string());
        let k = self.hmos.k();
        let log_n = self.n.ilog2();
        let mut deltas = vec![outgoing.iter().map(|o| o.len() as u64).max().unwrap_or(0)];
        let held = match self.delivery {
            Delivery::Greedy => return self.deliver_greedy(outgoing, deltas),
            Delivery::Staged => {
                let outgoing = Held::new(outgoing);
                let taus: Vec<u32> = (0..=k + 1).map(|i| self.tau(i)).collect();
                // One change of message type for all stages: the stages reuse the buffers.
                self.machine.with_messages(|m| {
                    let mut held = outgoing;
                    for stage in (1..=k + 1).rev() {
                        let (within, until) = (taus[stage as usize], taus[stage as usize - 1]);
                        (held, _) = route_two_phase_until(m, within, until, held)?;
                        deltas.push(held.most());
                    }
                    Ok::<_, Error>(held)
                })?
            }
            Delivery::TwoPhase => {
                let outgoing = Held::new(outgoing);
                let (held, loads) =
                    self.machine.with_messages(|m| route_two_phase_until(m, 0, log_n, outgoing))?;
                // After phase 2's move at level tau_i - 1, every message is in its
                // tau_i-cluster: that move's load is delta_i.
                for stage in (1..=k).rev() {
                    let tau = self.tau(stage) as usize;
                    let at = (log_n as usize + tau).checked_sub(1);
                    let load = at.and_then(|j| loads.get(j)).copied();
                    deltas.push(load.unwrap_or(deltas[0]));
                }
                deltas.push(held.most());
                held
            }
        };
        Ok((held.into_payloads(), deltas))
    }

    /// [`Delivery::Greedy`]: one superstep puts every packet on its copy's processor, which
    /// lies in every `tau_i`-cluster of its destination, so `delta_k, ..., delta_0` are all the
    /// largest number of packets a processor receives.
    fn deliver_greedy(
        &mut self,
        outgoing: Vec<Vec<(ProcId, Packet)>>,
        mut deltas: Vec<u64>,
    ) -> Result<(Vec<Vec<Packet>>, Vec<u64>), Error> {
        let routed = self.machine.with_messages(|m| route_greedy(m, 0, outgoing, |x| x, Some))?;
        let most = routed.delivered.iter().map(|d| d.len() as u64).max().unwrap_or(0);
        deltas.extend(std::iter::repeat_n(most, self.hmos.k() as usize + 1));
        Ok((routed.delivered, deltas))
    }

    /// One protocol round for the representatives: `reps[p]` lists, per processor, the
    /// representatives, `targets[p]` their selected copies; returns per processor the value
    /// read (largest timestamp) for each representative, in request order, and the
    /// delivery's `delta`s.
    fn round(
        &mut self,
        step: u64,
        reps: &[Vec<Rep>],
        targets: &[Vec<Vec<u64>>],
    ) -> Result<(Vec<Vec<i64>>, Vec<u64>), Error> {
        let mut outgoing: Vec<Vec<(ProcId, Packet)>> =
            vec_filled("the outgoing packets", self.n as usize, Vec::new())?;
        for ((p, rs), ts) in (0..).zip(reps).zip(targets) {
            for (&(_, v, write), copies) in rs.iter().zip(ts) {
                for &index in copies {
                    let dest = ProcId::try_from(self.hmos.loc(v, index)?).unwrap_or(p);
                    let copy = u32::try_from(index)
                        .map_err(|_| Error::param("copies", "r 3^k < 2^32", index))?;
                    let v =
                        u32::try_from(v).map_err(|_| Error::param("variable", "below 2^32", v))?;
                    let (value, op) = match write {
                        Some(value) => (value, Op::Write),
                        None => (0, Op::Read),
                    };
                    let packet = Packet { v, copy, home: p, op, value };
                    outgoing[p as usize].push((dest, packet));
                }
            }
        }
        let (delivered, deltas) = self.deliver(outgoing)?;
        // Apply at the copies; reads reply.
        let mut replies: Vec<Vec<(ProcId, Reply)>> =
            vec_filled("the replies", self.n as usize, Vec::new())?;
        let mut work = vec_filled("the processors' work", self.n as usize, 0_u64)?;
        for ((p, packets), proc) in (0..).zip(delivered).zip(self.machine.states_mut()) {
            for packet in packets {
                work[p as usize] += 1;
                let cell = (u64::from(packet.v), u64::from(packet.copy));
                match packet.op {
                    Op::Write => {
                        proc.cells.insert(cell, (packet.value, step));
                    }
                    Op::Read => {
                        let (value, ts) = proc.cells.get(&cell).copied().unwrap_or((0, 0));
                        replies[p as usize].push((packet.home, Reply { v: packet.v, ts, value }));
                    }
                }
            }
        }
        self.machine.local("apply", |p, _| work[p as usize])?;
        self.machine.enter_phase(Phase::Reply.to_string());
        let back = self.machine.with_messages(|m| route_two_phase(m, 0, replies))?;
        let mut out: Vec<Vec<i64>> = Vec::with_capacity(reps.len());
        for (rs, got) in reps.iter().zip(back.delivered) {
            let mut best: Vec<(u64, i64)> = vec![(0, 0); rs.len()];
            let mut seen = vec![false; rs.len()];
            for Reply { v: at, ts, value } in got {
                if let Some(i) = rs.iter().position(|&(_, v, _)| v == u64::from(at))
                    && (!seen[i] || ts > best[i].0)
                {
                    best[i] = (ts, value);
                    seen[i] = true;
                }
            }
            out.push(best.into_iter().map(|(_, v)| v).collect());
        }
        Ok((out, deltas))
    }

    fn try_step(&mut self, step: u64, accesses: &mut [Access]) -> Result<(), Error> {
        let n = self.n as usize;
        let len = accesses.len();
        if len == 0 {
            return Ok(());
        }
        let per = len.div_ceil(n);
        // Access i starts at processor i mod n.
        self.machine.enter_phase(Phase::Combine.to_string());
        for (p, proc) in self.machine.states_mut().iter_mut().enumerate() {
            proc.keys = (p..len)
                .step_by(n)
                .map(|i| (accesses[i].addr, u32::try_from(i).unwrap_or(u32::MAX)))
                .collect();
            proc.keys.resize(per, PAD);
        }
        self.machine.with_messages(|m| ksort(m, 0, |x: Key| x, Some))?;
        // Each processor learns its predecessor's last address.
        let lasts: Vec<Option<u64>> =
            self.machine.states().iter().map(|s| s.keys.last().map(|k| k.0)).collect();
        let (prev, _) = self.neighbours("combine/tail", &lasts, None)?;
        let blocks: Vec<Vec<Key>> = self.machine.states().iter().map(|s| s.keys.clone()).collect();
        let is_leader = |p: usize, j: usize| {
            let (addr, _) = blocks[p][j];
            let before = if j == 0 { prev[p] } else { Some(blocks[p][j - 1].0) };
            addr != PAD.0 && before != Some(addr)
        };
        let kind = accesses[0].kind;
        // Representatives: (position, v, value written).
        let reps: Vec<Vec<Rep>> = (0..n)
            .map(|p| {
                (0..blocks[p].len())
                    .filter(|&j| is_leader(p, j))
                    .map(|j| {
                        let (addr, i) = blocks[p][j];
                        let write = match kind {
                            AccessKind::Write => Some(accesses[i as usize].value),
                            _ => None,
                        };
                        (u32::try_from(j).unwrap_or(u32::MAX), addr, write)
                    })
                    .collect()
            })
            .collect();
        let (targets, levels) = self.select(&reps)?;
        let (values, deltas) = self.round(step, &reps, &targets)?;
        let mut stats = StepStats { levels, deltas: vec![deltas] };
        let values = match kind {
            AccessKind::Fetch(op) => {
                // Write round: op(old, contribution) at every representative.
                let writes: Vec<Vec<Rep>> = reps
                    .iter()
                    .zip(&values)
                    .enumerate()
                    .map(|(p, (rs, olds))| {
                        rs.iter()
                            .zip(olds)
                            .map(|(&(pos, v, _), &old)| {
                                let i = blocks[p][pos as usize].1 as usize;
                                (pos, v, Some(op.apply(old, accesses[i].value)))
                            })
                            .collect()
                    })
                    .collect();
                let (_, deltas) = self.round(step, &writes, &targets)?;
                stats.deltas.push(deltas);
                values
            }
            _ => values,
        };
        self.stats.push(stats);
        self.targets =
            reps.iter().zip(targets).flat_map(|(rs, ts)| rs.iter().map(|r| r.1).zip(ts)).collect();
        // Uncombine: every key gets its representative's value by a segmented prefix.
        self.machine.enter_phase(Phase::Uncombine.to_string());
        let items: Vec<Vec<(bool, i64)>> = (0..n)
            .map(|p| {
                let mut next = reps[p].iter().zip(&values[p]).peekable();
                (0..blocks[p].len())
                    .map(|j| match next.peek() {
                        Some(&(&(pos, _, _), &v)) if pos as usize == j => {
                            next.next();
                            (true, v)
                        }
                        _ => (false, 0),
                    })
                    .collect()
            })
            .collect();
        let scanned =
            self.machine.with_messages(|m| prefix(m, 0, &Segmented, &items, |x| x, Some))?;
        // Return each value to the processor its access started at (greedy, label 0).
        let mut back: Vec<Vec<(ProcId, (u32, i64))>> = vec_filled("the answers", n, Vec::new())?;
        for (p, (keys, vals)) in blocks.iter().zip(&scanned.prefixes).enumerate() {
            for (&(addr, i), &(_, v)) in keys.iter().zip(vals) {
                if addr != PAD.0 {
                    let origin = ProcId::try_from(i as usize % n).unwrap_or(0);
                    back[p].push((origin, (i, v)));
                }
            }
        }
        let returned = self.machine.with_messages(|m| route_greedy(m, 0, back, |x| x, Some))?;
        for (i, v) in returned.delivered.into_iter().flatten() {
            let access = &mut accesses[i as usize];
            if !matches!(access.kind, AccessKind::Write) {
                access.value = v;
            }
        }
        Ok(())
    }
}

impl GlobalMemory for HmosMemory {
    fn size(&self) -> u64 {
        self.size
    }

    fn step(&mut self, g_step: u64, accesses: &mut [Access]) {
        if self.error.is_some() {
            return;
        }
        if let Err(e) = self.try_step(g_step, accesses) {
            self.error = Some(e);
        }
    }

    /// Every cell as the copy with the largest timestamp holds it (an inspection, uncharged).
    fn contents(&self) -> Vec<i64> {
        let states = self.machine.states();
        (0..self.size)
            .map(|v| {
                let mut best = (0_u64, 0_i64);
                for copy in 0..self.hmos.copies() {
                    let Ok(p) = self.hmos.loc(v, copy) else { continue };
                    if let Some(&(value, ts)) = states[p as usize].cells.get(&(v, copy))
                        && ts >= best.0
                    {
                        best = (ts, value);
                    }
                }
                best.1
            })
            .collect()
    }
}
