//! Text formats: positions as FEN, steps and turns in turn notation (`d3-e3A e3-e4W`).

use crate::geometry::{Direction, Variant, coords, parse_point};
use crate::position::{Position, Step, StepKind};
use crate::rules::{Rules, Side};
use crate::turns::Turn;
use std::fmt;
use std::str::FromStr;

/// What is wrong with a FEN string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenErrorKind {
    /// The text is empty.
    Empty,
    /// A character that is not `W`, `B`, a digit 1–9 or `/`.
    BadChar(char),
    /// `0`, or two digits in a row.
    BadDigit,
    /// A rank is longer or shorter than the first rank.
    RankWidth {
        /// Points in this rank.
        got: usize,
        /// Points expected.
        expected: usize,
    },
    /// Ranks must be 9 (Fanoron-Tsivy) or 5 (Fanoron-Dimy) points wide.
    BoardWidth(usize),
    /// There must be exactly five ranks.
    RankCount(usize),
    /// The side to move is missing: the board must be followed by one space and `w` or `b`.
    MissingSide,
    /// The side to move is not `w` or `b`.
    BadSide(String),
    /// Text after the side to move.
    Trailing,
    /// More pieces of one side than the game starts with.
    TooManyPieces(Side),
}

/// A FEN string could not be read: what is wrong and at which byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// Byte offset in the input where the problem was found.
    pub at: usize,
    /// The problem.
    pub kind: FenErrorKind,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid position at character {}: ", self.at + 1)?;
        match &self.kind {
            FenErrorKind::Empty => write!(f, "the position is empty"),
            FenErrorKind::BadChar(c) => {
                write!(f, "unexpected {c:?} (expected W, B, a digit 1-9 or /)")
            }
            FenErrorKind::BadDigit => write!(f, "a run of empty points must be one digit 1-9"),
            FenErrorKind::RankWidth { got, expected } => {
                write!(f, "this rank has {got} points but the first has {expected}")
            }
            FenErrorKind::BoardWidth(w) => write!(f, "ranks have {w} points; they must have 9 (9x5) or 5 (5x5)"),
            FenErrorKind::RankCount(n) => write!(f, "found {n} ranks; there must be 5"),
            FenErrorKind::MissingSide => {
                write!(f, "expected a space and the side to move (w or b)")
            }
            FenErrorKind::BadSide(s) => write!(f, "side to move {s:?} must be w or b"),
            FenErrorKind::Trailing => write!(f, "unexpected text after the side to move"),
            FenErrorKind::TooManyPieces(s) => {
                write!(f, "{s} has more pieces than a game starts with")
            }
        }
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// Reads a FEN (`BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w`) as the start of a game under the
    /// default rules. Ranks run from 5 down to 1; 5-wide ranks mean Fanoron-Dimy.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with_rules(fen, &Rules::default())
    }

    /// Reads a FEN as the start of a game under `rules` (the FEN decides the variant and the side to move).
    pub fn from_fen_with_rules(fen: &str, rules: &Rules) -> Result<Position, FenError> {
        let err = |at, kind| Err(FenError { at, kind });
        if fen.is_empty() {
            return err(0, FenErrorKind::Empty);
        }
        let board_end = fen.find(' ').unwrap_or(fen.len());
        let board = &fen[..board_end];
        // Parse ranks top (5) to bottom (1) into (file, rank-from-top) cells.
        let mut ranks: Vec<(Vec<Option<Side>>, usize)> = Vec::new();
        let mut cur = Vec::new();
        let mut rank_start = 0;
        let mut prev_digit = false;
        for (i, c) in board.char_indices() {
            match c {
                'W' | 'B' => {
                    cur.push(Some(if c == 'W' { Side::White } else { Side::Black }));
                    prev_digit = false;
                }
                '1'..='9' => {
                    if prev_digit {
                        return err(i, FenErrorKind::BadDigit);
                    }
                    cur.extend(std::iter::repeat_n(None, c as usize - '0' as usize));
                    prev_digit = true;
                }
                '0' => return err(i, FenErrorKind::BadDigit),
                '/' => {
                    ranks.push((std::mem::take(&mut cur), rank_start));
                    rank_start = i + 1;
                    prev_digit = false;
                }
                _ => return err(i, FenErrorKind::BadChar(c)),
            }
        }
        ranks.push((cur, rank_start));
        let width = ranks[0].0.len();
        for (r, at) in &ranks[1..] {
            if r.len() != width {
                return err(*at, FenErrorKind::RankWidth { got: r.len(), expected: width });
            }
        }
        let Some(variant) = Variant::from_width(width) else {
            return err(0, FenErrorKind::BoardWidth(width));
        };
        if ranks.len() != variant.height() as usize {
            return err(board_end.min(fen.len()), FenErrorKind::RankCount(ranks.len()));
        }
        let rest = &fen[board_end..];
        let Some(side_text) = rest.strip_prefix(' ') else {
            return err(board_end, FenErrorKind::MissingSide);
        };
        let side_at = board_end + 1;
        let (side_word, trailing) = match side_text.find(' ') {
            Some(i) => (&side_text[..i], Some(side_at + i)),
            None => (side_text, None),
        };
        let side = match side_word {
            "w" => Side::White,
            "b" => Side::Black,
            "" => return err(side_at, FenErrorKind::MissingSide),
            s => return err(side_at, FenErrorKind::BadSide(s.to_string())),
        };
        if let Some(at) = trailing {
            return err(at, FenErrorKind::Trailing);
        }
        let g = variant.geometry();
        let mut bb = [0u64; 2];
        for (top, (cells, _)) in ranks.iter().enumerate() {
            let rank = (g.height as usize - 1 - top) as u8;
            for (file, cell) in cells.iter().enumerate() {
                if let Some(s) = cell {
                    let p = g.point(file as u8, rank).expect("width checked");
                    bb[s.index()] |= 1 << p;
                }
            }
        }
        for s in Side::BOTH {
            if bb[s.index()].count_ones() > variant.start_pieces() {
                return err(0, FenErrorKind::TooManyPieces(s));
            }
        }
        let rules = Rules { variant, ..*rules };
        Ok(Position::from_parts(variant, bb[0], bb[1], side, &rules))
    }

    /// The position as FEN (pieces and side to move; relay state and rule flags are not part of FEN).
    pub fn to_fen(&self) -> String {
        self.to_string()
    }
}

