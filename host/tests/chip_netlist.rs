//! The simulated `movegen` netlist against the cycle-exact reference model on 2,000
//! positions in three configurations: every registered output and every named internal
//! signal, cycle for cycle.

use host::chip::board_of;
use host::chip::netlist::NetlistChip;
use host::corpus::{random_placements, random_positions};
use host::rules::Position;
use hw::chip::model::Model;
use hw::chip::types::{Config, Priorities, Shortcuts};

/// One position on the chip and on the model; the model lives as long as the chip, since
/// the walkers keep their state from one position to the next (as in the netlist).
fn lockstep(chip: &mut NetlistChip, model: &mut Model, pos: &Position, config: Config) -> u32 {
    let board = board_of(pos);
    model.load(&board, config);
    chip.load(&board, config);
    let fen = pos.to_fen();
    assert_eq!(chip.outputs(), model.regs.out, "after load: {fen}");
    let mut cycles = 0;
    while !model.regs.out.done {
        let expected = model.signals();
        let got = chip.signals().expect("debug netlist");
        assert_eq!(
            got, expected,
            "signals in cycle {cycles} of {fen} ({:?})",
            model.regs.phase
        );
        model.step();
        chip.step();
        cycles += 1;
        assert_eq!(
            chip.outputs(),
            model.regs.out,
            "outputs after cycle {cycles} of {fen}"
        );
        assert!(cycles < 4096);
    }
    cycles
}

#[test]
fn netlist_equals_model_cycle_for_cycle() {
    let mut chip = NetlistChip::new(true).unwrap();
    let mut positions = random_positions(11, 1_000);
    positions.extend(random_placements(12, 1_000));
    let configs = [
        Config::default(),
        Config {
            priorities: Priorities::CHESS,
            shortcuts: Shortcuts::NONE,
        },
        Config {
            priorities: Priorities::default(),
            shortcuts: Shortcuts::from_bits(0b1010),
        },
    ];
    let start = std::time::Instant::now();
    let mut total = 0;
    let mut model = Model::new();
    for config in configs {
        for pos in &positions {
            total += lockstep(&mut chip, &mut model, pos, config);
        }
    }
    eprintln!("{total} cycles in {:?}", start.elapsed());
}
