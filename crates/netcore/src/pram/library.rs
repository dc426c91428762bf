//! Library programs: each [`Algorithm`] generates a [`Program`] for size `n` through the
//! [`ProgramBuilder`], its input data, and the same computation in plain Rust; each has a
//! textbook time and work bound for studies (paper §2.1 machine, §6 on prefix sums versus
//! list ranking).
//!
//! Inputs that are data (a permutation, a list, matrix entries) come from
//! [`crate::rng::seeded`]`(seed, 0)`, so an instance is a pure function of `(n, seed)`.

use rand::RngExt;
use rand::seq::SliceRandom;

use crate::pram::error::PramError;
use crate::pram::{FetchOp, Op, Program, ProgramBuilder, Variant, c, r};

/// The NTT prime `119 * 2^23 + 1`.
pub const NTT_PRIME: i64 = 998_244_353;
/// A primitive root modulo [`NTT_PRIME`].
const NTT_ROOT: i64 = 3;
/// The largest NTT size, `2^23` (the largest power of two dividing `NTT_PRIME - 1`).
const NTT_MAX: u32 = 1 << 23;
/// The most global cells a library instance may use: 2^27 words, 1 GiB, the interpreter's
/// default byte budget ([`super::Limits`]); a larger `n` is refused before the input is built.
pub const MAX_CELLS: u64 = 1 << 27;

/// The library's programs.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// Prefix sums by recursive doubling (the paper's example; input `1..=n`). EREW;
    /// T = O(log n), W = O(n log n).
    PrefixSums,
    /// Bitonic sort of `n = 2^k` values, one PPU per value. EREW; T = O(log^2 n),
    /// W = O(n log^2 n).
    BitonicSort,
    /// List ranking by pointer jumping: distance of every node to the tail. CREW (the tail is
    /// read by many); T = O(log n), W = O(n log n).
    ListRanking,
    /// `y = A x` for an `n x n` matrix, one PPU per row. CREW (`x[j]` is read by all);
    /// T = O(n), W = O(n^2).
    #[serde(rename = "matvec")]
    MatVec,
    /// `out[i] = data[perm[i]]`. EREW; T = O(1), W = O(n).
    PermutationRead,
    /// `out[perm[i]] = data[i]`. EREW; T = O(1), W = O(n).
    PermutationWrite,
    /// Every PPU reads one hot cell: `out[i] = g[0] + i`. CREW; T = O(1), W = O(n).
    HotSpotRead,
    /// Fetch-and-add counter: PPU `i` adds `v[i]` to a counter and gets its old value plus the
    /// contributions of lower pids. CRCW fetch-and-add only; T = O(1), W = O(n).
    FetchAddCounter,
    /// Broadcast of `g[0]` to `g[0..n)` by doubling. EREW; T = O(log n), W = O(n).
    BroadcastDoubling,
    /// Broadcast of `g[0]` to `g[0..n)` by one concurrent read. CREW; T = O(1), W = O(n).
    BroadcastConcurrent,
    /// Sum of `n = 2^k` values by a balanced tree, result in `g[0]`. EREW; T = O(log n),
    /// W = O(n).
    TreeReduction,
    /// Number-theoretic transform of `n = 2^k` values modulo [`NTT_PRIME`] (bit reversal,
    /// then `log n` butterfly levels; twiddle factors given as input). CREW; T = O(log n),
    /// W = O(n log n).
    Ntt,
}
crate::display_config_name!(Algorithm => name);

/// A library program at one size, with its input and the plain-Rust result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// The program.
    pub program: Program,
    /// The initial global memory (then zeros).
    pub input: Vec<i64>,
    /// Where the result lies in global memory.
    pub output: std::ops::Range<usize>,
    /// The result, computed in plain Rust by [`Algorithm::reference`].
    pub expected: Vec<i64>,
}

fn log2(n: u32) -> f64 {
    f64::from(n).log2().max(1.0)
}

impl Algorithm {
    /// Every algorithm.
    pub const ALL: [Algorithm; 12] = [
        Algorithm::PrefixSums,
        Algorithm::BitonicSort,
        Algorithm::ListRanking,
        Algorithm::MatVec,
        Algorithm::PermutationRead,
        Algorithm::PermutationWrite,
        Algorithm::HotSpotRead,
        Algorithm::FetchAddCounter,
        Algorithm::BroadcastDoubling,
        Algorithm::BroadcastConcurrent,
        Algorithm::TreeReduction,
        Algorithm::Ntt,
    ];

