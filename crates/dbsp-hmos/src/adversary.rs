//! A greedy request set for Theorem 3's worst case (Fantozzi, Pietracaprina, Pucci,
//! Section 4.1, Lemmas 2-3, Theorems 2-3): n distinct variables whose copies crowd as few
//! modules of one level as the search can find.
//!
//! The weight `w(u)` of an i-module u is the number of coloured paths through it after copy
//! selection (Section 4.1); Lemma 2 (i = 0) and Lemma 3 (i >= 1) bound it by
//! `O(2^i n^(1 - (1 - eps)/2^i))` for *every* request set, and Theorem 3's time is that worst
//! case. Selection is load-aware (culling keeps the lightest marked candidates), so a request
//! set that heaps its copies on one module only pushes the selection onto the module's
//! neighbours. What no selection escapes is the *footprint*: if every copy of every requested
//! variable lies in a set F of i-modules, the `mu 2^i n` coloured paths of level i all end in
//! F and some i-module gets at least `ceil(mu 2^i n / |F|)` of them ([`pigeonhole`]).
//!
//! [`greedy`] therefore shrinks F: it starts from every i-module and peels (the classical
//! greedy for dense subgraphs, here over the hypergraph whose hyperedges are the variables'
//! footprints) the modules whose removal loses the fewest *contained* variables (those whose
//! footprint lies inside the kept set), in batches whose summed losses keep at least n
//! contained, until any further removal would leave fewer than n. Among the contained
//! variables it then fills the heaviest module first: the module with the most paths of
//! contained variables, and the variables with the most paths through it (the multiplicity),
//! ties by the smaller variable. Everything is computed from the placement
//! (`adj0` and the Lemma 1 graphs' `up`), deterministically: no random tie-breaking is needed.
//!
//! The copy adversary ([`copy`]: the variables whose copies' largest processor is smallest)
//! is one footprint of this kind, the i-modules whose blocks sit in the lowest clusters. The
//! greedy peels from two starts, every i-module and the copy adversary's footprint, and keeps
//! the smaller final footprint (the first on a tie): peeling from all modules usually wins
//! (36 of the 38 greedy points of the default `dbsp-theorem3` sweep, by 2-20%), the second
//! start makes sure the search never ends above the copy adversary when the first start's
//! batches go astray (docs/models/dbsp-hmos.md, Choices).

use std::collections::BinaryHeap;

use crate::Error;
use crate::hmos::Hmos;

/// The copy adversary: the n variables whose copies' largest processor `max_c loc(v, c)` is
/// smallest (ties by the smaller variable), in that order, from [`Hmos::reach`].
///
/// # Errors
///
/// [`Error::Param`] if `n > m` or `n` exceeds the processors.
pub fn copy(hmos: &Hmos, n: u32) -> Result<Vec<u64>, Error> {
    let reach: Vec<u64> = (0..n).map(|u| hmos.reach(u)).collect::<Result<_, Error>>()?;
    smallest(n, hmos.m(), |v| {
        Ok(hmos.adj0(v)?.iter().map(|&u| reach[u as usize]).max().unwrap_or(0))
    })
}

/// The n variables `v < m` with the smallest `(key(v), v)`, in that order, kept in a bounded
/// max-heap: one pass over the m variables without holding them all (m may be n^2).
///
/// # Errors
///
/// [`Error::Param`] if `n > m`; any error of `key`.
pub(crate) fn smallest(
    n: u32,
    m: u64,
    key: impl Fn(u64) -> Result<u64, Error>,
) -> Result<Vec<u64>, Error> {
    if u64::from(n) > m {
        return Err(Error::param("n", format!("n <= m = {m}"), n));
    }
    let mut kept: BinaryHeap<(u64, u64)> = BinaryHeap::with_capacity(n as usize + 1);
    for v in 0..m {
        let entry = (key(v)?, v);
        if kept.len() < n as usize || kept.peek().is_some_and(|&top| entry < top) {
            kept.push(entry);
            if kept.len() > n as usize {
                kept.pop();
            }
        }
    }
    Ok(kept.into_sorted_vec().into_iter().map(|(_, v)| v).collect())
}

