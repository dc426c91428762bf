//! The direct translation of a PRAM program into an actor program (Baude, Section 5,
//! Definition 3 and the remark on communication-predictable programs; Theorem 1's
//! construction of PPU actors that replicate the CPU).
//!
//! Actors: one serialized PPU actor per PPU `0..S_max` and one serialized *cell actor* per
//! global cell the run touches. Each PPU actor holds a replica of the CPU (registers, program
//! counter, `nact`) and its own PPU registers and local memory; it spends one event per
//! executed instruction, chained by a `Step` message to itself, so instruction `k` is the
//! behaviour the actor has after `k` steps. At a global instruction a participating PPU sends
//! `Req{g_step, kind, value}` to the cell; a read or fetch-and-op waits for the `Reply`
//! (select-accept) and completes in a separate event, which sends the next `Step`; a write
//! continues at once (no acknowledgement). `cread`: every PPU actor reads the cell (internal
//! reads never conflict); `cwrite`: PPU actor 0 writes for the CPU.
//!
//! A cell holds its *schedule* `[(g_step, count)]`, taken from the reference interpreter's
//! access trace (the paper's communication-predictable programs have a schedule independent
//! of the data; for the others this is the oracle of Choice 5 of `docs/models/actor-pram.md`).
//! It accepts only requests of its current scheduled step; reads are answered at once with
//! the value before the step; writes are resolved by the variant's rule when the step's count
//! is complete; fetch-and-op replies go out in pid order when the count is complete (the
//! reference's serialization), at most `F` per event.
//!
//! *Broadcast-sync* (baseline B2, Theorem 1's construction, [`simulate_broadcast_sync`]):
//! the same PPU and cell actors, but no PPU actor chains its own steps. A CPU actor starts
//! every instruction by a `Go` to PPU actor 0; PPU actor `i` passes it on to `2i + 1` and
//! `2i + 2` (a fan-out-2 tree), executes the instruction, and sends `Done` to its parent once
//! its own instruction is complete (a read's reply has come) and both children have sent
//! `Done`; the CPU actor starts the next instruction when PPU actor 0's `Done` comes, until it
//! reports the halt. Every PRAM step then costs about `2 log2 S` depth: the `Θ(T log S)` of
//! Theorem 1.
//!
//! The result is checked against the reference: final global memory, CPU registers and every
//! PPU register. A program the reference rejects (a conflict, a range error) returns the
//! reference's error: the same kind and global step (Choice 5).

use netcore::pram::{AccessKind, CPU_PID, Instr, Item, Limits as PramLimits, Op, Program, Variant};
use serde::Serialize;

use crate::actor::{
    ActorError, ActorId, ActorMetrics, Behaviour, Ctx, EventDag, Limits, Runtime, Scheduler,
};
use crate::error::Error;
use crate::limits::{BYTES, DIRECT_BYTES_PER_CELL, DIRECT_BYTES_PER_ENTRY, DIRECT_BYTES_PER_PPU};
use netcore::limits::{TooLarge, check};

/// How the PPU actors' instructions are sequenced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sync {
    /// Each PPU actor chains its own instructions (`Step` to itself): the direct translation.
    Chained,
    /// A CPU actor synchronises every instruction through a fan-out-2 tree of the PPU actors
    /// and back (baseline B2, Theorem 1's construction).
    Broadcast,
}

/// What a direct run reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DirectReport {
    /// How the instructions were sequenced.
    pub sync: Sync,
    /// The reference's `T`, `S`, `G`, `W`.
    pub pram: netcore::pram::Cost,
    /// The actor run's measures.
    pub actor: ActorMetrics,
    /// PPU actors (`S_max`).
    pub ppu_actors: u64,
    /// Cell actors (cells touched by the run).
    pub cell_actors: u64,
    /// The largest number of cells one PPU actor is acquainted with.
    pub max_acquaintances: u64,
    /// The largest number of reads (and fetch-and-ops) issued by one PPU actor.
    pub max_reads: u64,
    /// The program passes the static test of Definition 3.
    pub predictable: bool,
    /// Where the cells' schedules came from.
    pub schedule: ScheduleSource,
    /// Final memory, CPU and PPU registers equal the reference's.
    pub verified: bool,
    /// The final global memory of the actor run.
    #[serde(skip)]
    pub memory: Vec<i64>,
    /// The event DAG and every actor's name (`PPU i`, `cell a`, `CPU`), recorded only for a
    /// picture ([`simulate_recorded`]).
    #[serde(skip)]
    pub recorded: Option<(EventDag, Vec<String>)>,
}

