//! The move-generator chip's blocks build and emit deterministically, each on its own and
//! in the debug top level that exposes internal signals as ports. The golden Verilog of
//! `movegen` is checked with every other catalog block in `golden.rs`.

#[test]
fn every_chip_block_builds_and_emits_deterministically() {
    use hw::chip::movegen::{array, cell, generator, sequencer, walker};
    let builders: [fn() -> Result<hw::Module, hw::HwError>; 5] = [
        cell::cell,
        array::array,
        walker::walker,
        sequencer::sequencer,
        || generator::generator(true),
    ];
    for build in builders {
        let a = hw::verilog::emit_design_text(&build().unwrap()).unwrap();
        let b = hw::verilog::emit_design_text(&build().unwrap()).unwrap();
        assert_eq!(a, b);
    }
}
