//! OVERLAP's labelling (paper Sections 3.1-3.2, Theorem 2): interval tree, stage-1
//! killing of hot intervals, stage-2 labels and killing, stage-3 labels and the overlapping
//! virtual-column assignment, and the OVERLAP plan run by [`crate::engine`].

pub mod render;
pub mod schedule;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::host::log_n;

/// OVERLAP's constant `c = num/den > 2` (paper Section 3.2: any constant `c > 2`; an exact
/// rational, `docs/models/overlap-ring.md`, Choices: integrality).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct C {
    num: u64,
    den: u64,
}

impl C {
    /// The largest numerator or denominator: [`stage1`] multiplies a part of `c` by `L`, a
    /// host's delay sum (below `2^32 n`) and an interval's size (at most `n`), which stays
    /// below `2^69 n^2`, inside 128 bits, for parts of at most 32 bits and hosts of up to
    /// `2^29` processors (a config allows `2^22`, `docs/models/overlap-ring.md`, Limits).
    pub const MAX_PART: u64 = 1 << 32;

    /// Checks `c > 2` (paper Section 3.2, remarks after Theorem 2) and that both parts are at
    /// most [`C::MAX_PART`].
    pub fn new(num: u64, den: u64) -> Result<Self> {
        if den == 0 || u128::from(num) <= 2 * u128::from(den) {
            return Err(Error::InvalidC { c_num: num, c_den: den });
        }
        if num > Self::MAX_PART || den > Self::MAX_PART {
            return Err(Error::CTooLarge { c_num: num, c_den: den, max: Self::MAX_PART });
        }
        Ok(Self { num, den })
    }

    /// The numerator.
    pub fn num(self) -> u64 {
        self.num
    }

    /// The denominator.
    pub fn den(self) -> u64 {
        self.den
    }
}

/// `k_max` = largest `k >= 0` with `2^k <= n/(c L)` (paper Section 3.2;
/// `docs/models/overlap-ring.md`, Choices: integrality).
pub fn k_max(n: usize, c: C) -> Result<u32> {
    // In u128: c's parts are at most 2^32 (`C::MAX_PART`), so c L and n c_den cannot overflow.
    let l = u128::from(log_n(n));
    let (num, den) = (u128::from(c.num), u128::from(c.den));
    let n128 = n as u128;
    if num * l > n128 * den {
        let need = u64::try_from((num * l).div_ceil(den)).unwrap_or(u64::MAX);
        return Err(Error::HostTooSmall { n, need });
    }
    let mut k = 0;
    while (1u128 << (k + 1)) * num * l <= n128 * den {
        k += 1;
    }
    Ok(k)
}

/// Overlap size `m_k = 2^(k_max-k)` for `k <= k_max`, else 0 (paper Section 3.1's
/// `n/(c 2^k log n)` rounded, `docs/models/overlap-ring.md`, Choices: integrality).
pub fn m(k_max: u32, k: u32) -> i64 {
    if k <= k_max { 1 << (k_max - k) } else { 0 }
}

/// The link on the interval tree's root split: between processors `ceil(n/2) − 1` and
/// `ceil(n/2)` (the left half gets the ceiling, as the tree is built), so `n/2 − 1` for even `n`.
pub fn root_split_link(n: usize) -> usize {
    n.div_ceil(2).saturating_sub(1)
}

/// One node `[lo,hi)` of the interval tree; children halve it (left gets the ceiling).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Node {
    pub(crate) lo: usize,
    pub(crate) hi: usize,
    pub(crate) depth: u32,
    children: Option<(usize, usize)>,
}

pub(crate) fn build(n: usize) -> Vec<Node> {
    let mut nodes = vec![Node { lo: 0, hi: n, depth: 0, children: None }];
    let mut i = 0;
    while i < nodes.len() {
        let Node { lo, hi, depth, .. } = nodes[i];
        if hi - lo >= 2 {
            let mid = lo + (hi - lo).div_ceil(2);
            let a = nodes.len();
            nodes.push(Node { lo, hi: mid, depth: depth + 1, children: None });
            nodes.push(Node { lo: mid, hi, depth: depth + 1, children: None });
            nodes[i].children = Some((a, a + 1));
        }
        i += 1;
    }
    nodes
}

