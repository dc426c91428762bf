//! The parameters of one simulation run ([`SimConfig`]): the simulated LogP machine, δ, the
//! BSP machine's `g` and `l`, and the simulation's own choices (unstall rule, sort, prefix
//! scans and their fan-in, cycle limit), validated in the order of
//! `docs/models/logp-stall.md`, Choices.

use netcore::bsp::primitives::{SortAlgorithm, scan_levels};
use netcore::bsp::{Bsp, BspParams};
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::limits::{self, SimLogs};
use crate::{Logp, LogpParams};

/// When a stalled processor becomes operational again (`docs/models/logp-stall.md`, Choices:
/// strict unstall).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnstallOffset {
    /// `w_i = t̄ + 1`: legal under the strict rule `t̄ < t''`.
    #[default]
    Strict,
    /// `w_i = t̄` as the paper's step 5(a) writes it; legal only with `lenient_unstall`.
    PaperLiteral,
}
netcore::display_config_name!(UnstallOffset);

/// The fan-in of the prefix scans of steps 3-4 (`docs/models/logp-stall.md`, Choices: sort and
/// prefix).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Prefix {
    /// Binary scans: fan-in 2, `2 ceil(log2 p) + 1` supersteps each.
    Binary,
    /// d-ary scans at `scan_fanin`, by default `max(2, min(ceil(C/G), floor(l/g)))`: the
    /// fan-in of the `1 + log min{C/G, l/g}` in Theorem 2's latency term.
    #[default]
    Dary,
}

impl Prefix {
    /// Both prefixes, binary first.
    pub const ALL: [Prefix; 2] = [Prefix::Binary, Prefix::Dary];

    /// The config name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Prefix::Binary => "binary",
            Prefix::Dary => "dary",
        }
    }
}

