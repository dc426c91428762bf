//! The `(sigma, eps, mu)`-expansion of Definition 1 (Fantozzi, Pietracaprina, Pucci,
//! Section 3), measured on one finite bipartite graph `(X, Y)` with every input of degree `d`.
//!
//! Definition 1: for every `S ⊆ X` with `|S| <= sigma |X|` and every choice `E` of `mu` edges
//! out of each node of `S`, the outputs reached satisfy `|Γ^E(S)| = Ω(|S|^(1 - eps))`. On one
//! graph the `Ω` has no meaning, so the constant is fixed to 1 (docs/models/dbsp-hmos.md,
//! Choices): the graph's expansion exponent is
//!
//! `eps(G) = max { 1 - ln f(S) / ln |S| : S ⊆ X, 2 <= |S| <= most }`,
//! `f(S) = min_E |Γ^E(S)|`, `most = floor(sigma |X|)`,
//!
//! the smallest `eps` with `|Γ^E(S)| >= |S|^(1 - eps)` for every quantified `S` and `E`.
//!
//! The search runs over output sets instead of input sets. For `T ⊆ Y` let
//! `S(T) = {x : |N(x) ∩ T| >= mu}` (the inputs that can choose all `mu` edges inside `T`), and
//! `phi(T) = 1 - ln |T| / ln min(|S(T)|, most)`. Then `eps(G) = max_T phi(T)`: the minimising
//! `E` of `f(S)` reaches some `T` with `S ⊆ S(T)` and `|T| = f(S)`, so `phi(T)` is at least the
//! term of `S`; and any `min(|S(T)|, most)` inputs of `S(T)` choose their edges inside `T`,
//! so their term is at least `phi(T)` (`phi` grows with the input count for `|T| >= 2`).
//!
//! - [`search`]: greedy adversarial search for a `T` of large `phi` (a lower estimate of
//!   `eps(G)`, with its witness) on any size;
//! - [`exact`]: the exhaustive maximum on small graphs, pruned by the search's value, a typed
//!   refusal past [`MAX_EXACT_SUBSETS`];
//! - [`spectral`]: an upper bound on `eps(G)` from the spectral norm of the centred adjacency.

use serde::Serialize;

use netcore::limits::check;

use crate::Error;
use crate::hmos::{Hmos, MAX_LEVEL0_EDGES};

pub mod spectral;

/// Largest number of output sets [`exact`] may visit (its up-front estimate).
pub const MAX_EXACT_SUBSETS: u64 = 1 << 26;

/// A bipartite graph `(X, Y)` with every input of the same degree `d` and distinct
/// neighbours (Definition 1's `G`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bipartite {
    outputs: u32,
    degree: u32,
    /// `adj[x d .. (x + 1) d]` are the outputs of input x.
    adj: Vec<u32>,
    /// The inputs of each output.
    by_output: Vec<Vec<u32>>,
}

impl Bipartite {
    /// The graph with `outputs` outputs whose input x has the outputs
    /// `adj[x degree .. (x + 1) degree]`.
    ///
    /// # Errors
    ///
    /// [`Error::Param`] for `degree = 0`, an `adj` that is empty or not a multiple of
    /// `degree` long, an output `>= outputs`, or an input with a repeated output.
    pub fn new(outputs: u32, degree: u32, adj: Vec<u32>) -> Result<Self, Error> {
        if degree == 0 {
            return Err(Error::param("degree", "degree >= 1", degree));
        }
        let d = degree as usize;
        if adj.is_empty() || !adj.len().is_multiple_of(d) {
            return Err(Error::param(
                "adj",
                format!("a positive multiple of degree = {degree} entries"),
                adj.len(),
            ));
        }
        if let Some(&u) = adj.iter().find(|&&u| u >= outputs) {
            return Err(Error::param("adj", format!("every output < outputs = {outputs}"), u));
        }
        let mut by_output = vec![Vec::new(); outputs as usize];
        for (x, row) in (0_u32..).zip(adj.chunks(d)) {
            if row.iter().enumerate().any(|(i, u)| row[..i].contains(u)) {
                return Err(Error::param("adj", "distinct outputs per input", format!("{row:?}")));
            }
            for &u in row {
                by_output[u as usize].push(x);
            }
        }
        Ok(Self { outputs, degree, adj, by_output })
    }

