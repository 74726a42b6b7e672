//! Evaluation of a batch program over one block of lanes: every value is `W` words, one
//! bit per lane, and every operator one machine operation per word (the loops over the
//! `W` words are plain array code the compiler vectorizes). Runs of one operator are
//! one loop each, the operator a constant in it.

use crate::op::{GateOp, OpVisitor, dispatch_gate};

use super::compile::{BatchProgram, Code};

/// The value of one gate in one block: one bit per lane.
pub(crate) type Word<const W: usize> = [u64; W];

/// Evaluate `prog` over the values `v` of one block (its length a power of two, at
/// least `prog.slots`); memory reads see `mems`, the block's lanes' memories (lane-major,
/// `prog.mem_words` words per lane).
pub(crate) fn eval_block<const W: usize>(prog: &BatchProgram, v: &mut [Word<W>], mems: &[u64]) {
    let k = v.len() - 1;
    for &(op, start, end) in &prog.runs {
        let run = &prog.code[start as usize..end as usize];
        if op == GateOp::MemRead {
            for c in run {
                read_port(prog, c[0] as usize, v, mems);
            }
        } else {
            dispatch_gate(op, Run { run, v, k });
        }
    }
}

/// One run of a bitwise operator.
struct Run<'a, const W: usize> {
    run: &'a [Code],
    v: &'a mut [Word<W>],
    k: usize,
}

impl<const W: usize> OpVisitor for Run<'_, W> {
    #[inline(always)]
    fn run<const OP: u8>(self) {
        let op = GateOp::from_index(OP);
        let Run { run, v, k } = self;
        for &[d, a, b, c] in run {
            let (x, y, z) = (v[a as usize & k], v[b as usize & k], v[c as usize & k]);
            let r: Word<W> = std::array::from_fn(|j| {
                let (x, y, z) = (x[j], y[j], z[j]);
                match op {
                    GateOp::Not => !x,
                    GateOp::And => x & y,
                    GateOp::Or => x | y,
                    GateOp::Xor => x ^ y,
                    GateOp::AndNot => x & !y,
                    GateOp::OrNot => x | !y,
                    GateOp::Xnor => !(x ^ y),
                    GateOp::Mux => z ^ (x & (y ^ z)),
                    GateOp::Xor3 => x ^ y ^ z,
                    GateOp::Maj => (x & y) | (z & (x | y)),
                    GateOp::MemRead => 0,
                }
            });
            v[d as usize & k] = r;
        }
    }
}

/// The bit of lane `l` (of the block) in `w`.
#[inline(always)]
pub(crate) fn lane_bit<const W: usize>(w: &Word<W>, l: usize) -> u64 {
    (w[l / 64] >> (l % 64)) & 1
}

/// Read port `p` for every lane of the block: gather each lane's address, copy its
/// entry's bits into the port's data slots.
fn read_port<const W: usize>(prog: &BatchProgram, p: usize, v: &mut [Word<W>], mems: &[u64]) {
    let port = &prog.ports[p];
    let shape = &prog.mems[port.mem];
    let data = port.data as usize;
    v[data..data + port.width as usize].fill([0; W]);
    for l in 0..64 * W {
        let mut addr = 0usize;
        for (j, &a) in port.addr.iter().enumerate() {
            addr |= (lane_bit(&v[a as usize], l) as usize) << j;
        }
        let base = l * prog.mem_words + shape.base + addr * shape.words;
        let entry = &mems[base..base + shape.words];
        for b in 0..port.width as usize {
            let bit = (entry[b / 64] >> (b % 64)) & 1;
            v[data + b][l / 64] |= bit << (l % 64);
        }
    }
}
