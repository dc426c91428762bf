//! The command line end to end: runs the built `xtask` binary on netcore's studies.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask")).args(args).output().expect("xtask runs")
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A fresh scratch directory under the target directory, removed first if left over.
fn scratch(name: &str) -> PathBuf {
    let dir = root().join("target").join("xtask-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

const NETCORE_STUDIES: [&str; 4] =
    ["bsp-bitonic", "dbsp-routing", "topology-diameter", "pram-bounds"];

fn sweep(out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["sweep", "--quick", "--quiet", "--out", out.to_str().unwrap()];
    args.extend(NETCORE_STUDIES);
    args.extend(extra);
    xtask(&args)
}

fn read(path: PathBuf) -> Vec<u8> {
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn list_names_every_netcore_study() {
    let output = xtask(&["list"]);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    for study in NETCORE_STUDIES {
        assert!(text.contains(study), "`list` lacks {study}:\n{text}");
    }
}

/// The quick sweep writes every file, every claim passes, and every plot is well-formed SVG.
#[test]
fn sweep_writes_reports_and_valid_svg() {
    let out = scratch("files");
    let output = sweep(&out, &[]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains(": PASS") && !stdout.contains(": FAIL"), "{stdout}");
    for study in NETCORE_STUDIES {
        let dir = out.join(study);
        for file in ["results.csv", "results.json", "timings.csv", "report.md"] {
            assert!(dir.join(file).exists(), "{study}/{file} missing");
        }
        let report = String::from_utf8(read(dir.join("report.md"))).unwrap();
        let judged = |verdict: &str| report.lines().any(|l| l.ends_with(&format!(": {verdict}")));
        assert!(
            judged("PASS") || judged("CONSISTENCY") || judged("BOUND HOLDS"),
            "{study}/report.md has no verdict line"
        );
        let mut svgs = 0;
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            if entry.path().extension().is_some_and(|e| e == "svg") {
                let text = String::from_utf8(read(entry.path())).unwrap();
                let doc = roxmltree::Document::parse(&text)
                    .unwrap_or_else(|e| panic!("{}: {e}", entry.path().display()));
                assert_eq!(doc.root_element().tag_name().name(), "svg");
                svgs += 1;
            }
        }
        assert!(svgs >= 1, "{study} has no plot");
    }
    assert!(out.join("report.md").exists());
}

/// One study of each model crate besides netcore's (quick, cheap, with random draws).
const MODEL_STUDIES: [&str; 3] = ["overlap-single-long-link", "logp-corollary1", "hpram-tree-r"];

/// `results.csv` is byte-identical with 1 and 2 threads, and for 3 merged shards, for
/// netcore's studies and one study of every model crate.
#[test]
fn threads_and_shards_give_identical_bytes() {
    let one = scratch("threads-1");
    let two = scratch("threads-2");
    assert!(sweep(&one, &["--threads", "1"]).status.success());
    assert!(sweep(&two, &["--threads", "2"]).status.success());
    assert!(sweep(&one, &[&["--threads", "1"][..], &MODEL_STUDIES].concat()).status.success());
    assert!(sweep(&two, &[&["--threads", "2"][..], &MODEL_STUDIES].concat()).status.success());
    let shards: Vec<PathBuf> = (1..=3).map(|k| scratch(&format!("shard-{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        let shard = format!("{}/3", k + 1);
        let args = [&["--shard", &shard][..], &MODEL_STUDIES].concat();
        assert!(sweep(dir, &args).status.success());
    }
    let merged = scratch("merged");
    let mut args = vec!["merge", "--out", merged.to_str().unwrap()];
    args.extend(shards.iter().map(|d| d.to_str().unwrap()));
    let output = xtask(&args);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    for study in NETCORE_STUDIES.into_iter().chain(MODEL_STUDIES) {
        let reference = read(one.join(study).join("results.csv"));
        assert_eq!(reference, read(two.join(study).join("results.csv")), "{study}: threads differ");
        assert_eq!(
            reference,
            read(merged.join(study).join("results.csv")),
            "{study}: merged shards differ"
        );
    }
}

/// The Slurm array script of `docs/cluster.md` (`fixtures/cluster/sweep-array.sbatch`), run as
/// three array tasks started at once (as a scheduler would), writes shards whose merge has the
/// bytes of one run.
#[test]
fn cluster_script_shards_run_concurrently_and_merge_to_one_run() {
    let one = scratch("cluster-one");
    assert!(sweep(&one, &[]).status.success());
    let shards = scratch("cluster-shards");
    let args = format!("--quick {}", NETCORE_STUDIES.join(" "));
    let tasks: Vec<std::process::Child> = (1..=3)
        .map(|k| {
            Command::new("bash")
                .arg(root().join("fixtures/cluster/sweep-array.sbatch"))
                .current_dir(root())
                .env("SLURM_ARRAY_TASK_ID", k.to_string())
                .env("SLURM_ARRAY_TASK_COUNT", "3")
                .env("SLURM_CPUS_PER_TASK", "1")
                .env("SPEC", "fixtures/sweeps/netcore.toml")
                .env("OUT", &shards)
                .env("XTASK", env!("CARGO_BIN_EXE_xtask"))
                .env("ARGS", &args)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("bash runs")
        })
        .collect();
    for task in tasks {
        let output = task.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "an array task failed: {stderr}");
    }
    let merged = scratch("cluster-merged");
    let mut args = vec!["merge", "--out", merged.to_str().unwrap()];
    let dirs: Vec<PathBuf> = (1..=3).map(|k| shards.join(format!("shard-{k}"))).collect();
    args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
    let output = xtask(&args);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    for study in NETCORE_STUDIES {
        for file in ["results.csv", "results.json"] {
            assert_eq!(
                read(one.join(study).join(file)),
                read(merged.join(study).join(file)),
                "{study}/{file}: merged shards differ from one run"
            );
        }
    }
}

/// Bad input: exit status 2, one line naming the file, the field and the rule, no output.
#[test]
fn bad_input_exits_2_and_writes_nothing() {
    let dir = scratch("bad");
    let malformed = write(&dir, "malformed.toml", "[[study]\nname = \"bsp-bitonic\"\n");
    let unknown_field = write(
        &dir,
        "field.toml",
        "[[study]]\nname = \"bsp-bitonic\"\n[study.fixed]\nlog_p = 2\nm = 1\ng = 1\nl = 1\nbogus = 3\n",
    );
    let not_power = write(
        &dir,
        "dbsp.toml",
        "[[study]]\nname = \"dbsp-routing\"\n[study.fixed]\nn = 12\nlevel = 0\nk1 = 1\nk2 = 1\nalpha = 0.5\nbeta = 1.0\n",
    );
    let hypercube = write(&dir, "hypercube.toml", "[topology]\nkind = \"hypercube\"\ndim = 0\n");
    let bitonic = "[[study]]\nname = \"bsp-bitonic\"\n[study.fixed]\nm = 1\ng = 1\nl = 1\n";
    let twice = write(
        &dir,
        "twice.toml",
        &format!("{bitonic}[study.grid]\nlog_p = [2]\n{bitonic}[study.grid]\nlog_p = [3]\n"),
    );
    let no_study = write(&dir, "empty.toml", "study = []\n");
    let quick_typo = write(
        &dir,
        "quick.toml",
        &format!("{bitonic}[study.grid]\nlog_p = [2, 3]\n[study.quick]\nlog_pp = [2]\n"),
    );
    // 10 grid values x 1000 zip values x 1000 seeds = 10^7 jobs, refused before expansion.
    let many = |n: usize| (0..n).map(|s| s.to_string()).collect::<Vec<_>>().join(", ");
    let huge = write(
        &dir,
        "huge.toml",
        &format!(
            "[[study]]\nname = \"bsp-bitonic\"\nseeds = [{}]\n[study.grid]\nlog_p = [{}]\n[study.zip]\nm = [{}]\n",
            many(1000),
            many(10),
            many(1000)
        ),
    );
    // A parameter named like a column every row starts with would overwrite it.
    let seed_axis =
        write(&dir, "seed.toml", &format!("{bitonic}[study.grid]\nlog_p = [2]\nseed = [0, 1]\n"));
    let a_file = write(&dir, "a-file", "not a directory");
    let zero_program = write(&dir, "zero.toml", "file = \"/dev/zero\"\n");
    let dir_text = dir.display().to_string();
    let root_text = root().display().to_string();
    let under_a_file = format!("{a_file}/out");
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (vec!["sweep", "--config", &malformed, "--out", out], vec!["malformed.toml", "line 1"]),
        (vec!["sweep", "--config", &unknown_field, "--out", out], vec!["field.toml", "bogus"]),
        (
            vec!["sweep", "--config", &not_power, "--out", out],
            vec!["dbsp.toml", "n must satisfy n = 2^k"],
        ),
        (vec!["sweep", "no-such-study", "--out", out], vec!["unknown study `no-such-study`"]),
        (
            vec!["run", "netcore", &hypercube],
            vec!["hypercube.toml", "dim must satisfy 1 <= dim <= 26 (got 0)"],
        ),
        (vec!["run", "no-such-model", &hypercube], vec!["unknown model"]),
        (vec!["sweep", "--shard", "0/3", "--out", out], vec!["--shard"]),
        (vec!["sweep", "--config", &twice, "--out", out], vec!["`bsp-bitonic` is named twice"]),
        (vec!["sweep", "--config", &no_study, "--out", out], vec!["at least one [[study]]"]),
        (
            vec!["sweep", "--config", &quick_typo, "--out", out],
            vec!["quick.toml", "quick.log_pp must name an axis"],
        ),
        (
            vec!["sweep", "--config", &huge, "--dry-run", "--out", out],
            vec!["huge.toml", "more than 1000000 jobs"],
        ),
        (
            vec!["sweep", "--config", &seed_axis, "--dry-run", "--out", out],
            vec!["seed.toml", "parameter `seed` must not be named like a column", "run_seed"],
        ),
        (
            vec!["sweep", "bsp-bitonic", "--quick", "--out", &under_a_file],
            vec!["a-file is not a directory"],
        ),
        (
            vec!["sweep", "bsp-bitonic", "--threads", "0", "--out", out],
            vec!["--threads must be at least 1"],
        ),
        (
            vec!["sweep", "bsp-bitonic", "--threads", "100000", "--out", out],
            vec!["--threads must be at most 1024 (got 100000)"],
        ),
        (vec!["report", "--threads", "0", "--out", out], vec!["--threads must be at least 1"]),
        (vec!["run", "pram", "/dev/zero"], vec!["/dev/zero: config must be a regular file"]),
        (vec!["sweep", "bsp-bitonic", "--quick", "--out", &root_text], vec!["a source tree"]),
        (
            vec!["sweep", "--config", "/dev/urandom", "--out", out],
            vec!["/dev/urandom: sweep spec must be a regular file"],
        ),
        (
            vec!["run", "pram", &zero_program],
            vec!["file", "/dev/zero: assembly file must be a regular file"],
        ),
        (vec!["run", "pram", &dir_text], vec!["config must be a regular file (got a directory)"]),
        (vec!["report", "--quick", "--out", &a_file], vec!["a-file is not a directory"]),
    ];
    for (args, needles) in cases {
        let output = xtask(&args);
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: not one line: {stderr}");
        for needle in needles {
            assert!(stderr.contains(needle), "{args:?}: `{needle}` not in {stderr}");
        }
        assert!(!Path::new(out).exists(), "{args:?} left {out} behind");
    }
}

/// Every point of every embedded sweep spec, default and quick, passes its study's checks.
#[test]
fn every_embedded_sweep_point_is_valid() {
    for quick in [false, true] {
        let mut args = vec!["sweep", "--dry-run"];
        if quick {
            args.push("--quick");
        }
        let output = xtask(&args);
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        let stdout = String::from_utf8(output.stdout).unwrap();
        for study in NETCORE_STUDIES {
            assert!(
                stdout.contains(&format!("{study}: ")),
                "{args:?}: {study} missing in {stdout}"
            );
        }
    }
}

/// Whose fault a failure is decides the exit status, for every model crate: the user's input
/// exits 2, a run that fails after validation exits 1; both print one line. A model's outcome
/// (SF-LogP rejecting a program) is a run's result: exit 0, its summary.
#[test]
fn config_errors_exit_2_and_failed_runs_exit_1() {
    let fixture = |f: &str| root().join("fixtures").join(f).display().to_string();
    let cases = [
        ("netcore", fixture("netcore/bad-hypercube-0.toml"), 2, "dim must satisfy"),
        ("overlap-ring", fixture("overlap-ring/bad_c.toml"), 2, "c must satisfy c > 2"),
        ("logp-stall", fixture("logp-stall/logp-bad-latency.toml"), 2, "L must satisfy L <= p"),
        ("pram", fixture("pram/bad-unknown-mnemonic.toml"), 2, "line 6: unknown mnemonic"),
        (
            "hpram",
            fixture("hpram/bad-alg1-p24.toml"),
            2,
            "procs must satisfy procs = 8 * 2^k for alg1",
        ),
        ("hpram", fixture("hpram/bad-unknown-field.toml"), 2, "unknown field `formulae`"),
        (
            "hpram",
            fixture("hpram/bad-shape-local-words-one.toml"),
            2,
            "local_words must satisfy local_words >= 2 for a shape with access items",
        ),
        (
            "hpram",
            fixture("hpram/bad-shape-nesting-too-deep.toml"),
            2,
            "partitions nested at most 63 deep",
        ),
        ("hpram", fixture("hpram/bad-constant-cost-overflow.toml"), 2, "the cost overflows u64"),
        (
            "hpram",
            fixture("hpram/bad-constant-too-long.toml"),
            2,
            "constant: invalid length 4, expected exactly 3 numbers",
        ),
        (
            "hpram",
            fixture("hpram/bad-tree-reduce-local-words-one.toml"),
            2,
            "local_words must satisfy at least the private words the algorithm uses",
        ),
        ("hpram", fixture("hpram/bad-shape-proc-steps.toml"), 2, "processor-steps"),
        ("pram", fixture("pram/bad-register.toml"), 2, "line 6: register r16 out of range"),
        ("pram", fixture("pram/bad-missing-label.toml"), 2, "line 7: unknown label `nowhere`"),
        (
            "pram",
            fixture("pram/run-exclusive-read.toml"),
            1,
            "global step 1 (pc 3, line 8): exclusive read conflict at address 0 between pids 0 and 1",
        ),
        (
            "pram",
            fixture("pram/run-common-write.toml"),
            1,
            "common write mismatch at address 0: pid 0 writes 0, pid 1 writes 1",
        ),
        ("pram", fixture("pram/run-address.toml"), 1, "address 8 out of range 0..8 for pid 3"),
        ("pram", fixture("pram/run-division.toml"), 1, "division by zero for pid 0"),
        ("pram", fixture("pram/run-step-limit.toml"), 1, "step limit of 10 instructions"),
        // A script that loops without taking a step stops the run.
        (
            "logp-stall",
            fixture("logp-stall/logp-zero-step-loop.toml"),
            1,
            "run failed: program of P0 failed at step 0: more than 100000 instructions in a row",
        ),
        // SF-LogP rejecting a program that is not stall-free is the model's outcome.
        (
            "logp-stall",
            fixture("logp-stall/logp-compaction-delta-stall-free.toml"),
            0,
            "rejected, the program is not stall-free: SF-LogP capacity violation at step 0",
        ),
    ];
    for (model, config, code, needle) in cases {
        let output = xtask(&["run", model, &config]);
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(code), "{model} {config}: {stderr}");
        // A failure is one line on stderr; an outcome is the run's summary on stdout.
        let text = if code == 0 { String::from_utf8(output.stdout).unwrap() } else { stderr };
        assert_eq!(text.trim_end().lines().count(), 1, "not one line: {text}");
        assert!(text.contains(needle), "`{needle}` not in {text}");
    }
}

/// A never-halting PRAM loop cannot ask for more than the work limit: `max_steps = 2^63 - 1`
/// is a config error naming `max_steps` and the limit (issue 39, item 7), before the run.
#[test]
fn a_step_limit_past_the_work_limit_is_refused() {
    let dir = scratch("work-limit");
    write(&dir, "spin.pasm", ".variant erew\n.mem 1\n.ppus 1\n.lmem 0\ntop:\n    jmp top\n");
    let config =
        write(&dir, "spin.toml", "file = \"spin.pasm\"\nmax_steps = 9223372036854775807\n");
    let output = xtask(&["run", "pram", &config]);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("max_steps") && stderr.contains("at most 2^36"), "{stderr}");
}

