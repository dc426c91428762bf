//! Parameters of BSP(p, g, l) and D-BSP(n, g, l) (Bilardi, Pietracaprina, Pucci, Section 2),
//! validated at construction; deserialising goes through the same constructors.

use serde::{Deserialize, Serialize};

use super::error::BspError;
use crate::cost::LevelCosts;

/// Parameters of a plain BSP machine, validated: built only by [`BspParams::new`] or by
/// deserialisation, which calls it.
///
/// # Examples
///
/// ```
/// use netcore::bsp::{BspError, Bsp, BspParams};
///
/// let params = BspParams::new(Bsp { p: 4, g: 2, l: 5 })?; // p = 4, g = 2, l = 5
/// assert_eq!((params.p(), params.g(), params.l()), (4, 2, 5));
/// assert_eq!(BspParams::new(Bsp { p: 0, g: 2, l: 5 }), Err(BspError::NoProcessors));
/// # Ok::<(), BspError>(())
/// ```
///
/// Its fields are private, so a machine without processors cannot be written by hand:
///
/// ```compile_fail
/// let bad = netcore::bsp::BspParams { p: 0, g: 2, l: 5 };
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Bsp")]
pub struct BspParams {
    p: u32,
    g: u64,
    l: u64,
}

/// BSP's parameters by name, before validation: what [`BspParams::new`] checks (and what a
/// config writes). Parameters of every model are built from named fields like these, so that
/// numbers of one kind cannot be passed in the wrong order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bsp {
    /// Processors `p`.
    pub p: u32,
    /// Gap `g` per message of an h-relation.
    pub g: u64,
    /// Barrier latency `l`.
    pub l: u64,
}

impl TryFrom<Bsp> for BspParams {
    type Error = BspError;
    fn try_from(named: Bsp) -> Result<Self, BspError> {
        Self::new(named)
    }
}

impl BspParams {
    /// `p >= 1` processors, gap `g` per message of an h-relation, barrier latency `l`.
    ///
    /// # Errors
    ///
    /// [`BspError::NoProcessors`] if `p = 0`.
    pub fn new(named: Bsp) -> Result<Self, BspError> {
        let Bsp { p, g, l } = named;
        if p == 0 {
            return Err(BspError::NoProcessors);
        }
        Ok(Self { p, g, l })
    }

    /// Number of processors.
    pub fn p(&self) -> u32 {
        self.p
    }

    /// The gap g.
    pub fn g(&self) -> u64 {
        self.g
    }

    /// The barrier latency l.
    pub fn l(&self) -> u64 {
        self.l
    }
}

impl LevelCosts for BspParams {
    /// BSP prices every superstep alike, whatever its level.
    fn levels(&self) -> u32 {
        u32::MAX
    }
    fn g(&self, _level: u32) -> f64 {
        self.g as f64
    }
    fn l(&self, _level: u32) -> f64 {
        self.l as f64
    }
}

/// Parameters of a D-BSP machine: `n = 2^log_n` processors and per-level `(g_i, l_i)` for
/// `i = 0..=log_n` (level `log_n` clusters are single processors), non-increasing in `i`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawDbsp")]
pub struct DbspParams {
    n: u32,
    log_n: u32,
    g: Vec<f64>,
    l: Vec<f64>,
}

/// How a D-BSP parameter set is written in a config: explicit vectors or the power law.
#[derive(Deserialize)]
#[serde(untagged, deny_unknown_fields)]
enum RawDbsp {
    Explicit { n: u32, g: Vec<f64>, l: Vec<f64> },
    PowerLaw { n: u32, alpha: f64, beta: f64, c_g: Option<f64>, c_l: Option<f64> },
}

impl TryFrom<RawDbsp> for DbspParams {
    type Error = BspError;
    fn try_from(raw: RawDbsp) -> Result<Self, BspError> {
        match raw {
            RawDbsp::Explicit { n, g, l } => Self::explicit(n, g, l),
            RawDbsp::PowerLaw { n, alpha, beta, c_g, c_l } => {
                Self::scaled(n, alpha, beta, c_g.unwrap_or(1.0), c_l.unwrap_or(1.0))
            }
        }
    }
}

fn log2_exact(n: u32) -> Result<u32, BspError> {
    if !n.is_power_of_two() {
        return Err(BspError::NotPowerOfTwo { field: "n", value: u64::from(n) });
    }
    Ok(n.trailing_zeros())
}

impl DbspParams {
    /// Explicit per-level vectors: `log2(n) + 1` entries each, finite, `>= 0`, and
    /// non-increasing (a smaller cluster may not be slower).
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::bsp::{BspError, DbspParams};
    ///
    /// // n = 4: levels 0 (whole machine), 1 (pairs), 2 (single processors).
    /// let params = DbspParams::explicit(4, vec![4.0, 2.0, 1.0], vec![8.0, 4.0, 0.0])?;
    /// assert_eq!(params.log_n(), 2);
    /// # Ok::<(), BspError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// - [`BspError::NotPowerOfTwo`] if `n` is not `2^k`;
    /// - [`BspError::ParamLength`] if `g` or `l` does not have `log2(n) + 1` entries;
    /// - [`BspError::BadParam`] for an entry that is negative, NaN or infinite;
    /// - [`BspError::NonMonotone`] if an entry is smaller than the next level's.
    pub fn explicit(n: u32, g: Vec<f64>, l: Vec<f64>) -> Result<Self, BspError> {
        let log_n = log2_exact(n)?;
        let expected = log_n as usize + 1;
        if g.len() != expected || l.len() != expected {
            return Err(BspError::ParamLength { n, expected, got_g: g.len(), got_l: l.len() });
        }
        for (which, v) in [("g", &g), ("l", &l)] {
            if let Some((index, &value)) =
                v.iter().enumerate().find(|(_, x)| !(x.is_finite() && **x >= 0.0))
            {
                return Err(BspError::BadParam { which, index, value });
            }
            if let Some(index) = v.windows(2).position(|w| w[0] < w[1]) {
                let (upper, lower) = (v[index], v[index + 1]);
                return Err(BspError::NonMonotone { which, index, next: index + 1, upper, lower });
            }
        }
        Ok(Self { n, log_n, g, l })
    }

