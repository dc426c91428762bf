//! The entries put back because their clocks are busy, in buckets (`docs/models/logp-stall.md`,
//! Choices, "LogGOPSim rules", put-back entries).
//!
//! LogGOPSim puts a blocked entry back at the time its clocks free, keeping its stamp; when
//! those clocks free, the first such entry runs and every other one is taken and put back
//! again. A linear all-to-all holds `p` blocked entries per rank for `2p` rounds: `p^3` put-backs
//! in all. Here the blocked entries of one rank that wait for the same clocks (`res`: a calc's
//! CPU, a send's CPU and send gap, a message's CPU and receive gap) at the same time `key` form
//! a bucket, ordered by stamp, with one token in the active queue at `(key, first stamp)`:
//! - **Taken and free**: the first entry runs (it leaves the bucket); if the run leaves the
//!   clocks busy for the next one, the rest moves at once as below (none of them taken yet),
//!   else the token moves to the next.
//! - **Taken and busy** until `free`: the whole bucket moves to `free`, each entry counted as
//!   taken once. That is exact as long as the rank's clocks do not change before the other
//!   entries' turns at `(key, stamp)` come: the bucket remembers `key` (`from`) until then.
//!   Before any change of a rank's clocks, [`Waits::settle`] moves the entries of its buckets
//!   whose turn has not come yet (their `(from, stamp)` is past every position taken so far,
//!   `w`) back to `from`, uncounted: they are taken there, in turn, against the new clocks.
//!
//! An entry is taken at `(key, stamp)` exactly when LogGOPSim takes it; every entry that runs,
//! runs at the same place in the order; only the put-backs are handled a bucket at a time.

use std::collections::VecDeque;

use netcore::Step;
use netcore::limits::{OutOfMemory, vec_filled};

/// A put-back entry: `(stamp, op, src)` as in the active queue (`op` with the message bit).
pub(super) type Member = (u32, u32, u32);

/// A bucket's token for the active queue: `(key, first stamp, slot, generation)`.
pub(super) type Token = (Step, u32, u32, u32);

/// No bucket (end of a rank's chain).
const NIL: u32 = u32::MAX;

struct Bucket {
    host: u32,
    /// The clocks waited for (class, CPU and NIC indices).
    res: u32,
    key: Step,
    /// Bumped whenever the token changes: an older token is stale.
    generation: u32,
    /// The time the members were moved from at once, until all have had their turn there.
    from: Option<Step>,
    /// The next bucket of the same rank.
    next: u32,
    members: VecDeque<Member>,
}

/// The buckets of put-back entries, chained per rank.
pub(super) struct Waits {
    buckets: Vec<Bucket>,
    free: Vec<u32>,
    /// The first bucket of each rank.
    first: Vec<u32>,
    /// Bit `h`: rank `h` may have a bucket remembering a `from` (1 bit per rank, so that
    /// [`Waits::settle`], called before every change of clocks, reads 128 KiB at 2^20 ranks
    /// rather than `first`'s 4 MiB).
    pending: Vec<u64>,
}

impl Waits {
    /// No bucket yet, for `ranks` ranks ([`OutOfMemory`] when the system refuses the
    /// per-rank arrays).
    pub(super) fn new(ranks: u32) -> Result<Self, OutOfMemory> {
        let ranks = ranks as usize;
        Ok(Self {
            buckets: Vec::new(),
            free: Vec::new(),
            first: vec_filled("the put-back buckets", ranks, NIL)?,
            pending: vec_filled("the put-back buckets", ranks.div_ceil(64), 0)?,
        })
    }

    fn token(&self, slot: u32) -> Token {
        let b = &self.buckets[slot as usize];
        (b.key, b.members.front().expect("a bucket in use is not empty").0, slot, b.generation)
    }

    /// Puts `m` of rank `host` back at `key` to wait for `res`; the token to queue, if the
    /// bucket's first entry changed.
    pub(super) fn park(&mut self, host: u32, res: u32, key: Step, m: Member) -> Option<Token> {
        let mut slot = self.first[host as usize];
        while slot != NIL {
            let b = &mut self.buckets[slot as usize];
            if b.res == res && b.key == key && b.from.is_none() {
                // Mostly newer than every member (a new stamp): appended without a search.
                if b.members.back().is_some_and(|x| x.0 < m.0) {
                    b.members.push_back(m);
                    return None;
                }
                let at = b.members.partition_point(|x| x.0 < m.0);
                b.members.insert(at, m);
                if at > 0 {
                    return None;
                }
                b.generation = b.generation.wrapping_add(1);
                return Some(self.token(slot));
            }
            slot = b.next;
        }
        let slot = self.alloc(host, res, key);
        self.buckets[slot as usize].members.push_back(m);
        Some(self.token(slot))
    }

    fn alloc(&mut self, host: u32, res: u32, key: Step) -> u32 {
        let next = self.first[host as usize];
        let slot = match self.free.pop() {
            Some(slot) => {
                let b = &mut self.buckets[slot as usize];
                (b.host, b.res, b.key, b.from, b.next) = (host, res, key, None, next);
                slot
            }
            None => {
                let members = VecDeque::new();
                let (generation, from) = (0, None);
                self.buckets.push(Bucket { host, res, key, generation, from, next, members });
                u32::try_from(self.buckets.len() - 1).expect("fewer than 2^32 buckets")
            }
        };
        self.first[host as usize] = slot;
        slot
    }

