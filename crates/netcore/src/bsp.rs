//! A BSP machine that really executes supersteps, generalised to D-BSP.
//!
//! Each of the `p` processors owns a state `S`. A superstep runs a closure on every processor
//! in id order; the closure reads the messages delivered at the previous barrier, charges its
//! local work explicitly with [`Ctx::charge`] and sends messages with [`Ctx::send`]. At the
//! barrier the messages are delivered (each inbox in sender order, then send order) and the
//! superstep is priced as `w + g h + l`, where `w` is the largest charged work and
//! `h = max_i max(sent_i, received_i)` counts messages between distinct processors (a message
//! to oneself is a local move, charged one operation).
//!
//! In D-BSP (de la Torre and Kruskal; Bilardi, Pietracaprina, Pucci) the `n = 2^k` processors
//! are split into `2^i` i-clusters of `n / 2^i` consecutive ids, an i-superstep only lets
//! messages stay inside their i-cluster (a message that leaves it is an error), and it costs
//! `w + g_i h + l_i`. The (alpha, beta) family sets `g_i = (n / 2^i)^alpha` and
//! `l_i = (n / 2^i)^beta`. A run's [`CostLedger`] keeps `w` and `h` per superstep, so the same
//! run can be re-priced for other parameters with [`CostLedger::repriced`].

pub mod primitives;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::message::{CostLedger, ProcId, SuperstepRecord};

/// Parameters of a plain BSP machine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BspParams {
    /// Number of processors p >= 1.
    pub p: u32,
    /// Gap g: cost per message of an h-relation, >= 0.
    pub g: u64,
    /// Latency l: cost of a barrier, >= 0.
    pub l: u64,
}

impl BspParams {
    /// Validates `p >= 1`.
    pub fn new(p: u32, g: u64, l: u64) -> Result<Self> {
        if p == 0 {
            return Err(Error::param("p", "p >= 1", p));
        }
        Ok(Self { p, g, l })
    }
}

/// Parameters of a D-BSP machine: `n = 2^log_n` processors and per-level `(g_i, l_i)` for
/// `i = 0..=log_n` (level `log_n` clusters are single processors).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DbspParams {
    n: u32,
    log_n: u32,
    g: Vec<u64>,
    l: Vec<u64>,
}

impl DbspParams {
    /// Explicit per-level vectors; both need `log2(n) + 1` entries and `n` a power of two.
    pub fn new(n: u32, g: Vec<u64>, l: Vec<u64>) -> Result<Self> {
        let log_n = log2_exact("n", n)?;
        let levels = log_n as usize + 1;
        for (field, v) in [("g", &g), ("l", &l)] {
            if v.len() != levels {
                return Err(Error::param(
                    field,
                    format!("one entry per level i = 0..=log2(n) ({levels} entries for n = {n})"),
                    format!("{} entries", v.len()),
                ));
            }
        }
        Ok(Self { n, log_n, g, l })
    }

    /// The (alpha, beta) family `g_i = (n/2^i)^alpha`, `l_i = (n/2^i)^beta`, rounded up to
    /// integers. Needs finite, non-negative exponents.
    pub fn alpha_beta(n: u32, alpha: f64, beta: f64) -> Result<Self> {
        let log_n = log2_exact("n", n)?;
        for (field, x) in [("alpha", alpha), ("beta", beta)] {
            if !(x.is_finite() && x >= 0.0) {
                return Err(Error::param(field, format!("{field} >= 0 and finite"), x));
            }
        }
        let level = |e: f64| (0..=log_n).map(|i| f64::from(n >> i).powf(e).ceil() as u64).collect();
        Ok(Self { n, log_n, g: level(alpha), l: level(beta) })
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
    pub fn g(&self) -> &[u64] {
        &self.g
    }

    /// l_i for each level.
    pub fn l(&self) -> &[u64] {
        &self.l
    }
}

fn log2_exact(field: &str, n: u32) -> Result<u32> {
    if n == 0 || !n.is_power_of_two() {
        return Err(Error::param(field, format!("{field} = 2^k for an integer k"), n));
    }
    Ok(n.trailing_zeros())
}

/// How a superstep is priced: BSP or D-BSP parameters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum CostModel {
    /// Plain BSP: every superstep costs `w + g h + l`.
    Bsp(BspParams),
    /// D-BSP: an i-superstep costs `w + g_i h + l_i`.
    Dbsp(DbspParams),
}

