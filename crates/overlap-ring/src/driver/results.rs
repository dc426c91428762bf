//! The referee list: every numbered result of Andrews, Leighton, Metaxas and Zhang, "Improved
//! Methods for Hiding Latency in High Bandwidth Networks" (and the unnumbered definitions and
//! remarks that state a quantity), in paper order, with how the reproduction covers each: the
//! claims of the studies that name it ([`Claim::of`](netcore::study::Claim::of)), the test that
//! pins it, or why it is not built.

use netcore::study::{Coverage, PaperResult};

/// The paper's results, in paper order (Sections 1-6).
pub const RESULTS: &[PaperResult] = &[
    PaperResult {
        id: "Section 1 (d_max)",
        states: "without redundant computation a simulation pays the largest delay d_max per guest step",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Footnote 1",
        states: "host links carry log n times the guest bandwidth (else one more log n factor)",
        coverage: Coverage::NotBuilt(
            "every host is built with log n times the guest bandwidth, as the paper assumes; the variant without it (one more log n factor) is not built",
        ),
    },
    PaperResult {
        id: "Figure 1",
        states: "pebble (i, t) is computed from database b_i and pebbles (i-1, t-1), (i, t-1), (i+1, t-1)",
        coverage: Coverage::Tests {
            test: "it::specs::figure1_affine_mod_97",
            why: "a worked 3-column example, checked pebble by pebble on every scheme",
        },
    },
    PaperResult {
        id: "Section 2 (load)",
        states: "load = most databases one host processor copies; minimum load = O(m/n)",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Section 3.1 (D_k, m_k)",
        states: "killing delay D_k = (n/2^k) d_ave c log n and overlap size m_k = n/(c 2^k log n); stage 1 kills a processor in a depth-k interval of delay > D_k",
        coverage: Coverage::Tests {
            test: "it::overlap::stage1_matches_definition",
            why: "stage 1 against a brute-force pass over the tree on a 256-processor host",
        },
    },
    PaperResult {
        id: "Lemma 1",
        states: "stage 1 kills at most n/c processors",
        coverage: Coverage::Tests {
            test: "it::overlap::lemmas_and_assignment",
            why: "a property of the labelling, checked node by node on random hosts",
        },
    },
    PaperResult {
        id: "Lemma 2",
        states: "the stage-2 root label is at least (1 - 2/c) n",
        coverage: Coverage::Tests {
            test: "it::overlap::lemmas_and_assignment",
            why: "a property of the labelling, checked on random hosts",
        },
    },
    PaperResult {
        id: "Lemma 3",
        states: "a remaining depth-k node has label >= 2 m_k, a child, and x = x_1 + x_2 - m_k or x <= x_1",
        coverage: Coverage::Tests {
            test: "it::overlap::lemmas_and_assignment",
            why: "a property of the labelling, checked node by node on random hosts",
        },
    },
    PaperResult {
        id: "Figure 2",
        states: "the tree T, its labels, killed processors and the root interval's endpoints",
        coverage: Coverage::Tests {
            test: "it::overlap::figure2_stage2_example",
            why: "a worked 32-processor labelling and assignment",
        },
    },
    PaperResult {
        id: "Lemma 4",
        states: "after stage 3 the root label n' >= (1 - 2/c) n and a remaining depth-k label >= 2 m_k",
        coverage: Coverage::Tests {
            test: "it::overlap::lemmas_and_assignment",
            why: "a property of the labelling, checked node by node on random hosts",
        },
    },
    PaperResult {
        id: "Section 3.2 (s_t^(k))",
        states: "the deadlines s_1^(k_max) = 1, s_t^(k) = s_t^(k+1) + D_k, s_t^(k) = s_(t-m_(k+1))^(k) + s_(m_(k+1))^(k)",
        coverage: Coverage::Tests {
            test: "it::overlap::theorem1_schedule_snapshot",
            why: "the recursion worked out for n = 64, paper and corrected variants",
        },
    },
    PaperResult {
        id: "Theorem 1",
        states: "every pebble of B_k is computed by every copy in interval I by time s_t^(k)",
        coverage: Coverage::Tests {
            test: "it::overlap::theorem1_corrected_deadlines",
            why: "a per-row, per-copy schedule property, checked on random hosts (corrected deadlines; the paper's variant fails for k_max = 0, see it::overlap::theorem1_paper_variant_fails_for_kmax_zero)",
        },
    },
    PaperResult {
        id: "Figure 3",
        states: "B_k as the union of B_(k+1) and B'_(k+1), overlapping in m_(k+1) columns between C and D",
        coverage: Coverage::Tests {
            test: "it::overlap::fact1_column_c_is_untainted",
            why: "the boxes and columns C, D at every split of random hosts",
        },
    },
    PaperResult {
        id: "Fact 1",
        states: "column C can be computed by I_1 by s_t^(k+1) without the pebbles (0, t), (x_1 + 1, t)",
        coverage: Coverage::Tests {
            test: "it::overlap::fact1_column_c_is_untainted",
            why: "a dependency property of the assignment, checked at every split",
        },
    },
    PaperResult {
        id: "Fact 2",
        states: "starting the recursion at step z instead of 0 shifts every deadline by z",
        coverage: Coverage::Tests {
            test: "engine::tests::fact2_time_shift",
            why: "a proof step (time-shift invariance): preloaded pebbles available only from step z + 1 shift every compute step by exactly z, on OVERLAP and on a trapezoid plan",
        },
    },
    PaperResult {
        id: "Theorem 2",
        states: "OVERLAP simulates an n'-processor guest array with load one and slowdown O(d_ave log^3 n)",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Remarks (Section 3.2)",
        states: "communication between depth-k intervals needs at most G's bandwidth; the simulation works for any constant c > 2",
        coverage: Coverage::Tests {
            test: "it::overlap::bad_c_and_small_hosts_are_errors",
            why: "c <= 2 is refused; c = 5/2, 8/3, 3 and 5/2..9/2 run in the other tests",
        },
    },
    PaperResult {
        id: "Theorem 3",
        states: "blocks of d_ave log^3 n columns: slowdown and load O(d_ave log^3 n), work efficient",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Theorem 4",
        states: "uniform delay d: an n sqrt(d)-column guest runs with slowdown O(sqrt d) (5d steps per sqrt(d) rows), work efficient, minimum load",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Figure 4",
        states: "the regions P_j, T, L, R and columns A-D of one phase of sqrt(d) rows",
        coverage: Coverage::Tests {
            test: "it::trapezoid::figure4_regions_snapshot",
            why: "the regions' sizes for d = 16 (|T| = 2d - r, triangles r(r+1)/2)",
        },
    },
    PaperResult {
        id: "Section 3.4 (lower bound)",
        states: "Omega(sqrt d) lower-bounds the slowdown of a guest array on a uniform-delay host (cited from [2])",
        coverage: Coverage::NotBuilt("cited from [2], not proved in this paper"),
    },
    PaperResult {
        id: "Theorem 5",
        states: "composite scheme: a sqrt(d_ave) n log^3 n-column guest with slowdown and load O(sqrt(d_ave) log^3 n), work efficient, minimum load",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Fact 3",
        states: "an n-node linear array embeds one-to-one with dilation 3 in any connected n-node network (average delay <= delta d_ave)",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Theorem 6",
        states: "a connected bounded-degree host simulates a linear array with slowdown and load O(sqrt(d_ave) log^3 n)",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Section 4 (clique chain)",
        states: "Theorem 6 fails for unbounded degree: sqrt n cliques chained by delay-n links have d_ave < 4 but slowdown >= n^(1/4)",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Theorem 7",
        states: "m = d_ave^(1/3) n_0^(2/3): an m x m array on the uniform host H_0 with slowdown O(m + m^2/n_0)",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Theorem 8",
        states: "m x m array on a bounded-degree host, m = d_ave^(1/3) n^(2/3) log^2 n: slowdown O(d_ave^(1/3) n^(2/3) log^5 n + d_ave^(2/3) n^(1/3) log^4 n)",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Theorem 9",
        states: "one copy per database: the slowdown on H_1 (every sqrt n-th link of delay sqrt n) is d_max",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Figure 5",
        states: "a level-3 box of H_2: two level-2 boxes joined by a segment of 2^l d / log n unit links",
        coverage: Coverage::Tests {
            test: "it::lower_bounds::h2_paper_16_and_two_copies",
            why: "H_2 for n = 16 (segments 1, 3, 5, 3, 1), drawn as a snapshot",
        },
    },
    PaperResult {
        id: "Fact 4",
        states: "processors in different segments of sizes u, v are >= min(u, v) log n apart, in particular >= d",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Theorem 10",
        states: "at most two copies per database and constant load: the slowdown on H_2 (d_ave = O(1)) is Omega(log n)",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Figure 6",
        states: "the zigzag dependency path of 4j pebbles in Theorem 10's case 1",
        coverage: Coverage::Tests {
            test: "it::lower_bounds::figure6_paths",
            why: "the path for j = 2, 4, 6, checked to be a dependency path",
        },
    },
];
