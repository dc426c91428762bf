//! The actors of the direct translation (Baude, Section 3, Definition 3) and their messages:
//! PPU actors chaining their instructions, cell actors serving their step schedules, and
//! broadcast-sync's tree of PPU actors under a CPU actor (Theorem 1's construction).

use netcore::pram::{AccessKind, Variant};

use super::replica::{Code, Effect, PpuActor};
use crate::actor::{ActorError, ActorId, Behaviour, Ctx};

/// The messages of the direct translation.
#[derive(Debug, Clone, Copy)]
pub enum Msg {
    /// Execute the next instruction (a PPU actor's message to itself; the first is injected).
    Step,
    /// An access of global step `g_step`.
    Req {
        /// 1-based global step.
        g_step: u64,
        /// The PPU.
        pid: u32,
        /// Read, write, fetch-and-op.
        kind: AccessKind,
        /// The value written or contributed.
        value: i64,
        /// Where the reply goes.
        reply_to: ActorId,
    },
    /// The answer to a read or fetch-and-op.
    Reply {
        /// 1-based global step.
        g_step: u64,
        /// The value.
        value: i64,
    },
    /// A cell's message to itself: send the next batch of replies.
    Flush,
    /// Broadcast-sync: execute the next instruction (the CPU actor's, passed down the tree).
    Go,
    /// Broadcast-sync: the sender's subtree completed the instruction; `halted` is PPU actor
    /// 0's halt (the replicas halt together).
    Done {
        /// The instruction was `halt`.
        halted: bool,
    },
}

/// Read-only data every actor shares: the code and the placement of cells.
#[derive(Debug)]
pub struct Env {
    pub(super) code: Code,
    /// Touched addresses, sorted; cell `i` is actor `cell_base + i`.
    pub(super) cells: Vec<u64>,
    pub(super) cell_base: u32,
    pub(super) f_send: usize,
    pub(super) ppus: u32,
    /// Broadcast-sync: the CPU actor.
    pub(super) cpu: ActorId,
}

impl Env {
    pub(super) fn cell(&self, addr: u64) -> Option<ActorId> {
        let i = self.cells.binary_search(&addr).ok()?;
        let i = u32::try_from(i).ok()?;
        Some(ActorId(self.cell_base.checked_add(i)?))
    }
}

/// A cell actor.
#[derive(Debug, Clone)]
pub struct CellActor {
    pub(super) addr: u64,
    pub(super) value: i64,
    pub(super) schedule: Vec<(u64, u32)>,
    pub(super) at: usize,
    pub(super) got: u32,
    /// Writes or fetch-and-ops of the current step: (pid, value, reply_to, kind).
    pub(super) pending: Vec<(u32, i64, ActorId, AccessKind)>,
    pub(super) outbox: Vec<(ActorId, u64, i64)>,
}

/// Broadcast-sync: a PPU actor in the tree (its parent is `(pid − 1) / 2`, or the CPU actor
/// for pid 0; its children `2 pid + 1` and `2 pid + 2` when they exist).
#[derive(Debug, Clone)]
pub struct TreePpu {
    pub(super) ppu: PpuActor,
    /// Between its `Go` and its `Done`.
    pub(super) in_step: bool,
    /// Its own instruction is complete.
    pub(super) own_done: bool,
    /// Children that have not sent `Done` yet.
    pub(super) pending: u8,
}

/// Broadcast-sync: the CPU actor, the root of the tree.
#[derive(Debug, Clone, Copy)]
pub struct CpuActor {
    /// Instructions started.
    pub(super) steps: u64,
    pub(super) halted: bool,
}

/// The actors of the direct translation.
#[derive(Debug, Clone)]
pub enum Node {
    /// A PPU actor.
    Ppu(PpuActor),
    /// A cell actor.
    Cell(CellActor),
    /// A PPU actor of broadcast-sync.
    TreePpu(TreePpu),
    /// The CPU actor of broadcast-sync.
    Cpu(CpuActor),
}

/// The children of `pid` in the fan-out-2 tree of `ppus` PPU actors.
pub(super) fn children(pid: u32, ppus: u32) -> impl Iterator<Item = ActorId> {
    [2 * u64::from(pid) + 1, 2 * u64::from(pid) + 2]
        .into_iter()
        .filter(move |&c| c < u64::from(ppus))
        .filter_map(|c| u32::try_from(c).ok().map(ActorId))
}

impl TreePpu {
    fn parent(&self, env: &Env) -> ActorId {
        match self.ppu.pid {
            0 => env.cpu,
            pid => ActorId((pid - 1) / 2),
        }
    }

    /// `Go`: pass it to the children, execute the instruction.
    fn go(&mut self, env: &Env, ctx: &mut Ctx<'_, Node>) -> Result<(), ActorError> {
        let me = ctx.me();
        self.in_step = true;
        self.pending = 0;
        for c in children(self.ppu.pid, env.ppus) {
            ctx.send(c, Msg::Go);
            self.pending += 1;
        }
        self.own_done = match self.ppu.exec(&env.code).map_err(|what| protocol(me, what))? {
            Effect::Halt | Effect::Next => true,
            Effect::Access { addr, kind, value, wait } => {
                self.ppu.request(env, ctx, addr, kind, value)?;
                match wait {
                    Some(dest) => {
                        self.ppu.waiting = Some((self.ppu.g, dest));
                        false
                    }
                    None => true,
                }
            }
        };
        self.report(env, ctx);
        Ok(())
    }

