//! The guest: a linear array `g_1..g_N` whose processors own databases (paper Section 2,
//! Figure 1).
//!
//! Pebble `(i,t)`, `t >= 1`, is computed by `g_i` from its database `b_i` and the pebbles
//! `(i-1,t-1)`, `(i,t-1)`, `(i+1,t-1)`; afterwards `b_i` is updated. Row 0 holds the initial
//! values; boundary pebbles `(0,t)` and `(N+1,t)` are supplied by the program.

use std::fmt::Debug;
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The value type of the built-in programs.
pub type Value = u64;

/// Which side a boundary pebble is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Column 0.
    Left,
    /// Column `N+1`.
    Right,
}

/// A deterministic guest program (`init_db`, `init_val`, `boundary`, `step`;
/// `docs/models/overlap-ring.md`, Choices: guest programs).
///
/// A pebble of weight `w` ([`GuestProgram::weight`]) costs `w` work steps and `w` bandwidth
/// units (`docs/models/overlap-ring.md`, Choices: knowledge); the folded ring
/// ([`crate::shapes::FoldedRing`]) and the 2-D array's super-columns
/// ([`crate::shapes::SuperColumns`]) are programs of weight 2 and `R`.
///
/// A program that panics is the program's fault, not the simulator's: every entry point that
/// runs a program catches the panic and returns [`Error::GuestPanic`] naming the pebble.
pub trait GuestProgram {
    /// A pebble value. Verification folds every pebble into a 64-bit column digest
    /// ([`Digest`]), which every [`Hash`] type has; a value without `Hash` (one holding an
    /// `f64`, say) implements [`Digest`] itself.
    type Val: Clone + PartialEq + Digest + Debug;
    /// A database (compared with `==` against the direct run's after the last step).
    type Db: Clone + PartialEq + Debug;
    /// Work steps and bandwidth units of one pebble (default 1).
    fn weight(&self) -> u32 {
        1
    }
    /// Initial database of column `i` (1-based).
    fn init_db(&self, i: usize) -> Self::Db;
    /// Initial pebble `(i,0)`.
    fn init_val(&self, i: usize) -> Self::Val;
    /// Boundary pebble `(0,t)` or `(N+1,t)`.
    fn boundary(&self, side: Side, t: u64) -> Self::Val;
    /// Computes pebble `(i,t)` from `(i-1,t-1)`, `(i,t-1)`, `(i+1,t-1)` and updates `db`.
    fn step(
        &self,
        db: &mut Self::Db,
        i: usize,
        t: u64,
        left: &Self::Val,
        me: &Self::Val,
        right: &Self::Val,
    ) -> Self::Val;
}

/// The built-in programs, selectable by name in configs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Program {
    /// `val = left + me + right + db`, `db += val` (wrapping).
    Sum,
    /// A hash-like mix of all inputs (every input bit matters); `db` accumulates.
    Mix,
    /// `val = max(left, me, right) + db % 7`, `db = 3 db + 1` (wrapping).
    Max,
    /// Figure 1's semantics modulo 97 (`docs/models/overlap-ring.md`, Choices: guest programs):
    /// `v = (l+me+r+db) mod 97`,
    /// `db = (db+v) mod 97`, `init_val(i) = i`, `db = 0`, boundaries 0.
    Affine,
}

impl Program {
    /// Every built-in program.
    pub const ALL: [Program; 4] = [Program::Sum, Program::Mix, Program::Max, Program::Affine];

    /// The program's name.
    pub fn name(self) -> &'static str {
        match self {
            Program::Sum => "sum",
            Program::Mix => "mix",
            Program::Max => "max",
            Program::Affine => "affine",
        }
    }
}

/// A 64-bit finaliser: every input bit affects every output bit (built-in programs).
pub(crate) fn mix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

impl GuestProgram for Program {
    type Val = Value;
    type Db = Value;
    fn init_db(&self, i: usize) -> Value {
        match self {
            Program::Affine => 0,
            _ => i as Value,
        }
    }
    fn init_val(&self, i: usize) -> Value {
        match self {
            Program::Sum | Program::Max | Program::Affine => i as Value,
            Program::Mix => mix64(i as Value),
        }
    }
    fn boundary(&self, side: Side, t: u64) -> Value {
        match (self, side) {
            (Program::Mix, Side::Left) => mix64(t),
            (Program::Mix, Side::Right) => mix64(!t),
            (Program::Affine, _) | (_, Side::Left) => 0,
            (_, Side::Right) => t,
        }
    }
    fn step(
        &self,
        db: &mut Value,
        i: usize,
        t: u64,
        left: &Value,
        me: &Value,
        right: &Value,
    ) -> Value {
        let (left, me, right) = (*left, *me, *right);
        match self {
            Program::Sum => {
                let v = left.wrapping_add(me).wrapping_add(right).wrapping_add(*db);
                *db = db.wrapping_add(v);
                v
            }
            Program::Mix => {
                let v = mix64(
                    left.rotate_left(7)
                        ^ me.rotate_left(19)
                        ^ right
                        ^ db.wrapping_mul(31)
                        ^ ((i as u64) << 32)
                        ^ t,
                );
                *db = db.wrapping_add(v >> 3);
                v
            }
            Program::Affine => {
                let v = (left + me + right + *db) % 97;
                *db = (*db + v) % 97;
                v
            }
            Program::Max => {
                let v = left.max(me).max(right).wrapping_add(*db % 7);
                *db = db.wrapping_mul(3).wrapping_add(1);
                v
            }
        }
    }
}

