//! Per-link integer delays.
//!
//! A [`LinkDelays`] holds one delay `d_e >= 1` per edge of a [`Topology`], indexed by edge
//! number. Delays come from a uniform value, an explicit list, or a seeded [`DelayLaw`] that
//! models a network of workstations (mostly short links with rare long ones, geometric, or a
//! Pareto heavy tail). Every law yields integers `>= 1`; the heavy-tailed laws are truncated at a
//! stated cap so that `d_max` is known in advance.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::fault::{Classify, Fault};
use crate::rng::SimRng;
use crate::topology::Topology;

/// A delay, in host steps.
pub type Delay = u32;

/// A delay law or delay list that breaks a rule. Messages name the field, the rule and the
/// offending value, e.g. `p_long must satisfy 0 <= p_long <= 1 (got 1.5)`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DelayError {
    /// A delay field that must be at least 1 is 0.
    #[error("{field} must satisfy {field} >= 1 (got 0)")]
    Zero {
        /// The field: `d`, `long` or `cap`.
        field: &'static str,
    },
    /// An entry of an explicit delay list is 0.
    #[error("delays[{index}] must satisfy delays[{index}] >= 1 (got 0)")]
    ZeroInList {
        /// Position of the entry.
        index: usize,
    },
    /// A probability or tail index outside its range.
    #[error("{field} must satisfy {} (got {got:?})", rule.text())]
    Parameter {
        /// The field: `p_long`, `p` or `alpha`.
        field: &'static str,
        /// The rule it breaks.
        rule: Rule,
        /// The offending value.
        got: f64,
    },
    /// An explicit list whose length is not the topology's edge count.
    #[error("delays must satisfy one delay per edge ({edges} edges) (got {got} delays)")]
    Count {
        /// Edges of the topology.
        edges: usize,
        /// Delays given.
        got: usize,
    },
}

/// The range rules of the delay laws' real parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// `0 <= p_long <= 1`.
    TwoLevelProbability,
    /// `0 < p <= 1`.
    GeometricProbability,
    /// `alpha > 0` (and finite).
    ParetoAlpha,
}

impl Rule {
    fn text(self) -> &'static str {
        match self {
            Rule::TwoLevelProbability => "0 <= p_long <= 1",
            Rule::GeometricProbability => "0 < p <= 1",
            Rule::ParetoAlpha => "alpha > 0",
        }
    }
}

impl Classify for DelayError {
    /// Every delay error is the user's description breaking a rule.
    fn fault(&self) -> Fault {
        Fault::Input
    }
}

/// `Result` with [`DelayError`].
type Result<T> = std::result::Result<T, DelayError>;

/// A seeded law for drawing link delays.
///
/// A description, as written in configs: reading one does not check its parameters, and
/// neither does writing a variant by hand. Every use checks them first
/// ([`DelayLaw::validate`], called by [`LinkDelays::from_law`]), so delays are only ever drawn
/// from a valid law; the validated result is [`LinkDelays`], whose fields are private.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case", deny_unknown_fields)]
pub enum DelayLaw {
    /// Every link has delay `d`.
    Uniform {
        /// The delay d >= 1.
        d: Delay,
    },
    /// The delays listed, one per edge in the topology's edge order.
    Explicit {
        /// One delay per edge, each >= 1.
        delays: Vec<Delay>,
    },
    /// Two-level network of workstations: delay 1 (a local link) except, with probability
    /// `p_long`, delay `long` (a wide-area link).
    TwoLevel {
        /// Delay of a long link, >= 1.
        long: Delay,
        /// Probability of a long link, in [0, 1].
        p_long: f64,
    },
    /// Geometric: `P(d = k) = (1 - p)^(k - 1) p` for `k >= 1`, truncated at `cap`.
    Geometric {
        /// Success probability, in (0, 1].
        p: f64,
        /// Largest delay, >= 1.
        cap: Delay,
    },
    /// Pareto heavy tail: `d = floor(U^(-1/alpha))` for `U` uniform in (0, 1], so
    /// `P(d >= k) = k^(-alpha)`, truncated at `cap`.
    Pareto {
        /// Tail index alpha > 0 (smaller is heavier).
        alpha: f64,
        /// Largest delay, >= 1.
        cap: Delay,
    },
}
crate::tagged!(DelayLaw, "law");

