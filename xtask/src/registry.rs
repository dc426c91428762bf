//! The models xtask knows: the only place that names the model crates.

use netcore::study::{AnyStudy, Model};

use crate::usage;

/// Every model, in the order `list` prints them.
pub(crate) fn models() -> Vec<&'static dyn Model> {
    vec![
        &netcore::driver::Netcore,
        &netcore::driver::Pram,
        &overlap_ring::driver::OverlapRing,
        &logp_stall::driver::LogpStall,
        &dbsp_hmos::driver::DbspHmos,
        &actor_pram::ActorPram,
        &hpram::Hpram,
        &cross_pram::CrossPram,
    ]
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
