//! GOAL schedules in LogGOPSim-compatible mode (issues 4, 16): binomial broadcast on p = 2^20 and
//! dissemination on p = 2^16 (goals: >= 5 M events/s on one core, < 200 bytes per pending
//! operation), linear all-to-all on p = 1024 (goal: < 10 s; issue 41: 0.6 s for the whole process).
//!
//! Group `goal-file`: issue 16's whole task on the first two (read the GOAL file written to the
//! temporary directory, parse, simulate with L = 2500, o = 1500, g = 1000; goal: 10x
//! LogGOPSim's txt2bin plus simulation, `docs/models/logp-stall.md` quotes both).
//!
//! Group `alltoall` (issue 41): the engine alone on linear all-to-all at p = 64, 128, ..., 1024
//! (L = 10, o = 2, g = 1), throughput in operations: LogGOPSim puts about `p^3` blocked entries
//! back, the engine moves them a bucket at a time, so its time grows as the `2p(p-1)`
//! operations (`docs/models/logp-stall.md`, benchmarks, quotes the exponent).
//!
//! Besides criterion's timings, each case prints one line with the events handled per second
//! of a single run and the engine's bytes per operation (schedule + engine arrays + peak event
//! queue, see `LogGopsRun::bytes_per_op`).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use logp_stall::goal::{
    LogGopsParams, binomial_broadcast, dissemination, linear_alltoall, parse, parse_file,
    run_loggops,
};

fn cases() -> Vec<(&'static str, String)> {
    vec![
        ("binomial-bcast-p2^20", binomial_broadcast(1 << 20, 8).expect("valid p")),
        ("dissemination-p2^16", dissemination(1 << 16, 8).expect("valid p")),
        ("alltoall-linear-p1024", linear_alltoall(1024, 8).expect("valid p")),
    ]
}

fn bench(c: &mut Criterion) {
    let prm = LogGopsParams { latency: 10, o: 2, gap: 1, ..LogGopsParams::LOGGOPSIM };
    let mut group = c.benchmark_group("loggops");
    group.sample_size(10).measurement_time(Duration::from_secs(8));
    for (name, text) in cases() {
        let t0 = Instant::now();
        let schedule = parse(&text).expect("generated GOAL parses");
        let parse_time = t0.elapsed();
        let t1 = Instant::now();
        let run = run_loggops(&schedule, prm).expect("runs");
        let run_time = t1.elapsed();
        eprintln!(
            "{name}: {} ops, {} events in {:.3} s = {:.2} M events/s ({:.2} M ops/s), \
             {:.1} bytes/op, peak queue {} events, makespan {}; parse {:.3} s ({} MB of GOAL)",
            run.ops,
            run.events,
            run_time.as_secs_f64(),
            run.events as f64 / run_time.as_secs_f64() / 1e6,
            run.ops as f64 / run_time.as_secs_f64() / 1e6,
            run.bytes_per_op,
            run.peak_events,
            run.makespan,
            parse_time.as_secs_f64(),
            text.len() / 1_000_000,
        );
        group.throughput(Throughput::Elements(run.events));
        group.bench_function(name, |b| {
            b.iter(|| run_loggops(black_box(&schedule), prm).expect("runs").makespan)
        });
    }
    group.finish();
}

fn bench_file(c: &mut Criterion) {
    let prm = LogGopsParams { latency: 2500, o: 1500, gap: 1000, ..LogGopsParams::LOGGOPSIM };
    let dir = std::env::temp_dir().join(format!("logp-stall-goal-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let mut group = c.benchmark_group("goal-file");
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    for (name, text) in cases().into_iter().take(2) {
        let path = dir.join(format!("{name}.goal"));
        std::fs::write(&path, text).expect("written");
        group.bench_function(name, |b| {
            b.iter(|| {
                let schedule = parse_file(black_box(&path)).expect("parses");
                run_loggops(&schedule, prm).expect("runs").makespan
            })
        });
    }
    group.finish();
    std::fs::remove_dir_all(&dir).expect("removed");
}

fn bench_alltoall(c: &mut Criterion) {
    let prm = LogGopsParams { latency: 10, o: 2, gap: 1, ..LogGopsParams::LOGGOPSIM };
    let mut group = c.benchmark_group("alltoall");
    group.sample_size(10).measurement_time(Duration::from_secs(5));
    for p in [64, 128, 256, 512, 1024] {
        let schedule = parse(&linear_alltoall(p, 8).expect("valid p")).expect("parses");
        group.throughput(Throughput::Elements(schedule.n_ops() as u64));
        group.bench_function(BenchmarkId::new("linear", p), |b| {
            b.iter(|| run_loggops(black_box(&schedule), prm).expect("runs").makespan)
        });
    }
    group.finish();
}

criterion_group!(benches, bench_file, bench, bench_alltoall);
criterion_main!(benches);