impl DelayLaw {
    /// Checks the law's parameters.
    pub fn validate(&self) -> Result<()> {
        let real = |field, got: f64, rule, ok: bool| {
            if ok { Ok(()) } else { Err(DelayError::Parameter { field, rule, got }) }
        };
        match self {
            DelayLaw::Uniform { d } => at_least_one("d", *d),
            DelayLaw::Explicit { delays } => match delays.iter().position(|&d| d == 0) {
                Some(index) => Err(DelayError::ZeroInList { index }),
                None => Ok(()),
            },
            DelayLaw::TwoLevel { long, p_long } => {
                at_least_one("long", *long)?;
                real("p_long", *p_long, Rule::TwoLevelProbability, (0.0..=1.0).contains(p_long))
            }
            DelayLaw::Geometric { p, cap } => {
                at_least_one("cap", *cap)?;
                real("p", *p, Rule::GeometricProbability, *p > 0.0 && *p <= 1.0)
            }
            DelayLaw::Pareto { alpha, cap } => {
                at_least_one("cap", *cap)?;
                real("alpha", *alpha, Rule::ParetoAlpha, *alpha > 0.0 && alpha.is_finite())
            }
        }
    }

    /// Draws one delay.
    fn draw(&self, rng: &mut SimRng) -> Delay {
        // `1.0 - random::<f64>()` is uniform in (0, 1], so logarithms and powers are finite.
        let unit = |rng: &mut SimRng| 1.0 - rng.random::<f64>();
        match self {
            DelayLaw::Uniform { d } => *d,
            DelayLaw::Explicit { .. } => 1,
            DelayLaw::TwoLevel { long, p_long } => {
                if rng.random::<f64>() < *p_long {
                    *long
                } else {
                    1
                }
            }
            DelayLaw::Geometric { p, cap } => {
                if *p >= 1.0 {
                    return 1;
                }
                // ln_1p(-p) keeps tiny p exact where ln(1 - p) rounds to ln(1) = 0.
                let k = 1.0 + (unit(rng).ln() / (-p).ln_1p()).floor();
                truncate(k, *cap)
            }
            DelayLaw::Pareto { alpha, cap } => truncate(unit(rng).powf(-1.0 / alpha).floor(), *cap),
        }
    }
}

fn truncate(value: f64, cap: Delay) -> Delay {
    if value >= f64::from(cap) { cap } else { (value as Delay).max(1) }
}

fn at_least_one(field: &'static str, d: Delay) -> Result<()> {
    if d >= 1 { Ok(()) } else { Err(DelayError::Zero { field }) }
}

/// One delay per edge of a topology.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LinkDelays {
    delays: Vec<Delay>,
}

impl LinkDelays {
    /// Every edge of `topology` gets delay `d >= 1`.
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::delay::LinkDelays;
    /// use netcore::topology::Topology;
    ///
    /// let ring = Topology::ring(4)?;
    /// let delays = LinkDelays::uniform(&ring, 3)?;
    /// assert_eq!(delays.as_slice(), &[3, 3, 3, 3]);
    /// assert!(LinkDelays::uniform(&ring, 0).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`DelayError::Zero`] if `d = 0`.
    pub fn uniform(topology: &Topology, d: Delay) -> Result<Self> {
        at_least_one("d", d)?;
        Ok(Self { delays: vec![d; topology.n_edges()] })
    }

    /// Explicit delays, one per edge in `topology`'s edge order.
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::delay::LinkDelays;
    /// use netcore::topology::Topology;
    ///
    /// let line = Topology::linear_array(3)?; // edges (0, 1), (1, 2)
    /// let delays = LinkDelays::explicit(&line, vec![1, 7])?;
    /// assert_eq!(delays.get(1), 7);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`DelayError::Count`] unless there is one delay per edge; [`DelayError::ZeroInList`]
    /// naming the first delay that is 0.
    pub fn explicit(topology: &Topology, delays: Vec<Delay>) -> Result<Self> {
        if delays.len() != topology.n_edges() {
            return Err(DelayError::Count { edges: topology.n_edges(), got: delays.len() });
        }
        DelayLaw::Explicit { delays: delays.clone() }.validate()?;
        Ok(Self { delays })
    }