/// A config names a file next to itself: the GOAL fixture's `file = "../traces/..."` is
/// resolved against the config's directory, whatever the working directory.
#[test]
fn config_names_a_file_next_to_it() {
    let config = root().join("fixtures/logp-stall/goal-dissemination-p8-file.toml");
    let output = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["run", "logp-stall", config.to_str().unwrap()])
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("makespan 33"), "{stdout}");
}

#[test]
fn run_prints_summary_and_json() {
    let config = root().join("fixtures/netcore/torus-4x4.toml");
    let summary = xtask(&["run", "netcore", config.to_str().unwrap()]);
    assert!(summary.status.success());
    assert!(String::from_utf8(summary.stdout).unwrap().contains("diameter = 4"));
    let json = xtask(&["run", "netcore", config.to_str().unwrap(), "--json"]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(value["diameter"], 4);
}

/// A reader that closes the pipe early (`cargo xtask list | head -1`) does not make the run
/// panic: the output ends quietly with exit status 0. The read end is closed right after the
/// process starts, before it has written anything.
#[test]
fn closed_stdout_is_not_a_panic() {
    let config = root().join("fixtures/netcore/torus-4x4.toml");
    for args in [vec!["list"], vec!["run", "netcore", config.to_str().unwrap(), "--json"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("xtask starts");
        drop(child.stdout.take());
        let output = child.wait_with_output().expect("xtask ends");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{args:?}: {:?} {stderr}", output.status);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// Everything a reader of `out` sees, by path: the files of every study directory and the
/// index, read through their links (a dangling link reads as absent; hidden entries are
/// xtask's own).
fn visible(out: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(out).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let path = entry.path();
        if name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            for file in std::fs::read_dir(&path).unwrap().flatten() {
                let file_name = file.file_name().to_string_lossy().to_string();
                files.insert(format!("{name}/{file_name}"), read(file.path()));
            }
        } else if path.is_file() {
            files.insert(name, read(path));
        }
    }
    files
}

/// The files of each study in `files` (a [`visible`] snapshot).
fn file_sets(files: &BTreeMap<String, Vec<u8>>) -> BTreeMap<String, BTreeSet<String>> {
    let mut studies: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (study, file) in files.keys().filter_map(|path| path.split_once('/')) {
        studies.entry(study.to_string()).or_default().insert(file.to_string());
    }
    studies
}

/// Checks that `now` is the complete run of `command` over `previous`: every study it ran
/// (`touched`) has all of a study's files (`complete`) and names the command in `run.json`
/// and `report.md`, every other study's files are byte for byte as they were, and the index
/// lists every study, the touched ones with the command and the others with their old line.
fn check_new_run(
    previous: &BTreeMap<String, Vec<u8>>,
    now: &BTreeMap<String, Vec<u8>>,
    touched: &[&str],
    command: &str,
    complete: &BTreeMap<String, BTreeSet<String>>,
) -> Result<(), String> {
    if &file_sets(now) != complete {
        return Err(format!("incomplete studies: {:?}", file_sets(now)));
    }
    let text = |files: &BTreeMap<String, Vec<u8>>, path: &str| {
        String::from_utf8(files.get(path).cloned().unwrap_or_default()).unwrap()
    };
    let (old_index, index) = (text(previous, "report.md"), text(now, "report.md"));
    for study in complete.keys() {
        let line = |index: &str| {
            let start = format!("| [{study}]({study}/report.md) |");
            index.lines().find(|l| l.starts_with(&start)).map(str::to_string)
        };
        if touched.contains(&study.as_str()) {
            let run: serde_json::Value =
                serde_json::from_str(&text(now, &format!("{study}/run.json"))).unwrap();
            let report = text(now, &format!("{study}/report.md"));
            if run["command"] != command || !report.contains(&format!("Command: `{command}`")) {
                return Err(format!("{study} is not from `{command}`: {run}"));
            }
            if !line(&index).is_some_and(|l| l.contains(&format!("`{command}`"))) {
                return Err(format!("the index does not list {study} from `{command}`:\n{index}"));
            }
        } else {
            let prefix = format!("{study}/");
            let files = |all: &BTreeMap<String, Vec<u8>>| {
                all.iter()
                    .filter(|(p, _)| p.starts_with(&prefix))
                    .map(|(p, b)| (p.clone(), b.clone()))
                    .collect::<Vec<_>>()
            };
            if files(now) != files(previous) || line(&index) != line(&old_index) {
                return Err(format!("untouched {study} changed"));
            }
        }
    }
    Ok(())
}

/// The hidden entries of `out` (xtask's own).
fn hidden(out: &Path) -> BTreeSet<String> {
    std::fs::read_dir(out)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().to_string())
                .filter(|name| name.starts_with('.'))
                .collect()
        })
        .unwrap_or_default()
}