impl std::fmt::Display for Prefix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Parameters of one simulation run, validated: built only by [`SimConfig::new`] (then the
/// `with_*` methods) or by deserialisation, which checks the same rules.
///
/// The simulated LogP machine is a [`LogpParams`] ([`SimConfig::logp`]: `p`, `L`
/// ([`SimConfig::latency`]), `G` ([`SimConfig::gap`]), `o`), with δ; the BSP machine's
/// parameters are `g` and `l` (the naming scheme of `docs/ARCHITECTURE.md`,
/// Naming). Config keys are the paper's letters: `p`, `G`, `L`, `o`, `delta`, `g`, `l`, and
/// `unstall`, `sort`, `prefix`, `scan_fanin`, `max_cycles`.
///
/// # Examples
///
/// ```
/// use logp_stall::{Logp, LogpParams};
/// use logp_stall::sim::{Prefix, SimConfig, SortAlgorithm, UnstallOffset};
///
/// // LogP p = 4, L = 4, G = 2, o = 1 with δ = 2, simulated on BSP with g = l = 1.
/// let cfg = SimConfig::new(&LogpParams::new(Logp { p: 4, latency: 4, gap: 2, o: 1 })?, 2, 1, 1)?
///     .with_unstall(UnstallOffset::Strict)
///     .with_sort(SortAlgorithm::Cascade)
///     .with_prefix(Prefix::Binary)?
///     .with_max_cycles(1000)?;
/// assert_eq!((cfg.cycle(), cfg.capacity(), cfg.max_cycles()), (2, 2, 1000));
/// assert_eq!((cfg.sort(), cfg.prefix(), cfg.fanin()), (SortAlgorithm::Cascade, Prefix::Binary, 2));
/// // A fan-in is a d-ary scan's: with binary scans it is refused, naming both fields.
/// assert_eq!(
///     cfg.with_scan_fanin(4).unwrap_err().to_string(),
///     "scan_fanin must satisfy scan_fanin only with prefix = \"dary\" (got prefix=binary, scan_fanin=4)"
/// );
/// // δ above L is refused, naming the rule and the values.
/// assert_eq!(
///     SimConfig::new(&LogpParams::new(Logp { p: 4, latency: 4, gap: 2, o: 1 })?, 5, 1, 1).unwrap_err().to_string(),
///     "delta must satisfy 1 <= delta <= L (got delta=5, L=4)"
/// );
/// # Ok::<(), logp_stall::Error>(())
/// ```
///
/// Its fields are private, so a configuration the simulation cannot run (here δ = 0) cannot
/// be written by hand:
///
/// ```compile_fail
/// use logp_stall::{Logp, LogpParams};
/// use logp_stall::sim::SimConfig;
/// let cfg = SimConfig::new(&LogpParams::new(Logp { p: 4, latency: 4, gap: 2, o: 1 }).unwrap(), 2, 1, 1).unwrap();
/// let bad = SimConfig { delta: 0, ..cfg };
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawSimConfig", into = "RawSimConfig")]
pub struct SimConfig {
    /// The simulated LogP machine: processors `p` (a power of two, >= 2), latency `L`, gap
    /// `G`, overhead `o` (folded; default 1), within the paper's assumptions.
    pub(crate) logp: LogpParams,
    /// Stall lag δ, `1 <= δ <= L`.
    pub(crate) delta: u64,
    /// BSP bandwidth gap g.
    pub(crate) g: u64,
    /// BSP barrier latency l.
    pub(crate) l: u64,
    /// Unstall rule.
    pub(crate) unstall: UnstallOffset,
    /// The sort of step 2 (default bitonic).
    pub(crate) sort: SortAlgorithm,
    /// The prefix scans of steps 3-4 (default d-ary).
    pub(crate) prefix: Prefix,
    /// Fan-in d of the d-ary scans (default `max(2, min(ceil(C/G), floor(l/g)))`).
    pub(crate) scan_fanin: Option<u32>,
    /// Cycle limit.
    pub(crate) max_cycles: u64,
    /// Memory the run's logs and messages may take, in bytes (estimated per logged
    /// processor-step and per message by `limits::SimLogs::run_estimate`, at the prices of
    /// `logs`); checked before every cycle with the cycle's worst case
    /// ([`SimConfig::cycle_estimate`]). Not a config key: a single run sets it from the memory
    /// limit, a study's point from the study's.
    pub(crate) memory_budget: u64,
    /// How the checks price the run's logs and messages (a program's, by default, or a
    /// generated workload's).
    pub(crate) logs: SimLogs,
}

/// [`SimConfig`] as written (its config keys, the LogP parameters among them), before
/// validation.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSimConfig {
    p: u32,
    #[serde(rename = "G")]
    gap: u64,
    #[serde(rename = "L")]
    latency: u64,
    #[serde(default = "default_o")]
    o: u64,
    delta: u64,
    g: u64,
    l: u64,
    #[serde(default)]
    unstall: UnstallOffset,
    #[serde(default = "default_sort")]
    sort: SortAlgorithm,
    #[serde(default)]
    prefix: Prefix,
    #[serde(default)]
    scan_fanin: Option<u32>,
    #[serde(default)]
    max_cycles: Option<u64>,
}

impl TryFrom<RawSimConfig> for SimConfig {
    type Error = Error;
    fn try_from(r: RawSimConfig) -> Result<Self, Error> {
        let cfg = Self {
            logp: simulated_logp(r.p, r.latency, r.gap, r.o)?,
            delta: r.delta,
            g: r.g,
            l: r.l,
            unstall: r.unstall,
            sort: r.sort,
            prefix: r.prefix,
            scan_fanin: r.scan_fanin,
            max_cycles: default_max_cycles(),
            memory_budget: u64::MAX,
            logs: SimLogs::Program,
        };
        cfg.validate()?;
        let cfg = Self { max_cycles: cfg.cycles_within_work_limit(r.max_cycles)?, ..cfg };
        // The given `max_cycles` replaced the default that `validate` saw: `max_cycles >= 1`
        // is checked again (a config error, as the `--svg` path reports it).
        cfg.validate()?;
        Ok(cfg)
    }
}

impl From<SimConfig> for RawSimConfig {
    fn from(c: SimConfig) -> Self {
        Self {
            p: c.logp.p(),
            gap: c.logp.gap(),
            latency: c.logp.latency(),
            o: c.logp.o(),
            delta: c.delta,
            g: c.g,
            l: c.l,
            unstall: c.unstall,
            sort: c.sort,
            prefix: c.prefix,
            scan_fanin: c.scan_fanin,
            max_cycles: Some(c.max_cycles),
        }
    }
}

/// The LogP machine `(p, L, G, o)` of a simulation, checked by the simulation's rules on
/// them ([`check_logp`], whose errors come first), then built by [`LogpParams::new`] (which
/// they imply).
fn simulated_logp(p: u32, latency: u64, gap: u64, o: u64) -> Result<LogpParams, Error> {
    check_logp(p, latency, gap, o)?;
    LogpParams::new(Logp { p, latency, gap, o })
}

