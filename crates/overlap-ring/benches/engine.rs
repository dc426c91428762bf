//! Benchmarks of the engine (issue goal: a host of `n = 2^16` with heavy-tailed delays, a guest
//! run of `10^3` steps, >= 20 M pebble computations per second on one core, memory linear in
//! the held columns). Throughput is reported in pebbles (elements) per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use netcore::delay::DelayLaw;
use overlap_ring::guest::{Program, reference};
use overlap_ring::host::{Host, log_n};
use overlap_ring::overlap::C;

const N: usize = 1 << 16;
const T: u64 = 1000;

/// Pareto(alpha = 1.2) delays capped at 1000 on `n = 2^16` processors, bandwidth `L = 16`.
fn heavy_tailed_host() -> Host {
    let law = DelayLaw::Pareto { alpha: 1.2, cap: 1000 };
    Host::from_law(N, &law, log_n(N), &mut netcore::rng::seeded(7, 0)).expect("valid host")
}

fn engine(c: &mut Criterion) {
    let host = heavy_tailed_host();
    let mut group = c.benchmark_group("engine n=2^16 pareto(1.2) T=1000");
    group.sample_size(10);
    let naive = overlap_ring::naive::plan(N, N).expect("plan");
    let naive_ref = reference(&Program::Mix, N, T).expect("reference");
    group.throughput(Throughput::Elements(naive.held_total() as u64 * T));
    group.bench_function("naive b=1", |b| {
        b.iter(|| {
            overlap_ring::engine::simulate(&host, &naive, &Program::Mix, &naive_ref).expect("runs")
        })
    });
    let (plan, _) = overlap_ring::overlap::plan(&host, C::new(3, 1).expect("c"), 1).expect("plan");
    let overlap_ref = reference(&Program::Mix, plan.n_cols, T).expect("reference");
    group.throughput(Throughput::Elements(plan.held_total() as u64 * T));
    group.bench_function("overlap b=1", |b| {
        b.iter(|| {
            overlap_ring::engine::simulate(&host, &plan, &Program::Mix, &overlap_ref).expect("runs")
        })
    });
    group.finish();
}

criterion_group!(benches, engine);
criterion_main!(benches);
