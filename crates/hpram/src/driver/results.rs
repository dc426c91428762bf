//! The referee list of Heywood and Ranka's H-PRAM paper: every definition, worked example,
//! figure and remark that states a quantity, in paper order, with how the reproduction covers
//! it (the report's referee table).
//!
//! The paper numbers no theorems: its results are the model's definitions (Section 2.1), its
//! determinacy argument (Section 2.2), the cost recursion and its simplifications (Sections
//! 2.3.1 and 2.3.2), the instances (Section 2.4), the architectural remarks (Section 3) and
//! the claim that general locality lets more processors be used (abstract, Section 5, shown in
//! the companion paper \[HR\], whose tree and FFT algorithms are reconstructed here:
//! `docs/models/hpram.md`, Choices: Algorithms are ours). Each result is named by its section
//! and a few words; the claims name the ones they are evidence for through the constants below.

use netcore::study::{Coverage, PaperResult};

/// Section 2.2: strict and neighbourhood (general) locality.
pub const LOCALITY: &str = "Section 2.2 general locality";
/// Section 2.3.2: the simplified complexity is `O(T + C·ℓ + R)`.
pub const BIG_O: &str = "Section 2.3.2 O(T + C l + R)";
/// Section 2.3.2: the two-stage analysis.
pub const TWO_STAGE: &str = "Section 2.3.2 two-stage analysis";
/// Section 2.3.2: per-level sums on a regular hierarchy.
pub const PER_LEVEL: &str = "Section 2.3.2 per-level sums";
/// Section 2.4: neighbourhood locality beyond the LPRAM's strict locality.
pub const NEIGHBOURHOOD: &str = "Section 2.4 neighbourhood vs strict locality";
/// Section 3.1: a barrier of `P'` processors as a prefix/scan in `O(diam(P'))`.
pub const BARRIER: &str = "Section 3.1 barrier synchronisation";
/// Section 3.2: the memory hashed over sub-networks, unhash + rehash at partitions.
pub const NETWORK_MAPPING: &str = "Section 3.2 memory mapping";
/// Abstract and Section 5: more usable processors.
pub const USABLE: &str = "Section 5 usable processors";

/// A result pinned by `test` (a test function of the crate), with `why` no sweep claim
/// states it.
const fn tests(test: &'static str, why: &'static str) -> Coverage {
    Coverage::Tests { test, why }
}

