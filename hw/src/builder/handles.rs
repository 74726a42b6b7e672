//! Handles to the memories and instances of a module being built.

use super::*;

/// A handle to a memory of a module being built.
#[derive(Clone, Copy, Debug)]
pub struct MemoryHandle {
    pub(super) builder: u32,
    pub(super) idx: usize,
    pub(super) width: u32,
    pub(super) addr_width: u32,
}

impl MemoryHandle {
    /// Word width.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Address width (`log2(depth)`).
    pub fn addr_width(&self) -> u32 {
        self.addr_width
    }

    fn check(&self, g: &mut Graph, what: &str, s: Signal, width: u32) -> bool {
        let name = format!("{}.{}", g.memories[self.idx].name, what);
        if s.builder != self.builder {
            g.error(name, ErrorKind::ForeignSignal);
            false
        } else if s.width != width {
            g.error(
                name,
                ErrorKind::WidthMismatch {
                    op: what.into(),
                    expected: width,
                    found: s.width,
                },
            );
            false
        } else {
            true
        }
    }

    /// A synchronous write port: on the clock edge, when `enable` is 1, the word at
    /// `addr` becomes `data`.
    pub fn write(&self, addr: Signal, data: impl IntoSignal, enable: Signal) {
        let data = data.into_signal_like(Signal {
            width: self.width,
            ..addr
        });
        with_graph(self.builder, |g| {
            let ok = self.check(g, "write address", addr, self.addr_width)
                & self.check(g, "write data", data, self.width)
                & self.check(g, "write enable", enable, 1);
            if ok {
                g.memories[self.idx].writes.push(MemWrite {
                    addr: addr.node,
                    data: data.node,
                    enable: enable.node,
                });
            }
        });
    }

    /// A combinational read port: the word at `addr` now.
    pub fn read(&self, addr: Signal) -> Signal {
        self.read_port(addr, false)
    }

    /// A registered read port: the word at `addr` as it was before this clock edge's
    /// writes, available after the edge (block-RAM style).
    pub fn read_sync(&self, addr: Signal) -> Signal {
        self.read_port(addr, true)
    }

    fn read_port(&self, addr: Signal, sync: bool) -> Signal {
        let node = with_graph(self.builder, |g| {
            self.check(g, "read address", addr, self.addr_width);
            let kind = if sync {
                NodeKind::MemReadSync {
                    mem: self.idx,
                    addr: addr.node,
                }
            } else {
                NodeKind::MemRead {
                    mem: self.idx,
                    addr: addr.node,
                }
            };
            g.push(kind, self.width, None)
        });
        Signal {
            builder: self.builder,
            node,
            width: self.width,
            _not_send: PhantomData,
        }
    }

    /// Initial contents, one value per word (missing words are zero).
    pub fn init(&self, words: &[u64]) {
        with_graph(self.builder, |g| {
            let m = &g.memories[self.idx];
            let depth = m.depth();
            let name = m.name.clone();
            if words.len() > depth || words.iter().any(|&w| !Bits::fits(w, self.width)) {
                g.error(
                    name,
                    ErrorKind::Invalid(format!(
                        "initial contents must be at most {depth} words of {} bits",
                        self.width
                    )),
                );
                return;
            }
            let mut init: Vec<Bits> = words
                .iter()
                .map(|&w| Bits::from_u64(w, self.width))
                .collect();
            init.resize(depth, Bits::zero(self.width));
            g.memories[self.idx].init = Some(init);
        });
    }
}

/// A handle to an instance of another module inside a module being built.
#[derive(Clone, Copy, Debug)]
pub struct InstanceHandle {
    pub(super) builder: u32,
    pub(super) idx: usize,
}

impl InstanceHandle {
    /// Drive the instance's input `port` with `value` (a signal or a constant).
    pub fn connect(&self, port: &str, value: impl IntoSignal) {
        let like = with_graph(self.builder, |g| {
            let inst = &g.instances[self.idx];
            let w = inst.module.input(port).map_or(1, |p| p.width);
            Signal {
                builder: self.builder,
                node: NodeId(0),
                width: w,
                _not_send: PhantomData,
            }
        });
        let value = value.into_signal_like(like);
        with_graph(self.builder, |g| {
            let inst = &g.instances[self.idx];
            let pin = format!("{}.{}", inst.name, port);
            let Some(p) = inst.module.inputs.iter().position(|p| p.name == port) else {
                let why = format!("module `{}` has no input `{port}`", inst.module.name);
                g.error(pin, ErrorKind::Invalid(why));
                return;
            };
            let w = inst.module.inputs[p].width;
            if value.builder != self.builder {
                g.error(pin, ErrorKind::ForeignSignal);
            } else if value.width != w {
                g.error(
                    pin,
                    ErrorKind::WidthMismatch {
                        op: "connect".into(),
                        expected: w,
                        found: value.width,
                    },
                );
            } else if g.instances[self.idx].inputs[p].is_some() {
                g.error(pin, ErrorKind::MultiplyDriven);
            } else {
                g.instances[self.idx].inputs[p] = Some(value.node);
            }
        });
    }

    /// The instance's output `port`.
    pub fn output(&self, port: &str) -> Signal {
        let (node, width) = with_graph(self.builder, |g| {
            let inst = &g.instances[self.idx];
            let Some(p) = inst.module.outputs.iter().position(|p| p.name == port) else {
                let pin = format!("{}.{}", inst.name, port);
                let why = format!("module `{}` has no output `{port}`", inst.module.name);
                g.error(pin, ErrorKind::Invalid(why));
                return (g.push(NodeKind::Const(Bits::zero(1)), 1, None), 1);
            };
            if let Some(n) = inst.outputs[p] {
                return (n, inst.module.outputs[p].width);
            }
            let w = inst.module.outputs[p].width;
            let n = g.push(
                NodeKind::InstOutput {
                    inst: self.idx,
                    port: p,
                },
                w,
                None,
            );
            g.instances[self.idx].outputs[p] = Some(n);
            (n, w)
        });
        Signal {
            builder: self.builder,
            node,
            width,
            _not_send: PhantomData,
        }
    }
}
