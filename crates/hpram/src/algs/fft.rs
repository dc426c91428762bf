//! The number-theoretic FFT (`docs/models/hpram.md`, Choices: Algorithms are ours; FFT
//! conventions): `X_k = Σ_j x_j ω_N^{jk}` in `Z_p`, `p = 998244353`, `ω_N = 3^{(p−1)/N}`,
//! decimation in frequency, so the output is bit-reversed (cell `i` holds `X_{bitrev(i)}`).
//! A span-`m` butterfly on `(j, j+m/2)` maps `(a, b)` to `(a+b, (a−b)·ω_m^{j mod m/2})` and is one
//! computation step; twiddles come from an uncharged read-only table shared by every processor.
//!
//! - In-memory butterfly `m m c m m` (read both words, compute, write both); a span-`m` stage
//!   is `r/2` of them per processor: `T = r/2`, `T' = r/2`, `C = 2r`.
//! - `LCS(ρ)` (load, compute, store) on a processor's block of `r` words: `m^r c^{ρr/2} m^r`
//!   (the `ρ` stages of span `r` down to 2 in one phase): `T = ρr/2`, `T' = 1`, `C = 2r`.
//!
//! Forms, with `N = 2^n`, `P = 2^p`, `r = N/P = 2^ρ >= 2`: `FlatNaive` (all `n` stages in
//! memory at level 1), `FlatLpram` (the `p` cross-block stages, then `LCS(ρ)` at level 1),
//! `TwoLevel` (the `p` cross-block stages, then `[P × 1: LCS(ρ)]`), `Hier`
//! (`FftH(P')`: the span-`N'` stage, then `[2 × P'/2: FftH]`; `FftH(1) = LCS(ρ)`) and `Perm`
//! (`r >= P`: remap so that every group `{b + a·r : a < P}` is contiguous, `[P × 1: LCS(p)]`
//! on the groups, remap back, `[P × 1: LCS(ρ)]`).

use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use crate::algs::remap_partition;
use crate::error::HpramError;
use crate::proc::MemOp;
use crate::sub_pram::{Counted, FnAlg, HAlgorithm, Part, SubPram};
use crate::word::Word;

/// The prime modulus `p = 119·2^23 + 1`.
pub const MODULUS: u64 = 998_244_353;
/// A generator of `Z_p^*`.
const GENERATOR: u64 = 3;

/// The forms of the FFT.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FftForm {
    /// All `n` stages as in-memory butterflies at level 1 (a PRAM program).
    FlatNaive,
    /// The `p` cross-block stages in memory, then `LCS(ρ)` at level 1 (the LPRAM algorithm:
    /// local work in private memory).
    FlatLpram,
    /// The `p` cross-block stages, then `[P × 1: LCS(ρ)]` (strict locality).
    TwoLevel,
    /// `FftH(P')`: the span-`N'` stage, then `[2 × P'/2: FftH]` (neighbourhood locality).
    Hier,
    /// `fft_perm` (needs `r >= P`): remap so that every group `{b + a·r : a < P}` is
    /// contiguous, `[P × 1: LCS(p)]` (the `p` cross-block stages, on `r/P` groups per
    /// processor), remap back, `[P × 1: LCS(ρ)]` (remapping plus strict locality).
    Perm,
}
netcore::display_config_name!(FftForm);

/// `b^e mod p`.
fn pow_mod(b: u64, e: u64) -> u64 {
    netcore::modular::pow_mod(b, e, MODULUS)
}

/// The twiddle table `ω_N^k`, `k < N/2`, built on first use (so count-only runs, whose closures
/// never run, never build it).
#[derive(Debug)]
struct Twiddles {
    n: usize,
    table: OnceLock<Vec<u64>>,
}

impl Twiddles {
    /// `ω_m^t` for `m | N`: `ω_N^{t·N/m}`.
    fn omega(&self, m: usize, t: usize) -> u64 {
        let table = self.table.get_or_init(|| {
            let w = pow_mod(GENERATOR, (MODULUS - 1) / self.n as u64);
            std::iter::successors(Some(1u64), |x| Some(x * w % MODULUS)).take(self.n / 2).collect()
        });
        table[t * (self.n / m)]
    }

    /// The butterfly of span `m` at offset `o = j mod m/2`.
    fn butterfly(&self, m: usize, o: usize, a: &mut Word, b: &mut Word) {
        let (x, y) = (*a as u64, *b as u64);
        *a = ((x + y) % MODULUS) as Word;
        *b = ((x + MODULUS - y) % MODULUS * self.omega(m, o) % MODULUS) as Word;
    }
}

