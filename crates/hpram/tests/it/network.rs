//! The H-PRAM executed on a network (paper Section 3; `docs/models/hpram.md`, H-PRAM on a
//! network): results equal the abstract run on several programs and topologies, and the
//! measured constructs are what the engine's rules give by hand.

use hpram::algs::{Alg1, FftForm, TreeForm};
use hpram::network::{
    Construct, NetKind, NetworkParams, NetworkRun, compare, per_level_of, run_on_network,
};
use hpram::{
    Builtin, BuiltinParams, CostModel, Formula, HpramError, MemoryVariant, Preset, SyncScale,
};

fn on_network(builtin: Builtin, p: usize, n: usize, kind: NetKind) -> (hpram::Run, NetworkRun) {
    let params = BuiltinParams::new(builtin, p, n).unwrap();
    let x: Vec<i64> = (0..n as i64).collect();
    let cfg = params.config();
    let net = NetworkParams::new(kind);
    let (run, network) =
        run_on_network(&cfg, params.algorithm(), vec![], &params.layout(&x), &net).unwrap();
    assert_eq!(params.output(&run.memory), builtin.reference(&x), "{builtin:?}");
    (run, network)
}

/// Tree reduction, prefix sums and the FFT, flat and hierarchical, on all three families:
/// the network's final memory is the abstract run's (the executor checks it, and every read),
/// and the network time is positive.
#[test]
fn results_equal_the_abstract_run() {
    let builtins = [
        Builtin::TreeReduce(TreeForm::Flat),
        Builtin::TreeReduce(TreeForm::Hier),
        Builtin::TreePrefix(TreeForm::Flat),
        Builtin::TreePrefix(TreeForm::TwoLevel),
        Builtin::TreePrefix(TreeForm::Hier),
        Builtin::Fft(FftForm::FlatLpram),
        Builtin::Fft(FftForm::Hier),
    ];
    for kind in [NetKind::Hypercube, NetKind::Mesh, NetKind::Torus] {
        for builtin in builtins {
            let (run, network) = on_network(builtin, 16, 64, kind);
            assert_eq!(network.memory, run.memory);
            assert!(network.time > 0 && network.total >= network.time);
        }
    }
}

/// The abstract run is unchanged by recording: the same cost tree and replay hash as a plain
/// run, on the paper's `Alg1` hierarchy too (general partitions into aligned sub-networks).
#[test]
fn recording_changes_nothing() {
    let cfg = hpram::Config::new(16, 32);
    let plain = hpram::run(&cfg, std::sync::Arc::new(Alg1), vec![], &[]).unwrap();
    for kind in [NetKind::Hypercube, NetKind::Mesh] {
        let (run, _) =
            run_on_network(&cfg, std::sync::Arc::new(Alg1), vec![], &[], &NetworkParams::new(kind))
                .unwrap();
        assert_eq!(run, plain);
    }
}

/// By hand, flat tree reduction on the 4-cube (`P = 16`, `N = 16`, delay 1): every barrier is a
/// scan over the binomial tree rooted at node 0, 4 hops up and 4 down, so it measures 8
/// against the preset's `s_α(16) = 4` (ratio 2); the hypercube preset's `ℓ(16) = 4`.
#[test]
fn barrier_by_hand() {
    let (_, network) = on_network(Builtin::TreeReduce(TreeForm::Flat), 16, 16, NetKind::Hypercube);
    let cube = Preset::Hypercube(SyncScale::Diam);
    let rows = compare(&network, &cube, "hypercube");
    let barrier = rows.iter().find(|r| r.construct == Construct::Barrier).unwrap();
    assert_eq!((barrier.measured, barrier.measured_max, barrier.predicted), (8.0, 8, 4));
    assert_eq!(barrier.ratio, Some(2.0));
    let step = rows.iter().find(|r| r.construct == Construct::PramStep).unwrap();
    assert_eq!(step.predicted, 4);
    assert!(step.measured >= 1.0 && step.measured_max <= 2 * 4 + 16);
}

/// The per-level model calibrated on a regular hierarchy: every level's constructs have one
/// size, so its prediction of the network time is close to the measurement.
#[test]
fn per_level_calibration() {
    let (run, network) = on_network(Builtin::TreeReduce(TreeForm::Hier), 16, 64, NetKind::Mesh);
    let model = per_level_of(&network);
    assert_eq!(model.levels().len(), 5);
    assert!(model.levels().iter().all(|row| row[0] >= 1));
    let predicted = run
        .cost
        .eval(&model, MemoryVariant::NonUniform, Formula::PhaseRefined)
        .expect("prices")
        .total;
    let error = (predicted as f64 - network.time as f64).abs() / network.time as f64;
    assert!(error < 0.25, "{predicted} vs {}", network.time);
    assert_eq!(model.latency(16, 9), model.levels()[4][0]);
}

