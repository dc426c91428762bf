//! The guest: a linear array `g_1..g_N` whose processors own databases (spec 1.1).
//!
//! Pebble `(i,t)`, `t >= 1`, is computed by `g_i` from its database `b_i` and the pebbles
//! `(i-1,t-1)`, `(i,t-1)`, `(i+1,t-1)`; afterwards `b_i` is updated. Row 0 holds the initial
//! values; boundary pebbles `(0,t)` and `(N+1,t)` are supplied by the program.

use serde::Serialize;

use crate::error::{Error, Result};

/// A pebble value.
pub type Value = u64;

/// Which side a boundary pebble is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Column 0.
    Left,
    /// Column `N+1`.
    Right,
}

/// A deterministic guest program (spec 1.1: `init_db`, `init_val`, `boundary`, `step`).
pub trait GuestProgram {
    /// Initial database of column `i` (1-based).
    fn init_db(&self, i: usize) -> Value;
    /// Initial pebble `(i,0)`.
    fn init_val(&self, i: usize) -> Value;
    /// Boundary pebble `(0,t)` or `(N+1,t)`.
    fn boundary(&self, side: Side, t: u64) -> Value;
    /// Computes pebble `(i,t)` from `(i-1,t-1)`, `(i,t-1)`, `(i+1,t-1)` and updates `db`.
    fn step(&self, db: &mut Value, i: usize, t: u64, left: Value, me: Value, right: Value)
    -> Value;
}

/// The built-in programs, selectable by name in configs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Program {
    /// `val = left + me + right + db`, `db += val` (wrapping).
    Sum,
    /// A hash-like mix of all inputs (every input bit matters); `db` accumulates.
    Mix,
    /// `val = max(left, me, right) + db % 7`, `db = 3 db + 1` (wrapping).
    Max,
    /// The spec's `AffineMod{p=97}` (Figure 1 semantics): `v = (l+me+r+db) mod 97`,
    /// `db = (db+v) mod 97`, `init_val(i) = i`, `db = 0`, boundaries 0.
    Affine,
}

impl Program {
    /// Every built-in program.
    pub const ALL: [Program; 4] = [Program::Sum, Program::Mix, Program::Max, Program::Affine];

    /// The program named `name`.
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "sum" => Ok(Program::Sum),
            "mix" => Ok(Program::Mix),
            "max" => Ok(Program::Max),
            "affine" => Ok(Program::Affine),
            other => Err(Error::UnknownProgram(other.to_string())),
        }
    }

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

fn mix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

impl GuestProgram for Program {
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
        left: Value,
        me: Value,
        right: Value,
    ) -> Value {
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
pub struct PebbleTable {
    /// Guest columns `N`.
    pub n_cols: usize,
    /// Guest steps `T`.
    pub steps: u64,
    /// `rows[t][i]`, boundary columns included.
    pub rows: Vec<Vec<Value>>,
}

impl PebbleTable {
    /// Pebble `(i,t)`.
    pub fn get(&self, i: usize, t: u64) -> Value {
        self.rows[t as usize][i]
    }
}

/// Boundary or initial pebble `(i,t)`, known to every host processor (`t = 0` or `i` in `{0, N+1}`).
pub fn preset<P: GuestProgram + ?Sized>(prog: &P, n_cols: usize, i: usize, t: u64) -> Value {
    if i == 0 {
        prog.boundary(Side::Left, t)
    } else if i == n_cols + 1 {
        prog.boundary(Side::Right, t)
    } else {
        prog.init_val(i)
    }
}

/// The reference: runs the guest directly, one row per step (spec 1.1).
pub fn run_direct<P: GuestProgram + ?Sized>(
    prog: &P,
    n_cols: usize,
    steps: u64,
) -> Result<PebbleTable> {
    if n_cols == 0 {
        return Err(Error::EmptyGuest);
    }
    if steps == 0 {
        return Err(Error::ZeroGuestSteps);
    }
    let mut dbs: Vec<Value> = (0..=n_cols + 1).map(|i| prog.init_db(i)).collect();
    let mut rows = Vec::with_capacity(steps as usize + 1);
    rows.push((0..=n_cols + 1).map(|i| preset(prog, n_cols, i, 0)).collect::<Vec<_>>());
    for t in 1..=steps {
        let prev = &rows[t as usize - 1];
        let mut row = vec![0; n_cols + 2];
        row[0] = prog.boundary(Side::Left, t);
        row[n_cols + 1] = prog.boundary(Side::Right, t);
        for i in 1..=n_cols {
            row[i] = prog.step(&mut dbs[i], i, t, prev[i - 1], prev[i], prev[i + 1]);
        }
        rows.push(row);
    }
    Ok(PebbleTable { n_cols, steps, rows })
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
    }
}