    /// The power-law family `g_i = (n/2^i)^alpha`, `l_i = (n/2^i)^beta`, exactly (no rounding).
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::bsp::{BspError, DbspParams};
    ///
    /// let params = DbspParams::power_law(8, 1.0, 0.5)?;
    /// assert_eq!(params.g_levels(), &[8.0, 4.0, 2.0, 1.0]);
    /// # Ok::<(), BspError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`DbspParams::scaled`] with `c_g = c_l = 1`.
    pub fn power_law(n: u32, alpha: f64, beta: f64) -> Result<Self, BspError> {
        Self::scaled(n, alpha, beta, 1.0, 1.0)
    }

    /// `g_i = c_g (n/2^i)^alpha`, `l_i = c_l (n/2^i)^beta` with `0 <= alpha, beta <= 1` (the
    /// paper asks `0 < alpha, beta < 1`; the endpoints give unit and linear costs, which suit
    /// exact tests) and `c_g, c_l > 0`.
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::bsp::{BspError, DbspParams};
    ///
    /// let params = DbspParams::scaled(4, 1.0, 0.0, 2.0, 3.0)?;
    /// assert_eq!(params.g_levels(), &[8.0, 4.0, 2.0]);
    /// assert_eq!(params.l_levels(), &[3.0, 3.0, 3.0]);
    /// assert!(DbspParams::scaled(4, 1.5, 0.0, 1.0, 1.0).is_err()); // alpha > 1
    /// # Ok::<(), BspError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// - [`BspError::NotPowerOfTwo`] if `n` is not `2^k`;
    /// - [`BspError::ExponentOutOfRange`] if `alpha` or `beta` is outside `[0, 1]`, or `c_g`
    ///   or `c_l` is not finite and positive.
    pub fn scaled(n: u32, alpha: f64, beta: f64, c_g: f64, c_l: f64) -> Result<Self, BspError> {
        let log_n = log2_exact(n)?;
        for (which, value) in [("alpha", alpha), ("beta", beta)] {
            if !(0.0..=1.0).contains(&value) {
                return Err(BspError::ExponentOutOfRange { which, rule: "0 <= x <= 1", value });
            }
        }
        for (which, value) in [("c_g", c_g), ("c_l", c_l)] {
            if !(value.is_finite() && value > 0.0) {
                return Err(BspError::ExponentOutOfRange { which, rule: "finite and > 0", value });
            }
        }
        let level = |c: f64, e: f64| (0..=log_n).map(|i| c * f64::from(n >> i).powf(e)).collect();
        Self::explicit(n, level(c_g, alpha), level(c_l, beta))
    }

    /// Number of processors n.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// log2(n), the deepest level.
    pub fn log_n(&self) -> u32 {
        self.log_n
    }

    /// g_i for each level.
    pub fn g_levels(&self) -> &[f64] {
        &self.g
    }

    /// l_i for each level.
    pub fn l_levels(&self) -> &[f64] {
        &self.l
    }
}

impl LevelCosts for DbspParams {
    fn levels(&self) -> u32 {
        self.log_n + 1
    }
    fn g(&self, level: u32) -> f64 {
        self.g[level as usize]
    }
    fn l(&self, level: u32) -> f64 {
        self.l[level as usize]
    }
}

/// How a machine's supersteps are priced: BSP or D-BSP parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum CostModel {
    /// Plain BSP: every superstep costs `w + g h + l`.
    Bsp(BspParams),
    /// D-BSP: an i-superstep costs `w + g_i h + l_i`.
    Dbsp(DbspParams),
}
crate::tagged!(CostModel, "kind");

impl CostModel {
    /// Number of processors.
    pub fn p(&self) -> u32 {
        match self {
            CostModel::Bsp(b) => b.p,
            CostModel::Dbsp(d) => d.n,
        }
    }

    /// The deepest superstep level a machine with this model runs: 0 for BSP, `log2 n` for
    /// D-BSP.
    pub fn deepest_level(&self) -> u32 {
        match self {
            CostModel::Bsp(_) => 0,
            CostModel::Dbsp(d) => d.log_n,
        }
    }
}

impl LevelCosts for CostModel {
    fn levels(&self) -> u32 {
        match self {
            CostModel::Bsp(b) => b.levels(),
            CostModel::Dbsp(d) => d.levels(),
        }
    }
    fn g(&self, level: u32) -> f64 {
        match self {
            CostModel::Bsp(b) => LevelCosts::g(b, level),
            CostModel::Dbsp(d) => LevelCosts::g(d, level),
        }
    }
    fn l(&self, level: u32) -> f64 {
        match self {
            CostModel::Bsp(b) => LevelCosts::l(b, level),
            CostModel::Dbsp(d) => LevelCosts::l(d, level),
        }
    }
}

impl From<BspParams> for CostModel {
    fn from(params: BspParams) -> Self {
        CostModel::Bsp(params)
    }
}

impl From<DbspParams> for CostModel {
    fn from(params: DbspParams) -> Self {
        CostModel::Dbsp(params)
    }
}
