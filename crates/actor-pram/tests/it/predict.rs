//! Definition 3: the static predictability test.

use actor_pram::predict::predictability;
use netcore::pram::library::Algorithm;

/// Prefix sums, bitonic sort, tree reduction, broadcasting, the fetch-and-add counter and
/// the NTT compute every address from pids and CPU counters: accepted. List ranking (pointer
/// jumping) reads `r1 := succ[pid]` at pc 4 and then reads `[r1+8]` at pc 7 (line 13 of
/// `fixtures/pram/list-ranking.pasm`): rejected there. The permutation programs read the
/// permutation from memory and then use it as an address: rejected too. Matrix-vector and the
/// hot spot use only pids and counters: accepted.
#[test]
fn library_predictability() {
    let mut rows = Vec::new();
    for a in Algorithm::ALL {
        let p = a.instance(8, 1).unwrap().program;
        rows.push(match predictability(&p) {
            Ok(()) => format!("{}: predictable", a.name()),
            Err(u) => format!("{}: unpredictable at pc {}: {}", a.name(), u.pc, u.reason),
        });
    }
    insta::assert_yaml_snapshot!(rows);
    let list = Algorithm::ListRanking.instance(8, 1).unwrap().program;
    assert_eq!(predictability(&list).unwrap_err().pc, 7);
    for a in [Algorithm::PrefixSums, Algorithm::BitonicSort] {
        assert!(predictability(&a.instance(8, 1).unwrap().program).is_ok());
    }
}
