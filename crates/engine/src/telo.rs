//! Fanoron-Telo, the 3 × 3 game: three pieces each, placed then moved, three in a row wins. Solved completely
//! by retrograde analysis; a perfect player and a gentle one.
//!
//! # Rules as played here
//!
//! RULES.md gives the outline (3 × 3, three pieces each, placed then moved along the lines, three in a row wins,
//! no captures); where it is silent this module decides, as the main game does:
//!
//! - The board is the Fanorona grid in small: points a1…c3 (file a–c, rank 1–3), joined orthogonally, and the
//!   strong points (the corners and the centre b2, where file + rank is even) also diagonally. So the lines are
//!   the three ranks, the three files and the two diagonals, and a corner's neighbours are its two edge points
//!   and the centre.
//! - White starts. While a player has placed fewer than three pieces, their turn is to place one on any empty
//!   point; then each turn moves one of their pieces one step along a line to an adjacent empty point.
//! - Three of one's own pieces on a line (rank, file or diagonal) win at once, during placement too.
//! - A player with no legal turn loses (as in the main game).
//! - Draw by the third occurrence of the same position with the same player to move ([`TeloGame`]). The solved
//!   values are those of unlimited play, where a game that never ends is a draw: a winning side following
//!   [`perfect_move`] takes the shortest win and never repeats a position, so the repetition rule never takes a
//!   proven win away.
//!
//! # Notation
//!
//! A position is three ranks from rank 3 down to rank 1, each three characters (`W`, `B` or `.` for empty),
//! separated by `/`, then a space and the side to move (`w` or `b`): the start is `.../.../... w`. A placement is
//! the point (`b2`), a step is `from-to` (`a1-b2`).

use crate::rules::Side;
use rand::Rng;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// The eight lines of three points (bit `3 · rank + file`).
const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

/// Neighbours of each point along the board's lines.
const NEIGHBOURS: [u16; 9] = {
    let mut n = [0u16; 9];
    let mut p = 0usize;
    while p < 9 {
        let (x, y) = ((p % 3) as i32, (p / 3) as i32);
        let mut q = 0usize;
        while q < 9 {
            let (u, v) = ((q % 3) as i32, (q / 3) as i32);
            let (dx, dy) = ((u - x).abs(), (v - y).abs());
            let orthogonal = dx + dy == 1;
            let diagonal = dx == 1 && dy == 1 && (x + y) % 2 == 0;
            if orthogonal || diagonal {
                n[p] |= 1 << q;
            }
            q += 1;
        }
        p += 1;
    }
    n
};

/// Pieces each player places.
pub const PIECES: u32 = 3;

/// A Fanoron-Telo position: where the pieces stand and who is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TeloPosition {
    white: u16,
    black: u16,
    side: Side,
}

/// A turn: placing a piece, or stepping one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TeloMove {
    /// Place a piece on this point (0..9, `3 · rank + file`).
    Place(u8),
    /// Step a piece from a point to an adjacent empty one.
    Step {
        /// Origin.
        from: u8,
        /// Destination.
        to: u8,
    },
}

/// Why a position, a move or a turn was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TeloError {
    /// The position text is not three ranks of `W`, `B`, `.` and a side.
    BadPosition(String),
    /// The position cannot arise: more than three pieces a side, or a placement order that does not fit the
    /// side to move.
    Impossible,
    /// The move text is not a point or `from-to`.
    BadMove(String),
    /// The move is not legal here.
    Illegal(TeloMove),
    /// The game is over.
    GameOver,
}

impl fmt::Display for TeloError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TeloError::BadPosition(s) => write!(f, "not a Fanoron-Telo position: {s:?} (e.g. \".../.W./... b\")"),
            TeloError::Impossible => write!(f, "this position cannot arise in a game"),
            TeloError::BadMove(s) => {
                write!(f, "not a Fanoron-Telo move: {s:?} (a point like b2, or a step like a1-b2)")
            }
            TeloError::Illegal(m) => write!(f, "{m} is not legal here"),
            TeloError::GameOver => write!(f, "the game is over"),
        }
    }
}

impl std::error::Error for TeloError {}

fn point_name(p: u8) -> String {
    format!("{}{}", (b'a' + p % 3) as char, p / 3 + 1)
}

fn parse_point(s: &str) -> Option<u8> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'a'..=b'c').contains(&b[0]) || !(b'1'..=b'3').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') * 3 + (b[0] - b'a'))
}

