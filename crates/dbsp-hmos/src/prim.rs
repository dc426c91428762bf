//! The D-BSP primitives of Fantozzi, Pietracaprina and Pucci, Section 2 (Propositions 1-3),
//! as real programs on netcore's D-BSP engine ([`BspMachine`]).
//!
//! Every primitive takes `within = c`, runs independently inside every c-cluster and uses
//! labels `>= c` only (the engine refuses a message that leaves its cluster). Most primitives
//! are generic over the machine's message type: `wrap` puts a primitive's message into the
//! machine's message type and `unwrap` takes it out again, so one machine can run several
//! primitives in sequence. The two-phase router ([`route_two_phase`],
//! [`route_two_phase_until`]) instead takes a machine of [`RouteMsg`]s and runs its count
//! exchanges and [`prefix`] on machines of their own message types
//! ([`BspMachine::with_messages`]), so that a routed message is as small as its payload.
//! Working data lives outside the processor states, in per-processor slots the primitive owns,
//! except for k-sorting ([`ksort`], [`ksort_upto`]), whose keys are the processor states'
//! blocks ([`SortBlock`]): the sort rearranges them in place.
//!
//! Work charges (nominal, docs/models/dbsp-hmos.md, Choices): one unit per monoid operation,
//! nothing for forwarding; the k-sort charges what netcore's bitonic sort charges
//! (`k ceil(log2 k)` for the local sort, `2k` per merge-split).

use netcore::ProcId;
use netcore::bsp::primitives::{SortBlock, bitonic_sort_blocks_within};
use netcore::bsp::{BspMachine, CostModel, Ctx, Delivered};

use crate::Error;

type Result<T> = std::result::Result<T, Error>;

/// log2(n) of a D-BSP machine, and `within` checked against it.
fn levels<S, M>(machine: &BspMachine<S, M>, within: u32) -> Result<u32> {
    let log_n = match machine.model() {
        CostModel::Dbsp(d) => d.log_n(),
        CostModel::Bsp(_) => return Err(Error::NotDbsp),
    };
    if within > log_n {
        return Err(Error::WithinOutOfRange { within, log_n });
    }
    Ok(log_n)
}

fn check_len(field: &'static str, n: u32, got: usize) -> Result<()> {
    if got == n as usize { Ok(()) } else { Err(Error::InputLength { field, n, got }) }
}

/// A monoid: an identity and an associative operation, not necessarily commutative.
pub trait Monoid {
    /// The values.
    type Item: Clone;
    /// The identity element.
    fn identity(&self) -> Self::Item;
    /// The associative operation `a ⊕ b` (order matters).
    fn op(&self, a: &Self::Item, b: &Self::Item) -> Self::Item;
}

/// Addition of `u64` modulo 2^64.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sum;

impl Monoid for Sum {
    type Item = u64;
    fn identity(&self) -> u64 {
        0
    }
    fn op(&self, a: &u64, b: &u64) -> u64 {
        a.wrapping_add(*b)
    }
}

/// Componentwise addition of pairs modulo 2^64 (the router's per-half counts).
#[derive(Debug, Clone, Copy, Default)]
pub struct PairSum;

impl Monoid for PairSum {
    type Item = (u64, u64);
    fn identity(&self) -> (u64, u64) {
        (0, 0)
    }
    fn op(&self, a: &(u64, u64), b: &(u64, u64)) -> (u64, u64) {
        (a.0.wrapping_add(b.0), a.1.wrapping_add(b.1))
    }
}

/// Maximum of `u64` (identity 0): with [`prefix`]'s totals, a max-reduce.
#[derive(Debug, Clone, Copy, Default)]
pub struct Max;

impl Monoid for Max {
    type Item = u64;
    fn identity(&self) -> u64 {
        0
    }
    fn op(&self, a: &u64, b: &u64) -> u64 {
        *a.max(b)
    }
}

