//! Fixture snapshots and hand-checked exact cases.

use netcore::study::{ConfigFile, Model};
use overlap_ring::driver::OverlapRing;
use overlap_ring::guest::Program;
use overlap_ring::host::Host;
use overlap_ring::{Error, naive};

#[test]
fn fixtures() {
    insta::glob!("../../../../fixtures/overlap-ring", "*.toml", |path| {
        let text = std::fs::read_to_string(path).expect("fixture readable");
        let dir = path.parent().expect("fixture has a directory");
        match OverlapRing.run_config(&ConfigFile::new(&text, dir)) {
            Ok(report) => insta::assert_json_snapshot!(report.report, {
                ".d_ave" => insta::rounded_redaction(6),
                ".embedding.graph.d_ave" => insta::rounded_redaction(6),
                ".embedding.array.d_ave" => insta::rounded_redaction(6),
                ".run.slowdown" => insta::rounded_redaction(6),
                ".run.efficiency" => insta::rounded_redaction(6),
                ".ratio" => insta::rounded_redaction(6),
                ".run.copies_mean" => insta::rounded_redaction(6),
                ".run.redundancy" => insta::rounded_redaction(6),
            }),
            Err(e) => insta::assert_snapshot!(e.to_string()),
        }
    });
}

/// With `N = n`, row 1 is computed at step 1 everywhere; a pebble computed at step `s` is known
/// across a `d`-link at `s + d`, and the longest dependency chain crosses the slowest link on
/// every row, so row `t` finishes at step `1 + (t-1) d_max`.
#[test]
fn naive_host_steps_are_one_plus_t_minus_one_dmax() {
    for (delays, steps) in [(vec![1, 1, 1], 5), (vec![3, 3, 3], 5), (vec![1, 7, 2, 1], 9)] {
        let n = delays.len() + 1;
        let d_max = u64::from(*delays.iter().max().unwrap());
        let host = Host::new(n, delays, 1).unwrap();
        let run = naive::simulate(&host, n, &Program::Mix, steps).unwrap();
        assert!(run.verified);
        assert_eq!(run.host_steps, 1 + (steps - 1) * d_max);
        // One message per link, direction and row 1..T-1 (row T is needed by nobody).
        assert_eq!(run.messages, 2 * (n as u64 - 1) * (steps - 1));
        assert_eq!(run.link_units, run.messages);
        assert_eq!(run.work, n as u64 * steps);
    }
}

/// A single processor runs the guest alone: `N` unit computations per row, no messages.
#[test]
fn single_processor_does_all_work() {
    let host = Host::new(1, vec![], 1).unwrap();
    let run = naive::simulate(&host, 3, &Program::Sum, 4).unwrap();
    assert!(run.verified);
    assert_eq!((run.host_steps, run.messages, run.load), (12, 0, 3));
    // A delay law on one processor draws no link: the same host as explicit `delays = []`.
    let law = netcore::delay::DelayLaw::Uniform { d: 2 };
    let drawn = Host::from_law(1, &law, 1, &mut netcore::rng::seeded(0, 0)).unwrap();
    assert_eq!(drawn, host);
    let zero = netcore::delay::DelayLaw::Uniform { d: 0 };
    assert!(Host::from_law(1, &zero, 1, &mut netcore::rng::seeded(0, 0)).is_err());
}

#[test]
fn invalid_hosts_are_typed_errors() {
    assert_eq!(Host::new(0, vec![], 1), Err(Error::EmptyHost));
    assert_eq!(Host::new(3, vec![1], 1), Err(Error::DelayCount { expected: 2, got: 1 }));
    assert_eq!(Host::new(3, vec![1, 0], 1), Err(Error::ZeroDelay { link: 1 }));
    assert_eq!(Host::new(2, vec![1], 0), Err(Error::ZeroBandwidth));
    let host = Host::new(2, vec![1], 1).unwrap();
    assert_eq!(naive::simulate(&host, 0, &Program::Sum, 1), Err(Error::EmptyGuest));
    assert_eq!(naive::simulate(&host, 2, &Program::Sum, 0), Err(Error::ZeroGuestSteps));
}

/// Figure 1 semantics modulo 97 (the built-in `affine`), `N = 3`: row 1 `(3,6,5)` (`0+1+2`,
/// `1+2+3`, `2+3+0`), row 2 `(12,20,16)` (`0+3+6+3`, `3+6+5+6`, `6+5+0+5`), final databases
/// `(15,26,21)` (`3+12`, `6+20`, `5+16`); every scheme reproduces every pebble and database
/// (one copy on 1, 2, 3 processors; three processors holding all columns with halos).
#[test]
fn figure1_affine_mod_97() {
    let table = overlap_ring::guest::run_direct(&Program::Affine, 3, 2).unwrap();
    assert_eq!(table.rows[1][1..4], [3, 6, 5]);
    assert_eq!(table.rows[2][1..4], [12, 20, 16]);
    assert_eq!(table.final_db, vec![15, 26, 21]);
    for n in 1..=3 {
        let host = Host::new(n, vec![3; n - 1], 1).unwrap();
        let plan = naive::plan(n, 3).unwrap();
        assert!(overlap_ring::engine::run(&host, &plan, &Program::Affine, 2).unwrap().verified);
    }
    let cores = [Some((1, 1)), Some((2, 2)), Some((3, 3))];
    let halo = overlap_ring::trapezoid::halo_plan(&cores, 2, 2, 3).unwrap();
    let host = Host::new(3, vec![4, 1], 2).unwrap();
    assert!(overlap_ring::engine::run(&host, &halo, &Program::Affine, 2).unwrap().verified);
    let host = Host::new(3, vec![2, 5], 1).unwrap();
    let run = naive::simulate(&host, 3, &Program::Affine, 2).unwrap();
    assert!(run.verified);
    assert_eq!(run.host_steps, 1 + 5);
}

