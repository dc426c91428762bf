//! Hot paths of the shared engines (run with `cargo bench -p netcore`).
//!
//! - `event_queue/hold_1e6`: the classic hold model: 10^6 pending events; each operation pops
//!   the earliest event and pushes one a random delay later. Goal: >= 10 M operations/s.
//! - `event_queue/wheel_hold_1e6`: the same hold model on a `TimingWheel` over a short
//!   horizon (delays 1..=1000, as link delays are), taken a whole step at a time.
//! - `bsp/random_h_relation_p65536`: one superstep on p = 2^16 processors in which each
//!   processor sends h = 16 messages to random destinations. Goal: >= 20 M messages/s.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use netcore::bsp::{Bsp, BspMachine, BspParams};
use netcore::event::{EventQueue, TimingWheel};
use rand::RngExt;

const PENDING: usize = 1_000_000;
const HOLDS: u64 = 1_000_000;

fn event_queue(c: &mut Criterion) {
    let mut rng = netcore::rng::seeded(1, 0);
    let mut queue = EventQueue::with_capacity(PENDING + 1);
    for i in 0..PENDING {
        queue.push(rng.random_range(0..1_000_000u64), i as u32);
    }
    let delays: Vec<u64> = (0..HOLDS).map(|_| rng.random_range(1..1_000_000u64)).collect();
    let mut group = c.benchmark_group("event_queue");
    group.throughput(Throughput::Elements(HOLDS));
    group.sample_size(10);
    group.bench_function("hold_1e6", |b| {
        b.iter(|| {
            for &delay in &delays {
                let (time, event) = queue.pop().expect("queue holds 10^6 events");
                queue.push(time + delay, black_box(event));
            }
        })
    });
    const SPAN: u64 = 1000;
    let mut wheel = TimingWheel::new(SPAN as usize);
    for i in 0..PENDING {
        wheel.push(0, rng.random_range(1..=SPAN), i as u32);
    }
    let delays: Vec<u64> = (0..HOLDS).map(|_| rng.random_range(1..=SPAN)).collect();
    let mut batch = Vec::new();
    group.bench_function("wheel_hold_1e6", |b| {
        b.iter(|| {
            let mut holds = 0;
            while holds < delays.len() {
                let now = wheel.next_due().expect("wheel holds 10^6 events");
                wheel.drain_due(now, &mut batch);
                for event in batch.drain(..) {
                    wheel.push(now, now + delays[holds % delays.len()], black_box(event));
                    holds += 1;
                }
            }
        })
    });
    group.finish();
}

fn bsp_h_relation(c: &mut Criterion) {
    const P: u32 = 1 << 16;
    const H: usize = 16;
    let mut rng = netcore::rng::seeded(2, 0);
    let destinations: Vec<Vec<u32>> =
        (0..P).map(|_| (0..H).map(|_| rng.random_range(0..P)).collect()).collect();
    let mut group = c.benchmark_group("bsp");
    group.throughput(Throughput::Elements(u64::from(P) * H as u64));
    group.sample_size(10);
    group.bench_function("random_h_relation_p65536", |b| {
        b.iter_batched(
            || {
                BspMachine::<(), u64>::new(
                    BspParams::new(Bsp { p: P, g: 1, l: 1 }).expect("valid"),
                    vec![(); P as usize],
                )
                .expect("valid")
            },
            |mut machine| {
                machine
                    .superstep("route", |ctx, _| {
                        for &dest in &destinations[ctx.pid() as usize] {
                            ctx.send(dest, u64::from(dest));
                        }
                    })
                    .expect("destinations are valid");
                black_box(machine.cost())
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, event_queue, bsp_h_relation);
criterion_main!(benches);