/// The FFT of `N = 2^log_n` words in form `form`. It needs `M = N`, `P` a power of two with
/// `r = N/P >= 2`, and `local_words >= r` on an `lpram` sub-model (2 registers for `FlatNaive`,
/// which runs on any sub-model); its input words must lie in
/// `[0, p)`.
pub fn fft(form: FftForm, log_n: u32) -> Arc<dyn HAlgorithm> {
    let n = 1usize.checked_shl(log_n).unwrap_or(0);
    let tw = Arc::new(Twiddles { n, table: OnceLock::new() });
    match form {
        FftForm::FlatNaive => FnAlg::arc("FftFlatNaive", move |sp: &mut SubPram<'_>| {
            check(sp, n)?;
            cross_stages(sp, &tw, 1)
        }),
        FftForm::FlatLpram => FnAlg::arc("FftFlatLpram", move |sp: &mut SubPram<'_>| {
            let r = check(sp, n)?;
            cross_stages(sp, &tw, r)?;
            lcs(sp, &tw)
        }),
        FftForm::TwoLevel => FnAlg::arc("FftTwoLevel", move |sp: &mut SubPram<'_>| {
            let r = check(sp, n)?;
            cross_stages(sp, &tw, r)?;
            sp.partition_eq(sp.procs(), 1, lcs_alg(&tw), vec![])
        }),
        FftForm::Hier => FnAlg::arc("FftH", move |sp: &mut SubPram<'_>| {
            check(sp, n)?;
            FftH(tw.clone()).run(sp)
        }),
        FftForm::Perm => FnAlg::arc("FftPerm", move |sp: &mut SubPram<'_>| {
            let r = check(sp, n)?;
            fft_perm(sp, &tw, r)
        }),
    }
}

/// The largest `N` with an `N`-th root of unity in `Z_p` (`p − 1 = 119·2^23`).
pub const MAX_N: usize = 1 << 23;

/// Checks `M = N` (and, when executing, `N <= 2^23`: count-only runs never compute a
/// twiddle), `P` a power of two and `r = N/P >= 2`; returns `r`.
fn check(sp: &SubPram<'_>, n: usize) -> Result<usize, HpramError> {
    let bad =
        |field, rule, got: usize| HpramError::InvalidConfig { field, rule, got: got.to_string() };
    if sp.mem_len() != n || n == 0 {
        return Err(bad("mem_words", "mem_words == N = 2^log_n of the FFT", sp.mem_len()));
    }
    if n > MAX_N && !sp.counting() {
        return Err(bad("n", "N <= 2^23 (the roots of unity of Z_998244353)", n));
    }
    let p = sp.procs();
    if !p.is_power_of_two() || n / p < 2 {
        return Err(bad("procs", "a power of two with N/procs >= 2 for the FFT", p));
    }
    Ok(n / p)
}

/// The in-memory stages of every span `m` with `stop < m <= N'`, largest first (`stop = 1`:
/// all of them; `stop = r`: the cross-block ones).
fn cross_stages(sp: &mut SubPram<'_>, tw: &Twiddles, stop: usize) -> Result<(), HpramError> {
    let mut m = sp.mem_len();
    while m > stop {
        stage(sp, tw, m)?;
        m /= 2;
    }
    Ok(())
}

/// One span-`m` stage: `r/2` in-memory butterflies `m m c m m` per processor; processor `i`'s
/// `t`-th is butterfly `b = i·r/2 + t`, on `j = ⌊b/(m/2)⌋·m + b mod m/2` and `j + m/2`.
/// A count-only run counts the stage's `r/2` butterflies in one call, so its time does not grow
/// with `r`.
fn stage(sp: &mut SubPram<'_>, tw: &Twiddles, m: usize) -> Result<(), HpramError> {
    let (r, base, half) = (sp.mem_len() / sp.procs(), sp.home(0), m / 2);
    if sp.counting() {
        let butterfly =
            [Counted::Comm, Counted::Comm, Counted::Compute(1), Counted::Comm, Counted::Comm];
        return sp.count_repeated((r / 2) as u64, &butterfly);
    }
    for t in 0..r / 2 {
        let j = move |pid: usize| {
            let b = pid * (r / 2) + t;
            (b / half) * m + b % half
        };
        sp.comm(|p| MemOp::Read { addr: base + j(p.pid), dst: 0 })?;
        sp.comm(|p| MemOp::Read { addr: base + j(p.pid) + half, dst: 1 })?;
        sp.compute(1, |p| {
            let (a, b) = p.local.split_at_mut(1);
            tw.butterfly(m, j(p.pid) % half, &mut a[0], &mut b[0]);
        })?;
        sp.comm(|p| MemOp::Write { addr: base + j(p.pid), src: 0 })?;
        sp.comm(|p| MemOp::Write { addr: base + j(p.pid) + half, src: 1 })?;
    }
    Ok(())
}

