//! Fuzzing that stays (issue: hardening): every model's config loader and the sweep-spec
//! parser, fed arbitrary text and mutated fixtures, never panics, fails with one line, and
//! stays under [`ADDRESS_SPACE_CAP`]: the test process's address space is capped, so a run
//! that allocated past its stated limit would fail the test (an allocation failure aborts)
//! instead of passing unnoticed.
//!
//! Mutations only delete (a character, a line, a tail) or replace a value by a string, so a
//! mutated fixture never asks for a larger run than the fixture itself: each case stays as
//! fast as the snapshot tests.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use netcore::study::ConfigFile;
use proptest::prelude::*;

use crate::registry;

/// The address-space cap of the fuzzing process: twice `netcore::limits::DEFAULT_MEMORY`
/// (4 GiB), the estimate every model checks a run against, leaving room for the test
/// harness's threads and allocator arenas.
const ADDRESS_SPACE_CAP: u64 = 2 * netcore::limits::DEFAULT_MEMORY;

/// Caps this process's address space at [`ADDRESS_SPACE_CAP`] (once; the soft limit only).
fn cap_memory() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
        let current = getrlimit(Resource::As);
        let cap = current.current.map_or(ADDRESS_SPACE_CAP, |c| c.min(ADDRESS_SPACE_CAP));
        // A failure leaves the limit as it was; the properties still check panics and lines.
        let _ = setrlimit(Resource::As, Rlimit { current: Some(cap), maximum: current.maximum });
    });
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.toml` fixture of every model, with the model's name.
fn fixtures() -> Vec<(&'static str, PathBuf)> {
    let mut out = Vec::new();
    for model in registry::models() {
        let Ok(entries) = std::fs::read_dir(root().join("fixtures").join(model.name())) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        paths.sort();
        out.extend(paths.into_iter().map(|p| (model.name(), p)));
    }
    out
}

/// A mutation of a config text.
#[derive(Debug, Clone)]
enum Mutation {
    DeleteChar(usize),
    DeleteLine(usize),
    Truncate(usize),
    /// The value of line `i` (after its `=`) becomes a string.
    Stringify(usize),
}

fn mutate(text: &str, mutation: &Mutation) -> String {
    let lines: Vec<&str> = text.lines().collect();
    match *mutation {
        Mutation::DeleteChar(i) => {
            let mut chars: Vec<char> = text.chars().collect();
            if !chars.is_empty() {
                chars.remove(i % chars.len());
            }
            chars.into_iter().collect()
        }
        Mutation::DeleteLine(i) if !lines.is_empty() => {
            let i = i % lines.len();
            lines
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, l)| *l)
                .collect::<Vec<_>>()
                .join("\n")
        }
        Mutation::Truncate(i) => text.chars().take(i % (text.chars().count() + 1)).collect(),
        Mutation::Stringify(i) if !lines.is_empty() => {
            let i = i % lines.len();
            let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            if let Some((key, _)) = lines[i].split_once('=') {
                out[i] = format!("{key}= \"x\"");
            }
            out.join("\n")
        }
        _ => text.to_string(),
    }
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::DeleteChar),
        any::<usize>().prop_map(Mutation::DeleteLine),
        any::<usize>().prop_map(Mutation::Truncate),
        any::<usize>().prop_map(Mutation::Stringify),
    ]
}

/// Runs `text` as a config of `model` in `dir`: no panic, and an error is one line.
fn check_run(model: &str, text: &str, dir: &Path) -> Result<(), TestCaseError> {
    cap_memory();
    let model = registry::model(model).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let outcome = catch_unwind(AssertUnwindSafe(|| model.run_config(&ConfigFile::new(text, dir))));
    match outcome {
        Err(_) => Err(TestCaseError::fail(format!("{}: panicked on\n{text}", model.name()))),
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => {
            let message = e.to_string();
            prop_assert!(!message.contains('\n'), "{}: not one line: {message}", model.name());
            prop_assert!(!message.is_empty());
            Ok(())
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    /// Mutated fixtures of every model run or fail with one line, never panic.
    #[test]
    fn mutated_fixtures_never_panic(pick in any::<usize>(), m in mutation()) {
        let all = fixtures();
        prop_assume!(!all.is_empty());
        let (model, path) = &all[pick % all.len()];
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let dir = path.parent().unwrap_or(Path::new("."));
        check_run(model, &mutate(&text, &m), dir)?;
    }

    /// Arbitrary text is a config error of one line for every model.
    #[test]
    fn arbitrary_text_never_panics(text in "[a-z_\\[\\]=\"0-9 .,{}\\n-]{0,120}") {
        for model in registry::models() {
            check_run(model.name(), &text, Path::new("."))?;
        }
    }

    /// Mutated embedded sweep specs parse and expand, or fail with one line, never panic.
    #[test]
    fn mutated_sweep_specs_never_panic(pick in any::<usize>(), m in mutation(), quick in any::<bool>()) {
        let sweeps = registry::embedded_sweeps();
        let sweep = sweeps[pick % sweeps.len()];
        let (file, text) = (sweep.file, mutate(sweep.text, &m));
        cap_memory();
        let outcome = catch_unwind(|| {
            crate::spec::parse(file, &text).and_then(|specs| {
                specs.iter().try_for_each(|s| s.jobs(quick).map(|_| ()))
            })
        });
        match outcome {
            Err(_) => return Err(TestCaseError::fail(format!("panicked on\n{text}"))),
            Ok(Err(e)) => prop_assert!(!format!("{e:#}").contains('\n'), "{e:#}"),
            Ok(Ok(())) => {}
        }
    }
}
