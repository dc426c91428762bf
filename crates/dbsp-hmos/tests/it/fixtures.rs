//! Every `fixtures/dbsp-hmos/*.toml` runs through the model's `run_config`; the report (or
//! the error) is snapshotted. Hand derivations are in the fixtures' comments.

use dbsp_hmos::driver::DbspHmos;
use netcore::study::{ConfigFile, Model};

fn run(path: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("fixture readable");
    match DbspHmos.run_config(&ConfigFile::new(&text, path.parent().expect("in a directory"))) {
        Ok(r) => serde_json::json!({ "summary": r.summary, "report": r.report }),
        Err(e) => {
            serde_json::json!({ "error": e.to_string(), "fault": format!("{:?}", e.fault()) })
        }
    }
}

#[test]
fn fixtures() {
    insta::glob!("../../../../fixtures/dbsp-hmos", "*.toml", |path| {
        insta::assert_yaml_snapshot!(run(path), {
            ".report.comm" => insta::rounded_redaction(6),
            ".report.bound" => insta::rounded_redaction(6),
            ".report.ratio" => insta::rounded_redaction(6),
            ".report.cost_per_step" => insta::rounded_redaction(6),
            ".report.by_phase[][1]" => insta::rounded_redaction(6),
        });
    });
}
