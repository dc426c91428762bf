//! Hot paths of the PRAM reference interpreter (run with `cargo bench -p netcore --bench pram`).
//!
//! - `pram/alu_s65536`: parallel ALU instructions (`p.op`) on S = 2^16 PPUs, counted per PPU.
//!   Goal: >= 200 M PPU instructions/s on one core.
//! - `pram/permutation_s65536`: global accesses through the reference back end with EREW
//!   conflict checking: every PPU gathers and scatters by a random permutation. Goal: >= 30 M
//!   accesses/s.
//! - `pram/bitonic_sort_s65536`: the library's bitonic sort of 2^16 values (EREW), counted in
//!   global accesses (it also runs 14 ALU instructions per compare-exchange step).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use netcore::pram::library::Algorithm;
use netcore::pram::{Limits, Op, ProgramBuilder, Variant, c, r, run};

const S: u32 = 1 << 16;
const ROUNDS: i64 = 64;

fn alu(crit: &mut Criterion) {
    let ops = [Op::Add, Op::Xor, Op::Mul, Op::Sub, Op::Min, Op::Shl, Op::And, Op::Lt];
    let mut b = ProgramBuilder::new(Variant::Erew, 1, S);
    b.set(c(0), ROUNDS).active(i64::from(S)).p_pid(r(0)).p_set(r(1), 3);
    b.label("loop");
    for (i, op) in ops.iter().enumerate() {
        // Alternate register and immediate operands and destinations.
        b.p_op(*op, r(2 + i as u8 % 2), r(0), r(1)).p_op(*op, r(1), r(1), 5);
    }
    b.op(Op::Sub, c(0), c(0), 1).jnz(c(0), "loop").halt();
    let program = b.build();
    let per_run = ROUNDS as u64 * 2 * ops.len() as u64 * u64::from(S);
    let mut group = crit.benchmark_group("pram");
    group.throughput(Throughput::Elements(per_run));
    group.sample_size(10);
    group.bench_function("alu_s65536", |bench| {
        bench.iter(|| black_box(run(&program, &[], &Limits::default()).unwrap().cost))
    });
    group.finish();
}

fn permutation(crit: &mut Criterion) {
    let n = i64::from(S);
    // Data in g[0..n), the permutation in g[n..2n); output in g[2n..3n).
    let input = Algorithm::PermutationRead.instance(S, 1).unwrap().input;
    let mut b = ProgramBuilder::new(Variant::Erew, 3 * n as u64, S);
    b.set(c(0), ROUNDS).active(n).p_pid(r(0)).p_read(r(1), r(0).at(n), None);
    b.label("loop").p_read(r(2), r(1), None).p_write(r(1).at(2 * n), r(2), None);
    b.op(Op::Sub, c(0), c(0), 1).jnz(c(0), "loop").halt();
    let program = b.build();
    let mut group = crit.benchmark_group("pram");
    group.throughput(Throughput::Elements(ROUNDS as u64 * 2 * u64::from(S)));
    group.sample_size(10);
    group.bench_function("permutation_s65536", |bench| {
        bench.iter(|| black_box(run(&program, &input, &Limits::default()).unwrap().cost))
    });
    let sort = Algorithm::BitonicSort.instance(S, 1).unwrap();
    let accesses = run(&sort.program, &sort.input, &Limits::default()).unwrap().cost.g;
    group.throughput(Throughput::Elements(accesses * u64::from(S)));
    group.bench_function("bitonic_sort_s65536", |bench| {
        bench.iter(|| black_box(run(&sort.program, &sort.input, &Limits::default()).unwrap().cost))
    });
    group.finish();
}

criterion_group!(benches, alu, permutation);
criterion_main!(benches);