/// Segmented sum of `u64` (modulo 2^64): an item `(starts, x)` with `starts` set begins a new
/// segment, so an inclusive [`prefix`] gives the sum since the last segment start. With
/// [`Flip`] and [`suffix`], and `starts` read as "ends a segment", it gives every item the sum
/// up to the end of its segment (the protocol's weights `w(u)` at the first key of a run).
#[derive(Debug, Clone, Copy, Default)]
pub struct SegSum;

impl Monoid for SegSum {
    type Item = (bool, u64);
    fn identity(&self) -> (bool, u64) {
        (false, 0)
    }
    fn op(&self, a: &(bool, u64), b: &(bool, u64)) -> (bool, u64) {
        (a.0 || b.0, if b.0 { b.1 } else { a.1.wrapping_add(b.1) })
    }
}

/// A monoid with its operands swapped, `a ⊕' b = b ⊕ a` (associative whenever `⊕` is): a
/// forward segmented operation becomes its mirror image for [`suffix`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Flip<Mo>(pub Mo);

impl<Mo: Monoid> Monoid for Flip<Mo> {
    type Item = Mo::Item;
    fn identity(&self) -> Mo::Item {
        self.0.identity()
    }
    fn op(&self, a: &Mo::Item, b: &Mo::Item) -> Mo::Item {
        self.0.op(b, a)
    }
}

/// String concatenation, the standard non-commutative monoid.
#[derive(Debug, Clone, Copy, Default)]
pub struct Concat;

impl Monoid for Concat {
    type Item = String;
    fn identity(&self) -> String {
        String::new()
    }
    fn op(&self, a: &String, b: &String) -> String {
        format!("{a}{b}")
    }
}

/// Broadcast inside every c-cluster (Proposition 1): the processors holding `Some` item send
/// it on, and every processor of a cluster with one holder ends up holding it. Supersteps
/// with labels `c, c + 1, ..., L - 1`, each an 1-relation: in the i-superstep every holder `p`
/// sends to `p XOR 2^(L-1-i)`, so the cost is `sum_{i=c}^{L-1} (g_i + l_i)`. A processor that
/// already holds an item keeps its own.
pub fn broadcast<S, M: Clone, T: Clone>(
    machine: &mut BspMachine<S, M>,
    within: u32,
    items: &mut [Option<T>],
    wrap: impl Fn(T) -> M,
    unwrap: impl Fn(M) -> Option<T>,
) -> Result<()> {
    let log_n = levels(machine, within)?;
    check_len("items", machine.p(), items.len())?;
    let absorb = |slot: &mut Option<T>, delivered: Delivered<'_, M>| {
        for item in delivered.filter_map(|(_, m)| unwrap(m)) {
            if slot.is_none() {
                *slot = Some(item);
            }
        }
    };
    for i in within..log_n {
        let partner_bit = 1 << (log_n - 1 - i);
        machine.dsuperstep_with(i, "broadcast", items, |ctx, _, slot| {
            absorb(slot, ctx.drain_inbox());
            if let Some(item) = slot {
                ctx.send(ctx.pid() ^ partner_bit, wrap(item.clone()));
            }
        })?;
    }
    for (pid, slot) in (0..).zip(items.iter_mut()) {
        absorb(slot, machine.drain_delivered(pid));
    }
    Ok(())
}

/// The result of [`prefix`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scanned<T> {
    /// Inclusive prefixes: entry `j` of processor `p` combines every item of the processors
    /// before `p` in its cluster, then items `0..=j` of `p` (for [`suffix`]: items `j..` of
    /// `p`, then every item of the processors after `p`).
    pub prefixes: Vec<Vec<T>>,
    /// The cluster's total, known to every processor.
    pub totals: Vec<T>,
}

struct ScanSlot<T> {
    tot: T,
    excl: T,
}

