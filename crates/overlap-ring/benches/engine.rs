//! Benchmarks of the two engines (issue goal: a host of `n = 2^16` with Pareto(1.2) delays
//! capped at 1000 and a guest run of `T = 1000` steps, verification on, >= 20 M pebble
//! computations per second on one core and >= 1.7x that on two threads; memory linear in the
//! held columns).
//!
//! `OVERLAP_BENCH_ONE_SHOT=naive` (or `overlap`) instead runs that `b = 1` plan once per engine
//! and prints wall time, CPU time (this thread and the whole process), pebbles per second and
//! the growth of the peak resident set (Linux `VmHWM`) per held column: the row-sweep engine on
//! one and two threads at `T = 1000` (on two threads, each range's wall, CPU and waiting time),
//! then the event engine at `T = 100`. `OVERLAP_BENCH_THREADS` chooses those runs instead, in
//! order (a comma-separated list of thread counts, `0` for the event engine; repeats allowed,
//! e.g. `1,2,1,2,1,2` for back-to-back pairs; default `1,2,0`). Before each two-thread run a
//! control line gives the speed-up the machine allows at that moment to two threads of
//! independent work (on a shared machine the engine's ratio can be no better). Criterion measures
//! the row-sweep engine at `T = 1000` on one and two threads, and the event engine at
//! `T = 100` (its cost per pebble does not depend on `T`: state is a window of rows).

use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use netcore::delay::DelayLaw;
use overlap_ring::engine::fast::{self, ThreadProfile, thread_cpu};
use overlap_ring::engine::{HostRun, simulate_event_driven};
use overlap_ring::guest::{Program, Reference, reference};
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

/// The row-sweep engine on `threads` threads with each thread's profile (0: the event engine,
/// no profile).
fn run(
    host: &Host,
    plan: &Plan,
    r: &Reference<u64>,
    threads: usize,
) -> (HostRun, Vec<ThreadProfile>) {
    if threads == 0 {
        (simulate_event_driven(host, plan, &Program::Mix, r).expect("runs"), Vec::new())
    } else {
        fast::simulate_profiled(host, plan, &Program::Mix, r, threads)
            .expect("row-sweep engine covers it")
    }
}

/// CPU time of the whole process in seconds (Linux `/proc/self/stat` utime + stime at the usual
/// 100 ticks per second, threads that have exited included; 0 where missing).
fn process_cpu() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let after = s.rsplit_once(')')?.1;
            let f: Vec<f64> = after.split_whitespace().filter_map(|v| v.parse().ok()).collect();
            Some((f.get(10)? + f.get(11)?) / 100.0)
        })
        .unwrap_or(0.0)
}

/// A fixed amount of integer work (about 0.2 s of CPU on this machine); returns a value so that
/// it is not optimised away.
fn busy() -> u64 {
    let mut x = 1u64;
    for i in 0..150_000_000u64 {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
    }
    x
}

/// The speed-up the machine allows right now to two threads that never wait for each other: the
/// wall time of two units of [`busy`] on this thread over that of one unit on each of two threads.
/// On a shared machine (Linux shares CPU time fairly between sessions, not threads) this is the
/// ceiling for the engine's two-thread speed-up measured next to it.
fn ceiling() {
    let start = Instant::now();
    std::hint::black_box((busy(), busy()));
    let one = start.elapsed().as_secs_f64();
    let start = Instant::now();
    std::thread::scope(|s| {
        let other = s.spawn(busy);
        std::hint::black_box((busy(), other.join().expect("a thread of busy work")));
    });
    let two = start.elapsed().as_secs_f64();
    println!(
        "control: two units of independent work take {one:.2} s on one thread, {two:.2} s on two ({:.2}x: the speed-up the machine allows now)",
        one / two
    );
}

