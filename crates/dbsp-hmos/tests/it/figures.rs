//! Section 3's Figures 1-3 drawn from a built HMOS (`kind = "hmos_figure"`): the picture's
//! items counted against the run's report, which `fixtures::fixtures` snapshots.

use std::path::Path;

use dbsp_hmos::driver::DbspHmos;
use netcore::study::{ConfigFile, Model};

fn config(figure: u8) -> String {
    format!(
        "kind = \"hmos_figure\"\nfigure = {figure}\nn = 512\nm = 512\nr = 5\nk = 2\nseed = 1\nvariable = 4\n"
    )
}

fn count(picture: &netcore::picture::Picture, label: &str) -> usize {
    picture.counts().into_iter().find(|(l, _)| *l == label).map_or(0, |(_, c)| c)
}

/// The nearest valid instance of the paper's sample HMOS (n = m = 512, r = 5, k = 2,
/// variable 4; m_1 = 96, m_2 = 36, d_1 = 16, d_2 = 8, t_1 = 1, t_2 = 8). By hand: r 3^i =
/// 5, 15, 45 copies at levels 0, 1, 2, each times its 3^(k-i) = 9, 3, 1 replicas = 45 = r 3^k
/// in memory. Figure 1 draws one node per distinct module on the paths plus the variable
/// (1 + 5 + 15 + 23 here) and the subdag's edges, r + 3 (|U_0 paths| + |U_1 paths|) =
/// 5 + 3 (5 + 15) = 65; Figure 2 one copy per path at every level (5 + 15 + 45 = 65) and one
/// frame per edge above level 0 (3 (5 + 15) = 60); Figure 3 one copy per copy (45), one
/// frame per k-module holding a copy (23) and per i-block below it (15 * 3^(2-1) = 45), one
/// cluster per k-module (36).
#[test]
fn figures_from_the_hmos() {
    let mut reports = Vec::new();
    for figure in 1..=3 {
        let text = config(figure);
        let (report, picture) =
            DbspHmos.run_pictured(&ConfigFile::new(&text, Path::new("."))).expect("draws");
        let levels = report.report["levels"].as_array().expect("levels").clone();
        let copies: Vec<u64> = levels.iter().map(|l| l["copies"].as_u64().unwrap()).collect();
        let holding: Vec<usize> =
            levels.iter().map(|l| l["holding"].as_array().unwrap().len()).collect();
        let in_memory: Vec<u64> = levels.iter().map(|l| l["in_memory"].as_u64().unwrap()).collect();
        assert_eq!(copies, [5, 15, 45]);
        assert_eq!(in_memory, [45, 45, 45]);
        assert_eq!(holding[0], 5);
        let edges = report.report["edges"].as_u64().unwrap() as usize;
        assert_eq!(edges, 5 + 3 * (holding[0] + holding[1]));
        match figure {
            1 => {
                assert_eq!(count(&picture, "an edge of its copies"), edges);
                assert_eq!(
                    count(&picture, "the variable, its modules"),
                    1 + holding.iter().sum::<usize>()
                );
                assert_eq!(count(&picture, "a level: all its nodes"), 4);
            }
            2 => {
                assert_eq!(count(&picture, "a copy (colour: its root j0)"), 5 + 15 + 45);
                assert_eq!(count(&picture, "an (i-1)-block (its module)"), edges - 5);
                assert_eq!(picture.lanes.len(), holding.iter().sum::<usize>());
            }
            _ => {
                assert_eq!(count(&picture, "a copy (colour: its root j0)"), 45);
                assert_eq!(
                    count(&picture, "an i-block holding copies"),
                    holding[2] + 3 * holding[1]
                );
                assert_eq!(count(&picture, "a k-block's cluster"), 36);
                // Every copy's mark lies inside its row's cluster: loc(v, c) < m_2 t_2.
                for c in report.report["loc"].as_array().unwrap() {
                    assert!(c.as_u64().unwrap() < 36 * 8);
                }
            }
        }
        let mut common = report.report.clone();
        common.as_object_mut().unwrap().remove("figure");
        // The config echoed beside the report differs in its figure only.
        common["config"].as_object_mut().unwrap().remove("figure");
        reports.push(common);
    }
    assert!(reports.windows(2).all(|w| w[0] == w[1]), "one HMOS, one report");
}

/// A figure other than 1-3, a variable past m and a k the chain refuses are errors naming
/// their field.
#[test]
fn figure_errors_name_the_field() {
    let run = |text: &str| {
        DbspHmos.run_config(&ConfigFile::new(text, Path::new("."))).unwrap_err().to_string()
    };
    let e = run(&config(4));
    assert!(e.contains("figure") && e.contains("1, 2 or 3"), "{e}");
    let e = run(&config(1).replace("variable = 4", "variable = 512"));
    assert!(e.contains("variable") && e.contains("variable < m = 512"), "{e}");
    let e = run(&config(1).replace("n = 512", "n = 8").replace("m = 512", "m = 8"));
    assert!(e.contains('k'), "{e}");
}