    /// The level-0 graph `(V, U_0)` of a built HMOS: inputs the m variables, outputs the n
    /// 0-modules, degree r.
    ///
    /// # Errors
    ///
    /// [`Error::TooLarge`] past `m r <= 2^24` edges (a computed graph is listed in full).
    pub fn from_hmos(hmos: &Hmos) -> Result<Self, Error> {
        let edges = hmos.m().saturating_mul(u64::from(hmos.r()));
        check("m", edges, MAX_LEVEL0_EDGES, "level-0 edges (m r, 4 bytes each)")?;
        let mut adj = Vec::with_capacity(edges as usize);
        for v in 0..hmos.m() {
            adj.extend_from_slice(&hmos.adj0(v)?);
        }
        // n <= 2^20 (HmosConfig) fits u32.
        Self::new(u32::try_from(hmos.n()).unwrap_or(u32::MAX), hmos.r(), adj)
    }

    /// |X|.
    pub fn inputs(&self) -> usize {
        self.adj.len() / self.degree as usize
    }

    /// |Y|.
    pub fn outputs(&self) -> u32 {
        self.outputs
    }

    /// The input degree d.
    pub fn degree(&self) -> u32 {
        self.degree
    }

    /// The outputs of input `x < |X|`.
    pub fn neighbours(&self, x: usize) -> &[u32] {
        let d = self.degree as usize;
        &self.adj[x * d..(x + 1) * d]
    }

    /// The largest output degree.
    pub fn max_output_degree(&self) -> usize {
        self.by_output.iter().map(Vec::len).max().unwrap_or(0)
    }
}

/// Definition 1's quantifiers: `mu` edges per input, at most `most = floor(sigma |X|)` inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Quantifier {
    mu: u32,
    most: usize,
}

impl Quantifier {
    /// `mu` edges out of each of at most `most` inputs of `g`.
    ///
    /// # Errors
    ///
    /// [`Error::Param`] unless `1 <= mu <= d` and `2 <= most <= |X|` (a single input has no
    /// exponent: `ln 1 = 0`).
    pub fn new(g: &Bipartite, mu: u32, most: usize) -> Result<Self, Error> {
        if !(1..=g.degree).contains(&mu) {
            return Err(Error::param("mu", format!("1 <= mu <= d = {}", g.degree), mu));
        }
        if !(2..=g.inputs()).contains(&most) {
            return Err(Error::param("most", format!("2 <= most <= |X| = {}", g.inputs()), most));
        }
        Ok(Self { mu, most })
    }

    /// The level-0 graph's quantifiers (Section 3): `(n/m, eps, (r + 1)/2)`-expansion, so
    /// `mu = (d + 1) / 2` and `most = sigma |X| = |Y|` (`|X|` when `|Y| > |X|`: `sigma <= 1`).
    ///
    /// # Errors
    ///
    /// As [`Quantifier::new`].
    pub fn level0(g: &Bipartite) -> Result<Self, Error> {
        Self::new(g, g.degree.div_ceil(2), (g.outputs as usize).min(g.inputs()))
    }

    /// Edges per input.
    pub fn mu(&self) -> u32 {
        self.mu
    }

    /// Largest |S|.
    pub fn most(&self) -> usize {
        self.most
    }
}

/// `1 - ln t / ln s`, the exponent of `t` outputs reached by `s >= 2` inputs (`None` below).
pub fn exponent(t: usize, s: usize) -> Option<f64> {
    (s >= 2 && t >= 1).then(|| 1.0 - (t as f64).ln() / (s as f64).ln())
}

/// Theorem 3's requirement on the expansion exponent, `eps < alpha / (2 - alpha)`.
pub fn theorem3_threshold(alpha: f64) -> f64 {
    alpha / (2.0 - alpha)
}

/// A set `S` of inputs and the outputs `T` its chosen edges reach: `eps = 1 - ln|T| / ln|S|`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Witness {
    /// `1 - ln |T| / ln |S|`.
    pub eps: f64,
    /// S, increasing.
    pub inputs: Vec<u32>,
    /// T, increasing.
    pub outputs: Vec<u32>,
}

