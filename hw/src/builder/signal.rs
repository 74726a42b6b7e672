//! Operators on signals: methods (comparisons, slices, reductions, naming, driving
//! wires and registers), `mux`, `concat` and the Rust operator traits.

use super::*;

impl Signal {
    /// Width in bits.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The node this signal refers to in its module (valid in the finished [`Module`]).
    pub fn node(&self) -> NodeId {
        self.node
    }

    fn derive(&self, kind: NodeKind, width: u32) -> Signal {
        let node = with_graph(self.builder, |g| g.push(kind, width, None));
        Signal {
            node,
            width,
            ..*self
        }
    }

    /// A constant of this signal's width (and module); truncation is an error.
    pub fn constant(&self, value: u64) -> Signal {
        if !Bits::fits(value, self.width) {
            let w = self.width;
            with_graph(self.builder, |g| {
                g.error(
                    format!("{value}"),
                    ErrorKind::Invalid(format!("constant {value} does not fit in {w} bits")),
                )
            });
        }
        self.derive(
            NodeKind::Const(Bits::from_u64(value, self.width)),
            self.width,
        )
    }

    /// The value of this signal when it is a constant.
    pub fn const_value(&self) -> Option<Bits> {
        with_graph(self.builder, |g| match &g.nodes[self.node.index()].kind {
            NodeKind::Const(b) => Some(b.clone()),
            _ => None,
        })
    }

    fn constant_bits(&self, value: Bits) -> Signal {
        let w = value.width();
        self.derive(NodeKind::Const(value), w)
    }

    /// A constant of any width in this signal's module.
    pub fn constant_of(&self, value: u64, width: u32) -> Signal {
        let s = Signal { width, ..*self };
        s.constant(value)
    }

    fn same_module(&self, other: &Signal, g: &mut Graph) -> bool {
        if other.builder != self.builder {
            g.error(format!("#{}", other.node.0), ErrorKind::ForeignSignal);
            false
        } else {
            true
        }
    }

    fn binary(self, op: BinaryOp, other: Signal) -> Signal {
        let ok = with_graph(self.builder, |g| {
            if !self.same_module(&other, g) {
                return false;
            }
            if op.same_width_operands() && self.width != other.width {
                let s = g.describe(other.node);
                g.error(
                    s,
                    ErrorKind::WidthMismatch {
                        op: op.verilog().into(),
                        expected: self.width,
                        found: other.width,
                    },
                );
                return false;
            }
            true
        });
        let width = if op.is_comparison() { 1 } else { self.width };
        if !ok {
            return self.constant_of(0, width);
        }
        // Operations whose result is constant whatever the variable operand is are built
        // as that constant (Verilator's lint would otherwise flag them).
        let (ka, kb) = with_graph(self.builder, |g| {
            let k = |id: NodeId| match &g.nodes[id.index()].kind {
                NodeKind::Const(b) => Some(b.clone()),
                _ => None,
            };
            (k(self.node), k(other.node))
        });
        let is_zero = |k: &Option<Bits>| k.as_ref().is_some_and(Bits::is_zero);
        let is_ones = |k: &Option<Bits>| {
            k.as_ref()
                .is_some_and(|b| *b == Bits::from_words(&[u64::MAX; 64], b.width()))
        };
        let fixed = match op {
            BinaryOp::Shl | BinaryOp::Shr => kb
                .as_ref()
                .filter(|b| b.to_u64().is_none_or(|v| v >= u64::from(self.width)))
                .map(|_| 0),
            BinaryOp::Lt if is_zero(&kb) || is_ones(&ka) => Some(0),
            BinaryOp::Ge if is_zero(&kb) || is_ones(&ka) => Some(1),
            BinaryOp::Gt if is_zero(&ka) || is_ones(&kb) => Some(0),
            BinaryOp::Le if is_zero(&ka) || is_ones(&kb) => Some(1),
            _ => None,
        };
        if let Some(v) = fixed {
            return self.constant_of(v, width);
        }
        self.derive(NodeKind::Binary(op, self.node, other.node), width)
    }

