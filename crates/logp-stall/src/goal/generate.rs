//! Schedgen-style generators that write GOAL text: binomial broadcast, dissemination
//! (barrier/allreduce pattern) and linear all-to-all.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::schedule::MAX_RANKS;
use crate::error::Error;

/// Largest `p` of [`linear_alltoall`] (it has `2 p (p - 1)` operations).
pub const MAX_ALLTOALL_RANKS: u32 = 1 << 13;

/// A generated schedule, by name (`generator = "binomial_broadcast"` in a config).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Generator {
    /// [`binomial_broadcast`].
    BinomialBroadcast,
    /// [`dissemination`].
    Dissemination,
    /// [`linear_alltoall`].
    LinearAlltoall,
}
netcore::display_config_name!(Generator);

impl Generator {
    /// The GOAL text of this generator's schedule on `p` ranks with messages of `bytes`.
    ///
    /// # Errors
    ///
    /// Those of the generator's function.
    pub fn goal_text(self, p: u32, bytes: u64) -> Result<String, Error> {
        match self {
            Generator::BinomialBroadcast => binomial_broadcast(p, bytes),
            Generator::Dissemination => dissemination(p, bytes),
            Generator::LinearAlltoall => linear_alltoall(p, bytes),
        }
    }
}

fn check_p(p: u32, max: u32, rule: &'static str) -> Result<(), Error> {
    if p < 2 || p > max {
        return Err(Error::GoalParam { field: "p", rule, value: p.to_string() });
    }
    Ok(())
}

/// Binomial-tree broadcast of `bytes` from rank 0 (MPICH order: the largest subtree first).
///
/// Rank `v > 0` receives from `v - 2^j` where `2^j` is its lowest set bit, then sends to
/// `v + 2^(j-1), v + 2^(j-2), ..., v + 1` (those `< p`), each send `requires` the recv. Rank 0
/// sends to `2^(k-1), ..., 1` with `k = ceil(log2 p)`.
pub fn binomial_broadcast(p: u32, bytes: u64) -> Result<String, Error> {
    check_p(p, MAX_RANKS, "2 <= p <= 2^24")?;
    let mut out = String::with_capacity(p as usize * 64);
    let _ = writeln!(out, "// binomial broadcast, p = {p}, {bytes} bytes, root 0");
    let _ = writeln!(out, "num_ranks {p}");
    let top = p.next_power_of_two();
    for v in 0..p {
        let _ = writeln!(out, "rank {v} {{");
        let low = if v == 0 { top } else { v & v.wrapping_neg() };
        if v > 0 {
            let _ = writeln!(out, "r: recv {bytes}b from {} tag 0", v - low);
        }
        let mut mask = low >> 1;
        let mut i = 0;
        while mask > 0 {
            if v + mask < p {
                let _ = writeln!(out, "s{i}: send {bytes}b to {} tag 0", v + mask);
                if v > 0 {
                    let _ = writeln!(out, "s{i} requires r");
                }
                i += 1;
            }
            mask >>= 1;
        }
        out.push_str("}\n");
    }
    Ok(out)
}

/// Dissemination pattern (Hensgen, Finkel, Manber): in round `j = 0..ceil(log2 p)` rank `i`
/// sends to `(i + 2^j) mod p` and receives from `(i - 2^j) mod p`, tag `j`; the round-`j` send
/// `requires` the round-`(j-1)` recv.
pub fn dissemination(p: u32, bytes: u64) -> Result<String, Error> {
    check_p(p, MAX_RANKS, "2 <= p <= 2^24")?;
    let rounds = 32 - (p - 1).leading_zeros();
    let mut out = String::with_capacity(p as usize * (16 + 64 * rounds as usize));
    let _ = writeln!(out, "// dissemination, p = {p}, {bytes} bytes, {rounds} rounds");
    let _ = writeln!(out, "num_ranks {p}");
    for i in 0..p {
        let _ = writeln!(out, "rank {i} {{");
        for j in 0..rounds {
            let d = 1u32 << j;
            let _ = writeln!(out, "s{j}: send {bytes}b to {} tag {j}", (i + d) % p);
            let _ = writeln!(out, "r{j}: recv {bytes}b from {} tag {j}", (i + p - d) % p);
            if j > 0 {
                let _ = writeln!(out, "s{j} requires r{}", j - 1);
            }
        }
        out.push_str("}\n");
    }
    Ok(out)
}

/// Linear all-to-all: rank `i` sends to `i+1, i+2, ..., i+p-1` (mod p), then receives from
/// `i-1, i-2, ..., i-p+1` (mod p), no dependencies (all operations are posted at time 0).
pub fn linear_alltoall(p: u32, bytes: u64) -> Result<String, Error> {
    check_p(p, MAX_ALLTOALL_RANKS, "2 <= p <= 8192")?;
    // At most `22 + 2 digits(p) + digits(bytes)` bytes per line, `2 (p - 1)` lines per rank:
    // reserved at once (growing the text of p = 1024, 64 MB, copied it).
    let width = 22 + 2 * p.to_string().len() + bytes.to_string().len();
    let mut out = String::with_capacity(64 + p as usize * (16 + 2 * (p as usize - 1) * width));
    let _ = writeln!(out, "// linear all-to-all, p = {p}, {bytes} bytes");
    let _ = writeln!(out, "num_ranks {p}");
    // The 2p(p-1) lines are assembled from the ranks' decimal texts, written once (`write!`
    // spent more on formatting than the engine on running them).
    let num: Vec<String> = (0..p).map(|v| v.to_string()).collect();
    let send = format!(": send {bytes}b to ");
    let recv = format!(": recv {bytes}b from ");
    let line = |out: &mut String, label: char, n: u32, text: &str, peer: u32| {
        out.push(label);
        out.push_str(&num[n as usize]);
        out.push_str(text);
        out.push_str(&num[peer as usize]);
        out.push_str(" tag 0\n");
    };
    for i in 0..p {
        let _ = writeln!(out, "rank {i} {{");
        for n in 1..p {
            line(&mut out, 's', n, &send, (i + n) % p);
        }
        for n in 1..p {
            line(&mut out, 'r', n, &recv, (i + p - n) % p);
        }
        out.push_str("}\n");
    }
    Ok(out)
}