/// `LCS(ρ)` on every processor's block of `r` words: the stages of span `r` down to 2 in one
/// phase of `ρr/2` computation steps (see [`load_compute_store`]). The block starts at a
/// multiple of `r`, so the global `j mod m/2` is the register's `k mod m/2`.
fn lcs(sp: &mut SubPram<'_>, tw: &Twiddles) -> Result<(), HpramError> {
    let r = sp.mem_len() / sp.procs();
    load_compute_store(sp, r.trailing_zeros() as usize, |local| {
        let mut m = r;
        while m >= 2 {
            let half = m / 2;
            for k in (0..r).filter(|k| k % m < half) {
                let (lo, hi) = local.split_at_mut(k + half);
                tw.butterfly(m, k % half, &mut lo[k], &mut hi[0]);
            }
            m = half;
        }
    })
}

/// `LCS(s)`: every processor loads its block of `r` words into private words `0..r` (LPRAM
/// local memory when `r > REGISTERS`), runs `work` on them in one phase of `s·r/2`
/// computation steps (`s` stages of `r/2` butterflies), and stores them:
/// `m^r c^{sr/2} m^r`, `T = sr/2`, `T' = 1`, `C = 2r`.
fn load_compute_store(
    sp: &mut SubPram<'_>,
    stages: usize,
    work: impl Fn(&mut [Word]) + Sync,
) -> Result<(), HpramError> {
    let (r, base) = (sp.mem_len() / sp.procs(), sp.home(0));
    let steps = stages.checked_mul(r / 2).and_then(|k| u32::try_from(k).ok()).ok_or_else(|| {
        HpramError::InvalidConfig {
            field: "n",
            rule: "the s·r/2 computation steps of LCS(s) fit in u32",
            got: sp.mem_len().to_string(),
        }
    })?;
    if sp.counting() {
        // The loads and the stores in one call each: the time does not grow with `r`.
        sp.count_repeated(r as u64, &[Counted::Comm])?;
        sp.compute(steps, |_| {})?;
        return sp.count_repeated(r as u64, &[Counted::Comm]);
    }
    for k in 0..r {
        sp.comm(|p| MemOp::Read { addr: base + p.pid * r + k, dst: k })?;
    }
    sp.compute(steps, |p| work(&mut p.local[..r]))?;
    for k in 0..r {
        sp.comm(|p| MemOp::Write { addr: base + p.pid * r + k, src: k })?;
    }
    Ok(())
}

