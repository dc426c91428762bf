//! Other models as instances of the H-PRAM (paper Section 2.4), each with a cost model under which
//! the instance's H-PRAM cost is the model's own.
//!
//! - **LPRAM** (Aggarwal, Chandra and Snir), as the paper's two-level non-uniform H-PRAM:
//!   [`lpram_two_level`] does every global access at level 1 (at `ℓ(P)`) and runs local work as
//!   `partition{P, 1, Local}`, whose 1-processor sub-PRAMs see their block of memory as the
//!   processor's private memory (`ℓ(1) = 1`). Under [`LpramCost`] (`ℓ(1) = 1`, `ℓ(p) = L`,
//!   no synchronisation cost) its cost is the LPRAM's: `L` per global step, 1 per local operation.
//!   [`one_level`] is the other instance the paper names, a one-level uniform H-PRAM on an
//!   `lpram` sub-model.
//! - **BPRAM**: either with block transfers (the `block` sub-model), a block of `b` words
//!   costing `ℓ + b`.
//! - **Gibbons' APRAM** as the uniform H-PRAM: [`gibbons_all`] (all-processor synchronisation,
//!   two levels) and [`gibbons_subset`] (subset synchronisation, three levels). Each phase runs on
//!   1-processor sub-PRAMs, so processors progress asynchronously within it; a barrier is the
//!   partition's β-synchronisation `s_β(Q, P')` and every access costs `ℓ(P)`. The determinacy
//!   checker enforces Gibbons' rule that communicating processors be separated by a
//!   synchronisation. Arbitrary pipelining is not modelled (the paper assigns it to the
//!   architecture, Section 3.2).

use std::sync::Arc;

use netcore::pram::Variant;

use crate::config::MemoryVariant;
use crate::config::{Config, SubModel};
use crate::cost_model::CostModel;
use crate::error::HpramError;
use crate::proc::{MemOp, Proc};
use crate::sub_pram::{FnAlg, HAlgorithm, Part, SubPram};
use crate::word::Word;

/// The cost parameters that make the H-PRAM cost of an LPRAM or BPRAM instance its model's
/// own: `ℓ(1) = 1` (a 1-processor sub-PRAM's block is private memory), `ℓ(p) = latency` for
/// `p > 1`, `s_α = s_β = 0` (the LPRAM charges no synchronisation), `c = 1` (a block of `b` words
/// costs `ℓ + b`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LpramCost {
    /// The global latency `L`, `>= 1`.
    pub latency: u64,
}

impl CostModel for LpramCost {
    fn latency(&self, p: u64, _level: u32) -> u64 {
        if p <= 1 { 1 } else { self.latency }
    }
    fn alpha_sync(&self, _p: u64, _level: u32) -> u64 {
        0
    }
    fn beta_sync(&self, _q: u64, _p_parent: u64, _level: u32) -> u64 {
        0
    }
}

/// The LPRAM (`blocks = false`) or the BPRAM (`blocks = true`) as a one-level uniform H-PRAM
/// (paper Section 2.4: "trivially an instance ... with an LPRAM level 1 sub-model"): `procs`
/// processors on a CREW root (the LPRAM's access rule) with LPRAM local memory of `local_words`
/// words each and, for the BPRAM, block transfers. Its cost under [`LpramCost`] with latency `L`
/// is `T + C·L + B`: the LPRAM's (`L` per global access, 1 per local operation) or the BPRAM's
/// (`L + b` per block of `b` words).
pub fn one_level(procs: usize, mem_words: usize, local_words: usize, blocks: bool) -> Config {
    let mut cfg = Config::new(procs, mem_words);
    cfg.memory = MemoryVariant::Uniform;
    cfg.local_words = local_words;
    cfg.model =
        SubModel { block: blocks, ..SubModel::EREW.with_access(Variant::Crew).with_lpram() };
    cfg
}

