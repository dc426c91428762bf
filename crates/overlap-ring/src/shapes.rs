//! Guest shapes reduced to the linear case: a guest **ring** folded into a linear
//! array of weight-2 super-columns (paper Section 1: a linear array simulates a ring with
//! slowdown 2), and a guest **2-D array** cut into super-columns of weight
//! `R` (paper Section 5, Theorems 7 and 8). Each shape has an adapter that is a
//! [`GuestProgram`] the engine runs, and a reference that runs the *unfolded* shape directly, so
//! every simulation is checked against the real ring or grid, not against the adapter.

use crate::error::{Error, Result};
use crate::guest::{GuestProgram, Reference, Side, Value, fold, guarded, mix64};
use crate::plan::Plan;

/// A guest ring of `N` (even) cells folded into `N/2` super-columns: super-column `j` holds
/// cells `j` and `N+1-j` (`docs/models/overlap-ring.md`, Choices: ring and host ring), so ring
/// neighbours stay at most one super-column apart and the ring needs no boundary pebbles. The cell
/// program is a [`GuestProgram`] whose `boundary` is never consulted. A super-pebble has weight 2
/// (the paper's "slowdown 2").
#[derive(Debug, Clone, Copy)]
pub struct FoldedRing<P> {
    pub(crate) cells: P,
    pub(crate) n_cells: usize,
}

impl<P: GuestProgram> FoldedRing<P> {
    /// Folds a ring of `n_cells` cells (even, >= 2).
    pub fn new(cells: P, n_cells: usize) -> Result<Self> {
        if n_cells == 0 {
            return Err(Error::EmptyGuest);
        }
        if !n_cells.is_multiple_of(2) {
            return Err(Error::OddRing { n_cols: n_cells });
        }
        Ok(Self { cells, n_cells })
    }

    /// The cell program.
    pub fn cells(&self) -> &P {
        &self.cells
    }

    /// Ring length `N`.
    pub fn n_cells(&self) -> usize {
        self.n_cells
    }

    /// Super-columns `N/2`.
    pub fn n_cols(&self) -> usize {
        self.n_cells / 2
    }

    /// The direct run of the unfolded ring, as the reference of the folded program: the
    /// digest of super-column `j` folds the pairs `((j,t), (N+1-j,t))`.
    ///
    /// # Errors
    ///
    /// [`Error::ZeroGuestSteps`] for `steps = 0`, [`Error::GuestPanic`] if the program panics,
    /// and [`Error::OutOfMemory`] if the system refuses the cells or the reference.
    pub fn reference(&self, steps: u64) -> Result<Reference<(P::Db, P::Db)>>
    where
        P::Val: std::hash::Hash,
    {
        let n = self.n_cells;
        if steps == 0 {
            return Err(Error::ZeroGuestSteps);
        }
        guarded(|current| {
            use netcore::limits::{collect_exact, vec_filled};
            let mut dbs =
                collect_exact("the cell databases", n, (1..=n).map(|i| self.cells.init_db(i)))?;
            let mut prev: Vec<P::Val> =
                collect_exact("the ring cells", n, (1..=n).map(|i| self.cells.init_val(i)))?;
            let mut digests = vec_filled("the reference digests", n / 2, 0u64)?;
            for t in 1..=steps {
                let mut next = Vec::with_capacity(n);
                for i in 0..n {
                    current.set(i + 1, t);
                    let (l, r) = (&prev[(i + n - 1) % n], &prev[(i + 1) % n]);
                    next.push(self.cells.step(&mut dbs[i], i + 1, t, l, &prev[i], r));
                }
                for (j, d) in digests.iter_mut().enumerate() {
                    *d = fold(*d, &(next[j].clone(), next[n - 1 - j].clone()));
                }
                prev = next;
            }
            let pairs = (0..n / 2).map(|j| (dbs[j].clone(), dbs[n - 1 - j].clone()));
            let final_db = collect_exact("the final databases", n / 2, pairs)?;
            Ok(Reference { n_cols: n / 2, steps, digests, final_db })
        })
    }
}