    /// The name of its fixture, `fixtures/pram/<name>.pasm`.
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::PrefixSums => "prefix-sums",
            Algorithm::BitonicSort => "bitonic-sort",
            Algorithm::ListRanking => "list-ranking",
            Algorithm::MatVec => "matvec",
            Algorithm::PermutationRead => "permutation-read",
            Algorithm::PermutationWrite => "permutation-write",
            Algorithm::HotSpotRead => "hot-spot-read",
            Algorithm::FetchAddCounter => "fetch-add-counter",
            Algorithm::BroadcastDoubling => "broadcast-doubling",
            Algorithm::BroadcastConcurrent => "broadcast-concurrent",
            Algorithm::TreeReduction => "tree-reduction",
            Algorithm::Ntt => "ntt",
        }
    }

    /// The weakest variant it is valid under.
    pub const fn variant(self) -> Variant {
        match self {
            Algorithm::PrefixSums
            | Algorithm::BitonicSort
            | Algorithm::PermutationRead
            | Algorithm::PermutationWrite
            | Algorithm::BroadcastDoubling
            | Algorithm::TreeReduction => Variant::Erew,
            Algorithm::ListRanking
            | Algorithm::MatVec
            | Algorithm::HotSpotRead
            | Algorithm::BroadcastConcurrent
            | Algorithm::Ntt => Variant::Crew,
            Algorithm::FetchAddCounter => Variant::CrcwFetchOp(FetchOp::Add),
        }
    }

    /// Every variant it is valid under, with the same result: a program free of concurrent
    /// reads and writes is valid under every variant; one with concurrent reads only under
    /// every variant but EREW; fetch-and-add only under its own.
    pub fn variants(self) -> Vec<Variant> {
        match self.variant() {
            Variant::Erew => Variant::ALL.to_vec(),
            Variant::Crew => Variant::ALL.into_iter().filter(|v| v.concurrent_read()).collect(),
            own => vec![own],
        }
    }

    /// The global cells the instance of size `n` uses (input, scratch and output).
    pub fn cells(self, n: u32) -> u64 {
        let n = u64::from(n);
        // No overflow: n < 2^32, so n^2 + 2n <= 2^64 - 1.
        match self {
            Algorithm::PrefixSums
            | Algorithm::BitonicSort
            | Algorithm::BroadcastDoubling
            | Algorithm::BroadcastConcurrent
            | Algorithm::TreeReduction => n,
            Algorithm::ListRanking => 2 * n,
            Algorithm::MatVec => n * n + 2 * n,
            Algorithm::PermutationRead | Algorithm::PermutationWrite => 3 * n,
            Algorithm::HotSpotRead | Algorithm::FetchAddCounter => n + 1,
            Algorithm::Ntt => n / 2 + 2 * n,
        }
    }

    /// Whether `n` is a size it accepts: `n >= 1`, a power of two for the sorting, reduction
    /// and NTT programs (at most 2^23 for the NTT), and at most [`MAX_CELLS`] global cells
    /// (checked before the input is built).
    pub fn check_size(self, n: u32) -> Result<(), PramError> {
        if self.cells(n) > MAX_CELLS {
            return Err(PramError::InvalidConfig {
                field: "n",
                rule: "the instance uses at most 2^27 global cells (1 GiB)",
                got: format!("{n} ({} cells)", self.cells(n)),
            });
        }
        let (ok, rule) = match self {
            Algorithm::BitonicSort | Algorithm::TreeReduction => {
                (n.is_power_of_two(), "n is a power of two")
            }
            Algorithm::Ntt => (n.is_power_of_two() && n <= NTT_MAX, "n is a power of two <= 2^23"),
            _ => (n >= 1, "n >= 1"),
        };
        if ok {
            Ok(())
        } else {
            Err(PramError::InvalidConfig { field: "n", rule, got: n.to_string() })
        }
    }

    /// The textbook time bound `T(n)` up to a constant, `log n` read as `max(1, log2 n)`.
    pub fn time_bound(self, n: u32) -> f64 {
        match self {
            Algorithm::PrefixSums
            | Algorithm::ListRanking
            | Algorithm::BroadcastDoubling
            | Algorithm::TreeReduction
            | Algorithm::Ntt => log2(n),
            Algorithm::BitonicSort => log2(n) * log2(n),
            Algorithm::MatVec => f64::from(n),
            Algorithm::PermutationRead
            | Algorithm::PermutationWrite
            | Algorithm::HotSpotRead
            | Algorithm::FetchAddCounter
            | Algorithm::BroadcastConcurrent => 1.0,
        }
    }

    /// The textbook work bound `W(n)` (the sum of active PPUs over parallel instructions) up
    /// to a constant.
    pub fn work_bound(self, n: u32) -> f64 {
        let n_f = f64::from(n);
        match self {
            Algorithm::PrefixSums | Algorithm::ListRanking | Algorithm::Ntt => n_f * log2(n),
            Algorithm::BitonicSort => n_f * log2(n) * log2(n),
            Algorithm::MatVec => n_f * n_f,
            // Doubling and the tree halve or double the active PPUs: a geometric sum, O(n).
            Algorithm::BroadcastDoubling
            | Algorithm::TreeReduction
            | Algorithm::PermutationRead
            | Algorithm::PermutationWrite
            | Algorithm::HotSpotRead
            | Algorithm::FetchAddCounter
            | Algorithm::BroadcastConcurrent => n_f,
        }
    }

    /// The instance of size `n`, data drawn from stream 0 of `seed`.
    pub fn instance(self, n: u32, seed: u64) -> Result<Instance, PramError> {
        self.check_size(n)?;
        let (program, output) = self.program(n);
        // Refused here, naming `n`, before the input and the reference are built (the
        // interpreter would refuse the program's PPUs only when it runs).
        if program.ppus() > super::program::MAX_PPUS {
            return Err(PramError::InvalidConfig {
                field: "n",
                rule: "the instance uses at most 2^24 PPUs",
                got: format!("{n} ({} PPUs)", program.ppus()),
            });
        }
        let input = self.input(n, seed);
        let expected = self.reference(n, &input);
        Ok(Instance { program, input, output, expected })
    }

    /// The input data of size `n`.
    fn input(self, n: u32, seed: u64) -> Vec<i64> {
        let len = n as usize;
        let mut rng = crate::rng::seeded(seed, 0);
        let mut values = |count: usize, below: i64| -> Vec<i64> {
            (0..count).map(|_| rng.random_range(0..below)).collect()
        };
        let permutation = |rng: &mut crate::rng::SimRng| {
            let mut perm: Vec<i64> = (0..i64::from(n)).collect();
            perm.shuffle(rng);
            perm
        };
        match self {
            Algorithm::PrefixSums => (1..=i64::from(n)).collect(),
            Algorithm::BitonicSort | Algorithm::TreeReduction => values(len, 1000),
            Algorithm::MatVec => values(len * len + len, 100),
            Algorithm::HotSpotRead
            | Algorithm::BroadcastDoubling
            | Algorithm::BroadcastConcurrent => values(1, 1_000_000),
            Algorithm::FetchAddCounter => values(len + 1, 100),
            Algorithm::PermutationRead | Algorithm::PermutationWrite => {
                let mut input = values(len, 1_000_000);
                input.extend(permutation(&mut rng));
                input
            }
            Algorithm::ListRanking => {
                let order = permutation(&mut rng);
                let mut next = vec![0; len];
                for pair in order.windows(2) {
                    next[pair[0] as usize] = pair[1];
                }
                next[order[len - 1] as usize] = order[len - 1];
                next
            }
            Algorithm::Ntt => {
                let mut input = values(len, NTT_PRIME);
                let root = ntt_root(len);
                input.extend((0..len / 2).map(|k| pow_mod(root, k as i64)));
                input
            }
        }
    }

    /// The result of the computation on `input`, in plain Rust (independent of the program).
    pub fn reference(self, n: u32, input: &[i64]) -> Vec<i64> {
        let len = n as usize;
        match self {
            Algorithm::PrefixSums => {
                let mut sum = 0i64;
                input
                    .iter()
                    .map(|x| {
                        sum += x;
                        sum
                    })
                    .collect()
            }
            Algorithm::BitonicSort => {
                let mut sorted = input.to_vec();
                sorted.sort_unstable();
                sorted
            }
            Algorithm::ListRanking => {
                // Follow the list from every node to the tail.
                (0..len)
                    .map(|mut node| {
                        let mut rank = 0;
                        while input[node] as usize != node {
                            node = input[node] as usize;
                            rank += 1;
                        }
                        rank
                    })
                    .collect()
            }
            Algorithm::MatVec => {
                let (matrix, x) = input.split_at(len * len);
                matrix
                    .chunks(len)
                    .map(|row| {
                        row.iter().zip(x).fold(0i64, |s, (a, b)| s.wrapping_add(a.wrapping_mul(*b)))
                    })
                    .collect()
            }
            Algorithm::PermutationRead => {
                let (data, perm) = input.split_at(len);
                perm.iter().map(|&p| data[p as usize]).collect()
            }
            Algorithm::PermutationWrite => {
                let (data, perm) = input.split_at(len);
                let mut out = vec![0; len];
                for (value, &p) in data.iter().zip(perm) {
                    out[p as usize] = *value;
                }
                out
            }
            Algorithm::HotSpotRead => (0..i64::from(n)).map(|i| input[0] + i).collect(),
            Algorithm::FetchAddCounter => {
                let mut counter = input[0];
                let mut out = vec![0; len + 1];
                for (i, v) in input[1..].iter().enumerate() {
                    out[i + 1] = counter;
                    counter += v;
                }
                out[0] = counter;
                out
            }
            Algorithm::BroadcastDoubling | Algorithm::BroadcastConcurrent => vec![input[0]; len],
            Algorithm::TreeReduction => vec![input.iter().sum()],
            Algorithm::Ntt if n <= NTT_DEFINITION_MAX => ntt_definition(&input[..len]),
            Algorithm::Ntt => ntt_sequential(&input[..len]),
        }
    }

    /// The program for size `n` and where it leaves its result.
    fn program(self, n: u32) -> (Program, std::ops::Range<usize>) {
        let len = n as usize;
        // The output region, at the end of the global cells used except for the tree.
        let cells = self.cells(n);
        let output = match self {
            Algorithm::TreeReduction => 0..1,
            Algorithm::PrefixSums
            | Algorithm::BitonicSort
            | Algorithm::BroadcastDoubling
            | Algorithm::BroadcastConcurrent
            | Algorithm::ListRanking
            | Algorithm::MatVec
            | Algorithm::PermutationRead
            | Algorithm::PermutationWrite
            | Algorithm::HotSpotRead
            | Algorithm::Ntt => cells as usize - len..cells as usize,
            Algorithm::FetchAddCounter => 0..cells as usize,
        };
        let mut b = ProgramBuilder::new(self.variant(), cells, n);
        let n = i64::from(n);
        match self {
            Algorithm::PrefixSums => prefix_sums_code(&mut b, n),
            Algorithm::BitonicSort => bitonic_code(&mut b, n),
            Algorithm::ListRanking => list_ranking_code(&mut b, n),
            Algorithm::MatVec => matvec_code(&mut b, n),
            Algorithm::PermutationRead => permutation_code(&mut b, n, Direction::Gather),
            Algorithm::PermutationWrite => permutation_code(&mut b, n, Direction::Scatter),
            Algorithm::HotSpotRead => hot_spot_code(&mut b, n),
            Algorithm::FetchAddCounter => fetch_add_code(&mut b, n),
            Algorithm::BroadcastDoubling => broadcast_doubling_code(&mut b, n),
            Algorithm::BroadcastConcurrent => broadcast_concurrent_code(&mut b, n),
            Algorithm::TreeReduction => tree_reduction_code(&mut b, n),
            Algorithm::Ntt => ntt_code(&mut b, n),
        }
        (b.build(), output)
    }
}