impl fmt::Display for TeloMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TeloMove::Place(p) => f.write_str(&point_name(p)),
            TeloMove::Step { from, to } => write!(f, "{}-{}", point_name(from), point_name(to)),
        }
    }
}

impl FromStr for TeloMove {
    type Err = TeloError;

    fn from_str(s: &str) -> Result<TeloMove, TeloError> {
        let t = s.trim();
        let bad = || TeloError::BadMove(s.to_string());
        match t.split_once('-') {
            Some((a, b)) => {
                Ok(TeloMove::Step { from: parse_point(a).ok_or_else(bad)?, to: parse_point(b).ok_or_else(bad)? })
            }
            None => Ok(TeloMove::Place(parse_point(t).ok_or_else(bad)?)),
        }
    }
}

impl Default for TeloPosition {
    fn default() -> Self {
        TeloPosition::start()
    }
}

impl TeloPosition {
    /// The empty board, White to place.
    pub fn start() -> TeloPosition {
        TeloPosition { white: 0, black: 0, side: Side::White }
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The pieces of `side` (bit `3 · rank + file`).
    pub fn pieces(&self, side: Side) -> u16 {
        match side {
            Side::White => self.white,
            Side::Black => self.black,
        }
    }

    /// Who stands on point `p` (0..9).
    pub fn piece_at(&self, p: u8) -> Option<Side> {
        let b = 1u16.checked_shl(p as u32)?;
        if self.white & b != 0 {
            Some(Side::White)
        } else if self.black & b != 0 {
            Some(Side::Black)
        } else {
            None
        }
    }

    /// Whether the side to move still places pieces.
    pub fn placing(&self) -> bool {
        self.pieces(self.side).count_ones() < PIECES
    }

    fn has_line(bits: u16) -> bool {
        LINES.iter().any(|&l| l & !bits == 0)
    }

    /// The winner if the game is over: three in a row, or the side to move without a legal turn.
    pub fn winner(&self) -> Option<Side> {
        for side in [self.side.opponent(), self.side] {
            if Self::has_line(self.pieces(side)) {
                return Some(side);
            }
        }
        self.moves_unchecked().is_empty().then(|| self.side.opponent())
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.winner().is_some()
    }

    fn moves_unchecked(&self) -> Vec<TeloMove> {
        let empty = !(self.white | self.black) & 0o777;
        let mut out = Vec::new();
        if self.placing() {
            out.extend((0..9u8).filter(|&p| empty & 1 << p != 0).map(TeloMove::Place));
        } else {
            for from in (0..9u8).filter(|&p| self.pieces(self.side) & 1 << p != 0) {
                let targets = NEIGHBOURS[from as usize] & empty;
                out.extend((0..9u8).filter(|&q| targets & 1 << q != 0).map(|to| TeloMove::Step { from, to }));
            }
        }
        out
    }

    /// Every legal turn (none once the game is over).
    pub fn legal_moves(&self) -> Vec<TeloMove> {
        if Self::has_line(self.white) || Self::has_line(self.black) {
            return Vec::new();
        }
        self.moves_unchecked()
    }

    /// Plays a turn, or says why it is refused (the position is then unchanged).
    pub fn play(&mut self, m: TeloMove) -> Result<(), TeloError> {
        if self.is_over() {
            return Err(TeloError::GameOver);
        }
        if !self.legal_moves().contains(&m) {
            return Err(TeloError::Illegal(m));
        }
        let own = match self.side {
            Side::White => &mut self.white,
            Side::Black => &mut self.black,
        };
        match m {
            TeloMove::Place(p) => *own |= 1 << p,
            TeloMove::Step { from, to } => *own = (*own & !(1 << from)) | 1 << to,
        }
        self.side = self.side.opponent();
        Ok(())
    }

    /// The position after `m`, if legal.
    pub fn after(&self, m: TeloMove) -> Option<TeloPosition> {
        let mut c = *self;
        c.play(m).ok()?;
        Some(c)
    }

    /// Whether this position can arise in a game: at most three pieces a side, no overlap, and during placement
    /// White has placed as many pieces as Black (White to move) or one more (Black to move).
    pub fn is_possible(&self) -> bool {
        let (w, b) = (self.white.count_ones(), self.black.count_ones());
        if self.white & self.black != 0 || (self.white | self.black) > 0o777 || w > PIECES || b > PIECES {
            return false;
        }
        if w == PIECES && b == PIECES {
            return true;
        }
        match self.side {
            Side::White => w == b,
            Side::Black => w == b + 1,
        }
    }

    fn index(&self) -> usize {
        let mut code = 0usize;
        for p in (0..9).rev() {
            code = code * 3 + usize::from(self.white & 1 << p != 0) + 2 * usize::from(self.black & 1 << p != 0);
        }
        code * 2 + self.side.index()
    }

    fn from_index(i: usize) -> TeloPosition {
        let side = if i.is_multiple_of(2) { Side::White } else { Side::Black };
        let mut code = i / 2;
        let (mut white, mut black) = (0, 0);
        for p in 0..9 {
            match code % 3 {
                1 => white |= 1 << p,
                2 => black |= 1 << p,
                _ => {}
            }
            code /= 3;
        }
        TeloPosition { white, black, side }
    }
}

impl fmt::Display for TeloPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..3u8).rev() {
            for file in 0..3u8 {
                f.write_str(match self.piece_at(rank * 3 + file) {
                    Some(Side::White) => "W",
                    Some(Side::Black) => "B",
                    None => ".",
                })?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        f.write_str(if self.side == Side::White { " w" } else { " b" })
    }
}

