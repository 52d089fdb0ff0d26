//! The hand-made static evaluations: [`evaluate`] (material, strong points, the lead in small endgames),
//! [`full_evaluate`] (with mobility) and [`plain_evaluate`] (the baseline player's), and the centrality masks the
//! searcher's `centre` term counts with.

use crate::position::Position;
use crate::score::PIECE;

/// Weight of mobility in the full evaluation, hundredths of a piece per paika step more than the opponent
/// (STRENGTH.md, 2026-11-25: 4 against none +75 Elo [+34, +118] at 60,000 nodes a turn and +80 [+38, +124] at
/// 40 ms; 8 against 4 +16 [+4, +28]; 16 against 8 −17 [−44, +9]).
pub const MOBILITY_WEIGHT: i32 = 8;

/// Worth of a piece on a strong point in [`evaluate`], hundredths of a piece.
pub const STRONG_WEIGHT: i32 = 4;

/// The static evaluations a [`super::Searcher`] can use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// [`evaluate`]: material, strong points, the lead bonus of small endgames.
    #[default]
    Full,
    /// [`plain_evaluate`]: material and a piece-square table only (the baseline player).
    Plain,
    /// [`crate::tuned::tuned_evaluate`]: weights fitted to self-play results, threats included (so the separate
    /// threat, exposure and mobility terms are off with it).
    Tuned,
}

/// The full strength searcher's static evaluation: [`evaluate`] plus [`MOBILITY_WEIGHT`] per paika step more
/// than the opponent, from the side to move's point of view, in hundredths of a piece.
pub fn full_evaluate(pos: &Position) -> i32 {
    evaluate(pos) + MOBILITY_WEIGHT * pos.mobility()
}

/// Static evaluation without mobility from the side to move's point of view, in hundredths of a piece:
/// material, strong points, the lead bonus of small endgames and the move.
pub fn evaluate(pos: &Position) -> i32 {
    let me = pos.side_to_move();
    let own = pos.pieces(me);
    let opp = pos.pieces(me.opponent());
    let (n_own, n_opp) = (own.count_ones() as i32, opp.count_ones() as i32);
    let mut score = (n_own - n_opp) * PIECE;
    let g = pos.geometry();
    // Strong points have up to eight lines: more ways to capture and to escape.
    score += STRONG_WEIGHT * ((own & g.strong).count_ones() as i32 - (opp & g.strong).count_ones() as i32);
    // With few pieces left, a material lead is worth more (it converts), and the weaker side's freedom matters.
    let total = n_own + n_opp;
    if total <= 12 && n_own != n_opp {
        let lead = n_own - n_opp;
        score += lead * (12 - total) * 8;
    }
    // The side to move keeps the initiative.
    score + 10
}

/// Centrality of each point (bit `9 · rank + file`) of a board `width` files wide: up to 2 across the files
/// (the middle file) and 2 across the ranks (the middle rank).
pub(super) const fn centre_table(width: i32) -> [i32; 45] {
    let mut t = [0; 45];
    let mid = (width - 1) / 2;
    let mut i = 0;
    while i < 45 {
        let (x, y) = ((i % 9) as i32, (i / 9) as i32);
        if x < width {
            t[i] = (mid - (x - mid).abs()) * 2 / mid + (2 - (y - 2).abs());
        }
        i += 1;
    }
    t
}

/// [`centre_table`] as four masks: mask `k` holds the points of centrality more than `k`. A piece's centrality
/// is then the number of masks that hold it, and a side's sum four popcounts instead of a walk over its pieces.
pub(super) const fn centre_masks(width: i32) -> [u64; 4] {
    let t = centre_table(width);
    let mut m = [0u64; 4];
    let mut i = 0;
    while i < 45 {
        let mut k = 0;
        while k < 4 {
            if t[i] > k as i32 {
                m[k] |= 1 << i;
            }
            k += 1;
        }
        i += 1;
    }
    m
}

/// [`centre_masks`] of the 9 × 5 board and of the 5 × 5 board.
const CENTRE: [[u64; 4]; 2] = [centre_masks(9), centre_masks(5)];

/// The summed centrality of the pieces of `bits` on the board of `variant`.
#[inline]
pub(super) fn centrality(variant: crate::geometry::Variant, bits: u64) -> i32 {
    let masks = &CENTRE[usize::from(variant == crate::geometry::Variant::Dimy)];
    masks.iter().map(|&m| (bits & m).count_ones() as i32).sum()
}

/// Bonus of a piece on each point of the 9 × 5 board (bit `9 · rank + file`) for [`plain_evaluate`]: strong
/// points have more lines, central points reach more of the board.
const PLAIN_PST: [i32; 45] = {
    let mut t = [0; 45];
    let mut i = 0;
    while i < 45 {
        let (x, y) = ((i % 9) as i32, (i / 9) as i32);
        let strong = if i % 2 == 0 { 4 } else { 0 };
        let centre = (4 - (x - 4).abs()) / 2 + (2 - (y - 2).abs());
        t[i] = strong + centre;
        i += 1;
    }
    t
};

/// The baseline player's evaluation: material plus a piece-square table, from the side to move's point of
/// view, in hundredths of a piece. The 5 × 5 board uses the same table by file and rank.
pub fn plain_evaluate(pos: &Position) -> i32 {
    let me = pos.side_to_move();
    let table = |mut bits: u64| {
        let mut sum = 0;
        while bits != 0 {
            sum += PLAIN_PST[(bits.trailing_zeros() as usize).min(44)];
            bits &= bits - 1;
        }
        sum
    };
    let (own, opp) = (pos.pieces(me), pos.pieces(me.opponent()));
    (own.count_ones() as i32 - opp.count_ones() as i32) * PIECE + table(own) - table(opp)
}
