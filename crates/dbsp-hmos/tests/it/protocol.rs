//! The access protocol as a PRAM back end against the reference array, on random steps.

use dbsp_hmos::hmos::k_max;
use dbsp_hmos::protocol::{HmosMemory, Selection};
use netcore::bsp::DbspParams;
use netcore::pram::{Access, AccessKind, ArrayMemory, FetchOp, GlobalMemory};
use proptest::prelude::*;

/// One random step: (kind 0 read / 1 write / 2 fetch-add, accesses as (addr seed, value)).
type Step = (u8, Vec<(u64, i64)>);

/// A contract-respecting step: sorted by pid, addresses below `size`, at most one write or
/// fetch per address (duplicates dropped), any number of reads per address.
fn accesses(step: &Step, size: u64, hot: bool) -> Vec<Access> {
    let (kind, raw) = step;
    let kind = match kind % 3 {
        0 => AccessKind::Read,
        1 => AccessKind::Write,
        _ => AccessKind::Fetch(FetchOp::Add),
    };
    let mut seen: Vec<u64> = Vec::new();
    let mut out = Vec::new();
    for (pid, &(a, value)) in (0..).zip(raw) {
        let addr = if hot { a % 3 } else { a % size };
        if kind != AccessKind::Read {
            if seen.contains(&addr) {
                continue;
            }
            seen.push(addr);
        }
        out.push(Access { pid, kind, addr, value });
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every read and fetch returns what the reference array returns, and the contents agree
    /// after every step, for n in {8, 64}, k in {0, k_max(n)}, r in {1, 3, 5}.
    #[test]
    fn protocol_equals_reference(
        big in any::<bool>(),
        top_k in any::<bool>(),
        r_index in 0_usize..3,
        double in any::<bool>(),
        hot in any::<bool>(),
        seed in any::<u64>(),
        cull in 0_u8..3,
        steps in prop::collection::vec(
            (0_u8..3, prop::collection::vec((any::<u64>(), -50_i64..50), 1..20)), 1..6),
    ) {
        let n: u32 = if big { 64 } else { 8 };
        let k = if top_k { k_max(u64::from(n)) } else { 0 };
        let r = [1, 3, 5][r_index];
        let size = if double { 2 * u64::from(n) } else { u64::from(n) };
        let input: Vec<i64> = (0..size as i64).map(|i| i * 7 % 11).collect();
        let params = DbspParams::power_law(n, 0.5, 0.5).unwrap();
        let selection = match cull {
            0 => Selection::Naive,
            1 => Selection::Cull { a: 0.5, eps: 0.5 },
            _ => Selection::Cull { a: 2.0, eps: 0.3 },
        };
        let mut hmos = HmosMemory::new(params, size, &input, r, k, seed, selection).unwrap();
        let mut array = ArrayMemory::new(size as usize, &input);
        for (g, step) in (1..).zip(&steps) {
            let mut a = accesses(step, size, hot);
            let mut b = a.clone();
            hmos.step(g, &mut a);
            array.step(g, &mut b);
            prop_assert!(hmos.error().is_none(), "{:?}", hmos.error());
            prop_assert_eq!(a, b);
            prop_assert_eq!(hmos.contents(), array.contents());
        }
        prop_assert!(hmos.ledger().records.iter().filter_map(|r| r.level).all(|l| l <= n.ilog2()));
    }
}

/// E8 (the back end's part), k = 0, n = 8, m = 16: step 1 writes 100 + p to address p for
/// p < 4 (the interpreter has already resolved P0..P3 as the winners of `p mod 4`); step 2,
/// P_p reads p mod 4: [100, 101, 102, 103, 100, 101, 102, 103]; step 3 writes 7 to address 0
/// (a read in the same PRAM step sees 100: reads go first); step 4 reads 7.
#[test]
fn e8_semantics() {
    let params = DbspParams::power_law(8, 0.5, 0.5).unwrap();
    let mut m =
        HmosMemory::new(params, 16, &[], 3, 0, 1, Selection::Cull { a: 0.5, eps: 0.5 }).unwrap();
    let write =
        |pid: u32, addr: u64, value: i64| Access { pid, kind: AccessKind::Write, addr, value };
    let read = |pid: u32, addr: u64| Access { pid, kind: AccessKind::Read, addr, value: 0 };
    let mut s1: Vec<Access> = (0..4).map(|p| write(p, u64::from(p), 100 + i64::from(p))).collect();
    m.step(1, &mut s1);
    let mut s2: Vec<Access> = (0..8).map(|p| read(p, u64::from(p % 4))).collect();
    m.step(2, &mut s2);
    let got: Vec<i64> = s2.iter().map(|a| a.value).collect();
    assert_eq!(got, vec![100, 101, 102, 103, 100, 101, 102, 103]);
    let mut s3r = vec![read(1, 0)];
    m.step(3, &mut s3r);
    assert_eq!(s3r[0].value, 100);
    let mut s3w = vec![write(0, 0, 7)];
    m.step(4, &mut s3w);
    let mut s4 = vec![read(1, 0)];
    m.step(5, &mut s4);
    assert_eq!(s4[0].value, 7);
    assert!(m.error().is_none());
}
