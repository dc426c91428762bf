//! One PRAM step of random reads on the HMOS access protocol at n = 2^16 D-BSP processors,
//! k = k_max(n) = 5 levels and r = 3 (729 copies per variable, 64 per target set): n reads
//! of random addresses among m = n variables, culling at every level (a = 2, eps = 0.3) and
//! staged delivery (Theorem 3). The memory is built once, outside the timed loop (its cells
//! are created lazily, so an all-zero memory stores nothing); every iteration runs one
//! global step on it (the ledger grows by one step's supersteps), so the steps are warm: each
//! reuses the delivery buffers, and under mimalloc with `.cargo/config.toml`'s
//! `MIMALLOC_PURGE_DELAY = -1` the pages, of the steps before it. `benches/pram_step_cold.rs`
//! measures the step as a library user runs it.

/// mimalloc: transparent huge pages for large blocks, freed pages kept (`.cargo/config.toml`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use dbsp_hmos::hmos::k_max;
use dbsp_hmos::protocol::{HmosMemory, Selection};
use dbsp_hmos::simulation::random_reads;
use netcore::bsp::DbspParams;
use netcore::pram::GlobalMemory;

fn bench(c: &mut Criterion) {
    let n: u32 = 1 << 16;
    let k = k_max(u64::from(n));
    let params = DbspParams::power_law(n, 0.5, 0.5).unwrap();
    let selection = Selection::Cull { a: 2.0, eps: 0.3 };
    let mut memory = HmosMemory::new(params, u64::from(n), &[], 3, k, 1, selection).unwrap();
    let reads = random_reads(n, 1);
    let mut g = c.benchmark_group("dbsp-pram-step");
    g.measurement_time(Duration::from_secs(60)).sample_size(10);
    g.bench_function(format!("random_reads_n65536_k{k}_r3"), |b| {
        b.iter_batched_ref(
            || reads.clone(),
            |accesses| {
                memory.step(1, accesses);
                assert!(memory.error().is_none());
                black_box(&accesses[0]);
            },
            BatchSize::LargeInput,
        );
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