/// Parallel prefix inside every c-cluster over any monoid (Proposition 1; the hypercube
/// scheme): local inclusive scans, then one exchange of running totals per cube dimension,
/// dimension `L - 1 - i` in the i-superstep, labels `L - 1, ..., c` (each an 1-relation), so
/// the cost is `sum_{i=c}^{L-1} (g_i + l_i)` plus the local work. Items are combined in
/// (processor, position) order, so a non-commutative operation is fine.
pub fn prefix<S, M: Clone, Mo: Monoid>(
    machine: &mut BspMachine<S, M>,
    within: u32,
    monoid: &Mo,
    items: &[Vec<Mo::Item>],
    wrap: impl Fn(Mo::Item) -> M,
    unwrap: impl Fn(M) -> Option<Mo::Item>,
) -> Result<Scanned<Mo::Item>> {
    scan(machine, within, monoid, items, false, wrap, unwrap)
}

/// The reverse (suffix) scan inside every c-cluster: entry `j` of processor `p` combines
/// items `j..` of `p`, then every item of the processors after `p` in its cluster, in order.
/// Same supersteps as [`prefix`], with the roles of the lower and upper partner swapped.
pub fn suffix<S, M: Clone, Mo: Monoid>(
    machine: &mut BspMachine<S, M>,
    within: u32,
    monoid: &Mo,
    items: &[Vec<Mo::Item>],
    wrap: impl Fn(Mo::Item) -> M,
    unwrap: impl Fn(M) -> Option<Mo::Item>,
) -> Result<Scanned<Mo::Item>> {
    scan(machine, within, monoid, items, true, wrap, unwrap)
}

/// The hypercube scan behind [`prefix`] (`reverse = false`) and [`suffix`].
fn scan<S, M: Clone, Mo: Monoid>(
    machine: &mut BspMachine<S, M>,
    within: u32,
    monoid: &Mo,
    items: &[Vec<Mo::Item>],
    reverse: bool,
    wrap: impl Fn(Mo::Item) -> M,
    unwrap: impl Fn(M) -> Option<Mo::Item>,
) -> Result<Scanned<Mo::Item>> {
    let log_n = levels(machine, within)?;
    check_len("items", machine.p(), items.len())?;
    let label = if reverse { "suffix" } else { "prefix" };
    // Local inclusive scans (k - 1 operations each), from the right for a suffix scan.
    let mut scans: Vec<Vec<Mo::Item>> = Vec::with_capacity(items.len());
    let mut scan_work = 0;
    for own in items {
        let mut scan: Vec<Mo::Item> = Vec::with_capacity(own.len());
        if reverse {
            for item in own.iter().rev() {
                let next = match scan.last() {
                    Some(last) => monoid.op(item, last),
                    None => item.clone(),
                };
                scan.push(next);
            }
            scan.reverse();
        } else {
            for item in own {
                let next = match scan.last() {
                    Some(last) => monoid.op(last, item),
                    None => item.clone(),
                };
                scan.push(next);
            }
        }
        scan_work = scan_work.max(own.len().saturating_sub(1) as u64);
        scans.push(scan);
    }
    let total_of = |s: &Vec<Mo::Item>| {
        let whole = if reverse { s.first() } else { s.last() };
        whole.cloned().unwrap_or_else(|| monoid.identity())
    };
    let mut slots: Vec<ScanSlot<Mo::Item>> =
        scans.iter().map(|s| ScanSlot { tot: total_of(s), excl: monoid.identity() }).collect();
    // Folds the partner's total received along cube dimension `dim` into a slot. For a
    // prefix the upper partner's excl grows by the lower half's total (on the left); for a
    // suffix the lower partner's excl grows by the upper half's total (on the right).
    let combine = |pid: ProcId, dim: u32, slot: &mut ScanSlot<Mo::Item>, theirs: &Mo::Item| {
        let upper = pid & (1 << dim) != 0;
        match (upper, reverse) {
            (true, false) => {
                slot.excl = monoid.op(theirs, &slot.excl);
                slot.tot = monoid.op(theirs, &slot.tot);
                2
            }
            (false, true) => {
                slot.excl = monoid.op(&slot.excl, theirs);
                slot.tot = monoid.op(&slot.tot, theirs);
                2
            }
            (false, false) => {
                slot.tot = monoid.op(&slot.tot, theirs);
                1
            }
            (true, true) => {
                slot.tot = monoid.op(theirs, &slot.tot);
                1
            }
        }
    };
    let labels: Vec<u32> = (within..log_n).rev().collect();
    for (t, &i) in labels.iter().enumerate() {
        let dim = log_n - 1 - i;
        machine.dsuperstep_with(i, label, &mut slots, |ctx, _, slot| {
            let pid = ctx.pid();
            if t == 0 {
                ctx.charge(scan_work);
            } else {
                let previous = dim - 1;
                let mut work = 0;
                for theirs in ctx.drain_inbox().filter_map(|(_, m)| unwrap(m)) {
                    work += combine(pid, previous, slot, &theirs);
                }
                ctx.charge(work);
            }
            ctx.send(pid ^ (1 << dim), wrap(slot.tot.clone()));
        })?;
    }
    let mut work = if labels.is_empty() { scan_work } else { 0 };
    let exchanged = !labels.is_empty();
    let mut prefixes = Vec::with_capacity(scans.len());
    let mut totals = Vec::with_capacity(scans.len());
    for ((pid, slot), scan) in (0..).zip(slots.iter_mut()).zip(scans) {
        let mut ops = 0;
        if exchanged {
            let last_dim = log_n - 1 - within;
            for theirs in machine.drain_delivered(pid).filter_map(|(_, m)| unwrap(m)) {
                ops += combine(pid, last_dim, slot, &theirs);
            }
            ops += scan.len() as u64;
            // The local scan becomes the prefixes in place (no second vector per processor).
            let mut scan = scan;
            for x in &mut scan {
                *x = if reverse { monoid.op(x, &slot.excl) } else { monoid.op(&slot.excl, x) };
            }
            prefixes.push(scan);
        } else {
            prefixes.push(scan);
        }
        totals.push(slot.tot.clone());
        work = work.max(ops);
    }
    machine.local(label, |_, _| work)?;
    Ok(Scanned { prefixes, totals })
}

