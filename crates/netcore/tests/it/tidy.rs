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

/// Every fixture config of every crate has a committed snapshot, and no snapshot is orphaned.
#[test]
fn every_fixture_has_a_snapshot() {
    for name in crates() {
        let fixtures = root().join("fixtures").join(&name);
        let Ok(entries) = std::fs::read_dir(&fixtures) else { continue };
        let snapshots = root().join("crates").join(&name).join("tests/it/snapshots");
        for entry in entries.flatten() {
            let file = entry.file_name().to_string_lossy().to_string();
            if !file.ends_with(".toml") {
                continue;
            }
            let found = std::fs::read_dir(&snapshots)
                .map(|s| {
                    s.flatten().any(|s| {
                        s.file_name().to_string_lossy().ends_with(&format!("@{file}.snap"))
                    })
                })
                .unwrap_or(false);
            assert!(
                found,
                "fixture fixtures/{name}/{file} has no snapshot in {}",
                snapshots.display()
            );
        }
        // The other direction: a fixture snapshot (`...@FILE.snap`) whose fixture is gone.
        let Ok(snaps) = std::fs::read_dir(&snapshots) else { continue };
        for snap in snaps.flatten() {
            let snap = snap.file_name().to_string_lossy().to_string();
            let Some((_, fixture)) = snap.rsplit_once('@') else { continue };
            let fixture = fixture.trim_end_matches(".snap");
            assert!(
                fixtures.join(fixture).exists(),
                "snapshot {} is orphaned: fixtures/{name}/{fixture} does not exist",
                snapshots.join(&snap).display()
            );
        }
    }
}
