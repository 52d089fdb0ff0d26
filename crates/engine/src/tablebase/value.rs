//! The value of a table entry ([`TbValue`]: win, draw or loss in so many turns), its order of preference and the
//! byte it is stored as.

use crate::score::Score;
use std::cmp::Ordering;
use std::fmt;

/// The longest distance one byte per entry can hold.
pub(super) const MAX_DISTANCE: u32 = 254;

/// The exact value of a position for the side to move; see the [module documentation](super) for the convention.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TbValue {
    /// The side to move wins; the opponent is left without pieces or moves after this many turns (odd, ≥ 1).
    Win(u32),
    /// Neither side can force a win.
    Draw,
    /// The side to move loses after this many turns (even, ≥ 0; 0 means it has already lost).
    Loss(u32),
}

impl TbValue {
    /// The distance in turns, for a win or a loss.
    pub fn distance(self) -> Option<u32> {
        match self {
            TbValue::Win(d) | TbValue::Loss(d) => Some(d),
            TbValue::Draw => None,
        }
    }

    /// Whether the side to move wins.
    pub fn is_win(self) -> bool {
        matches!(self, TbValue::Win(_))
    }

    /// Whether the side to move loses.
    pub fn is_loss(self) -> bool {
        matches!(self, TbValue::Loss(_))
    }

    /// Whether the position is drawn.
    pub fn is_draw(self) -> bool {
        self == TbValue::Draw
    }

    /// The value of a turn for the side that plays it, when the position it leads to is worth `self` to the
    /// opponent (then to move): a loss for the opponent in `d` is a win in `d + 1`, and so on.
    pub fn after_turn(self) -> TbValue {
        match self {
            TbValue::Win(d) => TbValue::Loss(d + 1),
            TbValue::Draw => TbValue::Draw,
            TbValue::Loss(d) => TbValue::Win(d + 1),
        }
    }

    /// A score that orders values by preference of the side to move: faster wins first, then draws, then slower
    /// losses.
    fn score(self) -> i64 {
        match self {
            TbValue::Win(d) => (1i64 << 40) - d as i64,
            TbValue::Draw => 0,
            TbValue::Loss(d) => -(1i64 << 40) + d as i64,
        }
    }

    /// The stored byte: 0 for a draw, `d + 1` for a distance `d`.
    pub(super) fn encode(self) -> u8 {
        match self {
            TbValue::Draw => 0,
            TbValue::Win(d) | TbValue::Loss(d) => {
                debug_assert_eq!(d % 2 == 1, self.is_win(), "wins have odd distances, losses even ones");
                assert!(d <= MAX_DISTANCE, "tablebase distance {d} does not fit in a byte");
                (d + 1) as u8
            }
        }
    }

    /// Reads a stored byte (every byte is a valid value).
    pub(super) fn decode(b: u8) -> TbValue {
        match b {
            0 => TbValue::Draw,
            _ => {
                let d = b as u32 - 1;
                if d % 2 == 1 { TbValue::Win(d) } else { TbValue::Loss(d) }
            }
        }
    }
}

/// Ordered by preference of the side to move: `a > b` when `a` is better (a faster win, a slower loss).
impl Ord for TbValue {
    fn cmp(&self, other: &Self) -> Ordering {
        self.score().cmp(&other.score())
    }
}

impl PartialOrd for TbValue {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for TbValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbValue::Win(d) => write!(f, "win in {d}"),
            TbValue::Draw => write!(f, "draw"),
            TbValue::Loss(d) => write!(f, "loss in {d}"),
        }
    }
}

/// The search's reading of a table value: a win or loss in the same number of turns, a draw as an even score.
impl From<TbValue> for Score {
    fn from(v: TbValue) -> Score {
        match v {
            TbValue::Win(d) => Score::Win(d),
            TbValue::Loss(d) => Score::Loss(d),
            TbValue::Draw => Score::ZERO,
        }
    }
}
