//! The table in memory ([`Tablebase`], its entries owned or mapped) and what it answers: a position's value, a
//! turn that realises it, the longest win, the search's oracle, and random positions of a given value.

use super::index::{Indexer, own_to_move};
use super::value::TbValue;
use crate::geometry::Variant;
use crate::position::Position;
use crate::rules::{RelayRule, Rules, Side};
use crate::turns::Turn;
use std::fmt;
use std::sync::Arc;

/// An endgame tablebase for one board: the exact value of every position with up to [`Tablebase::max_pieces`]
/// pieces in total.
#[derive(Clone)]
pub struct Tablebase {
    /// Where each position's entry is.
    pub(super) ix: Indexer,
    /// One byte per entry ([`TbValue::decode`]).
    pub(super) data: Entries,
    /// The table of the positions with one piece more, when one is joined (the compact seven-piece table,
    /// [`Tablebase::with_seven`]).
    pub(super) top: Option<Arc<dyn Top>>,
}

/// A table of the positions of one piece more than a table's own entries, joined to it: the compact seven-piece
/// table, which lives below this file.
pub(super) trait Top: Send + Sync {
    /// The value of (own, opp) with `own` to move, None when it cannot be read.
    fn probe(&self, own: u64, opp: u64) -> Option<TbValue>;
}

/// Where a table's entries live: in memory the program owns (built, or read from a file), or mapped from its
/// cached file. Mapping skips the copy: a cached six-piece table (563 MB) loads in about a third of the time of
/// reading it, and engines that run at once share its pages instead of each holding a copy.
pub(super) enum Entries {
    Owned(Vec<u8>),
    #[cfg(not(target_arch = "wasm32"))]
    Mapped(memmap2::Mmap),
}

impl Entries {
    /// The entries.
    fn slice(&self) -> &[u8] {
        match self {
            Entries::Owned(v) => v,
            #[cfg(not(target_arch = "wasm32"))]
            Entries::Mapped(m) => m,
        }
    }
}

impl std::ops::Deref for Entries {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.slice()
    }
}

impl Clone for Entries {
    fn clone(&self) -> Entries {
        Entries::Owned(self.slice().to_vec())
    }
}

impl PartialEq for Entries {
    fn eq(&self, other: &Entries) -> bool {
        self.slice() == other.slice()
    }
}

impl fmt::Debug for Entries {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} entries", self.slice().len())
    }
}

impl fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebase")
            .field("variant", &self.ix.variant)
            .field("max_pieces", &self.ix.max)
            .field("entries", &self.data.len())
            .finish()
    }
}

impl Tablebase {
    /// The board.
    pub fn variant(&self) -> Variant {
        self.ix.variant
    }

    /// The most pieces (both sides together) a position may have to be in the table: one more than the table's
    /// own entries when it is joined with the compact seven-piece table.
    pub fn max_pieces(&self) -> u32 {
        self.ix.max + self.top.is_some() as u32
    }

    /// Number of stored entries (positions relative to the side to move).
    pub fn entries(&self) -> usize {
        self.data.len()
    }

    /// The exact value of a position for its side to move; `None` when the table does not cover it: another
    /// board, more pieces than [`Tablebase::max_pieces`], a relay in progress, or rules other than the defaults
    /// (another relay rule, vela, a first-turn option that still applies).
    pub fn probe(&self, pos: &Position) -> Option<TbValue> {
        // The search probes every node: rule out the common cases cheaply first.
        let s = pos.side_to_move();
        let (own, opp) = (pos.pieces(s), pos.pieces(s.opponent()));
        let n = own.count_ones() + opp.count_ones();
        if n > self.max_pieces() || pos.in_relay() || !self.covers_rules(pos) {
            return None;
        }
        if n > self.ix.max {
            return self.top.as_ref()?.probe(own, opp);
        }
        Some(TbValue::decode(self.data[self.ix.global(own, opp)]))
    }

    /// Whether the position's rules give every turn from here the same options as the default rules.
    fn covers_rules(&self, pos: &Position) -> bool {
        let r = pos.rules();
        pos.variant() == self.ix.variant
            && r.relay == RelayRule::Default
            && r.vela.is_none()
            && !(r.first_turn_no_relay && pos.is_first_turn())
            && !(r.single_first_capture && !(pos.has_captured(Side::White) && pos.has_captured(Side::Black)))
    }