/// The ring's cell values must be [`Hash`](std::hash::Hash): a super-pebble is a pair of them.
impl<P: GuestProgram> GuestProgram for FoldedRing<P>
where
    P::Val: std::hash::Hash,
{
    type Val = (P::Val, P::Val);
    type Db = (P::Db, P::Db);
    fn weight(&self) -> u32 {
        2 * self.cells.weight()
    }
    fn init_db(&self, j: usize) -> Self::Db {
        (self.cells.init_db(j), self.cells.init_db(self.n_cells + 1 - j))
    }
    fn init_val(&self, j: usize) -> Self::Val {
        (self.cells.init_val(j), self.cells.init_val(self.n_cells + 1 - j))
    }
    /// Never consulted: the folded ring's ends are its own neighbours.
    fn boundary(&self, side: Side, t: u64) -> Self::Val {
        (self.cells.boundary(side, t), self.cells.boundary(side, t))
    }
    /// Cell `a = j` has ring neighbours `j-1` (the `a` part of super-column `j-1`, or cell `N`
    /// = this `b` part when `j = 1`) and `j+1` (`a` of `j+1`, or this `b` when `j = N/2`);
    /// cell `b = N+1-j` has `N-j` (`b` of `j+1`, or this `a` when `j = N/2`) and `N+2-j`
    /// (`b` of `j-1`, or this `a` when `j = 1`).
    fn step(
        &self,
        db: &mut Self::Db,
        j: usize,
        t: u64,
        left: &Self::Val,
        me: &Self::Val,
        right: &Self::Val,
    ) -> Self::Val {
        let half = self.n_cells / 2;
        let a_left = if j == 1 { &me.1 } else { &left.0 };
        let a_right = if j == half { &me.1 } else { &right.0 };
        let b_left = if j == half { &me.0 } else { &right.1 };
        let b_right = if j == 1 { &me.0 } else { &left.1 };
        let a = self.cells.step(&mut db.0, j, t, a_left, &me.0, a_right);
        let b = self.cells.step(&mut db.1, self.n_cells + 1 - j, t, b_left, &me.1, b_right);
        (a, b)
    }
}

/// A deterministic program for a guest 2-D array `R x C` (nodes `(row, col)`, 1-based): node
/// `(i, j)` computes from its database and its four neighbours and itself at the previous step;
/// neighbours outside the grid read [`GridProgram::boundary`].
pub trait GridProgram {
    /// A node value.
    type Val: Clone + PartialEq + std::hash::Hash + std::fmt::Debug;
    /// A node database.
    type Db: Clone + PartialEq + std::hash::Hash + std::fmt::Debug;
    /// Initial database of node `(i, j)`.
    fn init_db(&self, i: usize, j: usize) -> Self::Db;
    /// Initial value of node `(i, j)`.
    fn init_val(&self, i: usize, j: usize) -> Self::Val;
    /// The value read for a neighbour outside the grid at step `t`.
    fn boundary(&self, t: u64) -> Self::Val;
    /// Computes node `(i, j)` at step `t` and updates its database.
    #[allow(clippy::too_many_arguments)]
    fn step(
        &self,
        db: &mut Self::Db,
        i: usize,
        j: usize,
        t: u64,
        up: &Self::Val,
        down: &Self::Val,
        left: &Self::Val,
        me: &Self::Val,
        right: &Self::Val,
    ) -> Self::Val;
}

/// The built-in grid program: a hash-like mix of every input (every input bit matters).
#[derive(Debug, Clone, Copy, Default)]
pub struct GridMix;

