//! netcore's integration tests: one binary (see DESIGN.md, Testing).

mod pram;
mod props;
mod specs;
mod tidy;
