//! The cost parameters `ℓ(p)`, `s_α(p)`, `s_β(Q,P')` (paper Section 2.3.1) and their presets. They
//! are supplied only when a [`crate::CostTree`] is priced; execution never consults them.

use serde::{Deserialize, Serialize};

use crate::error::HpramError;

/// The machine-dependent cost functions of the H-PRAM (paper §2.3). Each takes the level, for
/// per-level parameters; the presets ignore it.
pub trait CostModel: Send + Sync {
    /// `ℓ(p)`: the latency of a shared access in a `p`-processor PRAM, `>= 1`, non-decreasing.
    fn latency(&self, p: u64, level: u32) -> u64;
    /// `s_α(p)`: the α-synchronisation after each step of a `p`-processor PRAM.
    fn alpha_sync(&self, p: u64, level: u32) -> u64;
    /// `s_β(Q,P')`: the β-synchronisation of `Q` sub-PRAMs of a `P'`-processor parent.
    fn beta_sync(&self, q: u64, p_parent: u64, level: u32) -> u64;
    /// `c`: the cost of one word of a block transfer.
    fn block_word(&self) -> u64 {
        1
    }
}

/// How synchronisation scales with its diameter (paper Section 2.3.2; `docs/models/hpram.md`,
/// Choices: Preset cost models).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SyncScale {
    /// `s = diam`, the lower end of the paper's range.
    #[default]
    Diam,
    /// `s = diam · ⌈log₂ arg⌉`, the upper end.
    DiamLog,
}

/// The preset cost models (`docs/models/hpram.md`, Choices: Preset cost models).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Preset {
    /// The PRAM: `ℓ = 1`, no synchronisation cost.
    Pram,
    /// A hypercube: `ℓ = max(1,⌈log₂p⌉)`, `s_α = ⌈log₂p⌉`, `s_β = ⌈log₂Q⌉`.
    Hypercube(SyncScale),
    /// A 2-D mesh: `ℓ = max(1,⌈√p⌉)`, `s_α = ⌈√p⌉` (0 at `p = 1`), `s_β = ⌈√P'⌉` if `Q > 1`.
    Mesh2D(SyncScale),
    /// A power law `p^a`, `a = num/den`: `ℓ = max(1,⌈p^a⌉)`, `s_α = ⌈p^a⌉` (0 at `p = 1`),
    /// `s_β = ⌈P'^a⌉` if `Q > 1`.
    Power {
        /// Numerator of `a`.
        num: u32,
        /// Denominator of `a`, `>= 1`.
        den: u32,
    },
    /// Constants `ℓ = l`, `s_α = sa`, `s_β = sb`.
    Constant {
        /// `ℓ`.
        l: u64,
        /// `s_α`.
        sa: u64,
        /// `s_β`.
        sb: u64,
    },
}

/// `⌈log₂ p⌉`, 0 for `p <= 1`.
pub fn ceil_log2(p: u64) -> u64 {
    if p <= 1 { 0 } else { u64::from(64 - (p - 1).leading_zeros()) }
}

/// `⌈√p⌉`.
pub fn ceil_sqrt(p: u64) -> u64 {
    let s = p.isqrt();
    if s * s < p { s + 1 } else { s }
}

/// `⌈p^(num/den)⌉`: the smallest `x` with `x^den >= p^num` (exact while the powers fit in
/// 128 bits, else a float estimate).
pub fn ceil_pow(p: u64, num: u32, den: u32) -> u64 {
    let target = (p as u128).checked_pow(num);
    let estimate = (p as f64).powf(f64::from(num) / f64::from(den)).ceil() as u64;
    let Some(target) = target else { return estimate };
    let fits = |x: u64| (x as u128).checked_pow(den).is_none_or(|v| v >= target);
    let mut x = estimate.saturating_sub(2);
    while !fits(x) {
        x += 1;
    }
    while x > 0 && fits(x - 1) {
        x -= 1;
    }
    x
}

fn scaled(scale: SyncScale, s: u64, arg: u64) -> u64 {
    match scale {
        SyncScale::Diam => s,
        SyncScale::DiamLog => s * ceil_log2(arg),
    }
}

impl CostModel for Preset {
    fn latency(&self, p: u64, _level: u32) -> u64 {
        match *self {
            Preset::Pram => 1,
            Preset::Hypercube(_) => ceil_log2(p).max(1),
            Preset::Mesh2D(_) => ceil_sqrt(p).max(1),
            Preset::Power { num, den } => ceil_pow(p, num, den).max(1),
            Preset::Constant { l, .. } => l,
        }
    }

    fn alpha_sync(&self, p: u64, _level: u32) -> u64 {
        match *self {
            Preset::Pram => 0,
            Preset::Hypercube(scale) => scaled(scale, ceil_log2(p), p),
            Preset::Mesh2D(scale) if p > 1 => scaled(scale, ceil_sqrt(p), p),
            Preset::Power { num, den } if p > 1 => ceil_pow(p, num, den),
            Preset::Mesh2D(_) | Preset::Power { .. } => 0,
            Preset::Constant { sa, .. } => sa,
        }
    }

    fn beta_sync(&self, q: u64, p_parent: u64, _level: u32) -> u64 {
        match *self {
            Preset::Pram => 0,
            Preset::Hypercube(scale) => scaled(scale, ceil_log2(q), q),
            Preset::Mesh2D(scale) if q > 1 => scaled(scale, ceil_sqrt(p_parent), q),
            Preset::Power { num, den } if q > 1 => ceil_pow(p_parent, num, den),
            Preset::Mesh2D(_) | Preset::Power { .. } => 0,
            Preset::Constant { sb, .. } => sb,
        }
    }
}

/// Checks `ℓ >= 1` and `ℓ` non-decreasing at the powers of two `<= procs` and at `procs`.
pub fn validate_cost_model(model: &dyn CostModel, procs: u64) -> Result<(), HpramError> {
    let mut points: Vec<u64> = (0..64).map(|k| 1u64 << k).take_while(|&p| p <= procs).collect();
    points.push(procs.max(1));
    points.dedup();
    let mut last = 0;
    for p in points {
        let l = model.latency(p, 1);
        if l == 0 {
            return Err(HpramError::InvalidCostModel {
                reason: format!("latency(p = {p}) must be >= 1 (got 0)"),
            });
        }
        if l < last {
            return Err(HpramError::InvalidCostModel {
                reason: format!("latency must be non-decreasing (latency(p = {p}) = {l} < {last})"),
            });
        }
        last = l;
    }
    Ok(())
}
