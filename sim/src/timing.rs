//! Static timing in unit gate delays: the longest register-to-register path (and the
//! input-to-register, register-to-output and input-to-output paths), each named signal
//! by signal.
//!
//! Delay of each operator, for a `w`-bit result or operand (`L(w) = ceil(log2 w)`):
//!
//! | operator | delay | as |
//! |---|---|---|
//! | wire, slice, concatenation, constant shift, constant | 0 | wiring |
//! | NOT | 1 | inverter |
//! | AND, OR, XOR (bitwise) | 1 | one 2-input gate per bit |
//! | mux | 2 | AND-OR |
//! | reduction AND / OR / XOR | L(w) | tree of 2-input gates |
//! | `==`, `!=` | 1 + L(w) | XOR per bit, then an OR tree |
//! | `<`, `<=`, `>`, `>=` | 2 L(w) + 1 | parallel-prefix comparator |
//! | `+`, `-` | 2 L(w) + 2 | Kogge-Stone adder: generate/propagate, L(w) prefix levels of AND-OR, sum XOR |
//! | variable shift | 2 min(L(w), amount bits) | barrel shifter, one mux level per amount bit |
//! | memory read (combinational) | 2 (address bits) | mux tree over the words |
//!
//! Registers, registered memory reads and inputs start paths at 0; register next values
//! and enables, memory write ports and outputs end them. A register's enable and reset
//! are taken as flip-flop pins (as on FPGAs), adding no delay.

use hw::{BinaryOp, Module, UnaryOp};

use crate::flat::{FlatId, FlatKind, FlatNetlist, kind_label};
use crate::optimize::topo;
use crate::program::LoopError;

/// `ceil(log2 w)`, 0 for `w <= 1`.
fn clog2(w: u32) -> u32 {
    if w <= 1 {
        0
    } else {
        32 - (w - 1).leading_zeros()
    }
}

/// One step of a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathStep {
    /// Hierarchical signal name (or `<operator #n>` for an unnamed one).
    pub signal: String,
    /// Operator.
    pub op: String,
    /// Delay of this operator.
    pub delay: u32,
    /// Arrival time after this step.
    pub arrival: u32,
}

/// A longest path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimingPath {
    /// Total delay in unit gate delays.
    pub delay: u32,
    /// Where it ends (register, memory port or output).
    pub endpoint: String,
    /// Steps from the start point (first) to the endpoint's driver (last).
    pub steps: Vec<PathStep>,
}

/// The four longest path classes (each absent when no such path exists).
#[derive(Clone, Debug, Default)]
pub struct TimingReport {
    /// Register (or registered read) to register (or memory write).
    pub reg_to_reg: Option<TimingPath>,
    /// Input to register.
    pub in_to_reg: Option<TimingPath>,
    /// Register to output.
    pub reg_to_out: Option<TimingPath>,
    /// Input to output (purely combinational).
    pub in_to_out: Option<TimingPath>,
}

impl TimingReport {
    /// The longest of the four.
    pub fn critical(&self) -> Option<&TimingPath> {
        [
            &self.reg_to_reg,
            &self.in_to_reg,
            &self.reg_to_out,
            &self.in_to_out,
        ]
        .into_iter()
        .flatten()
        .max_by_key(|p| p.delay)
    }
}

/// Unit delay of a flat node.
pub fn delay(flat: &FlatNetlist, id: FlatId) -> u32 {
    let n = &flat.nodes[id as usize];
    let w_of = |x: FlatId| flat.nodes[x as usize].width;
    match &n.kind {
        FlatKind::Input(_)
        | FlatKind::Const(_)
        | FlatKind::Alias(_)
        | FlatKind::Reg { .. }
        | FlatKind::MemReadSync(..)
        | FlatKind::Concat(_)
        | FlatKind::Slice(..) => 0,
        FlatKind::Unary(UnaryOp::Not, _) => 1,
        FlatKind::Unary(_, a) => clog2(w_of(*a)),
        FlatKind::Binary(op, a, b) => {
            let w = w_of(*a);
            match op {
                BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => 1,
                BinaryOp::Eq | BinaryOp::Ne => 1 + clog2(w),
                BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => 2 * clog2(w) + 1,
                BinaryOp::Add | BinaryOp::Sub => 2 * clog2(w) + 2,
                BinaryOp::Shl | BinaryOp::Shr => {
                    if matches!(flat.nodes[*b as usize].kind, FlatKind::Const(_)) {
                        0
                    } else {
                        2 * clog2(w).min(w_of(*b))
                    }
                }
            }
        }
        FlatKind::Mux(..) => 2,
        FlatKind::MemRead(m, _) => 2 * flat.memories[*m].addr_width,
    }
}

