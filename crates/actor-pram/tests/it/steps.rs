//! One PRAM global step of every variant served by the lockstep router (Choice 19), checked
//! against netcore's reference resolution (`resolve_step`, `combine_fetch`, `ArrayMemory`).

use actor_pram::Error;
use actor_pram::ranade::{FetchOrder, LockstepRouter, PassStats};
use netcore::pram::{
    Access, AccessKind, ArrayMemory, EMPTY, FetchOp, GlobalMemory, Variant, combine_fetch,
    resolve_step,
};
use proptest::prelude::*;

/// Memory after a step and each pid's reply.
type Outcome = (Vec<i64>, Vec<(u32, i64)>);

/// The reference outcome of one step: the memory after it and each pid's reply (0 for a
/// write), or the conflicting addresses.
fn reference(variant: Variant, raw: &[Access], memory: &[i64]) -> Result<Outcome, Vec<u64>> {
    let size = memory.len();
    let mut slot = vec![EMPTY; size];
    let mut resolved = Vec::new();
    let conflicting: Vec<u64> = {
        let mut addrs: Vec<u64> = raw.iter().map(|a| a.addr).collect();
        addrs.sort_unstable();
        addrs.dedup();
        addrs
            .into_iter()
            .filter(|&x| {
                let sub: Vec<Access> = raw.iter().filter(|a| a.addr == x).copied().collect();
                let checks = !matches!(sub.first().map(|a| a.kind), Some(AccessKind::Fetch(_)))
                    && (sub[0].kind != AccessKind::Read || !variant.concurrent_read());
                checks && resolve_step(variant, &sub, &mut slot, &mut resolved).is_some()
            })
            .collect()
    };
    if !conflicting.is_empty() {
        return Err(conflicting);
    }
    let mut mem = ArrayMemory::new(size, memory).unwrap();
    let mut replies = Vec::new();
    match raw.first().map(|a| a.kind) {
        None => {}
        Some(AccessKind::Read) => {
            let mut reads = raw.to_vec();
            mem.step(1, &mut reads);
            replies = reads.iter().map(|a| (a.pid, a.value)).collect();
        }
        Some(AccessKind::Write) => {
            resolve_step(variant, raw, &mut slot, &mut resolved);
            mem.step(1, &mut resolved);
            replies = raw.iter().map(|a| (a.pid, 0)).collect();
        }
        Some(AccessKind::Fetch(op)) => {
            let (mut prefix, mut rix) = (vec![0; raw.len()], vec![0; raw.len()]);
            combine_fetch(op, raw, &mut slot, &mut resolved, &mut prefix, &mut rix);
            mem.step(1, &mut resolved);
            replies = raw
                .iter()
                .enumerate()
                .map(|(k, a)| (a.pid, op.apply(resolved[rix[k] as usize].value, prefix[k])))
                .collect();
        }
    }
    Ok((mem.contents(), replies))
}

fn replies(s: &PassStats) -> Vec<(u32, i64)> {
    let mut got: Vec<(u32, i64)> = s.deliveries.iter().map(|d| (d.0, d.2)).collect();
    got.sort_unstable();
    got
}

/// n = 2, b = 1, combining, network order: all 8 PPUs fetch-and-add `pid + 1` to address 5
/// (holding 105). The packets combine as the hot-spot reads do: [4, 6, 5] exits at (1,2) in
/// round 1, [0, 2, 1, 7, 3] at (3,2) in round 3 (parts in order S, X, injection). The host
/// serves them in order of least pid, so the serialization is 0 2 1 7 3 4 6 5 and the
/// replies are the prefixes 105, +1 -> 106 (pid 2), +3 -> 109 (1), +2 -> 111 (7),
/// +8 -> 119 (3), +4 -> 123 (4), +5 -> 128 (6), +7 -> 135 (5); the cell ends at
/// 105 + 36 = 141, as in the reference, whose pid-order replies differ (105 + p(p+1)/2).
/// Keyed by pid (`FetchOrder::Pid`) nothing combines: 8 arrivals, R_fwd = 13, R_rev = 12 as
/// the uncombined hot-spot read, and the replies are the reference's.
#[test]
fn fetch_add_hot_spot() {
    let mem: Vec<i64> = (0..8).map(|x| 100 + x).collect();
    let raw: Vec<Access> = (0..8)
        .map(|p| Access {
            pid: p,
            kind: AccessKind::Fetch(FetchOp::Add),
            addr: 5,
            value: i64::from(p) + 1,
        })
        .collect();
    let variant = Variant::CrcwFetchOp(FetchOp::Add);
    let router = LockstepRouter::new(2, 1, true).unwrap();
    let mut net_mem = mem.clone();
    let net = router.step_pass(variant, &raw, &mut net_mem, FetchOrder::Network).unwrap();
    let mut pid_mem = mem.clone();
    let pid = router.step_pass(variant, &raw, &mut pid_mem, FetchOrder::Pid).unwrap();
    let (want_mem, want) = reference(variant, &raw, &mem).unwrap();
    assert_eq!(net_mem, want_mem);
    assert_eq!(pid_mem, want_mem);
    assert_eq!(net_mem[5], 141);
    assert_eq!(replies(&pid), want);
    assert_eq!((pid.r_fwd, pid.r_rev, pid.arrivals, pid.combines), (13, 12, 8, 0));
    insta::assert_yaml_snapshot!(serde_json::json!({
        "network": {
            "r_fwd": net.r_fwd, "r_rev": net.r_rev, "combines": net.combines,
            "arrivals": net.arrivals, "serialization": net.serialization,
            "replies": replies(&net),
        },
        "pid": { "serialization": pid.serialization, "replies": replies(&pid) },
    }));
    assert_eq!(net.serialization, vec![(5, vec![0, 2, 1, 7, 3, 4, 6, 5])]);
    assert_eq!(
        replies(&net),
        vec![(0, 105), (1, 109), (2, 106), (3, 119), (4, 123), (5, 135), (6, 128), (7, 111)]
    );
}

