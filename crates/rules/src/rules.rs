//! Rule options: every choice RULES.md offers, with its defaults.

use crate::geometry::Variant;
use std::fmt;

/// A player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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

/// What is wrong with one option of a rules tag (see [`Rules::from_tag`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesTagErrorKind {
    /// The word is not of the form `option=value`.
    NotAPair,
    /// No rule option has this name.
    UnknownOption,
    /// The option is given twice.
    Duplicate,
    /// The value is not one the option takes.
    BadValue {
        /// The value found.
        value: String,
        /// The values the option takes, in words.
        expected: &'static str,
    },
    /// `vela-captured` is given but `vela` is `none` or missing.
    VelaCapturedWithoutVela,
}

/// A rules tag could not be read: which option (or word) is wrong and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesTagError {
    /// The option name, or the whole word when it is not an `option=value` pair.
    pub option: String,
    /// The problem.
    pub kind: RulesTagErrorKind,
}

impl fmt::Display for RulesTagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = &self.option;
        match &self.kind {
            RulesTagErrorKind::NotAPair => write!(f, "{o:?} is not a rule option of the form option=value"),
            RulesTagErrorKind::UnknownOption => {
                write!(f, "{o:?} is not a rule option (known: {})", RULE_OPTIONS.join(", "))
            }
            RulesTagErrorKind::Duplicate => write!(f, "the rule option {o:?} is given twice"),
            RulesTagErrorKind::BadValue { value, expected } => {
                write!(f, "the rule option {o:?} has the value {value:?}; expected {expected}")
            }
            RulesTagErrorKind::VelaCapturedWithoutVela => {
                write!(f, "the rule option {o:?} needs vela=white or vela=black")
            }
        }
    }
}

impl std::error::Error for RulesTagError {}

/// Every option name of the rules tag, in the order [`Rules::to_tag`] writes them.
const RULE_OPTIONS: [&str; 8] = [
    "first",
    "relay",
    "first-turn-no-relay",
    "single-first-capture",
    "vela",
    "vela-captured",
    "draw-repetitions",
    "draw-no-capture",
];

impl Rules {
    /// Every rule option except the variant as one line of `option=value` words, e.g.
    /// `first=white relay=default first-turn-no-relay=no single-first-capture=no vela=none draw-repetitions=3
    /// draw-no-capture=100`. `vela-captured=N` follows `vela` in a vela game. The variant is left out because
    /// records give it a tag of its own; [`Rules::from_tag`] reads the text back.
    pub fn to_tag(&self) -> String {
        let yes_no = |b: bool| if b { "yes" } else { "no" };
        let relay = match self.relay {
            RelayRule::Default => "default",
            RelayRule::Lines => "lines",
        };
        let vela = match self.vela {
            None => "vela=none".to_string(),
            Some(v) => format!("vela={} vela-captured={}", v.winner, v.captured),
        };
        format!(
            "first={} relay={relay} first-turn-no-relay={} single-first-capture={} {vela} draw-repetitions={} \
             draw-no-capture={}",
            self.first_player,
            yes_no(self.first_turn_no_relay),
            yes_no(self.single_first_capture),
            self.draw.repetitions,
            self.draw.no_capture_turns,
        )
    }

    /// Reads the text of [`Rules::to_tag`] for a game on `variant`: `option=value` words separated by white space,
    /// in any order. A missing option takes its default, so an empty text gives the default rules; an unknown,
    /// repeated or badly valued option is an error naming it. `draw-repetitions=0` or `draw-no-capture=0` turns
    /// that draw rule off.
    pub fn from_tag(tag: &str, variant: Variant) -> Result<Rules, RulesTagError> {
        let mut rules = Rules { variant, ..Rules::default() };
        let mut seen = [false; RULE_OPTIONS.len()];
        let mut vela_captured = None;
        for word in tag.split_whitespace() {
            let err = |kind| RulesTagError { option: word.to_string(), kind };
            let Some((option, value)) = word.split_once('=') else {
                return Err(err(RulesTagErrorKind::NotAPair));
            };
            let err = |kind| RulesTagError { option: option.to_string(), kind };
            let bad = |expected| err(RulesTagErrorKind::BadValue { value: value.to_string(), expected });
            let Some(index) = RULE_OPTIONS.iter().position(|&o| o == option) else {
                return Err(err(RulesTagErrorKind::UnknownOption));
            };
            if std::mem::replace(&mut seen[index], true) {
                return Err(err(RulesTagErrorKind::Duplicate));
            }
            let side = |v: &str| match v {
                "white" => Some(Side::White),
                "black" => Some(Side::Black),
                _ => None,
            };
            let yes_no = |v: &str| match v {
                "yes" => Some(true),
                "no" => Some(false),
                _ => None,
            };
            match option {
                "first" => rules.first_player = side(value).ok_or_else(|| bad("white or black"))?,
                "relay" => {
                    rules.relay = match value {
                        "default" => RelayRule::Default,
                        "lines" => RelayRule::Lines,
                        _ => return Err(bad("default or lines")),
                    }
                }
                "first-turn-no-relay" => rules.first_turn_no_relay = yes_no(value).ok_or_else(|| bad("yes or no"))?,
                "single-first-capture" => rules.single_first_capture = yes_no(value).ok_or_else(|| bad("yes or no"))?,
                "vela" => {
                    rules.vela = match value {
                        "none" => None,
                        _ => {
                            Some(Vela { winner: side(value).ok_or_else(|| bad("none, white or black"))?, captured: 0 })
                        }
                    }
                }
                "vela-captured" => {
                    vela_captured = Some(value.parse::<u8>().map_err(|_| bad("a number from 0 to 255"))?);
                }
                "draw-repetitions" => {
                    rules.draw.repetitions = value.parse().map_err(|_| bad("a number from 0 (off) to 255"))?;
                }
                "draw-no-capture" => {
                    rules.draw.no_capture_turns = value.parse().map_err(|_| bad("a number from 0 (off) to 65535"))?;
                }
                _ => unreachable!("every name of RULE_OPTIONS is handled"),
            }
        }
        if let Some(captured) = vela_captured {
            match &mut rules.vela {
                Some(v) => v.captured = captured,
                None => {
                    return Err(RulesTagError {
                        option: "vela-captured".to_string(),
                        kind: RulesTagErrorKind::VelaCapturedWithoutVela,
                    });
                }
            }
        }
        Ok(rules)
    }
}
