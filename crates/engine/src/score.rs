//! The scale of scores that the search, the endgame tables and everything reading them share: hundredths of a
//! piece, and exact wins and losses counted in turns from a bound no evaluation reaches.

use crate::position::Position;

/// Score of a win right now; a win in `n` turns scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this (in absolute value) are forced wins or losses.
pub const WIN_BOUND: i32 = WIN - 1_000;
/// Value of one piece in the evaluation.
pub const PIECE: i32 = 100;

/// Something that knows exact values of small endgames (the tablebase), seen from the side to move.
pub trait Oracle: Send + Sync {
    /// The exact score of a position at the start of a turn (`WIN - n` for a win in `n` turns, `-(WIN - n)` for
    /// a loss in `n`, 0 for a draw), or None when unknown.
    fn score(&self, pos: &Position) -> Option<i32>;
}