impl Position {
    /// A text drawing of the board with its lines (for terminals and logs), rank 5 at the top.
    pub fn diagram(&self) -> String {
        let g = self.geometry();
        let mut out = String::new();
        for rank in (0..g.height).rev() {
            out.push_str(&format!("{}  ", rank + 1));
            for file in 0..g.width {
                let p = g.point(file, rank).expect("on board");
                out.push(match self.piece_at(p) {
                    Some(Side::White) => 'W',
                    Some(Side::Black) => 'B',
                    None if self.relay_piece() == Some(p) => '*',
                    None => '.',
                });
                if file + 1 < g.width {
                    out.push_str(" - ");
                }
            }
            out.push('\n');
            if rank > 0 {
                out.push_str("   ");
                for file in 0..g.width {
                    out.push('|');
                    if file + 1 < g.width {
                        // The diagonal of each square joins its two strong corners.
                        out.push_str(if (file + rank - 1) % 2 == 0 { " / " } else { " \\ " });
                    }
                }
                out.push('\n');
            }
        }
        out.push_str("   ");
        for file in 0..g.width {
            out.push((b'a' + file) as char);
            if file + 1 < g.width {
                out.push_str("   ");
            }
        }
        out.push('\n');
        out
    }
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Position::from_fen(s)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.geometry();
        for rank in (0..g.height).rev() {
            let mut empty = 0;
            for file in 0..g.width {
                let p = g.point(file, rank).expect("on board");
                match self.piece_at(p) {
                    None => empty += 1,
                    Some(s) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        f.write_str(if s == Side::White { "W" } else { "B" })?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        f.write_str(if self.side_to_move() == Side::White { " w" } else { " b" })
    }
}

/// What is wrong with a step or turn in turn notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationErrorKind {
    /// Nothing to read.
    Empty,
    /// A step must look like `d3-e3`, `d3-e3A` or `d3-e3W`.
    BadStep(String),
    /// Not a point name a1…i5.
    BadPoint(String),
    /// The two points of a step are not neighbours.
    NotAdjacent,
    /// Steps must be separated by single spaces.
    EmptyStep,
}

/// A step or turn could not be read: what is wrong and at which byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    /// Byte offset in the input.
    pub at: usize,
    /// The problem.
    pub kind: NotationErrorKind,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid turn notation at character {}: ", self.at + 1)?;
        match &self.kind {
            NotationErrorKind::Empty => write!(f, "nothing to read"),
            NotationErrorKind::BadStep(s) => {
                write!(f, "{s:?} is not a step (expected from-to with A or W for a capture, e.g. d3-e3A)")
            }
            NotationErrorKind::BadPoint(s) => write!(f, "{s:?} is not a point (a1 to i5)"),
            NotationErrorKind::NotAdjacent => {
                write!(f, "the two points of a step must be neighbours")
            }
            NotationErrorKind::EmptyStep => write!(f, "steps must be separated by single spaces"),
        }
    }
}

