//! Tidy checks on the workspace (run with `cargo test`, as in rust-analyzer).

use std::path::{Path, PathBuf};

mod imports;
mod size;
mod source;

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

/// Every crate of the workspace with a `src/` directory: `crates/*` and `xtask`.
fn source_crates() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = crates().iter().map(|c| root().join("crates").join(c)).collect();
    dirs.push(root().join("xtask"));
    dirs
}

/// No module cycle in any crate: read file to file from the imports (each `.rs` file a
/// module; a parent's `use child::X` and the child's `use super::Y` make a cycle too, a
/// parent's `pub use child::X` does not), the graph of every crate is acyclic, so each crate
/// can be read from its leaves up.
#[test]
fn no_module_cycles() {
    let mut found = Vec::new();
    for dir in source_crates() {
        let sources = source::crate_sources(&dir);
        let graph = imports::graph(&sources);
        let name =
            |m: &Vec<String>| sources[m].path.strip_prefix(root()).unwrap().display().to_string();
        for cycle in imports::cycles(&graph) {
            let files: Vec<String> = cycle.iter().map(name).collect();
            found.push(format!("cycle: {}", files.join(", ")));
            for from in &cycle {
                for to in graph[from].iter().filter(|t| cycle.contains(t)) {
                    found.push(format!("  {} -> {}", name(from), name(to)));
                }
            }
        }
    }
    assert!(found.is_empty(), "module cycles:\n{}", found.join("\n"));
}

/// The cycle check sees the kinds of import a cycle is made of (a parent's re-export and a
/// child's `super::`, a group under `crate::`, a path written inline), and no others: `c`
/// imports from `d`, and `d` names `c` and `b` only in a comment, a string, a re-export and
/// test code, each of which would put `d` in the cycle of `b` and `c` if it counted.
#[test]
fn the_cycle_check_finds_cycles() {
    let dir = std::env::temp_dir().join(format!("tidy-cycles-{}", std::process::id()));
    let write = |file: &str, text: &str| {
        let path = dir.join("src").join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("lib.rs", "mod a;\nmod b;\nmod c;\nmod d;\n");
    write("a.rs", "mod child;\nuse child::X;\npub use child::Q;\npub struct Y(X);\n");
    write("a/child.rs", "// use crate::d::Z;\nuse super::Y;\npub struct X(Y);\npub struct Q;\n");
    write("b.rs", "use crate::{c::{W as _}, a::Y};\npub struct V;\n");
    write("c.rs", "use crate::d::Z as _;\npub struct W;\nfn f() { crate::b::V; }\n");
    write(
        "d.rs",
        "// use crate::c::W;\npub use crate::c::W as R;\npub struct Z;\n\
         fn g() -> usize { \"crate::b::V\".len() }\n#[cfg(test)]\nmod tests { use crate::c::W; }\n",
    );
    let sources = source::crate_sources(&dir);
    let graph = imports::graph(&sources);
    let module = |name: &str| vec![name.to_string()];
    assert!(graph[&module("c")].contains(&module("d")), "c's use of d is an arrow");
    assert!(graph[&module("d")].is_empty(), "d's comment, string, re-export and tests are none");
    let cycles = imports::cycles(&graph);
    std::fs::remove_dir_all(&dir).unwrap();
    let names: Vec<Vec<String>> =
        cycles.iter().map(|c| c.iter().map(|m| m.join("::")).collect()).collect();
    assert_eq!(
        names,
        vec![vec!["a".to_string(), "a::child".to_string()], vec!["b".into(), "c".into()]]
    );
}

/// No function over 150 lines and no source file over 1,000 lines outside tests: a longer
/// one mixes concepts that want modules or functions of their own.
#[test]
fn no_oversized_functions_or_files() {
    let mut found = Vec::new();
    for dir in source_crates() {
        for source in source::crate_sources(&dir).values() {
            if source.lines > 1000 {
                found.push(format!("{}: {} lines", source.path.display(), source.lines));
            }
            for (name, line, lines) in size::functions(&source.code) {
                if lines > 150 {
                    found.push(format!(
                        "{}:{line}: fn {name}: {lines} lines",
                        source.path.display()
                    ));
                }
            }
        }
    }
    assert!(found.is_empty(), "over the size limits:\n{}", found.join("\n"));
}

/// The size check measures a function from its `fn` line to its closing brace, braces in
/// strings, characters and comments aside.
#[test]
fn the_size_check_measures_functions() {
    let code = source::blank(
        "fn a() {\n    let s = \"}\";\n    let c = '{';\n    // }\n}\ntrait T { fn b(&self); }\nfn c<'a>(x: &'a str) -> &'a str {\n x }\n",
    );
    let got = size::functions(&code);
    assert_eq!(got, vec![("a".to_string(), 1, 5), ("c".to_string(), 7, 2)]);
}