/// k-sorting inside every c-cluster (Proposition 2): every processor holds exactly k keys
/// (the caller pads with sentinels); afterwards the first processor of each cluster holds
/// the k smallest keys of its cluster, the next the next k, and so on. This is netcore's
/// bitonic sort ([`bitonic_sort_blocks_within`]): cube dimension `j` is exchanged in an
/// `(L-1-j)`-superstep, label `c + t` occurs `t + 1` times, each with h = k, so the cost is
/// `sum_{i=c}^{L-1} (i - c + 1) (k g_i + l_i)` plus the local work.
pub fn ksort<S, M: Clone, K>(
    machine: &mut BspMachine<S, M>,
    within: u32,
    wrap: impl Fn(K) -> M,
    unwrap: impl Fn(M) -> Option<K>,
) -> Result<()>
where
    S: SortBlock<K>,
    K: Ord + Clone,
{
    levels(machine, within)?;
    let blocks = machine.states_mut();
    let k = blocks.first_mut().map_or(0, |b| b.block().len());
    if let Some((pid, got)) =
        (0..).zip(blocks.iter_mut()).map(|(p, b)| (p, b.block().len())).find(|&(_, len)| len != k)
    {
        return Err(Error::UnequalBlocks { k, pid, got });
    }
    bitonic_sort_blocks_within(machine, k, within, "ksort", wrap, unwrap)?;
    Ok(())
}

