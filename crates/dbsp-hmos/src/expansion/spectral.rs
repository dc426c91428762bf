//! An upper bound on the expansion exponent `eps(G)` of Definition 1 (see [`super`]) from the
//! spectral norm of the centred bipartite adjacency, in the style of the expander mixing
//! lemma.
//!
//! Let `A` be the `|X| x |Y|` adjacency (`n = |Y|`, input degree `d`), `J` the all-ones
//! matrix and `B = A - (d/n) J`, `beta = ||B||_2` its largest singular value. For any
//! `S ⊆ X`, `T ⊆ Y` with indicator vectors `1_S`, `1_T`:
//!
//! `e(S, T) = 1_S^T A 1_T = (d/n) |S| |T| + 1_S^T B 1_T <= (d/n) |S| |T| + beta sqrt(|S| |T|)`
//!
//! (Cauchy-Schwarz and the operator norm). Every input of `S(T)` (those with `mu` outputs in
//! `T`) has at least `mu` edges into `T`, so with `s = |S(T)|`, `t = |T|`:
//! `mu s <= (d/n) s t + beta sqrt(s t)`, hence for `t < mu n / d`
//!
//! `s <= beta^2 t / (mu - d t / n)^2`.
//!
//! Also `mu s <= e(S, T) <= t Delta` (`Delta` the largest output degree), `s <= |X|`, and
//! `s = 0` for `t < mu`. With `s_max(t)` the least of these,
//! `eps(G) = max_T phi(T) <= max_t 1 - ln t / ln min(floor(s_max(t)), most)`, since `phi`
//! grows with the input count. No regularity is assumed: the bound holds for any graph.
//!
//! `beta^2` is the largest eigenvalue of the `n x n` Gram matrix `B^T B`, computed by
//! nalgebra's symmetric eigensolver; a margin of `1e-9 (1 + ||B^T B||_F)` is added to cover
//! its rounding (the solver's backward error is a small multiple of machine epsilon times the
//! norm), and `s_max` is rounded down only after adding `1e-9`.

use nalgebra::{DMatrix, SymmetricEigen};
use serde::Serialize;

use netcore::limits::check;

use super::{Bipartite, Quantifier, exponent};
use crate::Error;

/// Largest |Y| of a spectral bound (an `n x n` dense eigenproblem, `O(n^3)`).
pub const MAX_SPECTRAL_OUTPUTS: u64 = 1024;

/// The spectral upper bound on `eps(G)`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SpectralBound {
    /// `beta = ||A - (d/n) J||_2`, with the rounding margin.
    pub beta: f64,
    /// The upper bound on `eps(G)`.
    pub eps: f64,
    /// The output count `t` where the bound is attained.
    pub t: u32,
    /// The largest input count `s_max(t)` allows there (capped at `most`).
    pub s: u64,
}

/// `||A - (d/n) J||_2` of `g`, with the rounding margin of the module docs.
///
/// # Errors
///
/// [`Error::TooLarge`] past [`MAX_SPECTRAL_OUTPUTS`] outputs.
pub fn centred_norm(g: &Bipartite) -> Result<f64, Error> {
    let n = g.outputs() as usize;
    check("outputs", n as u64, MAX_SPECTRAL_OUTPUTS, "outputs (dense n x n eigenproblem)")?;
    let c = f64::from(g.degree()) / n as f64;
    // A^T A from the inputs' neighbourhoods; the column sums of A are the output degrees.
    let mut gram = DMatrix::<f64>::zeros(n, n);
    let mut col = vec![0.0_f64; n];
    for x in 0..g.inputs() {
        let row = g.neighbours(x);
        for &u in row {
            col[u as usize] += 1.0;
            for &w in row {
                gram[(u as usize, w as usize)] += 1.0;
            }
        }
    }
    // B^T B = A^T A - c (col 1^T + 1 col^T) + |X| c^2 1 1^T.
    let m = g.inputs() as f64;
    for u in 0..n {
        for w in 0..n {
            gram[(u, w)] += m * c * c - c * (col[u] + col[w]);
        }
    }
    let norm = gram.norm();
    let top = SymmetricEigen::new(gram).eigenvalues.iter().copied().fold(0.0_f64, f64::max);
    Ok((top + 1e-9 * (1.0 + norm)).sqrt())
}

/// The spectral upper bound on `eps(G)` for the quantifiers `q` (see the module docs).
///
/// # Errors
///
/// As [`centred_norm`]; [`Error::Param`] if no `t` admits two inputs (then `eps(G)` has no
/// term and nothing is bounded).
pub fn spectral(g: &Bipartite, q: Quantifier) -> Result<SpectralBound, Error> {
    let beta = centred_norm(g)?;
    let n = f64::from(g.outputs());
    let (d, mu) = (f64::from(g.degree()), f64::from(q.mu()));
    let delta = g.max_output_degree() as f64;
    let cap = g.inputs().min(q.most()) as f64;
    let mut best: Option<SpectralBound> = None;
    for t in q.mu()..=g.outputs() {
        let tf = f64::from(t);
        let slack = mu - d * tf / n;
        let mixing = if slack > 0.0 { beta * beta * tf / (slack * slack) } else { f64::INFINITY };
        let s_max = mixing.min(tf * delta / mu).min(cap);
        // s_max <= |X| <= 2^24 edges: the floor fits u64.
        let s = (s_max + 1e-9).floor() as u64;
        let Some(eps) = exponent(t as usize, s as usize) else { continue };
        if best.is_none_or(|b| eps > b.eps) {
            best = Some(SpectralBound { beta, eps, t, s });
        }
    }
    best.ok_or_else(|| Error::param("most", "a t admitting two inputs", q.most()))
}