    /// Equality with a signal or constant of the same width (1 bit).
    pub fn eq(self, other: impl IntoSignal) -> Signal {
        let o = other.into_signal_like(self);
        self.binary(BinaryOp::Eq, o)
    }
    /// Inequality (1 bit).
    pub fn ne(self, other: impl IntoSignal) -> Signal {
        let o = other.into_signal_like(self);
        self.binary(BinaryOp::Ne, o)
    }
    /// Unsigned less-than (1 bit).
    pub fn lt(self, other: impl IntoSignal) -> Signal {
        let o = other.into_signal_like(self);
        self.binary(BinaryOp::Lt, o)
    }
    /// Unsigned less-or-equal (1 bit).
    pub fn le(self, other: impl IntoSignal) -> Signal {
        let o = other.into_signal_like(self);
        self.binary(BinaryOp::Le, o)
    }
    /// Unsigned greater-than (1 bit).
    pub fn gt(self, other: impl IntoSignal) -> Signal {
        let o = other.into_signal_like(self);
        self.binary(BinaryOp::Gt, o)
    }
    /// Unsigned greater-or-equal (1 bit).
    pub fn ge(self, other: impl IntoSignal) -> Signal {
        let o = other.into_signal_like(self);
        self.binary(BinaryOp::Ge, o)
    }

    /// AND of all bits.
    pub fn reduce_and(self) -> Signal {
        self.derive(NodeKind::Unary(UnaryOp::ReduceAnd, self.node), 1)
    }
    /// OR of all bits ("any bit set").
    pub fn reduce_or(self) -> Signal {
        self.derive(NodeKind::Unary(UnaryOp::ReduceOr, self.node), 1)
    }
    /// XOR of all bits (parity).
    pub fn reduce_xor(self) -> Signal {
        self.derive(NodeKind::Unary(UnaryOp::ReduceXor, self.node), 1)
    }

    /// Bits `range.start .. range.end` (least significant bit 0).
    pub fn bits(self, range: Range<u32>) -> Signal {
        if range.start >= range.end || range.end > self.width {
            let w = self.width;
            with_graph(self.builder, |g| {
                let s = g.describe(self.node);
                g.error(
                    s,
                    ErrorKind::Invalid(format!(
                        "slice {}..{} is out of range for a {w}-bit signal",
                        range.start, range.end
                    )),
                )
            });
            return self.constant_of(0, (range.end.saturating_sub(range.start)).max(1));
        }
        if range.start == 0 && range.end == self.width {
            return self;
        }
        if let Some(k) = self.const_value() {
            let bits: Vec<bool> = (range.start..range.end).map(|i| k.bit(i)).collect();
            return self.constant_bits(Bits::from_bools(&bits));
        }
        self.derive(
            NodeKind::Slice {
                src: self.node,
                lo: range.start,
            },
            range.end - range.start,
        )
    }

    /// Bit `i` (1 bit).
    pub fn bit(self, i: u32) -> Signal {
        self.bits(i..i + 1)
    }

    /// The most significant bit.
    pub fn msb(self) -> Signal {
        self.bit(self.width - 1)
    }

    /// Zero-extended to `width` bits (`width` must be at least the current width).
    pub fn zext(self, width: u32) -> Signal {
        if width == self.width {
            return self;
        }
        if width < self.width {
            let w = self.width;
            with_graph(self.builder, |g| {
                let s = g.describe(self.node);
                g.error(
                    s,
                    ErrorKind::Invalid(format!("cannot zero-extend {w} bits to {width}")),
                )
            });
            return self.bits(0..width.max(1));
        }
        concat(&[self.constant_of(0, width - self.width), self])
    }

    /// `n` copies side by side (`n * width` bits).
    pub fn repeat(self, n: u32) -> Signal {
        if n == 1 {
            return self;
        }
        let parts = vec![self; n.max(1) as usize];
        concat(&parts)
    }

    /// Give this signal a name, so that Verilog and waveforms show it. Returns the named
    /// signal (an operator result is named in place; a port, wire, register or constant
    /// gets a named wire driven by it). Repeated names get `_2`, `_3`... suffixes.
    pub fn named(self, name: &str) -> Signal {
        let in_place = with_graph(self.builder, |g| {
            if !is_valid_name(name) {
                g.error(name, ErrorKind::BadName);
                return true;
            }
            let node = &mut g.nodes[self.node.index()];
            let op = !matches!(
                node.kind,
                NodeKind::Input(_) | NodeKind::Wire(_) | NodeKind::Reg { .. } | NodeKind::Const(_)
            );
            if op && node.name.is_none() {
                node.name = Some(name.to_string());
                true
            } else {
                false
            }
        });
        if in_place {
            return self;
        }
        let node = with_graph(self.builder, |g| {
            let mut n = name.to_string();
            let mut k = 1;
            while g.names.contains(&n) {
                k += 1;
                n = format!("{name}_{k}");
            }
            g.names.insert(n.clone());
            g.push(NodeKind::Wire(self.node), self.width, Some(n))
        });
        Signal { node, ..self }
    }