/// [`ksort`] with blocks of at most k keys, each conceptually padded with `+infinity`
/// sentinels up to k that never travel (h counts real keys, at most k): the same supersteps
/// and labels. Afterwards the keys of each c-cluster are sorted by processor, then position,
/// in the padded layout: the cluster's first processors hold k keys each, then one holds the
/// rest, the others none.
pub fn ksort_upto<S, M: Clone, K>(
    machine: &mut BspMachine<S, M>,
    within: u32,
    k: usize,
    wrap: impl Fn(K) -> M,
    unwrap: impl Fn(M) -> Option<K>,
) -> Result<()>
where
    S: SortBlock<K>,
    K: Ord + Clone,
{
    levels(machine, within)?;
    let blocks = machine.states_mut();
    if let Some((pid, got)) =
        (0..).zip(blocks.iter_mut()).map(|(p, b)| (p, b.block().len())).find(|&(_, len)| len > k)
    {
        let rule = format!("every processor holds at most k = {k} keys");
        return Err(Error::param("keys", rule, format!("{got} keys at processor {pid}")));
    }
    bitonic_sort_blocks_within(machine, k, within, "ksort", wrap, unwrap)?;
    Ok(())
}

/// A message of the (k1, k2)-router on its way: its destination and its payload. Its rank in
/// the cluster it is moving within does not travel: a receiver gets its messages in rank
/// order, so their order is their ranks (Proposition 3 only asks for an even
/// redistribution; Choices). The router's counts and prefixes travel in messages of their
/// own ([`BspMachine::with_messages`]), so a routed message is as small as its payload
/// allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteMsg<T> {
    /// Final destination.
    pub dest: ProcId,
    /// The payload.
    pub payload: T,
}

/// The result of a routing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Routed<T> {
    /// The payloads each processor received.
    pub delivered: Vec<Vec<T>>,
    /// After each move superstep, in order, the largest number of messages a processor
    /// holds.
    pub loads: Vec<u64>,
}

/// A processor's part of the two-phase router; the messages it holds are the next `len` of
/// one vector for all processors (see [`route_two_phase_until`]).
struct RouteSlot {
    /// How many messages the processor holds.
    len: usize,
    /// How many of them go to the upper half at the next level of phase 2 (counted while
    /// they arrive).
    upper: u64,
    tot: u64,
    other: u64,
    excl: (u64, u64),
}

fn check_outgoing<'a, T: 'a>(
    log_n: u32,
    within: u32,
    n: u32,
    outgoing: impl ExactSizeIterator<Item = &'a [(ProcId, T)]>,
) -> Result<()> {
    check_len("outgoing", n, outgoing.len())?;
    let shift = log_n - within;
    for (src, msgs) in (0..).zip(outgoing) {
        for (index, &(dest, _)) in msgs.iter().enumerate() {
            if dest >= n || src >> shift != dest >> shift {
                return Err(Error::DestinationOutsideCluster { src, index, dest, within });
            }
        }
    }
    Ok(())
}

/// Greedy routing: every message goes directly to its destination in one c-superstep, so
/// the cost is `g_c h + l_c` with h the largest in- or out-degree (the baseline of
/// Proposition 3). Each processor receives its payloads in sender order.
pub fn route_greedy<S, M: Clone, T>(
    machine: &mut BspMachine<S, M>,
    within: u32,
    outgoing: Vec<Vec<(ProcId, T)>>,
    wrap: impl Fn(RouteMsg<T>) -> M,
    unwrap: impl Fn(M) -> Option<RouteMsg<T>>,
) -> Result<Routed<T>> {
    let log_n = levels(machine, within)?;
    let n = machine.p();
    check_outgoing(log_n, within, n, outgoing.iter().map(Vec::as_slice))?;
    let mut slots = outgoing;
    machine.dsuperstep_with(within, "route-greedy", &mut slots, |ctx, _, out| {
        for (dest, payload) in out.drain(..) {
            ctx.send(dest, wrap(RouteMsg { dest, payload }));
        }
    })?;
    let mut delivered = Vec::with_capacity(n as usize);
    for pid in 0..n {
        let got: Vec<T> = machine
            .drain_delivered(pid)
            .filter_map(|(_, m)| unwrap(m).map(|routed| routed.payload))
            .collect();
        delivered.push(got);
    }
    let loads = vec![delivered.iter().map(|d| d.len() as u64).max().unwrap_or(0)];
    Ok(Routed { delivered, loads })
}

