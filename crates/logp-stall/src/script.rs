//! `Script`: a small register-machine interpreter implementing [`LogpProcess`],
//! so LogP programs can be written in TOML configs.
//!
//! Registers `r0..r15` (`i64`). Operands are integers or the names `r0`..`r15`, `pid`, `p`,
//! `now`. Step-taking instructions: `compute {k}` (k steps), `idle {k}`, `wait_until {t}`
//! (idles until the clock reaches t; zero steps if already past), `wait_gap` (idles until a
//! communication op is legal); a wait ends with the idle step after which its condition
//! holds, so a script whose last instruction is a wait halts right after its last idle step
//! (`wait_until 3` alone takes steps 0, 1, 2, as `idle 3` does), `submit {dest, payload}`, `receive {into, flag, src}`.
//! Zero-step instructions, executed eagerly so `is_halted` is exact: `set`, `add`, `sub`,
//! `min`, `max`, `label {name}`, `jump {target}`, `jump_if {a, cmp, b, target}`, `halt`; a
//! target is an instruction index or the name of a `label` of the same script. More than
//! [`ZERO_STEP_LIMIT`] instructions in a row that take no step (zero-step instructions,
//! `compute`/`idle` with `k = 0`, satisfied waits) halt the script with a fault, which the
//! machine reports as [`Error::ProgramFault`] (`docs/models/logp-stall.md`, Choices:
//! zero-step loops).
#![warn(clippy::cast_possible_truncation)]

use std::sync::Arc;

use netcore::Step;
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::{Action, Delivered, LogpProcess};

/// An operand: an immediate or a name (`r0`..`r15`, `pid`, `p`, `now`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Operand {
    /// An immediate.
    Imm(i64),
    /// A register or special name.
    Name(String),
}

/// A comparison of `jump_if`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cmp {
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
}
netcore::display_config_name!(Cmp);

/// Deserialized by hand (not `untagged`), so that a bad operand is an error at its own key
/// and line that says what an operand is.
impl<'de> Deserialize<'de> for Operand {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Operand;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(
                    "an operand: an integer in the i64 range or one of r0..r15, pid, p, now",
                )
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Operand, E> {
                Ok(Operand::Imm(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Operand, E> {
                i64::try_from(v)
                    .map(Operand::Imm)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Operand, E> {
                check_operand(&Operand::Name(v.to_string()))
                    .map(|()| Operand::Name(v.to_string()))
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Str(v), &self))
            }
        }
        d.deserialize_any(Visit)
    }
}

/// A jump target: an instruction index, or the name of a `label` instruction of the same
/// script (resolved to its index when the script is built), so that inserting an instruction
/// does not move the targets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Target {
    /// An instruction index (`target = 3`).
    Index(usize),
    /// A label (`target = "loop"`).
    Label(String),
}

impl<'de> Deserialize<'de> for Target {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Target;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a jump target: an instruction index or a label's name")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Target, E> {
                usize::try_from(v)
                    .map(Target::Index)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Target, E> {
                usize::try_from(v)
                    .map(Target::Index)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Target, E> {
                Ok(Target::Label(v.to_string()))
            }
        }
        d.deserialize_any(Visit)
    }
}

impl Target {
    /// The instruction index (a label is resolved when the script is built; an unresolved
    /// one points past the code, which halts).
    fn index(&self) -> usize {
        match self {
            Target::Index(i) => *i,
            Target::Label(_) => usize::MAX,
        }
    }
}

