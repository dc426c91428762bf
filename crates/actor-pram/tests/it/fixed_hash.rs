//! A published placement (Choice 21): `hash = { fixed = ... }` places every address the same
//! way whatever the seed, and a seeded run's `hash_used` copied into a config reproduces its
//! placement.

use actor_pram::driver::ActorPram;
use netcore::study::{ConfigFile, Model};
use serde_json::Value;

const FIXTURE: &str = "../../fixtures/actor-pram/fixed-hash-prefix-sums-8.toml";

fn run(text: &str) -> Value {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    ActorPram.run_config(&ConfigFile::new(text, dir)).expect("the run succeeds").report
}

/// `(address, router)` pairs of a report's `address_routers`.
fn routers(report: &Value) -> Vec<(u64, u64)> {
    report["network"]["address_routers"]
        .as_array()
        .expect("report_routers lists the addresses")
        .iter()
        .map(|e| (e["address"].as_u64().expect("address"), e["router"].as_u64().expect("router")))
        .collect()
}

fn fixture() -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(dir.join(FIXTURE)).expect("fixture readable")
}

/// The fixture twice, and with hash seeds 5 and 77: the same routers, equal to the
/// polynomial by hand (`h(a) = ((a^2 + 2a + p - 1) mod p) mod 8`, `p = 2^32 + 15`):
/// `h(0) = (2^32 + 14) mod 8 = 6`, `h(1) = (p + 2) mod p = 2`, `h(2) = 7`, `h(3) = 14 mod 8 = 6`,
/// `h(4) = 23 mod 8 = 7`, `h(5) = 34 mod 8 = 2`, `h(6) = 47 mod 8 = 7`, `h(7) = 62 mod 8 = 6`
/// (`a^2 + 2a - 1` for `a >= 1`, far below `p`). The seed reaches the ranks only, so the rounds may differ.
#[test]
fn fixed_hash_routers_do_not_depend_on_the_seed() {
    let text = fixture();
    let first = run(&text);
    let again = run(&text);
    let reseeded = run(&text.replace("hash_seed = 5", "hash_seed = 77"));
    assert_ne!(reseeded["network"]["hash_seed"], first["network"]["hash_seed"]);
    let r = routers(&first);
    assert_eq!(r, routers(&again));
    assert_eq!(r, routers(&reseeded));
    assert_eq!(r.iter().map(|&(a, _)| a).collect::<Vec<_>>(), (0..8).collect::<Vec<_>>());
    for (a, h) in [(0, 6), (1, 2), (2, 7), (3, 6), (4, 7), (5, 2), (6, 7), (7, 6)] {
        assert_eq!(r[a as usize], (a, h), "h({a})");
    }
    let used = &first["network"]["hash_used"]["fixed"];
    assert_eq!(used["modulus"], 4_294_967_311u64);
    assert_eq!(used["coefficients"], serde_json::json!([4_294_967_310u64, 2, 1]));
}

/// A seeded run's `hash_used`, written as `hash = { fixed = ... }`, places every address as
/// the seeded run did (at another hash seed too).
#[test]
fn seeded_hash_copied_into_a_config_reproduces_the_placement() {
    let seeded =
        fixture().lines().filter(|l| !l.starts_with("hash = ")).collect::<Vec<_>>().join("\n");
    let drawn = run(&seeded);
    let used = &drawn["network"]["hash_used"]["fixed"];
    // Drawn over 2^61 - 1 with k = max(2, ceil(log2 8)) = 3 coefficients.
    assert_eq!((used["degree"].as_u64(), used["modulus"].as_u64()), (Some(2), Some((1 << 61) - 1)));
    let fixed = seeded.replace(
        "hash_seed = 5",
        &format!(
            "hash_seed = 77\nhash = {{ fixed = {{ degree = {}, modulus = {}, coefficients = {} }} }}",
            used["degree"], used["modulus"], used["coefficients"]
        ),
    );
    let copied = run(&fixed);
    assert_eq!(routers(&copied), routers(&drawn));
    assert_eq!(&copied["network"]["hash_used"], &drawn["network"]["hash_used"]);
}

/// Without `report_routers` the report has no `address_routers` nor `addresses_accessed`;
/// `hash_used` is always there.
#[test]
fn routers_only_on_request() {
    let report = run(&fixture().replace("report_routers = true", ""));
    assert!(report["network"].get("address_routers").is_none());
    assert!(report["network"].get("addresses_accessed").is_none());
    assert!(report["network"].get("hash_used").is_some());
}

/// `address_routers` is bounded: 8 PPUs read 8 new cells per global step, 520 steps, so 4160
/// addresses (0..=4159) are accessed; the report counts all of them and lists the lowest
/// `MAX_ADDRESS_ROUTERS` = 4096 (addresses 0..=4095), each at router `a mod 8` (identity
/// placement, `n = 2`: `N = 8`). The placement used is reported as `identity`.
#[test]
fn address_routers_are_bounded() {
    use actor_pram::butterfly::{ButterflyConfig, MAX_ADDRESS_ROUTERS, simulate_butterfly};
    use actor_pram::hash::HashFamily;
    let text = "\
.variant erew
.mem 4160
.ppus 8
.lmem 0
    set c0,0
    set c1,4160
    active 8
loop:
    p.pid r0
    p.bcast r1,c0
    p.op add r2,r0,r1
    p.read r3,[r2]
    op add c0,c0,8
    op lt c2,c0,c1
    jnz c2,loop
    halt
";
    let program = netcore::pram::Program::parse(text).expect("the program parses");
    let config = ButterflyConfig {
        dim: Some(2),
        hash: HashFamily::Identity,
        report_routers: true,
        ..ButterflyConfig::default()
    };
    let r = simulate_butterfly(&program, &[], &config, &netcore::pram::Limits::default())
        .expect("the run succeeds");
    assert!(r.verified);
    assert_eq!(r.passes, 520);
    assert_eq!(r.hash_used, HashFamily::Identity);
    assert_eq!(r.addresses_accessed, Some(4160));
    let listed = r.address_routers.expect("on request");
    assert_eq!(listed.len(), MAX_ADDRESS_ROUTERS);
    assert!(listed.iter().zip(0u32..).all(|(e, a)| e.address == a && e.router == a % 8));
}
