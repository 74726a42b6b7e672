//! The compiled form of a design: one-word instructions (operators in [`crate::op`]),
//! multi-word operators, register and memory updates, and where each named signal's
//! value lives.

use hw::Bits;

use crate::flat::FlatKind;
use crate::op::{self, Op, Reads, Writes};

/// "No slot" marker (no enable).
pub(crate) const NONE: u32 = u32::MAX;

/// One instruction: `dst = op(a, b, c)`, its fields as [`crate::op`] lays them out for
/// each operator.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Inst {
    pub op: Op,
    pub dst: u32,
    pub a: u32,
    pub b: u32,
    pub c: u32,
}

/// An instruction as evaluated: 16 bytes, the operator being that of its run (field
/// use per operator: see [`crate::op`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Packed {
    pub dst: u32,
    pub a: u32,
    pub b: u32,
    pub c: u32,
}

impl Inst {
    /// The 16-byte form.
    pub(crate) fn pack(&self) -> Packed {
        Packed {
            dst: self.dst,
            a: self.a,
            b: self.b,
            c: self.c,
        }
    }
}

/// The slots an instruction of operator `op` reads, from the operator table: its value
/// dependencies (words of multi-word operands included).
pub(crate) fn reads(op: Op, i: &Packed, extra: &[u32], wide: &[WideOp], out: &mut Vec<u32>) {
    out.clear();
    match op.info().reads {
        Reads::Fields(f) => {
            for (bit, x) in [(op::A, i.a), (op::B, i.b), (op::C, i.c)] {
                if f & bit != 0 {
                    out.push(x);
                }
            }
        }
        Reads::ExtraPairs => out.extend(
            extra[i.a as usize..i.a as usize + 2 * i.b as usize]
                .iter()
                .step_by(2)
                .copied(),
        ),
        Reads::ExtraGroups => out.extend_from_slice(&extra[i.a as usize..(i.a + 4 * i.b) as usize]),
        Reads::WordPair => out.extend([i.a, i.a + i.b]),
        Reads::Wide => out.extend(wide[i.a as usize].operands.iter().map(|o| o.0)),
    }
}

/// The words an instruction of operator `op` writes: (first slot, count).
pub(crate) fn writes(op: Op, i: &Packed, wide: &[WideOp]) -> (u32, u32) {
    match op.info().writes {
        Writes::Word => (i.dst, 1),
        Writes::Entry => (i.dst, i.c),
        Writes::Wide => {
            let w = &wide[i.a as usize];
            (w.dst, hw::words_for(w.width) as u32)
        }
    }
}

/// Rewrite the one-word slots an instruction reads and writes through `map` (fields by
/// the operator table; words of multi-word values and memory entries stay).
pub(crate) fn remap(
    op: Op,
    i: &mut Packed,
    extra: &mut [u32],
    wide: &mut [WideOp],
    map: impl Fn(u32) -> u32,
) {
    if op.info().writes == Writes::Word {
        i.dst = map(i.dst);
    }
    match op.info().reads {
        Reads::Fields(f) => {
            for (bit, x) in [(op::A, &mut i.a), (op::B, &mut i.b), (op::C, &mut i.c)] {
                if f & bit != 0 {
                    *x = map(*x);
                }
            }
        }
        Reads::ExtraPairs => {
            for k in 0..i.b as usize {
                let x = &mut extra[i.a as usize + 2 * k];
                *x = map(*x);
            }
        }
        Reads::ExtraGroups => {
            for x in &mut extra[i.a as usize..(i.a + 4 * i.b) as usize] {
                *x = map(*x);
            }
        }
        Reads::WordPair => {}
        Reads::Wide => {
            for o in &mut wide[i.a as usize].operands {
                o.0 = map(o.0);
            }
        }
    }
}

/// An operator that needs the multi-word path.
#[derive(Clone, Debug)]
pub(crate) struct WideOp {
    pub kind: FlatKind,
    pub width: u32,
    pub dst: u32,
    /// (slot, width) of each operand, in the order of the kind's operands.
    pub operands: Vec<(u32, u32)>,
}

/// A register update.
#[derive(Clone, Debug)]
pub(crate) struct RegUpdate {
    pub q: u32,
    pub next: u32,
    /// For one-word registers: the next value is `(v[next] >> shift) & mask` (a slice
    /// read straight from its source, without an instruction of its own).
    pub shift: u32,
    pub mask: u64,
    pub enable: u32,
    pub words: u32,
    /// Offset of the reset value in `Program::resets`, or NONE.
    pub reset: u32,
}

/// A registered memory read.
#[derive(Clone, Debug)]
pub(crate) struct SyncRead {
    pub dst: u32,
    pub mem: usize,
    pub addr: u32,
}

/// A memory write port.
#[derive(Clone, Debug)]
pub(crate) struct MemWritePort {
    pub mem: usize,
    pub addr: u32,
    pub data: u32,
    pub enable: u32,
}

/// Where a memory lives in the memory array.
#[derive(Clone, Debug)]
pub(crate) struct MemLayout {
    pub base: usize,
    pub words_per_entry: usize,
}

/// Where a named signal's value is.
#[derive(Clone, Debug)]
pub(crate) enum Source {
    Slot(u32),
    Const(Bits),
    /// Removed as dead logic (only without `keep_named`).
    Gone,
}

/// A named signal for waveforms and `peek`.
#[derive(Clone, Debug)]
pub(crate) struct NamedSignal {
    pub scope: usize,
    pub name: String,
    pub width: u32,
    pub source: Source,
}

/// The compiled design.
#[derive(Clone, Debug)]
pub(crate) struct Program {
    /// Per value word: read by an instruction (a change must trigger evaluation).
    pub comb_read: Vec<bool>,
    /// Per value word: holds a constant (never written).
    pub consts: Vec<bool>,
    /// Whether any instruction reads a memory (a write must trigger evaluation).
    pub has_mem_read: bool,
    pub insts: Vec<Packed>,
    /// Runs of instructions with the same operator: (operator, start, end).
    pub runs: Vec<(Op, u32, u32)>,
    pub extra: Vec<u32>,
    pub wide: Vec<WideOp>,
    pub regs: Vec<RegUpdate>,
    /// One-word registers whose next value and enable are not state: updated in place.
    pub direct: Vec<RegUpdate>,
    pub resets: Vec<u64>,
    pub sync_reads: Vec<SyncRead>,
    pub mem_writes: Vec<MemWritePort>,
    pub mems: Vec<MemLayout>,
    pub mem_init: Vec<u64>,
    pub init_vals: Vec<u64>,
    pub inputs: Vec<(String, u32, u32)>,
    pub outputs: Vec<(String, u32, Source)>,
    pub rst_slot: Option<u32>,
    pub named: Vec<NamedSignal>,
    pub scratch_words: usize,
    pub flat_nodes: usize,
    pub scope_paths: Vec<String>,
    pub scope_parents: Vec<Option<usize>>,
    pub scope_names: Vec<String>,
}

/// A combinational cycle in the flattened design (possible only when a port-level check
/// was bypassed); names the signals around it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("combinational loop in the flattened design: {0}")]
pub struct LoopError(pub String);