/// The result of stages 1-3 (paper Section 3.1) and the assignment (paper Section 3.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Labelling {
    /// `k_max`.
    pub k_max: u32,
    /// `m_0..m_(k_max)`.
    pub m: Vec<i64>,
    /// Processors killed in stage 1 (by its delay rule).
    pub killed_stage1: usize,
    /// Processors injected as dead before stage 2 (a config's `dead`; `docs/models/overlap-ring.md`,
    /// Choices: stage 2), in increasing order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dead_injected: Vec<usize>,
    /// Processors killed in stage 2.
    pub killed_stage2: usize,
    /// Live processors after stage 2.
    pub live: usize,
    /// Stage-2 label of the root (`None` if nothing survived stage 1).
    pub stage2_root: Option<i64>,
    /// `n'` = stage-3 label of the root.
    pub n_prime: i64,
    /// Virtual column (1-based) held by each processor; `None` = dead.
    pub assignment: Vec<Option<i64>>,
    /// Which processors were live before stage 2 (survived stage 1 and were not injected dead).
    #[serde(skip)]
    pub live_stage1: Vec<bool>,
    /// Every node of the interval tree with its labels (for renderings and checks).
    #[serde(skip)]
    pub tree: Vec<TreeNode>,
}

/// One node of the interval tree after labelling.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TreeNode {
    /// First processor.
    pub lo: usize,
    /// One past the last processor.
    pub hi: usize,
    /// Depth (root 0).
    pub depth: u32,
    /// Stage-2 label (`None`: no processor survived stage 1).
    pub label2: Option<i64>,
    /// Stage-3 label (`None`: no processor survived stage 2).
    pub label3: Option<i64>,
}

/// Stage 1 (paper Section 3.1; `docs/models/overlap-ring.md`, Choices: killing threshold):
/// every tree node `I` whose inner delay exceeds `c L d_ave |I|`
/// (tested exactly: `delay(I) #links c_den > c_num L S |I|`) kills its processors.
pub fn stage1(delays: &[u32], c: C) -> Vec<bool> {
    let n = delays.len() + 1;
    let links = delays.len() as u128;
    let s: u128 = delays.iter().map(|&d| u128::from(d)).sum();
    let l = u128::from(log_n(n));
    let mut prefix = vec![0u128; n];
    for (i, &d) in delays.iter().enumerate() {
        prefix[i + 1] = prefix[i] + u128::from(d);
    }
    let mut live = vec![true; n];
    for node in build(n) {
        // Links inside [lo,hi) are lo..hi-2: delay = prefix[hi-1] - prefix[lo].
        let inner = prefix[node.hi - 1] - prefix[node.lo];
        let size = (node.hi - node.lo) as u128;
        if inner * links * u128::from(c.den) > u128::from(c.num) * l * s * size {
            live[node.lo..node.hi].iter_mut().for_each(|x| *x = false);
        }
    }
    live
}

