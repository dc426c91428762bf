//! Tidy checks on the workspace (run with `cargo test`, as in rust-analyzer).

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn crates() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("Cargo.toml").exists())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    names
}

/// docs/ARCHITECTURE.md has a code-map section for every crate, and the README mentions it.
#[test]
fn docs_mention_every_crate() {
    let architecture = std::fs::read_to_string(root().join("docs/ARCHITECTURE.md")).unwrap();
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    for name in crates() {
        assert!(
            architecture.contains(&format!("### `{name}`")),
            "docs/ARCHITECTURE.md lacks `### `{name}``"
        );
        assert!(readme.contains(&name), "README.md does not mention {name}");
    }
}

/// The fixture directories whose files a crate snapshots: `fixtures/<crate>`, and
/// `fixtures/pram` (assembly programs) for netcore, which holds the PRAM.
fn fixture_dirs(name: &str) -> Vec<PathBuf> {
    let mut dirs = vec![root().join("fixtures").join(name)];
    if name == "netcore" {
        dirs.push(root().join("fixtures").join("pram"));
    }
    dirs
}

/// Every fixture (config or program) of every crate has a committed snapshot, and no fixture
/// snapshot is orphaned.
#[test]
fn every_fixture_has_a_snapshot() {
    for name in crates() {
        let snapshots = root().join("crates").join(&name).join("tests/it/snapshots");
        let names: Vec<String> = std::fs::read_dir(&snapshots)
            .map(|s| s.flatten().map(|s| s.file_name().to_string_lossy().to_string()).collect())
            .unwrap_or_default();
        let dirs = fixture_dirs(&name);
        for dir in &dirs {
            let Ok(entries) = std::fs::read_dir(dir) else { continue };
            for entry in entries.flatten() {
                let file = entry.file_name().to_string_lossy().to_string();
                // Configs everywhere; assembly programs where netcore snapshots each of them
                // (elsewhere a program is the input of a config that is snapshotted).
                let program = file.ends_with(".pasm") && dir.ends_with("pram");
                if !(file.ends_with(".toml") || program) {
                    continue;
                }
                assert!(
                    names.iter().any(|s| s.ends_with(&format!("@{file}.snap"))),
                    "fixture {} has no snapshot in {}",
                    dir.join(&file).display(),
                    snapshots.display()
                );
            }
        }
        // The other direction: a fixture snapshot (`...@FILE.snap`) whose fixture is gone.
        for snap in &names {
            let Some((_, fixture)) = snap.rsplit_once('@') else { continue };
            let fixture = fixture.trim_end_matches(".snap");
            assert!(
                dirs.iter().any(|d| d.join(fixture).exists()),
                "snapshot {} is orphaned: {fixture} is in none of {dirs:?}",
                snapshots.join(snap).display()
            );
        }
    }
}