impl std::error::Error for NotationError {}

fn parse_step_at(s: &str, at: usize) -> Result<Step, NotationError> {
    let err = |off: usize, kind| Err(NotationError { at: at + off, kind });
    if s.is_empty() {
        return err(0, NotationErrorKind::EmptyStep);
    }
    let (body, kind) = match s.as_bytes()[s.len() - 1] {
        b'A' => (&s[..s.len() - 1], StepKind::Approach),
        b'W' => (&s[..s.len() - 1], StepKind::Withdrawal),
        _ => (s, StepKind::Paika),
    };
    let Some((a, b)) = body.split_once('-') else {
        return err(0, NotationErrorKind::BadStep(s.to_string()));
    };
    let Some(from) = parse_point(a) else {
        return err(0, NotationErrorKind::BadPoint(a.to_string()));
    };
    let Some(to) = parse_point(b) else {
        return err(a.len() + 1, NotationErrorKind::BadPoint(b.to_string()));
    };
    let (ff, fr) = coords(from);
    let (tf, tr) = coords(to);
    let Some(dir) = Direction::from_offset(tf as i8 - ff as i8, tr as i8 - fr as i8) else {
        return err(0, NotationErrorKind::NotAdjacent);
    };
    Ok(Step { from, to, dir, kind })
}

impl FromStr for Step {
    type Err = NotationError;
    /// Reads one step (`d3-e3`, `d3-e3A`, `d3-e3W`). Whether it is legal is the position's business.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.is_empty() {
            return Err(NotationError { at: 0, kind: NotationErrorKind::Empty });
        }
        parse_step_at(s, 0)
    }
}

impl FromStr for Turn {
    type Err = NotationError;
    /// Reads a turn: steps separated by single spaces (surrounding white space is ignored).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lead = s.len() - s.trim_start().len();
        let t = s.trim();
        if t.is_empty() {
            return Err(NotationError { at: 0, kind: NotationErrorKind::Empty });
        }
        let mut steps = Vec::new();
        let mut at = lead;
        for word in t.split(' ') {
            steps.push(parse_step_at(word, at)?);
            at += word.len() + 1;
        }
        Ok(Turn::new(steps))
    }
}