/// One instruction (TOML: `{ op = "submit", dest = 0, payload = ["pid", "r1"] }`).
///
/// Read through `netcore::tagged`, so that an error names its key and line (serde's
/// internally tagged enums lose both).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case", deny_unknown_fields)]
pub enum Instr {
    /// `k` local steps.
    Compute {
        /// Steps (default 1).
        #[serde(default = "one")]
        k: u64,
    },
    /// `k` idle steps.
    Idle {
        /// Steps (default 1).
        #[serde(default = "one")]
        k: u64,
    },
    /// Idle until the clock reaches `t`.
    WaitUntil {
        /// The step.
        t: Operand,
    },
    /// Idle until the gap rule allows a communication op.
    WaitGap,
    /// Submit a message.
    Submit {
        /// Destination.
        dest: Operand,
        /// Words (at most `max_words`; default none).
        #[serde(default)]
        payload: Vec<Operand>,
    },
    /// Receive: words into `r[into..]`, 1/0 into `r[flag]`, the source into `r[src]`.
    Receive {
        /// First register for the payload (default 0).
        #[serde(default)]
        into: u8,
        /// Presence flag register.
        #[serde(default)]
        flag: Option<u8>,
        /// Source register.
        #[serde(default)]
        src: Option<u8>,
    },
    /// `r[reg] = value`.
    Set {
        /// Target register.
        reg: u8,
        /// Value.
        value: Operand,
    },
    /// `r[reg] = a + b`.
    Add {
        /// Target.
        reg: u8,
        /// Left.
        a: Operand,
        /// Right.
        b: Operand,
    },
    /// `r[reg] = a - b`.
    Sub {
        /// Target.
        reg: u8,
        /// Left.
        a: Operand,
        /// Right.
        b: Operand,
    },
    /// `r[reg] = min(a, b)`.
    Min {
        /// Target.
        reg: u8,
        /// Left.
        a: Operand,
        /// Right.
        b: Operand,
    },
    /// `r[reg] = max(a, b)`.
    Max {
        /// Target.
        reg: u8,
        /// Left.
        a: Operand,
        /// Right.
        b: Operand,
    },
    /// A named position for jumps (takes no step).
    Label {
        /// The name, unique in its script.
        name: String,
    },
    /// Jump to instruction `target`.
    Jump {
        /// Instruction index or label.
        target: Target,
    },
    /// Jump to `target` if `a cmp b`.
    JumpIf {
        /// Left.
        a: Operand,
        /// Comparison.
        cmp: Cmp,
        /// Right.
        b: Operand,
        /// Instruction index or label.
        target: Target,
    },
    /// Stop.
    Halt,
}

netcore::tagged!(Instr, "op");

impl Instr {
    /// The operands the instruction reads, in its fields' order.
    fn operands(&self) -> Vec<&Operand> {
        match self {
            Instr::WaitUntil { t } => vec![t],
            Instr::Submit { dest, payload } => std::iter::once(dest).chain(payload).collect(),
            Instr::Set { value, .. } => vec![value],
            Instr::Add { a, b, .. }
            | Instr::Sub { a, b, .. }
            | Instr::Min { a, b, .. }
            | Instr::Max { a, b, .. }
            | Instr::JumpIf { a, b, .. } => vec![a, b],
            _ => Vec::new(),
        }
    }

    /// Bytes a clone of the instruction allocates beyond `size_of::<Instr>()`: its names and
    /// labels and a payload's operands (`docs/models/logp-stall.md`, Limits: a default script
    /// is cloned for every processor).
    pub(crate) fn heap_bytes(&self) -> u64 {
        let names: usize = self
            .operands()
            .iter()
            .map(|o| match o {
                Operand::Name(name) => name.len(),
                Operand::Imm(_) => 0,
            })
            .sum();
        let own = match self {
            Instr::Label { name }
            | Instr::Jump { target: Target::Label(name) }
            | Instr::JumpIf { target: Target::Label(name), .. } => name.len(),
            Instr::Submit { payload, .. } => payload.len() * std::mem::size_of::<Operand>(),
            _ => 0,
        };
        (names + own) as u64
    }
}

/// The default step count of `compute` and `idle`.
fn one() -> u64 {
    1
}

/// The compared state of a script.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScriptState {
    /// Processor id.
    pub pid: u32,
    /// Registers.
    pub regs: Vec<i64>,
    /// Why the script stopped early, if it did.
    pub fault: Option<String>,
}

