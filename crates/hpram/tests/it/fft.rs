//! The number-theoretic FFT (`docs/models/hpram.md`, Choices: Algorithms are ours; FFT
//! conventions): I9 for the FFT (every form, both memory variants, against the plain Rust NTT,
//! itself checked against the direct DFT), I10 (count-only equals full) and the exact costs at
//! `N = 16`, `P = 4`.

use hpram::algs::{FftForm, MODULUS, fft, fft_output, ntt_reference};
use hpram::{Config, CostTree, Formula, HpramError, MemoryVariant, Preset, SyncScale, count, run};
use proptest::prelude::*;

const FORMS: [FftForm; 5] =
    [FftForm::FlatNaive, FftForm::FlatLpram, FftForm::TwoLevel, FftForm::Hier, FftForm::Perm];
const VARIANTS: [MemoryVariant; 2] = [MemoryVariant::NonUniform, MemoryVariant::Uniform];

/// `P` processors, `N` words, `r` registers, in `variant`.
fn config(procs: usize, n: usize, variant: MemoryVariant) -> Config {
    let mut cfg = Config::new(procs, n);
    (cfg.memory, cfg.local_words) = (variant, n / procs);
    cfg.model = cfg.model.with_lpram();
    cfg
}

/// The direct DFT `X_k = Σ_j x_j ω^{jk}`, `ω = 3^{(p−1)/N}`, by repeated multiplication.
fn dft(x: &[i64]) -> Vec<i64> {
    let p = MODULUS as u128;
    let pow = |mut b: u128, mut e: u128| {
        let mut acc = 1u128;
        while e > 0 {
            if e & 1 == 1 {
                acc = acc * b % p;
            }
            (b, e) = (b * b % p, e >> 1);
        }
        acc
    };
    let w = pow(3, (p - 1) / x.len() as u128);
    (0..x.len())
        .map(|k| {
            let wk = pow(w, k as u128);
            let (mut sum, mut power) = (0u128, 1u128);
            for &v in x {
                sum = (sum + v as u128 * power) % p;
                power = power * wk % p;
            }
            sum as i64
        })
        .collect()
}

/// Up to 256 words in `[0, p)`.
fn words() -> impl Strategy<Value = Vec<i64>> {
    proptest::collection::vec(0..MODULUS as i64, 256)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The reference NTT is the direct DFT.
    #[test]
    fn reference_is_the_dft(x in words(), log_n in 0u32..=6) {
        let x = &x[..1 << log_n];
        prop_assert_eq!(ntt_reference(x), dft(x));
    }

    /// I9: every form in both memory variants leaves `X_{bitrev(i)}` in cell `i`, so all of
    /// them leave the same memory. I10: count-only gives the same cost tree. The perm form
    /// needs `r >= P`; below it, both modes refuse it naming `procs`.
    #[test]
    fn i9_i10_every_form(x in words(), log_p in 0u32..=4, log_r in 1u32..=4) {
        let (procs, n) = (1usize << log_p, 1usize << (log_p + log_r));
        let x = &x[..n];
        let want = ntt_reference(x);
        for variant in VARIANTS {
            for form in FORMS {
                let cfg = config(procs, n, variant);
                let alg = fft(form, log_p + log_r);
                if form == FftForm::Perm && log_r < log_p {
                    let procs_error = |e| matches!(e, HpramError::InvalidConfig { field: "procs", .. });
                    prop_assert!(procs_error(run(&cfg, alg.clone(), vec![], x).unwrap_err()));
                    prop_assert!(procs_error(count(&cfg, alg, vec![]).unwrap_err()));
                    continue;
                }
                let done = run(&cfg, alg.clone(), vec![], x).unwrap();
                prop_assert_eq!(&fft_output(&done.memory), &want, "{:?} {:?}", form, variant);
                prop_assert_eq!(count(&cfg, alg, vec![]).unwrap(), done.cost);
            }
        }
    }
}

fn tree(form: FftForm, variant: MemoryVariant) -> CostTree {
    let x: Vec<i64> = (0..16).collect();
    run(&config(4, 16, variant), fft(form, 4), vec![], &x).unwrap().cost
}

