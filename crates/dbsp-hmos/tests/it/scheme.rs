//! The baselines beside the HMOS (docs/models/dbsp-hmos.md, Choices: baselines): the computed
//! level-0 graphs, the schemes' rules, every scheme against the reference array, and the
//! flat-BSP re-pricing.

use dbsp_hmos::Error;
use dbsp_hmos::hmos::{Hmos, HmosConfig, Level0};
use dbsp_hmos::protocol::{HmosMemory, Selection};
use dbsp_hmos::scheme::{Pricing, Scheme};
use netcore::bsp::DbspParams;
use netcore::pram::{Access, AccessKind, ArrayMemory, GlobalMemory};
use proptest::prelude::*;

const SCHEMES: [Scheme; 4] =
    [Scheme::Hmos, Scheme::FlatMajority, Scheme::SingleCopyHashed, Scheme::SingleCopyModulo];

fn memory(scheme: Scheme, n: u32, size: u64, input: &[i64], k: u32, seed: u64) -> HmosMemory {
    let k = if scheme == Scheme::Hmos { Some(k) } else { None };
    let (level0, r, k) = scheme.resolve(None, None, k).unwrap();
    let n64 = u64::from(n);
    let config = HmosConfig::with_graph(n64, size.max(n64), r, k, seed, level0).unwrap();
    let params = DbspParams::power_law(n, 0.5, 0.5).unwrap();
    let selection = Selection::Cull { a: 2.0, eps: 0.3 };
    HmosMemory::with_hmos(params, Hmos::build(&config).unwrap(), size, input, selection).unwrap()
}

/// Modulo: copy j of v on module (v + j) mod n, so copy 0 of `{i n + c}` is on module c (the
/// trivial adversary). Hashed: r distinct modules, the same for the same seed, and the seed
/// matters (two seeds place 1000 variables differently).
#[test]
fn computed_level0_graphs() {
    let config = |level0, r, seed| HmosConfig::with_graph(16, 1 << 30, r, 0, seed, level0);
    let modulo = Hmos::build(&config(Level0::Modulo, 3, 0).unwrap()).unwrap();
    assert_eq!(modulo.adj0(5).unwrap().to_vec(), vec![5, 6, 7]);
    assert_eq!(modulo.adj0(15).unwrap().to_vec(), vec![15, 0, 1]);
    assert!((0..100).all(|i| modulo.loc(16 * i + 3, 0).unwrap() == 3));
    let hashed = Hmos::build(&config(Level0::Hashed, 5, 1).unwrap()).unwrap();
    let again = Hmos::build(&config(Level0::Hashed, 5, 1).unwrap()).unwrap();
    let other = Hmos::build(&config(Level0::Hashed, 5, 2).unwrap()).unwrap();
    let mut differ = 0;
    for v in (0..1000).map(|v| v * 1_000_003) {
        let mut mods = hashed.adj0(v).unwrap().to_vec();
        assert_eq!(mods, again.adj0(v).unwrap().to_vec());
        differ += usize::from(mods != other.adj0(v).unwrap().to_vec());
        mods.sort_unstable();
        mods.dedup();
        assert_eq!(mods.len(), 5);
    }
    assert!(differ > 900, "{differ}");
    // r = n: the linear probe fills every module.
    let full = Hmos::build(&config(Level0::Hashed, 15, 3).unwrap()).unwrap();
    assert_eq!(full.adj0(7).unwrap().iter().collect::<std::collections::BTreeSet<_>>().len(), 15);
    // A computed graph allows m up to 2^40, a stored one m r <= 2^24.
    assert_eq!(config(Level0::Modulo, 1, 0).map(|_| ()), Ok(()), "m = 2^30 computed is accepted");
    assert!(matches!(
        HmosConfig::with_graph(16, 1 << 41, 1, 0, 0, Level0::Hashed),
        Err(Error::TooLarge(netcore::limits::TooLarge { field: "m", limit: 1099511627776, .. }))
    ));
    assert!(matches!(
        HmosConfig::with_graph(16, 1 << 30, 1, 0, 0, Level0::ShuffledBalanced),
        Err(Error::TooLarge(netcore::limits::TooLarge { field: "m", estimate: 1073741824, .. }))
    ));
}

