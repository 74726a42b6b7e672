//! Stimuli for the `movegen` netlist: positions loaded rank by rank, started, and
//! requested until `done` (the number of request cycles comes from the reference model),
//! for co-simulation of the exported Verilog against the Rust simulator and for
//! waveforms.

use hw::chip::model::{Model, rank_word};
use hw::chip::types::{Board, Config};
use hw::{Bits, Module};
use testbench::Stimulus;

/// The stimulus of `boards` run one after the other with `config`: a reset cycle (when
/// the design has a reset), then per position 8 load cycles, a start cycle, the request
/// cycles until `done`, and one idle cycle so that the last outputs are compared too.
pub fn movegen_stimulus(module: &Module, boards: &[Board], config: Config) -> Stimulus {
    let mut stim = Stimulus::new(module);
    let names: Vec<String> = stim.inputs.iter().map(|(n, _)| n.clone()).collect();
    let row = |values: &[(&str, u64)]| -> Vec<Bits> {
        stim.inputs
            .iter()
            .map(|(name, w)| {
                let v = values
                    .iter()
                    .find(|(n, _)| n == name)
                    .map_or(0, |(_, v)| *v);
                Bits::from_u64(v, *w)
            })
            .collect()
    };
    let mut rows = Vec::new();
    if names.iter().any(|n| n == "rst") {
        rows.push(row(&[("rst", 1)]));
    }
    let prio = config.priorities.bits();
    let mut model = Model::new();
    for board in boards {
        let (_, cycles) = model.generate(board, config);
        for rank in 0..8u8 {
            rows.push(row(&[
                ("load_we", 1),
                ("load_rank", u64::from(rank)),
                ("load_row", u64::from(rank_word(board, rank))),
                ("prio", prio),
            ]));
        }
        rows.push(row(&[
            ("start", 1),
            ("black", u64::from(board.black_to_move)),
            ("ep_valid", u64::from(board.ep_file.is_some())),
            ("ep_file", u64::from(board.ep_file.unwrap_or(0))),
            ("prio", prio),
            ("shortcuts", u64::from(config.shortcuts.bits())),
        ]));
        for _ in 0..cycles {
            rows.push(row(&[("req", 1)]));
        }
        rows.push(row(&[]));
    }
    for r in rows {
        stim.push(r);
    }
    stim
}
