//! The H-PRAM executor's hot path: tree reduction with `P = 1024`, `r = 64` (`N = 2^16`) in the
//! flat form (65 + 20 communication steps over 1024 processors) and the hierarchical form
//! (2047 sub-PRAMs, rayon siblings), in both memory variants; pricing its cost tree under
//! every formula. Throughput is reported in words reduced per second. Count-only mode: the
//! hierarchical tree reduction at `P = 2^30`, `r = 2` (`2^31 − 1` sub-PRAMs, one run per
//! level), counted and priced under every formula, and the hierarchical FFT there (`r = 2`).
//! Full-mode FFT: `N = 2^20`, `P = 2^10`, hierarchical form, on 1 and 2 threads.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hpram::algs::{FftForm, TreeForm, fft, tree_reduce};
use hpram::{Config, Formula, MemoryVariant, Preset, SyncScale, count, run};

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("hpram-tree");
    g.measurement_time(Duration::from_secs(3)).sample_size(10);
    let (procs, n) = (1024, 1 << 16);
    let input: Vec<i64> = (0..n as i64).collect();
    g.throughput(Throughput::Elements(n as u64));
    for (name, form, memory) in [
        ("flat", TreeForm::Flat, MemoryVariant::NonUniform),
        ("hier", TreeForm::Hier, MemoryVariant::NonUniform),
        ("hier-uniform", TreeForm::Hier, MemoryVariant::Uniform),
    ] {
        let mut cfg = Config::new(procs, n);
        cfg.memory = memory;
        g.bench_function(name, |b| {
            b.iter(|| run(&cfg, tree_reduce(form), vec![], black_box(&input)).expect("runs"))
        });
    }
    let tree =
        run(&Config::new(procs, n), tree_reduce(TreeForm::Hier), vec![], &input).unwrap().cost;
    g.bench_function("price-hier-all-formulas", |b| {
        b.iter(|| {
            Formula::ALL.map(|f| {
                tree.eval(&Preset::Hypercube(SyncScale::Diam), MemoryVariant::NonUniform, f)
                    .expect("prices")
                    .total
            })
        })
    });
    g.finish();

    let mut g = c.benchmark_group("hpram-count-only");
    g.measurement_time(Duration::from_secs(2)).sample_size(10);
    let cfg = Config::new(1 << 30, 1 << 31);
    for (name, alg) in [
        ("tree-hier-p2^30", tree_reduce(TreeForm::Hier)),
        ("fft-hier-p2^30", fft(FftForm::Hier, 31)),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let tree = count(black_box(&cfg), alg.clone(), vec![]).expect("counts");
                Formula::ALL.map(|f| {
                    tree.eval(&Preset::Hypercube(SyncScale::Diam), MemoryVariant::NonUniform, f)
                        .expect("prices")
                        .total
                })
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("hpram-fft");
    g.measurement_time(Duration::from_secs(10)).sample_size(10);
    let (procs, log_n) = (1 << 10, 20);
    let n = 1usize << log_n;
    let input: Vec<i64> = (0..n as i64).collect();
    g.throughput(Throughput::Elements(n as u64));
    for threads in [1, 2] {
        let mut cfg = Config::new(procs, n);
        (cfg.local_words, cfg.threads) = (n / procs, threads);
        cfg.model = cfg.model.with_lpram();
        g.bench_function(format!("hier-n2^20-p2^10-threads{threads}"), |b| {
            b.iter(|| {
                run(&cfg, fft(FftForm::Hier, log_n), vec![], black_box(&input)).expect("runs")
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