impl CostModel {
    /// Number of processors.
    pub fn p(&self) -> u32 {
        match self {
            CostModel::Bsp(b) => b.p,
            CostModel::Dbsp(d) => d.n,
        }
    }

    /// The cost `w + g_i h + l_i` of a superstep at `level` (BSP: level ignored).
    pub fn superstep_cost(&self, level: Option<u32>, w: u64, h: u64) -> u64 {
        match self {
            CostModel::Bsp(b) => w + b.g * h + b.l,
            CostModel::Dbsp(d) => {
                let i = level.unwrap_or(0).min(d.log_n) as usize;
                w + d.g[i] * h + d.l[i]
            }
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

/// What a processor sees and does during one superstep.
#[derive(Debug)]
pub struct Ctx<'a, M> {
    pid: ProcId,
    p: u32,
    inbox: &'a mut Vec<(ProcId, M)>,
    outbox: &'a mut Vec<Envelope<M>>,
    work: u64,
    sent: u64,
}

#[derive(Debug)]
struct Envelope<M> {
    src: ProcId,
    dest: ProcId,
    msg: M,
}

impl<M> Ctx<'_, M> {
    /// This processor's id.
    pub fn pid(&self) -> ProcId {
        self.pid
    }

    /// Number of processors.
    pub fn p(&self) -> u32 {
        self.p
    }

    /// The messages delivered at the last barrier, as `(sender, message)` in sender order.
    pub fn inbox(&self) -> &[(ProcId, M)] {
        self.inbox
    }

    /// Takes the delivered messages out of the inbox.
    pub fn take_inbox(&mut self) -> Vec<(ProcId, M)> {
        std::mem::take(self.inbox)
    }

    /// Charges `ops` units of local work to this processor in this superstep.
    pub fn charge(&mut self, ops: u64) {
        self.work += ops;
    }

    /// Sends `msg` to `dest`, delivered at the barrier. A message to oneself is a local move
    /// charged one operation and not counted in h.
    pub fn send(&mut self, dest: ProcId, msg: M) {
        if dest == self.pid {
            self.work += 1;
        } else {
            self.sent += 1;
        }
        self.outbox.push(Envelope { src: self.pid, dest, msg });
    }
}

/// A BSP or D-BSP machine with `p` processor states and the cost ledger of its run.
#[derive(Debug)]
pub struct BspMachine<S, M> {
    model: CostModel,
    states: Vec<S>,
    inboxes: Vec<Vec<(ProcId, M)>>,
    outbox: Vec<Envelope<M>>,
    received: Vec<u64>,
    ledger: CostLedger,
}

impl<S, M> BspMachine<S, M> {
    /// A machine whose processor `i` starts in `states[i]`; needs one state per processor.
    pub fn new(model: impl Into<CostModel>, states: Vec<S>) -> Result<Self> {
        let model = model.into();
        let p = model.p();
        if states.len() != p as usize {
            return Err(Error::param(
                "states",
                format!("one state per processor (p = {p})"),
                format!("{} states", states.len()),
            ));
        }
        let inboxes = (0..p).map(|_| Vec::new()).collect();
        Ok(Self {
            model,
            states,
            inboxes,
            outbox: Vec::new(),
            received: vec![0; p as usize],
            ledger: CostLedger::default(),
        })
    }

    /// Number of processors.
    pub fn p(&self) -> u32 {
        self.model.p()
    }

    /// The cost model.
    pub fn model(&self) -> &CostModel {
        &self.model
    }

    /// The processor states.
    pub fn states(&self) -> &[S] {
        &self.states
    }

    /// Mutable processor states (for setting up inputs between supersteps).
    pub fn states_mut(&mut self) -> &mut [S] {
        &mut self.states
    }

    /// Consumes the machine, returning the states and the ledger.
    pub fn finish(self) -> (Vec<S>, CostLedger) {
        (self.states, self.ledger)
    }

    /// The ledger so far.
    pub fn ledger(&self) -> &CostLedger {
        &self.ledger
    }

