//! Theorem 1's activation tree (Baude, Section 3, Theorem 1: the lower bound): one CPU actor
//! wakes `S` PPU actors along a tree of fan-out 2. Actor `i` (0 is the CPU) sends to `2i+1`
//! and `2i+2` when they exist, so actor `i` handles its message at depth `floor(log2(i+1))+1`
//! and the run's actor time is `floor(log2(S+1)) + 1 = ceil(log2(S+2))` for every scheduler:
//! events of depth `<= d` reach at most `1 + 2 + ... + 2^(d-1) = 2^d - 1` actors.

use crate::actor::{ActorError, ActorId, ActorMetrics, Behaviour, Ctx, Limits, Runtime, Scheduler};

/// One node of the tree.
#[derive(Debug, Clone, Copy)]
pub struct TreeNode {
    index: u32,
    total: u32,
    woken: bool,
}

/// The wake-up message.
#[derive(Debug, Clone, Copy)]
pub struct Wake;

impl Behaviour for TreeNode {
    type Msg = Wake;
    type Env = ();
    fn handle(&mut self, _env: &(), ctx: &mut Ctx<'_, Self>, _msg: Wake) -> Result<(), ActorError> {
        if self.woken {
            return Err(ActorError::Protocol { actor: ctx.me(), what: "woken twice".into() });
        }
        self.woken = true;
        for child in [2 * u64::from(self.index) + 1, 2 * u64::from(self.index) + 2] {
            if child < u64::from(self.total) {
                // child < total <= u32::MAX.
                ctx.send(ActorId(u32::try_from(child).unwrap_or(u32::MAX)), Wake);
            }
        }
        Ok(())
    }
    fn state_words(&self) -> u64 {
        2
    }
}

/// The largest `S` of [`broadcast_tree`] (the arena holds `S + 1` actors).
pub const MAX_TREE_PPUS: u32 = 1 << 24;

/// Runs the broadcast tree from the CPU to `s` PPU actors; returns the metrics and whether
/// every actor was woken exactly once.
pub fn broadcast_tree(
    s: u32,
    scheduler: Scheduler,
) -> Result<(ActorMetrics, bool), crate::error::Error> {
    if s > MAX_TREE_PPUS {
        return Err(crate::error::Error::InvalidConfig {
            field: "s",
            rule: "s <= 2^24",
            got: s.to_string(),
        });
    }
    let mut rt = Runtime::new(scheduler, Limits::default());
    build_tree(&mut rt, s)?;
    let metrics = rt.run(&())?;
    let all = rt.behaviours().iter().all(|b| b.woken);
    Ok((metrics, all))
}

/// Spawns the CPU actor and `s` PPU actors into `rt` and injects the wake-up (for
/// [`crate::actor::explore`]); `s <= 2^24` is the caller's duty.
pub fn build_tree(rt: &mut Runtime<TreeNode>, s: u32) -> Result<(), ActorError> {
    let total = s.saturating_add(1);
    for index in 0..total {
        let mut acq = Vec::new();
        for child in [2 * u64::from(index) + 1, 2 * u64::from(index) + 2] {
            if child < u64::from(total) {
                acq.push(ActorId(u32::try_from(child).unwrap_or(u32::MAX)));
            }
        }
        rt.spawn(TreeNode { index, total, woken: false }, &acq)?;
    }
    rt.inject(ActorId(0), Wake)
}

/// `ceil(log2(s + 2))`, the tree's depth.
pub fn tree_depth(s: u32) -> u64 {
    // floor(log2(s+1)) + 1
    u64::from((u64::from(s) + 1).ilog2()) + 1
}