/// The value of every pebble of a guest run: `rows[t][i]` for `0 <= t <= T`, `0 <= i <= N+1`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PebbleTable<V, D> {
    /// Guest columns `N`.
    pub n_cols: usize,
    /// Guest steps `T`.
    pub steps: u64,
    /// `rows[t][i]`, boundary columns included.
    pub rows: Vec<Vec<V>>,
    /// Final databases `b_1..b_N` (`final_db[i-1]`).
    pub final_db: Vec<D>,
}

impl<V: Clone, D> PebbleTable<V, D> {
    /// Pebble `(i,t)`.
    pub fn get(&self, i: usize, t: u64) -> V {
        self.rows[t as usize][i].clone()
    }
}

/// Boundary or initial pebble `(i,t)`, known to every host processor (`t = 0` or `i` in `{0, N+1}`).
pub fn preset<P: GuestProgram + ?Sized>(prog: &P, n_cols: usize, i: usize, t: u64) -> P::Val {
    if i == 0 {
        prog.boundary(Side::Left, t)
    } else if i == n_cols + 1 {
        prog.boundary(Side::Right, t)
    } else {
        prog.init_val(i)
    }
}

/// A cheap deterministic 64-bit hasher for column digests (not cryptographic: it guards
/// against simulator bugs, not adversaries).
#[derive(Debug, Clone, Copy)]
struct Fold(u64);

impl Hasher for Fold {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

/// How a pebble value enters a column digest (`docs/models/overlap-ring.md`, Choices:
/// verification): the engine folds the pebbles `(i,1), .., (i,T)` each holder computes and
/// compares the result with the direct run's. Every [`Hash`] type has it; a value type without
/// `Hash` (for instance one holding an `f64`, which has no `Hash` because `NaN != NaN`)
/// implements it from its bits.
///
/// # Examples
///
/// ```
/// use overlap_ring::guest::{Digest, fold};
///
/// /// A temperature: `f64` has no `Hash`, so its bits enter the digest.
/// #[derive(Debug, Clone, PartialEq)]
/// struct Heat(f64);
/// impl Digest for Heat {
///     fn digest(&self, state: u64) -> u64 {
///         fold(state, &self.0.to_bits())
///     }
/// }
/// assert_ne!(Heat(1.0).digest(0), Heat(2.0).digest(0));
/// assert_eq!(7u64.digest(3), fold(3, &7u64));
/// ```
pub trait Digest {
    /// Folds `self` into the digest `state`; equal values must give equal digests.
    fn digest(&self, state: u64) -> u64;
}

impl<T: Hash + ?Sized> Digest for T {
    fn digest(&self, state: u64) -> u64 {
        let mut h = Fold(state);
        self.hash(&mut h);
        h.0
    }
}

/// Folds pebble `v` into a column digest: `v.digest(digest)` ([`Digest`]).
pub fn fold<V: Digest + ?Sized>(digest: u64, v: &V) -> u64 {
    v.digest(digest)
}

/// The direct run as the simulators need it (`docs/models/overlap-ring.md`, Choices:
/// verification): per column the digest of `(i,1..T)` and
/// the final database. Memory is `O(N)`, so the reference of a `2^18`-column run fits.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Reference<D> {
    /// Guest columns `N`.
    pub n_cols: usize,
    /// Guest steps `T`.
    pub steps: u64,
    /// `digests[i-1]` = fold of `(i,1), .., (i,T)`.
    pub digests: Vec<u64>,
    /// `final_db[i-1]` = `b_i` after step `T`.
    pub final_db: Vec<D>,
}

impl<D> Reference<D> {
    /// The reference of a full table (used by tests and the unfolded ring / grid runs).
    pub fn from_rows<V: Digest>(rows: &[Vec<V>], final_db: Vec<D>) -> Self {
        let n_cols = final_db.len();
        let mut digests = vec![0u64; n_cols];
        for row in &rows[1..] {
            for (d, v) in digests.iter_mut().zip(&row[1..=n_cols]) {
                *d = fold(*d, v);
            }
        }
        Self { n_cols, steps: rows.len() as u64 - 1, digests, final_db }
    }
}

/// The pebble being computed when a guest program panics (for [`Error::GuestPanic`]).
#[derive(Debug, Default)]
pub(crate) struct Current(std::cell::Cell<(usize, u64)>);

