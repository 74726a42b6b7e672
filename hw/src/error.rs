//! Build-time errors of the netlist builder. Every error names the module and the signal
//! it is about, so a mistake inside a Rust loop that builds 64 cells points at the one
//! signal that is wrong.

use std::fmt;

/// An error found while building a module: `module `m`: signal `s`: what was wrong`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("module `{module}`: signal `{signal}`: {kind}")]
pub struct HwError {
    /// Name of the module being built.
    pub module: String,
    /// The signal (port, wire, register, memory, instance pin or described operator).
    pub signal: String,
    /// What was wrong.
    pub kind: ErrorKind,
}

/// The kinds of build-time errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// Operands of an operator (or a driver and its target) have different widths.
    WidthMismatch {
        /// The operator or connection, e.g. `+` or `drive`.
        op: String,
        /// Width the operation expected.
        expected: u32,
        /// Width it got.
        found: u32,
    },
    /// A wire, output, register next value or instance input has no driver.
    Undriven,
    /// A wire, register next value, enable or instance input is driven twice.
    MultiplyDriven,
    /// A combinational cycle; the full cycle, signal by signal.
    CombinationalLoop(Vec<String>),
    /// Two ports, wires, registers, memories or instances share a name.
    DuplicateName,
    /// A name that is not a plain identifier, is a Verilog keyword or is reserved.
    BadName,
    /// A signal of another module was used in this one.
    ForeignSignal,
    /// Anything else that makes the construct invalid, explained.
    Invalid(String),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::WidthMismatch {
                op,
                expected,
                found,
            } => write!(
                f,
                "width mismatch in `{op}`: expected {expected} bits, found {found}"
            ),
            ErrorKind::Undriven => write!(f, "is never driven"),
            ErrorKind::MultiplyDriven => write!(f, "is driven more than once"),
            ErrorKind::CombinationalLoop(path) => {
                write!(f, "combinational loop: {}", path.join(" -> "))
            }
            ErrorKind::DuplicateName => write!(f, "name is used twice in the module"),
            ErrorKind::BadName => write!(
                f,
                "name must be an identifier ([A-Za-z][A-Za-z0-9_]*), not a Verilog keyword and not `clk` or `rst`"
            ),
            ErrorKind::ForeignSignal => write!(f, "belongs to another module"),
            ErrorKind::Invalid(why) => write!(f, "{why}"),
        }
    }
}
