//! The actor runtime's hot path: a token ring (1024 serialized actors, 256 tokens of 4096
//! hops each: 2^20 events) under FIFO, random and depth order, and the direct translation of
//! bitonic sort on 256 values (205,568 events, the reference run and setup included).
//! Throughput is reported as events per second (the issue asks for >= 10 M events/s).

use std::hint::black_box;
use std::time::Duration;

use actor_pram::actor::{ActorError, ActorId, Behaviour, Ctx, Limits, Runtime, Scheduler};
use actor_pram::direct::simulate_direct;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use netcore::pram::library::Algorithm;

struct Hop {
    next: ActorId,
}

impl Behaviour for Hop {
    type Msg = u32;
    type Env = ();
    fn handle(&mut self, _: &(), ctx: &mut Ctx<'_, Self>, left: u32) -> Result<(), ActorError> {
        if left > 0 {
            ctx.send(self.next, left - 1);
        }
        Ok(())
    }
    fn state_words(&self) -> u64 {
        1
    }
}

const ACTORS: u32 = 1024;
const TOKENS: u32 = 256;
const HOPS: u32 = 4096;

fn ring(scheduler: Scheduler) -> u64 {
    let mut rt = Runtime::new(scheduler, Limits::default());
    for i in 0..ACTORS {
        let next = ActorId((i + 1) % ACTORS);
        rt.spawn(Hop { next }, &[next]).expect("spawn");
    }
    for t in 0..TOKENS {
        rt.inject(ActorId(t * (ACTORS / TOKENS)), HOPS - 1).expect("inject");
    }
    rt.run(&()).expect("run").events
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("actor-runtime");
    g.measurement_time(Duration::from_secs(3)).sample_size(10);
    g.throughput(Throughput::Elements(u64::from(TOKENS) * u64::from(HOPS)));
    for (name, s) in [
        ("ring_fifo", Scheduler::Fifo),
        ("ring_random", Scheduler::Random { seed: 1 }),
        ("ring_depth_order", Scheduler::DepthOrder),
    ] {
        g.bench_function(name, |b| b.iter(|| black_box(ring(s))));
    }
    let instance = Algorithm::BitonicSort.instance(256, 1).expect("instance");
    let events = simulate_direct(
        &instance.program,
        &instance.input,
        Scheduler::Fifo,
        &netcore::pram::Limits::default(),
    )
    .expect("run")
    .actor
    .events;
    g.throughput(Throughput::Elements(events));
    g.bench_function("direct_bitonic_256", |b| {
        b.iter(|| {
            black_box(
                simulate_direct(
                    &instance.program,
                    &instance.input,
                    Scheduler::Fifo,
                    &netcore::pram::Limits::default(),
                )
                .expect("run"),
            )
        });
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