/// A script running on one processor.
#[derive(Debug, Clone)]
pub struct Script {
    code: Arc<Vec<Instr>>,
    pid: u32,
    p: u32,
    gap: u64,
    pc: usize,
    left: u64,
    regs: [i64; 16],
    last_comm: Option<Step>,
    now: Step,
    halted: bool,
    fault: Option<String>,
    /// The destination of the last submit as computed, when it does not fit a `u32` (the
    /// action carries `u32::MAX`; the machine's error names this value).
    wide_dest: Option<i64>,
    /// Instructions executed since the last step-taking one.
    zero_run: u32,
    /// Instructions that may still take no step, of this processor's share of the work limit.
    zero_left: u64,
}

const NAMES: [&str; 3] = ["pid", "p", "now"];

/// Most instructions a script executes in a row without taking a step; one more is a fault
/// (a loop that never takes a step would hang the machine within one step).
pub const ZERO_STEP_LIMIT: u32 = 100_000;

/// A processor's share of the work limit for instructions that take no step: `2^33 / p`.
fn zero_step_share(p: u32) -> u64 {
    crate::limits::LOGP_WORK_LIMIT / u64::from(p.max(1))
}

fn check_operand(o: &Operand) -> Result<(), String> {
    match o {
        Operand::Imm(_) => Ok(()),
        Operand::Name(n) if NAMES.contains(&n.as_str()) => Ok(()),
        Operand::Name(n) => match n.strip_prefix('r').and_then(|k| k.parse::<u8>().ok()) {
            Some(k) if k < 16 => Ok(()),
            _ => Err(format!("operand must be an integer, r0..r15, pid, p or now (got {n:?})")),
        },
    }
}

impl Script {
    /// A validated script for processor `pid` of `p`, with gap `G` (for `wait_gap`) and the
    /// payload limit `max_words` (`docs/models/logp-stall.md`, Choices: message size).
    pub fn new(
        code: Vec<Instr>,
        pid: u32,
        p: u32,
        gap: u64,
        max_words: usize,
    ) -> Result<Self, Error> {
        let err = |pc: usize, message: String| Error::Script { proc: pid, pc, message };
        let mut code = code;
        let mut labels = std::collections::BTreeMap::new();
        for (pc, ins) in code.iter().enumerate() {
            if let Instr::Label { name } = ins
                && let Some(first) = labels.insert(name.clone(), pc)
            {
                return Err(err(pc, format!("label {name:?} is also at instruction {first}")));
            }
        }
        for (pc, ins) in code.iter_mut().enumerate() {
            if let Instr::Jump { target } | Instr::JumpIf { target, .. } = ins
                && let Target::Label(name) = target
            {
                let at = labels.get(name.as_str()).copied();
                *target = Target::Index(at.ok_or_else(|| {
                    err(pc, format!("jump target label {name:?} names no label of this script"))
                })?);
            }
        }
        let n = code.len();
        for (pc, ins) in code.iter().enumerate() {
            let mut regs: Vec<u8> = Vec::new();
            match ins {
                Instr::Submit { payload, .. } if payload.len() > max_words => {
                    return Err(err(
                        pc,
                        format!(
                            "payload must have at most max_words = {max_words} words (got {})",
                            payload.len()
                        ),
                    ));
                }
                Instr::Receive { into, flag, src } => {
                    regs.push(*into);
                    regs.extend(flag.iter().chain(src.iter()));
                }
                Instr::Set { reg, .. }
                | Instr::Add { reg, .. }
                | Instr::Sub { reg, .. }
                | Instr::Min { reg, .. }
                | Instr::Max { reg, .. } => regs.push(*reg),
                Instr::Jump { target } | Instr::JumpIf { target, .. } if target.index() > n => {
                    return Err(err(
                        pc,
                        format!("jump target must satisfy target <= {n} (got {})", target.index()),
                    ));
                }
                _ => {}
            }
            for o in ins.operands() {
                check_operand(o).map_err(|m| err(pc, m))?;
            }
            if let Some(r) = regs.iter().find(|&&r| r >= 16) {
                return Err(err(pc, format!("register must satisfy r < 16 (got r{r})")));
            }
        }
        let mut s = Self {
            code: Arc::new(code),
            pid,
            p,
            gap,
            pc: 0,
            left: 0,
            regs: [0; 16],
            last_comm: None,
            now: 0,
            halted: false,
            fault: None,
            wide_dest: None,
            zero_run: 0,
            zero_left: zero_step_share(p),
        };
        s.settle_at(0);
        Ok(s)
    }