/// SIGKILL at instants spread over whole sweeps (some with every study, some with one), and
/// at instants while a sweep writes (from its new generation's first entry on, plus a jitter):
/// after every kill the whole of `--out`, every study's files and the index, reads byte for
/// byte as the previous run or as the complete killed run (each try has its own `--threads`,
/// so its command tells its files apart). Both outcomes occur: the first try is killed at
/// once, the last one runs to its end.
#[test]
fn killed_sweep_leaves_complete_outputs() {
    let out = scratch("killed");
    let started = std::time::Instant::now();
    let first = sweep(&out, &[]);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let duration = started.elapsed();
    let mut previous = visible(&out);
    let complete = file_sets(&previous);
    assert_eq!(complete.len(), NETCORE_STUDIES.len());
    let out_arg = out.to_str().unwrap();
    let tries = 24u32;
    let (mut old, mut new) = (0, 0);
    for i in 0..tries {
        let threads = (i + 1).to_string();
        let touched: Vec<&str> = if i % 4 == 3 {
            vec![NETCORE_STUDIES[(i as usize / 4) % NETCORE_STUDIES.len()]]
        } else {
            NETCORE_STUDIES.to_vec()
        };
        let mut args = vec!["sweep", "--quick", "--quiet", "--out", out_arg, "--threads", &threads];
        args.extend(&touched);
        let before = hidden(&out);
        let mut child = Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        if i + 1 == tries {
            assert!(child.wait().unwrap().success());
        } else {
            if i % 3 == 0 {
                // An instant anywhere in the run, or after its end.
                std::thread::sleep(duration.mul_f64(1.25 * f64::from(i) / f64::from(tries)));
            } else {
                // While the sweep writes: from its first new entry on, plus a jitter.
                while child.try_wait().unwrap().is_none() && hidden(&out) == before {
                    std::hint::spin_loop();
                }
                std::thread::sleep(std::time::Duration::from_micros(u64::from(i) * 120));
            }
            let _ = child.kill();
            child.wait().unwrap();
        }
        let now = visible(&out);
        eprintln!("try {i}: {}", if now == previous { "previous run" } else { "new run" });
        if now == previous {
            old += 1;
            continue;
        }
        let command = format!("cargo xtask {}", args.join(" "));
        if let Err(why) = check_new_run(&previous, &now, &touched, &command, &complete) {
            panic!(
                "after a kill at try {i}, {out_arg} is neither the previous run nor `{command}`: {why}"
            );
        }
        new += 1;
        previous = now;
    }
    assert!(old > 0 && new > 0, "{old} kills left the previous run, {new} the new one");
    // The next run cleans up whatever the kills left: one generation, its link and the lock.
    assert!(sweep(&out, &[]).status.success());
    let hidden: Vec<String> = hidden(&out).into_iter().collect();
    assert_eq!(hidden.len(), 3, "{hidden:?}");
    assert_eq!([hidden[0].as_str(), hidden[2].as_str()], [".xtask-current", ".xtask-lock"]);
    assert!(hidden[1].starts_with(".xtask-gen-"), "{hidden:?}");
}