/// The largest `n` whose reference transform is the definition (`n^2` products, 0.02 s at
/// `2^12`); larger ones use [`ntt_sequential`], equal to the definition by test, whose
/// `n log n` work keeps the reference within the PRAM run's own work limit.
const NTT_DEFINITION_MAX: u32 = 1 << 12;

/// The NTT by its definition, `O(n^2)`: `X[k] = sum_j a[j] w^(jk)` with `w` a primitive
/// `n`-th root of unity modulo [`NTT_PRIME`].
fn ntt_definition(a: &[i64]) -> Vec<i64> {
    let root = ntt_root(a.len());
    (0..a.len())
        .map(|k| {
            let w = pow_mod(root, k as i64);
            a.iter().rev().fold(0, |acc, &x| (acc * w + x) % NTT_PRIME)
        })
        .collect()
}

/// The same transform, sequential radix-2 decimation in time (bit-reversal permutation, then
/// `log2 n` butterfly passes), `O(n log n)`.
fn ntt_sequential(a: &[i64]) -> Vec<i64> {
    let n = a.len();
    let bits = n.trailing_zeros();
    let mut x: Vec<i64> = (0..n)
        .map(|i| a[if bits == 0 { 0 } else { i.reverse_bits() >> (usize::BITS - bits) }])
        .collect();
    let mut len = 2;
    while len <= n {
        let w_len = ntt_root(len);
        for start in (0..n).step_by(len) {
            let mut w = 1;
            for j in 0..len / 2 {
                let (u, v) = (x[start + j], x[start + j + len / 2] * w % NTT_PRIME);
                x[start + j] = (u + v) % NTT_PRIME;
                x[start + j + len / 2] = (u - v + NTT_PRIME) % NTT_PRIME;
                w = w * w_len % NTT_PRIME;
            }
        }
        len *= 2;
    }
    x
}

