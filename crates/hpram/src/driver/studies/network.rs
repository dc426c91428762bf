//! Study `hpram-network` (issue 37 item 3; paper Section 3; `docs/models/hpram.md`, H-PRAM on a
//! network): tree reduction, tree prefix sums and the FFT, flat and hierarchical, executed on
//! the hypercube, the 2-D mesh and the 2-D torus by the network executor ([`crate::network`]) and priced by
//! the matching preset (PhaseRefined, non-uniform) and by the per-level model of paper Section
//! 3.1 calibrated on the same execution. Each point emits one row per form; both rows carry the
//! point's predicted and measured advantage of the hierarchical form (`τ_flat/τ_hier`).

use serde::{Deserialize, Serialize};

use netcore::rng::SimRng;
use netcore::study::{Claim, Column, JsonObject, ModelError, ParamError, Plot, Study};

use super::tree_r::TreePreset;
use crate::algs::{FftForm, TreeForm};
use crate::builtin::{Builtin, BuiltinParams};
use crate::config::MemoryVariant;
use crate::cost_model::{CostModel, Preset};
use crate::driver::results;
use crate::error::HpramError;
use crate::eval::Formula;
use crate::network::{Construct, NetKind, NetworkParams, NetworkRun, per_level_of, run_on_network};

/// The `hpram-network` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct NetworkStudy;

/// The networks of the study, each priced by a preset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StudyNet {
    /// The hypercube, priced by [`Preset::Hypercube`].
    Hypercube,
    /// The 2-D mesh, priced by [`Preset::Mesh2D`] (the paper's `√p`).
    Mesh2d,
    /// The 2-D torus (`P >= 16`), priced by [`Preset::Mesh2D`] too: its diameter is the
    /// paper's `√p` for a square torus.
    Torus,
}
netcore::display_config_name!(StudyNet);

impl StudyNet {
    /// Its preset (`s = diam`) and network family.
    fn machine(self) -> (Preset, NetKind) {
        match self {
            StudyNet::Hypercube => (TreePreset::Hypercube.preset(), NetKind::Hypercube),
            StudyNet::Mesh2d => (TreePreset::Mesh2d.preset(), NetKind::Mesh),
            StudyNet::Torus => (TreePreset::Mesh2d.preset(), NetKind::Torus),
        }
    }
}

/// The algorithms of the study.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NetAlgorithm {
    /// Tree reduction (flat, hier).
    TreeReduce,
    /// Tree prefix sums (flat, hier).
    TreePrefix,
    /// The FFT (flat LPRAM, hier).
    Fft,
}
netcore::display_config_name!(NetAlgorithm);

impl NetAlgorithm {
    /// Its flat and hierarchical forms.
    fn forms(self) -> [(&'static str, Builtin); 2] {
        match self {
            NetAlgorithm::TreeReduce => [
                ("flat", Builtin::TreeReduce(TreeForm::Flat)),
                ("hier", Builtin::TreeReduce(TreeForm::Hier)),
            ],
            NetAlgorithm::TreePrefix => [
                ("flat", Builtin::TreePrefix(TreeForm::Flat)),
                ("hier", Builtin::TreePrefix(TreeForm::Hier)),
            ],
            NetAlgorithm::Fft => {
                [("flat", Builtin::Fft(FftForm::FlatLpram)), ("hier", Builtin::Fft(FftForm::Hier))]
            }
        }
    }
}

/// One point.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkStudyParams {
    /// The network, priced by its preset (hypercube; mesh2d for the mesh and the torus).
    pub topology: StudyNet,
    /// The algorithm.
    pub algorithm: NetAlgorithm,
    /// `p = log₂P`, `1..=8`.
    pub log_p: u32,
    /// `ρ = log₂r`, `1..=4`.
    pub log_r: u32,
}