impl Current {
    pub(crate) fn set(&self, col: usize, row: u64) {
        self.0.set((col, row));
    }
}

/// Runs `f`, turning a panic of the guest program into [`Error::GuestPanic`] naming the pebble
/// last announced through [`Current::set`].
pub(crate) fn guarded<R>(f: impl FnOnce(&Current) -> Result<R>) -> Result<R> {
    let current = Current::default();
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&current))) {
        Ok(result) => result,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "non-string panic payload".into());
            let (col, row) = current.0.get();
            Err(Error::GuestPanic { col, row, message })
        }
    }
}

fn check_size(n_cols: usize, steps: u64) -> Result<()> {
    if n_cols == 0 {
        return Err(Error::EmptyGuest);
    }
    if steps == 0 {
        return Err(Error::ZeroGuestSteps);
    }
    Ok(())
}

/// Runs the guest directly, one row per step (paper Section 2), calling `row` with every finished
/// row (boundary columns included) and returning the final databases.
fn direct<P: GuestProgram + ?Sized>(
    prog: &P,
    n_cols: usize,
    steps: u64,
    mut row_done: impl FnMut(&[P::Val]),
) -> Result<Vec<P::Db>> {
    check_size(n_cols, steps)?;
    guarded(|current| {
        use netcore::limits::{collect_exact, vec_with_capacity};
        let mut dbs =
            collect_exact("the guest databases", n_cols, (1..=n_cols).map(|i| prog.init_db(i)))?;
        let row = (0..=n_cols + 1).map(|i| preset(prog, n_cols, i, 0));
        let mut prev: Vec<P::Val> = collect_exact("the guest columns", n_cols + 2, row)?;
        row_done(&prev);
        let mut next = vec_with_capacity("the guest columns", n_cols + 2)?;
        next.extend_from_slice(&prev);
        for t in 1..=steps {
            next[0] = prog.boundary(Side::Left, t);
            next[n_cols + 1] = prog.boundary(Side::Right, t);
            for i in 1..=n_cols {
                current.set(i, t);
                next[i] = prog.step(&mut dbs[i - 1], i, t, &prev[i - 1], &prev[i], &prev[i + 1]);
            }
            std::mem::swap(&mut prev, &mut next);
            row_done(&prev);
        }
        Ok(dbs)
    })
}

/// The reference: the full table of a direct guest run (paper Section 2). Memory `O(N T)`; sweeps
/// use [`reference()`].
pub fn run_direct<P: GuestProgram + ?Sized>(
    prog: &P,
    n_cols: usize,
    steps: u64,
) -> Result<PebbleTable<P::Val, P::Db>> {
    let mut rows = Vec::new();
    let final_db = direct(prog, n_cols, steps, |row| rows.push(row.to_vec()))?;
    Ok(PebbleTable { n_cols, steps, rows, final_db })
}

/// The digest reference of a direct guest run in `O(N)` memory (`docs/models/overlap-ring.md`,
/// Choices: verification).
///
/// # Errors
///
/// [`Error::EmptyGuest`] or [`Error::ZeroGuestSteps`] for an empty guest,
/// [`Error::GuestPanic`] if the program panics, and [`Error::OutOfMemory`] if the system
/// refuses the guest columns or the digests.
pub fn reference<P: GuestProgram + ?Sized>(
    prog: &P,
    n_cols: usize,
    steps: u64,
) -> Result<Reference<P::Db>> {
    let mut digests = netcore::limits::vec_filled("the reference digests", n_cols, 0u64)?;
    let mut first = true;
    let final_db = direct(prog, n_cols, steps, |row| {
        if std::mem::take(&mut first) {
            return;
        }
        for (d, v) in digests.iter_mut().zip(&row[1..=n_cols]) {
            *d = fold(*d, v);
        }
    })?;
    Ok(Reference { n_cols, steps, digests, final_db })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sum_program_two_columns_by_hand() {
        // N=2, sum: row0 = [b=0, 1, 2, b=0]; dbs = [_,1,2,_].
        // (1,1) = 0+1+2+db1(1) = 4, db1 = 5; (2,1) = 1+2+0+db2(2) = 5, db2 = 7; boundaries 0 | 1.
        // (1,2) = 0+4+5+5 = 14; (2,2) = 4+5+1+7 = 17; boundaries 0 | 2.
        let t = run_direct(&Program::Sum, 2, 2).unwrap();
        assert_eq!(t.rows[1], vec![0, 4, 5, 1]);
        assert_eq!(t.rows[2], vec![0, 14, 17, 2]);
        assert_eq!(t.final_db, vec![5 + 14, 7 + 17]);
        // The digest reference folds the same values.
        let r = reference(&Program::Sum, 2, 2).unwrap();
        assert_eq!(r, Reference::from_rows(&t.rows, t.final_db));
    }
}
