//! The lockstep reference router on the levelled virtual network: the exact cases.

use actor_pram::ranade::LockstepRouter;

/// Empty pass: level l closes at round l in the forward pass (level 0 has only its empty
/// injection queue; level l receives Eos from level l - 1 at round l), and at round L - l in
/// the reverse pass, so R_fwd = R_rev = L + 1 = 3n - 1: 5, 8, 11 for n = 2, 3, 4.
#[test]
fn empty_pass() {
    for (n, want) in [(2u32, 5u64), (3, 8), (4, 11)] {
        for b in [1, 2] {
            let s = LockstepRouter::new(n, b, true).unwrap().read_pass(&[], &[]).unwrap();
            assert_eq!((s.r_fwd, s.r_rev), (want, want), "n = {n}, b = {b}");
        }
    }
}

/// n = 2, b = 1, identity placement: PPU 0 at <0,0> reads address 7 (router <1,3>). Route
/// X -> (1,1), X -> (2,3), S -> (3,3), exit at level 3 in round 3; the Eos behind the packet
/// is one round late, so level 3 closes at round 4 and the top level (L = 4) at round 5:
/// R_fwd = 6. Reverse: (3,3) replies at round 0, (2,3) at 1, (1,1) at 2, PPU 0 gets it at
/// round 3; (0,0) closes at round 4 when the Eos from (1,1) arrives: R_rev = 5.
#[test]
fn single_read() {
    let mem: Vec<i64> = (0..8).map(|x| 100 + x).collect();
    let s = LockstepRouter::new(2, 1, true).unwrap().read_pass(&[(0, 7)], &mem).unwrap();
    assert_eq!(s.exits, vec![(vec![0], 3, 3, 3)]);
    assert_eq!((s.r_fwd, s.r_rev), (6, 5));
    assert_eq!(s.deliveries, vec![(0, 3, 107)]);
}

/// n = 2, b = 1: all 8 PPUs read address 5 (router <1,2>), combining. PPUs 4 (S), 6 (X) and
/// 5 (injection) combine at (1,2) and exit at round 1; 0 (S), 2 (X), 1 (I) at (1,0); 7 and 3
/// at (2,3); both meet at (3,2) and exit at round 3. Combines 2 + 2 + 1 + 1 = 6, host
/// arrivals 2 (8 = 2 + 6), R_fwd = 6, R_rev = 5; deliveries (pid:round) 5:0, 4:1, 6:1, 1:2,
/// 3:2, 7:2, 0:3, 2:3. Without combining (tag = pid): 8 arrivals and, from the prototype,
/// R_fwd = 13, R_rev = 12.
#[test]
fn hot_spot() {
    let mem: Vec<i64> = (0..8).map(|x| 100 + x).collect();
    let reads: Vec<(u32, u32)> = (0..8).map(|p| (p, 5)).collect();
    let s = LockstepRouter::new(2, 1, true).unwrap().read_pass(&reads, &mem).unwrap();
    let got: Vec<String> = s.deliveries.iter().map(|(p, r, _)| format!("{p}:{r}")).collect();
    let exits: Vec<String> =
        s.exits.iter().map(|(p, l, r, t)| format!("{p:?} at ({l},{r}) round {t}")).collect();
    let plain = LockstepRouter::new(2, 1, false).unwrap().read_pass(&reads, &mem).unwrap();
    insta::assert_yaml_snapshot!(serde_json::json!({
        "combining": {
            "r_fwd": s.r_fwd, "r_rev": s.r_rev, "combines": s.combines, "arrivals": s.arrivals,
            "max_occupancy": s.max_occupancy, "exits": exits, "deliveries": got,
        },
        "no_combining": {
            "r_fwd": plain.r_fwd, "r_rev": plain.r_rev, "combines": plain.combines,
            "arrivals": plain.arrivals, "max_occupancy": plain.max_occupancy,
        },
    }));
    assert_eq!((s.r_fwd, s.r_rev, s.combines, s.arrivals), (6, 5, 6, 2));
    assert_eq!(got, ["5:0", "4:1", "6:1", "1:2", "3:2", "7:2", "0:3", "2:3"]);
    assert_eq!((plain.r_fwd, plain.r_rev, plain.arrivals), (13, 12, 8));
    assert!(s.deliveries.iter().all(|d| d.2 == 105));
    assert!(plain.deliveries.iter().all(|d| d.2 == 105) && plain.deliveries.len() == 8);
}
