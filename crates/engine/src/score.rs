//! The scale of scores that the search, the endgame tables and everything reading them share: hundredths of a
//! piece, and exact wins and losses counted in turns from a bound no evaluation reaches.
//!
//! Inside the search a score is a plain `i32` (the raw value: cheap to add, negate and store in the table); what
//! leaves it for people, the protocol, reviews and tools is read as a [`Score`], the one place that knows how
//! the raw value encodes a win or a loss.

use crate::position::Position;
use std::cmp::Ordering;
use std::fmt;
use std::ops::Neg;

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

/// A score read for what it means, from the side to move's point of view: an evaluation, or a forced win or loss
/// in a number of turns. Converts both ways with the raw value the search computes ([`Score::from_raw`],
/// [`Score::raw`]) and orders as the raw value does (faster wins first, slower losses before faster ones).
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// An evaluation in hundredths of a piece, within ±[`WIN_BOUND`].
    Eval(i32),
    /// A forced win in this many turns (fewer than 1000: more would not fit above [`WIN_BOUND`]).
    Win(u32),
    /// A forced loss in this many turns (fewer than 1000).
    Loss(u32),
}

impl Score {
    /// A draw, or an even evaluation.
    pub const ZERO: Score = Score::Eval(0);

    /// Reads a raw search score: beyond ±[`WIN_BOUND`] a win or loss in `WIN - |raw|` turns. A raw value beyond
    /// ±[`WIN`] is no score the search reports; it reads as a win or loss in 0 turns.
    pub const fn from_raw(raw: i32) -> Score {
        if raw > WIN_BOUND {
            Score::Win(if raw < WIN { (WIN - raw) as u32 } else { 0 })
        } else if raw < -WIN_BOUND {
            Score::Loss(if raw > -WIN { (WIN + raw) as u32 } else { 0 })
        } else {
            Score::Eval(raw)
        }
    }

    /// The raw search value: `WIN - n` for a win in `n`, `-(WIN - n)` for a loss in `n`, the evaluation as is.
    pub const fn raw(self) -> i32 {
        match self {
            Score::Eval(cp) => cp,
            Score::Win(n) => WIN - n as i32,
            Score::Loss(n) => -(WIN - n as i32),
        }
    }

    /// The number of turns to a forced win, if it is one.
    pub const fn win_in(self) -> Option<u32> {
        if let Score::Win(n) = self { Some(n) } else { None }
    }

    /// The number of turns to a forced loss, if it is one.
    pub const fn loss_in(self) -> Option<u32> {
        if let Score::Loss(n) = self { Some(n) } else { None }
    }

    /// Whether it is a forced win or loss rather than an evaluation.
    pub const fn is_decisive(self) -> bool {
        !matches!(self, Score::Eval(_))
    }

    /// The evaluation in pieces, if it is one.
    pub fn pieces(self) -> Option<f64> {
        if let Score::Eval(cp) = self { Some(f64::from(cp) / f64::from(PIECE)) } else { None }
    }

    /// The form of the engine protocol's `score` field: `cp <hundredths of a piece>`, `win <turns>` or
    /// `loss <turns>`.
    pub fn to_protocol(self) -> String {
        match self {
            Score::Eval(cp) => format!("cp {cp}"),
            Score::Win(n) => format!("win {n}"),
            Score::Loss(n) => format!("loss {n}"),
        }
    }
}

impl From<i32> for Score {
    fn from(raw: i32) -> Score {
        Score::from_raw(raw)
    }
}

impl From<Score> for i32 {
    fn from(score: Score) -> i32 {
        score.raw()
    }
}

/// The score for the other side: a win in `n` is their loss in `n`, an evaluation changes sign.
impl Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        match self {
            Score::Eval(cp) => Score::Eval(-cp),
            Score::Win(n) => Score::Loss(n),
            Score::Loss(n) => Score::Win(n),
        }
    }
}

/// Ordered as the raw values are: better for the side to move is greater.
impl Ord for Score {
    fn cmp(&self, other: &Self) -> Ordering {
        self.raw().cmp(&other.raw())
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// For people (logs, the command line): `+1.25` pieces, or `win in 7` / `loss in 4` turns.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Eval(cp) => write!(f, "{:+.2}", f64::from(cp) / f64::from(PIECE)),
            Score::Win(n) => write!(f, "win in {n}"),
            Score::Loss(n) => write!(f, "loss in {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_round_trips_at_the_edges() {
        let cases = [
            (WIN - 1, Score::Win(1)),
            (WIN_BOUND + 1, Score::Win(999)),
            (WIN_BOUND, Score::Eval(WIN_BOUND)),
            (WIN_BOUND - 1, Score::Eval(WIN_BOUND - 1)),
            (0, Score::ZERO),
            (-WIN_BOUND, Score::Eval(-WIN_BOUND)),
            (-WIN_BOUND - 1, Score::Loss(999)),
            (-WIN + 3, Score::Loss(3)),
            (-WIN, Score::Loss(0)),
            (WIN, Score::Win(0)),
        ];
        for (raw, score) in cases {
            assert_eq!(Score::from_raw(raw), score, "{raw}");
            assert_eq!(score.raw(), raw, "{score:?}");
            assert_eq!(i32::from(Score::from(raw)), raw);
            assert_eq!((-score).raw(), -raw, "negation mirrors the raw value");
        }
        assert_eq!(Score::from_raw(WIN + 1), Score::Win(0), "beyond the scale: no negative distance");
        assert_eq!((Score::Win(7).win_in(), Score::Win(7).loss_in()), (Some(7), None));
        assert_eq!((Score::Loss(4).loss_in(), Score::Eval(5).win_in()), (Some(4), None));
        assert!(Score::Loss(4).is_decisive() && !Score::Eval(WIN_BOUND).is_decisive());
        assert_eq!((Score::Eval(-125).pieces(), Score::Win(1).pieces()), (Some(-1.25), None));
    }

    #[test]
    fn texts_for_people_and_the_protocol() {
        let cases = [
            (125, "+1.25", "cp 125"),
            (0, "+0.00", "cp 0"),
            (-7, "-0.07", "cp -7"),
            (WIN_BOUND, "+290.00", "cp 29000"),
            (WIN - 7, "win in 7", "win 7"),
            (WIN_BOUND + 1, "win in 999", "win 999"),
            (-WIN + 4, "loss in 4", "loss 4"),
        ];
        for (raw, people, protocol) in cases {
            assert_eq!(Score::from_raw(raw).to_string(), people);
            assert_eq!(Score::from_raw(raw).to_protocol(), protocol);
        }
    }

    #[test]
    fn orders_as_the_raw_values() {
        let raws = [-WIN, -WIN + 3, -WIN_BOUND - 1, -WIN_BOUND, -1, 0, 1, WIN_BOUND, WIN_BOUND + 1, WIN - 7, WIN - 1];
        for a in raws {
            for b in raws {
                assert_eq!(Score::from_raw(a).cmp(&Score::from_raw(b)), a.cmp(&b), "{a} vs {b}");
            }
        }
        assert!(Score::Win(1) > Score::Win(2) && Score::Loss(2) > Score::Loss(1) && Score::Loss(999) < Score::ZERO);
    }
}
