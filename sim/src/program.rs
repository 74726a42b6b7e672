//! The compiled form of a design: one-word fast-path operators and their 16-byte
//! packed instructions, multi-word operators, register and memory updates, and where
//! each named signal's value lives.

use hw::Bits;

use crate::flat::FlatKind;

/// "No slot" marker (no enable).
pub(crate) const NONE: u32 = u32::MAX;

/// Fast-path operators on single-word values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Not,
    And,
    Or,
    Xor,
    /// `a | (b & c)`: the ray pass-through pattern, fused.
    OrAnd,
    /// `a & !b` (a NOT used only here, fused).
    AndNot,
    /// `a | (!b & mask(c))` (a NOT absorbed by its reader).
    OrNot,
    /// `a | (b & !c)` (a NOT absorbed by its reader).
    OrAndNot,
    Add,
    Sub,
    Shl,
    Shr,
    ShlK,
    ShrK,
    Eq,
    /// `((v[a] >> lo) & mask(w)) == k`: a slice compared with a constant of at most 16
    /// bits, fused (piece kinds, states of a sequencer).
    EqK,
    Ne,
    Lt,
    Le,
    Mux,
    Slice,
    /// One part shifted into place (`v[a] << c`).
    ConcatFirst,
    /// Two parts: `(v[a] << (c & 255)) | (v[b] << (c >> 8))`.
    Concat2,
    /// OR of `(slot << shift)` pairs listed in `Program::extra[a..a + 2b]`.
    ConcatN,
    /// 1 when any of the slots listed in `Program::extra[a..a + 4 b]` is non-zero (an OR
    /// reduction of a concatenation, fused).
    AnyN,
    RedAnd,
    RedOr,
    RedXor,
    MemRead,
    /// A slice of at most 64 bits from a multi-word value: `a` is the source's word,
    /// `c` the bit offset in it, `b` 1 when the slice continues into the next word.
    SliceW,
    Generic,
}

/// One instruction: `dst = op(a, b, c)` with an immediate `k` (a mask, a shift or an
/// index, depending on `op`). 24 bytes; the program is a flat array of these.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Inst {
    pub op: Op,
    pub dst: u32,
    pub a: u32,
    pub b: u32,
    pub c: u32,
    pub k: u64,
}

/// An instruction as evaluated: 16 bytes, the operator being that of its run. Field use
/// per operator (`w` = result width, masks are computed from widths):
///
/// | operator | a | b | c |
/// |---|---|---|---|
/// | Not | operand | w | - |
/// | And, Or, Xor, Eq, Ne, Lt, Le | operand | operand | - |
/// | OrAnd, OrAndNot, Mux | operand | operand | operand |
/// | OrNot | operand | operand | w |
/// | Add, Sub, Shl, Shr | operand | operand | w |
/// | ShlK, ShrK | operand | w | shift |
/// | EqK | operand | constant | low bit + (w << 8) |
/// | Slice | operand | w | low bit |
/// | ConcatFirst | part | - | shift |
/// | Concat2 | part | part | shifts (low byte: a's, next byte: b's) |
/// | ConcatN | start in `extra` | count | - |
/// | AnyN | start in `extra` | groups of 4 (padded with a zero word) | - |
/// | RedAnd | operand | operand width | - |
/// | RedOr, RedXor | operand | - | - |
/// | MemRead | address | memory base | words per entry |
/// | SliceW | first word | 1 if two words | bit + (w << 8) |
/// | Generic | index in `wide` | - | - |
#[derive(Clone, Copy, Debug)]
pub(crate) struct Packed {
    pub dst: u32,
    pub a: u32,
    pub b: u32,
    pub c: u32,
}

/// Width from a mask made by `mask64` (1..=64 ones).
fn width_of_mask(k: u64) -> u32 {
    k.count_ones()
}

impl Inst {
    /// The 16-byte form.
    pub(crate) fn pack(&self) -> Packed {
        let (a, b, c) = match self.op {
            Op::Not => (self.a, width_of_mask(self.k), 0),
            Op::Add | Op::Sub => (self.a, self.b, width_of_mask(self.k)),
            Op::Shl | Op::Shr => (self.a, self.b, self.c),
            Op::ShlK | Op::ShrK | Op::Slice => (self.a, width_of_mask(self.k), self.c),
            Op::RedAnd => (self.a, width_of_mask(self.k), 0),
            Op::MemRead => (self.a, self.k as u32, self.c),
            Op::SliceW => (self.a, self.b, self.c | (width_of_mask(self.k) << 8)),
            Op::Generic => (self.k as u32, 0, 0),
            _ => (self.a, self.b, self.c),
        };
        Packed {
            dst: self.dst,
            a,
            b,
            c,
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