/// The simulation's rules on the LogP parameters, in the order of
/// `docs/models/logp-stall.md`, Choices: `p >= 2`, `p <= 2^20`, `G >= 2`, `o <= G`, `G <= L`,
/// `L <= p` (the paper's standing assumption `max{2, o} <= G <= L <= p`).
fn check_logp(p: u32, latency: u64, gap: u64, o: u64) -> Result<(), Error> {
    let rules: [(bool, &'static str, &'static str, String); 6] = [
        (p >= 2, "p", "p >= 2", format!("p={p}")),
        (p <= 1 << 20, "p", "p <= 2^20 (the simulation's limit)", format!("p={p}")),
        (gap >= 2, "G", "G >= 2", format!("G={gap}")),
        (o <= gap, "o", "o <= G", format!("o={o}, G={gap}")),
        (gap <= latency, "L", "G <= L", format!("G={gap}, L={latency}")),
        (latency <= u64::from(p), "L", "L <= p", format!("L={latency}, p={p}")),
    ];
    for (ok, field, rule, value) in rules {
        if !ok {
            return Err(Error::SimParam { field, rule, value });
        }
    }
    Ok(())
}

fn default_o() -> u64 {
    1
}

fn default_sort() -> SortAlgorithm {
    SortAlgorithm::Bitonic
}

fn default_max_cycles() -> u64 {
    1_000_000
}

impl SimConfig {
    /// The cycle limit of a config (`docs/models/logp-stall.md`, Limits): a given
    /// `max_cycles` whose work passes [`limits::SIM_WORK_LIMIT`] is refused; the default is
    /// `10^6` cycles or fewer, as the work limit allows (at least one).
    fn cycles_within_work_limit(&self, given: Option<u64>) -> Result<u64, Error> {
        let per_cycle =
            limits::sim_cycle_work(u64::from(self.p()), self.schedule_len(), self.cycle());
        let most = (limits::SIM_WORK_LIMIT / per_cycle.max(1)).max(1);
        match given {
            Some(m) if m > most => Err(Error::SimParam {
                field: "max_cycles",
                rule: "max_cycles * (schedule_len * (p + 64) + p * C) <= 2^29 work units",
                value: format!(
                    "max_cycles = {m} with schedule_len = {}, p = {}, C = {} (at most {most})",
                    self.schedule_len(),
                    self.p(),
                    self.cycle()
                ),
            }),
            Some(m) => Ok(m),
            None => Ok(most.min(default_max_cycles())),
        }
    }

    /// The simulation of the LogP machine `params` with stall lag `delta` on a BSP machine
    /// with gap `g` and barrier latency `l`; strict unstall, the bitonic sort, d-ary scans at
    /// the default fan-in, `max_cycles = 10^6` and no memory budget.
    ///
    /// # Errors
    ///
    /// [`Error::SimParam`] or [`Error::DeltaOutOfRange`] naming the first rule broken, in the
    /// order of `docs/models/logp-stall.md`, Choices: `p >= 2`, `p <= 2^20`, `G >= 2`,
    /// `o <= G`, `G <= L`, `L <= p` (so [`LogpParams::relaxed`](crate::LogpParams::relaxed)
    /// parameters outside the paper's assumptions are refused), `1 <= δ <= L`, `p` a power of
    /// two, `1 <= g, l <= 2^32`.
    pub fn new(params: &LogpParams, delta: u64, g: u64, l: u64) -> Result<Self, Error> {
        let cfg = Self {
            logp: simulated_logp(params.p(), params.latency(), params.gap(), params.o())?,
            delta,
            g,
            l,
            unstall: UnstallOffset::Strict,
            sort: default_sort(),
            prefix: Prefix::default(),
            scan_fanin: None,
            max_cycles: default_max_cycles(),
            memory_budget: u64::MAX,
            logs: SimLogs::Program,
        };
        cfg.validate()?;
        Ok(cfg)
    }

    /// With unstall rule `unstall` (default [`UnstallOffset::Strict`]).
    #[must_use]
    pub fn with_unstall(mut self, unstall: UnstallOffset) -> Self {
        self.unstall = unstall;
        self
    }

