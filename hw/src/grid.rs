//! The geometry of an 8x8 array of cells, shared by the array-shaped blocks (the
//! catalog's `ray_array`, the chip's cell array): squares are numbered a1 = 0, b1 = 1,
//! ..., h8 = 63 (rank * 8 + file), and steps are (file step, rank step).

/// The 8 ray directions as (file step, rank step): N, NE, E, SE, S, SW, W, NW (even =
/// orthogonal).
pub const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// The 8 knight jumps as (file step, rank step).
pub const KNIGHT_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
