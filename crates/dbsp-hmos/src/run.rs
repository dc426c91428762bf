//! One primitive run on a generated input, checked against a sequential reference: what the
//! `dbsp-primitives` study and `cargo xtask run dbsp-hmos` (kind `primitive`) execute.

use netcore::ProcId;
use netcore::bsp::{BspMachine, DbspParams};
use netcore::cost::Ledger;
use netcore::rng::SimRng;
use rand::RngExt;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::prim::{RouteMsg, Sum, broadcast, ksort, prefix, route_greedy, route_two_phase};

/// The primitives a run can execute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Primitive {
    /// Broadcast of one item from processor 0 (Proposition 1).
    Broadcast,
    /// Prefix sums of k random items per processor (Proposition 1).
    Prefix,
    /// k-sorting of k random keys per processor (Proposition 2).
    Ksort,
    /// Two-phase (k1, k2)-routing (Proposition 3).
    RouteTwoPhase,
    /// Greedy one-superstep routing (the baseline of Proposition 3).
    RouteGreedy,
}
netcore::display_config_name!(Primitive => name);

impl Primitive {
    /// As configs name it.
    pub const fn name(self) -> &'static str {
        match self {
            Primitive::Broadcast => "broadcast",
            Primitive::Prefix => "prefix",
            Primitive::Ksort => "ksort",
            Primitive::RouteTwoPhase => "route_two_phase",
            Primitive::RouteGreedy => "route_greedy",
        }
    }

    /// The paper's bound its communication time is compared with, taken with constant 1.
    pub const fn bound_name(self) -> &'static str {
        match self {
            Primitive::Broadcast | Primitive::Prefix => {
                "Proposition 1's n^alpha + n^beta, constant 1"
            }
            Primitive::Ksort => "Proposition 2's k n^alpha + n^beta, constant 1",
            Primitive::RouteTwoPhase | Primitive::RouteGreedy => {
                "Proposition 3's k_min^alpha k_max^(1-alpha) n^alpha + n^beta, constant 1"
            }
        }
    }

    fn routes(self) -> bool {
        matches!(self, Primitive::RouteTwoPhase | Primitive::RouteGreedy)
    }
}

/// Processors with their message counts.
type Counts = Vec<(ProcId, usize)>;

/// Which side of a skewed (k1, k2)-relation is concentrated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Every processor sends k messages; n / skew random receivers get k skew each.
    #[default]
    Gather,
    /// n / skew random senders send k skew messages each; every processor receives k.
    Scatter,
}
netcore::display_config_name!(Direction);

/// Largest number of processors a run may have (the engine holds per-processor vectors).
pub const MAX_LOG_N: u32 = 20;

/// A validated primitive run: `n = 2^log_n` processors, the whole machine as the cluster.
#[derive(Debug, Clone, PartialEq)]
pub struct PrimitiveRun {
    primitive: Primitive,
    log_n: u32,
    k: u32,
    skew: u32,
    direction: Direction,
}

impl PrimitiveRun {
    /// Checks `1 <= log_n <= 20`, `k >= 1` (`k = 1` for broadcast), `skew` a power of two
    /// `<= n` (1 unless routing) and the memory estimate of `n k skew` items
    /// ([`crate::limits::check_primitive`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use dbsp_hmos::netcore::bsp::DbspParams;
    /// use dbsp_hmos::netcore::rng::seeded;
    /// use dbsp_hmos::run::{Direction, Primitive, PrimitiveRun};
    ///
    /// // Prefix sums of 4 items per processor on n = 2^4 processors.
    /// let run = PrimitiveRun::new(Primitive::Prefix, 4, 4, 1, Direction::Gather)?;
    /// let params = DbspParams::power_law(run.n(), 0.5, 0.5)?;
    /// let (ledger, correct) = run.execute(&params, &mut seeded(1, 0))?;
    /// assert!(correct);
    /// println!("D-BSP cost {}", ledger.cost(&params)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Param`] naming `log_n`, `k` or `skew` when it breaks its rule;
    /// [`Error::TooLarge`] past the memory estimate.
    pub fn new(
        primitive: Primitive,
        log_n: u32,
        k: u32,
        skew: u32,
        direction: Direction,
    ) -> Result<Self, Error> {
        if !(1..=MAX_LOG_N).contains(&log_n) {
            return Err(Error::param("log_n", format!("1 <= log_n <= {MAX_LOG_N}"), log_n));
        }
        if k == 0 || (primitive == Primitive::Broadcast && k != 1) {
            let rule =
                if primitive == Primitive::Broadcast { "k = 1 for broadcast" } else { "k >= 1" };
            return Err(Error::param("k", rule, k));
        }
        let n = 1_u64 << log_n;
        if !skew.is_power_of_two() || u64::from(skew) > n {
            return Err(Error::param("skew", format!("a power of two <= n = {n}"), skew));
        }
        if !primitive.routes() && (skew != 1 || direction != Direction::Gather) {
            let got = format!("skew = {skew}, direction = {direction}");
            return Err(Error::param(
                "skew",
                "skew = 1 and direction = gather unless routing",
                got,
            ));
        }
        let items = n.saturating_mul(u64::from(k)).saturating_mul(u64::from(skew));
        crate::limits::check_primitive(n, items)?;
        Ok(Self { primitive, log_n, k, skew, direction })
    }

    /// Number of processors.
    pub fn n(&self) -> u32 {
        1 << self.log_n
    }

    /// `(k1, k2)` of the relation routed: most messages sent and received per processor.
    pub fn k1_k2(&self) -> (u64, u64) {
        let (k, s) = (u64::from(self.k), u64::from(self.skew));
        match self.direction {
            Direction::Gather => (k, k * s),
            Direction::Scatter => (k * s, k),
        }
    }

