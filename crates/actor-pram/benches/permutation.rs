//! A permutation read with `S = N` on the wrapped butterfly of dimension 12 (`N = 49,152`
//! routers, 143,360 virtual nodes; `2^12` rows with 12 packets per row, the load matched
//! with BookSim2's in the model page's comparison (Section 5, Ranade's routing); polynomial
//! placement, ranked keys, b = 2, seed 1) through
//! the lockstep router (with the slot digest and without) and through actors (one actor per
//! virtual node, host and PPU, FIFO).
//! Throughput is in link slots (one edge in one round carrying a packet, ghost, end of
//! stream or reply; 14,869,459 for this pass). Peak memory is measured by the example
//! `route_permutation` (`VmHWM`), since criterion's process holds both runs.

use std::hint::black_box;
use std::time::Duration;

use actor_pram::actor::Scheduler;
use actor_pram::hash::{HashFamily, KeyOrder};
use actor_pram::ranade::LockstepRouter;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::seq::SliceRandom;

const N_DIM: u32 = 12;

fn bench(c: &mut Criterion) {
    let router = LockstepRouter::new(N_DIM, 2, true)
        .and_then(|r| r.with_hashing(&HashFamily::Poly, KeyOrder::Ranked, 1))
        .expect("router");
    let nn = router.routers();
    let mut perm: Vec<u32> = (0..nn).collect();
    perm.shuffle(&mut netcore::rng::seeded(1, 1));
    let reads: Vec<(u32, u32)> = (0..nn).zip(perm.iter().copied()).collect();
    let memory: Vec<i64> = (0..i64::from(nn)).collect();
    let (_, digest) = router.read_pass_traced(&reads, &memory).expect("pass");
    let mut g = c.benchmark_group("permutation-n12");
    g.sample_size(10).measurement_time(Duration::from_secs(60));
    g.throughput(Throughput::Elements(digest.count));
    g.bench_function("lockstep", |b| {
        b.iter(|| black_box(router.read_pass_traced(&reads, &memory).expect("pass")))
    });
    // The pass as a program that wants only the values runs it: no slot digest (Property
    // 1's check), the example's `lockstep-plain`.
    g.bench_function("lockstep_plain", |b| {
        b.iter(|| black_box(router.read_pass(&reads, &memory).expect("pass")))
    });
    g.bench_function("actors_fifo", |b| {
        b.iter(|| {
            black_box(router.actor_read_pass(&reads, &memory, Scheduler::Fifo).expect("pass"))
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
