//! What the report and the large presets are generated from, hashed: the whole workspace's
//! sources for the report ([`definitions_hash`]), one model's for its large preset
//! ([`model_hash`]).

use std::path::{Path, PathBuf};

use crate::registry;
use crate::sweep::project_root;

/// FNV-1a over everything the report is generated from: the sources of the simulators, the
/// studies and xtask, the sweep specs and the lock file ([`SOURCES`], read from the workspace
/// in path order), then the embedded sweep specs and every model's studies in registry order
/// with their names, descriptions, claims, plots and glossaries. A changed simulator source
/// changes the hash, so a report older than the code fails its test.
pub(crate) fn definitions_hash() -> String {
    hash_of(|_| true, |_| true)
}

/// [`definitions_hash`] restricted to what one model's large preset is generated from: netcore,
/// the model's crate, xtask, the lock and manifest files, the model's sweep specs and its
/// studies' definitions; `large.md` records it per model, so that a change to another model
/// does not mark this model's recorded run stale.
pub(crate) fn model_hash(model: &str) -> String {
    let crate_dir = format!("crates/{model}/");
    let specs = format!("fixtures/sweeps/{model}");
    hash_of(
        |relative| {
            let path = relative.to_string_lossy();
            !path.starts_with("crates/") && !path.starts_with("fixtures/sweeps/")
                || path.starts_with("crates/netcore/")
                || path.starts_with(&crate_dir)
                || path.starts_with(&specs)
        },
        |name| name == model,
    )
}

/// FNV-1a over the source files whose relative path `files` keeps, the embedded sweeps of the
/// same files, and the studies of the models `models` keeps.
fn hash_of(files: impl Fn(&Path) -> bool, models: impl Fn(&str) -> bool) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |text: &str| {
        for byte in text.bytes().chain([0xff]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    };
    let root = project_root();
    for path in source_files(&root) {
        let relative = path.strip_prefix(&root).unwrap_or(&path);
        if !files(relative) {
            continue;
        }
        feed(&relative.to_string_lossy());
        feed(&String::from_utf8_lossy(&std::fs::read(&path).unwrap_or_default()));
    }
    for sweep in registry::embedded_sweeps().into_iter().filter(|s| files(Path::new(s.file))) {
        feed(sweep.file);
        feed(sweep.text);
    }
    for model in registry::models().into_iter().filter(|m| models(m.name())) {
        feed(model.name());
        for study in model.studies() {
            feed(study.name());
            feed(study.about());
            let json = |v: serde_json::Result<String>| v.unwrap_or_default();
            feed(&json(serde_json::to_string(&study.claims())));
            feed(&json(serde_json::to_string(&study.plots())));
            feed(&json(serde_json::to_string(&study.glossary())));
        }
    }
    format!("{hash:016x}")
}

/// What the report is generated from, relative to the workspace root: directories (every file
/// under them) and files. Tests, benches, examples and docs are not among them.
const SOURCES: &[&str] =
    &["Cargo.lock", "Cargo.toml", "crates", "fixtures/sweeps", "xtask/Cargo.toml", "xtask/src"];

/// The files of [`SOURCES`], sorted by path: under `crates`, only each crate's `Cargo.toml` and
/// `src/`.
pub(crate) fn source_files(root: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    for source in SOURCES {
        let path = root.join(source);
        if *source == "crates" {
            let crates = std::fs::read_dir(&path).into_iter().flatten().flatten();
            for krate in crates.map(|e| e.path()) {
                files.push(krate.join("Cargo.toml"));
                walk(&krate.join("src"), &mut files);
            }
        } else if path.is_dir() {
            walk(&path, &mut files);
        } else {
            files.push(path);
        }
    }
    files.retain(|f| f.is_file());
    files.sort();
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hash reads the simulators' sources: a source of every crate is among its files, and
    /// tests and docs are not.
    #[test]
    fn the_hash_covers_the_simulator_sources() {
        let root = project_root();
        let files = source_files(&root);
        for krate in ["netcore", "overlap-ring", "logp-stall", "dbsp-hmos", "actor-pram", "hpram"] {
            let lib = root.join("crates").join(krate).join("src/lib.rs");
            assert!(files.contains(&lib), "{} is not hashed", lib.display());
        }
        assert!(files.contains(&root.join("Cargo.lock")));
        assert!(files.iter().all(|f| !f.components().any(|c| c.as_os_str() == "tests")));
    }

    /// A model's hash reads its own crate and specs, not another model's: the hashes of two
    /// models differ, and each is stable.
    #[test]
    fn model_hashes_are_per_model() {
        assert_eq!(model_hash("logp-stall"), model_hash("logp-stall"));
        assert_ne!(model_hash("logp-stall"), model_hash("dbsp-hmos"));
        assert_ne!(model_hash("netcore"), definitions_hash());
    }
}
