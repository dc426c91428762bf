//! The primitives' throughput in D-BSP messages (messages between distinct processors, as the
//! ledger counts them) per second, on inputs generated outside the timed loop and not checked
//! inside it: two-phase (4, 4)-routing of a random relation and 16-sorting, on n = 2^12 and
//! n = 2^16 processors. The machine and its input are built in the untimed setup.

/// mimalloc: transparent huge pages for large blocks, freed pages kept (`.cargo/config.toml`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use dbsp_hmos::prim::{RouteMsg, ksort, route_two_phase};
use dbsp_hmos::run::{Direction, Primitive, PrimitiveRun};
use netcore::ProcId;
use netcore::bsp::{BspMachine, DbspParams};
use netcore::rng::seeded;
use rand::RngExt;

type Payload = (ProcId, usize);
type RouteMachine = BspMachine<(), RouteMsg<Payload>>;
type Relation = Vec<Vec<(ProcId, Payload)>>;

fn route_input(params: &DbspParams, log_n: u32, k: u32) -> (RouteMachine, Relation) {
    let run = PrimitiveRun::new(Primitive::RouteTwoPhase, log_n, k, 1, Direction::Gather).unwrap();
    let machine = BspMachine::new(params.clone(), vec![(); 1 << log_n]).unwrap();
    (machine, run.relation(&mut seeded(1, 0)))
}

fn sort_input(params: &DbspParams, log_n: u32, k: usize) -> BspMachine<Vec<u64>, u64> {
    let mut rng = seeded(1, 0);
    let blocks: Vec<Vec<u64>> =
        (0..1 << log_n).map(|_| (0..k).map(|_| rng.random_range(0..1 << 30)).collect()).collect();
    BspMachine::new(params.clone(), blocks).unwrap()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("dbsp-primitives");
    g.measurement_time(Duration::from_secs(5)).sample_size(10);
    for log_n in [12, 16] {
        let params = DbspParams::power_law(1 << log_n, 0.5, 0.5).unwrap();
        // One untimed run gives the message count of the (deterministic) run.
        let (mut m, out) = route_input(&params, log_n, 4);
        route_two_phase(&mut m, 0, out).unwrap();
        g.throughput(Throughput::Elements(m.ledger().messages()));
        g.bench_function(format!("route_two_phase_n{}_k4", 1 << log_n), |b| {
            b.iter_batched(
                || route_input(&params, log_n, 4),
                |(mut m, out)| {
                    let routed = route_two_phase(&mut m, 0, out).unwrap();
                    black_box((routed, m))
                },
                BatchSize::LargeInput,
            );
        });
        let mut m = sort_input(&params, log_n, 16);
        ksort(&mut m, 0, |x| x, Some).unwrap();
        g.throughput(Throughput::Elements(m.ledger().messages()));
        g.bench_function(format!("ksort_n{}_k16", 1 << log_n), |b| {
            b.iter_batched(
                || sort_input(&params, log_n, 16),
                |mut m| {
                    ksort(&mut m, 0, |x| x, Some).unwrap();
                    black_box(m)
                },
                BatchSize::LargeInput,
            );
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
