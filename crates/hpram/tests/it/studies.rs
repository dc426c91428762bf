//! The studies' figures at small sizes (`docs/models/hpram.md`, Studies): X2's usable processors
//! against the hand derivation and the published table, an X3 point against its derivation.

use hpram::algs::TreeForm;
use hpram::driver::studies::fft_locality::{FftLocality, FftLocalityParams};
use hpram::driver::studies::tree_r::TreePreset;
use hpram::driver::studies::usable::{Usable, tree_cost, usable_procs};
use netcore::rng::seeded;
use netcore::study::Study;

/// `P*(N, 1/2)` of the three forms at `N = 2^log_n`.
fn p_star(preset: TreePreset, log_n: u32) -> [u64; 3] {
    let pr = preset.preset();
    let seq = tree_cost(TreeForm::Flat, &pr, 0, log_n).unwrap();
    [TreeForm::Flat, TreeForm::TwoLevel, TreeForm::Hier]
        .map(|form| usable_procs(form, &pr, log_n, seq).unwrap().procs)
}

/// `τ_seq` is the leaf alone: `T = N − 1`, `C = N + 1`, `ℓ(1) = 1`, `s_α(1) = 0`, so `2N`.
#[test]
fn x2_tau_seq_is_2n() {
    for preset in [TreePreset::Hypercube, TreePreset::Mesh2d] {
        for log_n in [0, 3, 10] {
            assert_eq!(tree_cost(TreeForm::Flat, &preset.preset(), 0, log_n).unwrap(), 2 << log_n);
        }
    }
}

/// Hypercube, `N = 2^10`: hier at `P = 2^p` costs `2r + Σ_{k=1}^{p} (1 + 2k + 3k + 1)` (study
/// X1), so `P = 16` (`r = 64`) costs `128 + 8 + 50 = 186` and `E = 2048/(16·186) = 0.688`,
/// while `P = 32` (`r = 32`) costs `64 + 10 + 75 = 149`, `E = 2048/(32·149) = 0.43 < 1/2`:
/// `P* = 16`. Flat at `P = 2` costs `4r + 6` (the leaf with `T' = T = r − 1`, `ℓ = s_α = 1`:
/// `(r−1)·2 + (r+1)·2`, then one round `1 + 1 + 2·2`), `E = 2N/(2(2N + 6)) < 1/2`: `P* = 1`.
#[test]
fn x2_hand_derivation_n1024() {
    let cube = TreePreset::Hypercube.preset();
    assert_eq!(tree_cost(TreeForm::Hier, &cube, 4, 10).unwrap(), 186);
    assert_eq!(tree_cost(TreeForm::Hier, &cube, 5, 10).unwrap(), 149);
    assert_eq!(tree_cost(TreeForm::Flat, &cube, 1, 10).unwrap(), 4 * 512 + 6);
    let hier = usable_procs(TreeForm::Hier, &cube, 10, 2048).unwrap();
    assert_eq!(hier, Usable { procs: 16, tau: 186 });
    assert!((hier.efficiency(2048) - 2048.0 / (16.0 * 186.0)).abs() < 1e-12);
}

/// The table of `P*(N, 1/2)` (flat / two-level / hier) up to `N = 2^18`: flat stays at 1, hier
/// reaches 1024 on the hypercube and 512 on the mesh (the full sweep goes to `2^26`).
#[test]
fn x2_table() {
    let table: Vec<_> = [TreePreset::Hypercube, TreePreset::Mesh2d]
        .into_iter()
        .flat_map(|preset| [10, 14, 18].map(|log_n| (preset, log_n, p_star(preset, log_n))))
        .collect();
    assert_eq!(
        table,
        [
            (TreePreset::Hypercube, 10, [1, 16, 16]),
            (TreePreset::Hypercube, 14, [1, 64, 128]),
            (TreePreset::Hypercube, 18, [1, 512, 1024]),
            (TreePreset::Mesh2d, 10, [1, 16, 16]),
            (TreePreset::Mesh2d, 14, [1, 64, 128]),
            (TreePreset::Mesh2d, 18, [1, 256, 512]),
        ]
    );
}