impl FromStr for TeloPosition {
    type Err = TeloError;

    fn from_str(s: &str) -> Result<TeloPosition, TeloError> {
        let bad = || TeloError::BadPosition(s.to_string());
        let (board, side) = s.trim().split_once(' ').ok_or_else(bad)?;
        let side = match side.trim() {
            "w" => Side::White,
            "b" => Side::Black,
            _ => return Err(bad()),
        };
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 3 {
            return Err(bad());
        }
        let (mut white, mut black) = (0u16, 0u16);
        for (i, rank) in ranks.iter().enumerate() {
            let y = 2 - i as u16;
            if rank.chars().count() != 3 {
                return Err(bad());
            }
            for (x, c) in rank.chars().enumerate() {
                let bit = 1 << (y * 3 + x as u16);
                match c {
                    'W' => white |= bit,
                    'B' => black |= bit,
                    '.' => {}
                    _ => return Err(bad()),
                }
            }
        }
        let p = TeloPosition { white, black, side };
        if p.is_possible() { Ok(p) } else { Err(TeloError::Impossible) }
    }
}

/// The value of a position for the side to move under perfect play (distances in turns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TeloValue {
    /// The side to move wins in this many turns (its own last turn included; odd).
    Win(u32),
    /// Neither side can force a win.
    Draw,
    /// The side to move loses after this many turns (even; 0: already lost).
    Loss(u32),
}

impl TeloValue {
    /// Ranks values for the side choosing: faster wins first, then draws, then longer losses.
    fn rank(self) -> i64 {
        match self {
            TeloValue::Win(d) => 1_000 - d as i64,
            TeloValue::Draw => 0,
            TeloValue::Loss(d) => -1_000 + d as i64,
        }
    }

    /// The value for the player who moves into a position worth `self` to the opponent.
    pub fn after_move(self) -> TeloValue {
        match self {
            TeloValue::Win(d) => TeloValue::Loss(d + 1),
            TeloValue::Draw => TeloValue::Draw,
            TeloValue::Loss(d) => TeloValue::Win(d + 1),
        }
    }
}

/// The complete solution: the value of every possible position.
pub struct TeloSolution {
    values: Vec<TeloValue>,
}

