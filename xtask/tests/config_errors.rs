//! Config mutation: in every model's valid fixture configs (the `bad*` and `*error*` ones hold
//! a mistake of their own, reported first), each integer-valued key in turn
//! gets a string value; `cargo xtask run` must refuse it as the user's input (exit 2) with an
//! error naming the key and its line, like `line 5, column 5: k: ...`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The fixture directories named after the model that runs them.
const MODELS: [&str; 8] = [
    "actor-pram",
    "cross-pram",
    "dbsp-hmos",
    "hpram",
    "logp-stall",
    "netcore",
    "overlap-ring",
    "pram",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The integer-valued `key = 12` lines of a config (outside comments and arrays).
fn integer_keys(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let (key, value) = line.split_once(" = ")?;
            let key = key.trim();
            let plain = key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            let integer = value.trim().parse::<i64>().is_ok();
            (plain && integer && !line.trim_start().starts_with('#')).then(|| (i, key.to_string()))
        })
        .collect()
}

/// Whether `stderr` says `line L, column C: PATH: ...` with `L = line` and a `PATH` that is
/// `key` or ends in `.key` (a key inside a table, `delays.d`): the line and the key in their
/// places, not anywhere in the message (a one-letter key such as `n` or `l` is in "line").
fn names_key(stderr: &str, line: usize, key: &str) -> bool {
    let Some((_, rest)) = stderr.split_once(&format!("line {line}, column ")) else {
        return false;
    };
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    let Some(path) = rest.strip_prefix(": ").and_then(|r| r.split_once(": ")).map(|(p, _)| p)
    else {
        return false;
    };
    path == key || path.ends_with(&format!(".{key}"))
}

#[test]
fn names_key_needs_the_line_and_the_key_in_place() {
    let message = "error: f.toml: line 14, column 5: delays.d: invalid type: string \"x\"";
    assert!(names_key(message, 14, "d"));
    assert!(!names_key(message, 1, "d"));
    assert!(!names_key(message, 14, "l"));
    assert!(!names_key("error: f.toml: line 4, column 9: procs: invalid type", 4, "n"));
    assert!(names_key("error: f.toml: line 4, column 9: procs: invalid type", 4, "procs"));
}

#[test]
fn a_mistyped_integer_is_refused_naming_its_key_and_line() {
    let scratch = root().join("target").join("xtask-tests").join("config-errors");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    let mut failures = Vec::new();
    let mut tried = 0;
    for model in MODELS {
        let dir = root().join("fixtures").join(model);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy();
                !name.starts_with("bad") && !name.contains("error")
            })
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for (line, key) in integer_keys(&text) {
                let mutated: Vec<String> = text
                    .lines()
                    .enumerate()
                    .map(|(i, l)| if i == line { format!("{key} = \"x\"") } else { l.to_string() })
                    .collect();
                let path = scratch.join(format!("{model}-{}", file.file_name().unwrap().display()));
                std::fs::write(&path, mutated.join("\n")).unwrap();
                let output = Command::new(env!("CARGO_BIN_EXE_xtask"))
                    .args(["run", model, path.to_str().unwrap()])
                    .output()
                    .unwrap();
                tried += 1;
                let stderr = String::from_utf8_lossy(&output.stderr);
                let names = names_key(&stderr, line + 1, &key);
                if output.status.code() != Some(2) || !names {
                    failures.push(format!(
                        "{} line {} `{key}`: exit {:?}: {}",
                        file.display(),
                        line + 1,
                        output.status.code(),
                        stderr.trim()
                    ));
                }
            }
        }
    }
    assert!(tried > 100, "only {tried} mutations");
    assert!(failures.is_empty(), "{} of {tried}:\n{}", failures.len(), failures.join("\n"));
}
