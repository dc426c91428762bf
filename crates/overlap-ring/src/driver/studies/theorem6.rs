//! Study `overlap-theorem6` (paper Section 4, Theorem 6 as growth laws): random connected
//! graphs of max degree 4 whose every edge has delay `d`, so that only the graph varies
//! between seeds, running the composite scheme through the dilation-3 tree order
//! (`general_graphs::composite_on_graph`). Theorem 6 bounds the slowdown by
//! `O(sqrt(d_ave) log^3 n)`: the claims fit `slowdown / (sqrt(d_ave) L^3)` over `n` against one
//! `log n` more, and the exponent in `d` against Theorem 2's `d`.

use netcore::delay::DelayLaw;
use netcore::rng::SimRng;
use netcore::study::{Claim, Column, Law, ModelError, ParamError, Plot, Study};
use serde::{Deserialize, Serialize};

use super::general_graphs::{Row, composite_on_graph, row_glossary};
use crate::graph::GraphHost;

/// The study.
#[derive(Debug, Clone, Copy, Default)]
pub struct Theorem6;

/// One point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// Vertices.
    pub size: u32,
    /// Delay of every edge.
    pub d: u32,
    /// Guest steps `T`.
    pub steps: u64,
}

/// A validated point.
#[derive(Debug, Clone)]
pub struct Point {
    size: u32,
    law: DelayLaw,
    steps: u64,
}

impl Study for Theorem6 {
    type Params = Params;
    type Point = Point;
    type Row = Row;

    fn name(&self) -> &'static str {
        "overlap-theorem6"
    }
    fn about(&self) -> &'static str {
        "Theorem 6 as growth laws: the composite scheme on random bounded-degree graphs with delay d on every edge, fitted over n and d"
    }
    fn point(&self, p: &Params) -> Result<Point, ModelError> {
        super::check_steps(p.steps)?;
        if p.size < 24 {
            let rule = "size >= 24 (n large enough for OVERLAP with c = 3)";
            return Err(ParamError::new("size", rule, p.size).into());
        }
        super::check_size(("size", p.size as usize), ("size", u64::from(p.size)), p.steps)?;
        let law = DelayLaw::Uniform { d: p.d };
        law.validate()?;
        Ok(Point { size: p.size, law, steps: p.steps })
    }
    fn run(&self, p: &Point, rng: &mut SimRng) -> Result<Vec<Row>, ModelError> {
        let graph = GraphHost::random_bounded_degree(p.size, 4, &p.law, rng)?;
        Ok(vec![composite_on_graph(&graph, p.steps)?])
    }
    fn claims(&self) -> Vec<Claim> {
        vec![
            // In n (L = 6..12, seeds pooled, per d): one log n factor more scores 1 / mean L
            // = 0.11 per doubling, so the band stops at half of it; log^3 n more scores 0.33.
            // The band is open below (an upper bound), so it admits every law that falls:
            // one copy on the embedded array, which pays its d_max (3 d: a dilation-3 link of
            // delay-d edges) per guest step, scores about -0.33 (its ratio ~ 1 / L^3), and one
            // log n less about -0.11. The grid cannot tell the composite from one copy here
            // (INCONCLUSIVE; docs/models/overlap-ring.md#theorem-6-against-one-copy).
            Claim::slope(
                "bounded degree, delay d on every edge: slowdown / (sqrt(d_ave) L^3) does not grow with n (Theorem 6): relative slope per doubling <= 0.05, half of one log n more",
                "ratio",
                "size",
                f64::MIN,
                0.05,
            )
            .pool("steps")
            .result(Law::new("sqrt(d_ave) L^3 (a constant ratio)"))
            .rival(Law::new("one log n more").log2("size", 1.0))
            .rival(Law::new("log^3 n more").log2("size", 3.0))
            .rival(Law::new("one log n less").log2("size", -1.0))
            .rival(
                Law::new("one copy: array d_max / (sqrt(d_ave) L^3)")
                    .pow("array_d_max", 1.0)
                    .pow("d_ave", -0.5)
                    .log2("size", -3.0),
            )
            .expect(
                netcore::study::Verdict::Inconclusive,
                "docs/models/overlap-ring.md#theorem-6-against-one-copy",
            )
            .of("Theorem 6"),
            // In d at every n: the composite on the embedded array pays sqrt(d) (Theorem 5
            // through Fact 3), where OVERLAP alone (Theorem 2) pays d.
            Claim::exponent(
                "bounded degree, delay d on every edge: slowdown grows like sqrt(d_ave) at every n (Theorem 6): exponent in d in [0.3, 0.75]",
                "slowdown",
                "d",
                0.3,
                0.75,
            )
            .result(Law::new("sqrt(d_ave)").pow("d", 0.5))
            .rival(Law::new("Theorem 2: d_ave").pow("d", 1.0))
            .rival(Law::new("delay hidden: constant"))
            .of("Theorem 6"),
            Claim::within(
                "bounded degree, delay d on every edge: slowdown <= sqrt(d_ave) L^3 (Theorem 6's bound with constant 1; measured at most 0.032 of it)",
                "ratio",
                0.0,
                1.0,
            )
            .bound()
            .of("Theorem 6"),
        ]
    }
    fn glossary(&self) -> Vec<Column> {
        let mut columns = vec![
            Column::new("size", "vertices of the random graph"),
            Column::new("d", "delay of every edge (host steps)"),
            Column::new("steps", "guest steps T"),
        ];
        columns.extend(row_glossary());
        columns
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new("theorem6-ratio", "slowdown / (sqrt(d) L^3) vs n, per d", "n", &["ratio"])
                .series("d")
                .log_x()
                .log_y(),
            Plot::new("theorem6-slowdown", "slowdown vs n, per d", "n", &["slowdown"])
                .series("d")
                .log_x()
                .log_y(),
        ]
    }
}