/// `N = 16`, `P = 4`, `r = 4`, `ρ = p = 2`, Hypercube (`ℓ(4) = s_α(4) = 2`, `ℓ(2) = s_α(2) =
/// 1`, `ℓ(1) = 1`, `s_α(1) = 0`, `s_β(Q,·) = ⌈log₂Q⌉`). A stage is `T = T' = r/2 = 2`, `C = 2r =
/// 8`; `LCS(2)` is `T = 4`, `T' = 1`, `C = 8`.
/// - naive: 4 stages, `T = 8`, `C = 32`: Exact `8·3 + 32·4 = 152`; Pram 40.
/// - lpram: 2 stages and `LCS`, `T = 8`, `T' = 5`, `C = 24`: Exact `24 + 96 = 120`,
///   PhaseRefined `8 + 5·2 + 96 = 114`; Pram 32.
/// - two-level: root `T = 4`, `C = 16`: `12 + 64 = 76`; the leaf `4 + 8 = 12`; `s_β(4,4) = 2`:
///   90. Uniform (`ℓ = ℓ(4) = 2` everywhere): the leaf `4 + 16 = 20`, so 98. Pram 32.
/// - hier: `FftH(4)` stage `2·3 + 8·4 = 38`; `FftH(2)` stage `2·2 + 8·2 = 20`; leaves 12;
///   `20 + 12 + s_β(2,2) = 33`, `38 + 33 + s_β(2,4) = 72`, which is the per-level sum
///   `Σ (r/2 + 2rℓ + 2.5r·s_α + s_β)` = `(2+16+20+1) + (2+8+10+1) + 12` for PhaseRefined too.
///   Uniform: `FftH(2)` stage `2·2 + 8·3 = 28`, leaves `4 + 8·2 = 20`: `38 + (28 + 20 + 1) + 1
///   = 88`. Pram 32.
/// - perm: derived in `tests/it/specs.rs` (`fft_perm_n16_p4`): 92, 92, uniform 108, Pram 40.
#[test]
fn exact_costs_n16_p4() {
    let cube = Preset::Hypercube(SyncScale::Diam);
    let (nu, uni) = (MemoryVariant::NonUniform, MemoryVariant::Uniform);
    let price = |form, variant, preset: &Preset, f| {
        tree(form, variant).eval(preset, variant, f).expect("prices").total
    };
    let cases = [
        (FftForm::FlatNaive, [152, 152, 152, 40]),
        (FftForm::FlatLpram, [120, 114, 120, 32]),
        (FftForm::TwoLevel, [90, 90, 98, 32]),
        (FftForm::Hier, [72, 72, 88, 32]),
        (FftForm::Perm, [92, 92, 108, 40]),
    ];
    for (form, [exact, refined, uniform, pram]) in cases {
        assert_eq!(price(form, nu, &cube, Formula::Exact), exact, "{form:?}");
        assert_eq!(price(form, nu, &cube, Formula::PhaseRefined), refined, "{form:?}");
        assert_eq!(price(form, uni, &cube, Formula::Exact), uniform, "{form:?}");
        assert_eq!(price(form, nu, &Preset::Pram, Formula::Exact), pram, "{form:?}");
    }
    let hier = tree(FftForm::Hier, nu);
    assert_eq!((hier.root.t, hier.root.t_phases, hier.root.c), (2, 2, 8));
    insta::assert_snapshot!(hier.render());
}

/// Count-only hierarchical FFT at `P = 2^30`, `r = 2` (`N = 2^31`, beyond `Z_p`'s roots of
/// unity, which count-only mode never computes): PhaseRefined per level `r/2 + 2rℓ + 2.5r·s_α +
/// s_β = 1 + 4k + 5k + 1 = 2 + 9k` on the hypercube at `P' = 2^k`, and the leaf `LCS(1)`
/// (`T = 1`, `C = 4`) 5: `Σ_{k=1}^{30} (2 + 9k) + 5 = 60 + 4185 + 5 = 4250`.
/// Executing at that `N` is an error naming the rule.
#[test]
fn count_only_p_2_30() {
    let cfg = Config::new(1 << 30, 1 << 31);
    let tree = count(&cfg, fft(FftForm::Hier, 31), vec![]).unwrap();
    let cube = Preset::Hypercube(SyncScale::Diam);
    assert_eq!(
        tree.eval(&cube, MemoryVariant::NonUniform, Formula::PhaseRefined).expect("prices").total,
        4250
    );
    assert_eq!(tree.sub_prams(), (1 << 31) - 1);
    let small = Config::new(2, 1 << 24);
    assert!(matches!(
        run(&small, fft(FftForm::FlatNaive, 24), vec![], &[]),
        Err(HpramError::InvalidConfig { field: "n", .. })
    ));
    assert!(matches!(
        run(&Config::new(4, 8), fft(FftForm::Hier, 4), vec![], &[]),
        Err(HpramError::InvalidConfig { field: "mem_words", .. })
    ));
    assert!(matches!(
        run(&Config::new(16, 16), fft(FftForm::Hier, 4), vec![], &[]),
        Err(HpramError::InvalidConfig { field: "procs", .. })
    ));
}