/// Stages 2 and 3 and the assignment on an injected stage-1 live mask (paper Section 3.1;
/// the test hook of `docs/models/overlap-ring.md`, Choices: stage 2).
pub fn stages_2_3(n: usize, c: C, live1: &[bool]) -> Result<Labelling> {
    if n == 0 {
        return Err(Error::EmptyHost);
    }
    let k_max = k_max(n, c)?;
    let nodes = build(n);
    let mut live = live1.to_vec();
    let has_live = |live: &[bool], v: &Node| live[v.lo..v.hi].iter().any(|&x| x);
    // Stage-2 labels, bottom-up (children have larger indices than parents).
    let label2 = labels(&nodes, &live, |d| m(k_max, d));
    let stage2_root = label2[0];
    // Stage-2 kill, top-down, labels not recomputed.
    let mut stack = vec![0usize];
    while let Some(v) = stack.pop() {
        let Some(x) = label2[v] else { continue };
        if !has_live(&live, &nodes[v]) {
            continue;
        }
        if x < 2 * m(k_max, nodes[v].depth) {
            live[nodes[v].lo..nodes[v].hi].iter_mut().for_each(|p| *p = false);
            continue;
        }
        if let Some((a, b)) = nodes[v].children {
            stack.push(b);
            stack.push(a);
        }
    }
    let killed_stage1 = live1.iter().filter(|&&x| !x).count();
    let alive = live.iter().filter(|&&x| x).count();
    let label3 = labels(&nodes, &live, |d| m(k_max, d + 1));
    let n_prime = label3[0].unwrap_or(0);
    let mut assignment = vec![None; n];
    if label3[0].is_some() {
        assign(&nodes, &label3, 0, 0, &mut assignment);
    }
    Ok(Labelling {
        k_max,
        m: (0..=k_max).map(|k| m(k_max, k)).collect(),
        killed_stage1,
        dead_injected: Vec::new(),
        killed_stage2: n - killed_stage1 - alive,
        live: alive,
        stage2_root,
        n_prime,
        assignment,
        live_stage1: live1.to_vec(),
        tree: nodes
            .iter()
            .enumerate()
            .map(|(v, node)| TreeNode {
                lo: node.lo,
                hi: node.hi,
                depth: node.depth,
                label2: label2[v],
                label3: label3[v],
            })
            .collect(),
    })
}

/// Labels of remaining nodes: leaf 1; two remaining children `x1 + x2 - sub(depth)`; one `x1`.
fn labels(nodes: &[Node], live: &[bool], sub: impl Fn(u32) -> i64) -> Vec<Option<i64>> {
    let mut x = vec![None; nodes.len()];
    for v in (0..nodes.len()).rev() {
        let node = &nodes[v];
        x[v] = match node.children {
            None => live[node.lo].then_some(1),
            Some((a, b)) => match (x[a], x[b]) {
                (Some(x1), Some(x2)) => Some(x1 + x2 - sub(node.depth)),
                (Some(x1), None) | (None, Some(x1)) => Some(x1),
                (None, None) => None,
            },
        };
    }
    x
}

/// `assign(v, i)`: `v` receives virtual columns `i+1..i+x(v)` (paper Section 3.2, "Assigning
/// databases").
fn assign(nodes: &[Node], x: &[Option<i64>], v: usize, i: i64, out: &mut [Option<i64>]) {
    match nodes[v].children {
        None => out[nodes[v].lo] = Some(i + 1),
        Some((a, b)) => match (x[a], x[b]) {
            (Some(_), Some(x2)) => {
                assign(nodes, x, a, i, out);
                let xv = x[v].unwrap_or(0);
                assign(nodes, x, b, i + xv - x2, out);
            }
            (Some(_), None) => assign(nodes, x, a, i, out),
            (None, Some(_)) => assign(nodes, x, b, i, out),
            (None, None) => {}
        },
    }
}

/// Stages 1-3 and the assignment for a host with these link delays.
pub fn label_tree(delays: &[u32], c: C) -> Result<Labelling> {
    label_tree_with_dead(delays, c, &[])
}

/// Stages 1-3 and the assignment with the processors `dead` (0-based, each once, `< n`) killed
/// after stage 1 and before stage 2, as if stage 1 had killed them: stage-2 labels, kills,
/// stage-3 labels and the assignment all see them dead (paper Section 3.1; the stage-2 kills of
/// Lemma 3's proof need more dead processors than small hosts' delays kill,
/// `docs/models/overlap-ring.md`, Choices: stage 2). `killed_stage1` counts the delay rule's
/// kills only.
pub fn label_tree_with_dead(delays: &[u32], c: C, dead: &[usize]) -> Result<Labelling> {
    let n = delays.len() + 1;
    let mut live1 = stage1(delays, c);
    let killed_stage1 = live1.iter().filter(|&&x| !x).count();
    let mut injected = dead.to_vec();
    injected.sort_unstable();
    for w in injected.windows(2) {
        if w[0] == w[1] {
            return Err(Error::DeadRepeated { proc: w[0] });
        }
    }
    for &p in &injected {
        let slot = live1.get_mut(p).ok_or(Error::DeadOutOfRange { proc: p, n })?;
        *slot = false;
    }
    let mut lab = stages_2_3(n, c, &live1)?;
    lab.killed_stage1 = killed_stage1;
    lab.dead_injected = injected;
    Ok(lab)
}