/// An output directory an older xtask wrote (the study directories and the index themselves,
/// beside a user's file and directory) is migrated by the next sweep: a sweep of one study
/// keeps the others byte for byte and lists them in the index, every study becomes a link,
/// and the user's entries stay as they were. A kill during the migration leaves the old run.
#[test]
fn an_output_of_an_older_xtask_is_migrated() {
    let source = scratch("legacy-source");
    assert!(sweep(&source, &[]).status.success());
    let legacy = visible(&source);
    let out = scratch("legacy");
    let lay_out = || {
        let _ = std::fs::remove_dir_all(&out);
        for (path, bytes) in &legacy {
            let path = out.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, bytes).unwrap();
        }
        std::fs::create_dir_all(out.join("mine")).unwrap();
        std::fs::write(out.join("mine").join("notes.md"), "my notes").unwrap();
    };
    let args = [
        "sweep",
        "--quick",
        "--quiet",
        "--threads",
        "1",
        "--out",
        out.to_str().unwrap(),
        "bsp-bitonic",
    ];
    let command = format!("cargo xtask {}", args.join(" "));
    let mut complete = file_sets(&legacy);
    complete.insert("mine".into(), ["notes.md".to_string()].into());
    for micros in [0, 2_000, 20_000, 60_000, 120_000] {
        lay_out();
        let before = visible(&out);
        let mut child = Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args(args)
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_micros(micros));
        let _ = child.kill();
        child.wait().unwrap();
        let now = visible(&out);
        if now != before {
            check_new_run(&before, &now, &["bsp-bitonic"], &command, &complete)
                .unwrap_or_else(|why| panic!("killed after {micros} us: {why}"));
        }
    }
    lay_out();
    let before = visible(&out);
    let output = xtask(&args);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let now = visible(&out);
    check_new_run(&before, &now, &["bsp-bitonic"], &command, &complete).unwrap();
    for study in NETCORE_STUDIES.iter().chain(&["report.md"]) {
        let link = std::fs::read_link(out.join(study)).unwrap();
        assert_eq!(link, Path::new(".xtask-current").join(study));
    }
    assert!(std::fs::symlink_metadata(out.join("mine")).unwrap().is_dir());
}