    /// The primitive.
    pub fn primitive(&self) -> Primitive {
        self.primitive
    }

    /// Items per processor.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// Runs the primitive on a random input from `rng` (the machine priced with `params`,
    /// which only sets what [`BspMachine::cost`] reports; the ledger can be re-priced):
    /// returns the ledger and whether the output equals the sequential reference.
    ///
    /// See [`PrimitiveRun::new`] for an example.
    ///
    /// # Errors
    ///
    /// [`Error::Bsp`] if `params` is not for [`PrimitiveRun::n`] processors
    /// ([`BspError::StateCount`](netcore::bsp::BspError::StateCount)); [`Error::OutOfMemory`]
    /// if the system refuses the items.
    pub fn execute(&self, params: &DbspParams, rng: &mut SimRng) -> Result<(Ledger, bool), Error> {
        let n = self.n();
        let k = self.k as usize;
        match self.primitive {
            Primitive::Broadcast => {
                let mut m: BspMachine<(), u64> =
                    BspMachine::new(params.clone(), vec![(); n as usize])?;
                let item: u64 = rng.random_range(0..u64::MAX);
                let mut items = vec![None; n as usize];
                items[0] = Some(item);
                broadcast(&mut m, 0, &mut items, |x| x, Some)?;
                let ok = items.iter().all(|x| *x == Some(item));
                Ok((m.finish().1, ok))
            }
            Primitive::Prefix => {
                let mut m: BspMachine<(), u64> =
                    BspMachine::new(params.clone(), vec![(); n as usize])?;
                let items = random_blocks(n, k, 1 << 20, rng)?;
                let out = prefix(&mut m, 0, &Sum, &items, |x| x, Some)?;
                let mut acc = 0_u64;
                let mut ok = true;
                for (own, got) in items.iter().zip(&out.prefixes) {
                    for (x, y) in own.iter().zip(got) {
                        acc += x;
                        ok &= acc == *y;
                    }
                }
                ok &= out.totals.iter().all(|t| *t == acc);
                Ok((m.finish().1, ok))
            }
            Primitive::Ksort => {
                let blocks = random_blocks(n, k, 1 << 30, rng)?;
                let mut reference = blocks.concat();
                reference.sort_unstable();
                let mut m: BspMachine<Vec<u64>, u64> = BspMachine::new(params.clone(), blocks)?;
                ksort(&mut m, 0, |x| x, Some)?;
                let (out, ledger) = m.finish();
                let ok = out.iter().all(|b| b.len() == k) && out.concat() == reference;
                Ok((ledger, ok))
            }
            Primitive::RouteTwoPhase | Primitive::RouteGreedy => {
                let outgoing = self.relation(rng);
                let mut expected: Vec<Vec<(ProcId, usize)>> = vec![Vec::new(); n as usize];
                for msgs in &outgoing {
                    for &(dest, tag) in msgs {
                        expected[dest as usize].push(tag);
                    }
                }
                let mut m: BspMachine<(), RouteMsg<(ProcId, usize)>> =
                    BspMachine::new(params.clone(), vec![(); n as usize])?;
                let routed = if self.primitive == Primitive::RouteGreedy {
                    route_greedy(&mut m, 0, outgoing, |x| x, Some)?
                } else {
                    route_two_phase(&mut m, 0, outgoing)?
                };
                let mut ok = true;
                for (mut got, mut want) in routed.delivered.into_iter().zip(expected) {
                    got.sort_unstable();
                    want.sort_unstable();
                    ok &= got == want;
                }
                Ok((m.finish().1, ok))
            }
        }
    }

    /// A random (k1, k2)-relation: the concentrated side is a random set of n / skew
    /// processors; message slots are matched by a random permutation. Payload: (sender,
    /// index at the sender).
    pub fn relation(&self, rng: &mut SimRng) -> Vec<Vec<(ProcId, (ProcId, usize))>> {
        let n = self.n();
        let (k, s) = (self.k as usize, self.skew as usize);
        let mut procs: Vec<ProcId> = (0..n).collect();
        procs.shuffle(rng);
        let few: Vec<ProcId> = procs[..n as usize / s].to_vec();
        let (senders, receivers): (Counts, Counts) = match self.direction {
            Direction::Gather => {
                ((0..n).map(|p| (p, k)).collect(), few.iter().map(|&p| (p, k * s)).collect())
            }
            Direction::Scatter => {
                (few.iter().map(|&p| (p, k * s)).collect(), (0..n).map(|p| (p, k)).collect())
            }
        };
        let mut slots: Vec<ProcId> =
            receivers.iter().flat_map(|&(p, c)| std::iter::repeat_n(p, c)).collect();
        slots.shuffle(rng);
        let mut outgoing: Vec<Vec<(ProcId, (ProcId, usize))>> = vec![Vec::new(); n as usize];
        let mut next = slots.into_iter();
        for (p, c) in senders {
            for j in 0..c {
                if let Some(dest) = next.next() {
                    outgoing[p as usize].push((dest, (p, j)));
                }
            }
        }
        outgoing
    }
}

/// `k` random keys below `bound` per processor of `n`, each block allocated fallibly.
fn random_blocks(n: u32, k: usize, bound: u64, rng: &mut SimRng) -> Result<Vec<Vec<u64>>, Error> {
    use netcore::limits::{collect_exact, vec_with_capacity};
    let mut blocks = vec_with_capacity("the items", n as usize)?;
    for _ in 0..n {
        blocks.push(collect_exact("the items", k, (0..k).map(|_| rng.random_range(0..bound)))?);
    }
    Ok(blocks)
}