/// A turn in serde formats is its notation (`d3-e3A e3-e4W`), read back as [`Turn::from_str`] reads it.
#[cfg(feature = "serde")]
impl serde::Serialize for Turn {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Turn {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Turn, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "serde")]
    #[test]
    fn turns_travel_as_their_notation() {
        let turn: Turn = "d3-e3A e3-e4W".parse().unwrap();
        let json = serde_json::to_string(&turn).unwrap();
        assert_eq!(json, r#""d3-e3A e3-e4W""#);
        assert_eq!(serde_json::from_str::<Turn>(&json).unwrap(), turn);
        assert!(serde_json::from_str::<Turn>(r#""z9-e3A""#).is_err());
        assert!(serde_json::from_str::<Turn>("17").is_err());
    }

    const START: &str = "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w";

    #[test]
    fn start_fen_round_trips() {
        let p = Position::start(&Rules::default());
        assert_eq!(p.to_fen(), START);
        assert_eq!(Position::from_fen(START).unwrap(), p);
        let d = Position::start(&Rules { variant: Variant::Dimy, ..Rules::default() });
        assert_eq!(d.to_fen(), "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w");
        assert_eq!(Position::from_fen(&d.to_fen()).unwrap(), d);
    }

    #[test]
    fn diagram_shows_lines_and_pieces() {
        let d = Position::start(&Rules::default()).diagram();
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines[0], "5  B - B - B - B - B - B - B - B - B");
        // a4 is weak and b4 strong, so the square a4-b5 has the diagonal b4-a5, drawn "\\".
        assert_eq!(lines[1], "   | \\ | / | \\ | / | \\ | / | \\ | / |");
        assert_eq!(lines[4], "3  B - W - B - W - . - B - W - B - W");
        assert_eq!(lines[9], "   a   b   c   d   e   f   g   h   i");
    }

    #[test]
    fn fen_errors_say_what_and_where() {
        let cases: &[(&str, usize)] = &[
            ("", 0),
            ("BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW", 49),
            ("BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW x", 50),
            ("BBBBBBBBB/BBBBBBBBB/BWBW1BWBX/WWWWWWWWW/WWWWWWWWW w", 28),
            ("BBBBBBBBB/BBBBBBBBB/BWBW11WBW/WWWWWWWWW/WWWWWWWWW w", 25),
            ("BBBBBBBBB/BBBBBBBBB/BWBW0BWBW/WWWWWWWWW/WWWWWWWWW w", 24),
            ("BBBBBBBBB/BBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w", 10),
            ("BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW w", 39),
            ("BBBBBBB/BBBBBBB/BWB1BWB/WWWWWWW/WWWWWWW w", 0),
            ("BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w extra", 51),
            ("BBBBBBBBB/BBBBBBBBB/WWWWWWWWW/WWWWWWWWW/WWWWWWWWW w", 0),
        ];
        for &(fen, at) in cases {
            let e = Position::from_fen(fen).unwrap_err();
            assert_eq!(e.at, at, "{fen}: {e}");
            assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn steps_and_turns_round_trip() {
        for s in ["d3-e3A", "e3-e4W", "a1-b2", "i5-h4A"] {
            assert_eq!(s.parse::<Step>().unwrap().to_string(), s);
        }
        let t: Turn = "d3-e3A e3-e4W".parse().unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(t.to_string(), "d3-e3A e3-e4W");
        assert_eq!("a1-c1".parse::<Step>().unwrap_err().kind, NotationErrorKind::NotAdjacent);
        assert_eq!("j1-i1".parse::<Step>().unwrap_err().kind, NotationErrorKind::BadPoint("j1".into()));
        assert_eq!("d3-e3A  e3-e4W".parse::<Turn>().unwrap_err().at, 7);
        assert_eq!("d3e3".parse::<Step>().unwrap_err().kind, NotationErrorKind::BadStep("d3e3".into()));
        assert!("".parse::<Turn>().is_err());
        assert!("a1-a1".parse::<Step>().is_err());
    }
}
