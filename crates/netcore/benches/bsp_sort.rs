//! The BSP sorts of `SortAlgorithm` on the engine (run with `cargo bench -p netcore --bench
//! bsp_sort`): each sort of `N = n p` random 64-bit keys, `n = 64` per processor, on a fresh
//! machine per iteration (the setup, drawing nothing, is not timed).
//!
//! - `bsp_sort/{bitonic,cascade}_p1024_n64`: p = 2^10, for quick iteration.
//! - `bsp_sort/{bitonic,cascade}_p65536_n64`: p = 2^16, N = 2^22 keys.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use netcore::bsp::primitives::SortAlgorithm;
use netcore::bsp::{Bsp, BspMachine, BspParams};
use rand::RngExt;

const N: usize = 64;

fn bsp_sort(c: &mut Criterion) {
    let mut group = c.benchmark_group("bsp_sort");
    group.sample_size(10);
    for log_p in [10u32, 16] {
        let p = 1u32 << log_p;
        let mut rng = netcore::rng::seeded(3, u64::from(log_p));
        let blocks: Vec<Vec<u64>> =
            (0..p).map(|_| (0..N).map(|_| rng.random::<u64>()).collect()).collect();
        group.throughput(Throughput::Elements(u64::from(p) * N as u64));
        for sort in SortAlgorithm::ALL {
            group.bench_function(format!("{sort}_p{p}_n{N}"), |b| {
                b.iter_batched(
                    || {
                        let params = BspParams::new(Bsp { p, g: 4, l: 32 }).expect("valid");
                        BspMachine::<Vec<u64>, u64>::new(params, blocks.clone()).expect("valid")
                    },
                    |mut machine| {
                        sort.sort_blocks(&mut machine, N, "sort", |key| key, Some).expect("sorts");
                        black_box(machine.cost())
                    },
                    BatchSize::PerIteration,
                )
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bsp_sort);
criterion_main!(benches);