    /// Sends `Done` to the parent once the instruction and both subtrees are complete.
    fn report(&mut self, env: &Env, ctx: &mut Ctx<'_, Node>) {
        if self.own_done && self.pending == 0 {
            self.in_step = false;
            self.own_done = false;
            ctx.send(self.parent(env), Msg::Done { halted: self.ppu.halted });
        }
    }
}

fn protocol(actor: ActorId, what: impl Into<String>) -> ActorError {
    ActorError::Protocol { actor, what: what.into() }
}

impl PpuActor {
    /// Executes the instruction at `pc` as an actor event: sends the access to its cell and
    /// waits for a read's reply, or sends itself the next `Step`.
    fn step(&mut self, env: &Env, ctx: &mut Ctx<'_, Node>) -> Result<(), ActorError> {
        let me = ctx.me();
        match self.exec(&env.code).map_err(|what| protocol(me, what))? {
            Effect::Halt => {}
            Effect::Next => ctx.send(me, Msg::Step),
            Effect::Access { addr, kind, value, wait } => {
                self.request(env, ctx, addr, kind, value)?;
                match wait {
                    Some(dest) => self.waiting = Some((self.g, dest)),
                    None => ctx.send(me, Msg::Step),
                }
            }
        }
        Ok(())
    }

    fn request(
        &self,
        env: &Env,
        ctx: &mut Ctx<'_, Node>,
        addr: u64,
        kind: AccessKind,
        value: i64,
    ) -> Result<(), ActorError> {
        let me = ctx.me();
        let cell = env
            .cell(addr)
            .ok_or_else(|| protocol(me, format!("address {addr} has no cell actor")))?;
        ctx.send(cell, Msg::Req { g_step: self.g, pid: self.pid, kind, value, reply_to: me });
        Ok(())
    }
}

impl CellActor {
    fn current(&self) -> Option<(u64, u32)> {
        self.schedule.get(self.at).copied()
    }

    fn flush(&mut self, env: &Env, ctx: &mut Ctx<'_, Node>) {
        let me = ctx.me();
        let room = env.f_send.saturating_sub(1).max(1);
        let take = self.outbox.len().min(room);
        for (to, g_step, value) in self.outbox.drain(..take) {
            ctx.send(to, Msg::Reply { g_step, value });
        }
        if !self.outbox.is_empty() {
            ctx.send(me, Msg::Flush);
        }
    }

    fn request(
        &mut self,
        env: &Env,
        ctx: &mut Ctx<'_, Node>,
        pid: u32,
        kind: AccessKind,
        value: i64,
        reply_to: ActorId,
    ) -> Result<(), ActorError> {
        let me = ctx.me();
        let Some((g_step, count)) = self.current() else {
            return Err(protocol(me, "a request after the schedule's end"));
        };
        self.got += 1;
        match kind {
            AccessKind::Read => ctx.send(reply_to, Msg::Reply { g_step, value: self.value }),
            AccessKind::Write | AccessKind::Fetch(_) => {
                self.pending.push((pid, value, reply_to, kind))
            }
        }
        if self.got < count {
            return Ok(());
        }
        // The step is complete: resolve writes, answer fetch-and-ops in pid order.
        self.pending.sort_unstable_by_key(|p| p.0);
        let addr = self.addr;
        if let Some(&(_, _, _, first)) = self.pending.first() {
            match first {
                AccessKind::Fetch(op) => {
                    let mut acc = self.value;
                    for &(_, v, to, _) in &self.pending {
                        self.outbox.push((to, g_step, acc));
                        acc = op.apply(acc, v);
                    }
                    self.value = acc;
                }
                AccessKind::Write => {
                    let values: Vec<i64> = self.pending.iter().map(|p| p.1).collect();
                    self.value = match env.code.variant {
                        Variant::Erew | Variant::Crew if values.len() > 1 => {
                            return Err(protocol(
                                me,
                                format!("exclusive write conflict at {addr}"),
                            ));
                        }
                        Variant::CrcwCommon if values.iter().any(|&v| v != values[0]) => {
                            return Err(protocol(me, format!("common write mismatch at {addr}")));
                        }
                        Variant::CrcwArbitrary => values[values.len() - 1],
                        Variant::CrcwFetchOp(op) => {
                            values[1..].iter().fold(values[0], |a, &b| op.apply(a, b))
                        }
                        _ => values[0],
                    };
                }
                AccessKind::Read => {}
            }
        }
        self.pending.clear();
        self.at += 1;
        self.got = 0;
        self.flush(env, ctx);
        Ok(())
    }
}

impl Behaviour for Node {
    type Msg = Msg;
    type Env = Env;

