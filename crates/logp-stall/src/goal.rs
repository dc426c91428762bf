//! GOAL schedules: the text format of LogGOPSim and its Schedgen generator, as a workload
//! source beyond the paper (issue 4, item 7).
//!
//! - [`parse()`]: the grammar `num_ranks <P>` then `rank <r> { ... }` blocks of lines
//!   `<label>: send <n>b to <dst> [tag <t>]`, `<label>: recv <n>b from <src> [tag <t>]`,
//!   `<label>: calc <time>`, `<label> requires <label>`, `<label> irequires <label>`, comments
//!   `//`. Malformed text is an [`Error::GoalSyntax`](crate::Error::GoalSyntax) with its line
//!   number; a schedule that cannot run (unmatched send/recv, dependency cycle) an
//!   [`Error::GoalSchedule`](crate::Error::GoalSchedule).
//! - [`schedule`]: the parsed [`Schedule`] in flat form, and the bounds of the format
//!   ([`schedule::ANY`], [`schedule::MAX_TIME`], [`schedule::MAX_RANKS`]).
//! - [`generate`]: binomial broadcast, dissemination and linear all-to-all schedules, written as
//!   GOAL text, named by a [`Generator`].
//! - [`loggops`]: the LogGOPSim-compatible engine, on an active queue of its own that pops in
//!   LogGOPSim's `(time, stamp)` order (no capacity limit, `g` per processor per direction,
//!   `o` per send/recv, makespan = latest end of CPU-busy time).
//! - [`logp`]: a GOAL rank as a [`LogpProcess`](crate::LogpProcess), to run schedules on the
//!   LogP machine under every stalling rule and on the cycle simulation of [`crate::sim`].
//!
//! The grammar is LogGOPSim's `txt2bin` grammar: besides the above, `/* ... */` comments
//! (across lines), `recv ... from -1` and `tag -1` (any source, any tag) and the annotations
//! `cpu <c>` and `nic <k>` (after the tag, in this order; a calc takes only `cpu`).
//!
//! Messages are matched dynamically as LogGOPSim matches them (see [`loggops`]). Without
//! wildcards a schedule with more sends than recvs for some `(src, dst, tag)` (or the
//! reverse) is rejected before it runs. The LogP mode ([`logp`]) matches statically: the
//! k-th send from `s` to `d` with tag `t` is received by the k-th recv at `d` from `s` with
//! tag `t`; it does not model wildcards or annotations.

pub mod generate;
pub mod loggops;
pub mod logp;
mod op_table;
mod op_words;
pub mod parse;
pub mod schedule;

pub use generate::{Generator, binomial_broadcast, dissemination, linear_alltoall};
pub use loggops::{Busy, CpuInterval, LogGopsParams, LogGopsRun, run_loggops, run_loggops_traced};
pub use logp::{GoalProcess, GoalRankState, goal_programs};
pub use parse::{parse, parse_file, parse_generated};
pub use schedule::{Dep, DepKind, Op, OpKind, Schedule};
