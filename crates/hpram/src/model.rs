//! `cargo xtask run hpram CONFIG.toml` (filled in below).