/// Two-phase (k1, k2)-routing inside every c-cluster (Proposition 3): neither bound needs to
/// be known. Phase 1 balances the messages over their origin cluster, level by level from
/// the processors up (a count exchange, then a move to the cyclic layout: the message of rank
/// R in a cluster of size S at `base + R mod S`); phase 2 descends towards the destinations,
/// level by level, with a prefix of the per-half counts and a move to the cyclic layout of
/// the half that holds the destination. Supersteps: `2 (L - c)` in phase 1, and
/// `L - i + 1` at each level `i = c..L` of phase 2. Each processor receives its payloads in
/// (sender, send order) order of the last move.
pub fn route_two_phase<S, T: Clone>(
    machine: &mut BspMachine<S, RouteMsg<T>>,
    within: u32,
    outgoing: Vec<Vec<(ProcId, T)>>,
) -> Result<Routed<T>> {
    let log_n = levels(machine, within)?;
    let outgoing = Held::new(outgoing);
    let (held, loads) = route_two_phase_until(machine, within, log_n, outgoing)?;
    Ok(Routed { delivered: held.into_payloads(), loads })
}

/// Messages held by the processors, each as `(destination, payload)`: processor 0's in rank
/// order, then processor 1's, and so on, in one vector (a routing's moves read it front to
/// back, and its drains write it so: faster than a vector per processor, docs/benchmarks/dbsp-hmos.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held<T> {
    messages: Vec<(ProcId, T)>,
    /// How many messages each processor holds, in processor order.
    lens: Vec<usize>,
}

impl<T> Held<T> {
    /// Processor `p` holds `per_processor[p]`, in that order.
    pub fn new(per_processor: Vec<Vec<(ProcId, T)>>) -> Self {
        let lens: Vec<usize> = per_processor.iter().map(Vec::len).collect();
        let mut messages = Vec::with_capacity(lens.iter().sum());
        for mine in per_processor {
            messages.extend(mine);
        }
        Self { messages, lens }
    }

    /// Each processor's messages, in processor order.
    pub fn per_processor(&self) -> impl ExactSizeIterator<Item = &[(ProcId, T)]> {
        let mut rest = self.messages.as_slice();
        self.lens.iter().map(move |&len| {
            let (mine, after) = rest.split_at(len);
            rest = after;
            mine
        })
    }

    /// The largest number of messages a processor holds.
    pub fn most(&self) -> u64 {
        self.lens.iter().max().map_or(0, |&len| len as u64)
    }

    /// Each processor's payloads, in its order.
    pub fn into_payloads(self) -> Vec<Vec<T>> {
        let mut rest = self.messages.into_iter();
        self.lens.iter().map(|&len| rest.by_ref().take(len).map(|(_, p)| p).collect()).collect()
    }
}

/// Counts the messages a move of [`route_two_phase_until`] delivered to each processor, and
/// those whose destination has bit `next` set, into its slot; returns the largest number a
/// processor holds.
fn count_delivered<S, T>(
    machine: &BspMachine<S, RouteMsg<T>>,
    slots: &mut [RouteSlot],
    next: u32,
) -> u64 {
    let mut most = 0;
    for (pid, slot) in (0..).zip(slots.iter_mut()) {
        // Rank order already: a processor's messages come from senders in id order, whose
        // ranks grow with the id (phase 1: at most one sender per half of the cluster, the
        // lower half's ranks below the upper's; phase 2: the ranks of consecutive senders
        // follow the exclusive prefix), each sender's in send order, which is rank order.
        let inbox = machine.pending(pid);
        slot.len = inbox.len();
        slot.upper = inbox.iter().map(|(_, m)| u64::from(m.dest & next != 0)).sum();
        most = most.max(slot.len as u64);
    }
    most
}

