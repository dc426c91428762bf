//! The PRAM step of `benches/pram_step.rs` as a library user runs it: the system allocator
//! with its default settings (this bench declares no global allocator, and glibc's malloc
//! reads nothing from `.cargo/config.toml`) and a fresh machine per step, built in
//! criterion's untimed setup, so every delivery buffer and scratch vector of the step is
//! allocated and its pages faulted in inside the timed routine, as in a process that runs
//! one step (`examples/pram_step.rs`). n = 2^16 reads of random addresses among m = n
//! variables, k = k_max(n) = 5 levels, r = 3, culling at every level (a = 2, eps = 0.3,
//! Lemma 3) and staged delivery (Theorem 3). The machine is dropped outside the timing.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, SamplingMode, criterion_group, criterion_main};
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
    let reads = random_reads(n, 1);
    let mut g = c.benchmark_group("dbsp-pram-step");
    // Ten samples of one step each (criterion's least; flat sampling, so not 1 + 2 + ... + 10
    // steps), after one warm-up step.
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    g.warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(60));
    g.bench_function(format!("cold_random_reads_n65536_k{k}_r3"), |b| {
        b.iter_batched(
            || {
                let memory = HmosMemory::new(params.clone(), u64::from(n), &[], 3, k, 1, selection);
                (memory.unwrap(), reads.clone())
            },
            |(mut memory, mut accesses)| {
                memory.step(1, &mut accesses);
                assert!(memory.error().is_none());
                black_box(&accesses[0]);
                memory
            },
            BatchSize::PerIteration,
        );
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