/// Where the cells' schedules came from (Choice 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScheduleSource {
    /// A reference run on a zero input (predictable programs, Definition 3).
    ZeroInput,
    /// The reference trace of this run (an oracle, for unpredictable programs or when the
    /// zero-input run fails).
    ReferenceTrace,
}

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

/// A program as the PPU replicas execute it: instructions, jump targets and sizes.
#[derive(Debug, Clone)]
pub(crate) struct Code {
    code: Vec<Instr>,
    targets: Vec<u32>,
    pub(crate) variant: Variant,
    mem: u64,
    pub(crate) ppus: u32,
    pub(crate) lmem: u32,
}

impl Code {
    pub(crate) fn new(program: &Program) -> Result<Self, Error> {
        let (code, targets) = compile(program)?;
        Ok(Code {
            code,
            targets,
            variant: program.variant(),
            mem: program.mem(),
            ppus: program.ppus(),
            lmem: program.lmem(),
        })
    }

    /// The instruction at `pc`.
    pub(crate) fn at(&self, pc: u32) -> Option<&Instr> {
        self.code.get(pc as usize)
    }
}

/// Read-only data every actor shares: the code and the placement of cells.
#[derive(Debug)]
pub struct Env {
    code: Code,
    /// Touched addresses, sorted; cell `i` is actor `cell_base + i`.
    cells: Vec<u64>,
    cell_base: u32,
    f_send: usize,
    ppus: u32,
    /// Broadcast-sync: the CPU actor.
    cpu: ActorId,
}

impl Env {
    fn cell(&self, addr: u64) -> Option<ActorId> {
        let i = self.cells.binary_search(&addr).ok()?;
        let i = u32::try_from(i).ok()?;
        Some(ActorId(self.cell_base.checked_add(i)?))
    }
}

/// Where a reply goes in a waiting PPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dest {
    Cpu(u8),
    Ppu(u8),
}

/// A PPU actor: the replicated CPU and one PPU.
#[derive(Debug, Clone)]
pub struct PpuActor {
    pub(crate) pid: u32,
    pub(crate) pc: u32,
    nact: u32,
    g: u64,
    pub(crate) cpu: [i64; 16],
    pub(crate) regs: [i64; 16],
    local: Vec<i64>,
    waiting: Option<(u64, Dest)>,
    pub(crate) halted: bool,
}

/// What one executed instruction asks of the memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Effect {
    /// Go on with the next instruction.
    Next,
    /// `halt`.
    Halt,
    /// An access of the current global step; a read or fetch-and-op waits for its reply,
    /// which goes to `wait`.
    Access { addr: u64, kind: AccessKind, value: i64, wait: Option<Dest> },
}

/// A cell actor.
#[derive(Debug, Clone)]
pub struct CellActor {
    addr: u64,
    value: i64,
    schedule: Vec<(u64, u32)>,
    at: usize,
    got: u32,
    /// Writes or fetch-and-ops of the current step: (pid, value, reply_to, kind).
    pending: Vec<(u32, i64, ActorId, AccessKind)>,
    outbox: Vec<(ActorId, u64, i64)>,
}

/// Broadcast-sync: a PPU actor in the tree (its parent is `(pid − 1) / 2`, or the CPU actor
/// for pid 0; its children `2 pid + 1` and `2 pid + 2` when they exist).
#[derive(Debug, Clone)]
pub struct TreePpu {
    ppu: PpuActor,
    /// Between its `Go` and its `Done`.
    in_step: bool,
    /// Its own instruction is complete.
    own_done: bool,
    /// Children that have not sent `Done` yet.
    pending: u8,
}

