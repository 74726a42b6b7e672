//! Moving values between lanes and bits: a lane's inputs are staged as plain words
//! (setting one is a store) and turned into bit words for all 64 lanes of a group at
//! once when the logic is evaluated; outputs are turned back the same way the first
//! time one is read after an evaluation. Narrow values gather bit by bit; wide ones go
//! through a 64 x 64 bit-matrix transpose (6 rounds of swaps).

/// Transpose the 64 x 64 bit matrix `x` (row `r` is `x[r]`, column `c` its bit `c`):
/// afterwards bit `r` of `x[c]` is what bit `c` of `x[r]` was.
pub(crate) fn transpose64(x: &mut [u64; 64]) {
    let mut j = 32;
    let mut m: u64 = 0x0000_0000_ffff_ffff;
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            let t = ((x[k] >> j) ^ x[k + j]) & m;
            x[k] ^= t << j;
            x[k + j] ^= t;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        m ^= m << j;
    }
}

/// Bits at most this wide are gathered bit by bit; wider ones transposed.
const GATHER_BITS: usize = 8;

/// `out[b]` = bit `b` of every `rows[l]` (bit `l` of `out[b]`), for `b < bits`.
pub(crate) fn lanes_to_bits(rows: &[u64; 64], bits: usize, out: &mut [u64]) {
    if bits <= GATHER_BITS {
        for (b, o) in out.iter_mut().enumerate().take(bits) {
            let mut w = 0;
            for (l, &r) in rows.iter().enumerate() {
                w |= ((r >> b) & 1) << l;
            }
            *o = w;
        }
    } else {
        let mut t = *rows;
        transpose64(&mut t);
        out[..bits].copy_from_slice(&t[..bits]);
    }
}

/// `rows[l]` = bit `l` of every `words[b]` (bit `b` of `rows[l]`), for `b < bits`.
pub(crate) fn bits_to_lanes(words: &[u64], bits: usize, rows: &mut [u64; 64]) {
    if bits <= GATHER_BITS {
        for (l, r) in rows.iter_mut().enumerate() {
            let mut x = 0;
            for (b, &w) in words.iter().enumerate().take(bits) {
                x |= ((w >> l) & 1) << b;
            }
            *r = x;
        }
    } else {
        let mut t = [0u64; 64];
        t[..bits].copy_from_slice(&words[..bits]);
        transpose64(&mut t);
        *rows = t;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transposes_and_gathers_agree_with_bit_by_bit() {
        let mut rng = fastrand::Rng::with_seed(9);
        for bits in [1, 3, 8, 9, 40, 64] {
            let mut rows = [0u64; 64];
            for r in &mut rows {
                *r = rng.u64(..) & hw::mask64(bits as u32);
            }
            let mut words = [0u64; 64];
            lanes_to_bits(&rows, bits, &mut words);
            for (b, w) in words.iter().enumerate().take(bits) {
                for (l, r) in rows.iter().enumerate() {
                    assert_eq!((w >> l) & 1, (r >> b) & 1, "{bits} bits");
                }
            }
            let mut back = [0u64; 64];
            bits_to_lanes(&words, bits, &mut back);
            assert_eq!(back, rows, "{bits} bits");
        }
    }
}
