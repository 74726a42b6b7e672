//! The operators of the one-word program, in one table. Every pass that needs to know an
//! operator's shape reads it here: which instruction fields are slots it reads (for
//! scheduling, renumbering, the logic of state), where its result goes, whether it is a
//! pure function of one-word values (evaluable anywhere its operands are current, and
//! encodable in the compact form), and its cost. The semantics are in `ops::apply`, one
//! `match` arm per operator; a new operator is a row here and an arm there.
//!
//! Field use per operator (`w` = result width; masks are computed from widths):
//!
//! | operator | a | b | c |
//! |---|---|---|---|
//! | Not | operand | w | - |
//! | And, Or, Xor, AndNot, Eq, Ne, Lt, Le | operand | operand | - |
//! | OrAnd, OrAndNot, Mux | operand | operand | operand |
//! | OrNot | operand | operand | w |
//! | Add, Sub, Shl, Shr | operand | operand | w |
//! | ShlK, ShrK | operand | w | shift |
//! | EqK | operand | constant | low bit + (w << 8) |
//! | Slice | operand | w | low bit |
//! | ConcatFirst | part | - | shift |
//! | Concat2 | part | part | shifts (low byte: a's, next byte: b's) |
//! | ConcatN | start in `extra` | count | - |
//! | AnyN | start in `extra` | groups of 4 (padded with a zero word) | - |
//! | RedAnd | operand | operand width | - |
//! | RedOr, RedXor | operand | - | - |
//! | MemRead | address | memory base | words per entry |
//! | SliceW | first word | 1 if two words | bit + (w << 8) |
//! | Generic | index in `wide` | - | - |

/// Which of the fields `a`, `b`, `c` hold slots of one-word values read.
pub(crate) const A: u8 = 1;
/// See [`A`].
pub(crate) const B: u8 = 2;
/// See [`A`].
pub(crate) const C: u8 = 4;

/// What an instruction reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reads {
    /// One-word values in the fields of this set (of [`A`], [`B`], [`C`]).
    Fields(u8),
    /// The slots `extra[a..a + 2b]` at even positions (odd ones are shifts).
    ExtraPairs,
    /// The slots `extra[a..a + 4b]`.
    ExtraGroups,
    /// Words `a` and `a + b` of a multi-word value (they never move).
    WordPair,
    /// The operands of `wide[a]`.
    Wide,
}

/// Where an instruction's result goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Writes {
    /// One word at `dst`.
    Word,
    /// `c` words at `dst` (a memory entry).
    Entry,
    /// The words of `wide[a]`'s destination.
    Wide,
}

/// One row of the operator table.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OpInfo {
    /// What the instruction reads.
    pub reads: Reads,
    /// Where its result goes.
    pub writes: Writes,
    /// Relative evaluation cost (operand loads plus operations, for a one-word result),
    /// for statistics and for choosing between lowerings.
    pub cost: u32,
}

impl OpInfo {
    /// A pure function of the one-word values it reads (no memory, no multi-word
    /// operand or result).
    pub(crate) const fn pure(&self) -> bool {
        matches!(self.writes, Writes::Word) && !matches!(self.reads, Reads::WordPair | Reads::Wide)
    }
}

