//! Generated wrappers that make a block placeable: registers around a combinational
//! block (so that nextpnr reports a register-to-register Fmax), and a serial port for a
//! block with more port bits than the package has pins.

use hw::{HwError, Module, ModuleBuilder, Signal, concat_lsb_first, mux};

/// A wrapper `<name>_regs` around `m` that registers every input and output.
pub fn register_wrapper(m: &Module) -> Result<Module, HwError> {
    let w = ModuleBuilder::new(&format!("{}_regs", m.name));
    let u = w.instance("block", m);
    for p in &m.inputs {
        let i = w.input(&p.name, p.width);
        let r = w.reg(&format!("{}_q", p.name), p.width);
        r.set_next(i);
        u.connect(&p.name, r);
    }
    for p in &m.outputs {
        let r = w.reg(&format!("{}_q", p.name), p.width);
        r.set_next(u.output(&p.name));
        w.output(&p.name, r);
    }
    w.finish()
}

/// Flip-flops [`serial_wrapper`] adds around `m`: a shift register and a holding
/// register for the inputs, a shift register for the outputs.
pub fn serial_wrapper_dff(m: &Module) -> u64 {
    let bits = |ports: &[hw::Port]| ports.iter().map(|p| u64::from(p.width)).sum::<u64>();
    2 * bits(&m.inputs) + bits(&m.outputs)
}

/// Shift `reg` one place towards its top bit, `fill` entering at bit 0.
fn shifted(reg: Signal, fill: Signal) -> Signal {
    if reg.width() == 1 {
        fill
    } else {
        concat_lsb_first(&[fill, reg.bits(0..reg.width() - 1)])
    }
}

/// A wrapper `<name>_serial` that reaches every port of `m` through three pins besides
/// the clock and reset: `ser_in` shifts one bit per clock into an input shift register
/// (the last input port's top bit first); `ser_load` copies that register into the
/// block's inputs (held until the next `ser_load`) and the block's outputs into the
/// output shift register, whose top bit is `ser_out` and which shifts one place per
/// clock otherwise (the last output port's top bit first). Inputs come from registers
/// and outputs go to registers, so the block's own paths are what nextpnr times.
pub fn serial_wrapper(m: &Module) -> Result<Module, HwError> {
    let w = ModuleBuilder::new(&format!("{}_serial", m.name));
    let u = w.instance("block", m);
    let ser_in = w.input("ser_in", 1);
    let load = w.input("ser_load", 1);
    let in_bits: u32 = m.inputs.iter().map(|p| p.width).sum();
    if in_bits > 0 {
        let shift = w.reg("in_shift", in_bits);
        shift.set_next(shifted(shift, ser_in));
        let held = w.reg("in_held", in_bits);
        held.set_next(shift);
        held.set_enable(load);
        let mut lo = 0;
        for p in &m.inputs {
            u.connect(&p.name, held.bits(lo..lo + p.width));
            lo += p.width;
        }
    }
    let outs: Vec<Signal> = m.outputs.iter().map(|p| u.output(&p.name)).collect();
    if outs.is_empty() {
        w.output("ser_out", w.lit(0, 1));
    } else {
        let all = concat_lsb_first(&outs);
        let shift = w.reg("out_shift", all.width());
        let zero = w.lit(0, 1);
        shift.set_next(mux(load, all, shifted(shift, zero)));
        w.output("ser_out", shift.msb());
    }
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counter through its serial wrapper: shift `en = 1` in, apply it, let it
    /// count five clocks, capture the outputs and shift them out (wrap, then count from
    /// its top bit).
    #[test]
    fn serial_wrapper_carries_the_ports() {
        let counter = hw::blocks::counter::counter().unwrap();
        let w = serial_wrapper(&counter).unwrap();
        assert_eq!(serial_wrapper_dff(&counter), 2 + 9);
        let mut s = sim::Simulator::new(&w).unwrap();
        let (si, load, so) = (
            s.input("ser_in").unwrap(),
            s.input("ser_load").unwrap(),
            s.output("ser_out").unwrap(),
        );
        s.reset();
        s.step();
        s.set(si, 1);
        s.step();
        s.set(si, 0);
        s.set(load, 1);
        s.step();
        s.set(load, 0);
        for _ in 0..5 {
            s.step();
        }
        s.set(load, 1);
        s.step();
        s.set(load, 0);
        let mut bits = Vec::new();
        for _ in 0..9 {
            bits.push(s.get(so));
            s.step();
        }
        let wrap = bits[0];
        let count = bits[1..].iter().fold(0, |v, b| v << 1 | b);
        assert_eq!((wrap, count), (0, 5));
    }
}