/// One run per engine of the plan named `which` ("naive" or "overlap", `b = 1`), built alone in
/// this process so that the first run's peak-RSS growth is the engine's memory.
fn one_shot(host: &Host, which: &str) {
    let Some((name, plan)) = plans(host).into_iter().find(|(name, _)| name.starts_with(which))
    else {
        println!("OVERLAP_BENCH_ONE_SHOT must be naive or overlap (got {which:?})");
        return;
    };
    let list = std::env::var("OVERLAP_BENCH_THREADS").unwrap_or_else(|_| "1,2,0".into());
    let Ok(runs) =
        list.split(',').map(|k| k.trim().parse::<usize>()).collect::<Result<Vec<_>, _>>()
    else {
        println!("OVERLAP_BENCH_THREADS must list thread counts such as 1,2,0 (got {list:?})");
        return;
    };
    for threads in runs {
        if threads == 2 {
            ceiling();
        }
        // The event engine at T = 100: its cost per pebble does not depend on T.
        let steps = if threads == 0 { 100 } else { 1000 };
        let r = reference(&Program::Mix, plan.n_cols(), steps).expect("reference");
        let before = peak_kb();
        let (start, cpu, all) = (Instant::now(), thread_cpu(), process_cpu());
        let (run, profiles) = run(host, &plan, &r, threads);
        let secs = start.elapsed().as_secs_f64();
        let (cpu, all) = (thread_cpu() - cpu, process_cpu() - all);
        let pebbles = plan.held_total() as f64 * steps as f64;
        let grown = peak_kb().saturating_sub(before);
        let engine =
            if threads == 0 { "event".to_string() } else { format!("row-sweep x{threads}") };
        println!(
            "one-shot {name}, {engine}, T = {steps}: {secs:.2} s wall ({:.2} M pebbles/s), CPU {cpu:.2} s this thread, {all:.2} s all threads ({:.2} M pebbles per CPU s), host_steps = {}, verified = {}, peak RSS +{grown} kB ({:.0} B per held column)",
            pebbles / secs / 1e6,
            pebbles / all / 1e6,
            run.host_steps,
            run.verified,
            (grown * 1024) as f64 / plan.held_total() as f64
        );
        if threads > 1 {
            for (j, p) in profiles.iter().enumerate() {
                println!(
                    "  range {j}: {} holders, {:.3} s wall, {:.3} s CPU, {:.3} s waiting ({:.1} % of wall) in {} waits",
                    p.holders,
                    p.wall,
                    p.cpu,
                    p.waiting,
                    100.0 * p.waiting / p.wall.max(1e-9),
                    p.waits
                );
            }
        }
    }
}

fn engine(c: &mut Criterion) {
    let host = heavy_tailed_host();
    if let Ok(which) = std::env::var("OVERLAP_BENCH_ONE_SHOT") {
        one_shot(&host, &which);
        return;
    }
    let all = plans(&host);
    let steps = 1000;
    let mut group = c.benchmark_group("row-sweep n=2^16 pareto(1.2, cap 1000) T=1000");
    group.sample_size(10);
    for (name, plan) in &all[..2] {
        let r = reference(&Program::Mix, plan.n_cols(), steps).expect("reference");
        group.throughput(Throughput::Elements(plan.held_total() as u64 * steps));
        for threads in [1, 2] {
            group.bench_function(format!("{name} threads={threads}"), |b| {
                b.iter(|| run(&host, plan, &r, threads))
            });
        }
    }
    group.finish();
    let steps = 100;
    let mut group = c.benchmark_group("event n=2^16 pareto(1.2, cap 1000) T=100");
    group.sample_size(10);
    for (name, plan) in &all {
        let r = reference(&Program::Mix, plan.n_cols(), steps).expect("reference");
        group.throughput(Throughput::Elements(plan.held_total() as u64 * steps));
        group.bench_function(*name, |b| b.iter(|| run(&host, plan, &r, 0)));
    }
    group.finish();
}

criterion_group!(benches, engine);
criterion_main!(benches);
