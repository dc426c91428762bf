//! The PRAM core: the paper's worked example, and bad input as typed errors.

use netcore::pram::{Limits, Program, library, run};

/// The paper's prefix-sum example (`.variant erew`, `.mem 8`, `.ppus 8`, input 1..8).
///
/// Hand derivation: 3 setup instructions (`set`, `set`, `active`); the loop body has 12
/// instructions (9 parallel, then `op shl`, `op lt`, `jnz`) and runs for c0 = 1, 2, 4 (after
/// the third pass c0 = 8 is not < 8), so T = 3 + 3 * 12 + 1 (halt) = 40. Every parallel
/// instruction runs with nact = 8: S = 8 and W = 3 * 9 * 8 = 216. Each pass has three global
/// instructions (two `p.read`, one `p.write`): G = 9. After pass 1 the memory holds the sums of
/// windows of 2, after pass 2 of 4, after pass 3 the prefix sums 1, 3, 6, 10, 15, 21, 28, 36.
#[test]
fn prefix_sums_example() {
    let prefix = library::prefix_sums(8);
    let done = run(&prefix.program, &prefix.input, &Limits::default()).unwrap();
    assert_eq!(done.memory, vec![1, 3, 6, 10, 15, 21, 28, 36]);
    assert_eq!((done.cost.t, done.cost.s, done.cost.g, done.cost.w), (40, 8, 9, 216));
    insta::assert_yaml_snapshot!(serde_json::json!({
        "program": prefix.program.to_string(),
        "cost": done.cost,
        "memory": done.memory,
    }));
    assert_eq!(Program::parse(&prefix.program.to_string()).unwrap(), prefix.program);
}