/// The schemes' defaults and rules: r = 3, k = 0 unless given; a flat scheme refuses k != 0,
/// a single copy r != 1, each naming field and rule.
#[test]
fn scheme_rules() {
    assert_eq!(Scheme::Hmos.resolve(None, None, Some(2)), Ok((Level0::ShuffledBalanced, 3, 2)));
    assert_eq!(
        Scheme::FlatMajority.resolve(None, Some(5), None),
        Ok((Level0::ShuffledBalanced, 5, 0))
    );
    assert_eq!(Scheme::SingleCopyHashed.resolve(None, None, Some(0)), Ok((Level0::Hashed, 1, 0)));
    assert_eq!(Scheme::SingleCopyModulo.resolve(None, Some(1), None), Ok((Level0::Modulo, 1, 0)));
    assert_eq!(
        Scheme::FlatMajority.resolve(None, None, Some(1)).unwrap_err().to_string(),
        "k must satisfy k = 0 for scheme flat_majority (got 1)"
    );
    assert_eq!(
        Scheme::SingleCopyHashed.resolve(None, Some(3), None).unwrap_err().to_string(),
        "r must satisfy r = 1 for scheme single_copy_hashed (got 3)"
    );
}

/// Flat-BSP re-pricing of one trace: every labelled superstep costs `w + g_0 h + l_0`. With
/// n = 64 and alpha = beta = 1/2, g_0 = l_0 = 8, so the flat comm is exactly
/// `8 (sum h + labelled supersteps)` (integers, exact in f64), and at least the D-BSP comm
/// (g_i, l_i fall with i).
#[test]
fn flat_bsp_reprices_with_level_0() {
    let mut mem = memory(Scheme::Hmos, 64, 64, &[], 1, 5);
    let mut step: Vec<Access> = (0..64)
        .map(|pid| Access {
            pid,
            kind: AccessKind::Write,
            addr: u64::from(pid * 37 % 64),
            value: 1,
        })
        .collect();
    mem.step(1, &mut step);
    assert!(mem.error().is_none());
    let params = DbspParams::power_law(64, 0.5, 0.5).unwrap();
    let flat = Pricing::FlatBsp.apply(&params).unwrap();
    assert_eq!((flat.g_levels(), flat.l_levels()), (&[8.0; 7][..], &[8.0; 7][..]));
    let ledger = mem.ledger();
    let labelled = ledger.records.iter().filter(|r| r.level.is_some());
    let (h, count) = labelled.fold((0, 0), |(h, c), r| (h + r.h, c + 1));
    assert_eq!(ledger.comm(&flat).unwrap(), 8.0 * (h + count) as f64);
    // The D-BSP prices an i-superstep at g_i h + l_i = (64 / 2^i)^(1/2) (h + 1).
    let by_hand: f64 = ledger
        .records
        .iter()
        .filter_map(|r| r.level.map(|i| (64.0 / f64::from(1u32 << i)).sqrt() * (r.h + 1) as f64))
        .sum();
    let dbsp = ledger.comm(&Pricing::Dbsp.apply(&params).unwrap()).unwrap();
    assert!((dbsp - by_hand).abs() <= 1e-9 * by_hand, "{dbsp} against {by_hand}");
    assert!(ledger.comm(&flat).unwrap() > dbsp);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Every scheme reads what the reference array reads, on random read and write steps with
    /// hot addresses and addresses congruent modulo n (the modulo scheme's adversary), n in
    /// {8, 64}, culling at every level (k = 1 for the HMOS at n = 64).
    #[test]
    fn every_scheme_equals_reference(
        scheme_index in 0_usize..4,
        big in any::<bool>(),
        seed in any::<u64>(),
        steps in prop::collection::vec(
            (any::<bool>(), prop::collection::vec((0_u64..6, 0_u64..4, -50_i64..50), 1..24)), 1..5),
    ) {
        let scheme = SCHEMES[scheme_index];
        let n: u32 = if big { 64 } else { 8 };
        let size = 4 * u64::from(n);
        let input: Vec<i64> = (0..size as i64).map(|i| i * 7 % 11).collect();
        let k = u32::from(big);
        let mut mem = memory(scheme, n, size, &input, k, seed);
        let mut array = ArrayMemory::new(size as usize, &input).unwrap();
        for (g, (write, raw)) in (1..).zip(&steps) {
            let kind = if *write { AccessKind::Write } else { AccessKind::Read };
            let mut seen = Vec::new();
            let mut a = Vec::new();
            for (pid, &(row, col, value)) in (0..).zip(raw) {
                // Addresses row * n + col: at most 4 distinct residues modulo n.
                let addr = row % 4 * u64::from(n) + col;
                if *write && seen.contains(&addr) {
                    continue;
                }
                seen.push(addr);
                a.push(Access { pid, kind, addr, value });
            }
            let mut b = a.clone();
            mem.step(g, &mut a);
            array.step(g, &mut b);
            prop_assert!(mem.error().is_none(), "{:?}", mem.error());
            prop_assert_eq!(a, b);
            prop_assert_eq!(mem.contents(), array.contents());
        }
    }
}