/// Broadcast-sync: the CPU actor, the root of the tree.
#[derive(Debug, Clone, Copy)]
pub struct CpuActor {
    /// Instructions started.
    steps: u64,
    halted: bool,
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
fn children(pid: u32, ppus: u32) -> impl Iterator<Item = ActorId> {
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

fn addr_of(base: i64, off: i64, mem: u64) -> Option<u64> {
    let a = base.checked_add(off)?;
    let a = u64::try_from(a).ok()?;
    (a < mem).then_some(a)
}

impl PpuActor {
    fn active(&self) -> bool {
        self.pid < self.nact
    }

    fn pred(&self, pred: Option<netcore::pram::PReg>) -> bool {
        pred.is_none_or(|p| self.regs[usize::from(p.0)] != 0)
    }

    /// A PPU actor of `pid` before its first instruction.
    pub(crate) fn new(pid: u32, lmem: u32) -> Self {
        PpuActor {
            pid,
            pc: 0,
            nact: 0,
            g: 0,
            cpu: [0; 16],
            regs: [0; 16],
            local: vec![0; lmem as usize],
            waiting: None,
            halted: false,
        }
    }

    /// The state in words (Choice 9): 16 CPU and 16 PPU registers, pc, nact, pid, step, and
    /// the local memory.
    pub(crate) fn words(&self) -> u64 {
        36 + self.local.len() as u64
    }

    /// Stores a reply where the access that waits for it said.
    pub(crate) fn store(&mut self, dest: Dest, value: i64) {
        match dest {
            Dest::Cpu(d) => self.cpu[usize::from(d)] = value,
            Dest::Ppu(d) => self.regs[usize::from(d)] = value,
        }
    }

    /// Executes the instruction at `pc` (Theorem 1's construction: the replica of the CPU and
    /// one PPU); an error names what broke.
    pub(crate) fn exec(&mut self, env: &Code) -> Result<Effect, String> {
        let pc = self.pc;
        let Some(instr) = env.code.get(pc as usize) else {
            return Err(format!("pc {pc} out of range"));
        };
        self.pc += 1;
        let cop = |cpu: &[i64; 16], b: netcore::pram::COperand| match b {
            netcore::pram::COperand::Reg(r) => cpu[usize::from(r.0)],
            netcore::pram::COperand::Imm(i) => i,
        };
        let active = self.active();
        let mut effect = Effect::Next;
        match *instr {
            Instr::Halt => {
                self.halted = true;
                effect = Effect::Halt;
            }
            Instr::Set { d, imm } => self.cpu[usize::from(d.0)] = imm,
            Instr::Op { op, d, a, b } => {
                let b = cop(&self.cpu, b);
                if op.divides() && b == 0 {
                    return Err(format!("division by zero at pc {pc}"));
                }
                self.cpu[usize::from(d.0)] = op.apply(self.cpu[usize::from(a.0)], b);
            }
            Instr::Jmp { .. } => self.pc = env.targets[pc as usize],
            Instr::Jz { a, .. } => {
                if self.cpu[usize::from(a.0)] == 0 {
                    self.pc = env.targets[pc as usize];
                }
            }
            Instr::Jnz { a, .. } => {
                if self.cpu[usize::from(a.0)] != 0 {
                    self.pc = env.targets[pc as usize];
                }
            }
            Instr::Active { n } => {
                let n = cop(&self.cpu, n);
                self.nact = u32::try_from(n)
                    .ok()
                    .filter(|&n| n <= env.ppus)
                    .ok_or_else(|| format!("active {n} out of range"))?;
            }
            Instr::CRead { d, addr } => {
                self.g += 1;
                let a = addr_of(self.cpu[usize::from(addr.base.0)], addr.off, env.mem)
                    .ok_or_else(|| "cread address out of range".to_string())?;
                let wait = Some(Dest::Cpu(d.0));
                effect = Effect::Access { addr: a, kind: AccessKind::Read, value: 0, wait };
            }
            Instr::CWrite { addr, s } => {
                self.g += 1;
                if self.pid == 0 {
                    let a = addr_of(self.cpu[usize::from(addr.base.0)], addr.off, env.mem)
                        .ok_or_else(|| "cwrite address out of range".to_string())?;
                    let v = self.cpu[usize::from(s.0)];
                    effect =
                        Effect::Access { addr: a, kind: AccessKind::Write, value: v, wait: None };
                }
            }
            _ if !active => {
                if instr.is_global() {
                    self.g += 1;
                }
            }
            Instr::PSet { d, imm } => self.regs[usize::from(d.0)] = imm,
            Instr::PPid { d } => self.regs[usize::from(d.0)] = i64::from(self.pid),
            Instr::PNact { d } => self.regs[usize::from(d.0)] = i64::from(self.nact),
            Instr::PBcast { d, a } => self.regs[usize::from(d.0)] = self.cpu[usize::from(a.0)],
            Instr::POp { op, d, a, b } => {
                let b = match b {
                    netcore::pram::POperand::Reg(r) => self.regs[usize::from(r.0)],
                    netcore::pram::POperand::Imm(i) => i,
                };
                if op.divides() && b == 0 {
                    return Err(format!("division by zero at pc {pc}"));
                }
                self.regs[usize::from(d.0)] = apply(op, self.regs[usize::from(a.0)], b);
            }
            Instr::PSel { d, c, a, b } => {
                let r = &self.regs;
                self.regs[usize::from(d.0)] = if r[usize::from(c.0)] != 0 {
                    r[usize::from(a.0)]
                } else {
                    r[usize::from(b.0)]
                };
            }
            Instr::PLload { d, addr } => {
                let at =
                    addr_of(self.regs[usize::from(addr.base.0)], addr.off, u64::from(env.lmem))
                        .ok_or_else(|| "local address out of range".to_string())?;
                self.regs[usize::from(d.0)] = self.local[usize::try_from(at).unwrap_or(0)];
            }
            Instr::PLstore { addr, s } => {
                let at =
                    addr_of(self.regs[usize::from(addr.base.0)], addr.off, u64::from(env.lmem))
                        .ok_or_else(|| "local address out of range".to_string())?;
                self.local[usize::try_from(at).unwrap_or(0)] = self.regs[usize::from(s.0)];
            }
            Instr::PRead { d, addr, pred } => {
                self.g += 1;
                if self.pred(pred) {
                    let a = addr_of(self.regs[usize::from(addr.base.0)], addr.off, env.mem)
                        .ok_or_else(|| "read address out of range".to_string())?;
                    let wait = Some(Dest::Ppu(d.0));
                    effect = Effect::Access { addr: a, kind: AccessKind::Read, value: 0, wait };
                }
            }
            Instr::PWrite { addr, s, pred } => {
                self.g += 1;
                if self.pred(pred) {
                    let a = addr_of(self.regs[usize::from(addr.base.0)], addr.off, env.mem)
                        .ok_or_else(|| "write address out of range".to_string())?;
                    let v = self.regs[usize::from(s.0)];
                    effect =
                        Effect::Access { addr: a, kind: AccessKind::Write, value: v, wait: None };
                }
            }
            Instr::PFop { op, d, addr, s, pred } => {
                self.g += 1;
                if self.pred(pred) {
                    let a = addr_of(self.regs[usize::from(addr.base.0)], addr.off, env.mem)
                        .ok_or_else(|| "fetch address out of range".to_string())?;
                    let v = self.regs[usize::from(s.0)];
                    let wait = Some(Dest::Ppu(d.0));
                    effect =
                        Effect::Access { addr: a, kind: AccessKind::Fetch(op), value: v, wait };
                }
            }
        }
        Ok(effect)
    }

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

fn apply(op: Op, a: i64, b: i64) -> i64 {
    op.apply(a, b)
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

/// Builds the cells' schedules from a reference run's trace, counting its bytes and
/// stopping (with `overflow`) once they exceed the budget, so a huge run is refused without
/// storing its trace.
#[derive(Debug)]
struct ScheduleSink {
    ppus: u32,
    budget: u64,
    bytes: u64,
    overflow: bool,
    /// (addr, g_step, count).
    per_cell: Vec<(u64, u64, u32)>,
    /// (pid, addr).
    acq: Vec<(u32, u64)>,
    reads: Vec<u64>,
}

impl ScheduleSink {
    fn new(ppus: u32, budget: u64) -> Self {
        ScheduleSink {
            ppus,
            budget,
            bytes: 0,
            overflow: false,
            per_cell: Vec::new(),
            acq: Vec::new(),
            reads: vec![0; ppus as usize],
        }
    }
}

impl netcore::pram::TraceSink for ScheduleSink {
    fn step(&mut self, g_step: u64, _pc: u32, accesses: &[netcore::pram::Access]) {
        if self.overflow {
            return;
        }
        for a in accesses {
            let cpu_read = a.pid == CPU_PID && a.kind == AccessKind::Read;
            let entries = if cpu_read { 1 + u64::from(self.ppus) } else { 2 };
            self.bytes = self.bytes.saturating_add(entries * DIRECT_BYTES_PER_ENTRY);
            if self.bytes > self.budget {
                self.overflow = true;
                return;
            }
            if a.pid == CPU_PID {
                let count = if cpu_read { self.ppus } else { 1 };
                self.per_cell.push((a.addr, g_step, count));
                if cpu_read {
                    for pid in 0..self.ppus {
                        self.acq.push((pid, a.addr));
                        self.reads[pid as usize] += 1;
                    }
                } else {
                    self.acq.push((0, a.addr));
                }
            } else {
                self.per_cell.push((a.addr, g_step, 1));
                self.acq.push((a.pid, a.addr));
                if a.kind != AccessKind::Write {
                    self.reads[a.pid as usize] += 1;
                }
            }
        }
    }
}

/// Jump targets: `targets[pc]` is where the jump at `pc` goes.
fn compile(program: &Program) -> Result<(Vec<Instr>, Vec<u32>), Error> {
    let mut labels: Vec<(&str, u32)> = Vec::new();
    let mut code = Vec::new();
    for item in program.code() {
        match item {
            Item::Label(l) => {
                let at = u32::try_from(code.len()).map_err(|_| too_long())?;
                labels.push((l.as_str(), at));
            }
            Item::Instr(i) => code.push(i.clone()),
        }
    }
    labels.sort_unstable();
    let targets = code
        .iter()
        .map(|i| {
            i.label()
                .and_then(|l| labels.binary_search_by(|(k, _)| k.cmp(&l)).ok())
                .map_or(0, |k| labels[k].1)
        })
        .collect();
    Ok((code, targets))
}

fn too_long() -> Error {
    Error::InvalidConfig { field: "program", rule: "at most 2^32 instructions", got: "more".into() }
}

/// Runs `program` on `input` through the direct translation under `scheduler`.
///
/// # Examples
///
/// ```
/// use actor_pram::actor::Scheduler;
/// use actor_pram::direct::simulate_direct;
/// use actor_pram::netcore::pram::{Limits, library::Algorithm};
///
/// let prefix = Algorithm::PrefixSums.instance(8, 0)?;
/// let report = simulate_direct(&prefix.program, &prefix.input, Scheduler::Fifo, &Limits::default())?;
/// assert!(report.verified);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// - [`Error::Pram`] if the program breaks a static rule or the reference run fails;
/// - [`Error::InvalidConfig`] for a program the translation cannot take (e.g. more than
///   `2^32` instructions);
/// - [`Error::TooLarge`] past the memory limits of [`crate::limits`];
/// - [`Error::Actor`] if the actor runtime refuses an event or is left stuck;
/// - [`Error::Mismatch`] if the actor run's result differs from the reference.
pub fn simulate_direct(
    program: &Program,
    input: &[i64],
    scheduler: Scheduler,
    limits: &PramLimits,
) -> Result<DirectReport, Error> {
    run_direct(program, input, scheduler, limits, Sync::Chained, None)
}

/// Runs `program` on `input` as broadcast-sync (baseline B2, Theorem 1's construction): the
/// direct translation's PPU and cell actors, every instruction started by a CPU actor down a
/// fan-out-2 tree of the PPU actors and completed back up it.
///
/// # Errors
///
/// As [`simulate_direct`].
pub fn simulate_broadcast_sync(
    program: &Program,
    input: &[i64],
    scheduler: Scheduler,
    limits: &PramLimits,
) -> Result<DirectReport, Error> {
    run_direct(program, input, scheduler, limits, Sync::Broadcast, None)
}

/// Runs `program` as [`simulate_direct`] (`Sync::Chained`) or [`simulate_broadcast_sync`]
/// (`Sync::Broadcast`) do, recording the event DAG and the actors' names in the report's
/// `recorded` (for a picture of the run), with at most `max_events` events (the recorded DAG
/// grows with them; past it, `ActorError::EventLimit`).
pub fn simulate_recorded(
    program: &Program,
    input: &[i64],
    scheduler: Scheduler,
    limits: &PramLimits,
    sync: Sync,
    max_events: u64,
) -> Result<DirectReport, Error> {
    run_direct(program, input, scheduler, limits, sync, Some(max_events))
}

fn run_direct(
    program: &Program,
    input: &[i64],
    scheduler: Scheduler,
    limits: &PramLimits,
    sync: Sync,
    record: Option<u64>,
) -> Result<DirectReport, Error> {
    let ppus = program.ppus();
    // The PPU actors' state is known before anything runs: refuse early (`crate::limits`).
    let per_ppu = DIRECT_BYTES_PER_PPU + 8 * u64::from(program.lmem());
    let fixed = u64::from(ppus).saturating_mul(per_ppu);
    check("S", fixed, limits.max_bytes, BYTES)?;
    let budget = limits.max_bytes - fixed;
    // Definition 3: a predictable program's schedule is that of a run on a zero input
    // (Choice 5); the others get the reference trace of this run as an oracle.
    let predictable = crate::predict::predictability(program).is_ok();
    let mut sink = ScheduleSink::new(ppus, budget);
    let mut schedule_source = ScheduleSource::ZeroInput;
    let reference =
        if predictable && netcore::pram::run_traced(program, &[], limits, &mut sink).is_ok() {
            netcore::pram::run_traced(program, input, limits, &mut netcore::pram::NoTrace)?
        } else {
            sink = ScheduleSink::new(ppus, budget);
            schedule_source = ScheduleSource::ReferenceTrace;
            netcore::pram::run_traced(program, input, limits, &mut sink)?
        };
    if sink.overflow {
        let needed = fixed.saturating_add(sink.bytes);
        return Err(TooLarge {
            field: "accesses",
            limit: limits.max_bytes,
            estimate: needed,
            unit: BYTES,
        }
        .into());
    }
    let ScheduleSink { mut per_cell, mut acq, reads, bytes: sink_bytes, .. } = sink;
    per_cell.sort_unstable();
    let mut cells: Vec<u64> = Vec::new();
    let mut schedules: Vec<Vec<(u64, u32)>> = Vec::new();
    for &(addr, g, count) in &per_cell {
        if cells.last() != Some(&addr) {
            cells.push(addr);
            schedules.push(Vec::new());
        }
        let s = schedules.last_mut().ok_or_else(too_long)?;
        match s.last_mut() {
            Some((lg, c)) if *lg == g => *c = c.saturating_add(count),
            _ => s.push((g, count)),
        }
    }
    acq.sort_unstable();
    acq.dedup();
    // One cell actor per touched cell: checked before any actor is spawned.
    let cell_bytes = (cells.len() as u64).saturating_mul(DIRECT_BYTES_PER_CELL);
    check(
        "cells",
        fixed.saturating_add(sink_bytes).saturating_add(cell_bytes),
        limits.max_bytes,
        BYTES,
    )?;
    let cell_base = ppus;
    let ncells = u32::try_from(cells.len()).map_err(|_| too_long())?;
    let env = Env {
        code: Code::new(program)?,
        cells,
        cell_base,
        f_send: Limits::default().f_send as usize,
        ppus,
        cpu: ActorId(cell_base.checked_add(ncells).ok_or_else(too_long)?),
    };
    // Recording the DAG (for a picture) caps the events at the caller's number.
    let actor_limits = match record {
        Some(max_events) => Limits { record_dag: true, max_events, ..Limits::default() },
        None => Limits::default(),
    };
    let mut rt: Runtime<Node> = Runtime::new(scheduler, actor_limits);
    let mut k = 0;
    for pid in 0..ppus {
        let mut mine = Vec::new();
        while k < acq.len() && acq[k].0 == pid {
            if let Some(c) = env.cell(acq[k].1) {
                mine.push(c);
            }
            k += 1;
        }
        let ppu = PpuActor::new(pid, program.lmem());
        match sync {
            Sync::Chained => rt.spawn(Node::Ppu(ppu), &mine)?,
            Sync::Broadcast => {
                mine.extend(children(pid, ppus));
                mine.push(if pid == 0 { env.cpu } else { ActorId((pid - 1) / 2) });
                let t = TreePpu { ppu, in_step: false, own_done: false, pending: 0 };
                rt.spawn(Node::TreePpu(t), &mine)?
            }
        };
    }
    let max_acquaintances = {
        let mut best = 0u64;
        let mut i = 0;
        while i < acq.len() {
            let j = acq[i..].iter().take_while(|x| x.0 == acq[i].0).count();
            best = best.max(j as u64);
            i += j;
        }
        best
    };
    for (addr, schedule) in env.cells.iter().zip(schedules) {
        let value = usize::try_from(*addr).ok().and_then(|a| input.get(a)).copied().unwrap_or(0);
        rt.spawn(
            Node::Cell(CellActor {
                addr: *addr,
                value,
                schedule,
                at: 0,
                got: 0,
                pending: Vec::new(),
                outbox: Vec::new(),
            }),
            &[],
        )?;
    }
    match sync {
        Sync::Chained => {
            for pid in 0..ppus {
                rt.inject(ActorId(pid), Msg::Step)?;
            }
        }
        Sync::Broadcast => {
            let root: Vec<ActorId> = (ppus > 0).then_some(ActorId(0)).into_iter().collect();
            rt.spawn(Node::Cpu(CpuActor { steps: 0, halted: false }), &root)?;
            rt.inject(env.cpu, Msg::Step)?;
        }
    }
    let actor = rt.run(&env)?;
    // Results: memory = input overlaid with the cells; registers from the PPU actors.
    let mut memory = vec![0; reference.memory.len()];
    for (m, v) in memory.iter_mut().zip(input) {
        *m = *v;
    }
    let mut ok = true;
    let mut regs = vec![vec![0i64; ppus as usize]; 16];
    for b in rt.behaviours() {
        match b {
            Node::Cell(c) => {
                if let Some(m) = usize::try_from(c.addr).ok().and_then(|a| memory.get_mut(a)) {
                    *m = c.value;
                }
                ok &= c.at == c.schedule.len();
            }
            Node::Cpu(c) => ok &= c.halted,
            Node::Ppu(p) | Node::TreePpu(TreePpu { ppu: p, .. }) => {
                ok &= p.halted;
                ok &= p.cpu == reference.cpu_regs;
                for (r, reg) in regs.iter_mut().enumerate() {
                    reg[p.pid as usize] = p.regs[r];
                }
            }
        }
    }
    let verified = ok && memory == reference.memory && regs == reference.ppu_regs;
    let recorded = rt.take_dag().map(|dag| {
        let names = rt
            .behaviours()
            .iter()
            .map(|b| match b {
                Node::Ppu(p) | Node::TreePpu(TreePpu { ppu: p, .. }) => format!("PPU {}", p.pid),
                Node::Cell(c) => format!("cell {}", c.addr),
                Node::Cpu(_) => String::from("CPU"),
            })
            .collect();
        (dag, names)
    });
    Ok(DirectReport {
        sync,
        pram: reference.cost,
        actor,
        ppu_actors: u64::from(ppus),
        cell_actors: env.cells.len() as u64,
        max_acquaintances,
        max_reads: reads.iter().copied().max().unwrap_or(0),
        predictable,
        schedule: schedule_source,
        verified,
        memory,
        recorded,
    })
}