/// A primitive `n`-th root of unity modulo [`NTT_PRIME`] (`n` a power of two `<= 2^23`).
fn ntt_root(n: usize) -> i64 {
    pow_mod(NTT_ROOT, (NTT_PRIME - 1) / n as i64)
}

/// `base^exp mod NTT_PRIME` (both non-negative below the prime).
fn pow_mod(base: i64, exp: i64) -> i64 {
    let (base, exp) = (base.unsigned_abs(), exp.unsigned_abs());
    crate::modular::pow_mod(base, exp, NTT_PRIME.unsigned_abs()) as i64
}

/// Prefix sums exactly as the paper's example: `g[i] += g[i - c0]` for c0 = 1, 2, 4, ...
fn prefix_sums_code(b: &mut ProgramBuilder, n: i64) {
    b.set(c(0), 1).set(c(1), n).active(n);
    b.label("loop").p_pid(r(0)).p_bcast(r(1), c(0)).p_op(Op::Le, r(2), r(1), r(0));
    b.p_op(Op::Sub, r(3), r(0), r(1)).p_set(r(5), 0);
    b.p_read(r(4), r(0), None).p_read(r(5), r(3), Some(r(2))).p_op(Op::Add, r(4), r(4), r(5));
    b.p_write(r(0), r(4), None);
    b.op(Op::Shl, c(0), c(0), 1).op(Op::Lt, c(2), c(0), c(1)).jnz(c(2), "loop").halt();
}