/// The level-`level` modules of the `3^level` block paths from every 0-module `u0 < n`, in
/// branch order (`e_1` most significant, as in a copy's index), with repeats.
///
/// # Errors
///
/// [`Error::Param`] naming `level` if `level > k`.
pub fn reach_modules(hmos: &Hmos, level: u32) -> Result<Vec<Vec<u32>>, Error> {
    if level > hmos.k() {
        return Err(Error::param("level", format!("level <= k = {}", hmos.k()), level));
    }
    let graphs = &hmos.levels()[..level as usize];
    // n <= 2^20 (HmosConfig), so every 0-module fits u32.
    let n = u32::try_from(hmos.n()).map_err(|_| Error::param("n", "n <= 2^20", hmos.n()))?;
    Ok((0..n)
        .map(|u0| {
            graphs.iter().fold(vec![u0], |frontier, g| {
                frontier.iter().flat_map(|&u| g.up[u as usize]).collect()
            })
        })
        .collect())
}

/// The distinct level-`level` modules holding a block of some copy of a variable of `vars`
/// (its footprint F).
///
/// # Errors
///
/// [`Error::Param`] for `level > k` or a variable `>= m`.
pub fn footprint(hmos: &Hmos, vars: &[u64], level: u32) -> Result<u64, Error> {
    let reach = reach_modules(hmos, level)?;
    let mut seen = vec![false; modules(hmos, level)];
    for &v in vars {
        for &u in hmos.adj0(v)?.iter() {
            for &y in &reach[u as usize] {
                seen[y as usize] = true;
            }
        }
    }
    Ok(seen.iter().filter(|&&s| s).count() as u64)
}

/// `ceil(mu 2^level |vars| / |F|)` for the footprint F of `vars` at `level`: the weight some
/// level-`level` module gets under *every* copy selection, since every requested variable
/// colours `mu 2^level` of its paths and they all end in F (0 for no variables).
///
/// # Errors
///
/// As [`footprint`].
pub fn pigeonhole(hmos: &Hmos, vars: &[u64], level: u32) -> Result<u64, Error> {
    let f = footprint(hmos, vars, level)?;
    let mu = u64::from(hmos.r().div_ceil(2));
    let paths = (vars.len() as u64)
        .checked_mul(mu << level)
        .ok_or_else(|| Error::param("vars", "mu 2^level |vars| < 2^64", vars.len()))?;
    Ok(if f == 0 { 0 } else { paths.div_ceil(f) })
}

/// `m_level`, the number of level-`level` modules (`m_0 = n`).
fn modules(hmos: &Hmos, level: u32) -> usize {
    // m_i <= n <= 2^20.
    hmos.chain().m[level as usize] as usize
}

/// The n distinct variables (of the HMOS's m) of the greedy adversary at `level` (see the
/// module documentation): the smaller of the two peeled footprints' request sets, the
/// heaviest module's highest multiplicities first.
///
/// # Errors
///
/// [`Error::Param`] for `level > k` or `n > m`.
pub fn greedy(hmos: &Hmos, n: u32, level: u32) -> Result<Vec<u64>, Error> {
    let need = u64::from(n);
    if need > hmos.m() {
        return Err(Error::param("n", format!("n <= m = {}", hmos.m()), n));
    }
    let reach = reach_modules(hmos, level)?;
    let mut lowest = vec![false; modules(hmos, level)];
    for v in copy(hmos, n)? {
        for &u in hmos.adj0(v)?.iter() {
            for &y in &reach[u as usize] {
                lowest[y as usize] = true;
            }
        }
    }
    let mut best: Option<(u64, Vec<u64>)> = None;
    for start in [vec![true; lowest.len()], lowest] {
        let kept = peel(hmos, &reach, start, need)?;
        let chosen = fill_heaviest(hmos, &reach, &kept, need)?;
        let size = footprint(hmos, &chosen, level)?;
        if best.as_ref().is_none_or(|(b, _)| size < *b) {
            best = Some((size, chosen));
        }
    }
    Ok(best.map(|(_, chosen)| chosen).unwrap_or_default())
}