impl TeloSolution {
    /// Solves the game by retrograde analysis: decided positions first, then repeatedly every position whose
    /// successors settle it (a win if some move leads to an opponent's loss, a loss if every move leads to an
    /// opponent's win), with exact distances; what is never settled is a draw. About 40,000 positions.
    pub fn solve() -> TeloSolution {
        const N: usize = 19_683 * 2;
        let mut values: Vec<Option<TeloValue>> = vec![None; N];
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); N];
        for (i, v) in values.iter_mut().enumerate() {
            let p = TeloPosition::from_index(i);
            if !p.is_possible() {
                continue;
            }
            if p.is_over() {
                // Whoever has three in a row (or a player without a move) has settled the game.
                *v = Some(if p.winner() == Some(p.side) { TeloValue::Win(0) } else { TeloValue::Loss(0) });
            } else {
                children[i] = p.legal_moves().iter().filter_map(|&m| p.after(m)).map(|c| c.index()).collect();
            }
        }
        // Distance by distance: positions settled at distance d are found once all shorter ones are known, so
        // every win is the fastest and every loss the longest.
        // Round d settles the positions at distance d + 1; two quiet rounds in a row mean nothing more can be
        // settled (a win needs a loss one shorter, a loss needs wins no longer).
        let mut quiet = 0;
        let mut d = 0u32;
        while quiet < 2 {
            let mut next = Vec::new();
            for (i, kids) in children.iter().enumerate() {
                if values[i].is_some() || kids.is_empty() {
                    continue;
                }
                if d.is_multiple_of(2) && kids.iter().any(|&k| values[k] == Some(TeloValue::Loss(d))) {
                    next.push((i, TeloValue::Win(d + 1)));
                } else if d % 2 == 1 && kids.iter().all(|&k| matches!(values[k], Some(TeloValue::Win(w)) if w <= d)) {
                    next.push((i, TeloValue::Loss(d + 1)));
                }
            }
            quiet = if next.is_empty() { quiet + 1 } else { 0 };
            for (i, v) in next {
                values[i] = Some(v);
            }
            d += 1;
        }
        TeloSolution { values: values.into_iter().map(|v| v.unwrap_or(TeloValue::Draw)).collect() }
    }

    /// The value of `pos` for its side to move (None for a position that cannot arise).
    pub fn value(&self, pos: &TeloPosition) -> Option<TeloValue> {
        pos.is_possible().then(|| self.values[pos.index()])
    }
}

/// The solution, computed at first use (a few milliseconds) and shared.
pub fn solution() -> &'static TeloSolution {
    static S: OnceLock<TeloSolution> = OnceLock::new();
    S.get_or_init(TeloSolution::solve)
}

/// Every legal move with its value for the mover, best first.
pub fn scored_moves(pos: &TeloPosition) -> Vec<(TeloMove, TeloValue)> {
    let sol = solution();
    let mut out: Vec<(TeloMove, TeloValue)> =
        pos.legal_moves().into_iter().filter_map(|m| Some((m, sol.value(&pos.after(m)?)?.after_move()))).collect();
    out.sort_by_key(|(m, v)| (std::cmp::Reverse(v.rank()), *m));
    out
}

/// A perfect move: the fastest win, else a draw, else the longest loss (the first such in move order). None
/// when the game is over or the position cannot arise.
pub fn perfect_move(pos: &TeloPosition) -> Option<TeloMove> {
    if !pos.is_possible() {
        return None;
    }
    scored_moves(pos).first().map(|x| x.0)
}

/// The gentle level, for beginners: it always takes a win on the spot and never allows one it could prevent
/// (a move after which the opponent wins at once is played only when every move does that), but otherwise
/// plays a random move a third of the time (among the moves that do not lose at once), so that a beginner can
/// beat it even when it started.
pub fn kind_move(pos: &TeloPosition, rng: &mut impl Rng) -> Option<TeloMove> {
    if !pos.is_possible() {
        return None;
    }
    let moves = scored_moves(pos);
    let (best, _) = *moves.first()?;
    if matches!(moves[0].1, TeloValue::Win(1)) || rng.random_range(0..3) != 0 {
        return Some(best);
    }
    let safe: Vec<TeloMove> = moves
        .iter()
        .filter(|(m, _)| {
            pos.after(*m).is_some_and(|c| {
                !c.legal_moves().iter().any(|&r| c.after(r).is_some_and(|cc| cc.winner() == Some(c.side)))
            })
        })
        .map(|x| x.0)
        .collect();
    if safe.is_empty() { Some(best) } else { Some(safe[rng.random_range(0..safe.len())]) }
}

/// How a game of Fanoron-Telo ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TeloOutcome {
    /// This side won (three in a row, or the other side could not move).
    Win(Side),
    /// The same position occurred a third time with the same player to move.
    Repetition,
}

/// A game in progress, with the repetition rule.
#[derive(Clone, Debug, Default)]
pub struct TeloGame {
    position: TeloPosition,
    history: Vec<TeloPosition>,
    moves: Vec<TeloMove>,
}

impl TeloGame {
    /// A new game.
    pub fn new() -> TeloGame {
        TeloGame::default()
    }

    /// The current position.
    pub fn position(&self) -> &TeloPosition {
        &self.position
    }

