//! 2-compaction (paper §3, Theorem 1): `P_i` holds `x_i`, at most two entries
//! are nonzero; afterwards `P_0` holds the pair of the smallest nonzero index and `P_1` the
//! second one. The paper's "holds a 1" is read as "holds a nonzero"
//! (`docs/models/logp-stall.md`, Choices).

use netcore::Step;
use netcore::bsp::primitives::ceil_log2;
use netcore::bsp::{BspMachine, BspParams};
use netcore::cost::Ledger;
use netcore::limits::collect_exact;

pub use super::plan::Pair;
use super::plan::{PlanOp, PlanProc, PlanState, merge};
use crate::error::Error;
use crate::params::LogpParams;

fn nonzeros(p: u32, x: &[i64]) -> Result<Vec<Pair>, Error> {
    if x.len() != p as usize {
        return Err(Error::LengthMismatch { len: x.len(), p });
    }
    let nz: Vec<Pair> =
        x.iter().enumerate().filter(|(_, v)| **v != 0).map(|(i, v)| (i as u32, *v)).collect();
    if nz.len() > 2 {
        return Err(Error::TooManyNonzeros { count: nz.len() });
    }
    Ok(nz)
}

/// The outputs of 2-compaction: `P_0`'s pair and `P_1`'s pair.
pub type Outputs = (Option<Pair>, Option<Pair>);

/// The plain reference: `(first, second)` nonzero pairs by index.
pub fn reference_compaction(p: u32, x: &[i64]) -> Result<(Option<Pair>, Option<Pair>), Error> {
    let nz = nonzeros(p, x)?;
    Ok((nz.first().copied(), nz.get(1).copied()))
}

/// The outputs `(P_0's pair, P_1's pair)` read from final states.
pub fn outputs(states: &[PlanState]) -> (Option<Pair>, Option<Pair>) {
    (states[0].acc.first().copied(), states[1].acc.get(1).copied())
}

/// `T_δ = 5G + 2L + δ + 1` (`docs/models/logp-stall.md`, Choices: δ-LogP schedule): the δ-LogP
/// algorithm's time under every adversary.
pub fn compaction_delta_time(params: &LogpParams, delta: u64) -> Step {
    5 * params.gap() + 2 * params.latency() + delta + 1
}

/// `T_SF = R(L + G) + L + 1`, `R = ceil(log p)` (`docs/models/logp-stall.md`, Choices: SF-LogP
/// baseline).
pub fn compaction_sf_tree_time(params: &LogpParams) -> Step {
    ceil_log2(params.p().into()) * (params.latency() + params.gap()) + params.latency() + 1
}

/// The O(L) δ-LogP algorithm (paper §3; its schedule is `docs/models/logp-stall.md`, Choices).
/// With `D = 4G + 2L + δ`: every nonzero
/// `P_i` submits its pair to `P_0` at step 0 and to `P_1` at step `>= G` (a local step when it
/// is the destination itself); `P_0` and `P_1` receive at `D` and `D + G`. Every legal
/// execution delivers by `D`, so the time is `D + G + 1` under every adversary. Not
/// stall-free: with `G = L` two senders at step 0 give `c_0(0) = 2 > ceil(L/G) = 1`.
pub fn two_compaction_delta(
    params: &LogpParams,
    delta: u64,
    x: &[i64],
) -> Result<Vec<PlanProc>, Error> {
    let nz = nonzeros(params.p(), x)?;
    let (g, d) = (params.gap(), 4 * params.gap() + 2 * params.latency() + delta);
    Ok(collect_exact(
        "the processes",
        params.p() as usize,
        (0..params.p()).map(|i| {
            let own = nz.iter().copied().find(|q| q.0 == i);
            let mut plan = Vec::new();
            if own.is_some() {
                plan.push(if i == 0 { PlanOp::Compute } else { PlanOp::Submit(0) });
                plan.push(PlanOp::WaitUntil(g));
                plan.push(if i == 1 { PlanOp::Compute } else { PlanOp::Submit(1) });
            }
            if i < 2 {
                plan.extend([
                    PlanOp::WaitUntil(d),
                    PlanOp::Receive,
                    PlanOp::WaitUntil(d + g),
                    PlanOp::Receive,
                ]);
            }
            PlanProc::new(i, own, plan)
        }),
    )?)
}

/// The stall-free binary-tree algorithm (`docs/models/logp-stall.md`, Choices: SF-LogP baseline):
/// `R = ceil(log p)` rounds starting at
/// `s_r = r(L + G)`; in round `r`, `P_i` with `i mod 2^(r+1) = 2^r` submits its pairs to
/// `P_(i - 2^r)`, which receives at `s_r + L`; finally `P_0` sends to `P_1`. Each destination
/// gets at most one message per round, delivered before the next, so no execution violates
/// the capacity: time `R(L + G) + L + 1`.
pub fn two_compaction_sf_tree(params: &LogpParams, x: &[i64]) -> Result<Vec<PlanProc>, Error> {
    two_compaction_sf_tree_fanin(params, 2, x)
}

