//! The cost tree a run records (`docs/models/hpram.md`, Choices: Cost tree): per sub-PRAM its step
//! counts and its partitions.
//! Pricing it under a cost model is a pure evaluation ([`crate::eval`]).

use serde::Serialize;

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
    /// Its partition steps in order, each with its children in index order.
    pub partitions: Vec<Vec<CostNode>>,
}

impl CostNode {
    /// This node and every descendant, depth first, children in index order.
    pub fn walk(&self) -> Vec<&CostNode> {
        let mut out = vec![self];
        for part in &self.partitions {
            for child in part {
                out.extend(child.walk());
            }
        }
        out
    }

    /// The deepest level in the subtree.
    pub fn depth(&self) -> u32 {
        self.walk().iter().map(|n| n.level).max().unwrap_or(self.level)
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

    /// The number of sub-PRAMs, the root included.
    pub fn sub_prams(&self) -> usize {
        self.root.walk().len()
    }

    /// The hierarchy, one line per sub-PRAM, `L<level> name(P') [o,o+P')`, indented by level.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for node in self.root.walk() {
            let indent = "  ".repeat(node.level as usize - 1);
            let end = node.offset + node.procs;
            out.push_str(&format!(
                "{indent}L{} {}({}) [{},{end})\n",
                node.level, node.name, node.procs, node.offset
            ));
        }
        out
    }
}
