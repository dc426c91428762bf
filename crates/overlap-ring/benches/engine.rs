//! Benchmarks of the engine. Issue goal: a host of `n = 2^16` with heavy-tailed delays and a
//! guest run of `10^3` steps, >= 20 M pebble computations per second on one core, memory
//! linear in the held columns.
//!
//! `one_shot` runs each configuration once at `T = 1000` and prints wall time, pebbles per
//! second and the growth of the peak resident set (Linux `VmHWM`) per held column; criterion
//! then measures the same hosts at `T = 100` (the engine's cost per pebble does not depend on
//! `T`: state is a window of rows, so `T = 100` keeps the ten samples affordable).

use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use netcore::delay::DelayLaw;
use overlap_ring::engine::simulate;
use overlap_ring::guest::{Program, reference};
use overlap_ring::host::{Host, log_n};
use overlap_ring::overlap::C;
use overlap_ring::plan::Plan;

const N: usize = 1 << 16;

/// Pareto(alpha = 1.2) delays capped at 1000 on `n = 2^16` processors, bandwidth `L = 16`.
fn heavy_tailed_host() -> Host {
    let law = DelayLaw::Pareto { alpha: 1.2, cap: 1000 };
    Host::from_law(N, &law, log_n(N), &mut netcore::rng::seeded(7, 0)).expect("valid host")
}

/// The plans measured: naive one-copy (`N = n`), OVERLAP (`b = 1`) and work-efficient
/// OVERLAP (`b = 16`, `b = 64`).
fn plans(host: &Host) -> Vec<(&'static str, Plan)> {
    let c = C::new(3, 1).expect("c > 2");
    vec![
        ("naive b=1", overlap_ring::naive::plan(N, N).expect("plan")),
        ("overlap b=1", overlap_ring::overlap::plan(host, c, 1).expect("plan").0),
        ("overlap b=16", overlap_ring::overlap::plan(host, c, 16).expect("plan").0),
        ("overlap b=64", overlap_ring::overlap::plan(host, c, 64).expect("plan").0),
    ]
}

/// Peak resident set in kB (0 where `/proc` is missing).
fn peak_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

fn one_shot(host: &Host) {
    for (name, plan) in plans(host) {
        let steps = 1000;
        let r = reference(&Program::Mix, plan.n_cols(), steps).expect("reference");
        let before = peak_kb();
        let start = Instant::now();
        let run = simulate(host, &plan, &Program::Mix, &r).expect("runs");
        let secs = start.elapsed().as_secs_f64();
        let pebbles = plan.held_total() as f64 * steps as f64;
        println!(
            "one-shot {name}, T = {steps}: {secs:.1} s, {:.2} M pebbles/s, host_steps = {}, verified = {}, peak RSS +{} kB ({:.0} B per held column)",
            pebbles / secs / 1e6,
            run.host_steps,
            run.verified,
            peak_kb().saturating_sub(before),
            (peak_kb().saturating_sub(before) * 1024) as f64 / plan.held_total() as f64
        );
    }
}

fn engine(c: &mut Criterion) {
    let host = heavy_tailed_host();
    if std::env::var_os("OVERLAP_BENCH_ONE_SHOT").is_some() {
        one_shot(&host);
    }
    let steps = 100;
    let mut group = c.benchmark_group("engine n=2^16 pareto(1.2, cap 1000) T=100");
    group.sample_size(10);
    for (name, plan) in plans(&host) {
        let r = reference(&Program::Mix, plan.n_cols(), steps).expect("reference");
        group.throughput(Throughput::Elements(plan.held_total() as u64 * steps));
        group.bench_function(name, |b| {
            b.iter(|| simulate(&host, &plan, &Program::Mix, &r).expect("runs"))
        });
    }
    group.finish();
}

criterion_group!(benches, engine);
criterion_main!(benches);
