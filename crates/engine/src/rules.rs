//! Rule options: every choice RULES.md offers, with its defaults.

use crate::geometry::Variant;
use std::fmt;

/// A player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum Side {
    /// White: ranks 1–2 at the start, moves first by default.
    #[default]
    White = 0,
    /// Black: ranks 4–5 at the start.
    Black = 1,
}

impl Side {
    /// Both sides, White first.
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// "white" or "black".
    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which restriction applies to the steps of a relay after the first capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RelayRule {
    /// No step in the same direction as the previous one; no landing on a point already stood on this turn
    /// (the starting point included). The rules the game was solved under.
    #[default]
    Default,
    /// Every step changes direction and no line segment is travelled twice in one turn.
    Lines,
}

/// The vela handicap game: the previous game's loser moves first and captures one piece per turn without relay;
/// the previous winner makes paika moves only until [`Vela::threshold`] of their pieces have been captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vela {
    /// The winner of the previous game, who may not capture during the vela phase.
    pub winner: Side,
    /// How many of the winner's pieces have already been captured in this game.
    pub captured: u8,
}

impl Vela {
    /// Captures of the winner's pieces that end the vela phase on a board: seventeen on the 9×5 board (five of the
    /// winner's 22 pieces left). RULES.md gives no number for 5×5; we keep "until five are left", so seven.
    pub const fn threshold(variant: Variant) -> u8 {
        variant.start_pieces() as u8 - 5
    }
}

/// When a game is drawn by rule (besides agreement).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DrawRule {
    /// Draw when the same position (same side to move) occurs this many times; 0 turns it off.
    pub repetitions: u8,
    /// Draw after this many consecutive turns (of either side) without a capture; 0 turns it off.
    pub no_capture_turns: u16,
}

impl DrawRule {
    /// The default no-capture limit. It is longer than the longest forced win in the endgame tablebase
    /// (see the crate documentation), so it never cuts off a win the engine can prove.
    pub const DEFAULT_NO_CAPTURE_TURNS: u16 = 100;
}

impl Default for DrawRule {
    fn default() -> Self {
        DrawRule { repetitions: 3, no_capture_turns: Self::DEFAULT_NO_CAPTURE_TURNS }
    }
}

/// Every rule option of RULES.md. `Rules::default()` is the default game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    /// The board.
    pub variant: Variant,
    /// Who moves first (ignored in a vela game, where the previous loser starts).
    pub first_player: Side,
    /// The relay restriction.
    pub relay: RelayRule,
    /// The game's very first turn ends after its first capture.
    pub first_turn_no_relay: bool,
    /// The first capturing turn of each player ends after one capturing step.
    pub single_first_capture: bool,
    /// A vela handicap game, if this is one.
    pub vela: Option<Vela>,
    /// Automatic draws.
    pub draw: DrawRule,
}

impl Rules {
    /// The side that makes the first turn.
    pub fn starting_side(&self) -> Side {
        match self.vela {
            Some(v) => v.winner.opponent(),
            None => self.first_player,
        }
    }
}
