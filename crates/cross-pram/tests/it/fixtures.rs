//! Every `fixtures/cross-pram/*.toml` runs through the model's `run_config`; the report (or the
//! error and whose fault it is) is snapshotted. Hand derivations are in the fixtures' comments.

use cross_pram::driver::CrossPram;
use netcore::study::{ConfigFile, Model};

fn run(path: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("fixture readable");
    match CrossPram.run_config(&ConfigFile::new(&text, path.parent().expect("in a directory"))) {
        Ok(r) => serde_json::json!({ "summary": r.summary, "report": r.report }),
        Err(e) => {
            serde_json::json!({ "error": e.to_string(), "fault": format!("{:?}", e.fault()) })
        }
    }
}

#[test]
fn fixtures() {
    insta::glob!("../../../../fixtures/cross-pram", "*.toml", |path| {
        insta::assert_json_snapshot!(run(path));
    });
}
