//! Measured memory of single runs: each case runs in a child process (this test binary run
//! again with `LOGP_MEM_CASE` set), which reports the growth of its peak resident set (Linux
//! `VmHWM`) over its resident set before the run; the crate's estimates
//! (`logp_stall::limits`) must cover the measured peaks (`docs/models/logp-stall.md`, Limits,
//! lists the figures this test prints with `--nocapture`).

use logp_stall::driver::LogpStall;
use logp_stall::goal::Generator;
use logp_stall::limits::{self, SimLogs};
use logp_stall::script::Instr;
use logp_stall::sim::SortAlgorithm;
use netcore::study::{ConfigFile, Model};

/// A field of `/proc/self/status` in bytes.
fn status_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("Linux /proc");
    let line = status.lines().find(|l| l.starts_with(field)).expect("field present");
    let kb: u64 = line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).expect("a number");
    kb * 1024
}

/// Peak resident bytes above the resident set before running `config` (report included),
/// and the report.
fn measure(config: &str) -> (u64, serde_json::Value) {
    let base = status_bytes("VmRSS:");
    let out = LogpStall.run_config(&ConfigFile::new(config, std::path::Path::new(".")));
    let peak = status_bytes("VmHWM:").saturating_sub(base);
    match out {
        Ok(r) => (peak, r.report),
        Err(e) => panic!("{config}: {e}"),
    }
}

/// Op-log runs plus messages of a reported trace.
fn trace_events(report: &serde_json::Value) -> u64 {
    let runs: usize = report["trace"]["ops"]
        .as_array()
        .map_or(0, |a| a.iter().filter_map(|l| l.as_array()).map(Vec::len).sum());
    (runs + report["trace"]["messages"].as_array().map_or(0, Vec::len)) as u64
}

