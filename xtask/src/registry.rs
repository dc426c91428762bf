//! The models xtask knows: the only place that names the model crates. Everything else xtask
//! knows of a model (its paper, its default sweep, its committed pictures) comes from the
//! model's [`Manifest`](netcore::study::Manifest), so adding a model is one line here
//! (docs/ARCHITECTURE.md, "Adding a model").

use netcore::study::{AnyStudy, EmbeddedSweep, Model, Paper};

use crate::usage;

/// Every model, in the order `list` prints them.
pub(crate) fn models() -> Vec<&'static dyn Model> {
    vec![
        &netcore::driver::Netcore,
        &netcore::driver::Pram,
        &overlap_ring::driver::OverlapRing,
        &logp_stall::driver::LogpStall,
        &dbsp_hmos::driver::DbspHmos,
        &actor_pram::driver::ActorPram,
        &hpram::driver::Hpram,
        &cross_pram::driver::CrossPram,
    ]
}

/// The embedded sweep specs, in registry order: a bare `cargo xtask sweep` runs all of them.
pub(crate) fn embedded_sweeps() -> Vec<EmbeddedSweep> {
    models().iter().filter_map(|m| m.manifest().sweep).collect()
}

/// The paper of the model called `name`.
pub(crate) fn paper(name: &str) -> anyhow::Result<Paper> {
    Ok(model(name)?.manifest().paper)
}

/// The model called `name`.
pub(crate) fn model(name: &str) -> anyhow::Result<&'static dyn Model> {
    models().into_iter().find(|m| m.name() == name).ok_or_else(|| {
        let known: Vec<_> = models().iter().map(|m| m.name()).collect();
        usage(format!("unknown model `{name}` (known: {})", known.join(", ")))
    })
}

/// The study called `name`, with its model's name.
pub(crate) fn study(name: &str) -> anyhow::Result<(&'static str, Box<dyn AnyStudy>)> {
    for model in models() {
        if let Some(study) = model.studies().into_iter().find(|s| s.name() == name) {
            return Ok((model.name(), study));
        }
    }
    Err(usage(format!("unknown study `{name}` (see `cargo xtask list`)")))
}