    /// Messages delivered at the last barrier and not yet taken, per processor.
    pub fn pending(&self, pid: ProcId) -> &[(ProcId, M)] {
        &self.inboxes[pid as usize]
    }

    /// Takes the messages delivered to `pid` at the last barrier, as `(sender, message)`.
    pub fn take_delivered(&mut self, pid: ProcId) -> Vec<(ProcId, M)> {
        std::mem::take(&mut self.inboxes[pid as usize])
    }

    /// Runs one BSP superstep (a 0-superstep on a D-BSP machine).
    pub fn superstep<F>(&mut self, label: &str, body: F) -> Result<&SuperstepRecord>
    where
        F: FnMut(&mut Ctx<'_, M>, &mut S),
    {
        self.run_superstep(label, None, body)
    }

    /// Runs one i-superstep: every message must stay inside its sender's i-cluster.
    pub fn dsuperstep<F>(&mut self, level: u32, label: &str, body: F) -> Result<&SuperstepRecord>
    where
        F: FnMut(&mut Ctx<'_, M>, &mut S),
    {
        match &self.model {
            CostModel::Dbsp(d) if level <= d.log_n => self.run_superstep(label, Some(level), body),
            CostModel::Dbsp(d) => {
                Err(Error::param("level", format!("0 <= level <= log2(n) = {}", d.log_n), level))
            }
            CostModel::Bsp(_) => {
                Err(Error::param("level", "i-supersteps need a D-BSP machine", level))
            }
        }
    }

    fn run_superstep<F>(
        &mut self,
        label: &str,
        level: Option<u32>,
        mut body: F,
    ) -> Result<&SuperstepRecord>
    where
        F: FnMut(&mut Ctx<'_, M>, &mut S),
    {
        let p = self.p();
        let mut w = 0;
        let mut h_send = 0;
        self.outbox.clear();
        for (pid, (state, inbox)) in self.states.iter_mut().zip(self.inboxes.iter_mut()).enumerate()
        {
            let mut ctx =
                Ctx { pid: pid as ProcId, p, inbox, outbox: &mut self.outbox, work: 0, sent: 0 };
            body(&mut ctx, state);
            w = w.max(ctx.work);
            h_send = h_send.max(ctx.sent);
            // Messages not taken during this superstep are consumed by the barrier.
            inbox.clear();
        }
        let superstep = self.ledger.records.len();
        // Validate every destination before delivering anything.
        let shift = match (&self.model, level) {
            (CostModel::Dbsp(d), Some(i)) => Some(d.log_n - i),
            _ => None,
        };
        for env in &self.outbox {
            if env.dest >= p {
                let (src, dest) = (env.src, env.dest);
                self.outbox.clear();
                return Err(Error::NoSuchProcessor {
                    superstep,
                    label: label.into(),
                    src,
                    dest,
                    p,
                });
            }
            if let Some(shift) = shift
                && env.src >> shift != env.dest >> shift
            {
                let (src, dest) = (env.src, env.dest);
                self.outbox.clear();
                return Err(Error::LeavesCluster {
                    superstep,
                    label: label.into(),
                    level: level.unwrap_or(0),
                    cluster_size: 1 << shift,
                    src,
                    dest,
                });
            }
        }
        // Count first, so that every inbox is sized once before the messages move in.
        self.received.fill(0);
        let mut local = 0;
        for env in &self.outbox {
            self.received[env.dest as usize] += 1;
            local += u64::from(env.src == env.dest);
        }
        let messages = self.outbox.len() as u64 - local;
        for (inbox, &count) in self.inboxes.iter_mut().zip(&self.received) {
            inbox.reserve(count as usize);
        }
        for env in self.outbox.drain(..) {
            if env.src == env.dest {
                self.received[env.dest as usize] -= 1;
            }
            self.inboxes[env.dest as usize].push((env.src, env.msg));
        }
        let h_recv = self.received.iter().copied().max().unwrap_or(0);
        let h = h_send.max(h_recv);
        let cost = self.model.superstep_cost(level, w, h);
        self.ledger.records.push(SuperstepRecord {
            label: label.into(),
            level,
            w,
            h_send,
            h_recv,
            h,
            messages,
            cost,
        });
        Ok(self.ledger.records.last().expect("a record was just pushed"))
    }
}