/// A global communication step of an LPRAM program.
pub type CommFn = Arc<dyn Fn(&mut Proc<'_>) -> MemOp + Send + Sync>;
/// A computation closure of an LPRAM program.
pub type ComputeFn = Arc<dyn Fn(&mut Proc<'_>) + Send + Sync>;

/// One step of an LPRAM program in the two-level form.
#[derive(Clone)]
pub enum LpramStep {
    /// A global communication step at level 1 (`ℓ(P)`): every processor's one access.
    Comm(CommFn),
    /// `k` computation steps at level 1 (one phase).
    Compute(u32, ComputeFn),
    /// Local work: `partition{P, 1, alg}`. Each processor runs `alg` alone on its block of
    /// `M/P` words, its private memory; `alg` gets the processor's global id as its one
    /// parameter, so processors may do different amounts of local work.
    Local(Arc<dyn HAlgorithm>),
}

/// The LPRAM (and, on a sub-model with block transfers, the BPRAM) as a two-level non-uniform
/// H-PRAM (paper Section 2.4): `steps` in order, global ones at level 1, local ones in
/// 1-processor sub-PRAMs. Its cost under [`LpramCost`] with latency `L` is
/// `Σ_Comm (L + c·b) + Σ_Compute k + Σ_Local max_i (T_i + C_i)`, the LPRAM's (BPRAM's) own.
/// Needs non-uniform memory (so the blocks are private) and `M` a multiple of `P`.
pub fn lpram_two_level(steps: Vec<LpramStep>) -> Arc<dyn HAlgorithm> {
    FnAlg::arc("LpramTwoLevel", move |sp: &mut SubPram<'_>| {
        for step in &steps {
            match step {
                LpramStep::Comm(f) => sp.comm(|p| f(p))?,
                LpramStep::Compute(k, f) => sp.compute(*k, |p| f(p))?,
                LpramStep::Local(alg) => {
                    let parts = each_processor(sp.procs(), 0, alg)?;
                    sp.partition(parts)?;
                }
            }
        }
        Ok(())
    })
}

/// A local phase for [`LpramStep::Local`] in which processor `g` (its one parameter) does
/// `t + g mod 3` computation steps, then `c + g mod 2` writes of its private block: uneven local
/// work, so the phase costs `max_g (t + g mod 3 + c + g mod 2)` on the LPRAM.
pub fn uneven_local_work(t: u32, c: usize) -> Arc<dyn HAlgorithm> {
    FnAlg::arc("LocalWork", move |sp: &mut SubPram<'_>| {
        let g = sp.params().first().and_then(|&w| usize::try_from(w).ok()).unwrap_or(0);
        // `g mod 3 <= 2`, so the cast is exact.
        sp.compute(t.saturating_add((g % 3) as u32), |p| p.local[0] += 1)?;
        for _ in 0..c + g % 2 {
            sp.comm(|_| MemOp::Write { addr: 0, src: 0 })?;
        }
        Ok(())
    })
}

/// `procs` 1-processor parts running `alg`, part `i` with parameter `first + i` (its global id).
fn each_processor(
    procs: usize,
    first: usize,
    alg: &Arc<dyn HAlgorithm>,
) -> Result<Vec<Part>, HpramError> {
    (0..procs).map(|i| Ok(Part::new(1, alg.clone(), vec![gpid_word(first + i)?]))).collect()
}

/// A processor id as a parameter word.
fn gpid_word(gpid: usize) -> Result<Word, HpramError> {
    Word::try_from(gpid).map_err(|_| HpramError::InvalidConfig {
        field: "procs",
        rule: "processor ids fit in a word (< 2^63) for the instances",
        got: gpid.to_string(),
    })
}

/// Gibbons' APRAM with all-processor synchronisation as a two-level uniform H-PRAM (paper
/// Section 2.4): level 1 is the sequence `partition{P, 1, phase_k}`. Each phase algorithm runs on
/// a 1-processor sub-PRAM with the processor's global id as its one parameter. Its cost in
/// uniform memory with `s_α(1) = 0` is `Σ_k [max_i (T_ik + C_ik·ℓ(P)) + s_β(P, P)]`: Gibbons'
/// phase time plus a barrier `B(P) = s_β(P, P)` per phase.
pub fn gibbons_all(phases: Vec<Arc<dyn HAlgorithm>>) -> Arc<dyn HAlgorithm> {
    FnAlg::arc("GibbonsAll", move |sp: &mut SubPram<'_>| run_phases(sp, 0, &phases))
}

/// The phases of one synchronisation group whose first processor is `first`.
fn run_phases(
    sp: &mut SubPram<'_>,
    first: usize,
    phases: &[Arc<dyn HAlgorithm>],
) -> Result<(), HpramError> {
    for phase in phases {
        let parts = each_processor(sp.procs(), first, phase)?;
        sp.partition(parts)?;
    }
    Ok(())
}

/// Gibbons' APRAM with subset synchronisation as a three-level uniform H-PRAM (paper Section
/// 2.4): level 1 is `partition{P_1: G_1; ...; P_G: G_G}` with the sizes of `groups`; group `g`
/// (level 2) runs its own phases as `partition{P_g, 1, phase}`, so its barriers cost
/// `s_β(P_g, P_g)` and involve only its processors. The cost is
/// `max_g Σ_k [max_i (T + C·ℓ(P)) + s_β(P_g, P_g)] + s_β(G, P)`. The sizes must sum to `P`.
pub fn gibbons_subset(groups: Vec<(usize, Vec<Arc<dyn HAlgorithm>>)>) -> Arc<dyn HAlgorithm> {
    let groups: Vec<(usize, Arc<dyn HAlgorithm>)> = groups
        .into_iter()
        .map(|(procs, phases)| {
            let group = FnAlg::arc("Group", move |sp: &mut SubPram<'_>| {
                let first = sp.params().first().and_then(|&w| usize::try_from(w).ok());
                run_phases(sp, first.unwrap_or(0), &phases)
            });
            (procs, group)
        })
        .collect();
    FnAlg::arc("GibbonsSubset", move |sp: &mut SubPram<'_>| {
        let mut first = 0usize;
        let mut parts = Vec::with_capacity(groups.len());
        for (procs, group) in &groups {
            parts.push(Part::new(*procs, group.clone(), vec![gpid_word(first)?]));
            first = first.saturating_add(*procs);
        }
        sp.partition(parts)
    })
}