#[test]
fn estimates_cover_measured_peaks() {
    let goal = |g: Generator, p: u32| {
        let name = serde_json::to_value(g).expect("a name");
        let config = format!(
            "kind = \"goal\"\ngenerator = {name}\np = {p}\n[loggops]\nL = 10\no = 2\ng = 1\n"
        );
        let estimate = limits::goal_estimate(u64::from(p), limits::generated_units(g, p));
        (config, Box::new(move |_: &serde_json::Value| estimate) as Box<dyn Fn(&_) -> u64>)
    };
    let logp = |p: u32, polls: u32| {
        let estimate = move |r: &serde_json::Value| {
            let code = 4 * std::mem::size_of::<Instr>() as u64 * u64::from(p);
            limits::logp_estimate(u64::from(p), code, trace_events(r))
        };
        let config = format!(
            "kind = \"logp\"\np = {p}\nG = 2\nL = 2\nrule = \"delta\"\ndelta = 1\ntrace = true\n[program]\ntype = \"script\"\ndefault = [{{ op = \"wait_gap\" }}, {{ op = \"receive\", into = 0, flag = 1 }}, {{ op = \"add\", reg = 2, a = \"r2\", b = 1 }}, {{ op = \"jump_if\", a = \"r2\", cmp = \"lt\", b = {polls}, target = 0 }}]\n"
        );
        (config, Box::new(estimate) as Box<dyn Fn(&_) -> u64>)
    };
    // A generated workload on the cycle simulation with `C = L = delta = c`: what its checks
    // admit, the processors and messages up front, the logs of every cycle, the ledger's
    // records and one cycle's sort (`docs/models/logp-stall.md`, Limits).
    let sim = |p: u32, r: u32, c: u64, sort: SortAlgorithm| {
        let name = serde_json::to_value(sort).expect("a name");
        let config = format!(
            "kind = \"sim\"\nworkload = \"random_traffic\"\nr = {r}\n[machine]\np = {p}\nG = 2\nL = {c}\ndelta = {c}\ng = 2\nl = {c}\nsort = {name}\n"
        );
        let estimate = move |report: &serde_json::Value| {
            let p = u64::from(p);
            let cycles = report["cycles"].as_u64().expect("cycles");
            let records = report["schedule_len"].as_u64().expect("schedule_len") * cycles;
            limits::sim_estimate(p, u64::from(r) * p)
                + SimLogs::Workload.run_estimate(p * c * cycles, 0)
                + records * limits::SIM_BYTES_PER_RECORD
                + limits::sim_sort_estimate(sort, p, 2 * c.div_ceil(2))
        };
        (config, Box::new(estimate) as Box<dyn Fn(&_) -> u64>)
    };
    // A ring on the cycle simulation: each round P_i submits to P_(i+1 mod p) and receives
    // the message of its predecessor (a message per processor every 2G steps).
    let sim_program = |p: u32, rounds: u32| {
        let estimate = move |r: &serde_json::Value| {
            let code = 9 * std::mem::size_of::<Instr>() as u64 * u64::from(p);
            let steps = r["trace_summary"]["t"].as_u64().expect("T") * u64::from(p);
            let messages = r["trace_summary"]["messages"].as_u64().expect("messages");
            (limits::sim_estimate(u64::from(p), 0) + code)
                .saturating_add(SimLogs::Program.run_estimate(steps, messages))
        };
        let config = format!(
            "kind = \"sim\"\ntrace = true\n[machine]\np = {p}\nG = 2\nL = 8\ndelta = 8\ng = 2\nl = 8\n[program]\ntype = \"script\"\ndefault = [{{ op = \"add\", reg = 1, a = \"pid\", b = 1 }}, {{ op = \"jump_if\", a = \"r1\", cmp = \"lt\", b = \"p\", target = 3 }}, {{ op = \"set\", reg = 1, value = 0 }}, {{ op = \"wait_gap\" }}, {{ op = \"submit\", dest = \"r1\", payload = [\"r2\"] }}, {{ op = \"wait_gap\" }}, {{ op = \"receive\", into = 4 }}, {{ op = \"add\", reg = 2, a = \"r2\", b = 1 }}, {{ op = \"jump_if\", a = \"r2\", cmp = \"lt\", b = {rounds}, target = 3 }}]\n"
        );
        (config, Box::new(estimate) as Box<dyn Fn(&_) -> u64>)
    };
    let cases = [
        ("goal broadcast p = 2^14", goal(Generator::BinomialBroadcast, 1 << 14)),
        ("goal dissemination p = 2^12", goal(Generator::Dissemination, 1 << 12)),
        ("goal all-to-all p = 256", goal(Generator::LinearAlltoall, 256)),
        ("logp polling p = 16, 4000 polls", logp(16, 4000)),
        ("logp polling p = 256, 100 polls", logp(256, 100)),
        ("sim random traffic p = 256, r = 16", sim(256, 16, 8, SortAlgorithm::Bitonic)),
        ("sim random traffic p = 1024, r = 2", sim(1024, 2, 8, SortAlgorithm::Bitonic)),
        ("sim bitonic p = 1024, r = 4, C = 32", sim(1024, 4, 32, SortAlgorithm::Bitonic)),
        ("sim cascade p = 1024, r = 4, C = 8", sim(1024, 4, 8, SortAlgorithm::Cascade)),
        ("sim cascade p = 1024, r = 4, C = 32", sim(1024, 4, 32, SortAlgorithm::Cascade)),
        ("sim program ring p = 16, 2000 rounds", sim_program(16, 2000)),
        ("sim program ring p = 256, 100 rounds", sim_program(256, 100)),
    ];
    if let Ok(case) = std::env::var("LOGP_MEM_CASE") {
        let (_, (config, estimate)) =
            cases.into_iter().nth(case.parse().expect("index")).expect("case");
        let (peak, report) = measure(&config);
        println!("MEASURED {peak} {}", estimate(&report));
        return;
    }
    for (i, (name, _)) in cases.iter().enumerate() {
        let out = std::process::Command::new(std::env::current_exe().expect("test binary"))
            .args(["estimates_cover_measured_peaks", "--exact", "--nocapture"])
            .env("LOGP_MEM_CASE", i.to_string())
            .output()
            .expect("child runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let line = text.lines().find_map(|l| l.strip_prefix("MEASURED "));
        let Some((peak, estimate)) = line.and_then(|l| l.split_once(' ')) else {
            panic!("{name}: no measurement in {text}");
        };
        let (peak, estimate): (u64, u64) =
            (peak.parse().expect("peak"), estimate.parse().expect("estimate"));
        println!("{name}: peak {peak} bytes, estimate {estimate} bytes");
        assert!(estimate >= peak, "{name}: estimate {estimate} < measured peak {peak}");
        assert!(estimate <= 4 * peak.max(1 << 20), "{name}: estimate {estimate} far above {peak}");
    }
}