    fn val(&self, o: &Operand) -> i64 {
        match o {
            Operand::Imm(v) => *v,
            // Names are checked when the script is built: `pid`, `p`, `now` or `r0`..`r15`.
            Operand::Name(n) => match n.as_bytes() {
                b"pid" => self.pid.into(),
                b"p" => self.p.into(),
                b"now" => self.now as i64,
                &[b'r', d @ b'0'..=b'9'] => self.regs[usize::from(d - b'0')],
                _ => self.regs[n[1..].parse::<usize>().unwrap_or(0) % 16],
            },
        }
    }

    /// Counts one instruction that takes no step; past [`ZERO_STEP_LIMIT`] in a row, or past
    /// this processor's share `2^33 / p` of the run's work limit in total
    /// ([`crate::limits::LOGP_WORK_LIMIT`]: steps bound the rest of the work), the script halts
    /// with a fault. Returns whether it may go on.
    fn zero_step(&mut self) -> bool {
        self.zero_run += 1;
        if self.zero_run > ZERO_STEP_LIMIT {
            self.fault = Some(format!(
                "more than {ZERO_STEP_LIMIT} instructions in a row take no step (a loop without a step, at instruction {})",
                self.pc
            ));
            self.halted = true;
        } else if self.zero_left == 0 {
            self.fault = Some(format!(
                "more than {} instructions take no step in total, this processor's share 2^33 / p of the run's work limit (at instruction {})",
                zero_step_share(self.p),
                self.pc
            ));
            self.halted = true;
        } else {
            self.zero_left -= 1;
        }
        !self.halted
    }

    /// After a step-taking instruction (the step at `now`): moves on to the next one and
    /// settles for the step at `now + 1`.
    fn stepped(&mut self) {
        self.zero_run = 0;
        self.pc += 1;
        self.settle_at(self.now + 1);
    }

    /// Whether the wait `ins` is already satisfied at step `at` (then it takes no step).
    fn wait_satisfied(&self, ins: &Instr, at: Step) -> bool {
        match ins {
            Instr::WaitUntil { t } => at as i64 >= self.val(t),
            Instr::WaitGap => self.last_comm.is_none_or(|l| at >= l + self.gap),
            _ => false,
        }
    }

    /// Executes zero-step instructions, and waits already satisfied at step `at`, until a
    /// step-taking one (or the end), so that a script whose last action is a wait halts right
    /// after its last idle step.
    fn settle_at(&mut self, at: Step) {
        let code = Arc::clone(&self.code);
        while !self.halted {
            let Some(ins) = code.get(self.pc) else {
                self.halted = true;
                return;
            };
            let waits = matches!(ins, Instr::WaitUntil { .. } | Instr::WaitGap);
            if waits && !self.wait_satisfied(ins, at) {
                return;
            }
            if !waits
                && matches!(
                    ins,
                    Instr::Compute { k: 1.. }
                        | Instr::Idle { k: 1.. }
                        | Instr::Submit { .. }
                        | Instr::Receive { .. }
                )
            {
                return;
            }
            if !self.zero_step() {
                return;
            }
            let mut next = self.pc + 1;
            match ins {
                Instr::Set { reg, value } => self.regs[*reg as usize] = self.val(value),
                Instr::Add { reg, a, b } => {
                    self.regs[*reg as usize] = self.val(a).wrapping_add(self.val(b))
                }
                Instr::Sub { reg, a, b } => {
                    self.regs[*reg as usize] = self.val(a).wrapping_sub(self.val(b))
                }
                Instr::Min { reg, a, b } => self.regs[*reg as usize] = self.val(a).min(self.val(b)),
                Instr::Max { reg, a, b } => self.regs[*reg as usize] = self.val(a).max(self.val(b)),
                Instr::Jump { target } => next = target.index(),
                Instr::JumpIf { a, cmp, b, target } => {
                    let (a, b) = (self.val(a), self.val(b));
                    let take = match cmp {
                        Cmp::Eq => a == b,
                        Cmp::Ne => a != b,
                        Cmp::Lt => a < b,
                        Cmp::Le => a <= b,
                        Cmp::Gt => a > b,
                        Cmp::Ge => a >= b,
                    };
                    if take {
                        next = target.index();
                    }
                }
                Instr::Halt => {
                    self.halted = true;
                    return;
                }
                // Waits reach here only when satisfied at `at`: zero steps.
                Instr::Label { .. }
                | Instr::Compute { k: 0 }
                | Instr::Idle { k: 0 }
                | Instr::WaitUntil { .. }
                | Instr::WaitGap => {}
                _ => return,
            }
            self.pc = next;
        }
    }
}