    /// A turn that realises the position's value and that value (for the side to move): the fastest win, the
    /// longest loss, or a drawing turn. Works in the middle of a relay too: the turn then completes the relay, and
    /// an empty turn means stopping at once. Also works where the position itself is not covered but its
    /// successors are (more pieces than the table but only captures, or a first turn under a first-turn option).
    /// `None` when there is no legal turn (the side to move has lost) or some successor is not in the table.
    pub fn best_turn(&self, pos: &Position) -> Option<(Turn, TbValue)> {
        let mut best: Option<(Turn, TbValue)> = None;
        for turn in pos.legal_turns() {
            let mut child = *pos;
            if turn.is_empty() {
                // In a relay, the empty completion is stopping at once.
                child.stop_relay();
            } else {
                child.play_turn(&turn).ok()?;
            }
            let v = self.probe(&child)?.after_turn();
            if best.as_ref().is_none_or(|(_, b)| v > *b) {
                best = Some((turn, v));
            }
        }
        best
    }

    /// The longest forced win in the table and a position (White to move) that has it; `None` if no position is
    /// won (only with fewer than one piece).
    pub fn longest_win(&self) -> Option<(u32, Position)> {
        // Wins are stored as even bytes (distance + 1 with an odd distance).
        // Two plain scans (the first vectorises) rather than one with indices: a second instead of several on
        // the 6-piece table.
        let byte = self.data.iter().map(|&b| if b % 2 == 0 { b } else { 0 }).max().filter(|&b| b != 0)?;
        let at = self.data.iter().position(|&b| b == byte).expect("the byte was just found");
        let (a, b) = self.ix.class_of(at);
        let (own, opp) = self.ix.unindex(a, b, at - self.ix.offset(a, b));
        Some((byte as u32 - 1, own_to_move(self.ix.variant, own, opp)))
    }
}

impl crate::score::Oracle for Tablebase {
    fn score(&self, pos: &Position) -> Option<i32> {
        self.probe(pos).map(|v| crate::score::Score::from(v).raw())
    }
}

/// What [`sample`] looks for: positions won, drawn or lost for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// The side to move wins.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses.
    Loss,
}

impl ValueKind {
    /// Whether `v` is of this kind.
    pub fn holds(self, v: TbValue) -> bool {
        matches!(
            (self, v),
            (ValueKind::Win, TbValue::Win(_)) | (ValueKind::Draw, TbValue::Draw) | (ValueKind::Loss, TbValue::Loss(_))
        )
    }
}

