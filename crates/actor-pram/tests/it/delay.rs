//! Theorem 3 of the Appendix executed (Choice 28): the delay sequences of slow passes.

use actor_pram::driver::ActorPram;
use netcore::study::{ConfigFile, Model};

/// Runs a config file and returns its summary (the delay sequences are its last lines).
fn summary(path: &std::path::Path) -> String {
    let text = std::fs::read_to_string(path).expect("config readable");
    let r = ActorPram
        .run_config(&ConfigFile::new(&text, path.parent().expect("in a directory")))
        .expect("the run succeeds");
    r.summary
}

#[test]
#[ignore = "exploration: DS_CONFIG=path"]
fn explore() {
    let path = std::env::var("DS_CONFIG").expect("DS_CONFIG");
    println!("{}", summary(std::path::Path::new(&path)));
}
