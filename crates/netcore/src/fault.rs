//! Whose fault an error is: the user's input, or a run that failed after validation.
//!
//! Every error type of the workspace (netcore's domains, each model crate's) implements
//! [`Classify`], so `cargo xtask` picks its exit status from the error's type: 2 for
//! [`Fault::Input`], 1 for [`Fault::Run`]. A call site never decides it by choosing a string
//! variant.

/// The two kinds of failure that `cargo xtask` tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fault {
    /// The user's input breaks a rule (a config, a sweep point, a program): exit status 2.
    Input,
    /// A run that was valid failed: a result differs from its reference, a message left its
    /// cluster, a conflict at run time, a step limit: exit status 1.
    Run,
}

/// An error that knows whose fault it is.
pub trait Classify: std::error::Error + Send + Sync + 'static {
    /// Whether this error is the user's input or a failed run.
    fn fault(&self) -> Fault;
}