    fn accepts(&self, msg: &Msg) -> bool {
        match (self, msg) {
            (Node::Ppu(p), Msg::Step) => p.waiting.is_none() && !p.halted,
            (Node::Ppu(p), Msg::Reply { g_step, .. }) => {
                p.waiting.is_some_and(|(g, _)| g == *g_step)
            }
            (Node::Cell(c), Msg::Flush) => !c.outbox.is_empty(),
            (Node::Cell(c), Msg::Req { g_step, .. }) => {
                c.outbox.is_empty() && c.current().is_some_and(|(g, _)| g == *g_step)
            }
            (Node::TreePpu(t), Msg::Go) => !t.in_step && !t.ppu.halted,
            (Node::TreePpu(t), Msg::Reply { g_step, .. }) => {
                t.ppu.waiting.is_some_and(|(g, _)| g == *g_step)
            }
            (Node::TreePpu(t), Msg::Done { .. }) => t.in_step && t.pending > 0,
            (Node::Cpu(c), Msg::Step | Msg::Done { .. }) => !c.halted,
            _ => false,
        }
    }

    fn handle(&mut self, env: &Env, ctx: &mut Ctx<'_, Self>, msg: Msg) -> Result<(), ActorError> {
        match (self, msg) {
            (Node::Ppu(p), Msg::Step) => p.step(env, ctx),
            (Node::Ppu(p), Msg::Reply { value, .. }) => {
                match p.waiting.take() {
                    Some((_, dest)) => p.store(dest, value),
                    None => return Err(protocol(ctx.me(), "a reply while not waiting")),
                }
                let me = ctx.me();
                ctx.send(me, Msg::Step);
                Ok(())
            }
            (Node::Cell(c), Msg::Flush) => {
                c.flush(env, ctx);
                Ok(())
            }
            (Node::Cell(c), Msg::Req { pid, kind, value, reply_to, .. }) => {
                c.request(env, ctx, pid, kind, value, reply_to)
            }
            (Node::TreePpu(t), Msg::Go) => t.go(env, ctx),
            (Node::TreePpu(t), Msg::Reply { value, .. }) => {
                match t.ppu.waiting.take() {
                    Some((_, dest)) => t.ppu.store(dest, value),
                    None => return Err(protocol(ctx.me(), "a reply while not waiting")),
                }
                t.own_done = true;
                t.report(env, ctx);
                Ok(())
            }
            (Node::TreePpu(t), Msg::Done { .. }) => {
                t.pending -= 1;
                t.report(env, ctx);
                Ok(())
            }
            (Node::Cpu(c), Msg::Step | Msg::Done { halted: false }) => {
                if env.ppus > 0 {
                    c.steps += 1;
                    ctx.send(ActorId(0), Msg::Go);
                } else {
                    c.halted = true;
                }
                Ok(())
            }
            (Node::Cpu(c), Msg::Done { halted: true }) => {
                c.halted = true;
                Ok(())
            }
            (_, m) => Err(protocol(ctx.me(), format!("unexpected {m:?}"))),
        }
    }

    fn state_words(&self) -> u64 {
        match self {
            // CPU replica (16 registers, pc, nact), 16 PPU registers, pid, step, local memory.
            Node::Ppu(p) => p.words(),
            // Address, value, schedule position and count; the schedule itself is the
            // cell's script (two words per scheduled step); pending requests and replies.
            Node::Cell(c) => {
                4 + 2 * c.schedule.len() as u64
                    + 3 * (c.pending.len() as u64)
                    + 3 * (c.outbox.len() as u64)
            }
            // A PPU actor's words and its tree state (in step, own done, pending children).
            Node::TreePpu(t) => 39 + t.ppu.local.len() as u64,
            // Instructions started and the halt.
            Node::Cpu(_) => 2,
        }
    }

    fn ids_in(msg: &Msg, out: &mut Vec<ActorId>) {
        if let Msg::Req { reply_to, .. } = msg {
            out.push(*reply_to);
        }
    }

    fn awaiting(&self) -> String {
        match self {
            Node::Ppu(p) => match p.waiting {
                Some((g, _)) => format!("the reply of global step {g} (pid {})", p.pid),
                None => format!("its next step (pid {}, pc {})", p.pid, p.pc),
            },
            Node::Cell(c) => match c.current() {
                Some((g, n)) => format!(
                    "requests of global step {g} at address {} ({} of {n} arrived)",
                    c.addr, c.got
                ),
                None => format!("nothing (address {}, schedule done)", c.addr),
            },
            Node::TreePpu(t) => match t.ppu.waiting {
                Some((g, _)) => format!("the reply of global step {g} (pid {})", t.ppu.pid),
                None if t.in_step => {
                    format!("done from {} child(ren) (pid {})", t.pending, t.ppu.pid)
                }
                None => format!("go from its parent (pid {}, pc {})", t.ppu.pid, t.ppu.pc),
            },
            Node::Cpu(c) => format!("done of instruction {} from PPU actor 0", c.steps),
        }
    }
}
