//! The referee list of Fantozzi, Pietracaprina and Pucci, "A General PRAM Simulation Scheme
//! for Clustered Machines": every numbered result of the paper (and every remark that states
//! a quantity), in paper order, with how the reproduction covers it (the claims of the
//! `dbsp-*` studies that name it, a test that pins it, or why it is not built).

use netcore::study::{Coverage, PaperResult};

/// The paper's results, in paper order (Sections 1-5).
pub const RESULTS: &[PaperResult] = &[
    PaperResult {
        id: "Eq. 1",
        states: "Section 1.1: the D-BSP (n, g^(alpha), l^(beta)) with g_i = (n/2^i)^alpha, l_i = (n/2^i)^beta",
        coverage: Coverage::Tests {
            test: "specs::e1_broadcast",
            why: "the machine every study prices its traces on (DbspParams::power_law); E1 pins the cost of a broadcast on g = l = (8, 4, 2, 1), alpha = beta = 1",
        },
    },
    PaperResult {
        id: "Theorem 1",
        states: "Section 1.2: redundancy Theta(3^k) and slowdown O(2^k n^(alpha + alpha(1-alpha)/(2^k(2-alpha))) + k n^beta); constructive for m = O(n^1.5), alpha >= 1/2",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Corollary 1",
        states: "Section 1.2: slowdown O(n^beta) with constant redundancy when alpha < beta; O(n^alpha log n) with redundancy O(log^1.59 n) when alpha >= beta",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Remark (lower bound of [13])",
        states: "Section 1.2: any scheme sending one message per copy needs slowdown Omega(n^alpha (log(m/n)/log log(m/n))^(1-alpha)) and redundancy Omega(log(m/n)/log log(m/n)) on such machines",
        coverage: Coverage::NotBuilt(
            "a lower bound over every scheme, cited from [13, Theorem 9]: one construction cannot show it; drawn (constant 1) as the dashed column lower_bound_13 of dbsp-slowdown and dbsp-theorem3, with no claim",
        ),
    },
    PaperResult {
        id: "Table 1",
        states: "Section 2: the primitives' times: broadcast and prefix O(n^alpha + n^beta), k-sorting O(k n^alpha + n^beta), (k1, k2)-routing O(k_min^alpha k_max^(1-alpha) n^alpha + n^beta)",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Proposition 1",
        states: "Section 2: single-item broadcast and parallel prefix of n items in O(n^alpha + n^beta)",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Proposition 2",
        states: "Section 2: k-sorting (k polynomial in n) in O(k n^alpha + n^beta), by bitonic merge-split with dimension i in (log n - i - 1)-clusters",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Remark (greedy routing)",
        states: "Section 2: greedy (k1, k2)-routing in one superstep takes max(k1, k2) n^alpha + n^beta in the worst case",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Proposition 3",
        states: "Section 2: (k1, k2)-routing in O(k_min^alpha k_max^(1-alpha) n^alpha + n^beta) by two phases (a_i = min(k1, k2 2^i), d_i = min(k2, k1 2^(i+1)))",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Figure 1",
        states: "Section 3: a sample HMOS, m = 8, k = 2, |U_0| = 8, |U_1| = 4, |U_2| = 3, r = 5",
        coverage: Coverage::Tests {
            test: "figures::figures_from_the_hmos",
            why: "a picture, not a quantity: drawn from the built HMOS at the nearest valid instance (n = m = 512, r = 5, k = 2; the paper's breaks the constraints, its caption says so), its arrows counted against the subdag's r + 3 (|paths' U_0| + |paths' U_1|) edges",
        },
    },
    PaperResult {
        id: "Figure 2",
        states: "Section 3: contents of the i-modules of Figure 1: r 3^k = 5 * 3^2 = 45 copies of v_4",
        coverage: Coverage::Tests {
            test: "figures::figures_from_the_hmos",
            why: "drawn from the built HMOS at n = m = 512, r = 5, k = 2: 5, 15, 45 copies of variable 4 at levels 0, 1, 2, 45 in memory at every level (also hmos::placement_and_capacities on other instances)",
        },
    },
    PaperResult {
        id: "Figure 3",
        states: "Section 3: the aggregate memory: each i-block recursively assigned to a distinct D-BSP cluster",
        coverage: Coverage::Tests {
            test: "figures::figures_from_the_hmos",
            why: "drawn from the built HMOS: each i-block holding a copy framed over its cluster, every copy below m_k t_k (also hmos::placement_and_capacities: the capacities sum to r 3^k m)",
        },
    },
    PaperResult {
        id: "Eq. 2",
        states: "Section 3: t_i = n / (2^ceil(log m_k) prod_(j > i) d_j) = Theta(3^(i-k) n^(1-1/2^i)), m_i = Theta(n^(1/2^i)), d_i = ceil(3 m_(i-1)/m_i) a power of 2",
        coverage: Coverage::Tests {
            test: "hmos::e6_chains",
            why: "the chains m_i, d_i, t_i are exact integers, pinned at n = 64 and 512 (snapshot)",
        },
    },
    PaperResult {
        id: "Remark (capacity)",
        states: "Section 3: each processor stores O(r 3^k m / n) copies",
        coverage: Coverage::Tests {
            test: "hmos::placement_and_capacities",
            why: "the capacities sum to r 3^k m over the processors below m_k t_k",
        },
    },
    PaperResult {
        id: "Definition 1",
        states: "Section 3: (sigma, eps, mu)-expansion: mu edges of each of |S| <= sigma |X| inputs reach Omega(|S|^(1-eps)) outputs",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Lemma 1",
        states: "Section 3: an explicit (X, Y) with |X| = w: sqrt(6w) < |Y| < 6 + 6 sqrt(6w), X-degree 3, Y-degree <= d = ceil(3w/|Y|) a power of 2, (nu - 1)|S|/4 + 1 reached",
        coverage: Coverage::Tests {
            test: "hmos::lemma1_properties_up_to_3000",
            why: "properties (i)-(iii) for every w <= 1000 and every 7th up to 3000; (iv) exhaustively on small graphs in hmos::lemma1_property_iv_exhaustive; exact statements, no sweep",
        },
    },
    PaperResult {
        id: "Remark (target sets)",
        states: "Section 4.1: mu roots and two children per coloured node; any two target sets of a variable share a copy; mu 2^k copies selected",
        coverage: Coverage::Tests {
            test: "protocol::target_sets_have_size_mu_2k_and_intersect",
            why: "exact combinatorial properties, checked on every target set of the protocol",
        },
    },
    PaperResult {
        id: "Remark (weights)",
        states: "Section 4.1: a coloured i-module has exactly 2^(k-i) i-blocks holding selected copies, w(u) copies each",
        coverage: Coverage::Tests {
            test: "protocol::weights_blocks_and_deltas_after_every_iteration",
            why: "an exact property, checked after every iteration",
        },
    },
    PaperResult {
        id: "Lemma 2",
        states: "Section 4.1: with (n/m, eps, mu)-expansion, iteration 0 in O(n^alpha + n^beta) with w(u) = O(n^eps); n/2^i variables left unmarked after round i",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Lemma 3",
        states: "Section 4.1: iteration i (1 <= i <= k) in O(2^i n^alpha + n^beta) with w(u) = O(2^i n^(1-(1-eps)/2^i))",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Theorem 2",
        states: "Section 4.1: copy selection in O(2^k n^alpha + k n^beta); every i-block holds O(2^i n^(1-(1-eps)/2^i)) selected copies",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Eq. delta_i",
        states: "Section 4.2: delta_(k+1) = mu 2^k, delta_i = O(2^i 3^(k-i) n^(eps/2^i)) messages per processor at stage i",
        coverage: Coverage::Tests {
            test: "protocol::weights_blocks_and_deltas_after_every_iteration",
            why: "delta_i = ceil(w_max(U_i) / t_i) and delta_(k+1) = mu 2^k checked exactly on the router's layout; the O() is Lemma 3's weight bound over Eq. 2's t_i",
        },
    },
    PaperResult {
        id: "Eq. 3",
        states: "Section 4.2: the access time (2^k n^((1-alpha)eps/2^k) + sum_i 2^i 3^((1-alpha)(k-i)) n^(((2-alpha)eps-alpha)/2^i)) n^alpha + k n^beta",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Theorem 3",
        states: "Section 4.2: any n-tuple accessed in O(2^k n^(alpha + alpha(1-alpha)/(2^k(2-alpha))) + k n^beta) for eps < alpha/(2-alpha)",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Remark (choice of k)",
        states: "Section 4.2: k = O(1) gives O(n^beta) when alpha < beta; k = log log n gives O(n^alpha log n) with redundancy Theta(log^(log2 3) n) when alpha >= beta",
        coverage: Coverage::Claims,
    },
    PaperResult {
        id: "Section 5 (polarity graph)",
        states: "Section 5: an explicit level-0 graph of [14] with m inputs, Theta(m^(2/3)) outputs, degree 3 and (1, 1/3, 2)-expansion, usable for m = O(n^1.5); with eps = 1/3, alpha >= 1/2 Eq. 3 gives Theorem 3",
        coverage: Coverage::Claims,
    },
];