    /// Drive this wire (created by [`ModuleBuilder::wire`]) with `value`.
    pub fn drive(self, value: impl IntoSignal) {
        let value = value.into_signal_like(self);
        with_graph(self.builder, |g| {
            let me = g.describe(self.node);
            if !self.same_module(&value, g) {
                return;
            }
            if value.width != self.width {
                g.error(
                    me,
                    ErrorKind::WidthMismatch {
                        op: "drive".into(),
                        expected: self.width,
                        found: value.width,
                    },
                );
                return;
            }
            match &mut g.nodes[self.node.index()].kind {
                NodeKind::Wire(d) if *d == UNDRIVEN => *d = value.node,
                NodeKind::Wire(_) => g.error(me, ErrorKind::MultiplyDriven),
                _ => g.error(
                    me,
                    ErrorKind::Invalid(
                        "only wires can be driven; use set_next for registers".into(),
                    ),
                ),
            }
        });
    }

    /// Set the next value of this register.
    pub fn set_next(self, value: impl IntoSignal) {
        let value = value.into_signal_like(self);
        with_graph(self.builder, |g| {
            let me = g.describe(self.node);
            if !self.same_module(&value, g) {
                return;
            }
            if value.width != self.width {
                g.error(
                    me,
                    ErrorKind::WidthMismatch {
                        op: "set_next".into(),
                        expected: self.width,
                        found: value.width,
                    },
                );
                return;
            }
            match &mut g.nodes[self.node.index()].kind {
                NodeKind::Reg { next, .. } if *next == UNDRIVEN => *next = value.node,
                NodeKind::Reg { .. } => g.error(me + " (next value)", ErrorKind::MultiplyDriven),
                _ => g.error(me, ErrorKind::Invalid("set_next needs a register".into())),
            }
        });
    }

    /// Set a 1-bit enable of this register: it loads its next value only when `enable`
    /// is 1 (reset still applies).
    pub fn set_enable(self, enable: Signal) {
        with_graph(self.builder, |g| {
            let me = g.describe(self.node);
            if !self.same_module(&enable, g) {
                return;
            }
            if enable.width != 1 {
                g.error(
                    me,
                    ErrorKind::WidthMismatch {
                        op: "set_enable".into(),
                        expected: 1,
                        found: enable.width,
                    },
                );
                return;
            }
            match &mut g.nodes[self.node.index()].kind {
                NodeKind::Reg { enable: e, .. } if e.is_none() => *e = Some(enable.node),
                NodeKind::Reg { .. } => g.error(me + " (enable)", ErrorKind::MultiplyDriven),
                _ => g.error(me, ErrorKind::Invalid("set_enable needs a register".into())),
            }
        });
    }
}

/// `sel ? on_true : on_false`; `sel` is 1 bit, the two values have the same width (an
/// integer takes the other value's width).
pub fn mux(sel: Signal, on_true: impl IntoSignal, on_false: impl IntoSignal) -> Signal {
    let like = on_true.as_signal().or(on_false.as_signal()).unwrap_or(sel);
    let t = on_true.into_signal_like(like);
    let f = on_false.into_signal_like(like);
    let ok = with_graph(sel.builder, |g| {
        if !sel.same_module(&t, g) || !sel.same_module(&f, g) {
            return false;
        }
        if sel.width != 1 {
            let s = g.describe(sel.node);
            g.error(
                s,
                ErrorKind::WidthMismatch {
                    op: "mux select".into(),
                    expected: 1,
                    found: sel.width,
                },
            );
            return false;
        }
        if t.width != f.width {
            let s = g.describe(f.node);
            g.error(
                s,
                ErrorKind::WidthMismatch {
                    op: "mux".into(),
                    expected: t.width,
                    found: f.width,
                },
            );
            return false;
        }
        true
    });
    if !ok {
        return t;
    }
    sel.derive(
        NodeKind::Mux {
            sel: sel.node,
            on_true: t.node,
            on_false: f.node,
        },
        t.width,
    )
}