impl Witness {
    /// The witness of the output set `outputs`: the first `most` inputs of `S(T)`, `None`
    /// when fewer than two inputs have `mu` outputs in it.
    fn of(g: &Bipartite, q: Quantifier, outputs: &[u32]) -> Option<Self> {
        let mut inside = vec![false; g.outputs as usize];
        for &u in outputs {
            inside[u as usize] = true;
        }
        let inputs: Vec<u32> = (0..g.inputs())
            .filter(|&x| {
                let hits = g.neighbours(x).iter().filter(|&&u| inside[u as usize]).count();
                hits >= q.mu as usize
            })
            .take(q.most)
            .filter_map(|x| u32::try_from(x).ok())
            .collect();
        let eps = exponent(outputs.len(), inputs.len())?;
        let mut outputs = outputs.to_vec();
        outputs.sort_unstable();
        Some(Self { eps, inputs, outputs })
    }
}

/// The incremental state of an output set `T`: hits per input and `|S(T)|`.
struct Cover<'g> {
    g: &'g Bipartite,
    mu: u32,
    hits: Vec<u32>,
    captured: usize,
    chosen: Vec<u32>,
}

impl<'g> Cover<'g> {
    fn new(g: &'g Bipartite, q: Quantifier) -> Self {
        Self { g, mu: q.mu, hits: vec![0; g.inputs()], captured: 0, chosen: Vec::new() }
    }

    fn add(&mut self, u: u32) {
        for &x in &self.g.by_output[u as usize] {
            self.hits[x as usize] += 1;
            if self.hits[x as usize] == self.mu {
                self.captured += 1;
            }
        }
        self.chosen.push(u);
    }

    fn remove(&mut self, u: u32) {
        for &x in &self.g.by_output[u as usize] {
            if self.hits[x as usize] == self.mu {
                self.captured -= 1;
            }
            self.hits[x as usize] -= 1;
        }
        self.chosen.pop();
    }
}

/// Greedy adversarial search: from each of `starts` output(s) spread evenly over Y, add the
/// output that captures the most new inputs (ties: the most inputs still short of `mu` hits,
/// then the lowest id) until `most` inputs are captured, keeping the `T` of largest `phi`
/// met on the way. A lower estimate of `eps(G)`: its witness is a quantified `S` with
/// `f(S) <= |T|`.
///
/// # Errors
///
/// [`Error::Param`] for `starts = 0`.
pub fn search(g: &Bipartite, q: Quantifier, starts: u32) -> Result<Witness, Error> {
    if starts == 0 {
        return Err(Error::param("starts", "starts >= 1", starts));
    }
    let n = g.outputs;
    let runs = starts.min(n);
    let mut best: Option<Witness> = None;
    for i in 0..runs {
        // i < runs <= n, so the start is below n.
        let start = (u64::from(i) * u64::from(n) / u64::from(runs)) as u32;
        if let Some(found) = greedy_from(g, q, start)
            && best.as_ref().is_none_or(|b| found.eps > b.eps)
        {
            best = Some(found);
        }
    }
    // T = Y captures every input (d >= mu), and most >= 2 inputs: some witness exists.
    best.ok_or_else(|| Error::param("most", "at most |S(Y)| inputs", q.most))
}

