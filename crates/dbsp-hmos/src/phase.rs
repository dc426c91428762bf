//! The ledger phases of the access protocol (Fantozzi, Pietracaprina, Pucci, Section 4): the
//! names [`HmosMemory`](crate::protocol::HmosMemory) enters in its D-BSP ledger, one per part
//! of a protocol round, and by which the studies read a run's cost per part
//! ([`Ledger::by_phase`](netcore::cost::Ledger::by_phase)).

use std::fmt;

/// A part of the access protocol, as its ledger names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// `combine`: concurrent accesses reduced to exclusive ones by sorting (Section 4).
    Combine,
    /// `select/i`: iteration i of the copy selection (Section 4.1; Lemma 2 at i = 0, Lemma 3
    /// at i >= 1).
    Select(u32),
    /// `deliver`: every selected copy's packet to its processor (Section 4.2).
    Deliver,
    /// `reply`: the copies' values back to the representatives.
    Reply,
    /// `uncombine`: every access gets its representative's value.
    Uncombine,
}

/// The prefix of a selection iteration's name, `select/i`.
const SELECT: &str = "select/";

impl Phase {
    /// The part's name without its iteration: `combine`, `select`, `deliver`, `reply` or
    /// `uncombine`.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Combine => "combine",
            Phase::Select(_) => "select",
            Phase::Deliver => "deliver",
            Phase::Reply => "reply",
            Phase::Uncombine => "uncombine",
        }
    }

    /// The phase the ledger calls `name` (as [`Display`](fmt::Display) writes it), if any.
    pub fn named(name: &str) -> Option<Self> {
        if let Some(i) = name.strip_prefix(SELECT) {
            return i.parse().ok().map(Phase::Select);
        }
        [Phase::Combine, Phase::Deliver, Phase::Reply, Phase::Uncombine]
            .into_iter()
            .find(|p| p.as_str() == name)
    }

    /// Whether the phase moves the packets and their replies (`deliver` or `reply`, the
    /// delivery of Section 4.2).
    pub fn is_delivery(self) -> bool {
        matches!(self, Phase::Deliver | Phase::Reply)
    }
}

/// The ledger's name: `select/i` for [`Phase::Select`], [`Phase::as_str`] otherwise.
impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Phase::Select(i) => write!(f, "{SELECT}{i}"),
            p => f.write_str(p.as_str()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Phase;

    /// Every phase reads back from its ledger name; other names are no phase.
    #[test]
    fn names_read_back() {
        let all = [
            Phase::Combine,
            Phase::Select(0),
            Phase::Select(3),
            Phase::Deliver,
            Phase::Reply,
            Phase::Uncombine,
        ];
        for p in all {
            assert_eq!(Phase::named(&p.to_string()), Some(p));
        }
        assert_eq!(Phase::Select(2).to_string(), "select/2");
        assert_eq!(Phase::named("-"), None);
        assert_eq!(Phase::named("select"), None);
    }
}