/// Analyse the design rooted at `top`.
pub fn analyze(top: &Module) -> Result<TimingReport, LoopError> {
    let flat = FlatNetlist::new(top);
    let order = topo(&flat)?;
    let n = flat.nodes.len();
    // Arrival from register starts and from input starts, with the predecessor.
    const NEG: i64 = i64::MIN / 4;
    let mut arr = [vec![NEG; n], vec![NEG; n]];
    let mut pred = [vec![u32::MAX; n], vec![u32::MAX; n]];
    for &id in &order {
        let i = id as usize;
        match &flat.nodes[i].kind {
            FlatKind::Reg { .. } | FlatKind::MemReadSync(..) => arr[0][i] = 0,
            FlatKind::Input(_) => arr[1][i] = 0,
            _ => {
                let d = i64::from(delay(&flat, id));
                for class in 0..2 {
                    for op in flat.comb_operands(id) {
                        let a = arr[class][op as usize];
                        if a > NEG && a + d > arr[class][i] {
                            arr[class][i] = a + d;
                            pred[class][i] = op;
                        }
                    }
                }
            }
        }
    }
    // Endpoints.
    let mut reg_ends: Vec<(FlatId, String)> = Vec::new();
    for (i, node) in flat.nodes.iter().enumerate() {
        let me = flat.node_path(i as FlatId);
        match &node.kind {
            FlatKind::Reg { next, enable, .. } => {
                reg_ends.push((*next, me.clone()));
                if let Some(e) = enable {
                    reg_ends.push((*e, format!("{me} (enable)")));
                }
            }
            FlatKind::MemReadSync(m, a) => {
                reg_ends.push((*a, format!("{} read address", flat.memories[*m].name)));
            }
            _ => {}
        }
    }
    for m in &flat.memories {
        for w in &m.writes {
            for (x, what) in [(w.0, "address"), (w.1, "data"), (w.2, "enable")] {
                reg_ends.push((x, format!("{} write {what}", m.name)));
            }
        }
    }
    let out_ends: Vec<(FlatId, String)> = flat
        .outputs
        .iter()
        .map(|(name, _, id)| (*id, format!("output {name}")))
        .collect();
    let best = |class: usize, ends: &[(FlatId, String)]| -> Option<TimingPath> {
        let (id, end) = ends
            .iter()
            .filter(|(id, _)| arr[class][*id as usize] > NEG)
            .max_by_key(|(id, _)| arr[class][*id as usize])?;
        let mut steps = Vec::new();
        let mut cur = *id;
        loop {
            let i = cur as usize;
            if !matches!(flat.nodes[i].kind, FlatKind::Alias(_)) {
                steps.push(PathStep {
                    signal: flat.node_path(cur),
                    op: kind_label(&flat.nodes[i].kind),
                    delay: delay(&flat, cur),
                    arrival: arr[class][i] as u32,
                });
            }
            if pred[class][i] == u32::MAX {
                break;
            }
            cur = pred[class][i];
        }
        steps.reverse();
        Some(TimingPath {
            delay: arr[class][*id as usize] as u32,
            endpoint: end.clone(),
            steps,
        })
    };
    Ok(TimingReport {
        reg_to_reg: best(0, &reg_ends),
        in_to_reg: best(1, &reg_ends),
        reg_to_out: best(0, &out_ends),
        in_to_out: best(1, &out_ends),
    })
}

impl std::fmt::Display for TimingPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} unit gate delays, ending at {}",
            self.delay, self.endpoint
        )?;
        for s in &self.steps {
            writeln!(
                f,
                "  {:>4}  +{:<3} {:<10} {}",
                s.arrival, s.delay, s.op, s.signal
            )?;
        }
        Ok(())
    }
}
