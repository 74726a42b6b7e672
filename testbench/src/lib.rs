//! Testbenches of antichip: what drives and checks designs. The chip's drivers (the
//! cycle-exact models and the simulated netlists behind one trait, [`chip::Driver`]),
//! stimulus recording, co-simulation of the exported Verilog against the Rust
//! simulator (Icarus, Verilator, yosys gate netlist), waveforms read back through GTKWave's
//! own reader, the FPGA flow driver, and random
//! netlists for the differential test of the RTL layer itself. The chip's block-level
//! tests (walker, netlist against model, co-simulation, waveforms) are in `tests/`.
//!
//! ```no_run
//! use testbench::{Backend, Stimulus, cosim};
//!
//! let counter = hw::blocks::counter::counter()?;
//! let stim = Stimulus::random(&counter, 1000, 1);
//! let report = cosim(&counter, &stim, Backend::Icarus, "build/cosim/counter".as_ref())?;
//! assert!(report.passed(), "{report}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod chip;
pub mod cosim;
pub mod fpga;
pub mod gtkwave;
pub mod random;
pub mod speed;
pub mod stimulus;
pub mod tools;

pub use cosim::{
    Backend, CosimReport, Mismatch, cosim, cosim_expected, export_testbench, lint, synthesize_gates,
};
pub use fpga::{FpgaReport, SeedFmax, Target, run_flow, run_flow_on, run_flow_within};
pub use gtkwave::{GtkwaveRead, gtkwave_reads};
pub use stimulus::{Stimulus, Trace, read_vcd, record_vcd, simulate};
pub use tools::ToolError;