    /// Draws the delays of `topology`'s edges from `law`, in edge order, from `rng`.
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::delay::{DelayLaw, LinkDelays};
    /// use netcore::rng::seeded;
    /// use netcore::topology::Topology;
    ///
    /// let ring = Topology::ring(16)?;
    /// let law = DelayLaw::Pareto { alpha: 1.5, cap: 100 };
    /// let delays = LinkDelays::from_law(&ring, &law, &mut seeded(7, 0))?;
    /// assert!(delays.as_slice().iter().all(|&d| (1..=100).contains(&d)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// - [`DelayError::Zero`] or [`DelayError::Parameter`] if `law` is not valid (see
    ///   [`DelayLaw::validate`]);
    /// - for [`DelayLaw::Explicit`], as [`LinkDelays::explicit`].
    pub fn from_law(topology: &Topology, law: &DelayLaw, rng: &mut SimRng) -> Result<Self> {
        law.validate()?;
        if let DelayLaw::Explicit { delays } = law {
            return Self::explicit(topology, delays.clone());
        }
        Ok(Self { delays: (0..topology.n_edges()).map(|_| law.draw(rng)).collect() })
    }

    /// The delay of edge `e`.
    pub fn get(&self, e: u32) -> Delay {
        self.delays[e as usize]
    }

    /// All delays in edge order.
    pub fn as_slice(&self) -> &[Delay] {
        &self.delays
    }

    /// The average delay d_ave (0 for a graph without edges).
    pub fn d_ave(&self) -> f64 {
        if self.delays.is_empty() {
            return 0.0;
        }
        self.delays.iter().map(|&d| f64::from(d)).sum::<f64>() / self.delays.len() as f64
    }

    /// The largest delay d_max (0 for a graph without edges).
    pub fn d_max(&self) -> Delay {
        self.delays.iter().copied().max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bad laws and lists are typed errors carrying the offending values.
    #[test]
    fn typed_errors() {
        let ring = Topology::ring(3).unwrap();
        assert_eq!(
            DelayLaw::Geometric { p: 0.0, cap: 4 }.validate(),
            Err(DelayError::Parameter { field: "p", rule: Rule::GeometricProbability, got: 0.0 })
        );
        assert_eq!(
            LinkDelays::explicit(&ring, vec![1, 0, 2]),
            Err(DelayError::ZeroInList { index: 1 })
        );
        let count = LinkDelays::explicit(&ring, vec![1]).unwrap_err();
        assert_eq!(count, DelayError::Count { edges: 3, got: 1 });
        assert_eq!(
            count.to_string(),
            "delays must satisfy one delay per edge (3 edges) (got 1 delays)"
        );
        assert_eq!(count.fault(), Fault::Input);
    }

    /// Tiny geometric probabilities keep their law: p = 1e-17 has mean 1e17, so every draw
    /// reaches a cap of 1000 (`ln(1 - p)` rounded to 0 and made every draw 1), and p = 1e-4
    /// has mean 1e4 (sample mean within 5% over 4000 draws).
    #[test]
    fn tiny_geometric_probabilities() {
        let mut rng = crate::rng::seeded(1, 0);
        let tiny = DelayLaw::Geometric { p: 1e-17, cap: 1000 };
        assert!((0..100).all(|_| tiny.draw(&mut rng) == 1000));
        let small = DelayLaw::Geometric { p: 1e-4, cap: u32::MAX };
        let mean = (0..4000).map(|_| f64::from(small.draw(&mut rng))).sum::<f64>() / 4000.0;
        assert!((mean / 1e4 - 1.0).abs() < 0.05, "mean {mean}");
    }
}