/// `LCS(ρ)` as the algorithm of a sub-PRAM.
fn lcs_alg(tw: &Arc<Twiddles>) -> Arc<dyn HAlgorithm> {
    let tw = tw.clone();
    FnAlg::arc("LCS", move |sp: &mut SubPram<'_>| lcs(sp, &tw))
}

/// `fft_perm` on `P` processors with `r >= P` words each. Word `j = a·r + b` (`a < P`, `b < r`)
/// moves to `π(j) = b·P + a`, so the group `{b + a·r : a < P}`, on which the `p` cross-block
/// stages (spans `N` down to `2r`) act, is contiguous, and processor `i`'s block holds the
/// groups `b = i·r/P .. (i+1)·r/P − 1`; `[P × 1: LCS(p)]` runs those stages on them, `π⁻¹`
/// brings the words back, and `[P × 1: LCS(ρ)]` runs the in-block stages as in `TwoLevel`.
/// The `LCS(p)` children get the global id of the FFT's processor 0 as their one parameter,
/// from which each finds its groups (their twiddles depend on `b`). Level 1 is `C = 4r`
/// (the two remaps), `LCS(p)` is `T = pr/2`, `T' = 1`, `C = 2r`.
fn fft_perm(sp: &mut SubPram<'_>, tw: &Arc<Twiddles>, r: usize) -> Result<(), HpramError> {
    let procs = sp.procs();
    if r < procs {
        return Err(HpramError::InvalidConfig {
            field: "procs",
            rule: "procs^2 <= N for the fft perm form (r = N/procs >= procs)",
            got: procs.to_string(),
        });
    }
    let first = Word::try_from(sp.offset()).map_err(|_| HpramError::InvalidConfig {
        field: "procs",
        rule: "a global processor id that fits a word",
        got: sp.offset().to_string(),
    })?;
    let groups = {
        let tw = tw.clone();
        FnAlg::arc("LcsGroups", move |sp: &mut SubPram<'_>| lcs_groups(sp, &tw))
    };
    let parts = (0..procs).map(|_| Part::new(1, groups.clone(), vec![first])).collect();
    remap_partition(sp, &|j| (j % r) * procs + j / r, parts)?;
    sp.partition_eq(procs, 1, lcs_alg(tw), vec![])
}

/// `LCS(p)` of `fft_perm` on one processor (child `i = gpid − params[0]`) holding the `r/P`
/// remapped groups `b = i·r/P + g`, group `g` in words `g·P .. (g+1)·P` in the order of `a`:
/// the `p` stages of span `P` down to 2 on each group in one phase of `p·r/2` computation
/// steps. A local span-`m'` butterfly on `a` is the global span-`m'r` butterfly on
/// `j = a·r + b`, whose twiddle offset is `j mod m'r/2 = (a mod m'/2)·r + b`.
fn lcs_groups(sp: &mut SubPram<'_>, tw: &Twiddles) -> Result<(), HpramError> {
    let r = sp.mem_len();
    let procs = tw.n / r;
    // The child's index: its processor's global id less the FFT's first, its parameter.
    let child = sp
        .params()
        .first()
        .and_then(|&w| usize::try_from(w).ok())
        .and_then(|first| sp.offset().checked_sub(first))
        .ok_or_else(|| HpramError::InvalidConfig {
            field: "params",
            rule: "LCS(p) of the fft perm form gets the FFT's first global processor id",
            got: format!("{:?}", sp.params()),
        })?;
    load_compute_store(sp, procs.trailing_zeros() as usize, |local| {
        for (g, group) in local.chunks_mut(procs).enumerate() {
            let b = child * (r / procs) + g;
            let mut m = procs;
            while m >= 2 {
                let half = m / 2;
                for a in (0..procs).filter(|a| a % m < half) {
                    let (lo, hi) = group.split_at_mut(a + half);
                    tw.butterfly(m * r, (a % half) * r + b, &mut lo[a], &mut hi[0]);
                }
                m = half;
            }
        }
    })
}

/// `FftH(P')`: the span-`N'` stage, then `[2 × P'/2: FftH]`; `FftH(1) = LCS(ρ)`.
struct FftH(Arc<Twiddles>);

impl HAlgorithm for FftH {
    fn name(&self) -> String {
        "FftH".to_string()
    }

    fn run(&self, sp: &mut SubPram<'_>) -> Result<(), HpramError> {
        if sp.procs() == 1 {
            return lcs(sp, &self.0);
        }
        stage(sp, &self.0, sp.mem_len())?;
        sp.partition_eq(2, sp.procs() / 2, Arc::new(FftH(self.0.clone())), vec![])
    }
}

/// The plain Rust reference: an iterative radix-2 decimation-in-time NTT (bit-reversed input,
/// natural-order output), `X_k = Σ_j x_j ω_N^{jk} mod p`. `x.len()` must be a power of two up
/// to [`MAX_N`], and every `x_j` in `[0, p)`.
pub fn ntt_reference(x: &[Word]) -> Vec<Word> {
    let n = x.len();
    let bits = n.trailing_zeros();
    let mut a: Vec<u64> = (0..n).map(|i| x[bit_reverse(i, bits)] as u64).collect();
    let mut len = 2;
    while len <= n {
        let w = pow_mod(GENERATOR, (MODULUS - 1) / len as u64);
        for start in (0..n).step_by(len) {
            let mut wk = 1;
            for j in start..start + len / 2 {
                let (u, v) = (a[j], a[j + len / 2] * wk % MODULUS);
                a[j] = (u + v) % MODULUS;
                a[j + len / 2] = (u + MODULUS - v) % MODULUS;
                wk = wk * w % MODULUS;
            }
        }
        len *= 2;
    }
    a.into_iter().map(|v| v as Word).collect()
}

/// The transform in natural order out of an FFT run's final memory (cell `i` holds
/// `X_{bitrev(i)}`).
pub fn fft_output(memory: &[Word]) -> Vec<Word> {
    let bits = memory.len().trailing_zeros();
    (0..memory.len()).map(|k| memory[bit_reverse(k, bits)]).collect()
}

/// `i` with its low `bits` bits reversed.
fn bit_reverse(i: usize, bits: u32) -> usize {
    if bits == 0 { 0 } else { i.reverse_bits() >> (usize::BITS - bits) }
}