/// Every result of the paper, in paper order.
pub const RESULTS: &[PaperResult] = &[
    PaperResult {
        id: "Section 1 memory granularity",
        states: "g contiguous words are accessed in time l + c g; a PRAM accessing them one by one takes l g",
        coverage: tests(
            "specs::e5_bpram_blocks",
            "a block step costs l + c len (Choices: Block cost), derived by hand on one run",
        ),
    },
    PaperResult {
        id: "Section 2.1 H-PRAM",
        states: "a hierarchy of synchronous PRAMs: a partition step runs sub-PRAMs asynchronously and takes the maximum of their times; an alpha-synchronisation follows every other step, a beta-synchronisation every partition",
        coverage: tests(
            "specs::e1_cost_recursion",
            "a definition: executed and priced by hand on a nested shape with unequal children",
        ),
    },
    PaperResult {
        id: "Section 2.1 partition instruction",
        states: "partition{P_1: A_1; ...; P_Q: A_Q} with sum_i P_i = P'",
        coverage: tests(
            "props::i1_partition_errors",
            "a definition: every broken rule is refused, in order, on random partitions",
        ),
    },
    PaperResult {
        id: "Section 2.1 abbreviated partition",
        states: "partition{Q, P_i, A} with Q P_i = P'",
        coverage: tests(
            "machine::partition_validation_order",
            "a definition: its rule is enforced",
        ),
    },
    PaperResult {
        id: "Section 2.1 Alg1",
        states: "worked example: Alg1(P') halves while P' >= 16, then splits 8 processors into P'/2, P'/4, P'/8, P'/8 running Alg2..Alg5",
        coverage: tests(
            "specs::e2_alg1_costs",
            "an example with no cost: its hierarchy and costs are snapshotted, P = 8 2^k only",
        ),
    },
    PaperResult {
        id: "Figure 1",
        states: "the hierarchy of Alg1(16), one box per sub-PRAM per level",
        coverage: tests(
            "specs::alg1_hierarchy_p16_p32",
            "lost in the OCR: reconstructed from Alg1 and snapshotted (Choices: Figure 1 is reconstructed)",
        ),
    },
    PaperResult {
        id: "Section 2.1 non-uniform variant",
        states: "a partition splits the shared memory with the processors: 1/x of the processors get a private 1/x of the memory",
        coverage: tests(
            "machine::non_uniform_blocks",
            "a definition: private blocks and out-of-block refusals",
        ),
    },
    PaperResult {
        id: "Section 2.1 uniform variant",
        states: "every sub-PRAM shares the whole shared memory; an access costs l(P) of the whole H-PRAM",
        coverage: tests("machine::uniform_addresses", "a definition: global addresses"),
    },
    PaperResult {
        id: "Section 2.1 sub-models",
        states: "a sub-PRAM may be any synchronous variant (EREW, CREW, CRCW, LPRAM, BPRAM, scan, multiprefix), not all the same",
        coverage: tests(
            "specs::e7_sub_model_rules",
            "a definition: each variant's rule on one step, derived by hand",
        ),
    },
    PaperResult {
        id: "Section 2.2 asynchronous communication",
        states: "two asynchronous processors access one cell: one writes and the other reads, or both write different values",
        coverage: tests(
            "specs::e6_determinacy",
            "a definition: the checker's three outcomes (read-write, write-write, one shared value accepted)",
        ),
    },
    PaperResult {
        id: "Section 2.2 determinacy (non-uniform)",
        states: "with determinate sub-algorithms every non-uniform H-PRAM algorithm is determinate: one run proves correctness for its input",
        coverage: tests(
            "machine::replay_hash",
            "a universal statement: the replay hash agrees over runs and thread counts; random non-uniform programs replay in uniform memory (lockstep::i7_non_uniform_replays_in_uniform)",
        ),
    },
    PaperResult {
        id: "Section 2.2 arbitrary CRCW",
        states: "a synchronous PRAM step is indeterminate only under ARBITRARY CRCW, unless the machine picks the same value every run",
        coverage: tests(
            "machine::seeded_arbitrary",
            "the seeded winner is replay-stable and varies with the seed",
        ),
    },
    PaperResult {
        id: "Section 2.2 determinacy (uniform)",
        states: "a uniform H-PRAM algorithm is determinate when beta-synchronisations separate communicating processors; the programming model must find and flag asynchronous communication",
        coverage: tests(
            "lockstep::i6_determinacy_against_interleavings",
            "a universal statement: accepted random programs equal 16 interleavings; rejected ones fail alike on every thread count",
        ),
    },
    PaperResult {
        id: LOCALITY,
        states: "1-processor sub-PRAMs give strict locality (communication and synchronisation non-uniform, synchronisation only uniform); sub-PRAMs give neighbourhood locality, costs a function of the neighbourhood's size",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Section 2.3.1 step costs",
        states: "T + C l + S s on the arbitrary model, l = 1, s = 0, S = T + C giving the PRAM's T + C; l non-decreasing, l(x) = O(1) iff x = O(1); diam(P) <= s(P) <= diam(P) log P",
        coverage: tests(
            "props::pram_flat_and_threads",
            "a definition: without partitions the Pram preset costs T + C; the presets take s = diam and diam-log (Choices: Preset cost models)",
        ),
    },
    PaperResult {
        id: "Section 2.3.1 beta-synchronisation",
        states: "S_alpha = T + C, S_beta = T_p; s_beta(Q, P') between diam(Q) and diam(Q) log Q, or diam(P') and diam(P') log Q",
        coverage: tests(
            "props::i4_i5_monotone_and_two_stage",
            "a definition: cost monotone in s_beta; the presets take the ends of the ranges",
        ),
    },
    PaperResult {
        id: "Section 2.3.1 cost recursion",
        states: "tau(q0, lambda) = T(s_a + 1) + C(l + s_a) + sum_i [max_q tau(q, lambda + 1) + s_b(Q_i, P')]; l(P') non-uniform, l(P) uniform; the total is tau(H, 1)",
        coverage: tests(
            "specs::e1_cost_recursion",
            "hand-derived costs of one hierarchy under four pricings and four forms pin every term of the recursion; the hpram-model study's consistency claims that name it (the timeline, uniform memory never below) check only its bookkeeping, since they price each sub-PRAM with the same per-node rule as the evaluator",
        ),
    },
    PaperResult {
        id: "Section 2.3.2 phase-refined form",
        states: "T + T' s_a + C(l + s_a) + R, T' the computation phases, T' <= C + 1",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Section 2.3.2 simplified form",
        states: "at most T + C(l + 2 s_a) + R, assuming T' <= C",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: BIG_O,
        states: "l + 2 s_a = O(l(P)) uniform and O(l(P')) non-uniform, so the complexity is O(T + C l + R)",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: TWO_STAGE,
        states: "stage 1 without beta-synchronisation plus stage 2, the beta-synchronisations, which usually only need checking not to dominate stage 1",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: PER_LEVEL,
        states: "a regular hierarchy of L levels costs sum_lambda (T_lambda + C_lambda l_lambda) plus sum_{lambda < L} (s_b)_lambda",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Section 2.4 PRAM instance",
        states: "an H-PRAM algorithm without partitions is a PRAM algorithm (l = 1, s_a = 0)",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Section 2.4 APRAM instance",
        states: "Gibbons' Asynchronous PRAM is the uniform H-PRAM: all-processor synchronisation two levels, subset synchronisation three, with 1-processor leaves",
        coverage: tests(
            "instances::gibbons_all_costs",
            "costs derived by hand (also instances::gibbons_subset_costs, instances::gibbons_rule_is_enforced)",
        ),
    },
    PaperResult {
        id: "Section 2.4 LPRAM instance",
        states: "the LPRAM is the two-level non-uniform H-PRAM with 1-processor leaves, and the one-level uniform H-PRAM on an LPRAM sub-model",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Section 2.4 BPRAM instance",
        states: "the BPRAM moves a block of g words in l + g, an instance like the LPRAM",
        coverage: tests(
            "instances::lpram_bpram_one_level",
            "summing blocks of 8 word by word and by blocks, derived by hand",
        ),
    },
    PaperResult {
        id: NEIGHBOURHOOD,
        states: "the non-uniform H-PRAM represents neighbourhood locality beyond the LPRAM's strict locality: communication charged at the neighbourhood's latency, not the machine's",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: BARRIER,
        states: "a barrier of P' processors in O(l(P')) through prefix/scan, O(diam(P')) on most architectures",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Section 3.1 beta-synchronisation on networks",
        states: "s_b(Q, P') = s_a(Q) on the hypercube; on the 2-D mesh a function of P'",
        coverage: tests(
            "cost_model::tests::hypercube_from_topology_is_the_preset",
            "the presets' rules (also cost_model::tests::mesh_diameters), not a measurement",
        ),
    },
    PaperResult {
        id: "Section 3.1 recursive partitionability",
        states: "Q processors simulate Omega(Q/P) independent P-processor machines with constant overhead (hypercube, mesh; not the butterfly); a sub-PRAM maps to the nearest-sized sub-network at a constant loss",
        coverage: Coverage::NotBuilt(
            "the network executor (study hpram-network) places each sub-PRAM on an aligned sub-network of its own size; simulating differently-sized machines is not built",
        ),
    },
    PaperResult {
        id: "Section 3.2 permutation cost",
        states: "N' elements are permuted by P' processors in O((N'/P') l(P'))",
        coverage: tests(
            "props::i10_permute_cost",
            "permute costs exactly 2r'(l(P') + s_a(P')) under every preset",
        ),
    },
    PaperResult {
        id: NETWORK_MAPPING,
        states: "a partition step permutes the memory into the sub-PRAMs' blocks (unhash, hash) and back after it",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: USABLE,
        states: "general locality lets more processors be used efficiently than a PRAM charging for communication and synchronisation (shown in [HR] on trees and FFTs)",
        coverage: Coverage::Claims,
    },
];