/// A `τ_seq` below every cost (here 0) leaves no usable `P`: a typed error, not a panic.
#[test]
fn x2_no_usable_procs_is_an_error() {
    let err = usable_procs(TreeForm::Hier, &TreePreset::Hypercube.preset(), 4, 0).unwrap_err();
    assert!(err.to_string().contains("tau_seq"), "{err}");
}

/// One X3 point, hypercube, `P = 16`, `r = 64` (`N = 1024`, executed too). Hier: a level of
/// `P' = 2^k` costs `r/2 + 2rk + 2.5rk + s_β(2,P') = 33 + 288k`, so `Σ_{k=1}^{4} = 132 + 2880 =
/// 3012`, plus `LCS(6)` on one processor, `T = ρr/2 = 192`, `C = 2r = 128` at `ℓ = 1`,
/// `s_α = 0`: 320, in all 3332. Lpram: four stages at level 1 (`ℓ = s_α = 4`), each
/// `32 + 32·4 + 128·8 = 1184`, then `LCS` at level 1, `192 + 1·4 + 128·8 = 1220`: 5956.
#[test]
fn x3_hand_derivation_p16_r64() {
    let study = FftLocality;
    let params = FftLocalityParams { preset: TreePreset::Hypercube, log_p: 4, log_r: 6 };
    let point = study.point(&params).unwrap();
    let rows = study.run(&point, &mut seeded(0, 0)).unwrap();
    let row = &rows[0];
    assert_eq!((row.tau_hier, row.tau_lcs, row.tau_lpram), (3332, 320, 5956));
    assert_eq!((row.executed, row.checked), (true, Some(true)));
    assert!((row.lpram_over_hier - 5956.0 / 3332.0).abs() < 1e-12);
    // Perm (`N = 1024 >= P² = 256`, so `N_perm = N`, `r' = 64`): two remaps at level 1,
    // `4r'(ℓ + s_α) = 256·8 = 2048`; `LcsGroups` `T = pr/2 = 128`, `C = 128` at `ℓ(1) = 1`:
    // 256, `LCS(6)` 320, each partition `+ s_β(16,16) = 4`: `2048 + 260 + 324 = 2632`, which
    // is `3332 + 64(2 + 23 − 36) + 4 = 3332 − 700`.
    assert_eq!((row.n_perm, row.tau_perm, row.tau_hier_perm), (1024, 2632, 3332));
    assert_eq!(row.perm_excess_over_formula, Some(0.0));
}

/// Out-of-range axes are the user's input, named by field.
#[test]
fn x3_bad_params() {
    let bad = |log_p, log_r| {
        FftLocality
            .point(&FftLocalityParams { preset: TreePreset::Mesh2d, log_p, log_r })
            .unwrap_err()
            .to_string()
    };
    assert!(bad(0, 6).contains("log_p"));
    assert!(bad(17, 6).contains("log_p"));
    assert!(bad(4, 11).contains("log_r"));
}

/// `hpram-model`'s axes out of range are the user's input, named by field.
#[test]
fn model_bad_params() {
    use hpram::driver::studies::model::{ModelParams, ModelResults};
    let bad = |log_p, depth, programs| {
        ModelResults.point(&ModelParams { log_p, depth, programs }).unwrap_err().to_string()
    };
    assert!(bad(9, 1, 10).contains("log_p"));
    assert!(bad(4, 5, 10).contains("depth"));
    assert!(bad(4, 1, 0).contains("programs"));
    assert!(bad(4, 1, 10_001).contains("programs"));
}