    /// The moves so far.
    pub fn moves(&self) -> &[TeloMove] {
        &self.moves
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<TeloOutcome> {
        if let Some(w) = self.position.winner() {
            return Some(TeloOutcome::Win(w));
        }
        let seen = self.history.iter().filter(|&&p| p == self.position).count();
        (seen >= 2).then_some(TeloOutcome::Repetition)
    }

    /// Plays a move, or says why not.
    pub fn play(&mut self, m: TeloMove) -> Result<(), TeloError> {
        if self.outcome().is_some() {
            return Err(TeloError::GameOver);
        }
        let before = self.position;
        self.position.play(m)?;
        self.history.push(before);
        self.moves.push(m);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    #[test]
    fn the_board_has_the_fanorona_lines() {
        // A corner joins its two edge neighbours and the centre; an edge point has no diagonals.
        assert_eq!(NEIGHBOURS[0], 0b000_011_010);
        assert_eq!(NEIGHBOURS[1], 0b000_010_101);
        assert_eq!(NEIGHBOURS[4], 0o757);
        assert_eq!(LINES.len(), 8);
    }

    #[test]
    fn notation_round_trips_and_rejects_nonsense() {
        let p: TeloPosition = "W.B/.W./BW. b".parse().unwrap();
        assert_eq!(p.to_string(), "W.B/.W./BW. b");
        assert_eq!(TeloPosition::start().to_string(), ".../.../... w");
        for bad in ["", "W.B/.W. b", "W.X/.W./B.. b", "W.B/.W./B.. x", "WWWW/.../... w", "W../.../... w"] {
            assert!(bad.parse::<TeloPosition>().is_err(), "{bad}");
        }
        assert_eq!("b2".parse::<TeloMove>(), Ok(TeloMove::Place(4)));
        assert_eq!("a1-b2".parse::<TeloMove>(), Ok(TeloMove::Step { from: 0, to: 4 }));
        assert_eq!("a1-b2".parse::<TeloMove>().unwrap().to_string(), "a1-b2");
        for bad in ["", "d1", "a4", "a1-", "a1b2", "é1"] {
            assert!(bad.parse::<TeloMove>().is_err(), "{bad}");
        }
    }

    #[test]
    fn moves_follow_the_rules() {
        let mut p = TeloPosition::start();
        assert_eq!(p.legal_moves().len(), 9);
        for m in ["b2", "a1", "c1", "a3", "b1", "b3"] {
            p.play(m.parse().unwrap()).unwrap();
        }
        // White b2, c1, b1; Black a1, a3, b3: White to step. a2 is empty: b1-a2? b1 is weak, no diagonal.
        assert!(!p.placing());
        assert_eq!(p.play("b1-a2".parse().unwrap()), Err(TeloError::Illegal(TeloMove::Step { from: 1, to: 3 })));
        assert!(p.play("b2-a2".parse().unwrap()).is_ok());
        assert_eq!(p.play("b2".parse().unwrap()), Err(TeloError::Illegal(TeloMove::Place(4))));
        // Three in a row during placement ends the game.
        let mut q = TeloPosition::start();
        for m in ["a1", "a3", "b2", "b3", "c3"] {
            q.play(m.parse().unwrap()).unwrap();
        }
        assert_eq!(q.winner(), Some(Side::White));
        assert!(q.legal_moves().is_empty());
        assert_eq!(q.play("c1".parse().unwrap()), Err(TeloError::GameOver));
    }

    #[test]
    fn the_solution_is_consistent() {
        let sol = solution();
        let mut counted = [0usize; 3];
        for i in 0..19_683 * 2 {
            let p = TeloPosition::from_index(i);
            let Some(v) = sol.value(&p) else { continue };
            let kids: Vec<TeloValue> =
                p.legal_moves().iter().map(|&m| sol.value(&p.after(m).unwrap()).unwrap().after_move()).collect();
            match v {
                TeloValue::Win(0) | TeloValue::Loss(0) => assert!(p.is_over(), "{p}"),
                TeloValue::Win(d) => {
                    counted[0] += 1;
                    assert!(kids.contains(&TeloValue::Win(d)), "{p}: a winning child");
                    assert!(kids.iter().all(|k| k.rank() <= TeloValue::Win(d).rank()), "{p}: none faster");
                }
                TeloValue::Loss(d) => {
                    counted[2] += 1;
                    assert!(kids.iter().all(|k| matches!(k, TeloValue::Loss(x) if *x <= d)), "{p}");
                    assert!(kids.contains(&TeloValue::Loss(d)), "{p}");
                }
                TeloValue::Draw => {
                    counted[1] += 1;
                    assert!(!p.is_over());
                    assert!(kids.iter().all(|k| !matches!(k, TeloValue::Win(_))), "{p}: a draw cannot win");
                    assert!(kids.contains(&TeloValue::Draw), "{p}: a draw keeps the draw");
                }
            }
        }
        assert!(counted.iter().all(|&c| c > 100), "{counted:?}");
    }

    #[test]
    fn the_start_is_worth_what_the_solver_says_and_perfect_play_keeps_it() {
        let v = solution().value(&TeloPosition::start()).unwrap();
        // Perfect against perfect: the result is the start's value.
        let mut g = TeloGame::new();
        while g.outcome().is_none() && g.moves().len() < 200 {
            g.play(perfect_move(g.position()).unwrap()).unwrap();
        }
        match v {
            TeloValue::Win(d) => {
                assert_eq!((g.outcome(), g.moves().len()), (Some(TeloOutcome::Win(Side::White)), d as usize))
            }
            TeloValue::Loss(d) => {
                assert_eq!((g.outcome(), g.moves().len()), (Some(TeloOutcome::Win(Side::Black)), d as usize))
            }
            TeloValue::Draw => assert_eq!(g.outcome(), Some(TeloOutcome::Repetition)),
        }
    }

    /// Win, draw or loss, ordered.
    fn class(v: TeloValue) -> i32 {
        match v {
            TeloValue::Win(_) => 1,
            TeloValue::Draw => 0,
            TeloValue::Loss(_) => -1,
        }
    }

    #[test]
    fn perfect_play_never_gives_anything_away() {
        // The start is a first-player win (place on the centre): perfect White always wins; perfect Black can only
        // lose a game the opponent had won already, and always takes what the opponent's errors give.
        assert_eq!(solution().value(&TeloPosition::start()), Some(TeloValue::Win(9)));
        let sol = solution();
        let mut rng = SmallRng::seed_from_u64(7);
        let mut black_results = [0usize; 3];
        for game in 0..600u64 {
            let perfect_side = if game % 2 == 0 { Side::White } else { Side::Black };
            let random_opponent = game % 4 < 2;
            let mut g = TeloGame::new();
            let mut classes = Vec::new();
            while g.outcome().is_none() && g.moves().len() < 300 {
                let p = *g.position();
                let m = if p.side_to_move() == perfect_side {
                    classes.push(class(sol.value(&p).unwrap()));
                    perfect_move(&p).unwrap()
                } else if random_opponent {
                    let moves = p.legal_moves();
                    moves[rng.random_range(0..moves.len())]
                } else {
                    kind_move(&p, &mut rng).unwrap()
                };
                g.play(m).unwrap();
            }
            // The perfect side's prospects never get worse on its own turns, and the result is the last of them.
            assert!(classes.windows(2).all(|w| w[1] >= w[0]), "game {game}: {:?} {classes:?}", g.moves());
            let result = match g.outcome() {
                Some(TeloOutcome::Win(s)) if s == perfect_side => 1,
                Some(TeloOutcome::Win(_)) => -1,
                Some(TeloOutcome::Repetition) => 0,
                None => panic!("game {game} did not end"),
            };
            assert_eq!(result, *classes.last().unwrap(), "game {game}: {:?}", g.moves());
            if perfect_side == Side::White {
                assert_eq!(result, 1, "game {game}");
            } else {
                black_results[(result + 1) as usize] += 1;
            }
        }
        // Random play gives its wins away, the gentle level less often.
        assert!(black_results[2] > 100, "{black_results:?}");
    }

    #[test]
    fn kind_takes_a_win_and_stops_one() {
        let mut rng = SmallRng::seed_from_u64(3);
        // White to place with a1 and b2: c3 wins at once.
        let p: TeloPosition = "B../.W./W.B w".parse().unwrap();
        for _ in 0..50 {
            assert_eq!(kind_move(&p, &mut rng), Some(TeloMove::Place(8)));
        }
        // Black to place must block c3 (White threatens a1-b2-c3); every other placement loses at once.
        let q: TeloPosition = "B../.W./W.. b".parse().unwrap();
        for _ in 0..50 {
            assert_eq!(kind_move(&q, &mut rng), Some(TeloMove::Place(8)));
        }
        assert_eq!(kind_move(&"WWW/BB./B.. b".parse().unwrap(), &mut rng), None);
    }
}