/// Config errors without a fixture: closed sets are parse errors naming the line, field
/// combinations that no scheme, guest or host takes are typed input errors.
#[test]
fn config_errors() {
    use netcore::fault::Fault;
    let run = |text: &str| {
        let e =
            OverlapRing.run_config(&ConfigFile::new(text, std::path::Path::new("."))).unwrap_err();
        assert_eq!(e.fault(), Fault::Input, "{e}");
        e.to_string()
    };
    let law = "[delays]\nlaw = \"uniform\"\nd = 1\n";
    let cases = [
        (
            "algorithm = \"magic\"\nn = 4\nsteps = 2\n",
            "line 1, column 13: algorithm: unknown variant `magic`",
        ),
        (
            "program = \"prod\"\nn = 4\nsteps = 2\n",
            "line 1, column 11: program: unknown variant `prod`",
        ),
        ("host = \"torus\"\nn = 4\nsteps = 2\n", "line 1, column 8: host: unknown variant `torus`"),
        ("algorithm = \"array2d\"\nn = 4\nsteps = 2\n", "array2d needs cols = m"),
        (
            "algorithm = \"naive\"\nblock = 2\nn = 4\nsteps = 2\n",
            "block applies to algorithm = \"overlap\" or \"composite\" only (got algorithm = \"naive\")",
        ),
        (
            "guest = \"grid\"\nprogram = \"sum\"\nn = 4\nsteps = 2\n",
            "a grid guest runs program = \"grid_mix\" (got program = \"sum\")",
        ),
        ("program = \"grid_mix\"\nn = 4\nsteps = 2\n", "program must be one of"),
        (
            "max_degree = 3\nn = 4\nsteps = 2\n",
            "max_degree and edges apply to host = \"graph\" only (got host = \"array\")",
        ),
        (
            "host = \"graph\"\nedges = [[0, 1]]\nn = 2\nsteps = 2\n",
            "a graph with edges needs law = \"explicit\" delays",
        ),
    ];
    for (text, expected) in cases {
        let message = run(&format!("{text}{law}"));
        assert!(message.starts_with(expected), "{text}: {message}");
    }
}

/// Guests sized by their scheme on the built host are checked before the plan is allocated
/// (issue 39): the work-efficient OVERLAP fixture on 32 processors has at most `32 b` columns;
/// with `b = 2^31` and 10 steps that is `2^36 * 10 = 687194767360` pebbles, past 2^31; with
/// `b = 2^20` and one step, `512 (32 + 2^25) + 16 = 17179885584` bytes, past 4 GiB. The
/// trapezoid scheme on 8 processors with one delay `2^31` has `r = floor(sqrt(2^31)) = 46340`,
/// so `8 * 46340 = 370720` columns for 10 steps: 3707200 pebbles, within; for 2^24 steps
/// `370720 * 2^24 = 6219649515520`, not.
#[test]
fn scheme_sized_guests_are_checked_before_the_plan() {
    let run =
        |text: &str| OverlapRing.run_config(&ConfigFile::new(text, std::path::Path::new(".")));
    let overlap = |block: u64, steps: u64| {
        format!(
            "algorithm = \"overlap\"\nblock = {block}\nn = 32\nsteps = {steps}\nprogram = \"sum\"\n[delays]\nlaw = \"two_level\"\nlong = 40\np_long = 0.1\n"
        )
    };
    let e = run(&overlap(1 << 31, 10)).unwrap_err().to_string();
    assert_eq!(
        e,
        "block is too large: the run needs 687194767360 pebbles (guest cells x steps), the limit is 2147483648"
    );
    let e = run(&overlap(1 << 20, 1)).unwrap_err().to_string();
    assert_eq!(
        e,
        "block is too large: the run needs 17179885584 bytes (estimated), the limit is 4294967296"
    );
    let trapezoid = |steps: u64| {
        format!(
            "algorithm = \"trapezoid\"\nn = 8\nsteps = {steps}\n[delays]\nlaw = \"explicit\"\ndelays = [1, 1, 1, 2147483648, 1, 1, 1]\n"
        )
    };
    let e = run(&trapezoid(1 << 24)).unwrap_err().to_string();
    assert_eq!(
        e,
        "steps is too large: the run needs 6219649515520 pebbles (guest cells x steps), the limit is 2147483648"
    );
}
