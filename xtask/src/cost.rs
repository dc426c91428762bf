//! What a study cost when it ran (jobs, job-seconds, longest job, wall time, threads, peak
//! memory), recorded by `cargo xtask report` beside the report (`costs.csv` for the default
//! grids, `large-costs.csv` for the large presets) and read back by `sweep --dry-run`, which
//! quotes the recorded cost of every grid it has seen as that grid's estimate.
//!
//! Peak memory is the process's peak resident set during the study (Linux `VmHWM`, reset
//! before each study through `/proc/self/clear_refs`): every job running at once on the
//! recorded number of threads, plus the rows held, plus what the allocator kept from earlier
//! studies of the same process (`.cargo/config.toml` has mimalloc keep freed pages), so it
//! is an upper bound for the study run alone; `None` where the system does not say.

use std::path::Path;

/// The cost of one study's run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StudyCost {
    pub(crate) jobs: u64,
    /// The jobs' times summed (seconds of one thread).
    pub(crate) job_seconds: f64,
    pub(crate) longest_job_seconds: f64,
    pub(crate) wall_seconds: f64,
    pub(crate) threads: usize,
    /// The process's peak resident set during the study (bytes).
    pub(crate) peak_bytes: Option<u64>,
}

/// The recorded cost of the default grids, beside the report.
pub(crate) const COSTS: &str = "costs.csv";
/// The recorded cost of the large presets, beside the report.
pub(crate) const LARGE_COSTS: &str = "large-costs.csv";

const HEADER: &str =
    "spec,study,spec_hash,jobs,job_seconds,longest_job_seconds,wall_seconds,threads,peak_mib";

/// Starts a new peak: the process's peak resident set is reset to its current size (Linux;
/// elsewhere, or where `/proc` refuses, the peak stays the process's since it started).
pub(crate) fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The process's peak resident set since the last [`reset_peak`] (bytes), where the system
/// reports it.
pub(crate) fn peak_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    let kib: u64 = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    kib.checked_mul(1024)
}

/// One recorded study: its spec file, name, spec hash and cost.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Recorded {
    pub(crate) spec: String,
    pub(crate) study: String,
    pub(crate) spec_hash: String,
    pub(crate) cost: StudyCost,
}

const MIB: f64 = 1024.0 * 1024.0;

/// The CSV of `recorded`, one line per study.
pub(crate) fn csv(recorded: &[Recorded]) -> String {
    let mut text = format!("{HEADER}\n");
    for r in recorded {
        let c = &r.cost;
        let peak = c.peak_bytes.map(|b| format!("{:.0}", b as f64 / MIB)).unwrap_or_default();
        text += &format!(
            "{},{},{},{},{:.3},{:.3},{:.3},{},{peak}\n",
            r.spec,
            r.study,
            r.spec_hash,
            c.jobs,
            c.job_seconds,
            c.longest_job_seconds,
            c.wall_seconds,
            c.threads
        );
    }
    text
}

/// The studies recorded in the CSV `text` (lines that do not parse are skipped: the file is
/// generated, and a damaged line only loses its estimate).
pub(crate) fn parse(text: &str) -> Vec<Recorded> {
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            let [spec, study, hash, jobs, job_s, longest, wall, threads, peak] = f.as_slice()
            else {
                return None;
            };
            Some(Recorded {
                spec: spec.to_string(),
                study: study.to_string(),
                spec_hash: hash.to_string(),
                cost: StudyCost {
                    jobs: jobs.parse().ok()?,
                    job_seconds: job_s.parse().ok()?,
                    longest_job_seconds: longest.parse().ok()?,
                    wall_seconds: wall.parse().ok()?,
                    threads: threads.parse().ok()?,
                    peak_bytes: peak.parse::<u64>().ok().map(|m| m * 1024 * 1024),
                },
            })
        })
        .collect()
}

/// Every recorded study of `dir` (`costs.csv` and `large-costs.csv`).
pub(crate) fn recorded_in(dir: &Path) -> Vec<Recorded> {
    [COSTS, LARGE_COSTS]
        .iter()
        .filter_map(|f| std::fs::read_to_string(dir.join(f)).ok())
        .flat_map(|text| parse(&text))
        .collect()
}

/// What `sweep --dry-run` prints about a grid: the cost among `recorded` (see
/// [`recorded_in`]) of a run with the same expanded spec (same study, grid, seeds and
/// repetitions), scaled to `threads`, or that no run of it is recorded.
pub(crate) fn estimate(
    recorded: &[Recorded],
    study: &str,
    spec_hash: &str,
    threads: usize,
) -> String {
    let Some(r) = recorded.iter().find(|r| r.study == study && r.spec_hash == spec_hash) else {
        return "no recorded run of this grid (the report records the default grids and the \
                large presets)"
            .to_string();
    };
    let c = &r.cost;
    let threads = threads.max(1) as f64;
    let wall = (c.job_seconds / threads).max(c.longest_job_seconds);
    let peak = c.peak_bytes.map_or_else(
        || "peak memory not recorded".to_string(),
        |b| format!("peak memory at most {:.0} MiB on {} threads", b as f64 / MIB, c.threads),
    );
    format!(
        "estimated {} on {threads} threads ({:.1} job-seconds, longest job {:.1} s; recorded \
         wall {} on {} threads), {peak}",
        duration(wall),
        c.job_seconds,
        c.longest_job_seconds,
        duration(c.wall_seconds),
        c.threads
    )
}

/// One study's cost in words.
pub(crate) fn describe_cost(c: &StudyCost) -> String {
    let peak = c
        .peak_bytes
        .map_or_else(String::new, |b| format!(", peak memory {} MiB", b / (1024 * 1024)));
    format!(
        "{} jobs, {:.1} job-seconds (longest job {:.1} s), wall {} on {} threads{peak}",
        c.jobs,
        c.job_seconds,
        c.longest_job_seconds,
        duration(c.wall_seconds),
        c.threads
    )
}

/// A duration for people: below a second, seconds below two minutes, else minutes, else
/// hours.
pub(crate) fn duration(seconds: f64) -> String {
    if seconds < 0.5 {
        "under 1 s".to_string()
    } else if seconds < 120.0 {
        format!("{seconds:.0} s")
    } else if seconds < 7200.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CSV reads back what it wrote; a damaged line is skipped, not guessed.
    #[test]
    fn costs_round_trip() {
        let r = Recorded {
            spec: "fixtures/sweeps/netcore.toml".into(),
            study: "bsp-sort".into(),
            spec_hash: "abc".into(),
            cost: StudyCost {
                jobs: 12,
                job_seconds: 30.5,
                longest_job_seconds: 4.25,
                wall_seconds: 16.0,
                threads: 2,
                peak_bytes: Some(300 * 1024 * 1024),
            },
        };
        let text = csv(std::slice::from_ref(&r)) + "broken,line\n";
        assert_eq!(parse(&text), [r]);
    }

    /// A peak is reported where the system keeps one (this development machine is Linux).
    #[test]
    fn peak_is_measured() {
        reset_peak();
        let peak = peak_bytes();
        if cfg!(target_os = "linux") {
            assert!(peak.is_some_and(|b| b > 0), "{peak:?}");
        }
    }

    #[test]
    fn durations_read_as_people_say_them() {
        assert_eq!(duration(0.1), "under 1 s");
        assert_eq!(duration(41.0), "41 s");
        assert_eq!(duration(508.0), "8 min");
        assert_eq!(duration(9000.0), "2.5 h");
    }
}