impl GridProgram for GridMix {
    type Val = Value;
    type Db = Value;
    fn init_db(&self, i: usize, j: usize) -> Value {
        (i as u64) << 20 | j as u64
    }
    fn init_val(&self, i: usize, j: usize) -> Value {
        mix64((i as u64) << 32 | j as u64)
    }
    fn boundary(&self, t: u64) -> Value {
        mix64(!t)
    }
    fn step(
        &self,
        db: &mut Value,
        i: usize,
        j: usize,
        t: u64,
        up: &Value,
        down: &Value,
        left: &Value,
        me: &Value,
        right: &Value,
    ) -> Value {
        let v = mix64(
            up.rotate_left(3)
                ^ down.rotate_left(11)
                ^ left.rotate_left(23)
                ^ me.rotate_left(37)
                ^ right
                ^ db.wrapping_mul(31)
                ^ ((i as u64) << 40)
                ^ ((j as u64) << 20)
                ^ t,
        );
        *db = db.wrapping_add(v >> 7);
        v
    }
}

/// A guest `R x C` array as `C` super-columns of weight `R` (paper Section 5, Theorem 7: a
/// processor simulates whole columns): a super-pebble is
/// a whole column of `R` node values, computed from the columns to its left and right.
#[derive(Debug, Clone, Copy)]
pub struct SuperColumns<G> {
    pub(crate) nodes: G,
    pub(crate) rows: usize,
    pub(crate) cols: usize,
}

impl<G: GridProgram> SuperColumns<G> {
    /// An `R x C` guest array (`R, C >= 1`).
    pub fn new(nodes: G, rows: usize, cols: usize) -> Result<Self> {
        if rows == 0 || cols == 0 {
            return Err(Error::EmptyGuest);
        }
        if u32::try_from(rows).is_err() {
            return Err(Error::Field(format!("rows must fit in u32 (got rows={rows})")));
        }
        Ok(Self { nodes, rows, cols })
    }

    /// The node program.
    pub fn nodes(&self) -> &G {
        &self.nodes
    }

    /// Rows `R`.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns `C` (super-columns).
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The direct run of the 2-D array, node by node, as the reference of the super-columns.
    ///
    /// # Errors
    ///
    /// [`Error::ZeroGuestSteps`] for `steps = 0`, [`Error::GuestPanic`] if the program panics,
    /// and [`Error::OutOfMemory`] if the system refuses the nodes or the reference.
    pub fn reference(&self, steps: u64) -> Result<Reference<Vec<G::Db>>> {
        if steps == 0 {
            return Err(Error::ZeroGuestSteps);
        }
        let (rows, cols) = (self.rows, self.cols);
        guarded(|current| {
            let at = |i: usize, j: usize| i * cols + j;
            use netcore::limits::{collect_exact, vec_filled};
            let cells = rows * cols;
            let dbs = (0..cells).map(|k| self.nodes.init_db(k / cols + 1, k % cols + 1));
            let mut dbs: Vec<G::Db> = collect_exact("the node databases", cells, dbs)?;
            let vals = (0..cells).map(|k| self.nodes.init_val(k / cols + 1, k % cols + 1));
            let mut prev: Vec<G::Val> = collect_exact("the array nodes", cells, vals)?;
            let mut digests = vec_filled("the reference digests", cols, 0u64)?;
            for t in 1..=steps {
                let outside = self.nodes.boundary(t - 1);
                let mut next = Vec::with_capacity(rows * cols);
                for i in 0..rows {
                    for j in 0..cols {
                        current.set(j + 1, t);
                        let get = |ok: bool, k: usize| if ok { &prev[k] } else { &outside };
                        let up = get(i > 0, at(i.max(1) - 1, j));
                        let down = get(i + 1 < rows, at(i + 1, j));
                        let left = get(j > 0, at(i, j.max(1) - 1));
                        let right = get(j + 1 < cols, at(i, j + 1));
                        let me = &prev[at(i, j)];
                        let k = at(i, j);
                        next.push(self.nodes.step(
                            &mut dbs[k],
                            i + 1,
                            j + 1,
                            t,
                            up,
                            down,
                            left,
                            me,
                            right,
                        ));
                    }
                }
                for (j, d) in digests.iter_mut().enumerate() {
                    let column: Vec<G::Val> = (0..rows).map(|i| next[at(i, j)].clone()).collect();
                    *d = fold(*d, &column);
                }
                prev = next;
            }
            let columns = (0..cols).map(|j| (0..rows).map(|i| dbs[at(i, j)].clone()).collect());
            let final_db = collect_exact("the final databases", cols, columns)?;
            Ok(Reference { n_cols: cols, steps, digests, final_db })
        })
    }
}