impl LogpProcess for Script {
    type Payload = Vec<i64>;
    type State = ScriptState;

    fn next(&mut self, now: Step) -> Action<Vec<i64>> {
        self.now = now;
        let code = Arc::clone(&self.code);
        loop {
            let Some(ins) = code.get(self.pc) else {
                self.halted = true;
                return Action::Idle;
            };
            match ins {
                Instr::Compute { k } | Instr::Idle { k } => {
                    if self.left == 0 {
                        self.left = *k;
                    }
                    self.left -= 1;
                    if self.left == 0 {
                        self.stepped();
                    }
                    return if matches!(ins, Instr::Compute { .. }) {
                        Action::Compute
                    } else {
                        Action::Idle
                    };
                }
                Instr::WaitUntil { .. } | Instr::WaitGap if !self.wait_satisfied(ins, now) => {
                    // An idle step; the wait ends with it if it is satisfied at `now + 1`.
                    if self.wait_satisfied(ins, now + 1) {
                        self.stepped();
                    }
                    return Action::Idle;
                }
                Instr::Submit { dest, payload } => {
                    let v = self.val(dest);
                    let d = u32::try_from(v).unwrap_or(u32::MAX);
                    self.wide_dest = u32::try_from(v).is_err().then_some(v);
                    let words = payload.iter().map(|o| self.val(o)).collect();
                    self.last_comm = Some(now);
                    self.stepped();
                    return Action::Submit { dest: d, payload: words };
                }
                Instr::Receive { .. } => {
                    self.last_comm = Some(now);
                    return Action::Receive;
                }
                _ => {}
            }
            // A satisfied wait: zero steps.
            if self.zero_step() {
                self.pc += 1;
                self.settle_at(now);
            }
            if self.halted {
                return Action::Idle;
            }
        }
    }

    fn submitted_dest(&self) -> Option<i64> {
        self.wide_dest
    }

    fn on_receive(&mut self, msg: Option<Delivered<Vec<i64>>>, _now: Step) {
        if let Some(&Instr::Receive { into, flag, src }) = self.code.get(self.pc) {
            if let Some(f) = flag {
                self.regs[f as usize] = i64::from(msg.is_some());
            }
            if let Some(m) = msg {
                if let Some(s) = src {
                    self.regs[s as usize] = m.src.into();
                }
                for (k, w) in m.payload.iter().enumerate() {
                    let r = into as usize + k;
                    if r < 16 {
                        self.regs[r] = *w;
                    }
                }
            }
            self.stepped();
        }
    }

    fn is_halted(&self) -> bool {
        self.halted
    }

    fn state(&self) -> ScriptState {
        ScriptState { pid: self.pid, regs: self.regs.to_vec(), fault: self.fault.clone() }
    }

    fn fault(&self) -> Option<&str> {
        self.fault.as_deref()
    }
}