/// A sweep leaves alone the hidden entries of `--out` that are not its own temporaries.
#[test]
fn sweep_keeps_other_hidden_entries() {
    let out = scratch("hidden");
    std::fs::write(out.join(".notes.tmp-1"), "mine").unwrap();
    assert!(sweep(&out, &[]).status.success());
    assert_eq!(std::fs::read_to_string(out.join(".notes.tmp-1")).unwrap(), "mine");
}

/// Shards of two different specs with the same job count are not merged; nor are the shards
/// of one custom spec merged without `--config` (their rows could not be checked against
/// their jobs).
#[test]
fn merge_refuses_shards_of_different_specs() {
    let dir = scratch("merge-specs");
    let spec = |log_p: &str| {
        format!(
            "[[study]]\nname = \"bsp-bitonic\"\n[study.fixed]\nm = 1\ng = 1\nl = 1\n[study.grid]\nlog_p = {log_p}\n"
        )
    };
    let a = write(&dir, "a.toml", &spec("[2, 3]"));
    let b = write(&dir, "b.toml", &spec("[4, 5]"));
    let (one, two) = (dir.join("one"), dir.join("two"));
    for (config, shard, out) in [(&a, "1/2", &one), (&b, "2/2", &two)] {
        let args = ["sweep", "--config", config, "--shard", shard, "--quiet", "--out"];
        let output = xtask(&[&args[..], &[out.to_str().unwrap()]].concat());
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    }
    let merged = dir.join("merged");
    let output = xtask(&[
        "merge",
        "--config",
        &a,
        "--out",
        merged.to_str().unwrap(),
        one.to_str().unwrap(),
        two.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("different sweep spec"), "{stderr}");
    assert!(!merged.exists());
    let (three, four) = (dir.join("three"), dir.join("four"));
    for (shard, out) in [("1/2", &three), ("2/2", &four)] {
        let args = ["sweep", "--config", &a, "--shard", shard, "--quiet", "--out"];
        let output = xtask(&[&args[..], &[out.to_str().unwrap()]].concat());
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    }
    let shards = [three.to_str().unwrap(), four.to_str().unwrap()];
    let output = xtask(&[&["merge", "--out", merged.to_str().unwrap()][..], &shards].concat());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("not embedded") && stderr.contains("--config FILE"), "{stderr}");
    assert!(!merged.exists());
}

