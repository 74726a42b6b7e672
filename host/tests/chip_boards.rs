//! The board files that `testbench`'s chip tests load (`testbench/tests/data/*.fen`,
//! one board per line as the chip loads it: placement, side to move, en-passant
//! register) are exactly the host corpus's positions, converted by [`board_of`], and
//! read back by `Board::from_fen` to the same boards. `testbench` has no rules of its
//! own; this keeps its inputs the corpus's. Regenerate on purpose with
//! `UPDATE_BOARDS=1 cargo test -p host --test chip_boards`.

use std::path::PathBuf;

use host::chip::board_of;
use host::positions::corpus::random_positions;
use host::positions::random::random_placements;
use hw::chip::types::Board;

fn check(file: &str, boards: Vec<Board>) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testbench/tests/data")
        .join(file);
    let text: String = boards.iter().map(|b| b.to_fen() + "\n").collect();
    for (line, board) in text.lines().zip(&boards) {
        assert_eq!(Board::from_fen(line).as_ref(), Ok(board), "{line}");
    }
    if std::env::var_os("UPDATE_BOARDS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let on_disk = std::fs::read_to_string(&path).unwrap();
    assert!(
        on_disk == text,
        "{} is out of date (UPDATE_BOARDS=1 cargo test -p host --test chip_boards)",
        path.display()
    );
}

#[test]
fn lockstep_boards_are_the_corpus() {
    let mut positions = random_positions(11, 1_000);
    positions.extend(random_placements(12, 1_000));
    check("lockstep.fen", positions.iter().map(board_of).collect());
}

#[test]
fn cosim_boards_are_the_corpus() {
    // 750 positions of games, then 250 placements (the gate-level test takes the first
    // 75 and 25 of each).
    let mut positions = random_positions(0x000c_051a, 750);
    positions.extend(random_placements(0x000c_051b, 250));
    check("cosim.fen", positions.iter().map(board_of).collect());
}
