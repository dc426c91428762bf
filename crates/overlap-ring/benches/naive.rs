//! Benchmark of the hot path: the event-driven host engine running the naive simulation.

use criterion::{Criterion, criterion_group, criterion_main};
use overlap_ring::guest::Program;
use overlap_ring::host::Host;

fn naive(c: &mut Criterion) {
    let delays: Vec<u32> = (0..63).map(|i| 1 + (i % 5)).collect();
    let host = Host::new(64, delays, 6).expect("valid host");
    c.bench_function("naive n=64 N=256 T=64", |b| {
        b.iter(|| overlap_ring::naive::simulate(&host, &Program::Mix, 256, 64).expect("runs"))
    });
}

criterion_group!(benches, naive);
criterion_main!(benches);
