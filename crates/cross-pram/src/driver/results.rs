//! The referee list of the study `cross-pram`: the numbered results of the three papers whose
//! PRAM emulations it runs side by side that its claims check across machines, each id
//! prefixed by its paper. Baude, *PRAM implementation on fine-grained MIMD multicomputers*
//! (1992), Theorem 2 (Section 5), on the actor butterfly; Fantozzi, Pietracaprina and Pucci,
//! *A general PRAM simulation scheme for clustered machines*, Theorem 3 (Section 4), on the
//! D-BSP with HMOS. The papers' other results are listed, with their coverage, by the
//! crates that build them (actor-pram, dbsp-hmos, hpram). Heywood and Ranka's H-PRAM paper
//! has no entry here: the H-PRAM rows price each run with its cost recursion (Section 2.3.1,
//! the phase-refined form of Section 2.3.2) and no claim of this study checks it against a
//! bound; hpram's own studies and referee list do.

use netcore::study::{Coverage, PaperResult};

/// The results the study's claims check, in the order of the machines.
pub const RESULTS: &[PaperResult] = &[
    PaperResult {
        id: "Baude Theorem 2",
        states: "every CRCW PRAM program of time T(n) on S(n) PPUs runs as a communication-predictable actor program in O(T(n) log n) actor time with high probability, with O(S(n)) actors (Section 5: Ranade's routing on a wrapped butterfly of N = d 2^d router actors, universal hashing, combining); checked here on eight library programs at n = 64..1024, and on five at one PPU per router, n = N = d 2^d for d = 4..8 (study cross-pram-equal-load)",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Fantozzi Theorem 3",
        states: "any n-tuple of variables is accessed by the D-BSP(n, g^(alpha), l^(beta)) processors in time O(2^k n^(alpha + alpha(1 - alpha) / (2^k (2 - alpha))) + k n^beta) (Section 4); checked here per PRAM global step, at k = 1, (alpha, beta) = (1/2, 1/2) and (3/4, 1/2)",
        coverage: Coverage::Claims,
    },
];
