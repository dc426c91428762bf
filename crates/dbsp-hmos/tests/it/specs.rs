//! Exact cases.
