//! The δ-LogP machine's step loop: the stall-free tree 2-compaction on p = 4096 (G = L = 8,
//! 201 steps, every processor polled every step) and a hotspot-plus-random-traffic script on
//! p = 256 under the δ rule with the random adversary (stall episodes, violating windows).
//! Throughput is reported as processor-steps per second.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use logp_stall::algorithms::two_compaction_sf_tree;
use logp_stall::script::{Instr, Operand, Script};
use logp_stall::{Logp, LogpParams, MachineConfig, PolicyAdversary, StallRule, run};

fn traffic(p: u32, gap: u64) -> Vec<Script> {
    (0..p)
        .map(|i| {
            let mut code = Vec::new();
            for k in 0..8u32 {
                let dest = if k % 2 == 0 { 0 } else { (i * 7 + k * 13 + 1) % p };
                let dest = if dest == i { (dest + 1) % p } else { dest };
                code.push(Instr::WaitGap);
                code.push(Instr::Submit {
                    dest: Operand::Imm(dest.into()),
                    payload: vec![Operand::Name("pid".into())],
                });
                code.push(Instr::Compute { k: 2 });
                code.push(Instr::WaitGap);
                code.push(Instr::Receive { into: 0, flag: Some(1), src: None });
            }
            Script::new(code, i, p, gap, 4).expect("valid script")
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("logp-machine");
    g.measurement_time(Duration::from_secs(3)).sample_size(10);

    let prm = LogpParams::new(Logp { p: 4096, latency: 8, gap: 8, o: 1 }).unwrap();
    let cfg = MachineConfig::new(prm, StallRule::StallFree).unwrap();
    let mut x = vec![0i64; 4096];
    x[100] = 1;
    x[4000] = 2;
    let steps = run(&cfg, two_compaction_sf_tree(&prm, &x).unwrap(), &mut PolicyAdversary::worst())
        .unwrap()
        .t;
    g.throughput(Throughput::Elements(steps * 4096));
    g.bench_function("sf_tree_p4096", |b| {
        b.iter(|| {
            let procs = two_compaction_sf_tree(&prm, &x).unwrap();
            black_box(run(&cfg, procs, &mut PolicyAdversary::worst()).unwrap().t)
        })
    });

    let prm = LogpParams::new(Logp { p: 256, latency: 8, gap: 2, o: 1 }).unwrap();
    let cfg = MachineConfig::new(prm, StallRule::Delta { delta: 4 }).unwrap();
    let e = run(&cfg, traffic(256, 2), &mut PolicyAdversary::random(1)).unwrap();
    g.throughput(Throughput::Elements(e.t * 256));
    g.bench_function("delta_traffic_p256", |b| {
        b.iter(|| black_box(run(&cfg, traffic(256, 2), &mut PolicyAdversary::random(1)).unwrap().t))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