/// `merge` checks every row against the jobs of the spec: a shard that lost a row (its
/// timings intact), a row whose parameter was altered and a corrupt `timings.csv` are refused
/// with the file and the row (exit 2, nothing written); the intact shards merge. (A custom
/// spec merged without `--config`: `merge_refuses_shards_of_different_specs`.)
#[test]
fn merge_refuses_damaged_shards() {
    let dir = scratch("merge-damaged");
    let shards: Vec<PathBuf> = (1..=2).map(|k| dir.join(format!("shard-{k}"))).collect();
    for (k, out) in shards.iter().enumerate() {
        let shard = format!("{}/2", k + 1);
        let args = ["sweep", "bsp-bitonic", "--quick", "--shard", &shard, "--quiet", "--out"];
        let output = xtask(&[&args[..], &[out.to_str().unwrap()]].concat());
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    }
    let results = shards[0].join("bsp-bitonic").join("results.json");
    let intact = std::fs::read_to_string(&results).unwrap();
    let merge = |extra: &[&str]| {
        let merged = dir.join("merged");
        let _ = std::fs::remove_dir_all(&merged);
        let mut args = vec!["merge", "--out", merged.to_str().unwrap()];
        args.extend(extra);
        args.extend(shards.iter().map(|d| d.to_str().unwrap()));
        let output = xtask(&args);
        (output, merged.exists())
    };
    let mut value: serde_json::Value = serde_json::from_str(&intact).unwrap();
    value["rows"].as_array_mut().unwrap().pop();
    let lost = serde_json::to_string(&value).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&intact).unwrap();
    value["rows"][0]["log_p"] = serde_json::json!("NaN");
    let altered = serde_json::to_string(&value).unwrap();
    for (damaged, needle) in [(lost, "has no row"), (altered, "row 0 (job")] {
        std::fs::write(&results, damaged).unwrap();
        let (output, written) = merge(&[]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("results.json") || stderr.contains("timings.csv"), "{stderr}");
        assert!(stderr.contains(needle.trim_end_matches(" (job")), "{needle}: {stderr}");
        assert!(!written);
    }
    std::fs::write(&results, &intact).unwrap();
    let timings = shards[0].join("bsp-bitonic").join("timings.csv");
    let good = std::fs::read_to_string(&timings).unwrap();
    std::fs::write(&timings, format!("{good}x,y\n")).unwrap();
    let (output, written) = merge(&[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("timings.csv: line"), "{stderr}");
    assert!(!written);
    std::fs::write(&timings, good).unwrap();
    let (output, written) = merge(&[]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(written);
}

/// A sweep of one study after a sweep of several keeps every study in the index, with its
/// command, commit and date (issue 14).
#[test]
fn partial_sweep_keeps_the_index_complete() {
    let out = scratch("partial-index");
    assert!(sweep(&out, &[]).status.success());
    let one = ["sweep", "--quick", "--quiet", "--out", out.to_str().unwrap(), "bsp-bitonic"];
    assert!(xtask(&one).status.success());
    let index = String::from_utf8(read(out.join("report.md"))).unwrap();
    for study in NETCORE_STUDIES {
        assert!(index.contains(&format!("[{study}]({study}/report.md)")), "{study}:\n{index}");
    }
    let line = index.lines().find(|l| l.starts_with("| [bsp-bitonic]")).unwrap_or_default();
    assert!(line.contains("`cargo xtask sweep --quick --quiet --out"), "{line}");
    assert!(line.contains(" UTC |"), "{line}");
}

/// `run --svg` writes a parseable picture; a run too large to draw is refused with exit 2,
/// the limit in the message and no file written; a model without pictures is refused too.
#[test]
fn run_svg_writes_a_picture_or_refuses() {
    let out = scratch("svg");
    let svg = out.join("run.svg");
    let svg_arg = svg.to_str().unwrap();
    let config = root().join("fixtures/logp-stall/logp-compaction-delta-worst.toml");
    let ok = xtask(&["run", "logp-stall", config.to_str().unwrap(), "--svg", svg_arg]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    let text = String::from_utf8(read(svg.clone())).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    std::fs::remove_file(&svg).unwrap();

    // p = 2^32 - 1 processors: refused before the run (the picture holds 128 lanes).
    let huge = root().join("fixtures/logp-stall/logp-huge-p.toml");
    let refused = xtask(&["run", "logp-stall", huge.to_str().unwrap(), "--svg", svg_arg]);
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert!(
        stderr.contains("the limit is 128") && stderr.contains("128 lanes x 2000 steps"),
        "{stderr}"
    );
    assert!(!svg.exists());

    // wait_until 2001: T = 2001 steps, refused after the run, before drawing (limit 2000).
    let long = write(
        &out,
        "long.toml",
        "kind = \"logp\"\np = 2\nG = 2\nL = 2\nrule = \"stall_free\"\n[program]\ntype = \"script\"\ndefault = [{ op = \"wait_until\", t = 2001 }]\n",
    );
    let refused = xtask(&["run", "logp-stall", &long, "--svg", svg_arg]);
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert!(stderr.contains("T is too large") && stderr.contains("the limit is 2000"), "{stderr}");
    assert!(!svg.exists());

    // Describing a network draws nothing.
    let network = root().join("fixtures/netcore/torus-4x4.toml");
    let none = xtask(&["run", "netcore", network.to_str().unwrap(), "--svg", svg_arg]);
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8(none.stderr).unwrap().contains("no picture"));
    assert!(!svg.exists());
}

/// A sweep on a grid of the user's own (`--config`) judges every claim on the rows it gives:
/// X1's claim pinned to `P = 16` has no row when `log_p` is 6 and 8, so it is NOT EVALUATED,
/// the sweep exits 0, and `describe` lists the grid a user would change.
#[test]
fn a_custom_grid_leaves_claims_without_rows_not_evaluated() {
    let dir = scratch("custom-grid");
    let spec = write(
        &dir,
        "custom.toml",
        "[[study]]\nname = \"hpram-tree-r\"\n[study.grid]\npreset = [\"hypercube\"]\nlog_p = [6, 8]\nlog_r = [0, 2]\n",
    );
    let out = dir.join("out");
    let output = xtask(&["sweep", "--config", &spec, "--quiet", "--out", out.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("no rows match: NOT EVALUATED"), "{stdout}");
    assert!(!stdout.contains(": FAIL"), "{stdout}");
    let described = xtask(&["describe", "hpram-tree-r"]);
    assert!(described.status.success());
    let text = String::from_utf8_lossy(&described.stdout);
    assert!(text.contains("  log_p: ") && text.contains("default [4, 10]"), "{text}");
}

/// A user's file where a study directory or the index would go is refused before anything
/// runs (exit 2, the path named) and left as it was, and so is a directory xtask did not write.
#[test]
fn a_users_file_in_the_output_is_never_moved() {
    let dir = scratch("users-file");
    let out = dir.join("out");
    std::fs::create_dir_all(out.join("topology-diameter")).unwrap();
    let kept = write(&out.join("topology-diameter"), "notes.txt", "my notes");
    let file = write(&out, "bsp-bitonic", "my notes");
    let index = write(&dir, "report.md", "my report");
    for (study, victim) in [("bsp-bitonic", &file), ("topology-diameter", &kept)] {
        let output = xtask(&["sweep", study, "--quick", "--quiet", "--out", out.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("was not written by xtask") && stderr.contains(study), "{stderr}");
        assert_eq!(std::fs::read_to_string(victim).unwrap(), "my notes");
    }
    let entries: Vec<_> =
        std::fs::read_dir(&out).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(entries.len(), 2, "{entries:?}");
    let users_dir = std::fs::symlink_metadata(out.join("topology-diameter")).unwrap();
    assert!(users_dir.is_dir(), "the user's directory is still a directory, not a link");
    assert_eq!(std::fs::read_dir(out.join("topology-diameter")).unwrap().count(), 1);
    let output =
        xtask(&["sweep", "pram-bounds", "--quick", "--quiet", "--out", dir.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("is not a sweep index"), "{stderr}");
    assert_eq!(std::fs::read_to_string(index).unwrap(), "my report");
}

/// A program of one's own (`fixtures/own/prefix.pasm`) with `expect` runs and is verified on
/// every PRAM emulation from a config; a wrong `expect` fails the run (exit 1) naming the
/// first differing cell.
#[test]
fn a_users_program_with_expect_runs_on_every_pram_emulation() {
    for model in ["pram", "actor-pram", "hpram", "dbsp-hmos", "cross-pram"] {
        let config = root().join("fixtures/own").join(format!("{model}.toml"));
        let output = xtask(&["run", model, config.to_str().unwrap()]);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{model}: {}", String::from_utf8_lossy(&output.stderr));
        assert!(stdout.contains("verified") && !stdout.contains("false"), "{model}: {stdout}");
    }
    let wrong = root().join("fixtures/own/pram-wrong-expect.toml");
    let output = xtask(&["run", "pram", wrong.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cell 3 is 10, expected 11 (the config's expect)"), "{stderr}");
}

/// `report --large --model` names a model with a large preset; another name is a usage error
/// (exit 2) listing the models that have one, before anything runs or is written.
#[test]
fn large_model_must_have_a_preset() {
    let out = xtask(&["report", "--large", "--model", "nope", "--out", "/nonexistent-dir/x"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--model nope") && stderr.contains("logp-stall"), "{stderr}");
}