/// Every column of every study is in its glossary (the report's glossary and the plots' axis
/// labels come from it), and every entry is a column: one small point per study runs; no row
/// column repeats a parameter (xtask rejects such rows).
#[test]
fn glossary_covers_every_column() {
    use netcore::study::Model;
    let small = [
        ("hpram-model", serde_json::json!({"log_p": 2, "depth": 1, "programs": 3})),
        ("hpram-tree-r", serde_json::json!({"preset": "hypercube", "log_p": 2, "log_r": 2})),
        ("hpram-usable-procs", serde_json::json!({"preset": "mesh2d", "log_n": 6})),
        ("hpram-isoefficiency", serde_json::json!({"preset": "hypercube", "log_p": 3})),
        ("hpram-fft-locality", serde_json::json!({"preset": "hypercube", "log_p": 2, "log_r": 2})),
        (
            "hpram-network",
            serde_json::json!({"topology": "mesh2d", "algorithm": "fft", "log_p": 2, "log_r": 2}),
        ),
    ];
    let studies = hpram::driver::Hpram.studies();
    assert_eq!(studies.len(), small.len());
    for (name, params) in small {
        let study = studies.iter().find(|s| s.name() == name).expect(name);
        let glossary: std::collections::BTreeSet<String> =
            study.glossary().into_iter().map(|c| c.name).collect();
        let point = study.prepare(&params).unwrap_or_else(|e| panic!("{name}: {e}"));
        let rows = point.run(&mut seeded(1, 0)).expect(name);
        assert!(!rows.is_empty(), "{name}");
        for row in &rows {
            for key in row.keys() {
                assert!(!point.params.contains_key(key), "{name}: {key} repeats a parameter");
            }
        }
        // Every row's columns (an optional column, e.g. hpram-network's hier-only
        // `beta_over_preset`, is absent from the rows without it).
        let columns: std::collections::BTreeSet<String> =
            point.params.keys().chain(rows.iter().flat_map(|r| r.keys())).cloned().collect();
        assert_eq!(glossary, columns, "{name}: glossary entries against columns");
    }
}

/// The usable-processors finding at `N = 2^10` on the hypercube restates `x2_table`'s row
/// (flat 1, two-level 16, hier 16), `x2_hand_derivation_n1024`'s efficiency `0.688` and the FFT's
/// row of `x3_fft_usable_procs_quarter`'s snapshot (lpram 2, hier 4).
#[test]
fn x2_finding_restates_the_rows() {
    use netcore::study::Model;
    let studies = hpram::driver::Hpram.studies();
    let study = studies.iter().find(|s| s.name() == "hpram-usable-procs").unwrap();
    let point = study.prepare(&serde_json::json!({"preset": "hypercube", "log_n": 10})).unwrap();
    // xtask's rows carry the point's parameters before the row's columns.
    let rows: Vec<_> = point
        .run(&mut seeded(1, 0))
        .unwrap()
        .into_iter()
        .map(|row| point.params.clone().into_iter().chain(row).collect())
        .collect();
    assert_eq!(
        study.findings(&rows),
        [
            "hypercube, N = 2^10: P*(N, 1/2) is 1 flat, 16 two-level and 16 hierarchical (efficiency 0.69 there); the FFT's P*(N, 1/4) is 2 flat LPRAM and 4 hierarchical."
        ]
    );
}

