//! Every `fixtures/logp-stall/{goal,sim,bsp}-*.toml` runs through the model's `run_config`; the
//! report (or the error) is snapshotted. Hand derivations are in the fixtures' comments.

use logp_stall::driver::LogpStall;
use netcore::study::{ConfigFile, Model};

fn run(path: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("fixture readable");
    match LogpStall.run_config(&ConfigFile::new(&text, path.parent().expect("in a directory"))) {
        Ok(r) => serde_json::json!({ "summary": r.summary, "report": r.report }),
        Err(e) => {
            serde_json::json!({ "error": e.to_string(), "fault": format!("{:?}", e.fault()) })
        }
    }
}

#[test]
fn goal_fixtures() {
    insta::glob!("../../../../fixtures/logp-stall", "goal-*.toml", |path| {
        insta::assert_json_snapshot!(run(path), {
            ".report.bytes_per_op" => insta::rounded_redaction(0),
        });
    });
}

#[test]
fn sim_fixtures() {
    insta::glob!("../../../../fixtures/logp-stall", "sim-*.toml", |path| {
        insta::assert_json_snapshot!(run(path), {
            ".report.cost_per_cycle" => insta::rounded_redaction(3),
            ".report.bound_thm2" => insta::rounded_redaction(3),
        });
    });
}

#[test]
fn bsp_fixtures() {
    insta::glob!("../../../../fixtures/logp-stall", "bsp-*.toml", |path| {
        insta::assert_json_snapshot!(run(path));
    });
}
