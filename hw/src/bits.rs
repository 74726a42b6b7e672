//! `Bits`: a fixed-width bit vector of any width (1 bit and up, including more than 64),
//! used for constants, register reset values, memory contents and simulated values.
//!
//! Bits are stored little-endian in 64-bit words; bits above the width are always zero,
//! so equality and hashing compare values.

use std::fmt;

/// A two-state bit vector of a fixed width.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bits {
    width: u32,
    words: Vec<u64>,
}

/// Number of 64-bit words that hold `width` bits (at least one).
#[inline]
pub fn words_for(width: u32) -> usize {
    (width as usize).div_ceil(64).max(1)
}

/// Mask of the valid bits of the top word of a `width`-bit value.
#[inline]
pub fn top_mask(width: u32) -> u64 {
    match width % 64 {
        0 => u64::MAX,
        r => (1u64 << r) - 1,
    }
}

/// The mask of the low `width` bits of a `u64` (all ones from 64 bits up).
#[inline]
pub fn mask64(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

impl Bits {
    /// All-zero value of `width` bits.
    pub fn zero(width: u32) -> Bits {
        Bits {
            width,
            words: vec![0; words_for(width)],
        }
    }

    /// The value `value` truncated to `width` bits.
    pub fn from_u64(value: u64, width: u32) -> Bits {
        let mut b = Bits::zero(width);
        b.words[0] = value;
        b.normalize();
        b
    }

    /// A value from little-endian words, truncated (or zero-extended) to `width` bits.
    pub fn from_words(words: &[u64], width: u32) -> Bits {
        let mut b = Bits::zero(width);
        for (dst, src) in b.words.iter_mut().zip(words) {
            *dst = *src;
        }
        b.normalize();
        b
    }

    /// A value from bits given least significant first.
    pub fn from_bools(bits: &[bool]) -> Bits {
        let mut b = Bits::zero(bits.len().max(1) as u32);
        for (i, &v) in bits.iter().enumerate() {
            b.set_bit(i as u32, v);
        }
        b
    }

    /// Whether `value` fits into `width` bits without truncation.
    pub fn fits(value: u64, width: u32) -> bool {
        value & !mask64(width) == 0
    }

    fn normalize(&mut self) {
        let n = words_for(self.width);
        self.words.resize(n, 0);
        if let Some(top) = self.words.last_mut() {
            *top &= top_mask(self.width);
        }
    }

    /// Width in bits.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Little-endian words (bits above the width are zero).
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// The value as a `u64` when it fits (always when the width is at most 64).
    pub fn to_u64(&self) -> Option<u64> {
        if self.words[1..].iter().all(|&w| w == 0) {
            Some(self.words[0])
        } else {
            None
        }
    }

    /// The low 64 bits.
    pub fn low_u64(&self) -> u64 {
        self.words[0]
    }

    /// Bit `i` (false beyond the width).
    pub fn bit(&self, i: u32) -> bool {
        i < self.width && (self.words[(i / 64) as usize] >> (i % 64)) & 1 == 1
    }

    /// Set bit `i` (ignored beyond the width).
    pub fn set_bit(&mut self, i: u32, v: bool) {
        if i < self.width {
            let w = &mut self.words[(i / 64) as usize];
            if v {
                *w |= 1 << (i % 64);
            } else {
                *w &= !(1 << (i % 64));
            }
        }
    }

    /// Whether every bit is zero.
    pub fn is_zero(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Lower-case hexadecimal digits, `ceil(width / 4)` of them, most significant first.
    pub fn to_hex(&self) -> String {
        let digits = (self.width as usize).div_ceil(4);
        let mut s = String::with_capacity(digits);
        for d in (0..digits).rev() {
            let bit = d * 4;
            let v = (self.words[bit / 64] >> (bit % 64)) & 0xf;
            s.push(char::from_digit(v as u32, 16).unwrap_or('0'));
        }
        s
    }

    /// A Verilog literal such as `8'h0c`.
    pub fn to_verilog(&self) -> String {
        format!("{}'h{}", self.width, self.to_hex())
    }
}

impl fmt::Debug for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_verilog())
    }
}

impl fmt::Display for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_verilog())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncates_and_prints() {
        assert_eq!(Bits::from_u64(0x1ff, 8).to_u64(), Some(0xff));
        assert_eq!(Bits::from_u64(0xc, 8).to_verilog(), "8'h0c");
        assert_eq!(Bits::from_u64(1, 1).to_verilog(), "1'h1");
        let wide = Bits::from_words(&[u64::MAX, u64::MAX], 70);
        assert_eq!(wide.to_hex(), "3fffffffffffffffff");
        assert_eq!(wide.to_u64(), None);
        assert!(wide.bit(69) && !wide.bit(70));
    }
}