/// Bitonic sort: for k = 2, 4, ..., n and j = k/2, ..., 1, PPU i compare-exchanges with
/// i xor j, keeping the minimum iff (i and j == 0) == (i and k == 0).
fn bitonic_code(b: &mut ProgramBuilder, n: i64) {
    b.set(c(1), n).active(n).p_pid(r(0)).set(c(0), 2);
    b.label("merge").op(Op::Le, c(3), c(0), c(1)).jz(c(3), "done").op(Op::Shr, c(2), c(0), 1);
    b.label("step").p_bcast(r(1), c(2)).p_op(Op::Xor, r(3), r(0), r(1));
    b.p_read(r(4), r(0), None).p_read(r(5), r(3), None);
    b.p_op(Op::And, r(6), r(0), r(1)).p_op(Op::Eq, r(6), r(6), 0);
    b.p_bcast(r(7), c(0)).p_op(Op::And, r(7), r(0), r(7)).p_op(Op::Eq, r(7), r(7), 0);
    b.p_op(Op::Eq, r(8), r(6), r(7)).p_op(Op::Min, r(9), r(4), r(5));
    b.p_op(Op::Max, r(10), r(4), r(5)).p_sel(r(4), r(8), r(9), r(10)).p_write(r(0), r(4), None);
    b.op(Op::Shr, c(2), c(2), 1).jnz(c(2), "step");
    b.op(Op::Shl, c(0), c(0), 1).jmp("merge");
    b.label("done").halt();
}

/// Pointer jumping: rank[i] = (next[i] != i), then ceil(log2 n) rounds of
/// rank[i] += rank[next[i]], next[i] = next[next[i]] (next in g[0..n), rank in g[n..2n)).
fn list_ranking_code(b: &mut ProgramBuilder, n: i64) {
    b.set(c(0), 1).set(c(1), n).active(n).p_pid(r(0));
    b.p_read(r(1), r(0), None).p_op(Op::Ne, r(2), r(1), r(0)).p_write(r(0).at(n), r(2), None);
    b.label("round").p_read(r(3), r(1).at(n), None).p_read(r(4), r(1), None);
    b.p_op(Op::Add, r(2), r(2), r(3)).p_write(r(0).at(n), r(2), None);
    b.p_write(r(0), r(4), None).p_op(Op::Or, r(1), r(4), 0);
    b.op(Op::Shl, c(0), c(0), 1).op(Op::Lt, c(2), c(0), c(1)).jnz(c(2), "round").halt();
}

