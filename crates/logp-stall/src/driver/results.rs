//! The referee list of Bilardi, Herley, Pietracaprina and Pucci, "On stalling in LogP": every
//! numbered result of the paper (Theorems 1 and 2, Corollary 1) and every unnumbered
//! definition, algorithm and remark that states a quantity, in paper order (§2 the models,
//! §2.1 the stalling rules, §3 the separation, §4 the simulation), with how the reproduction
//! covers it: by the claims that name it (`Claim::of`), by a test, or not at all and why.

use netcore::study::{Coverage, PaperResult};

/// The paper's results in paper order.
pub const RESULTS: &[PaperResult] = &[
    PaperResult {
        id: "BSP cost (§2)",
        states: "a superstep costs w + g h + l; a computation costs the sum of its supersteps",
        coverage: Coverage::Tests {
            test: "specs::compaction_bsp",
            why: "netcore's BSP engine prices every superstep; the test pins w, h and l of the \
                  BSP-native 2-compaction superstep by superstep",
        },
    },
    PaperResult {
        id: "LogP gap and capacity (§2)",
        states: "at least G steps between a processor's submits and receives; at most \
                 ceil(L/G) messages in transit to a destination are delivered within L steps",
        coverage: Coverage::Tests {
            test: "props::engine_traces_are_legal",
            why: "a rule of the machine: every engine trace of random scripts under every \
                  stalling rule and adversary passes the checker, which encodes these rules",
        },
    },
    PaperResult {
        id: "Parameter assumption (§2)",
        states: "max{2, o} <= G <= L <= p",
        coverage: Coverage::Tests {
            test: "specs::bad_inputs_are_typed_errors",
            why: "a validation rule: each violated inequality is a typed error",
        },
    },
    PaperResult {
        id: "Immediate stalling of [1] (§2.1)",
        states: "a submission over the capacity stalls its sender at once, until the network \
                 can accept it",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "δ-stalling rule (§2.1)",
        states: "a message with c_j(t) > ceil(L/G) arrives by t + G c_j(t) + L; its sender may \
                 stall from some t' in (t, t + δ] until some t'' in (t̄, t̄ + δ]",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "SF-LogP (§2.1)",
        states: "only programs whose executions never violate the capacity constraint are \
                 correct",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Footnote 1",
        states: "the stalling of [1] is δ = 1, except that the sender reverts as soon as the \
                 violation ends, possibly before its message arrives",
        coverage: Coverage::Tests {
            test: "specs::compaction_delta_immediate_blocking",
            why: "one worked execution: under immediate blocking P6 is operational at the step \
                  its blocked message is accepted, before it arrives",
        },
    },
    PaperResult {
        id: "2-compaction (§3)",
        states: "P_0 and P_1 learn (i_0, x_i0) and (i_1, x_i1), the two nonzero inputs",
        coverage: Coverage::Tests {
            test: "specs::compaction_delta_time_every_adversary",
            why: "the problem's outputs are compared with the plain reference on every run (the \
                  sweep's `verified` column) and in this test for several placements",
        },
    },
    PaperResult {
        id: "δ-LogP 2-compaction (§3)",
        states: "every nonzero holder submits to P_0 then P_1: O(L) time for any δ >= 1",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Capacity violation at G = L (§3)",
        states: "with G = L (ceil(L/G) = 1) the δ-LogP algorithm violates the capacity, so it \
                 is illegal on SF-LogP",
        coverage: Coverage::Tests {
            test: "specs::compaction_delta_under_stall_free_is_a_capacity_violation",
            why: "one exact case: SF-LogP rejects the algorithm at step 0 with 2 messages in \
                  transit to P_0",
        },
    },
    PaperResult {
        id: "Theorem 1",
        states: "with G = L, 2-compaction on SF-LogP with probability > (1 + ε)/2 needs \
                 Ω(L sqrt(log n)) steps",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Simulation algorithm (§4)",
        states: "cycles of C = max{G, δ} steps: simulate, sort by destination, rank, deliver \
                 at C(k + ceil(r / ceil(L/G))), keep the rest in S, stall or undo, redistribute S",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Comment to step 4 (§4)",
        states: "S holds only messages whose submission violated the capacity constraint",
        coverage: Coverage::Tests {
            test: "sim::random_traffic_is_simulated_soundly",
            why: "every delivery later than the next cycle lies in the violating window of the \
                  count c_j recomputed from the run",
        },
    },
    PaperResult {
        id: "Comment to step 5(b) (§4)",
        states: "when δ < G a processor submits at most one message per cycle",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Theorem 2",
        states: "the algorithm correctly simulates a cycle of C = max{G, δ} LogP steps in BSP \
                 time O(C (1 + log p (1/G + (g/G)/(1 + log(C/G)) + (l/C)/(1 + log min{C/G, \
                 l/g}))))",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Proof of Theorem 2 (§4)",
        states: "|Q_out(i)| = O(C/G) and at most ceil(δ/G) messages in S per stalling \
                 processor: a cycle sorts O((C/G) p) messages",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Corollary 1",
        states: "with l = Θ(L), g = Θ(G): slowdown O((L/G) log p) for δ = 1 and \
                 O(log p / min{G, 1 + log(L/G)}) for δ = Θ(L)",
        coverage: Coverage::Claims,
    },
];