/// Peels the modules `kept` (whose contained variables number at least `need`) as the
/// module documentation says; returns the modules kept at the end.
fn peel(
    hmos: &Hmos,
    reach: &[Vec<u32>],
    mut kept: Vec<bool>,
    need: u64,
) -> Result<Vec<bool>, Error> {
    let mut loss = vec![0_u64; kept.len()];
    let mut footprint = Vec::new();
    loop {
        // A 0-module is inside when all its block paths end in kept modules; a variable is
        // contained when its r 0-modules are inside. loss[y]: contained variables whose
        // footprint holds y.
        let inside: Vec<bool> =
            reach.iter().map(|ys| ys.iter().all(|&y| kept[y as usize])).collect();
        loss.fill(0);
        let mut contained = 0_u64;
        for v in 0..hmos.m() {
            let adj = hmos.adj0(v)?;
            if !adj.iter().all(|&u| inside[u as usize]) {
                continue;
            }
            contained += 1;
            footprint.clear();
            footprint.extend(adj.iter().flat_map(|&u| reach[u as usize].iter().copied()));
            footprint.sort_unstable();
            footprint.dedup();
            for &y in &footprint {
                loss[y as usize] += 1;
            }
        }
        // Removing a batch loses at most the sum of its losses (union bound), so a batch
        // whose losses sum to at most `contained - n` keeps n contained; at most half of it
        // per pass (after the first module) keeps the losses fresh as the set shrinks.
        let spare = contained.saturating_sub(need);
        let mut order: Vec<u32> =
            (0_u32..).zip(&kept).filter(|(_, k)| **k).map(|(y, _)| y).collect();
        order.sort_unstable_by_key(|&y| (loss[y as usize], y));
        let mut spent = 0_u64;
        let mut removed = 0_usize;
        for y in order {
            let l = loss[y as usize];
            let limit = if removed == 0 { spare } else { spare / 2 };
            if spent + l > limit {
                break;
            }
            spent += l;
            kept[y as usize] = false;
            removed += 1;
        }
        if removed == 0 {
            return Ok(kept);
        }
    }
}

/// The `need` contained variables (footprint inside `kept`) with the most paths through the
/// heaviest kept module (most paths of contained variables, ties by the smaller module),
/// ties by the smaller variable, in that order.
fn fill_heaviest(
    hmos: &Hmos,
    reach: &[Vec<u32>],
    kept: &[bool],
    need: u64,
) -> Result<Vec<u64>, Error> {
    let inside: Vec<bool> = reach.iter().map(|ys| ys.iter().all(|&y| kept[y as usize])).collect();
    let mut contained = Vec::new();
    let mut load = vec![0_u64; kept.len()];
    for v in 0..hmos.m() {
        let adj = hmos.adj0(v)?;
        if adj.iter().all(|&u| inside[u as usize]) {
            contained.push(v);
            for &u in adj.iter() {
                for &y in &reach[u as usize] {
                    load[y as usize] += 1;
                }
            }
        }
    }
    let heaviest = (0_u32..).zip(&load).max_by_key(|&(y, &l)| (l, std::cmp::Reverse(y)));
    let top = heaviest.map_or(0, |(y, _)| y);
    let mut ranked = Vec::with_capacity(contained.len());
    for v in contained {
        let adj = hmos.adj0(v)?;
        let multiplicity =
            adj.iter().flat_map(|&u| &reach[u as usize]).filter(|&&y| y == top).count();
        ranked.push((std::cmp::Reverse(multiplicity), v));
    }
    ranked.sort_unstable();
    // need <= contained (the peeling keeps at least n contained).
    let need = usize::try_from(need).unwrap_or(usize::MAX);
    Ok(ranked.into_iter().take(need).map(|(_, v)| v).collect())
}
