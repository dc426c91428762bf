//! The BSP sorts of `SortAlgorithm` and the `bsp-sort` study: both sorts against a sequential
//! sort on random blocks, the stated supersteps against the ledger, and the study's rows on
//! hand-derived small cases.

use netcore::bsp::primitives::SortAlgorithm;
use netcore::bsp::{Bsp, BspMachine, BspParams};
use netcore::driver::studies::sort::{KeyDraw, SortParams, SortStudy};
use netcore::study::Study;
use proptest::prelude::*;

/// `p = 2^log_p` blocks of 0..=capacity keys from a small range (many duplicates).
fn blocks() -> impl Strategy<Value = (usize, Vec<Vec<u32>>)> {
    (0u32..=6, 1usize..=9).prop_flat_map(|(log_p, capacity)| {
        let block = prop::collection::vec(0u32..12, 0..=capacity);
        (Just(capacity), prop::collection::vec(block, 1usize << log_p))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Each sort leaves the sequential sort of the keys, packed from processor 0 with
    /// `capacity` keys per block (the last non-empty block holds the rest, later blocks none),
    /// in exactly the supersteps `SortAlgorithm::supersteps` states.
    #[test]
    fn sorts_like_a_sequential_sort((capacity, blocks) in blocks(), g in 0u64..4, l in 0u64..40) {
        let p = u32::try_from(blocks.len()).unwrap();
        let mut keys: Vec<u32> = blocks.concat();
        keys.sort_unstable();
        let mut expected: Vec<Vec<u32>> = keys.chunks(capacity).map(<[u32]>::to_vec).collect();
        expected.resize(blocks.len(), Vec::new());
        for sort in SortAlgorithm::ALL {
            let mut machine = BspMachine::new(BspParams::new(Bsp { p, g, l }).unwrap(), blocks.clone()).unwrap();
            sort.sort_blocks(&mut machine, capacity, "sort", |key| key, Some).unwrap();
            let (sorted, ledger) = machine.finish();
            prop_assert_eq!(&sorted, &expected, "{}", sort);
            prop_assert_eq!(ledger.supersteps() as u64, sort.supersteps(p, capacity), "{}", sort);
        }
    }
}

fn params(log_p: u32, n: u32, keys: KeyDraw) -> SortParams {
    SortParams { log_p, n, sort: SortAlgorithm::Bitonic, keys, g: 4, l: 32 }
}

/// The bitonic rows of `bsp-sort` on p = 16 (k = 4: S = 10 merge-split stages, 11 supersteps),
/// g = 4, l = 32, bound log2 16 / log2(n + 1):
/// - n = 1: w = 0 (local sort of one key) + 10 x (1 + 1) = 20; the first superstep and the
///   first 9 stages send 1 key, the last none: comm = 10 x 4 x 1 + 11 x 32 = 392; cost 412;
///   bound 4, supersteps / bound = 2.75.
/// - n = 4: w = 4 x 2 + 10 x (4 + 4) = 88; comm = 10 x 4 x 4 + 352 = 512; cost 600; bound
///   4 / log2 5 = 1.7227, supersteps / bound = 6.3853.
///
/// Duplicate-heavy keys cost the same (a merge-split charges both blocks' sizes).
#[test]
fn bitonic_rows_on_sixteen_processors() {
    let mut rows = Vec::new();
    for (n, keys) in [(1, KeyDraw::Uniform), (4, KeyDraw::Uniform), (4, KeyDraw::Duplicates)] {
        let point = SortStudy.point(&params(4, n, keys)).unwrap();
        rows.extend(SortStudy.run(&point, &mut netcore::rng::seeded(1, 0)).unwrap());
    }
    insta::assert_yaml_snapshot!(rows, {
        "[].bound" => insta::rounded_redaction(4),
        "[].steps_over_bound" => insta::rounded_redaction(4),
    });
}

/// log_p outside 4..=16 and n outside 1..=1024 are refused, naming the field, rule and value.
#[test]
fn bsp_sort_rejects_out_of_range_axes() {
    let errors: Vec<String> = [
        params(3, 1, KeyDraw::Uniform),
        params(17, 1, KeyDraw::Uniform),
        params(4, 0, KeyDraw::Uniform),
        params(4, 1025, KeyDraw::Uniform),
    ]
    .iter()
    .map(|p| SortStudy.point(p).unwrap_err().to_string())
    .collect();
    insta::assert_yaml_snapshot!(errors);
}
