//! Interfaces declared once. A [`ports!`](crate::ports) declaration names a set of
//! ports (name, width, documentation) and generates from it, with one field per port:
//!
//! - a value struct (`bool`, `u8`, ... per port) that models and drivers exchange, with
//!   the [`PortSet`] trait: the ports as data ([`PortSet::PORTS`]) and conversion to and
//!   from one 64-bit word per port, in declaration order;
//! - a signal struct for the module being built: `inputs` declares the ports as inputs
//!   of a module, `outputs` drives them as outputs, `of_instance` reads an instance's
//!   same-named outputs and `connect` drives its same-named inputs.
//!
//! A port added or renamed in the declaration is then added or renamed in the netlist,
//! in the models and in every driver, or the code that uses the old name fails to
//! compile. Ports are at most 64 bits wide (checked when the declaration compiles).
//!
//! ```
//! use hw::interface::PortSet;
//! use hw::{ModuleBuilder, ports};
//!
//! ports! {
//!     /// What goes into the counter.
//!     pub struct CounterIn / CounterInSignals {
//!         /// Count this clock.
//!         en: bool = 1,
//!     }
//! }
//! ports! {
//!     /// What comes out.
//!     pub struct CounterOut / CounterOutSignals {
//!         /// The count.
//!         count: u8 = 8,
//!     }
//! }
//!
//! let m = ModuleBuilder::new("counter");
//! let i = CounterInSignals::inputs(&m);
//! let count = m.reg_reset("count", 8, 0);
//! count.set_next(count + 1);
//! count.set_enable(i.en);
//! CounterOutSignals { count }.outputs(&m);
//! let module = m.finish()?;
//! assert_eq!(module.inputs[0].name, CounterIn::PORTS[0].name);
//! assert_eq!(CounterOut::from_words(&[300]).count, 44); // truncated to 8 bits
//! # Ok::<(), hw::HwError>(())
//! ```

use std::fmt::Debug;

/// One port of a declared interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortSpec {
    /// The port's name in the netlist, in Verilog and in waveforms.
    pub name: &'static str,
    /// Width in bits (1 to 64).
    pub width: u32,
    /// What the port carries (its documentation).
    pub doc: &'static str,
}

/// A Rust type that carries the value of a port of at most [`PortValue::BITS`] bits.
pub trait PortValue: Copy + Default + PartialEq + Debug {
    /// Widest port the type can carry.
    const BITS: u32;
    /// The value as a port word.
    fn to_word(self) -> u64;
    /// The value of a port word (truncated to the type).
    fn from_word(word: u64) -> Self;
}

impl PortValue for bool {
    const BITS: u32 = 1;
    fn to_word(self) -> u64 {
        u64::from(self)
    }
    fn from_word(word: u64) -> Self {
        word & 1 != 0
    }
}

macro_rules! unsigned_port_value {
    ($($t:ty),*) => {$(
        impl PortValue for $t {
            const BITS: u32 = <$t>::BITS;
            fn to_word(self) -> u64 {
                u64::from(self)
            }
            fn from_word(word: u64) -> Self {
                word as $t
            }
        }
    )*};
}
unsigned_port_value!(u8, u16, u32, u64);

/// A set of ports declared with [`ports!`](crate::ports): its value struct.
pub trait PortSet: Copy + Default + PartialEq + Debug {
    /// The ports, in declaration order.
    const PORTS: &'static [PortSpec];

    /// The value of port `index` (in [`PortSet::PORTS`] order) as a word.
    fn word(&self, index: usize) -> u64;

    /// The values from one word per port, in [`PortSet::PORTS`] order, each truncated
    /// to its port's width.
    fn from_words(words: &[u64]) -> Self;

    /// Every port's value as a word, in [`PortSet::PORTS`] order.
    fn words(&self) -> Vec<u64> {
        (0..Self::PORTS.len()).map(|i| self.word(i)).collect()
    }

    /// The width of the port named `name`, if there is one: for a block inside the
    /// unit that takes the port's value and must be as wide.
    fn width_of(name: &str) -> Option<u32> {
        Self::PORTS.iter().find(|p| p.name == name).map(|p| p.width)
    }

    /// The value of the port named `name`, if there is one.
    fn word_of(&self, name: &str) -> Option<u64> {
        Self::PORTS
            .iter()
            .position(|p| p.name == name)
            .map(|i| self.word(i))
    }
}

/// The mask of a port of `width` bits.
pub const fn width_mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    }
}

/// Declares a set of ports once: `pub struct Values / Signals { /// doc \n name: type
/// = width, ... }`. See the [module documentation](crate::interface).
#[macro_export]
macro_rules! ports {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident / $signals:ident {
            $(
                $(#[doc = $doc:literal])+
                $field:ident : $ty:ty = $width:literal
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        $vis struct $name {
            $(
                $(#[doc = $doc])+
                pub $field: $ty,
            )*
        }

        #[doc = concat!("The ports of [`struct@", stringify!($name), "`] as signals of a module being built.")]
        #[derive(Clone, Copy, Debug)]
        $vis struct $signals {
            $(
                $(#[doc = $doc])+
                pub $field: $crate::Signal,
            )*
        }

        const _: () = {
            $(
                assert!(
                    $width >= 1 && $width <= <$ty as $crate::interface::PortValue>::BITS,
                    concat!("port `", stringify!($field), "`: its type is too narrow for its width (or the width is 0)")
                );
            )*
        };

        impl $crate::interface::PortSet for $name {
            const PORTS: &'static [$crate::interface::PortSpec] = &[
                $(
                    $crate::interface::PortSpec {
                        name: stringify!($field),
                        width: $width,
                        doc: concat!($($doc),+),
                    },
                )*
            ];

            #[allow(unused_assignments)]
            fn word(&self, index: usize) -> u64 {
                let mut i = 0usize;
                $(
                    if index == i {
                        return $crate::interface::PortValue::to_word(self.$field);
                    }
                    i += 1;
                )*
                panic!("{} has {} ports, not {}", stringify!($name), i, index + 1)
            }

            fn from_words(words: &[u64]) -> Self {
                let expected = <Self as $crate::interface::PortSet>::PORTS.len();
                assert_eq!(words.len(), expected, "{}: one word per port", stringify!($name));
                let mut it = words.iter();
                $name {
                    $(
                        $field: $crate::interface::PortValue::from_word(
                            it.next().copied().unwrap_or(0) & $crate::interface::width_mask($width),
                        ),
                    )*
                }
            }
        }

        impl $signals {
            /// Declares the ports as inputs of `m`.
            pub fn inputs(m: &$crate::ModuleBuilder) -> Self {
                let signals = $signals {
                    $( $field: m.input(stringify!($field), $width), )*
                };
                $( m.document(stringify!($field), concat!($($doc),+)); )*
                signals
            }

            /// Drives the ports as outputs of `m` (a signal of another width is a
            /// build error).
            pub fn outputs(self, m: &$crate::ModuleBuilder) {
                $(
                    m.output_of_width(stringify!($field), $width, self.$field);
                    m.document(stringify!($field), concat!($($doc),+));
                )*
            }

            /// The same-named outputs of an instance.
            pub fn of_instance(inst: &$crate::InstanceHandle) -> Self {
                $signals {
                    $( $field: inst.output(stringify!($field)), )*
                }
            }

            /// Drives the same-named inputs of an instance.
            pub fn connect(self, inst: &$crate::InstanceHandle) {
                $( inst.connect(stringify!($field), self.$field); )*
            }
        }
    };
}
