//! The cost parameters `ℓ(p)`, `s_α(p)`, `s_β(Q,P')` (paper Section 2.3.1) and their presets. They
//! are supplied only when a [`crate::CostTree`] is priced; execution never consults them.

use netcore::topology::TopologySpec;
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

impl std::fmt::Display for SyncScale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SyncScale::Diam => "s = diam",
            SyncScale::DiamLog => "s = diam log",
        })
    }
}

impl std::fmt::Display for Preset {
    /// As a summary names it, e.g. `hypercube (s = diam)`, `power p^(1/3)`,
    /// `constant (l = 3, s_alpha = 2, s_beta = 1)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Preset::Pram => f.write_str("pram"),
            Preset::Hypercube(scale) => write!(f, "hypercube ({scale})"),
            Preset::Mesh2D(scale) => write!(f, "mesh2d ({scale})"),
            Preset::Power { num, den } => write!(f, "power p^({num}/{den})"),
            Preset::Topology { network: Network::Hypercube, scale } => {
                write!(f, "hypercube diameters ({scale})")
            }
            Preset::Topology { network: Network::Mesh2D, scale } => {
                write!(f, "mesh2d diameters ({scale})")
            }
            Preset::Constant { l, sa, sb } => {
                write!(f, "constant (l = {l}, s_alpha = {sa}, s_beta = {sb})")
            }
        }
    }
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
    /// A network family priced by the exact diameters of its members ([`Preset::from_topology`]):
    /// `ℓ = max(1, diam(p))`, `s_α = diam(p)`, `s_β` the family's rule on `diam`.
    Topology {
        /// The family.
        network: Network,
        /// The synchronisation scale.
        scale: SyncScale,
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

/// A network family whose `p`-node member prices a `p`-processor sub-PRAM
/// (`docs/models/hpram.md`, Choices: Exact diameters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Network {
    /// The hypercube of dimension `⌈log₂p⌉`; `s_β(Q,P') = diam(Q)`, as [`Preset::Hypercube`].
    Hypercube,
    /// The squarest 2-D mesh holding `p` nodes, `⌈√p⌉ × ⌈p/⌈√p⌉⌉` (`2(√p − 1)` for a square
    /// `p`, where [`Preset::Mesh2D`] keeps the paper's `√p`); `s_β(Q,P') = diam(P')` if `Q > 1`,
    /// as [`Preset::Mesh2D`].
    #[serde(rename = "mesh2d")]
    Mesh2D,
}
netcore::display_config_name!(Network);

impl Network {
    /// The diameter of its `p`-node member, netcore's
    /// [`TopologySpec::closed_form_diameter`]; 0 at `p <= 1`. netcore's sizes are `u32`, so a
    /// mesh side beyond `2^32 − 1` (only for `p > (2^32 − 1)^2`) is taken as `2^32 − 1`.
    pub fn diameter(self, p: u64) -> u64 {
        if p <= 1 {
            return 0;
        }
        // `p >= 2`, so every spec below is valid: a dimension >= 1, a grid of >= 2 nodes.
        let narrow = |x: u64| u32::try_from(x).unwrap_or(u32::MAX);
        let spec = match self {
            Network::Hypercube => TopologySpec::Hypercube { dim: narrow(ceil_log2(p)) },
            Network::Mesh2D => {
                let rows = ceil_sqrt(p);
                TopologySpec::Mesh { rows: narrow(rows), cols: narrow(p.div_ceil(rows)) }
            }
        };
        spec.closed_form_diameter().ok().flatten().expect("a valid spec of >= 2 nodes")
    }
}

impl Preset {
    /// The preset of a network family with its exact diameters (netcore's closed forms) in
    /// place of the presets' `⌈log₂p⌉` and `⌈√p⌉`: `ℓ(p) = max(1, diam(p))`,
    /// `s_α(p) = diam(p)`, and `s_β` by the family's rule, all scaled as `scale` says.
    pub const fn from_topology(network: Network, scale: SyncScale) -> Preset {
        Preset::Topology { network, scale }
    }
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
            Preset::Topology { network, .. } => network.diameter(p).max(1),
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
            Preset::Topology { network, scale } => scaled(scale, network.diameter(p), p),
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
            Preset::Topology { network: Network::Hypercube, scale } => {
                scaled(scale, Network::Hypercube.diameter(q), q)
            }
            Preset::Topology { network: Network::Mesh2D, scale } if q > 1 => {
                scaled(scale, Network::Mesh2D.diameter(p_parent), q)
            }
            Preset::Topology { network: Network::Mesh2D, .. } => 0,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The mesh's exact diameters: `1×2`, `2×2`, `2×2` holding 3, `3×3` holding 8, `4×4`,
    /// `8×8`, `1024×1024`: `1, 2, 2, 4, 6, 14, 2046`; the paper's `⌈√p⌉` gives `2, 2, 2, 3, 4,
    /// 8, 1024`.
    #[test]
    fn mesh_diameters() {
        let ps = [1, 2, 3, 4, 8, 16, 64, 1 << 20];
        let exact: Vec<u64> = ps.iter().map(|&p| Network::Mesh2D.diameter(p)).collect();
        assert_eq!(exact, [0, 1, 2, 2, 4, 6, 14, 2046]);
        let mesh = Preset::from_topology(Network::Mesh2D, SyncScale::Diam);
        let costs: Vec<[u64; 3]> = ps
            .iter()
            .map(|&p| [mesh.latency(p, 1), mesh.alpha_sync(p, 1), mesh.beta_sync(2, p, 1)])
            .collect();
        assert_eq!(costs[..3], [[1, 0, 0], [1, 1, 1], [2, 2, 2]]);
        assert_eq!(mesh.beta_sync(1, 64, 1), 0);
        assert_eq!(validate_cost_model(&mesh, 1 << 20), Ok(()));
    }

    /// The hypercube's exact diameters are the `⌈log₂p⌉` of [`Preset::Hypercube`], so both
    /// presets price alike at every size and scale.
    #[test]
    fn hypercube_from_topology_is_the_preset() {
        for scale in [SyncScale::Diam, SyncScale::DiamLog] {
            let (exact, preset) =
                (Preset::from_topology(Network::Hypercube, scale), Preset::Hypercube(scale));
            for p in (1..=1024).chain([1 << 20, (1 << 20) + 1, u64::MAX]) {
                assert_eq!(exact.latency(p, 1), preset.latency(p, 1), "{p}");
                assert_eq!(exact.alpha_sync(p, 1), preset.alpha_sync(p, 1), "{p}");
                for q in [1, 2, 3, 64, p] {
                    assert_eq!(exact.beta_sync(q, p, 1), preset.beta_sync(q, p, 1), "{q} {p}");
                }
            }
        }
    }
}
