//! The strict compute order of one processor (`docs/models/overlap-ring.md`, Choices: plans).
//!
//! Phase `phi` covers rows `(phi-1) l + 1 ..= phi l` (the last phase may be shorter). With the
//! relative row `r` (1-based) and shrink flags `s_L = [lo > 1]`, `s_R = [hi < N]`, the phase's
//! trapezoid row is `Tz(r) = [lo + s_L r, hi - s_R r]`. The order is every `Tz` pebble of the
//! phase row-major, then every remaining pebble of the phase row-major. A processor waits for
//! its next pebble and never skips (paper Section 3.4, Theorem 4's phases; with `l = 1` and no
//! halo: interior columns first, then the two edge columns).

/// Which part of a phase the cursor is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Trapezoid,
    Rest,
}

/// A cursor over one processor's pebbles in the strict order.
#[derive(Debug, Clone)]
pub(crate) struct Order {
    lo: usize,
    hi: usize,
    s_l: usize,
    s_r: usize,
    phase: u64,
    steps: u64,
    /// First row of the current phase.
    start: u64,
    class: Class,
    /// Relative row (1-based) and column of the next pebble.
    r: u64,
    col: usize,
    /// Last column of the contiguous run of the current row and class holding `col`.
    run_end: usize,
    done: bool,
}

impl Order {
    /// The order of a processor holding `[lo, hi]` of `N` columns, phase `l`, `T` steps.
    pub(crate) fn new(lo: usize, hi: usize, n_cols: usize, phase: u64, steps: u64) -> Self {
        let mut order = Self {
            lo,
            hi,
            s_l: usize::from(lo > 1),
            s_r: usize::from(hi < n_cols),
            phase,
            steps,
            start: 1,
            class: Class::Trapezoid,
            r: 1,
            col: 0,
            run_end: 0,
            done: false,
        };
        order.settle(lo);
        order
    }

    /// The next pebble `(col, row)`, or `None` when all `T` rows are done.
    pub(crate) fn peek(&self) -> Option<(usize, u64)> {
        (!self.done).then_some((self.col, self.start + self.r - 1))
    }

    /// Whether the next pebble belongs to its phase's trapezoid `Tz` (else to the rest).
    pub(crate) fn in_trapezoid(&self) -> bool {
        self.class == Class::Trapezoid
    }

    /// Whether `row` starts a new phase (the first pebble of a phase is being computed).
    pub(crate) fn phase_start(&self) -> u64 {
        self.start
    }

    /// Moves past the current pebble.
    pub(crate) fn advance(&mut self) {
        if self.col < self.run_end {
            self.col += 1;
        } else {
            self.settle(self.col + 1);
        }
    }

    /// `Tz(r)` as `(a, b)`; empty when `a > b`.
    fn tz(&self, r: u64) -> (i64, i64) {
        let r = r as i64;
        (self.lo as i64 + self.s_l as i64 * r, self.hi as i64 - self.s_r as i64 * r)
    }

    /// First column `>= from` of the current class at relative row `r`, with the last column
    /// of its contiguous run.
    fn first_in(&self, r: u64, from: usize) -> Option<(usize, usize)> {
        let (a, b) = self.tz(r);
        let (lo, hi, f) = (self.lo as i64, self.hi as i64, from as i64);
        let found = match self.class {
            Class::Trapezoid => (a <= b && f <= b).then(|| (f.max(a), b)),
            Class::Rest if a > b => (f <= hi).then(|| (f.max(lo), hi)),
            Class::Rest => {
                if f < a && a > lo {
                    Some((f.max(lo), a - 1))
                } else if b < hi && f <= hi {
                    Some((f.max(b + 1), hi))
                } else {
                    None
                }
            }
        };
        found.map(|(c, end)| (c as usize, end as usize))
    }

    /// Positions the cursor on the first pebble at or after column `from` of the current row,
    /// moving on to later rows, the other class and later phases as needed.
    fn settle(&mut self, mut from: usize) {
        loop {
            let len = self.phase.min(self.steps + 1 - self.start);
            while self.r <= len {
                if let Some((col, end)) = self.first_in(self.r, from) {
                    self.col = col;
                    self.run_end = end;
                    return;
                }
                self.r += 1;
                from = self.lo;
            }
            match self.class {
                Class::Trapezoid => self.class = Class::Rest,
                Class::Rest => {
                    self.class = Class::Trapezoid;
                    self.start += self.phase;
                    if self.start > self.steps {
                        self.done = true;
                        return;
                    }
                }
            }
            self.r = 1;
            from = self.lo;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(lo: usize, hi: usize, n: usize, phase: u64, steps: u64) -> Vec<(usize, u64)> {
        let mut o = Order::new(lo, hi, n, phase, steps);
        let mut out = Vec::new();
        while let Some(x) = o.peek() {
            out.push(x);
            o.advance();
        }
        out
    }

    /// Unit phase, no halo: interior columns first, then the two edge columns (`docs/models/overlap-ring.md`,
    /// Choices: plans).
    #[test]
    fn unit_phase_interior_first() {
        assert_eq!(
            all(3, 6, 9, 1, 2),
            vec![(4, 1), (5, 1), (3, 1), (6, 1), (4, 2), (5, 2), (3, 2), (6, 2)]
        );
        // The left end of the array does not shrink: Tz(1) = [1, 2].
        assert_eq!(all(1, 3, 9, 1, 1), vec![(1, 1), (2, 1), (3, 1)]);
        // One column: Tz empty, the rest is the column.
        assert_eq!(all(5, 5, 9, 1, 3), vec![(5, 1), (5, 2), (5, 3)]);
    }

    /// Theorem 4 / Figure 4, `r = 2`, held `[1..6]` of an interior processor (`lo > 1` is
    /// modelled by `lo = 3`, `hi = 8`, `N = 20`): row 1 of the trapezoid has `3r - 2 = 4`
    /// pebbles (4..7), row 2 has `3r - 4 = 2` (5..6); the rest: row 1 `3, 8`, row 2 `3, 4, 7, 8`.
    #[test]
    fn trapezoid_then_triangles() {
        let got = all(3, 8, 20, 2, 2);
        let want = vec![
            (4, 1),
            (5, 1),
            (6, 1),
            (7, 1),
            (5, 2),
            (6, 2),
            (3, 1),
            (8, 1),
            (3, 2),
            (4, 2),
            (7, 2),
            (8, 2),
        ];
        assert_eq!(got, want);
        // Every pebble of a held range exactly once, for any phase and T.
        for phase in 1..5 {
            for steps in 1..9 {
                let mut got = all(3, 8, 20, phase, steps);
                got.sort_unstable();
                let mut want: Vec<_> =
                    (3..=8).flat_map(|c| (1..=steps).map(move |t| (c, t))).collect();
                want.sort_unstable();
                assert_eq!(got, want);
            }
        }
    }
}