impl<G: GridProgram> GuestProgram for SuperColumns<G> {
    type Val = Vec<G::Val>;
    type Db = Vec<G::Db>;
    fn weight(&self) -> u32 {
        self.rows as u32
    }
    fn init_db(&self, j: usize) -> Self::Db {
        (1..=self.rows).map(|i| self.nodes.init_db(i, j)).collect()
    }
    fn init_val(&self, j: usize) -> Self::Val {
        (1..=self.rows).map(|i| self.nodes.init_val(i, j)).collect()
    }
    fn boundary(&self, _side: Side, t: u64) -> Self::Val {
        vec![self.nodes.boundary(t); self.rows]
    }
    fn step(
        &self,
        db: &mut Self::Db,
        j: usize,
        t: u64,
        left: &Self::Val,
        me: &Self::Val,
        right: &Self::Val,
    ) -> Self::Val {
        let outside = self.nodes.boundary(t - 1);
        let rows = self.rows;
        (0..rows)
            .map(|i| {
                let up = if i > 0 { &me[i - 1] } else { &outside };
                let down = if i + 1 < rows { &me[i + 1] } else { &outside };
                self.nodes.step(&mut db[i], i + 1, j, t, up, down, &left[i], &me[i], &right[i])
            })
            .collect()
    }
}

/// The super-column plans of Theorem 7 (paper Section 5; `docs/models/overlap-ring.md`,
/// Choices: 2-D guests) for `m` super-columns on `n0` processors.
/// Case 1 (`m <= n0`): processor `p < m` holds super-column `p + 1`, halo 0, unit phases; the
/// rest idle. Case 2 (`m > n0`): `W = ceil(m / n0)` super-columns per core, halo `W`, phases
/// of `W` rows (the trapezoid scheme with weight `m`).
pub fn array2d_plan(n0: usize, m: usize) -> Result<Plan> {
    if n0 == 0 {
        return Err(Error::EmptyHost);
    }
    if m == 0 {
        return Err(Error::EmptyGuest);
    }
    if m <= n0 {
        let held = (0..n0).map(|p| (p < m).then_some((p + 1, p + 1))).collect();
        return Plan::new(held, 1, m);
    }
    let w = m.div_ceil(n0);
    let cores: Vec<_> =
        (0..n0).map(|p| (p * w < m).then(|| (p * w + 1, ((p + 1) * w).min(m)))).collect();
    crate::trapezoid::halo_plan(&cores, w, w as u64, m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guest::{Program, reference};

    /// The folded ring's direct run (on the super-columns) equals the unfolded ring's.
    #[test]
    fn folded_ring_matches_unfolded_ring() {
        for n in [2, 4, 10] {
            let ring = FoldedRing::new(Program::Mix, n).unwrap();
            assert_eq!(reference(&ring, ring.n_cols(), 7).unwrap(), ring.reference(7).unwrap());
        }
        assert_eq!(FoldedRing::new(Program::Mix, 5).err(), Some(Error::OddRing { n_cols: 5 }));
    }

    /// The super-columns' direct run equals the node-by-node grid run.
    #[test]
    fn super_columns_match_grid() {
        for (r, c) in [(1, 1), (3, 4), (5, 2)] {
            let g = SuperColumns::new(GridMix, r, c).unwrap();
            assert_eq!(reference(&g, c, 6).unwrap(), g.reference(6).unwrap());
        }
    }

    #[test]
    fn array2d_cases() {
        let p = array2d_plan(4, 3).unwrap();
        assert_eq!(p.held, vec![Some((1, 1)), Some((2, 2)), Some((3, 3)), None]);
        // m = 16 on n0 = 4: W = 4, cores of 4, halo 4, phase 4.
        let p = array2d_plan(4, 16).unwrap();
        assert_eq!((p.phase, p.held[1]), (4, Some((1, 12))));
    }
}
