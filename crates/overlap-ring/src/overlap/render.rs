//! Text renderings of OVERLAP's labelling for snapshot tests and reports (paper Figure 2):
//! the interval tree with stage-2/3 labels and kills, and the assignment strip.

use std::fmt::Write;

use super::Labelling;

/// The interval tree down to depth `k_max + 1` (deeper nodes have no overlaps, `m_k = 0`):
/// one line per node, indented by depth, with its processors, stage-2 label `x2`, stage-3
/// label `x3`, and how its processors died (`stage 1`: all killed by delay; `dead before stage 2`:
/// all dead before stage 2, some of them injected; `stage 2`: killed
/// by the label test; `live a/b`: a of b processors live).
pub fn tree(lab: &Labelling) -> String {
    let mut out = String::new();
    let live: Vec<bool> = lab.assignment.iter().map(Option::is_some).collect();
    let mut nodes: Vec<_> = lab.tree.iter().filter(|v| v.depth <= lab.k_max + 1).collect();
    // Preorder: an ancestor shares its `lo` with its left descendants and is shallower.
    nodes.sort_by_key(|v| (v.lo, v.depth));
    for node in nodes {
        let size = node.hi - node.lo;
        let alive1 = lab.live_stage1[node.lo..node.hi].iter().filter(|&&x| x).count();
        let alive = live[node.lo..node.hi].iter().filter(|&&x| x).count();
        let injected = lab.dead_injected.iter().filter(|&&p| (node.lo..node.hi).contains(&p));
        let fate = if alive1 == 0 && injected.count() == 0 {
            "stage 1".to_string()
        } else if alive1 == 0 {
            "dead before stage 2".to_string()
        } else if alive == 0 {
            "stage 2".to_string()
        } else {
            format!("live {alive}/{size}")
        };
        let label = |x: Option<i64>| x.map_or("-".to_string(), |x| x.to_string());
        let _ = writeln!(
            out,
            "{:indent$}[{}, {}) x2={} x3={} {}",
            "",
            node.lo,
            node.hi,
            label(node.label2),
            label(node.label3),
            fate,
            indent = 2 * node.depth as usize
        );
    }
    out
}

/// The assignment as runs: `p0-p15 -> 1-16` for consecutive processors holding consecutive
/// virtual columns, `p16-p29 dead`.
pub fn strip(lab: &Labelling) -> String {
    // (first processor, last processor, virtual columns held, if live).
    type Run = (usize, usize, Option<(i64, i64)>);
    let mut runs: Vec<Run> = Vec::new();
    for (p, a) in lab.assignment.iter().enumerate() {
        match (runs.last_mut(), a) {
            (Some((_, last, Some((_, hi)))), Some(v)) if *hi + 1 == *v && *last + 1 == p => {
                *last = p;
                *hi = *v;
            }
            (Some((_, last, None)), None) if *last + 1 == p => *last = p,
            _ => runs.push((p, p, a.map(|v| (v, v)))),
        }
    }
    let range = |a: usize, b: usize, pre: &str| {
        if a == b { format!("{pre}{a}") } else { format!("{pre}{a}-{pre}{b}") }
    };
    runs.iter()
        .map(|&(a, b, cols)| match cols {
            Some((lo, hi)) => {
                let cols = if lo == hi { lo.to_string() } else { format!("{lo}-{hi}") };
                format!("{} -> {cols}", range(a, b, "p"))
            }
            None => format!("{} dead", range(a, b, "p")),
        })
        .collect::<Vec<_>>()
        .join(", ")
}
