//! The simulated `movegen` netlist against the cycle-exact reference model on 2,000
//! positions (`data/lockstep.fen`: 1,000 of random games, 1,000 random placements) in
//! three configurations: every registered output and every named internal signal,
//! cycle for cycle, through the one [`Driver`](testbench::chip::Driver) trait both
//! implement.

use hw::chip::movegen::model::Model;
use hw::chip::movegen::{Job, Movegen};
use hw::chip::types::{Board, Config, Priorities, Shortcuts};
use testbench::chip::{Netlist, lockstep};

#[test]
fn netlist_equals_model_cycle_for_cycle() {
    // The model lives as long as the netlist, since the walkers keep their state from
    // one position to the next (as in the netlist).
    let mut chip = Netlist::<Movegen>::new(true).unwrap();
    let boards: Vec<Board> = include_str!("data/lockstep.fen")
        .lines()
        .map(|l| Board::from_fen(l).unwrap())
        .collect();
    assert_eq!(boards.len(), 2_000);
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
        for &board in &boards {
            let job = Job { board, config };
            total += lockstep(&mut model, &mut chip, &job, 4096)
                .unwrap_or_else(|d| panic!("{} ({config:?}): {d}", board.to_fen()));
        }
    }
    eprintln!("{total} cycles in {:?}", start.elapsed());
}