/// One row: one form at one point.
#[derive(Debug, Clone, Serialize)]
pub struct NetworkStudyRow {
    /// `flat` or `hier`.
    pub form: String,
    /// `algorithm/form/topology`, the plot's series.
    pub series: String,
    /// `P`.
    pub p: u64,
    /// `N = rP`.
    pub n: u64,
    /// The preset's PhaseRefined `τ`.
    pub predicted: u64,
    /// The network's measured time (steps, barriers, β, slowest child; no permutations).
    pub measured: u64,
    /// The same with the partitions' memory permutations.
    pub measured_total: u64,
    /// `measured / predicted`.
    pub measured_over_predicted: f64,
    /// The calibrated per-level model's PhaseRefined `τ`.
    pub per_level_predicted: u64,
    /// `|per_level_predicted − measured| / measured`.
    pub per_level_error: f64,
    /// The root's mean PRAM step over `ℓ(P)`.
    pub step_over_latency: f64,
    /// The root's mean barrier over `s_α(P)`.
    pub barrier_over_alpha: f64,
    /// The root's β-synchronisation over `s_β(2, P)` (hier only).
    pub beta_over_preset: Option<f64>,
    /// The network's final memory equals the abstract run's and the output the reference.
    pub equals_abstract: bool,
    /// `τ_flat / τ_hier` predicted by the preset.
    pub predicted_advantage: f64,
    /// `τ_flat / τ_hier` measured on the network (no permutations).
    pub measured_advantage: f64,
    /// The same with the permutations.
    pub measured_total_advantage: f64,
    /// `measured_total_advantage / predicted_advantage`: how much of the predicted advantage
    /// the network keeps once the permutations are paid.
    pub advantage_kept: f64,
}

/// A validated point.
#[derive(Debug, Clone)]
pub struct NetworkStudyPoint {
    params: NetworkStudyParams,
}

/// One form executed: its builtin run on the network, and the predictions.
struct FormRun {
    predicted: u64,
    per_level: u64,
    net: NetworkRun,
    equals: bool,
}

fn execute(
    builtin: Builtin,
    p: usize,
    n: usize,
    kind: NetKind,
    preset: &Preset,
) -> Result<FormRun, HpramError> {
    let params = BuiltinParams::new(builtin, p, n)?;
    let x: Vec<i64> = (0..n as i64).collect();
    let (run, net) = run_on_network(
        &params.config(),
        params.algorithm(),
        vec![],
        &params.layout(&x),
        &NetworkParams::new(kind),
    )?;
    // The network's memory equals the abstract run's, or `run_on_network` failed
    // (`NetworkMismatch`): what is left to check is the output against the reference.
    let equals = params.output(&run.memory) == builtin.reference(&x);
    let price = |m: &dyn CostModel| {
        run.cost.eval(m, MemoryVariant::NonUniform, Formula::PhaseRefined).map(|e| e.total)
    };
    let per_level = price(&per_level_of(&net))?;
    Ok(FormRun { predicted: price(preset)?, per_level, net, equals })
}

/// The root's (level 1) mean of `what`.
fn root_mean(net: &NetworkRun, what: Construct) -> Option<f64> {
    net.measured.iter().find(|m| m.construct == what && m.level == 1).map(|m| m.mean)
}

impl Study for NetworkStudy {
    type Params = NetworkStudyParams;
    type Point = NetworkStudyPoint;
    type Row = NetworkStudyRow;