/// One greedy run from `start`; the best witness on its way.
fn greedy_from(g: &Bipartite, q: Quantifier, start: u32) -> Option<Witness> {
    let n = g.outputs as usize;
    let mu = q.mu;
    let mut cover = Cover::new(g, q);
    let mut inside = vec![false; n];
    // Per output not in T: inputs it would capture, inputs short of mu it would hit.
    let mut gain_cap = vec![0_usize; n];
    let mut gain_hit: Vec<usize> = g.by_output.iter().map(Vec::len).collect();
    if mu == 1 {
        gain_cap.clone_from(&gain_hit);
    }
    let mut best: Option<(f64, usize)> = None;
    let mut u = start;
    loop {
        inside[u as usize] = true;
        for &x in &g.by_output[u as usize] {
            let new = cover.hits[x as usize] + 1;
            for &w in g.neighbours(x as usize).iter().filter(|&&w| !inside[w as usize]) {
                if new == mu {
                    gain_cap[w as usize] -= 1;
                    gain_hit[w as usize] -= 1;
                } else if new == mu - 1 {
                    gain_cap[w as usize] += 1;
                }
            }
        }
        cover.add(u);
        let t = cover.chosen.len();
        if let Some(p) = exponent(t, cover.captured.min(q.most))
            && best.is_none_or(|(b, _)| p > b)
        {
            best = Some((p, t));
        }
        if cover.captured >= q.most || t == n {
            break;
        }
        let next = (0..n)
            .filter(|&w| !inside[w])
            .max_by_key(|&w| (gain_cap[w], gain_hit[w], std::cmp::Reverse(w)))?;
        // next < n <= u32::MAX.
        u = next as u32;
    }
    let (_, t) = best?;
    Witness::of(g, q, &cover.chosen[..t])
}

/// `sum_{t <= l} C(n, t)`, saturating.
fn subsets_up_to(n: u64, l: u64) -> u64 {
    let (mut total, mut c) = (1_u64, 1_u128);
    for t in 1..=l.min(n) {
        c = c * u128::from(n - t + 1) / u128::from(t);
        total = total.saturating_add(u64::try_from(c).unwrap_or(u64::MAX));
    }
    total
}

/// The exact `eps(G)` with a witness, by exhaustive search over output sets, pruned by the
/// value of the output set `start` (e.g. the outputs of a [`search`] witness; empty for
/// none): a `T` with `phi(T) > phi(start)` has `ln |T| < (1 - phi(start)) ln most`, so only
/// those sizes are enumerated, and a branch stops once `1 - ln(|T| + 1) / ln most` (the most
/// any superset can score) is no better than the best found.
///
/// # Errors
///
/// [`Error::TooLarge`] when the number of output sets of those sizes exceeds
/// [`MAX_EXACT_SUBSETS`] (checked before any enumeration); [`Error::Param`] for an output of
/// `start` not in Y.
pub fn exact(g: &Bipartite, q: Quantifier, start: &[u32]) -> Result<Witness, Error> {
    if let Some(&u) = start.iter().find(|&&u| u >= g.outputs) {
        return Err(Error::param("start", format!("every output < {}", g.outputs), u));
    }
    let floor = Witness::of(g, q, start);
    let floor_eps = floor.as_ref().map_or(f64::NEG_INFINITY, |w| w.eps);
    let ln_most = (q.most as f64).ln();
    let n = u64::from(g.outputs);
    let size_limit =
        (1..=n).take_while(|&t| (t as f64).ln() <= (1.0 - floor_eps) * ln_most + 1e-9).last();
    let estimate = subsets_up_to(n, size_limit.unwrap_or(0));
    check("outputs", estimate, MAX_EXACT_SUBSETS, "output subsets to enumerate")?;
    let mut dfs = Dfs { cover: Cover::new(g, q), q, ln_most, best: floor };
    dfs.visit(0);
    // T = Y captures every input (mu <= d) and most >= 2, so some witness exists.
    dfs.best.ok_or_else(|| Error::param("most", "at most |S(Y)| inputs", q.most))
}

/// The exhaustive enumeration of [`exact`].
struct Dfs<'g> {
    cover: Cover<'g>,
    q: Quantifier,
    ln_most: f64,
    best: Option<Witness>,
}

impl Dfs<'_> {
    fn best_eps(&self) -> f64 {
        self.best.as_ref().map_or(f64::NEG_INFINITY, |w| w.eps)
    }

    /// Every extension of the current `T` by outputs `>= next`.
    fn visit(&mut self, next: u32) {
        for u in next..self.cover.g.outputs {
            self.cover.add(u);
            let t = self.cover.chosen.len();
            if let Some(p) = exponent(t, self.cover.captured.min(self.q.most))
                && p > self.best_eps()
            {
                self.best =
                    Witness::of(self.cover.g, self.q, &self.cover.chosen).or(self.best.take());
            }
            if 1.0 - ((t + 1) as f64).ln() / self.ln_most > self.best_eps() {
                self.visit(u + 1);
            }
            self.cover.remove(u);
        }
    }
}