    /// Unchains the empty bucket `slot` and frees it (its tokens go stale).
    fn release(&mut self, slot: u32) {
        let (host, next) = {
            let b = &mut self.buckets[slot as usize];
            b.generation = b.generation.wrapping_add(1);
            (b.host, b.next)
        };
        let mut at = self.first[host as usize];
        if at == slot {
            self.first[host as usize] = next;
        } else {
            while self.buckets[at as usize].next != slot {
                at = self.buckets[at as usize].next;
            }
            self.buckets[at as usize].next = next;
        }
        self.free.push(slot);
    }

    /// Whether a token `(slot, generation)` is the bucket's current one.
    pub(super) fn current(&self, slot: u32, generation: u32) -> bool {
        self.buckets.get(slot as usize).is_some_and(|b| b.generation == generation)
    }

    /// The bucket `slot`, whose token was just taken: every other bucket of its rank waiting
    /// for the same clocks at the same time is merged into it (their turns there have all
    /// come, so none still remembers a `from`). Returns its rank, the clocks its entries wait
    /// for and its first entry.
    pub(super) fn open(&mut self, slot: u32) -> (u32, u32, Member) {
        let (host, res, key) = {
            let b = &mut self.buckets[slot as usize];
            b.from = None;
            (b.host, b.res, b.key)
        };
        let mut other = self.first[host as usize];
        while other != NIL {
            let next = self.buckets[other as usize].next;
            let o = &self.buckets[other as usize];
            if other != slot && o.res == res && o.key == key {
                let mut taken = std::mem::take(&mut self.buckets[other as usize].members);
                merge(&mut self.buckets[slot as usize].members, &mut taken);
                self.buckets[other as usize].members = taken;
                self.release(other);
            }
            other = next;
        }
        let b = &self.buckets[slot as usize];
        (host, res, *b.members.front().expect("a bucket in use is not empty"))
    }

    /// Removes the first entry of `slot` (it runs): whether entries are left (the bucket
    /// then has no token until [`Waits::retoken`] or [`Waits::move_to`]).
    pub(super) fn take_first(&mut self, slot: u32) -> bool {
        let b = &mut self.buckets[slot as usize];
        b.members.pop_front();
        if b.members.is_empty() {
            self.release(slot);
            return false;
        }
        true
    }

    /// A new token for `slot` at its time.
    pub(super) fn retoken(&mut self, slot: u32) -> Token {
        let b = &mut self.buckets[slot as usize];
        b.generation = b.generation.wrapping_add(1);
        self.token(slot)
    }

    /// Moves the whole bucket `slot` to `key`: its entries are found busy until then, the
    /// first one already taken (`first_taken`) or none. Returns the number of entries still to
    /// be taken (each counted once more) and the new token.
    pub(super) fn move_to(&mut self, slot: u32, key: Step, first_taken: bool) -> (u64, Token) {
        let b = &mut self.buckets[slot as usize];
        let others = b.members.len() as u64 - u64::from(first_taken);
        b.from = (others > 0).then_some(b.key);
        b.key = key;
        if others > 0 {
            let h = b.host as usize;
            self.pending[h / 64] |= 1 << (h % 64);
        }
        (others, self.retoken(slot))
    }

    /// Before a change of rank `host`'s clocks, with `w` the largest `(time, stamp)` taken so
    /// far: the entries whose turn at their bucket's `from` has not come go back there (each
    /// new token to `push`). Returns how many went back (counted as taken, wrongly).
    pub(super) fn settle(&mut self, host: u32, w: (Step, u32), mut push: impl FnMut(Token)) -> u64 {
        let (word, bit) = (host as usize / 64, 1 << (host % 64));
        if self.pending.get(word).is_none_or(|w| w & bit == 0) {
            return 0;
        }
        self.pending[word] &= !bit;
        let (mut back, mut slot) = (0, self.first[host as usize]);
        while slot != NIL {
            let b = &mut self.buckets[slot as usize];
            let next = b.next;
            if let Some(from) = b.from.take()
                && from == w.0
            {
                let at = b.members.partition_point(|x| x.0 <= w.1);
                if at == 0 {
                    // None has had its turn: the whole bucket goes back.
                    back += b.members.len() as u64;
                    b.key = from;
                    push(self.retoken(slot));
                } else if at < b.members.len() {
                    let rest = b.members.split_off(at);
                    back += rest.len() as u64;
                    let res = b.res;
                    let new = self.alloc(host, res, from);
                    self.buckets[new as usize].members = rest;
                    push(self.token(new));
                }
            }
            slot = next;
        }
        back
    }
}

/// Merges the stamp-ordered `b` into the stamp-ordered `a`, leaving `b` empty (the shorter
/// side moved when one side follows the other, as when newer entries join older ones).
fn merge(a: &mut VecDeque<Member>, b: &mut VecDeque<Member>) {
    if b.len() > a.len() {
        std::mem::swap(a, b);
    }
    match (a.front(), a.back(), b.front(), b.back()) {
        (_, Some(last), Some(first), _) if last.0 < first.0 => a.append(b),
        (Some(first), _, _, Some(last)) if last.0 < first.0 => {
            while let Some(m) = b.pop_back() {
                a.push_front(m);
            }
        }
        _ => {
            let mut all: Vec<Member> = a.drain(..).chain(b.drain(..)).collect();
            all.sort_unstable_by_key(|m| m.0);
            a.extend(all);
        }
    }
}
