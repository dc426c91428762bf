//! Exact cases of spec §4(a).
