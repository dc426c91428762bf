//! The referee list: every numbered definition, theorem and property of Baude, *PRAM
//! implementation on fine-grained MIMD multicomputers* (1992), and every remark that states a
//! quantity, in paper order, each with what it states and how the reproduction covers it
//! (the claims of the studies that name it, the test that pins it, or why it is not built).

use netcore::study::{Coverage, PaperResult};

/// The paper's results, in paper order (Sections 2.2, 3, 4, 5, 6 and the Appendix).
pub const RESULTS: &[PaperResult] = &[
    PaperResult {
        id: "Definition 1",
        states: "actor time: the greatest depth over every partial order of events a program can generate on an input (Section 2.2)",
        coverage: Coverage::Tests {
            test: "exhaustive_max_over_executions",
            why: "a definition: the runtime measures a run's depth; `actor::explore` takes the maximum over every delivery order of a small system (min 3, max 4 on the hand case), and the deepest-order search (`search`, Choice 2) equals it on every enumerable toy system (`tests/it/deepest.rs`); the `actor-pram-theorem2` rows with n <= 4 report the deepest order found beside FIFO's (1.01-1.09 times deeper)",
        },
    },
    PaperResult {
        id: "Definition 2",
        states: "actor space: the greatest sum over actors of their local memory, over every partial order (Section 2.2)",
        coverage: Coverage::Tests {
            test: "broadcast_tree_depth",
            why: "a definition: the runtime sums each actor's largest state; the snapshot pins 2 words per actor of the activation tree. The maximum over delivery orders is not searched (our constructions' space does not depend on the order; the proptest `direct_equals_reference` checks that it is the same under every scheduler)",
        },
    },
    PaperResult {
        id: "Theorem 1",
        states: "some PRAM program of time T(n) and poly(n) space cannot be simulated by actors in less than O(T(n) log n) actor time with poly(n) space: activating S PPU actors costs Omega(log S), locating a cell Omega(log N) (Section 3)",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Remark (Section 3, constant time-loss)",
        states: "when every cell a PPU accesses is already an acquaintance and the PPU actors synchronise locally, the simulation has only a constant time-loss (Section 3, 'Implementation with sublogarithmic time-loss')",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Definition 3",
        states: "predictable communication: each process infers in constant time, from its local state, the next process it will receive from (Section 3)",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Remark (Section 4, permutation contention)",
        states: "permutation routing of N messages has worst-case contention sqrt(N) at a router under any oblivious routing algorithm ([BH85])",
        coverage: Coverage::NotBuilt(
            "a cited lower bound over all oblivious routings on the physical machine; the project builds the actor program, not the machine or an oblivious router",
        ),
    },
    PaperResult {
        id: "Theorem 2",
        states: "every CRCW PRAM program of time T(n) on S(n) PPUs runs as a communication-predictable actor program in O(T(n) log n) actor time with high probability, with O(S(n)) actors (Section 5: Ranade's routing on a wrapped butterfly of actors, universal hashing, combining)",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Remark (Section 5, S(n) > p)",
        states: "with S(n) > p, each node of an O(p)-node butterfly hosts S(n)/p PPU actors and a memory step is simulated O(S(n)/p) times, with the hope of a pipeline effect",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Remark (Section 6, logarithmic increase in operations)",
        states: "communication-unpredictable programs have to be reorganised and suffer at least a logarithmic increase in the total number of operations for their execution (Section 6)",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Property 1",
        states: "the routers' cadence: at its step T a router sends data its successors take in their step T and acks its predecessors take in their step T + 1, so the actor routing loses only a constant factor over the synchronous one (Appendix)",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Theorem 3",
        states: "if routing p requests takes actor time at least (7d + delta) 4, with buffers of constant size b, some input-output path of length 8d carries a polarized sequence of min(delta, b d) messages; with [Ran87]'s Theorem 3, routing ends after O(log p) routing steps with overwhelming probability (Appendix)",
        coverage: Coverage::Claims,
    },
];
