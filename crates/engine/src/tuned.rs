//! The tuned evaluation (`eval=tuned`): the features of a position, side to move minus opponent, and the weights
//! fitted to self-play results by the tuner (`fanorona-tools`' `tune`), which the search reads without the tuning.

use crate::position::Position;

/// Number of evaluation features.
pub const FEATURES: usize = 12 + PST_CLASSES;

/// Classes of points of the 9 × 5 board under its two mirrors (left-right, up-down): 5 files from the edge to
/// the middle times 3 ranks from the edge to the middle. Features 12 onwards count own pieces less the
/// opponent's in each class: a piece-square table the fit can shape.
pub const PST_CLASSES: usize = 15;

/// What each feature measures, side to move minus opponent unless said otherwise.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "material",
    "strong points",
    "lead x (12 - pieces), 12 pieces or fewer",
    "tempo (always 1)",
    "most own pieces one enemy capture takes",
    "own pieces some enemy capture takes",
    "enemy capturing steps",
    "most enemy pieces one own capture would take",
    "enemy pieces some own capture would take",
    "paika mobility",
    "centre (piece-square)",
    "lead, 6 pieces or fewer",
    "points a1 (class 0: file a/i, rank 1/5)",
    "points b1 (class 1)",
    "points c1 (class 2)",
    "points d1 (class 3)",
    "points e1 (class 4)",
    "points a2 (class 5: file a/i, rank 2/4)",
    "points b2 (class 6)",
    "points c2 (class 7)",
    "points d2 (class 8)",
    "points e2 (class 9)",
    "points a3 (class 10: file a/i, rank 3)",
    "points b3 (class 11)",
    "points c3 (class 12)",
    "points d3 (class 13)",
    "points e3 (class 14)",
];

/// The weights of [`tuned_evaluate`], in hundredths of a piece per unit of each feature ([`FEATURE_NAMES`]):
/// fitted by `fanorona-cli tune fit` (see STRENGTH.md for the data set and the fit).
pub const TUNED_WEIGHTS: [i32; FEATURES] =
    [100, 4, -3, 0, -110, 0, 0, 0, 0, 7, -5, 157, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/// The points of each class of [`PST_CLASSES`] on the 9 × 5 board.
const PST_MASKS: [u64; PST_CLASSES] = {
    let mut m = [0u64; PST_CLASSES];
    let mut i = 0;
    while i < 45 {
        let (x, y) = (i % 9, i / 9);
        let fx = if x < 8 - x { x } else { 8 - x };
        let fy = if y < 4 - y { y } else { 4 - y };
        m[fy * 5 + fx] |= 1 << i;
        i += 1;
    }
    m
};

/// Centre part of the plain piece-square table: points near the middle reach more of the board.
const CENTRE: [i32; 45] = {
    let mut t = [0; 45];
    let mut i = 0;
    while i < 45 {
        let (x, y) = ((i % 9) as i32, (i / 9) as i32);
        t[i] = (4 - (x - 4).abs()) / 2 + (2 - (y - 2).abs());
        i += 1;
    }
    t
};

fn centre(mut bits: u64) -> i32 {
    let mut sum = 0;
    while bits != 0 {
        sum += CENTRE[(bits.trailing_zeros() as usize).min(44)];
        bits &= bits - 1;
    }
    sum
}

/// The features of a turn-start position, from the side to move's point of view (see [`FEATURE_NAMES`]). The
/// enemy's captures (features 4-6) count only where the side to move cannot capture, as the full evaluation's
/// threat term does (a side that must capture changes the board before the enemy moves); the side to move's own
/// captures (7-8) only where it can.
pub fn features(pos: &Position) -> [i32; FEATURES] {
    features_for(pos, true, true)
}

/// [`features`], leaving out the enemy's captures unless `threats` and the side to move's unless `mine`: the
/// costly features, which a weight of zero need not compute.
#[inline]
fn features_for(pos: &Position, threats: bool, mine: bool) -> [i32; FEATURES] {
    let me = pos.side_to_move();
    let (own, opp) = (pos.pieces(me), pos.pieces(me.opponent()));
    let (n_own, n_opp) = (own.count_ones() as i32, opp.count_ones() as i32);
    let g = pos.geometry();
    let total = n_own + n_opp;
    let lead = n_own - n_opp;
    let capture = (threats || mine) && pos.has_capture();
    let (most, exposed, steps) = if threats && !capture { pos.opponent_capture_summary() } else { (0, 0, 0) };
    // The side to move's own threats: the opponent's captures seen from the opponent's side.
    let (mine_most, mine_exposed) = match pos.null_move() {
        Some(p) if mine && capture => {
            let (m, e, _) = p.opponent_capture_summary();
            (m, e)
        }
        _ => (0, 0),
    };
    let mut f = [0; FEATURES];
    if g.width == 9 {
        for (k, m) in PST_MASKS.iter().enumerate() {
            f[12 + k] = (own & m).count_ones() as i32 - (opp & m).count_ones() as i32;
        }
    }
    f[..12].copy_from_slice(&[
        lead,
        (own & g.strong).count_ones() as i32 - (opp & g.strong).count_ones() as i32,
        if total <= 12 { lead * (12 - total) } else { 0 },
        1,
        most as i32,
        exposed as i32,
        steps as i32,
        mine_most as i32,
        mine_exposed as i32,
        pos.mobility(),
        if g.width == 9 { centre(own) - centre(opp) } else { 0 },
        if total <= 6 { lead } else { 0 },
    ]);
    f
}

/// The tuned static evaluation: [`TUNED_WEIGHTS`] · [`features`], from the side to move's point of view, in
/// hundredths of a piece.
pub fn tuned_evaluate(pos: &Position) -> i32 {
    evaluate_with(&TUNED_WEIGHTS, pos)
}

/// `weights` · [`features`], computing only the costly features whose weight is not zero.
#[inline]
pub fn evaluate_with(w: &[i32; FEATURES], pos: &Position) -> i32 {
    let threats = w[4] != 0 || w[5] != 0 || w[6] != 0;
    let mine = w[7] != 0 || w[8] != 0;
    dot(w, &features_for(pos, threats, mine))
}

fn dot(w: &[i32; FEATURES], f: &[i32; FEATURES]) -> i32 {
    w.iter().zip(f).map(|(a, b)| a * b).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_classes_split_the_board_by_its_mirrors() {
        // Every point in exactly one class; a class holds a point's mirror images and nothing else.
        let all = PST_MASKS.iter().fold(0u64, |acc, m| {
            assert_eq!(acc & m, 0, "classes overlap");
            acc | m
        });
        assert_eq!(all, (1u64 << 45) - 1);
        for m in PST_MASKS {
            let p = m.trailing_zeros() as usize;
            let (x, y) = (p % 9, p / 9);
            let images = [(x, y), (8 - x, y), (x, 4 - y), (8 - x, 4 - y)];
            assert_eq!(m, images.iter().fold(0u64, |acc, &(a, b)| acc | 1 << (b * 9 + a)));
        }
        // The features count own pieces less the opponent's in each class: at the start, a1 (class 0) holds two
        // pieces a side and the middle point e3 (class 14) none.
        let f = features(&Position::start(&crate::rules::Rules::default()));
        assert_eq!(f[12..].iter().sum::<i32>(), f[0]);
        assert_eq!((f[12], f[26]), (0, 0));
        let p = Position::from_fen("9/9/4W4/9/B8 w").unwrap();
        let f = features(&p);
        assert_eq!((f[12], f[26], f[12..].iter().sum::<i32>()), (-1, 1, 0));
    }
}