/// One PPU per row: y[i] = sum_j A[i][j] x[j], with j in a CPU loop (A row-major in g[0..n^2),
/// x after it, y after x).
fn matvec_code(b: &mut ProgramBuilder, n: i64) {
    b.set(c(0), 0).set(c(1), n).active(n).p_pid(r(0)).p_op(Op::Mul, r(1), r(0), n);
    b.p_set(r(2), 0).p_set(r(3), n * n);
    b.label("col").p_read(r(4), r(1), None).p_read(r(5), r(3), None);
    b.p_op(Op::Mul, r(4), r(4), r(5)).p_op(Op::Add, r(2), r(2), r(4));
    b.p_op(Op::Add, r(1), r(1), 1).p_op(Op::Add, r(3), r(3), 1);
    b.op(Op::Add, c(0), c(0), 1).op(Op::Lt, c(2), c(0), c(1)).jnz(c(2), "col");
    b.p_write(r(0).at(n * n + n), r(2), None).halt();
}

/// Which way a permutation moves the data.
#[derive(Clone, Copy)]
enum Direction {
    /// `out[i] = data[perm[i]]`.
    Gather,
    /// `out[perm[i]] = data[i]`.
    Scatter,
}

/// data in g[0..n), perm in g[n..2n), out in g[2n..3n).
fn permutation_code(b: &mut ProgramBuilder, n: i64, direction: Direction) {
    b.active(n).p_pid(r(0)).p_read(r(1), r(0).at(n), None);
    match direction {
        Direction::Gather => b.p_read(r(2), r(1), None).p_write(r(0).at(2 * n), r(2), None),
        Direction::Scatter => b.p_read(r(2), r(0), None).p_write(r(1).at(2 * n), r(2), None),
    };
    b.halt();
}

/// Every PPU reads g[0] and writes g[0] + pid to g[1 + pid].
fn hot_spot_code(b: &mut ProgramBuilder, n: i64) {
    b.active(n).p_pid(r(0)).p_set(r(1), 0).p_read(r(2), r(1), None);
    b.p_op(Op::Add, r(2), r(2), r(0)).p_write(r(0).at(1), r(2), None).halt();
}

/// PPU i fetch-adds v[i] = g[1 + i] to the counter g[0] and stores what it gets in g[1 + i].
fn fetch_add_code(b: &mut ProgramBuilder, n: i64) {
    b.active(n).p_pid(r(0)).p_read(r(1), r(0).at(1), None).p_set(r(2), 0);
    b.p_fop(FetchOp::Add, r(3), r(2), r(1), None).p_write(r(0).at(1), r(3), None).halt();
}

/// Round s = 1, 2, 4, ...: PPU i < min(s, n - s) copies g[i] to g[i + s].
fn broadcast_doubling_code(b: &mut ProgramBuilder, n: i64) {
    b.set(c(0), 1).set(c(1), n);
    b.label("round").op(Op::Sub, c(2), c(1), c(0)).op(Op::Min, c(2), c(2), c(0)).active(c(2));
    b.p_pid(r(0)).p_read(r(1), r(0), None).p_bcast(r(2), c(0)).p_op(Op::Add, r(3), r(0), r(2));
    b.p_write(r(3), r(1), None);
    b.op(Op::Shl, c(0), c(0), 1).op(Op::Lt, c(3), c(0), c(1)).jnz(c(3), "round").halt();
}

/// Every PPU reads g[0] and writes it to g[pid].
fn broadcast_concurrent_code(b: &mut ProgramBuilder, n: i64) {
    b.active(n).p_pid(r(0)).p_set(r(1), 0).p_read(r(2), r(1), None);
    b.p_write(r(0), r(2), None).halt();
}