/// `ceil(log_d p)`: the rounds of the fan-in-`d` tree.
pub fn tree_rounds(p: u32, d: u32) -> u64 {
    let (mut r, mut span) = (0u64, 1u64);
    while span < u64::from(p) {
        span *= u64::from(d);
        r += 1;
    }
    r
}

/// `T_SF(d) = R((d-1)L + G) + L + 1`, `R = ceil(log_d p)`.
pub fn compaction_sf_tree_fanin_time(params: &LogpParams, d: u32) -> Step {
    tree_rounds(params.p(), d) * ((u64::from(d) - 1) * params.latency() + params.gap())
        + params.latency()
        + 1
}

/// The stall-free tree with fan-in `d >= 2` (the sensitivity option of the SF-LogP baseline,
/// `docs/models/logp-stall.md`, Choices): round `r`
/// starts at `s_r = r((d-1)L + G)`; child `k` (`i = parent + k d^r`, `1 <= k < d`) submits at
/// `s_r + (k-1)L` and the parent receives it at `s_r + kL`, so each destination has at most
/// one message in transit at any time. Time `R((d-1)L + G) + L + 1`, `R = ceil(log_d p)`.
pub fn two_compaction_sf_tree_fanin(
    params: &LogpParams,
    d: u32,
    x: &[i64],
) -> Result<Vec<PlanProc>, Error> {
    if d < 2 || d > params.p() {
        return Err(Error::TreeFanin { d, p: params.p() });
    }
    let nz = nonzeros(params.p(), x)?;
    let (l, g, du) = (params.latency(), params.gap(), u64::from(d));
    let r_max = tree_rounds(params.p(), d);
    let s = |r: u64| r * ((du - 1) * l + g);
    let pu = u64::from(params.p());
    Ok(collect_exact(
        "the processes",
        params.p() as usize,
        (0..params.p()).map(|i| {
            let own = nz.iter().copied().find(|q| q.0 == i);
            let iu = u64::from(i);
            let mut plan = Vec::new();
            let mut stride = 1u64;
            for r in 0..r_max {
                let group = stride * du;
                let off = iu % group;
                if off == 0 {
                    for k in 1..du {
                        if iu + k * stride < pu {
                            plan.extend([PlanOp::WaitUntil(s(r) + k * l), PlanOp::Receive]);
                        }
                    }
                } else if off.is_multiple_of(stride) {
                    let k = off / stride;
                    plan.extend([
                        PlanOp::WaitUntil(s(r) + (k - 1) * l),
                        PlanOp::Submit((iu - off) as u32),
                    ]);
                }
                stride = group;
            }
            if i == 0 {
                plan.extend([PlanOp::WaitUntil(s(r_max)), PlanOp::Submit(1)]);
            } else if i == 1 {
                plan.extend([PlanOp::WaitUntil(s(r_max) + l), PlanOp::Receive]);
            }
            PlanProc::new(i, own, plan)
        }),
    )?)
}

/// BSP-native 2-compaction on netcore's engine (`docs/models/logp-stall.md`, Choices: BSP-native
/// baseline): superstep `send` (every `B_i`
/// charges 1 to test `x_i`; each nonzero holder sends its pair to `B_0` and `B_1`, one op per
/// message including the self-copy), superstep `merge` (`B_0`, `B_1` charge `|inbox| + 1` and
/// select). Cost `(w_0 + g h + l) + (w_1 + l) <= 6 + 2g + 2l` with `w_0, w_1 <= 3`, `h <= 2`.
pub fn bsp_two_compaction(bsp: BspParams, x: &[i64]) -> Result<(Outputs, Ledger), Error> {
    let p = bsp.p();
    let nz = nonzeros(p, x)?;
    let states: Vec<Vec<Pair>> =
        (0..p).map(|i| nz.iter().copied().filter(|q| q.0 == i).collect()).collect();
    let mut m: BspMachine<Vec<Pair>, Pair> = BspMachine::new(bsp, states)?;
    m.superstep("send", |ctx, st| {
        ctx.charge(1);
        if let Some(&own) = st.first() {
            for d in [0, 1] {
                // netcore charges a self-send one op; charge the others here.
                if d != ctx.pid() {
                    ctx.charge(1);
                }
                ctx.send(d, own);
            }
        }
        st.clear();
    })?;
    m.superstep("merge", |ctx, st| {
        let inbox: Vec<Pair> = ctx.drain_inbox().map(|(_, q)| q).collect();
        if ctx.pid() < 2 {
            ctx.charge(inbox.len() as u64 + 1);
        }
        merge(st, &inbox);
    })?;
    let (states, ledger) = m.finish();
    Ok(((states[0].first().copied(), states[1].get(1).copied()), ledger))
}

/// The BSP-native cost bound `6 + 2g + 2l` (`docs/models/logp-stall.md`, Choices).
pub fn bsp_compaction_bound(bsp: &BspParams) -> f64 {
    6.0 + 2.0 * bsp.g() as f64 + 2.0 * bsp.l() as f64
}