/// Every model and study, one line each.
pub(crate) fn list() -> String {
    let mut text = String::new();
    for model in models() {
        text.push_str(&format!("{:<14} {}\n", model.name(), model.about()));
        for study in model.studies() {
            text.push_str(&format!("  {:<28} {}\n", study.name(), study.about()));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::project_root;

    /// The workspace's crates with a `driver` module (the crates that expose a model to
    /// xtask), by directory name.
    fn driver_crates() -> Vec<String> {
        let crates = project_root().join("crates");
        let mut names: Vec<String> = std::fs::read_dir(&crates)
            .unwrap()
            .flatten()
            .filter(|e| {
                let src = e.path().join("src");
                src.join("driver.rs").exists() || src.join("driver").is_dir()
            })
            .map(|e| e.file_name().to_string_lossy().to_string())
            .collect();
        names.sort();
        names
    }

    /// Every crate with a `driver` module has its models in the registry.
    #[test]
    fn every_driver_crate_is_registered() {
        let registry =
            std::fs::read_to_string(project_root().join("xtask/src/registry.rs")).unwrap();
        let crates = driver_crates();
        assert!(crates.len() >= 7, "{crates:?}");
        for name in crates {
            let path = format!("{}::driver::", name.replace('-', "_"));
            assert!(
                registry.contains(&path),
                "crate {name} has a driver but no `{path}` in the registry"
            );
        }
    }

    /// No xtask source but the registry names a model crate, outside its tests: a sixth model
    /// needs one registry line, and no list elsewhere can miss it silently.
    #[test]
    fn only_the_registry_names_model_crates() {
        let crates: Vec<String> = driver_crates().iter().map(|c| c.replace('-', "_")).collect();
        for entry in std::fs::read_dir(project_root().join("xtask/src")).unwrap().flatten() {
            let file = entry.file_name().to_string_lossy().to_string();
            if file == "registry.rs" || !file.ends_with(".rs") {
                continue;
            }
            let text = std::fs::read_to_string(entry.path()).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            for name in &crates {
                if name == "netcore" {
                    assert!(!code.contains("netcore::driver"), "{file} names netcore's driver");
                    continue;
                }
                assert!(!code.contains(&format!("{name}::")), "{file} names the crate {name}");
            }
            for model in models() {
                let literal = format!("\"{}\"", model.name());
                assert!(!code.contains(&literal), "{file} names the model {literal}");
            }
        }
    }

    /// Every study of every model runs in the default sweep (an embedded spec names it), and
    /// every embedded spec names only registered studies.
    #[test]
    fn the_default_sweep_runs_every_study() {
        let specs = crate::spec::load(None).unwrap();
        for model in models() {
            for study in model.studies() {
                assert!(
                    specs.iter().any(|s| s.name == study.name()),
                    "study {} of {} is in no embedded sweep spec",
                    study.name(),
                    model.name()
                );
            }
        }
        for spec in &specs {
            assert!(study(&spec.name).is_ok(), "{}: unknown study {}", spec.file, spec.name);
        }
    }

    /// Every model's manifest points at files that exist: its docs page and its pictures'
    /// fixtures.
    #[test]
    fn manifests_point_at_files() {
        let root = project_root();
        for model in models() {
            let manifest = model.manifest();
            let docs = root.join("docs/models").join(manifest.paper.docs);
            assert!(docs.is_file(), "{}: no {}", model.name(), docs.display());
            for picture in manifest.pictures {
                assert!(
                    root.join(picture.config).is_file(),
                    "{}: no {}",
                    model.name(),
                    picture.config
                );
            }
            if let Some(sweep) = manifest.sweep {
                let on_disk = std::fs::read_to_string(root.join(sweep.file)).unwrap();
                assert_eq!(on_disk, sweep.text, "{}: {} is not the file", model.name(), sweep.file);
            }
        }
    }

    /// Every source file of the workspace's crates, with its text.
    fn sources() -> Vec<(std::path::PathBuf, String)> {
        fn walk(dir: &std::path::Path, out: &mut Vec<(std::path::PathBuf, String)>) {
            let Ok(entries) = std::fs::read_dir(dir) else { return };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    walk(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    out.push((path.clone(), std::fs::read_to_string(&path).unwrap_or_default()));
                }
            }
        }
        let mut out = Vec::new();
        walk(&project_root().join("crates"), &mut out);
        out
    }

    /// The referee tables are complete and consistent: every result covered by claims is named
    /// by a claim of its model, every claim names only results its model lists, and every
    /// result covered by a test names a test function that exists.
    #[test]
    fn referee_tables_match_the_claims() {
        let sources = sources();
        for model in models() {
            let results = model.manifest().results;
            let claims: Vec<_> = model.studies().iter().flat_map(|s| s.claims()).collect();
            for claim in &claims {
                for named in &claim.results {
                    assert!(
                        results.iter().any(|r| r.id == named),
                        "{}: claim `{}` names {named}, which the manifest does not list",
                        model.name(),
                        claim.statement
                    );
                }
            }
            for result in results {
                match result.coverage {
                    netcore::study::Coverage::Claims => assert!(
                        claims.iter().any(|c| c.results.iter().any(|r| r == result.id)),
                        "{}: {} is covered by claims, but no claim names it",
                        model.name(),
                        result.id
                    ),
                    netcore::study::Coverage::Tests { test, .. } => {
                        let name = test.rsplit("::").next().unwrap_or(test);
                        let defined = format!("fn {name}(");
                        assert!(
                            sources.iter().any(|(_, text)| text.contains(&defined)),
                            "{}: {} names the test {test}, which does not exist",
                            model.name(),
                            result.id
                        );
                    }
                    netcore::study::Coverage::NotBuilt(_) => {}
                }
            }
        }
    }

    /// Every large preset (`fixtures/sweeps/MODEL-large.toml`) parses, and names only studies
    /// of its model, every point valid.
    #[test]
    fn large_presets_belong_to_their_models() {
        let presets = crate::large::presets();
        assert!(presets.len() >= 3, "{presets:?}");
        for (model, path) in presets {
            let specs = crate::spec::load(Some(&path)).unwrap();
            for spec in specs {
                let (owner, _) = study(&spec.name).unwrap();
                assert_eq!(
                    owner,
                    model,
                    "{}: {} is not a study of {model}",
                    path.display(),
                    spec.name
                );
                assert!(!spec.jobs(false).unwrap().is_empty());
            }
        }
    }

    /// Every claim of every study is restated as a kind of evidence (a result, a bound, an
    /// illustration or a consistency check): none is judged plain PASS or FAIL any more (the
    /// correctness check xtask adds on `verified` stays as it is).
    #[test]
    fn every_claim_has_a_kind_of_evidence() {
        let mut unclassified = Vec::new();
        for model in models() {
            for study in model.studies() {
                for claim in study.claims() {
                    if claim.evidence == netcore::study::Evidence::Unclassified {
                        unclassified.push(format!("{}: {}", study.name(), claim.statement));
                    }
                }
            }
        }
        assert!(unclassified.is_empty(), "claims without a kind:\n{}", unclassified.join("\n"));
    }
}