/// [`route_two_phase`] inside every c-cluster, stopped after phase 2's level `until - 1`:
/// every message ends in the `until`-cluster holding its destination, in that cluster's
/// cyclic layout (ranked by the prefix of phase 2), so a processor of an `until`-cluster that
/// receives `R` messages in all holds at most `ceil(R / 2^(L - until))`. With `until = L` this is
/// the whole routing. One stage of Theorem 3's delivery is a call with `c = tau_i` and
/// `until = tau_(i-1)`. Returns the messages held and, after each move superstep, in order,
/// the largest number of messages a processor holds.
pub fn route_two_phase_until<S, T: Clone>(
    machine: &mut BspMachine<S, RouteMsg<T>>,
    within: u32,
    until: u32,
    outgoing: Held<T>,
) -> Result<(Held<T>, Vec<u64>)> {
    let log_n = levels(machine, within)?;
    if !(within..=log_n).contains(&until) {
        return Err(Error::param(
            "until",
            format!("within = {within} <= until <= L = {log_n}"),
            until,
        ));
    }
    let n = machine.p();
    check_outgoing(log_n, within, n, outgoing.per_processor())?;
    // The first move reads `outgoing`, not the inboxes: a message still pending on the
    // machine would be dropped by it, so it is refused here.
    if let Some(pid) = (0..n).find(|&pid| !machine.pending(pid).is_empty()) {
        return Err(Error::Bsp(netcore::bsp::BspError::Precondition {
            field: "pending",
            rule: "no delivered message pending on the machine when a routing starts".into(),
            got: format!("{} messages pending at processor {pid}", machine.pending(pid).len()),
        }));
    }
    // A processor's own messages are ranked 0, 1, ... in send order: `outgoing` is in rank
    // order already, and so is every inbox a move delivers (see [`count_delivered`]); the order is
    // the ranks (they do not travel). The first move reads `outgoing`, one vector for all
    // processors in id order, each processor's `len` in turn ([`Held`]), front to back, since
    // the engine runs the bodies in processor order; every later move reads its messages in
    // place from the inbox the move before delivered, which stays pending across the count
    // exchanges and prefixes of other message types ([`BspMachine::with_messages`]).
    let Held { messages: mut held, lens } = outgoing;
    let mut slots: Vec<RouteSlot> = lens
        .into_iter()
        .map(|len| RouteSlot { len, tot: len as u64, upper: 0, other: 0, excl: (0, 0) })
        .collect();
    let mut loads = Vec::new();
    // Whether the messages are in the inboxes (after the first move) or in `held`.
    let mut delivered = false;
    // Phase 1: balance at the origin, levels L-1 down to c.
    for i in (within..log_n).rev() {
        let s: u32 = 1 << (log_n - 1 - i);
        // The bit phase 2 splits on at its first level, c.
        let first_split = 1 << (log_n - 1 - within);
        machine.with_messages(|m: &mut BspMachine<S, u64>| {
            m.dsuperstep_with(i, "route/p1-count", &mut slots, |ctx, _, slot| {
                ctx.send(ctx.pid() ^ s, slot.tot);
            })?;
            for (pid, slot) in (0..).zip(slots.iter_mut()) {
                slot.other = m.drain_delivered(pid).map(|(_, c)| c).sum();
            }
            Ok::<_, Error>(())
        })?;
        let (mut start, mut next_pid) = (0, 0);
        machine.dsuperstep_with(i, "route/p1-move", &mut slots, |ctx, _, slot| {
            let pid = ctx.pid();
            debug_assert_eq!(pid, next_pid, "bodies run in processor order");
            next_pid += 1;
            let in_a = pid & s == 0;
            let (ma, mb) = if in_a { (slot.tot, slot.other) } else { (slot.other, slot.tot) };
            let offset = u64::from(pid & (s - 1));
            let base = u64::from(pid & !(2 * s - 1));
            // The message of rank R goes to base + (R mod 2s), with 2s a power of two; its
            // j-th message has rank `first + j s`, so the even j go to one processor and the
            // odd j to the other, each sent as one block (each receiver's order is unchanged).
            let mask = 2 * u64::from(s) - 1;
            let first = if in_a { offset } else { ma + offset };
            let inbox = ctx.inbox();
            let mine = if delivered { &[][..] } else { &held[start..start + slot.len] };
            start += mine.len();
            for (parity, to) in [(0, first), (1, first + u64::from(s))] {
                // base + (rank mod 2s) < n, so it fits a processor id.
                let to = ProcId::try_from(base + (to & mask)).unwrap_or(pid);
                if delivered {
                    ctx.send_all(to, inbox.iter().skip(parity).step_by(2).map(|(_, m)| m.clone()));
                } else {
                    let items = mine.iter().skip(parity).step_by(2);
                    let items = items.map(|(dest, payload)| (*dest, payload.clone()));
                    ctx.send_all(to, items.map(|(dest, payload)| RouteMsg { dest, payload }));
                }
            }
            slot.tot = ma + mb;
        })?;
        debug_assert_eq!(start, if delivered { 0 } else { held.len() }, "every held message moved");
        delivered = true;
        loads.push(count_delivered(machine, &mut slots, first_split));
    }
    // Phase 2: descend, levels c to until-1. Each processor's count pair, one vector per
    // processor for all levels.
    let mut counts: Vec<Vec<(u64, u64)>> = vec![vec![(0, 0)]; slots.len()];
    for i in within..until {
        let s: u32 = 1 << (log_n - 1 - i);
        for (slot, count) in slots.iter().zip(counts.iter_mut()) {
            count[0] = (slot.len as u64 - slot.upper, slot.upper);
        }
        let scanned = machine.with_messages(|m: &mut BspMachine<S, (u64, u64)>| {
            prefix(m, i, &PairSum, &counts, |x| x, Some)
        })?;
        for ((slot, inclusive), own) in slots.iter_mut().zip(&scanned.prefixes).zip(&counts) {
            let (inc, own) = (inclusive[0], own[0]);
            slot.excl = (inc.0 - own.0, inc.1 - own.1);
        }
        let (mut start, mut next_pid) = (0, 0);
        machine.dsuperstep_with(i, "route/p2-move", &mut slots, |ctx, _, slot| {
            let pid = ctx.pid();
            debug_assert_eq!(pid, next_pid, "bodies run in processor order");
            next_pid += 1;
            let base = u64::from(pid & !(2 * s - 1));
            let half = u64::from(s);
            // rank mod s as a mask (s is a power of two).
            let mask = half - 1;
            let (mut a, mut b) = slot.excl;
            let mut send = |ctx: &mut Ctx<'_, RouteMsg<T>>, message: RouteMsg<T>| {
                let to = if message.dest & s == 0 {
                    a += 1;
                    base + ((a - 1) & mask)
                } else {
                    b += 1;
                    base + half + ((b - 1) & mask)
                };
                ctx.send(ProcId::try_from(to).unwrap_or(pid), message);
            };
            if delivered {
                for (_, message) in ctx.inbox() {
                    send(ctx, message.clone());
                }
            } else {
                for (dest, payload) in &held[start..start + slot.len] {
                    send(ctx, RouteMsg { dest: *dest, payload: payload.clone() });
                }
                start += slot.len;
            }
        })?;
        debug_assert_eq!(start, if delivered { 0 } else { held.len() }, "every held message moved");
        delivered = true;
        // The next level splits on bit s / 2 (0 after the last level: nothing counted).
        loads.push(count_delivered(machine, &mut slots, s >> 1));
    }
    if delivered {
        // The last move's inboxes, in processor order, become the messages held.
        held.clear();
        for pid in 0..n {
            held.extend(machine.drain_delivered(pid).map(|(_, m)| (m.dest, m.payload)));
        }
    }
    let lens = slots.iter().map(|slot| slot.len).collect();
    Ok((Held { messages: held, lens }, loads))
}