    /// With the sort `sort` for step 2 (default [`SortAlgorithm::Bitonic`]).
    #[must_use]
    pub fn with_sort(mut self, sort: SortAlgorithm) -> Self {
        self.sort = sort;
        self
    }

    /// With the prefix scans `prefix` for steps 3-4 (default [`Prefix::Dary`]).
    ///
    /// # Errors
    ///
    /// [`Error::SimParam`] if `prefix` is [`Prefix::Binary`] and a scan fan-in is set.
    pub fn with_prefix(mut self, prefix: Prefix) -> Result<Self, Error> {
        self.prefix = prefix;
        self.validate()?;
        Ok(self)
    }

    /// With scan fan-in `d` for the d-ary scans instead of the default.
    ///
    /// # Errors
    ///
    /// [`Error::SimParam`] if `d < 2`, or if the scans are [`Prefix::Binary`].
    pub fn with_scan_fanin(mut self, d: u32) -> Result<Self, Error> {
        self.scan_fanin = Some(d);
        self.validate()?;
        Ok(self)
    }

    /// With cycle limit `max_cycles` (default `10^6`).
    ///
    /// # Errors
    ///
    /// [`Error::SimParam`] if `max_cycles = 0`.
    pub fn with_max_cycles(mut self, max_cycles: u64) -> Result<Self, Error> {
        self.max_cycles = max_cycles;
        self.validate()?;
        Ok(self)
    }

    /// With memory budget `bytes` for the run's logs and messages (default unbounded; a run
    /// past it fails with [`Error::SimMemoryLimit`]).
    #[must_use]
    pub fn with_memory_budget(mut self, bytes: u64) -> Self {
        self.memory_budget = bytes;
        self
    }

    /// The simulated LogP machine `(p, L, G, o)`, as [`LogpParams::new`] builds it.
    pub fn logp(&self) -> LogpParams {
        self.logp
    }
    /// Processors `p`.
    pub fn p(&self) -> u32 {
        self.logp.p()
    }
    /// LogP latency `L`.
    pub fn latency(&self) -> u64 {
        self.logp.latency()
    }
    /// LogP gap `G`.
    pub fn gap(&self) -> u64 {
        self.logp.gap()
    }
    /// LogP overhead `o`.
    pub fn o(&self) -> u64 {
        self.logp.o()
    }
    /// Stall lag δ.
    pub fn delta(&self) -> u64 {
        self.delta
    }
    /// BSP bandwidth gap `g`.
    pub fn g(&self) -> u64 {
        self.g
    }
    /// BSP barrier latency `l`.
    pub fn l(&self) -> u64 {
        self.l
    }
    /// The unstall rule.
    pub fn unstall(&self) -> UnstallOffset {
        self.unstall
    }
    /// The sort of step 2.
    pub fn sort(&self) -> SortAlgorithm {
        self.sort
    }
    /// The prefix scans of steps 3-4.
    pub fn prefix(&self) -> Prefix {
        self.prefix
    }
    /// The scan fan-in set by [`SimConfig::with_scan_fanin`], if any ([`SimConfig::fanin`]
    /// is the one used).
    pub fn scan_fanin(&self) -> Option<u32> {
        self.scan_fanin
    }
    /// The cycle limit.
    pub fn max_cycles(&self) -> u64 {
        self.max_cycles
    }
    /// The memory budget in bytes.
    pub fn memory_budget(&self) -> u64 {
        self.memory_budget
    }

    /// Capacity `K = ceil(L/G)`.
    pub fn capacity(&self) -> u64 {
        self.logp.latency().div_ceil(self.logp.gap())
    }

    /// Cycle length `C = max{G, δ}`.
    pub fn cycle(&self) -> u64 {
        self.logp.gap().max(self.delta)
    }

    /// Slot capacity `b = 2 ceil(C/G)` (bounds `|Q_out(i)| + |S_i|`).
    pub fn slot_capacity(&self) -> u64 {
        2 * self.cycle().div_ceil(self.logp.gap())
    }

    /// Scan fan-in d: 2 for [`Prefix::Binary`]; for [`Prefix::Dary`] `scan_fanin` if set,
    /// else `max(2, min(ceil(C/G), floor(l/g)))`.
    pub fn fanin(&self) -> u32 {
        match self.prefix {
            Prefix::Binary => 2,
            Prefix::Dary => self.scan_fanin.unwrap_or_else(|| {
                let by_gap = self.cycle().div_ceil(self.logp.gap());
                let by_bsp = self.l.checked_div(self.g).unwrap_or(by_gap);
                by_gap.min(by_bsp).clamp(2, 1 << 16) as u32
            }),
        }
    }

