//! The cost tree a run records (`docs/models/hpram.md`, Choices: Cost tree): per sub-PRAM its step
//! counts and its partitions, consecutive identical siblings stored once with a repeat count
//! (`docs/models/hpram.md`, Choices: Identical siblings are stored once).
//! Pricing it under a cost model is a pure evaluation ([`crate::eval`]).

use std::sync::Arc;

use serde::{Serialize, Serializer};

use crate::config::SubModel;

/// One sub-PRAM run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CostNode {
    /// Its node path, `root` or e.g. `root/p0[1]`.
    pub path: String,
    /// The algorithm's name.
    pub name: String,
    /// Its level; the root is level 1.
    pub level: u32,
    /// Its first global processor.
    pub offset: usize,
    /// `P'`.
    pub procs: usize,
    /// The first global address of its block.
    pub mem_base: usize,
    /// `M'`, its block's words.
    pub mem_len: usize,
    /// Its sub-model.
    pub model: SubModel,
    /// `T`: computation steps.
    pub t: u64,
    /// `T'`: computation phases (maximal runs of computation steps; partitions do not break
    /// a run).
    pub t_phases: u64,
    /// `C`: communication steps (block steps included).
    pub c: u64,
    /// `B`: the sum over block steps of the step's longest block.
    pub b: u64,
    /// Its partition steps in order, each with its children in index order as runs of
    /// identical siblings.
    pub partitions: Vec<Vec<Siblings>>,
    /// Its own step counts when each partition step began (`partition_at[i]` for
    /// `partitions[i]`): where the partitions fall among its steps, which the pricing ignores
    /// and the run's picture draws.
    pub partition_at: Vec<StepCounts>,
}

/// A sub-PRAM's own step counts so far: `T`, `T'`, `C`, `B`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct StepCounts {
    /// `T`.
    pub t: u64,
    /// `T'`.
    pub t_phases: u64,
    /// `C`.
    pub c: u64,
    /// `B`.
    pub b: u64,
}

/// `count` consecutive children of one partition step whose subtrees are equal up to their
/// position (path, processor offset, memory base): `node` is the first of them; child `j` of
/// the run sits `j·procs` processors and `j·mem_len` words further on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Siblings {
    /// How many children, `>= 1`.
    pub count: usize,
    /// The first child of the run (shared, so a memoised subtree is stored once).
    pub node: Arc<CostNode>,
}

impl Serialize for Siblings {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Siblings", 2)?;
        st.serialize_field("count", &self.count)?;
        st.serialize_field("node", &*self.node)?;
        st.end()
    }
}

/// Appends `node` to a partition's runs: to the last run if its first child has the same
/// subtree up to position, else as a new run.
pub(crate) fn push_sibling(runs: &mut Vec<Siblings>, node: Arc<CostNode>, count: usize) {
    match runs.last_mut() {
        Some(last) if last.node.same_up_to_position(&node) => last.count += count,
        _ => runs.push(Siblings { count, node }),
    }
}

impl CostNode {
    /// Its own step counts (the whole run's).
    pub fn counts(&self) -> StepCounts {
        StepCounts { t: self.t, t_phases: self.t_phases, c: self.c, b: self.b }
    }

    /// The distinct nodes of the subtree (each run's first child once), depth first, children
    /// in index order.
    pub fn walk(&self) -> Vec<&CostNode> {
        let mut out = vec![self];
        for part in &self.partitions {
            for run in part {
                out.extend(run.node.walk());
            }
        }
        out
    }

    /// The deepest level in the subtree.
    pub fn depth(&self) -> u32 {
        self.walk().iter().map(|n| n.level).max().unwrap_or(self.level)
    }

    /// `Q` of each partition step: the sum of its runs' counts.
    pub fn partition_sizes(&self) -> impl Iterator<Item = u64> + '_ {
        self.partitions.iter().map(|part| part.iter().map(|s| s.count as u64).sum())
    }

    /// Every node of the subtree with its multiplicity (how many sub-PRAMs it stands for), each
    /// distinct node once, depth first.
    pub fn walk_counted(&self) -> Vec<(&CostNode, u128)> {
        let mut out = Vec::new();
        self.walk_counted_into(1, &mut out);
        out
    }

    fn walk_counted_into<'a>(&'a self, times: u128, out: &mut Vec<(&'a CostNode, u128)>) {
        out.push((self, times));
        for part in &self.partitions {
            for run in part {
                run.node.walk_counted_into(times * run.count as u128, out);
            }
        }
    }

    /// Whether two subtrees are equal up to their position (path, offset, memory base).
    pub fn same_up_to_position(&self, other: &CostNode) -> bool {
        type Own<'a> = (&'a str, u32, usize, usize, SubModel, [u64; 4]);
        fn own(n: &CostNode) -> Own<'_> {
            (&n.name, n.level, n.procs, n.mem_len, n.model, [n.t, n.t_phases, n.c, n.b])
        }
        own(self) == own(other)
            && self.partition_at == other.partition_at
            && self.partitions.len() == other.partitions.len()
            && self.partitions.iter().zip(&other.partitions).all(|(a, b)| {
                a.len() == b.len()
                    && a.iter().zip(b).all(|(x, y)| {
                        x.count == y.count
                            && (Arc::ptr_eq(&x.node, &y.node)
                                || x.node.same_up_to_position(&y.node))
                    })
            })
    }
}

/// The cost tree of a whole run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CostTree {
    /// The root sub-PRAM (level 1, all `P` processors).
    pub root: CostNode,
}

impl CostTree {
    /// `P`.
    pub fn procs(&self) -> usize {
        self.root.procs
    }

    /// The number of sub-PRAMs, the root included, every member of a run counted (`u128`: a
    /// count-only tree may stand for more than `2^64` nodes in principle).
    pub fn sub_prams(&self) -> u128 {
        self.root.walk_counted().iter().map(|&(_, times)| times).sum()
    }

    /// The hierarchy, one line per sub-PRAM, `L<level> name(P') [o,o+P')`, indented by level
    /// (runs expanded: call it on small trees).
    pub fn render(&self) -> String {
        let mut out = String::new();
        render_into(&self.root, 0, &mut out);
        out
    }
}

/// Renders `node` shifted by `shift` processors (the position of a later member of a run).
fn render_into(node: &CostNode, shift: usize, out: &mut String) {
    let indent = "  ".repeat(node.level as usize - 1);
    let start = node.offset + shift;
    out.push_str(&format!(
        "{indent}L{} {}({}) [{start},{})\n",
        node.level,
        node.name,
        node.procs,
        start + node.procs
    ));
    for part in &node.partitions {
        for run in part {
            for j in 0..run.count {
                render_into(&run.node, shift + j * run.node.procs, out);
            }
        }
    }
}
