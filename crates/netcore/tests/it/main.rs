//! netcore's integration tests: one binary (see DESIGN.md, Testing).

mod pram;
mod pram_props;
mod props;
mod specs;
mod tidy;
