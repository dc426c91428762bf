//! Properties: simulation equals the direct run; determinism.
