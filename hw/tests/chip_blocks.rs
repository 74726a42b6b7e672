//! The move-generator chip's blocks build and emit deterministically, each on its own and
//! in the debug top level that exposes internal signals as ports. The golden Verilog of
//! `movegen` is checked with every other catalog block in `golden.rs`. The quiescence
//! engine's controller builds for memories from the smallest to the default.

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

#[test]
fn the_quiescence_controller_builds_for_the_smallest_memories_and_the_default() {
    // Lists of 2 moves hold fewer than the generator's first chunk of quiet moves: such
    // a chip overflows before it would stop its generator, and still builds.
    use hw::chip::qsearch::{Params, control::control};
    let smallest = Params {
        plies: 2,
        list: 2,
        table: 2,
        tag_bits: 1,
    };
    for p in [smallest, Params::of::<4, 4, 64, 2>(), Params::DEFAULT] {
        control(p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
    }
}
