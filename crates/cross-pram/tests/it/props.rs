use cross_pram::driver::study::PROGRAMS;
use cross_pram::machine::Machine;
use cross_pram::machines::compare;
use netcore::pram::{Limits, run};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// Every machine's output equals the reference on any program, size and seed; every row
    /// carries the program's `T` from a run of netcore's interpreter made here, the reference
    /// costs exactly that `T`, and the machines that run the program itself pay at least
    /// one unit per instruction: the actor time is `(T - G)` plus at least one event per
    /// global step, and the flat H-PRAM's phase-refined cost `T_H + T' s + C (l + s)`, with
    /// `T_H = T - G` computation steps and `C = G` communication steps, is at least
    /// `T_H + C`, the interpreter's `T` (every preset has `l >= 1`): both slowdowns are at
    /// least 1.
    #[test]
    fn every_machine_verified(program in 0..PROGRAMS.len(), log_n in 6u32..=7, seed in 0u64..1000) {
        let rows = compare(PROGRAMS[program], 1 << log_n, seed).unwrap();
        prop_assert!(rows.iter().all(|r| r.verified), "{rows:?}");
        let instance = PROGRAMS[program].instance(1 << log_n, seed).unwrap();
        let t = run(&instance.program, &instance.input, &Limits::default()).unwrap().cost.t;
        prop_assert!(rows.iter().all(|r| r.t == t), "T = {t}: {rows:?}");
        prop_assert!((rows[0].cost - t as f64).abs() < 1e-9, "{:?}", rows[0]);
        for row in &rows {
            if matches!(row.machine, Machine::ActorButterfly | Machine::HpramFlat(_)) {
                prop_assert!(row.slowdown >= 1.0, "{row:?}");
            }
        }
    }
}
