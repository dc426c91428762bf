//! The event DAG of a run (Section 2.2: sending event → consuming event, previous event →
//! next event of a serialized actor) and a critical path through it, whose length is the
//! actor time.

use serde::Serialize;

use super::id::ActorId;

/// The event DAG, recorded on demand: per event its actor and depth, and its predecessors.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct EventDag {
    /// Per event: (actor, depth).
    pub nodes: Vec<(ActorId, u64)>,
    /// Edges (from event, to event).
    pub edges: Vec<(u64, u64)>,
}

/// A longest path of `dag`, as event indices from its first event to its last: it ends at the
/// first event (lowest id) of maximal depth and steps back, from each event, to its first
/// predecessor one level shallower (an event of depth `d > 1` has one: its depth is one more
/// than its deepest predecessor's). Its length is the deepest event's depth, the actor time.
pub fn critical_path(dag: &EventDag) -> Vec<usize> {
    let Some(last) = (0..dag.nodes.len()).rev().max_by_key(|&e| dag.nodes[e].1) else {
        return Vec::new();
    };
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); dag.nodes.len()];
    for &(from, to) in &dag.edges {
        if let (Ok(from), Ok(to)) = (usize::try_from(from), usize::try_from(to)) {
            preds[to].push(from);
        }
    }
    let mut path = vec![last];
    let mut at = last;
    while let Some(prev) =
        preds[at].iter().copied().filter(|&p| dag.nodes[p].1 + 1 == dag.nodes[at].1).min()
    {
        path.push(prev);
        at = prev;
    }
    path.reverse();
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A diamond 0 -> {1, 2} -> 3 and a tail 2 -> 4: the deepest events are 3 and 4 (depth
    /// 3); the path ends at the lower id, 3, and steps back to its lower-id predecessor, 1.
    #[test]
    fn critical_path_breaks_ties_by_lowest_id() {
        let dag = EventDag {
            nodes: vec![
                (ActorId(0), 1),
                (ActorId(1), 2),
                (ActorId(2), 2),
                (ActorId(0), 3),
                (ActorId(2), 3),
            ],
            edges: vec![(0, 1), (0, 2), (2, 3), (1, 3), (2, 4)],
        };
        assert_eq!(critical_path(&dag), vec![0, 1, 3]);
        assert_eq!(critical_path(&EventDag::default()), Vec::<usize>::new());
    }
}