/// `count` distinct random positions of `tb`'s board under the default rules with `own` pieces for the side to
/// move and `other` for its opponent, where the side to move has no capture (a quiet position, as play reaches
/// them) and `tb` gives the value `want`; each side to move equally often. Reproducible from `seed`. Fewer when
/// `tb` does not cover that material or such positions are too rare (a million draws at most).
pub fn sample(tb: &Tablebase, own: u32, other: u32, want: ValueKind, count: usize, seed: u64) -> Vec<Position> {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    let board = tb.variant().geometry().board;
    let points: Vec<u32> = (0..64).filter(|p| board >> p & 1 == 1).collect();
    if own + other > tb.max_pieces() || (own + other) as usize > points.len() || own == 0 {
        return Vec::new();
    }
    let rules = Rules { variant: tb.variant(), ..Rules::default() };
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for _ in 0..1_000_000 {
        if out.len() >= count {
            break;
        }
        let side = if out.len() % 2 == 0 { Side::White } else { Side::Black };
        let (mut mine, mut theirs) = (0u64, 0u64);
        while mine.count_ones() < own {
            mine |= 1 << points[rng.random_range(0..points.len())];
        }
        while theirs.count_ones() < other {
            theirs |= 1 << points[rng.random_range(0..points.len())] & !mine;
        }
        let (white, black) = if side == Side::White { (mine, theirs) } else { (theirs, mine) };
        let pos = Position::from_parts(tb.variant(), white, black, side, &rules);
        if pos.has_capture() || !tb.probe(&pos).is_some_and(|v| want.holds(v)) || !seen.insert(pos.hash()) {
            continue;
        }
        out.push(pos);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::test_support::quiet;
    use super::*;

    fn fen(s: &str) -> Position {
        Position::from_fen(s).unwrap()
    }

    #[test]
    fn known_positions() {
        let tb = Tablebase::build(Variant::Tsivy, 4, quiet);
        let v = |s: &str| tb.probe(&fen(s)).unwrap();
        // a1 against c1: whoever moves captures by approach on b1.
        assert_eq!(v("9/9/9/9/W1B6 w"), TbValue::Win(1));
        assert_eq!(v("9/9/9/9/W1B6 b"), TbValue::Win(1));
        // No enemy left: the side to move has lost; the other side wins with any paika move.
        assert_eq!(v("9/9/9/9/WW7 b"), TbValue::Loss(0));
        assert_eq!(v("9/9/9/9/WW7 w"), TbValue::Win(1));
        // White on b1 is boxed in by a1, c1 and b2 (b1 is weak: no diagonals) and cannot capture: lost at once.
        assert_eq!(v("9/9/9/1B7/BWB6 w"), TbValue::Loss(0));
        // Black to move there withdraws b2-b3 and takes b1.
        assert_eq!(v("9/9/9/1B7/BWB6 b"), TbValue::Win(1));
        // White a1 against b3 and c2 has no capture (c1, a3 and c3 are empty) and every step is taken next turn:
        // a1-b1 by b3-b2A, a1-a2 by c2-b2A, a1-b2 by b3-b4W.
        assert_eq!(v("9/9/1B7/2B6/W8 w"), TbValue::Loss(2));
        // One against one in opposite corners: neither side can be forced, a draw.
        assert_eq!(v("8B/9/9/9/W8 w"), TbValue::Draw);
        // The longest 1-against-1 win (checked by the brute-force test too).
        assert_eq!(v("9/B8/9/9/W8 w"), TbValue::Win(7));
        // Too many pieces, another board, other rules: not covered.
        assert_eq!(tb.probe(&fen("9/9/9/9/WWBBB4 w")), None);
        assert_eq!(Tablebase::build(Variant::Dimy, 2, quiet).probe(&fen("9/9/9/9/W1B6 w")), None);
        let lines = fen("9/9/9/9/W1B6 w").with_rules(&Rules { relay: RelayRule::Lines, ..Rules::default() });
        assert_eq!(tb.probe(&lines), None);
        // On the first turn of a game with "first turn without relay" the table does not apply, but every turn
        // leads to positions it covers, so best_turn still works.
        let first = fen("9/9/9/9/W1B6 w").with_rules(&Rules { first_turn_no_relay: true, ..Rules::default() });
        assert_eq!(tb.probe(&first), None);
        assert_eq!(tb.best_turn(&first).map(|(_, v)| v), Some(TbValue::Win(1)));
    }

    #[test]
    fn a_relay_is_one_turn() {
        let tb = Tablebase::build(Variant::Tsivy, 3, quiet);
        // White c1 takes e1 by approach (c1-d1A), then d3 by approach (d1-d2A): both black pieces in one turn.
        let pos = fen("9/9/3B5/9/2W1B4 w");
        assert_eq!(tb.probe(&pos), Some(TbValue::Win(1)));
        let (turn, v) = tb.best_turn(&pos).unwrap();
        assert_eq!((turn.to_string().as_str(), v), ("c1-d1A d1-d2A", TbValue::Win(1)));
        // In the middle of the relay the table has no entry, but best_turn completes the turn.
        let mut relay = pos;
        assert!(!relay.play(turn.steps[0]).turn_ended);
        assert_eq!(tb.probe(&relay), None);
        let (rest, v) = tb.best_turn(&relay).unwrap();
        assert_eq!((rest.to_string().as_str(), v), ("d1-d2A", TbValue::Win(1)));
    }

    #[test]
    fn best_play_takes_exactly_the_distance() {
        let tb = Tablebase::build(Variant::Tsivy, 4, quiet);
        let (d, pos) = tb.longest_win().unwrap();
        assert_eq!(tb.probe(&pos), Some(TbValue::Win(d)));
        let mut p = pos;
        for i in 0..d {
            let (turn, v) = tb.best_turn(&p).unwrap();
            assert_eq!(v.distance(), Some(d - i));
            p.play_turn(&turn).unwrap();
        }
        assert!(p.is_lost());
        assert_eq!(tb.probe(&p), Some(TbValue::Loss(0)));
        assert_eq!(tb.best_turn(&p), None);
    }
}