/// Round s = 1, 2, 4, ...: PPU i < n / 2s adds g[2si + s] into g[2si].
fn tree_reduction_code(b: &mut ProgramBuilder, n: i64) {
    b.set(c(0), 1).set(c(1), n);
    b.label("round").op(Op::Shl, c(2), c(0), 1).op(Op::Div, c(3), c(1), c(2)).active(c(3));
    b.p_pid(r(0)).p_bcast(r(1), c(2)).p_op(Op::Mul, r(0), r(0), r(1)).p_read(r(2), r(0), None);
    b.p_bcast(r(1), c(0)).p_op(Op::Add, r(3), r(0), r(1)).p_read(r(4), r(3), None);
    b.p_op(Op::Add, r(2), r(2), r(4)).p_write(r(0), r(2), None);
    b.op(Op::Shl, c(0), c(0), 1).op(Op::Lt, c(4), c(0), c(1)).jnz(c(4), "round").halt();
}

/// Iterative Cooley-Tukey NTT: a in g[0..n), twiddles w^k (k < n/2) in g[n..3n/2), result in
/// B = g[3n/2..5n/2). First B[bitrev(i)] = a[i]; then for len = 2, 4, ..., n, PPU i < n/2 with
/// group q = i / half and j = i mod half combines u = B[q len + j] and v = B[q len + j + half]
/// times the twiddle w^(j n / len) into u + v and u - v (mod p).
fn ntt_code(b: &mut ProgramBuilder, n: i64) {
    let out = n + n / 2;
    b.set(c(1), n).active(n).p_pid(r(0)).p_set(r(1), 0).p_op(Op::Or, r(2), r(0), 0);
    // r1 = bitrev(r0): log2 n times, r1 = r1 << 1 | r2 & 1, r2 >>= 1.
    b.set(c(0), 1);
    b.label("bitrev").op(Op::Lt, c(3), c(0), c(1)).jz(c(3), "bitrev_done");
    b.p_op(Op::Shl, r(1), r(1), 1).p_op(Op::And, r(3), r(2), 1).p_op(Op::Or, r(1), r(1), r(3));
    b.p_op(Op::Shr, r(2), r(2), 1).op(Op::Shl, c(0), c(0), 1).jmp("bitrev");
    b.label("bitrev_done").p_read(r(2), r(0), None).p_write(r(1).at(out), r(2), None);
    b.op(Op::Shr, c(4), c(1), 1).active(c(4)).set(c(0), 2);
    b.label("level").op(Op::Le, c(3), c(0), c(1)).jz(c(3), "done");
    // c2 = half, c5 = n / len (twiddle stride).
    b.op(Op::Shr, c(2), c(0), 1).op(Op::Div, c(5), c(1), c(0));
    b.p_bcast(r(4), c(2)).p_op(Op::Div, r(5), r(0), r(4)).p_op(Op::Mod, r(6), r(0), r(4));
    b.p_bcast(r(7), c(0)).p_op(Op::Mul, r(5), r(5), r(7)).p_op(Op::Add, r(5), r(5), r(6));
    b.p_op(Op::Add, r(8), r(5), r(4));
    b.p_bcast(r(7), c(5)).p_op(Op::Mul, r(6), r(6), r(7));
    b.p_read(r(9), r(5).at(out), None).p_read(r(10), r(8).at(out), None);
    b.p_read(r(11), r(6).at(n), None);
    b.p_op(Op::Mul, r(10), r(10), r(11)).p_op(Op::Mod, r(10), r(10), NTT_PRIME);
    b.p_op(Op::Add, r(12), r(9), r(10)).p_op(Op::Mod, r(12), r(12), NTT_PRIME);
    b.p_op(Op::Sub, r(13), r(9), r(10)).p_op(Op::Add, r(13), r(13), NTT_PRIME);
    b.p_op(Op::Mod, r(13), r(13), NTT_PRIME);
    b.p_write(r(5).at(out), r(12), None).p_write(r(8).at(out), r(13), None);
    b.op(Op::Shl, c(0), c(0), 1).jmp("level");
    b.label("done").halt();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sequential transform equals the definition for every size up to the definition's
    /// largest, on random residues (so the reference above it checks the same function).
    #[test]
    fn sequential_ntt_equals_the_definition() {
        for k in 0..=10 {
            let n = 1usize << k;
            let a: Vec<i64> = (0..n as i64).map(|i| (i * 7919 + 13).pow(2) % NTT_PRIME).collect();
            assert_eq!(ntt_sequential(&a), ntt_definition(&a), "n = {n}");
        }
    }
}