/// What the executor refuses: uniform memory, a torus below 16 nodes, `P` not a power of two.
#[test]
fn refusals() {
    let params = BuiltinParams::new(Builtin::TreeReduce(TreeForm::Hier), 4, 8).unwrap();
    let mut cfg = params.config();
    let alg = params.algorithm();
    let net = NetworkParams::new(NetKind::Hypercube);
    cfg.memory = MemoryVariant::Uniform;
    let err = run_on_network(&cfg, alg.clone(), vec![], &[], &net).unwrap_err();
    assert!(matches!(err, HpramError::NetworkUnsupported { .. }), "{err}");
    cfg.memory = MemoryVariant::NonUniform;
    let torus = NetworkParams::new(NetKind::Torus);
    let err = run_on_network(&cfg, alg, vec![], &[], &torus).unwrap_err();
    assert_eq!(err.to_string(), "network must satisfy procs >= 16 on a torus (sides >= 4) (got 4)");
}

/// Concurrent plain writes under `crcw-fetch-add` fold into the cell (4 processors write
/// 1, 2, 3, 4 to cell 0: the abstract run leaves 10), where the network keeps the lowest
/// pid's value (1): the executor refuses the step as unsupported (the user's input, exit 2)
/// instead of failing its check against the abstract run. Under `crcw-priority`, whose
/// lowest pid wins as on the network, the same step runs and both leave 1.
#[test]
fn concurrent_writes_that_fold_are_refused() {
    use hpram::{FnAlg, MemOp, SubModel};
    use netcore::fault::{Classify, Fault};
    use netcore::pram::{FetchOp, Variant};
    let alg = FnAlg::arc("all write cell 0", |sp| {
        sp.compute(1, |p| p.local[0] = p.pid as i64 + 1)?;
        sp.comm(|_| MemOp::Write { addr: 0, src: 0 })
    });
    let net = NetworkParams::new(NetKind::Hypercube);
    let mut cfg = hpram::Config::new(4, 4);
    cfg.model = SubModel::EREW.with_access(Variant::CrcwFetchOp(FetchOp::Add));
    let err = run_on_network(&cfg, alg.clone(), vec![], &[], &net).unwrap_err();
    assert!(matches!(err, HpramError::NetworkUnsupported { .. }), "{err}");
    assert_eq!(err.fault(), Fault::Input);
    assert!(err.to_string().contains("concurrent writes"), "{err}");
    cfg.model = SubModel::EREW.with_access(Variant::CrcwPriority);
    let (run, _) = run_on_network(&cfg, alg, vec![], &[], &net).unwrap();
    assert_eq!(run.memory[0], 1);
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// On any network, link delay and hash seed, every built-in algorithm's network
        /// execution equals its abstract run (the executor checks every read and the final
        /// memory), the network time grows with the link delay, and it never falls below the
        /// computation steps the abstract run counts.
        #[test]
        fn network_equals_abstract(
            which in 0usize..6,
            log_p in 0u32..6,
            log_r in 1u32..4,
            kind in 0usize..3,
            delay in 1u64..4,
            seed in 0u64..1000,
        ) {
            let builtin = [
                Builtin::TreeReduce(TreeForm::Flat),
                Builtin::TreeReduce(TreeForm::Hier),
                Builtin::TreePrefix(TreeForm::Hier),
                Builtin::TreePrefix(TreeForm::TwoLevel),
                Builtin::Fft(FftForm::FlatLpram),
                Builtin::Fft(FftForm::Hier),
            ][which];
            let kind = [NetKind::Hypercube, NetKind::Mesh, NetKind::Torus][kind];
            let log_p = if kind == NetKind::Torus { log_p.max(4) } else { log_p };
            let (p, n) = (1usize << log_p, 1usize << (log_p + log_r));
            let params = BuiltinParams::new(builtin, p, n).unwrap();
            let x: Vec<i64> = (0..n as i64).collect();
            let go = |link_delay| {
                let net = NetworkParams { topology: kind, link_delay, seed };
                run_on_network(&params.config(), params.algorithm(), vec![], &params.layout(&x), &net)
                    .unwrap()
            };
            let (run, network) = go(delay);
            prop_assert_eq!(&network.memory, &run.memory);
            prop_assert_eq!(params.output(&run.memory), builtin.reference(&x));
            let (_, slower) = go(delay + 1);
            // With p >= 2 every barrier crosses a link, so a longer delay takes longer.
            if p >= 2 {
                prop_assert!(slower.time > network.time, "{} against {}", slower.time, network.time);
            } else {
                prop_assert_eq!(slower.time, network.time);
            }
            prop_assert!(network.time >= run.cost.root.counts().t);
        }
    }
}