/// X3's `P*(N, 1/4)` of the FFT, by hand at `N = 16` on the hypercube (`ℓ(P) = s_α(P) = p`,
/// `s_β(2, ·) = 1`), `τ_seq = 2N + (N/2)·log₂N = 64`, so `P` qualifies when `P·τ <= 256`.
/// Lpram (`p` stages at level 1 of `r/2 + 4.5rp` each, then `LCS(ρ)` at level 1,
/// `ρr/2 + p + 4rp`): `P = 2` (`r = 8`) `40 + 13 + 32 = 85`, `2·85 = 170` qualifies; `P = 4`
/// (`r = 4`) `2·38 + 6 + 32 = 114`, `456` does not; `P = 8` (`r = 2`) `84 + 4 + 24 = 112`, `896`
/// does not: `P* = 2`. Hier (levels `k = 1..p` of `r/2 + 4.5rk + 1`, then `LCS(ρ)` on one
/// processor, `ρr/2 + 2r`): `P = 2` `41 + 12 + 16 = 69` (`138`); `P = 4` `21 + 39 + 4 + 8 = 72`
/// (`288`, no); `P = 8` `11 + 20 + 29 + 1 + 4 = 65` (`520`, no): `P* = 2`. Then the table of
/// both forms on both presets up to `N = 2^14`, where the hypercube gives lpram/hier 4/4 (the
/// study's claims carry 2^18 and 2^22).
///
/// Every row in units of `N` (`r = N/P`, `n = log₂N`, `p = log₂P`): `P·τ <= 4τ_seq` is
/// `τ/r <= 8 + 2n`. With `ℓ(P') = s_α(P') = L(P')` the terms above give, for `p >= 1`, lpram
/// `τ/r = n/2 + (4.5p + 4 + 1/r)·L(P)` and hier `τ/r = n/2 + 2 + 4.5·S_p + B_p/r`,
/// `S_p = Σ_{k=1}^{p} L(2^k)`, `B_p = Σ_k s_β(2, 2^k)`. So `P` qualifies iff lpram
/// `(4.5p + 4 + 1/r)·L(P) <= 8 + 1.5n`, hier `4.5·S_p + B_p/r <= 6 + 1.5n`; both left sides
/// grow with `p`, so every `P` above the first failing one fails too and the top-down search
/// stops at `P*` (lpram at `P = 1` is `τ_seq` itself). Hypercube (`L = p`, `B_p = p`), 2^14:
/// hier `p = 2` `13.5 + 2/4096 <= 27`, `p = 3` `27 + 3/2048 > 27`; lpram `p = 2`
/// `26 + 2/4096 <= 29`, `p = 3` `52.5 + 3/2048 > 29`: 4/4.
/// Mesh2d (`L(P') = ⌈√P'⌉` = 2, 2, 3 at `P' = 2, 4, 8`; `s_β(2, P') = L(P')`, so `B_p = S_p` =
/// 2, 4, 7 at `p = 1, 2, 3`), bounds `8 + 1.5n` = 14, 17, 20, 23, 26, 29 and `6 + 1.5n` = 12,
/// 15, 18, 21, 24, 27 at `n = 4, 6, .., 14`. Lpram `p = 1`: `17 + 2/r`, above 14 and 17 (17.25,
/// 17.0625: `P* = 1` at 2^4, 2^6; at 2^6 `τ = 642`, `1284 > 1280`), below 20; `p = 2`:
/// `26 + 2/r`, above 20, 23 and 26 (2^12: `τ = 32770`, `131080 > 131072`), so `P* = 2` at
/// 2^8..2^12; below 29 at 2^14, where `p = 3` gives `3·(17.5 + 1/r) > 29`: `P* = 4`. Hier
/// `p = 1`: `9 + 2/r <= 12` always; `p = 2`: `18 + 4/r`, above 12, 15 and 18 (2^8: `18.0625`,
/// `τ = 1540`, `6160 > 6144`), so `P* = 2` at 2^4..2^8; below 21 from 2^10, where `p = 3` gives
/// `31.5 + 7/r > 27`: `P* = 4`. At 2^4: lpram `P = 2` `76 + 78 = 154` (`308 > 256`); hier
/// `P = 2` `78 + 28 = 106` (`212 <= 256`), `P = 4` `2·(2 + 4 + 32 + 2) + 12 = 92` (`368`).
#[test]
fn x3_fft_usable_procs_quarter() {
    use hpram::algs::FftForm;
    use hpram::driver::studies::fft_locality::fft_cost;
    use hpram::driver::studies::usable::{fft_tau_seq, fft_usable_procs};
    let cube = TreePreset::Hypercube.preset();
    assert_eq!(fft_tau_seq(4), 64);
    // τ_seq is the leaf LCS(log₂N) on one processor, as counted.
    for log_n in [4, 10] {
        assert_eq!(fft_cost(FftForm::Hier, &cube, 0, log_n).unwrap(), fft_tau_seq(log_n));
    }
    let lpram: Vec<u64> =
        (1..=3).map(|p| fft_cost(FftForm::FlatLpram, &cube, p, 4 - p).unwrap()).collect();
    let hier: Vec<u64> =
        (1..=3).map(|p| fft_cost(FftForm::Hier, &cube, p, 4 - p).unwrap()).collect();
    assert_eq!((lpram, hier), (vec![85, 114, 112], vec![69, 72, 65]));
    assert_eq!(
        fft_usable_procs(FftForm::FlatLpram, &cube, 4).unwrap(),
        Usable { procs: 2, tau: 85 }
    );
    assert_eq!(fft_usable_procs(FftForm::Hier, &cube, 4).unwrap(), Usable { procs: 2, tau: 69 });
    let table: String = [TreePreset::Hypercube, TreePreset::Mesh2d]
        .into_iter()
        .flat_map(|preset| {
            (4..=14).step_by(2).map(move |log_n| {
                let pr = preset.preset();
                let star = |form| fft_usable_procs(form, &pr, log_n).unwrap().procs;
                format!(
                    "{preset:?} N = 2^{log_n}: lpram {} hier {}\n",
                    star(FftForm::FlatLpram),
                    star(FftForm::Hier)
                )
            })
        })
        .collect();
    insta::assert_snapshot!(table);
}

