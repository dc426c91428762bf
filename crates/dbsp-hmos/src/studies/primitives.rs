//! Study `dbsp-primitives` (placeholder while the study is written).

/// The `dbsp-primitives` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct PrimitivesStudy;