/// n = 2, combining: all 8 PPUs write `10 pid` to address 5. Priority keeps the least pid's
/// value (0), Arbitrary the greatest's (70, the reference's rule), fetch-or folds (0 | 10 |
/// ... | 70 = 126); Common with equal values writes it, with different values it is a
/// conflict, as under EREW and CREW: the first combine in lockstep order (levels, then rows)
/// is at (1,0) in round 1, of PPUs 0 (S) and 2 (X); fetch-add sums 10 (0 + ... + 7) = 280
/// (8 · 7 = 56 with equal values).
#[test]
fn concurrent_writes_every_variant() {
    let router = LockstepRouter::new(2, 1, true).unwrap();
    let mut rows = Vec::new();
    for variant in Variant::ALL.into_iter().take(6).chain([Variant::CrcwFetchOp(FetchOp::Or)]) {
        for same in [false, true] {
            let raw: Vec<Access> = (0..8)
                .map(|p| Access {
                    pid: p,
                    kind: AccessKind::Write,
                    addr: 5,
                    value: if same { 7 } else { 10 * i64::from(p) },
                })
                .collect();
            let mut mem = vec![1; 8];
            let got = router.step_pass(variant, &raw, &mut mem, FetchOrder::Pid);
            match (got, reference(variant, &raw, &[1; 8])) {
                (Ok(_), Ok((want, _))) => {
                    assert_eq!(mem, want, "{variant}");
                    rows.push(format!("{variant} same={same}: cell 5 = {}", mem[5]));
                }
                (Err(Error::Conflict { addr, pids, rule }), Err(addrs)) => {
                    assert!(addrs.contains(&addr));
                    rows.push(format!(
                        "{variant} same={same}: conflict at {addr} {pids:?} ({rule})"
                    ));
                }
                (got, want) => panic!("{variant}: {got:?} vs {want:?}"),
            }
        }
    }
    insta::assert_yaml_snapshot!(rows);
}

fn variant() -> impl Strategy<Value = Variant> {
    prop::sample::select(Variant::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]
    /// Theorem 2 (b), one step: random accesses of every variant and kind (n in {2, 3},
    /// b in {1, 2}, combining on and off, both fetch orders, few cells so that hot spots and
    /// conflicts occur) give the reference's memory and replies, or a conflict at one of the
    /// reference's conflicting addresses; fetch-and-ops in network order give the reference's
    /// final cell and replies that are the prefixes of the reported serialization; every pass
    /// keeps buffers within b and injected = arrivals + combines.
    #[test]
    fn step_pass_equals_reference_resolution(
        n in 2u32..4,
        b in 1u32..3,
        combining in any::<bool>(),
        network in any::<bool>(),
        variant in variant(),
        kind in 0u8..3,
        picks in prop::collection::vec((any::<bool>(), 0u64..6, -3i64..4), 24),
    ) {
        let kind = match (kind, variant) {
            (2, Variant::CrcwFetchOp(op)) => AccessKind::Fetch(op),
            (1, _) => AccessKind::Write,
            _ => AccessKind::Read,
        };
        let raw: Vec<Access> = picks
            .iter()
            .zip(0u32..n << n)
            .filter(|((on, _, _), _)| *on)
            .map(|(&(_, addr, value), pid)| Access { pid, kind, addr, value })
            .collect();
        let order = if network { FetchOrder::Network } else { FetchOrder::Pid };
        let mem: Vec<i64> = (0..6).map(|x| 10 * x - 20).collect();
        let router = LockstepRouter::new(n, b, combining).unwrap();
        let mut got_mem = mem.clone();
        let got = router.step_pass(variant, &raw, &mut got_mem, order);
        match (got, reference(variant, &raw, &mem)) {
            (Ok(s), Ok((want_mem, want))) => {
                prop_assert_eq!(&got_mem, &want_mem);
                prop_assert!(s.max_occupancy <= u64::from(b));
                prop_assert_eq!(s.arrivals + s.combines, raw.len() as u64);
                let got = replies(&s);
                if let (AccessKind::Fetch(op), true, true) = (kind, network, combining) {
                    let contribution = |p: u32| raw.iter().find(|a| a.pid == p).map_or(0, |a| a.value);
                    // Every access is serialized once and replied to once.
                    let serialized: usize = s.serialization.iter().map(|(_, p)| p.len()).sum();
                    prop_assert_eq!((serialized, got.len()), (raw.len(), raw.len()));
                    for (addr, pids) in &s.serialization {
                        let mut x = mem[*addr as usize];
                        for &p in pids {
                            prop_assert!(got.contains(&(p, x)));
                            x = op.apply(x, contribution(p));
                        }
                    }
                } else {
                    prop_assert_eq!(got, want);
                }
            }
            (Err(Error::Conflict { addr, .. }), Err(addrs)) => prop_assert!(addrs.contains(&addr)),
            (got, want) => prop_assert!(false, "{:?} vs {:?}", got, want),
        }
    }
}