/// Isoefficiency by hand at `P = 4` (`p = 2`) on the hypercube (`ℓ(2^k) = s_α(2^k) = k`,
/// `s_β(2, ·) = 1`), with `r = N/P` not a power of two. `τ_seq = 2N = 8r` (the leaf alone).
/// Hier costs `2r + S`, `S = Σ_{k=1}^{2} (1 + 2k + 3k + 1) = 7 + 12 = 19`, so `E >= 1/2`
/// (`2τ_seq >= P·τ`, i.e. `16r >= 4(2r + 19)`) iff `2r >= 19`: `r* = 10`, `N* = 40`
/// (`r = 10`: `τ = 39`, `P·τ = 156 <= 160`, `E = 80/156 = 0.513`; `r = 9`: `τ = 37`,
/// `148 > 144`, `E = 72/148 = 0.486`). Two-level costs the leaf `2r` on `[4 × 1]`, its
/// β-synchronisation `s_β(4, 4) = log₂4 = 2`, and two rounds `m c m` at level 1 of
/// `(ℓ + s_α) + (1 + s_α) + (ℓ + s_α) = 1 + 2·2 + 3·2 = 11` each: `2r + 24`, so `r* = 12`
/// (`E = 96/192 = 1/2` exactly; `r = 11`: `184 > 176`). On the mesh (`ℓ(2) = ℓ(4) = s_α = 2`,
/// `s_β(2, 2) = s_β(2, 4) = 2`) both levels cost `1 + 4 + 6 + 2 = 13`: `S = 26`, `r* = 13`.
#[test]
fn x2_isoefficiency_by_hand_p4() {
    use hpram::driver::studies::iso::{iso_r_star, level_sum, tree_cost_r};
    let cube = TreePreset::Hypercube.preset();
    for r in [1, 9, 10, 11] {
        assert_eq!(tree_cost_r(TreeForm::Flat, &cube, 0, 4 * r).unwrap(), 8 * r);
        assert_eq!(tree_cost_r(TreeForm::Hier, &cube, 2, r).unwrap(), 2 * r + 19);
        assert_eq!(tree_cost_r(TreeForm::TwoLevel, &cube, 2, r).unwrap(), 2 * r + 24);
    }
    assert_eq!(level_sum(&cube, 2), 19);
    assert_eq!(iso_r_star(TreeForm::Hier, &cube, 2).unwrap(), (10, true));
    assert_eq!(iso_r_star(TreeForm::TwoLevel, &cube, 2).unwrap(), (12, true));
    let mesh = TreePreset::Mesh2d.preset();
    assert_eq!(level_sum(&mesh, 2), 26);
    assert_eq!(iso_r_star(TreeForm::Hier, &mesh, 2).unwrap(), (13, true));
}

