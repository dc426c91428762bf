//! netcore's integration tests: one binary (see DESIGN.md, Testing).

mod props;
mod specs;
mod tidy;