/// OVERLAP's plan (paper Sections 3.2-3.3): each live processor holds the block of `b` guest
/// columns of its virtual column (`N = n' b`; `b = 1` is Theorem 2, load 1; `b > 1` is the
/// work-efficient variant of Theorem 3), halo 0, unit phases. Dead processors only relay.
pub fn plan(
    host: &crate::host::Host,
    c: C,
    block: usize,
) -> Result<(crate::plan::Plan, Labelling)> {
    plan_with_dead(host, c, block, &[])
}

/// [`plan`] with the processors `dead` killed before stage 2 ([`label_tree_with_dead`]); they
/// only relay.
pub fn plan_with_dead(
    host: &crate::host::Host,
    c: C,
    block: usize,
    dead: &[usize],
) -> Result<(crate::plan::Plan, Labelling)> {
    if block == 0 {
        return Err(Error::Field("block must be >= 1 (got block=0)".into()));
    }
    let lab = label_tree_with_dead(host.delays(), c, dead)?;
    if lab.n_prime < 1 {
        return Err(Error::NothingLive {
            killed_stage1: lab.killed_stage1,
            dead: lab.dead_injected.len(),
            killed_stage2: lab.killed_stage2,
        });
    }
    let held = lab
        .assignment
        .iter()
        .map(|a| a.map(|v| ((v as usize - 1) * block + 1, v as usize * block)))
        .collect();
    Ok((crate::plan::Plan::new(held, 1, lab.n_prime as usize * block)?, lab))
}

/// Runs OVERLAP (Theorem 2, `b = 1`) for `T` steps of a guest with `N = n'` columns and
/// verifies it against the direct run. Returns the run and the labelling (`n'` is
/// `labelling.n_prime`). Arguments in the order of every entry point: the host, the scheme's
/// parameters (here `c`), the program, the steps.
///
/// # Examples
///
/// ```
/// use overlap_ring::{Host, guest::Program, overlap};
///
/// // n = 64, one link of delay 30 at the root split: OVERLAP hides it (Theorem 2).
/// let mut delays = vec![1; 63];
/// delays[31] = 30;
/// let host = Host::new(64, delays, 6)?;
/// let (run, labelling) = overlap::simulate(&host, overlap::C::new(3, 1)?, &Program::Mix, 40)?;
/// assert!(run.verified);
/// assert_eq!(labelling.k_max, 1);
/// assert!(run.slowdown < 17.0); // naive pays 30 per step
/// # Ok::<(), overlap_ring::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::HostTooSmall`] for `n < c L`, [`Error::NothingLive`] when every processor is
/// killed, [`Error::ZeroGuestSteps`] for `steps = 0`, [`Error::GuestPanic`] if `prog` panics,
/// and the limits of [`crate::engine::run`].
pub fn simulate<P: crate::guest::GuestProgram + ?Sized>(
    host: &crate::host::Host,
    c: C,
    prog: &P,
    steps: u64,
) -> Result<(crate::engine::HostRun, Labelling)> {
    let (plan, lab) = plan(host, c, 1)?;
    Ok((crate::engine::run(host, &plan, prog, steps)?, lab))
}

#[cfg(test)]
mod tests {
    use super::{build, root_split_link};

    /// The root split's link is the last processor of the tree's left half: `n = 8` splits
    /// `[0, 4) | [4, 8)` (link 3, `n/2 − 1`); `n = 9` splits `[0, 5) | [5, 9)` (link 4, where
    /// `n/2 − 1 = 3` would put the long link inside the left half).
    #[test]
    fn root_split_link_is_the_trees() {
        assert_eq!((root_split_link(8), root_split_link(9)), (3, 4));
        for n in 2..64 {
            let tree = build(n);
            let left = tree.iter().find(|v| v.depth == 1 && v.lo == 0).map(|v| v.hi);
            assert_eq!(left, Some(root_split_link(n) + 1), "n = {n}");
        }
    }
}
