//! The expansion exponent of Definition 1: a hand-derived exact value, the typed refusal,
//! the exact value against the definition's own quantifiers (every S, every choice of edges),
//! and the ordering search <= exact <= spectral bound.

use dbsp_hmos::Error;
use dbsp_hmos::expansion::spectral::spectral;
use dbsp_hmos::expansion::{Bipartite, Quantifier, exact, exponent, search};
use proptest::prelude::*;
use proptest::sample::subsequence;

/// K_4's triangles: outputs 0..4, input x = the three outputs other than 3 - x, mu = 2,
/// most = min(4, 4) = 4. Any two outputs lie in exactly two inputs, so |T| = 2 captures 2
/// inputs (1 - ln 2 / ln 2 = 0); any three outputs hold two of every input's outputs, so
/// |T| = 3 captures all 4 inputs: 1 - ln 3 / ln 4 = 0.2075; |T| = 4 gives 0. The exact eps
/// is 1 - ln 3 / ln 4, first met at T = {0, 1, 2} with S = every input.
#[test]
fn exact_on_k4_triangles() {
    let g = Bipartite::new(4, 3, vec![0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3]).unwrap();
    let q = Quantifier::level0(&g).unwrap();
    assert_eq!((q.mu(), q.most()), (2, 4));
    let w = exact(&g, q, &[]).unwrap();
    assert!((w.eps - (1.0 - 3_f64.ln() / 4_f64.ln())).abs() < 1e-12, "{w:?}");
    assert_eq!((w.inputs, w.outputs), (vec![0, 1, 2, 3], vec![0, 1, 2]));
}

/// 40 outputs without a start set would enumerate 2^40 output sets: refused up front, naming
/// the field; bad graphs and quantifiers are refused naming theirs.
#[test]
fn refusals() {
    let adj: Vec<u32> = (0..40_u32).flat_map(|i| [i, (i + 1) % 40, (i + 2) % 40]).collect();
    let g = Bipartite::new(40, 3, adj).unwrap();
    let q = Quantifier::level0(&g).unwrap();
    match exact(&g, q, &[]) {
        Err(Error::TooLarge(e)) => assert!(e.to_string().contains("outputs"), "{e}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert!(matches!(Bipartite::new(4, 3, vec![0, 0, 1]), Err(Error::Param { field: "adj", .. })));
    assert!(matches!(Bipartite::new(2, 3, vec![0, 1, 2]), Err(Error::Param { field: "adj", .. })));
    assert!(matches!(Quantifier::new(&g, 4, 3), Err(Error::Param { field: "mu", .. })));
    assert!(matches!(Quantifier::new(&g, 2, 1), Err(Error::Param { field: "most", .. })));
}

/// A random graph: `n` outputs, inputs of three distinct outputs each.
fn graph(
    outputs: std::ops::RangeInclusive<u32>,
    inputs: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = Bipartite> {
    outputs.prop_flat_map(move |n| {
        proptest::collection::vec(subsequence((0..n).collect::<Vec<u32>>(), 3), inputs.clone())
            .prop_map(move |rows| Bipartite::new(n, 3, rows.concat()).unwrap())
    })
}

/// Definition 1 by its own quantifiers: every S with 2 <= |S| <= most, every choice of mu = 2
/// of each input's 3 edges; the largest 1 - ln |Γ^E(S)| / ln |S| over S of the smallest
/// |Γ^E(S)| over E.
fn by_definition(g: &Bipartite, q: Quantifier) -> f64 {
    let m = g.inputs();
    let mut best = f64::NEG_INFINITY;
    for set in 1_u32..1 << m {
        let s: Vec<usize> = (0..m).filter(|x| set >> x & 1 == 1).collect();
        if s.len() < 2 || s.len() > q.most() {
            continue;
        }
        let mut fewest = usize::MAX;
        for choice in 0..3_usize.pow(s.len() as u32) {
            let mut reached = 0_u64;
            let mut rest = choice;
            for &x in &s {
                let skip = rest % 3;
                rest /= 3;
                for (j, &u) in g.neighbours(x).iter().enumerate() {
                    if j != skip {
                        reached |= 1 << u;
                    }
                }
            }
            fewest = fewest.min(reached.count_ones() as usize);
        }
        best = best.max(exponent(fewest, s.len()).unwrap());
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The exact search over output sets equals Definition 1 evaluated over input sets and
    /// edge choices.
    #[test]
    fn exact_is_the_definition(g in graph(3..=7, 2..=6)) {
        let q = Quantifier::level0(&g).unwrap();
        let w = exact(&g, q, &[]).unwrap();
        prop_assert!((w.eps - by_definition(&g, q)).abs() < 1e-12, "{w:?}");
        prop_assert!((w.eps - exponent(w.outputs.len(), w.inputs.len()).unwrap()).abs() < 1e-12);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// search <= exact <= spectral bound, and the exact value does not depend on the start
    /// set that prunes it.
    #[test]
    fn search_exact_spectral_ordered(g in graph(3..=10, 2..=14)) {
        let q = Quantifier::level0(&g).unwrap();
        let found = search(&g, q, 3).unwrap();
        let full = exact(&g, q, &[]).unwrap();
        let pruned = exact(&g, q, &found.outputs).unwrap();
        prop_assert!(found.eps <= full.eps + 1e-12, "{found:?} {full:?}");
        prop_assert!((pruned.eps - full.eps).abs() < 1e-12);
        let bound = spectral(&g, q).unwrap();
        prop_assert!(bound.eps >= full.eps - 1e-12, "{bound:?} {full:?}");
    }
}