/// Concatenation, most significant part first (Verilog `{a, b, c}`).
///
/// # Panics
/// When `parts` is empty (there is no module to record the error in).
pub fn concat(parts: &[Signal]) -> Signal {
    let first = *parts.first().expect("concat needs at least one part");
    if parts.len() == 1 {
        return first;
    }
    let ok = with_graph(first.builder, |g| {
        parts.iter().all(|p| first.same_module(p, g))
    });
    if !ok {
        return first;
    }
    let width = parts.iter().map(|p| p.width).sum();
    let consts: Option<Vec<Bits>> = parts.iter().map(Signal::const_value).collect();
    if let Some(consts) = consts {
        let mut bits = Vec::with_capacity(width as usize);
        for k in consts.iter().rev() {
            bits.extend((0..k.width()).map(|i| k.bit(i)));
        }
        return first.constant_bits(Bits::from_bools(&bits));
    }
    first.derive(
        NodeKind::Concat(parts.iter().map(|p| p.node).collect()),
        width,
    )
}

/// Concatenation with the least significant part first: `concat_lsb_first(&bits)` turns
/// `bits[i]` into bit `i` when every part is one bit.
pub fn concat_lsb_first(parts: &[Signal]) -> Signal {
    let rev: Vec<Signal> = parts.iter().rev().copied().collect();
    concat(&rev)
}

/// 1 when any of the 1-bit signals is 1.
pub fn any(bits: &[Signal]) -> Signal {
    concat(bits).reduce_or()
}

/// 1 when all of the 1-bit signals are 1.
pub fn all(bits: &[Signal]) -> Signal {
    concat(bits).reduce_and()
}

macro_rules! binop {
    ($trait:ident, $method:ident, $op:expr) => {
        impl<T: IntoSignal> $trait<T> for Signal {
            type Output = Signal;
            fn $method(self, rhs: T) -> Signal {
                let rhs = rhs.into_signal_like(self);
                self.binary($op, rhs)
            }
        }
    };
}
binop!(BitAnd, bitand, BinaryOp::And);
binop!(BitOr, bitor, BinaryOp::Or);
binop!(BitXor, bitxor, BinaryOp::Xor);
binop!(Add, add, BinaryOp::Add);
binop!(Sub, sub, BinaryOp::Sub);

/// A shift amount: a signal of any width, or a constant.
pub trait ShiftAmount {
    /// The amount as a signal in `like`'s module.
    fn amount_signal(self, like: Signal) -> Signal;
}

impl ShiftAmount for Signal {
    fn amount_signal(self, _like: Signal) -> Signal {
        self
    }
}

macro_rules! int_shift {
    ($($t:ty),*) => {$(
        impl ShiftAmount for $t {
            #[allow(clippy::unnecessary_cast, clippy::cast_sign_loss)]
            fn amount_signal(self, like: Signal) -> Signal {
                let v = (self as i128).max(0) as u64;
                let w = (64 - v.leading_zeros()).max(1);
                like.constant_of(v, w)
            }
        }
    )*};
}
int_shift!(u64, u32, usize, i32);

impl<T: ShiftAmount> Shl<T> for Signal {
    type Output = Signal;
    fn shl(self, rhs: T) -> Signal {
        let amount = rhs.amount_signal(self);
        self.binary(BinaryOp::Shl, amount)
    }
}

impl<T: ShiftAmount> Shr<T> for Signal {
    type Output = Signal;
    fn shr(self, rhs: T) -> Signal {
        let amount = rhs.amount_signal(self);
        self.binary(BinaryOp::Shr, amount)
    }
}

impl Not for Signal {
    type Output = Signal;
    fn not(self) -> Signal {
        if let Some(k) = self.const_value() {
            let bits: Vec<bool> = (0..k.width()).map(|i| !k.bit(i)).collect();
            return self.constant_bits(Bits::from_bools(&bits));
        }
        self.derive(NodeKind::Unary(UnaryOp::Not, self.node), self.width)
    }
}