/// The search assumes `E` is monotone in `r`: at `P = 4, 16, 64` on both presets and both
/// forms, every `r` from 1 to `2r*` is efficient exactly when `r >= r*` (beyond, hier's
/// `E = 2r/(2r + S)` only grows).
#[test]
fn x2_isoefficiency_is_a_threshold() {
    use hpram::driver::studies::iso::{iso_r_star, tree_cost_r};
    for preset in [TreePreset::Hypercube, TreePreset::Mesh2d] {
        let pr = preset.preset();
        for log_p in [2, 4, 6] {
            for form in [TreeForm::Hier, TreeForm::TwoLevel] {
                let (r_star, _) = iso_r_star(form, &pr, log_p).unwrap();
                for r in 1..=2 * r_star {
                    let seq = tree_cost_r(TreeForm::Flat, &pr, 0, r << log_p).unwrap();
                    let tau = tree_cost_r(form, &pr, log_p, r).unwrap();
                    assert_eq!(
                        2 * seq >= (1 << log_p) * tau,
                        r >= r_star,
                        "{preset:?} {form:?} P = 2^{log_p} r = {r}"
                    );
                }
            }
        }
    }
}

/// The isoefficiency study's size limit per preset (`iso::max_log_p`): on the mesh at
/// `P = 2^17` both searches finish (hier `r* = 3,723`, two-level `r* = 15,618`), and at
/// `P = 2^18` the two-level search's doubling reaches `r = 2^14`, `N = 2^32`, whose `τ_seq`
/// count (`2N = 2^33` steps) passes the work limit of `2^32`: so the point is refused as the
/// user's input, not failed as a run. The hypercube's `r*` stay small (two-level `r* = 828`
/// at `P = 2^18`), so it accepts `P = 2^18`.
#[test]
fn x2_isoefficiency_limit_per_preset() {
    use hpram::HpramError;
    use hpram::driver::studies::iso::{IsoParams, Isoefficiency, iso_r_star, max_log_p};
    use netcore::fault::Fault;
    let (mesh, cube) = (TreePreset::Mesh2d.preset(), TreePreset::Hypercube.preset());
    assert_eq!((max_log_p(TreePreset::Mesh2d), max_log_p(TreePreset::Hypercube)), (17, 18));
    assert_eq!(iso_r_star(TreeForm::Hier, &mesh, 17).unwrap(), (3723, true));
    assert_eq!(iso_r_star(TreeForm::TwoLevel, &mesh, 17).unwrap(), (15_618, true));
    assert!(matches!(
        iso_r_star(TreeForm::TwoLevel, &mesh, 18),
        Err(HpramError::WorkLimit { limit: 4_294_967_296 })
    ));
    assert_eq!(iso_r_star(TreeForm::TwoLevel, &cube, 18).unwrap(), (828, true));
    let point = |preset, log_p| Isoefficiency.point(&IsoParams { preset, log_p });
    assert!(point(TreePreset::Hypercube, 18).is_ok());
    assert!(point(TreePreset::Mesh2d, 17).is_ok());
    for (preset, log_p) in [(TreePreset::Mesh2d, 18), (TreePreset::Hypercube, 19)] {
        let error = point(preset, log_p).unwrap_err();
        assert_eq!(error.fault(), Fault::Input, "{error}");
        assert!(error.to_string().contains("log_p"), "{error}");
    }
}

/// `hpram-model` refuses `P = 1` as the user's input: there the root's block is its
/// processor's private memory (`LpramCost`'s `ℓ(1) = 1`), so the LPRAM instance's identity,
/// which charges `L` per global access, does not hold and `lpram_mismatches` would count every
/// drawn read; `P = 2` is accepted.
#[test]
fn model_study_refuses_one_processor() {
    use hpram::driver::studies::model::{ModelParams, ModelResults};
    use netcore::fault::Fault;
    let point = |log_p| ModelResults.point(&ModelParams { log_p, depth: 1, programs: 3 });
    let error = point(0).unwrap_err();
    assert_eq!(error.fault(), Fault::Input, "{error}");
    assert!(error.to_string().contains("LPRAM instance"), "{error}");
    assert!(point(1).is_ok());
}