    /// The most one simulated cycle (paper §4) can add to a run's logs, messages and ledger,
    /// in bytes, with its sort's working memory, priced by its `logs`: each of the
    /// `p` processors logs at most `C` processor-steps (step 1, stalled steps included) and
    /// submits at most `ceil(C/G)` messages (the gap), the BSP ledger gains `schedule_len`
    /// superstep records, and step 2 sorts blocks of `b = 2 ceil(C/G)` slots
    /// ([`limits::sim_sort_estimate`]). A run refuses a cycle (before it) whose worst case
    /// does not fit the memory left, so no cycle allocates past the limit.
    pub fn cycle_estimate(&self) -> u64 {
        let (p, c) = (u64::from(self.p()), self.cycle());
        let steps = p.saturating_mul(c);
        let messages = p.saturating_mul(c.div_ceil(self.gap().max(1)));
        self.logs
            .run_estimate(steps, messages)
            .saturating_add(self.schedule_len().saturating_mul(limits::SIM_BYTES_PER_RECORD))
            .saturating_add(limits::sim_sort_estimate(self.sort(), p, self.slot_capacity()))
    }

    /// Supersteps per cycle: `1 + sort + 2 (2 ceil(log_d p) + 1) + 1`, where the sort takes
    /// [`SortAlgorithm::supersteps`] on blocks of `b` ([`SimConfig::slot_capacity`]) items
    /// (bitonic: `1 + k(k+1)/2` for `p = 2^k`).
    pub fn schedule_len(&self) -> u64 {
        let scan = 2 * u64::from(scan_levels(self.logp.p(), self.fanin())) + 1;
        // b = 2 ceil(C/G) <= 2L <= 2^21: it fits a usize.
        let b = usize::try_from(self.slot_capacity()).unwrap_or(usize::MAX);
        1 + self.sort.supersteps(self.logp.p(), b) + 2 * scan + 1
    }

    /// The BSP machine's parameters `(p, g, l)`.
    pub fn bsp_params(&self) -> Result<BspParams, Error> {
        Ok(BspParams::new(Bsp { p: self.logp.p(), g: self.g, l: self.l })?)
    }

    /// Validates the parameters in the order of `docs/models/logp-stall.md`, Choices: the
    /// LogP parameters ([`check_logp`]), then `1 <= δ <= L`, `p` a power of two,
    /// `1 <= g, ℓ <= 2^32`, `scan_fanin >= 2`, `scan_fanin` only with `prefix = "dary"`,
    /// `max_cycles >= 1`.
    pub(crate) fn validate(&self) -> Result<(), Error> {
        check_logp(self.p(), self.latency(), self.gap(), self.o())?;
        if !(1..=self.logp.latency()).contains(&self.delta) {
            return Err(Error::DeltaOutOfRange { delta: self.delta, latency: self.logp.latency() });
        }
        if !self.logp.p().is_power_of_two() {
            return Err(Error::SimParam {
                field: "p",
                rule: "p a power of two (the simulation's bitonic sort)",
                value: self.logp.p().to_string(),
            });
        }
        for (field, rule, v) in [("g", "1 <= g <= 2^32", self.g), ("l", "1 <= l <= 2^32", self.l)] {
            if v == 0 || v > 1 << 32 {
                return Err(Error::SimParam { field, rule, value: format!("{field}={v}") });
            }
        }
        if self.scan_fanin.is_some_and(|d| d < 2) {
            return Err(Error::SimParam {
                field: "scan_fanin",
                rule: "scan_fanin >= 2",
                value: self.scan_fanin.map_or_else(String::new, |d| d.to_string()),
            });
        }
        if let (Prefix::Binary, Some(d)) = (self.prefix, self.scan_fanin) {
            return Err(Error::SimParam {
                field: "scan_fanin",
                rule: "scan_fanin only with prefix = \"dary\"",
                value: format!("prefix=binary, scan_fanin={d}"),
            });
        }
        if self.max_cycles == 0 {
            return Err(Error::SimParam {
                field: "max_cycles",
                rule: "max_cycles >= 1",
                value: "0".into(),
            });
        }
        Ok(())
    }
}
