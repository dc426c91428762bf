//! One run of an `actor-pram` config (Baude, Section 5): the program through its translation,
//! compared with the reference interpreter, and the run's report. `run --svg` shares the run
//! through `run_with`, whose direct runner records the event DAG.
#![warn(clippy::cast_possible_truncation)]

use netcore::driver::pram::LoadedProgram;
use netcore::limits::DEFAULT_MEMORY;
use netcore::pram::{Limits, Program, Variant};
use netcore::study::{ConfigFile, ModelError, RunReport, to_json, with_config};
use serde::Serialize;

use super::config::{ActorPramConfig, Translation};
use crate::actor::{Deepest, MAX_RESTARTS, deepest_of};
use crate::butterfly::{ButterflyReport, simulate_butterfly_actors};
use crate::direct::{DirectReport, ScheduleSource, Sync, simulate_broadcast_sync, simulate_direct};
use crate::error::Error;

/// What one run reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActorPramReport {
    /// The program's name.
    pub program: String,
    /// The variant.
    pub variant: Variant,
    /// The scheduler.
    pub scheduler: String,
    /// The translation.
    pub translation: Translation,
    /// PRAM `T`.
    #[serde(rename = "T")]
    pub t: u64,
    /// PRAM `S`.
    #[serde(rename = "S")]
    pub s: u64,
    /// PRAM `G`.
    #[serde(rename = "G")]
    pub g: u64,
    /// The direct translation's actor measures.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub actor: Option<DirectMeasures>,
    /// The butterfly translation's router measures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub network: Option<ButterflyReport>,
    /// Memory and registers equal the reference's (and a library program's output its plain
    /// Rust reference).
    pub verified: bool,
    /// The deepest run of the delivery-order search (with `search`; Choice 2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deepest: Option<Deepest>,
}

/// What the direct translation measures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DirectMeasures {
    /// Actor time (depth of the event DAG).
    pub actor_time: u64,
    /// Actor space in words.
    pub actor_space: u64,
    /// Events.
    pub events: u64,
    /// Messages.
    pub messages: u64,
    /// Actors.
    pub actors: u64,
    /// The largest mailbox.
    pub max_mailbox: u64,
    /// The largest number of cells one PPU actor knows.
    pub max_acquaintances: u64,
    /// `actor_time / T`.
    pub actor_time_over_t: f64,
    /// The program passes the static test of Definition 3.
    pub predictable: bool,
    /// Where the cells' schedules came from.
    pub schedule: ScheduleSource,
}

fn config_error(field: &'static str, rule: &'static str, got: impl Into<String>) -> Error {
    Error::InvalidConfig { field, rule, got: got.into() }
}

/// Runs a config.
pub fn run_actor_pram_config(
    config: &ActorPramConfig,
    file: &ConfigFile<'_>,
) -> Result<ActorPramReport, Error> {
    let direct = |program: &Program, input: &[i64], limits: &Limits, sync: Sync| match sync {
        Sync::Broadcast => simulate_broadcast_sync(program, input, config.scheduler, limits),
        Sync::Chained => simulate_direct(program, input, config.scheduler, limits),
    };
    let (mut report, _) = run_with(config, file, direct)?;
    if let Some(search) = &config.search {
        if search.restarts > MAX_RESTARTS {
            return Err(config_error(
                "search.restarts",
                "at most 1024",
                search.restarts.to_string(),
            ));
        }
        let deepest = deepest_of(search, |scheduler| -> Result<u64, Error> {
            let one = ActorPramConfig { scheduler, search: None, ..config.clone() };
            let r = run_actor_pram_config(&one, file)?;
            let time = r
                .actor
                .map(|a| a.actor_time)
                .or_else(|| r.network.and_then(|n| n.actor.map(|a| a.actor_time)));
            time.ok_or_else(|| config_error("search", "a run with actors", "no actor time"))
        })?;
        report.deepest = Some(deepest);
    }
    Ok(report)
}

/// Runs a config, a direct or broadcast-sync translation through `direct` (given the program,
/// its input, the limits and the synchronisation); returns the report and, for those two
/// translations, the direct run's own report (with its recorded DAG when `direct` records).
pub(crate) fn run_with(
    config: &ActorPramConfig,
    file: &ConfigFile<'_>,
    direct: impl FnOnce(&Program, &[i64], &Limits, Sync) -> Result<DirectReport, Error>,
) -> Result<(ActorPramReport, Option<DirectReport>), Error> {
    let loaded = config.pram.load(file)?;
    let LoadedProgram { program, input, .. } = &loaded;
    // Under `cargo xtask` a run may take the workspace's memory limit (`crate::limits`).
    let limits = &Limits { max_bytes: DEFAULT_MEMORY, ..loaded.limits };
    let name = loaded.name.clone();
    let output_ok = |memory: &[i64]| -> Result<bool, Error> {
        match loaded.first_difference(memory) {
            None => Ok(true),
            Some(difference) => {
                Err(Error::Expectation { program: loaded.name.clone(), difference })
            }
        }
    };
    let (translation, butterfly) = (config.translation, config.butterfly.clone());
    let (pram, actor, network, verified, direct_run) = match translation {
        Translation::Direct | Translation::BroadcastSync => {
            if butterfly.is_some() {
                return Err(config_error(
                    "butterfly",
                    "only given with translation = \"butterfly\"",
                    "a butterfly table",
                ));
            }
            let sync = match translation {
                Translation::BroadcastSync => Sync::Broadcast,
                _ => Sync::Chained,
            };
            let r = direct(program, input, limits, sync)?;
            let actor = DirectMeasures {
                actor_time: r.actor.actor_time,
                actor_space: r.actor.actor_space,
                events: r.actor.events,
                messages: r.actor.messages,
                actors: r.actor.actors,
                max_mailbox: r.actor.max_mailbox,
                max_acquaintances: r.max_acquaintances,
                actor_time_over_t: r.actor.actor_time as f64 / r.pram.t.max(1) as f64,
                predictable: r.predictable,
                schedule: r.schedule,
            };
            let verified = output_ok(&r.memory)? && r.verified;
            (r.pram, Some(actor), None, verified, Some(r))
        }
        Translation::Butterfly => {
            let config_bf = butterfly.unwrap_or_default();
            let r =
                simulate_butterfly_actors(program, input, &config_bf, config.scheduler, limits)?;
            // Fetch-and-ops served off pid order are checked by the replay of their
            // serialization (Choice 19); an expected output is the pid order's.
            let reordered = r.fetch.as_ref().is_some_and(|f| !f.pid_order);
            let verified = (reordered || output_ok(&r.memory)?) && r.verified;
            (r.pram, None, Some(r), verified, None)
        }
    };
    let report = ActorPramReport {
        program: name,
        variant: program.variant(),
        scheduler: config.scheduler.to_string(),
        translation,
        t: pram.t,
        s: pram.s,
        g: pram.g,
        actor,
        network,
        verified,
        deepest: None,
    };
    Ok((report, direct_run))
}

