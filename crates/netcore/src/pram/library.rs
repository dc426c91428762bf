//! Library programs (placeholder, filled below).

use crate::pram::{Op, Program, ProgramBuilder, Variant, c, r};

/// A library program at one size, with its input and the plain-Rust result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// The program.
    pub program: Program,
    /// The initial global memory (then zeros).
    pub input: Vec<i64>,
    /// Where the result lies in global memory.
    pub output: std::ops::Range<usize>,
    /// The result, computed in plain Rust.
    pub expected: Vec<i64>,
}

/// Prefix sums by recursive doubling, the paper's example.
pub fn prefix_sums(n: u32) -> Instance {
    let mut b = ProgramBuilder::new(Variant::Erew, u64::from(n), n);
    b.set(c(0), 1).set(c(1), i64::from(n)).active(i64::from(n));
    b.label("loop").p_pid(r(0)).p_bcast(r(1), c(0)).p_op(Op::Le, r(2), r(1), r(0));
    b.p_op(Op::Sub, r(3), r(0), r(1)).p_set(r(5), 0);
    b.p_read(r(4), r(0), None).p_read(r(5), r(3), Some(r(2))).p_op(Op::Add, r(4), r(4), r(5));
    b.p_write(r(0), r(4), None);
    b.op(Op::Shl, c(0), c(0), 1).op(Op::Lt, c(2), c(0), c(1)).jnz(c(2), "loop").halt();
    let input: Vec<i64> = (1..=i64::from(n)).collect();
    let expected = input
        .iter()
        .scan(0, |s, x| {
            *s += x;
            Some(*s)
        })
        .collect();
    Instance { program: b.build(), input, output: 0..n as usize, expected }
}