    fn name(&self) -> &'static str {
        "hpram-network"
    }
    fn about(&self) -> &'static str {
        "Section 3: tree reduction, prefix sums and the FFT, flat and hier, executed on the hypercube and the 2-D mesh (hashed memory, routed steps, scan barriers, partition permutations) beside the presets' and the per-level model's predictions"
    }
    fn point(&self, params: &NetworkStudyParams) -> Result<NetworkStudyPoint, ModelError> {
        if !(1..=8).contains(&params.log_p) {
            return Err(ParamError::new("log_p", "1 <= log_p <= 8", params.log_p).into());
        }
        if params.topology == StudyNet::Torus && params.log_p < 4 {
            let rule = "log_p >= 4 on the torus (sides >= 4)";
            return Err(ParamError::new("log_p", rule, params.log_p).into());
        }
        if !(1..=4).contains(&params.log_r) {
            return Err(ParamError::new("log_r", "1 <= log_r <= 4", params.log_r).into());
        }
        Ok(NetworkStudyPoint { params: params.clone() })
    }
    fn run(
        &self,
        point: &NetworkStudyPoint,
        _rng: &mut SimRng,
    ) -> Result<Vec<NetworkStudyRow>, ModelError> {
        let NetworkStudyParams { topology, algorithm, log_p, log_r } = point.params.clone();
        let (preset, kind) = topology.machine();
        let (p, n) = (1usize << log_p, 1usize << (log_p + log_r));
        let mut runs = Vec::new();
        for (_, builtin) in algorithm.forms() {
            runs.push(execute(builtin, p, n, kind, &preset)?);
        }
        let ratio = |a: u64, b: u64| a as f64 / b as f64;
        let advantage = (
            ratio(runs[0].predicted, runs[1].predicted),
            ratio(runs[0].net.time, runs[1].net.time),
            ratio(runs[0].net.total, runs[1].net.total),
        );
        let pp = p as u64;
        let rows = algorithm
            .forms()
            .iter()
            .zip(&runs)
            .map(|(&(form, _), r)| {
                let beta = root_mean(&r.net, Construct::BetaSync);
                NetworkStudyRow {
                    form: form.to_string(),
                    series: format!("{algorithm}/{form}/{topology}"),
                    p: pp,
                    n: n as u64,
                    predicted: r.predicted,
                    measured: r.net.time,
                    measured_total: r.net.total,
                    measured_over_predicted: ratio(r.net.time, r.predicted),
                    per_level_predicted: r.per_level,
                    per_level_error: (r.per_level as f64 - r.net.time as f64).abs()
                        / r.net.time as f64,
                    step_over_latency: root_mean(&r.net, Construct::PramStep).unwrap_or(0.0)
                        / preset.latency(pp, 1) as f64,
                    barrier_over_alpha: root_mean(&r.net, Construct::Barrier).unwrap_or(0.0)
                        / preset.alpha_sync(pp, 1).max(1) as f64,
                    beta_over_preset: beta.map(|b| b / preset.beta_sync(2, pp, 1).max(1) as f64),
                    equals_abstract: r.equals,
                    predicted_advantage: advantage.0,
                    measured_advantage: advantage.1,
                    measured_total_advantage: advantage.2,
                    advantage_kept: advantage.2 / advantage.0,
                }
            })
            .collect();
        Ok(rows)
    }
    /// The claims and their bands: `docs/models/hpram.md`, H-PRAM on a network.
    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim::all_true(
                "every network execution's final memory equals the abstract run's and its output the plain Rust reference (every read on the network also returned the abstract run's value)",
                "equals_abstract",
            )
            .correctness()
            .of(results::NETWORK_MAPPING),
            Claim::within(
                "Section 3.1: a barrier of P' processors as a scan costs O(diam(P')): measured over the preset's s_alpha(P) at most 4 (2 on the hypercube: diam up and down; on the mesh 2 (2 sqrt P - 2)/sqrt P < 4)",
                "barrier_over_alpha",
                1.0,
                4.0,
            )
            .bound()
            .of(results::BARRIER),
            Claim::within(
                "Section 3.1: the hypercube's beta-sync of Q = 2 sub-cubes is a scan over one link: 2 = 2 s_beta(2, P)",
                "beta_over_preset",
                2.0,
                2.0,
            )
            .consistency()
            .only("topology", "hypercube")
            .only("form", "hier")
            .of(results::BARRIER),
            Claim::within(
                "the network time over the preset's phase-refined tau stays within [1, 6] for every algorithm, form and size (a hashed access is a request and a reply, plus module and link contention)",
                "measured_over_predicted",
                1.0,
                6.0,
            )
            .illustration()
            .of(results::NETWORK_MAPPING),
            Claim::within(
                "Section 3.1's per-level variant (l_lambda, s_alpha_lambda, s_beta_lambda) calibrated on the run predicts its network time within 10%",
                "per_level_error",
                0.0,
                0.1,
            )
            .consistency()
            .of(results::NETWORK_MAPPING),
            Claim::within(
                "the hierarchical form's predicted advantage survives on the network: measured tau_flat/tau_hier > 1 wherever the preset predicts > 1",
                "measured_advantage",
                1.0,
                f64::MAX,
            )
            .illustration()
            .only("form", "hier")
            .of(results::LOCALITY),
            Claim::within(
                "with the partitions' memory permutations paid (paper Section 3.2's unhash + rehash), the hierarchical form still wins on the network (measured tau_flat/tau_hier with permutations >= 1)",
                "measured_total_advantage",
                1.0,
                f64::MAX,
            )
            .illustration()
            .only("form", "hier")
            .of(results::LOCALITY),
            Claim::within(
                "and keeps at least half the predicted advantage tau_flat/tau_hier (measured with permutations over predicted; hypercube and mesh at least 0.68, the torus least: 0.52 at P = 2^8)",
                "advantage_kept",
                0.5,
                f64::MAX,
            )
            .illustration()
            .only("form", "hier")
            .of(results::LOCALITY),
            Claim::grows_at_most(
                "torus: the kept advantage falls as P grows (at most 0.9x from P = 2^4 to 2^8): a torus's sub-networks are meshes, not tori (not partitionable in paper Section 3.1's sense), so the mesh2d preset's sqrt(P'), right for the whole torus, is half a sub-mesh's diameter",
                "advantage_kept",
                "p",
                0.9,
            )
            .illustration()
            .only("topology", "torus")
            .only("form", "hier")
            .pool("log_p")
            .of(results::LOCALITY),
        ]
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new(
                "topology",
                "network family, priced by its preset (hypercube; mesh and torus with preset mesh2d)",
            ),
            Column::new("algorithm", "tree-reduce, tree-prefix or fft"),
            Column::new("log_p", "p = log2 P"),
            Column::new("log_r", "rho = log2 r (r = N/P words per processor)"),
            Column::new("form", "flat (fft: flat LPRAM) or hier"),
            Column::new("series", "algorithm/form/topology"),
            Column::new("p", "processors P (network nodes)"),
            Column::new("n", "words N = rP"),
            Column::new("predicted", "the preset's phase-refined tau (time units)"),
            Column::new(
                "measured",
                "network time: steps, barriers, beta-syncs, slowest child (time units, link delay 1)",
            ),
            Column::new(
                "measured_total",
                "network time with the partitions' memory permutations (time units)",
            ),
            Column::new("measured_over_predicted", "measured / predicted"),
            Column::new(
                "per_level_predicted",
                "phase-refined tau of the per-level model calibrated on the run (time units)",
            ),
            Column::new("per_level_error", "|per_level_predicted - measured| / measured"),
            Column::new("step_over_latency", "root's mean measured PRAM step / l(P)"),
            Column::new("barrier_over_alpha", "root's mean measured barrier / s_alpha(P)"),
            Column::new("beta_over_preset", "root's measured beta-sync / s_beta(2, P) (hier)"),
            Column::new(
                "equals_abstract",
                "network final memory equals the abstract run's, output the reference",
            ),
            Column::new("predicted_advantage", "tau_flat / tau_hier by the preset"),
            Column::new("measured_advantage", "tau_flat / tau_hier measured on the network"),
            Column::new(
                "measured_total_advantage",
                "tau_flat / tau_hier measured, with permutations",
            ),
            Column::new("advantage_kept", "measured_total_advantage / predicted_advantage"),
        ]
    }
    /// Per topology and algorithm at the largest `P`: the ratios and the advantages.
    fn findings(&self, rows: &[JsonObject]) -> Vec<String> {
        findings(rows)
    }
    fn plots(&self) -> Vec<Plot> {
        ["hypercube", "mesh2d", "torus"]
            .into_iter()
            .map(|topology| {
                Plot::new(
                    &format!("hpram-network-{topology}"),
                    &format!("{topology}: network-measured time vs the preset's predicted tau, per algorithm and form"),
                    "predicted",
                    &["measured"],
                )
                .series("series")
                .only("topology", topology)
                .log_x()
                .log_y()
            })
            .collect()
    }
}

/// See [`NetworkStudy::findings`](Study::findings).
fn findings(rows: &[JsonObject]) -> Vec<String> {
    use super::num;
    let text =
        |row: &JsonObject, k: &str| row.get(k).and_then(|v| v.as_str()).unwrap_or("?").to_string();
    let largest = rows.iter().filter_map(|r| num(r, "p")).fold(0.0, f64::max);
    rows.iter()
        .filter(|r| num(r, "p") == Some(largest) && text(r, "form") == "hier")
        .map(|r| {
            let get = |k| num(r, k).unwrap_or(f64::NAN);
            format!(
                "{} {} at P = {}: hier measured/predicted {:.2}; flat/hier predicted {:.2}, measured {:.2} ({:.2} with the permutations).",
                text(r, "topology"),
                text(r, "algorithm"),
                get("p"),
                get("measured_over_predicted"),
                get("predicted_advantage"),
                get("measured_advantage"),
                get("measured_total_advantage"),
            )
        })
        .collect()
}