/// The table: declares [`Op`], its rows, and [`Op::ALL`].
macro_rules! operators {
    ($( $(#[$doc:meta])* $name:ident: $reads:expr, $writes:expr, $cost:expr; )*) => {
        /// Operators of the one-word program (see the module doc for their fields).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u8)]
        pub(crate) enum Op {
            $( $(#[$doc])* $name, )*
        }

        impl Op {
            /// Every operator, in table order.
            pub(crate) const ALL: &'static [Op] = &[$(Op::$name),*];

            /// The table row of this operator.
            #[inline(always)]
            pub(crate) const fn info(self) -> OpInfo {
                match self {
                    $( Op::$name => OpInfo { reads: $reads, writes: $writes, cost: $cost }, )*
                }
            }

            /// The operator of index `k` (for const-generic dispatch).
            #[inline(always)]
            pub(crate) const fn from_index(k: u8) -> Op {
                Op::ALL[k as usize]
            }
        }

        /// Call `visit.run::<OP>()` with `op`'s index as a constant, so that a loop
        /// over one operator's instructions is compiled once per operator.
        #[inline(always)]
        pub(crate) fn dispatch<V: OpVisitor>(op: Op, visit: V) {
            match op {
                $( Op::$name => visit.run::<{ Op::$name as u8 }>(), )*
            }
        }
    };
}

/// A computation specialised per operator (see [`dispatch`]).
pub(crate) trait OpVisitor {
    /// Run for the operator of index `OP`.
    fn run<const OP: u8>(self);
}

use Reads::{ExtraGroups, ExtraPairs, Fields, Wide, WordPair};
use Writes::{Entry, Word};

operators! {
    Not: Fields(A), Word, 2;
    And: Fields(A | B), Word, 3;
    Or: Fields(A | B), Word, 3;
    Xor: Fields(A | B), Word, 3;
    /// `a | (b & c)`: the ray pass-through pattern, fused.
    OrAnd: Fields(A | B | C), Word, 5;
    /// `a & !b` (a NOT used only here, fused).
    AndNot: Fields(A | B), Word, 4;
    /// `a | (!b & mask(c))` (a NOT absorbed by its reader).
    OrNot: Fields(A | B), Word, 5;
    /// `a | (b & !c)` (a NOT absorbed by its reader).
    OrAndNot: Fields(A | B | C), Word, 6;
    Add: Fields(A | B), Word, 4;
    Sub: Fields(A | B), Word, 4;
    Shl: Fields(A | B), Word, 6;
    Shr: Fields(A | B), Word, 6;
    ShlK: Fields(A), Word, 3;
    ShrK: Fields(A), Word, 2;
    Eq: Fields(A | B), Word, 3;
    /// `((v[a] >> lo) & mask(w)) == k`: a slice compared with a constant of at most 16
    /// bits, fused (piece kinds, states of a sequencer).
    EqK: Fields(A), Word, 4;
    Ne: Fields(A | B), Word, 3;
    Lt: Fields(A | B), Word, 3;
    Le: Fields(A | B), Word, 3;
    Mux: Fields(A | B | C), Word, 5;
    Slice: Fields(A), Word, 3;
    /// One part shifted into place (`v[a] << c`).
    ConcatFirst: Fields(A), Word, 2;
    /// Two parts: `(v[a] << (c & 255)) | (v[b] << (c >> 8))`.
    Concat2: Fields(A | B), Word, 5;
    /// OR of `(slot << shift)` pairs listed in `Program::extra[a..a + 2b]`.
    ConcatN: ExtraPairs, Word, 8;
    /// 1 when any of the slots listed in `Program::extra[a..a + 4 b]` is non-zero (an OR
    /// reduction of a concatenation, fused).
    AnyN: ExtraGroups, Word, 8;
    RedAnd: Fields(A), Word, 3;
    RedOr: Fields(A), Word, 2;
    RedXor: Fields(A), Word, 3;
    MemRead: Fields(A), Entry, 8;
    /// A slice of at most 64 bits from a multi-word value: `a` is the source's word,
    /// `c` the bit offset in it, `b` 1 when the slice continues into the next word.
    SliceW: WordPair, Word, 5;
    Generic: Wide, Writes::Wide, 40;
}

/// Number of operators.
pub(crate) const COUNT: usize = Op::ALL.len();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_order_is_the_discriminant_order() {
        for (k, &op) in Op::ALL.iter().enumerate() {
            assert_eq!(op as usize, k);
            assert_eq!(Op::from_index(k as u8), op);
        }
        assert_eq!(COUNT, Op::Generic as usize + 1);
    }
}

/// The bitwise operators of the batch program (the `batch` module): every value is one bit
/// of many instances, one instance per bit of a word, so an operator is one machine
/// operation on a word (or an array of words) whatever its lanes hold.
macro_rules! gate_operators {
    ($( $(#[$doc:meta])* $name:ident: $arity:expr, $cost:expr; )*) => {
        /// Bitwise operators of the batch program; operands are `a`, `b`, `c` in order.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u8)]
        pub(crate) enum GateOp {
            $( $(#[$doc])* $name, )*
        }

        impl GateOp {
            /// Every operator, in table order.
            pub(crate) const ALL: &'static [GateOp] = &[$(GateOp::$name),*];

            /// Number of operands.
            pub(crate) const fn arity(self) -> usize {
                match self { $( GateOp::$name => $arity, )* }
            }

            /// Relative cost (operations per word, loads included).
            pub(crate) const fn cost(self) -> u32 {
                match self { $( GateOp::$name => $cost, )* }
            }

            /// The operator of index `k` (for const-generic dispatch).
            #[inline(always)]
            pub(crate) const fn from_index(k: u8) -> GateOp {
                GateOp::ALL[k as usize]
            }
        }

        /// Call `visit.run::<OP>()` with `op`'s index as a constant.
        #[inline(always)]
        pub(crate) fn dispatch_gate<V: OpVisitor>(op: GateOp, visit: V) {
            match op {
                $( GateOp::$name => visit.run::<{ GateOp::$name as u8 }>(), )*
            }
        }
    };
}

gate_operators! {
    /// `!a`
    Not: 1, 2;
    /// `a & b`
    And: 2, 3;
    /// `a | b`
    Or: 2, 3;
    /// `a ^ b`
    Xor: 2, 3;
    /// `a & !b`
    AndNot: 2, 4;
    /// `a | !b`
    OrNot: 2, 4;
    /// `!(a ^ b)`
    Xnor: 2, 4;
    /// `a ? b : c`, bit by bit.
    Mux: 3, 5;
    /// `a ^ b ^ c` (the sum bit of an adder).
    Xor3: 3, 5;
    /// Majority of `a`, `b`, `c` (the carry of an adder).
    Maj: 3, 6;
    /// A memory read port (`a`: its index); writes the port's data bits.
    MemRead: 0, 40;
}
