//! The router's settings (Choices 19, 23 and 24): the fetch-and-op serialization, the
//! buffers of a virtual node's inputs, and how `S > N` PPUs share the routers' passes.

use netcore::pram::Access;
use serde::Serialize;

/// How the hosts serialize the fetch-and-ops of one cell (Choice 19).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FetchOrder {
    /// Fetch-and-ops keep `tag = pid`, so they are never combined; each host answers them in
    /// pid order: the reference interpreter's serialization.
    Pid,
    /// Fetch-and-ops combine like the other accesses (per-part offsets, Ranade's scheme): the
    /// serialization is the network's, reported in [`PassStats::serialization`](crate::ranade::PassStats::serialization)
    /// (the default: the paper's combining for every concurrent access).
    #[default]
    Network,
}
netcore::display_config_name!(FetchOrder);

/// The buffer of each input of a virtual node: `b >= 1` packets (`b = 2` in a config), or
/// unbounded (`b = "unbounded"`, baseline B6). An unbounded buffer runs with a credit of
/// `u32::MAX`, which no pass can exhaust (a pass carries at most one packet per PPU, `S < 2^32`), so the
/// credits never hold a packet back (Choice 24).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Buffers {
    /// At most this many packets per input.
    Slots(u32),
    /// No bound.
    Unbounded,
}

impl Buffers {
    /// The credit an output starts with.
    pub(super) fn credit(self) -> u32 {
        match self {
            Buffers::Slots(b) => b,
            Buffers::Unbounded => u32::MAX,
        }
    }
}

impl std::fmt::Display for Buffers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Buffers::Slots(b) => write!(f, "{b}"),
            Buffers::Unbounded => f.write_str("unbounded"),
        }
    }
}

impl Serialize for Buffers {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        match self {
            Buffers::Slots(b) => ser.serialize_u32(*b),
            Buffers::Unbounded => ser.serialize_str("unbounded"),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Buffers {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Slots(u32),
            Word(String),
        }
        match Raw::deserialize(de)? {
            Raw::Slots(b) => Ok(Buffers::Slots(b)),
            Raw::Word(w) if w == "unbounded" => Ok(Buffers::Unbounded),
            Raw::Word(w) => Err(serde::de::Error::custom(format!(
                "b must be a number of packets or \"unbounded\" (got \"{w}\")"
            ))),
        }
    }
}

/// How several PPUs share a router when `S > N` (Section 5's remark: "each node hosts
/// S(n)/p actors simulating PPUs"; Choice 23). PPU `j` sits at router `j mod N`, so a router
/// hosts `k = ceil(S / N)` PPUs or fewer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Multiplex {
    /// One pass per step: a router's injection queue holds the packets of all its PPUs,
    /// sorted by key and pre-combined (the pipeline effect the remark hopes for).
    #[default]
    Pipelined,
    /// `k` passes per step, pass `t` serving PPUs `t·N .. (t+1)·N` (the remark's "applied
    /// S(n)/p times"); the hosts hold a write step's values until its last pass.
    Sequential,
}
netcore::display_config_name!(Multiplex);

impl Multiplex {
    /// The passes of one step of `s` PPUs on `nn` routers: the PPUs taking part in each
    /// (a range of pids) and their accesses. Sequential mode runs `ceil(s / nn)` passes also
    /// when some of them carry no access (like an empty step, Choice 20).
    pub fn passes(
        self,
        accesses: &[Access],
        s: u32,
        nn: u32,
    ) -> Vec<(std::ops::Range<u32>, Vec<Access>)> {
        match self {
            Multiplex::Pipelined => vec![(0..s, accesses.to_vec())],
            Multiplex::Sequential => (0..s.div_ceil(nn).max(1))
                .map(|t| {
                    let lo = t.saturating_mul(nn);
                    let range = lo..s.min(lo.saturating_add(nn));
                    let mine =
                        accesses.iter().filter(|a| range.contains(&a.pid)).copied().collect();
                    (range, mine)
                })
                .collect(),
        }
    }
}
