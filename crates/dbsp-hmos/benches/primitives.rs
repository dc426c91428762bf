//! The primitives' hot paths on n = 2^12 processors: two-phase (4, 4)-routing of a random
//! relation (16384 messages, 114 supersteps) and 16-sorting (65536 keys, 78 supersteps).
//! Throughput is reported as items (messages or keys) per second.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dbsp_hmos::run::{Direction, Primitive, PrimitiveRun};
use netcore::bsp::DbspParams;
use netcore::rng::seeded;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("dbsp-primitives");
    g.measurement_time(Duration::from_secs(3)).sample_size(10);
    let params = DbspParams::power_law(1 << 12, 0.5, 0.5).unwrap();
    for (name, primitive, k) in [
        ("route_two_phase_n4096_k4", Primitive::RouteTwoPhase, 4),
        ("ksort_n4096_k16", Primitive::Ksort, 16),
    ] {
        let run = PrimitiveRun::new(primitive, 12, k, 1, Direction::Gather).unwrap();
        g.throughput(Throughput::Elements(u64::from(k) << 12));
        g.bench_function(name, |b| {
            b.iter(|| {
                let (ledger, ok) = run.execute(&params, &mut seeded(1, 0)).unwrap();
                assert!(ok);
                black_box(ledger)
            });
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