/// The run report of a finished run of `config`: its one-line summary and its JSON (the config
/// under `config`, then the report's fields); a run whose memory or registers differ from the
/// reference interpreter's is an error.
pub(crate) fn run_report(
    config: &ActorPramConfig,
    report: ActorPramReport,
) -> Result<RunReport, ModelError> {
    if !report.verified {
        return Err(Error::Mismatch {
            program: report.program.clone(),
            what: "memory or registers".into(),
        }
        .into());
    }
    let head = format!(
        "{} on {} ({} translation, {}): T = {}, S = {}, G = {}",
        report.program,
        report.variant,
        report.translation,
        report.scheduler,
        report.t,
        report.s,
        report.g,
    );
    let summary = match (&report.actor, &report.network) {
        (Some(a), _) => format!(
            "{head}; actor time = {} ({:.3} T), actor space = {}, events = {}, messages = {}, max mailbox = {}, verified = {}",
            a.actor_time,
            a.actor_time_over_t,
            a.actor_space,
            a.events,
            a.messages,
            a.max_mailbox,
            report.verified
        ),
        (None, Some(r)) => format!(
            "{head}; butterfly n = {} (N = {}), b = {}, {} placement, {} keys: {} passes, {:.2} rounds per pass (forward {:.3} x (3n - 1)), max R_fwd = {}, max R_rev = {}, combines = {}, max buffer = {}; {}{}verified = {}",
            r.dim,
            r.routers,
            r.b,
            r.hash,
            r.keys,
            r.passes,
            r.rounds_per_pass,
            r.fwd_over_3n_1,
            r.max_r_fwd,
            r.max_r_rev,
            r.combines,
            r.max_occupancy,
            r.fetch.as_ref().map_or(String::new(), |f| format!(
                "fetch-and-ops: {} steps, {} requests, {} combines, {} order (checked against the {}); ",
                f.steps,
                f.requests,
                f.combines,
                if f.pid_order { "pid" } else { "network" },
                f.checked_against
            )),
            r.actor.as_ref().map_or(String::new(), |a| format!(
                "actors: actor time = {} ({:.3} T, {:.3} T log2 N, {:.2} per lockstep round), events = {}, messages = {}, {}",
                a.actor_time,
                a.actor_time_over_t,
                a.actor_time_over_t_log_n,
                a.actor_time_per_round,
                a.events,
                a.messages,
                a.overlapping.as_ref().map_or(String::new(), |o| format!(
                    "overlapping: actor time = {} ({} {} the barrier's, {:.3} T log2 N), events = {}, ",
                    o.actor_time,
                    o.below_barrier.unsigned_abs(),
                    if o.below_barrier < 0 { "above" } else { "below" },
                    o.actor_time_over_t_log_n,
                    o.events
                ))
            )),
            report.verified
        ),
        (None, None) => format!("{head}; verified = {}", report.verified),
    };
    let summary = match &report.deepest {
        Some(d) => format!(
            "{summary}\ndeepest order found ({} runs: FIFO, LIFO, max-depth, priority and greedy restarts): actor time = {} under {} (FIFO {}, +{})",
            d.runs,
            d.actor_time,
            d.scheduler,
            d.fifo_actor_time,
            d.actor_time.saturating_sub(d.fifo_actor_time)
        ),
        None => summary,
    };
    let summary = match report.network.as_ref().and_then(|r| r.delay.as_ref()) {
        Some(d) => format!("{summary}\n{}", delay_lines(d)),
        None => summary,
    };
    Ok(RunReport { summary, report: with_config(config, to_json(&report)?)? })
}

/// The delay sequences of a run (Choice 28): the counts, then every listed slow pass.
fn delay_lines(d: &crate::butterfly::DelayReport) -> String {
    let mut out = format!(
        "delay sequences (Theorem 3, d = {}): {} of {} passes slow (actor time >= (7d + 1) 4 = {}), {} hold{}",
        d.d,
        d.slow,
        d.passes,
        d.slow_from,
        d.hold,
        d.least_margin.map_or(String::new(), |m| format!(", least margin {m}")),
    );
    for s in &d.sequences {
        out.push('\n');
        out.push_str(&s.describe(d.d));
    }
    if d.slow > d.sequences.len() as u64 {
        out.push_str(&format!(
            "\n({} more slow passes not listed)",
            d.slow - d.sequences.len() as u64
        ));
    }
    out
}
