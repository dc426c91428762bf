//! Benchmarks of the hot path: the event-driven host engine running naive and OVERLAP plans.

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

fn overlap(c: &mut Criterion) {
    let mut delays = vec![1; 255];
    delays[127] = 100;
    let host = Host::new(256, delays, 8).expect("valid host");
    let cc = overlap_ring::overlap::C::new(3, 1).expect("c > 2");
    c.bench_function("overlap n=256 D=100 T=64", |b| {
        b.iter(|| overlap_ring::overlap::simulate(&host, cc, &Program::Mix, 64).expect("runs"))
    });
}

criterion_group!(benches, naive, overlap);
criterion_main!(benches);
