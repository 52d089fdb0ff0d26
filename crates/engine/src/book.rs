//! The opening book: the first turns of the game, scored by deep searches once and committed as data
//! (`data/book.txt`), so that the strongest levels open with well-searched turns at once and vary among
//! equally good ones. Merged into it, the balanced book ([`BALANCED`]) holds where random balanced openings end
//! and the replies to their best turns.
//!
//! Each entry is a position at the start of a turn under the default rules, with the best root turns of a
//! multi-PV search and their scores. The generator (`fanorona-tools`' `book_gen`) builds it breadth-first from the start position:
//! every turn that scores close to the best is followed, for both sides, so the book holds the replies to
//! reasonable play as well as the engine's own lines.

use crate::position::Position;
use crate::rules::Rules;
use crate::turns::Turn;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;

/// The committed book, compiled in (no file to find at run time, on the web too).
pub const BUILTIN: &str = include_str!("../data/book.txt");

/// The committed book of balanced openings' ends (`book_gen::generate_balanced` in `fanorona-tools`): every position four
/// turns from the start that a shallow search scores near even, where matches from random balanced openings
/// hand the engine its first turn, and the positions after each one's best turn and, for the most balanced, its
/// other turns within 2 pieces of the best (where the engine's first turn is the second), each searched deeply
/// once. Compiled in and merged into [`BUILTIN`]'s book, except in WebAssembly builds, which leave it out: it
/// serves matches from random openings through the engine protocol, which the browser does not run, and its
/// 186 KiB gzipped (1.0 MB raw) would take the web module past its 5 MB budget and cost a first-use parse of some
/// tens of milliseconds in one frame.
#[cfg(not(target_arch = "wasm32"))]
pub const BALANCED: &str = include_str!("../data/book-balanced.txt");

/// A turn is played from the book when it scores within this much of the best entry (hundredths of a piece):
/// variety among turns the deep search could not tell apart, never a weaker one.
pub const PLAY_MARGIN: i32 = 10;

/// The turn full strength plays from the built-in book in `pos`, if the book has it: one of the turns within
/// [`PLAY_MARGIN`] of the best, drawn with a generator seeded by `seed` and the position (the protocol seeds it
/// from the clock, so that games vary; a match seeds it per game, so that it can be replayed).
pub fn play(pos: &Position, seed: u64) -> Option<Turn> {
    OpeningBook::builtin().play(pos, seed)
}

/// One scored turn of a book position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The whole turn.
    pub turn: Turn,
    /// Its score for the side to move, from the search that made the book.
    pub score: i32,
}

/// Positions (by FEN, default rules) and their scored turns, best first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpeningBook {
    entries: HashMap<String, Vec<BookMove>>,
}

/// Why a book file was rejected: the line (1-based; 0 for the file as a whole) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningBookError {
    /// Line number, from 1 (0: the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for OpeningBookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "book: {}", self.message)
        } else {
            write!(f, "book line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for OpeningBookError {}

impl OpeningBook {
    /// The committed book ([`BUILTIN`]).
    pub fn builtin() -> &'static OpeningBook {
        static BOOK: std::sync::OnceLock<OpeningBook> = std::sync::OnceLock::new();
        BOOK.get_or_init(|| {
            let book = OpeningBook::read(BUILTIN, false).expect("the committed book is valid (a unit test checks it)");
            #[cfg(not(target_arch = "wasm32"))]
            let book = {
                let mut book = book;
                let balanced = OpeningBook::read(BALANCED, false)
                    .expect("the committed balanced book is valid (a unit test checks it)");
                book.merge(balanced);
                book
            };
            book
        })
    }

    /// Adds the positions of `other` that this book does not have (where both have one, this book's entry
    /// stays).
    pub fn merge(&mut self, other: OpeningBook) {
        for (fen, moves) in other.entries {
            self.entries.entry(fen).or_insert(moves);
        }
    }

    /// Sets the entry of the position with this FEN (as [`Position::to_fen`] writes it): its scored turns, best
    /// first (the book generator's way in).
    pub fn insert(&mut self, fen: String, moves: Vec<BookMove>) {
        self.entries.insert(fen, moves);
    }

    /// Whether the book has an entry for this FEN (as [`Position::to_fen`] writes it).
    pub fn contains_fen(&self, fen: &str) -> bool {
        self.entries.contains_key(fen)
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The scored turns of `pos`, best first: only for a position at the start of a turn under the default
    /// rules (the book was searched under them).
    pub fn moves(&self, pos: &Position) -> Option<&[BookMove]> {
        if pos.in_relay() || pos.rules() != Rules::default() {
            return None;
        }
        self.entries.get(&pos.to_fen()).map(Vec::as_slice)
    }

    /// [`play`] from this book.
    pub fn play(&self, pos: &Position, seed: u64) -> Option<Turn> {
        self.choose(pos, &mut rand::rngs::SmallRng::seed_from_u64(seed ^ pos.hash()))
    }

    /// A turn for `pos` from the book: one of those within [`PLAY_MARGIN`] of the best, drawn with `rng`.
    pub fn choose(&self, pos: &Position, rng: &mut impl Rng) -> Option<Turn> {
        let moves = self.moves(pos)?;
        let top = moves.first()?.score;
        let close = moves.iter().take_while(|m| m.score >= top - PLAY_MARGIN).count();
        Some(moves[rng.random_range(0..close)].turn.clone())
    }

    /// Reads a book: `FEN | turn = score; turn = score; …` a line, best turn first; blank lines and lines
    /// starting with `#` are skipped. Every FEN must parse, every turn be legal in its position, scores be
    /// integers in descending order, and no position appear twice: a damaged file is rejected with its line.
    pub fn parse(text: &str) -> Result<OpeningBook, OpeningBookError> {
        OpeningBook::read(text, true)
    }

    /// [`OpeningBook::parse`], where `replay` false trusts the positions and turns to be legal and the FENs to
    /// be written as [`Position::to_fen`] writes them, for the committed files, which a unit test reads in full:
    /// replaying every turn of their thousands of lines took half of the 14 ms their reading took (7 ms without),
    /// once, in the first turn of Master (a frame, on the web) or at the engine protocol's start.
    fn read(text: &str, replay: bool) -> Result<OpeningBook, OpeningBookError> {
        let mut entries = HashMap::new();
        let mut first_line = HashMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |message: String| OpeningBookError { line: i + 1, message };
            let (fen, rest) = line.split_once('|').ok_or_else(|| err("no '|' after the position".into()))?;
            let pos = if replay {
                let pos = Position::from_fen(fen.trim()).map_err(|e| err(format!("position {:?}: {e}", fen.trim())))?;
                if pos.in_relay() {
                    return Err(err("a book position must be at the start of a turn".into()));
                }
                Some(pos)
            } else {
                None
            };
            let mut moves: Vec<BookMove> = Vec::new();
            for part in rest.split(';') {
                let (turn, score) =
                    part.split_once('=').ok_or_else(|| err(format!("{:?}: expected 'turn = score'", part.trim())))?;
                let turn: Turn = turn.trim().parse().map_err(|e| err(format!("turn {:?}: {e}", turn.trim())))?;
                let score: i32 =
                    score.trim().parse().map_err(|_| err(format!("score {:?} of {turn}", score.trim())))?;
                if let Some(mut after) = pos {
                    after.play_turn(&turn).map_err(|e| err(format!("turn {turn} is illegal here: {e}")))?;
                }
                if moves.iter().any(|m| m.turn == turn) {
                    return Err(err(format!("turn {turn} is listed twice")));
                }
                if moves.last().is_some_and(|m| m.score < score) {
                    return Err(err(format!("turn {turn} scores more than the turn before it")));
                }
                moves.push(BookMove { turn, score });
            }
            let key = pos.map_or_else(|| fen.trim().to_string(), |p| p.to_fen());
            if let Some(first) = first_line.insert(key.clone(), i + 1) {
                return Err(err(format!("the same position as line {first}")));
            }
            entries.insert(key, moves);
        }
        if entries.is_empty() {
            return Err(OpeningBookError { line: 0, message: "no positions".into() });
        }
        Ok(OpeningBook { entries })
    }

    /// The book as text, in the format [`OpeningBook::parse`] reads, positions sorted (a stable file to diff).
    pub fn to_text(&self, header: &str) -> String {
        let mut s: String = header.lines().map(|h| format!("# {h}\n")).collect();
        let mut keys: Vec<&String> = self.entries.keys().collect();
        keys.sort();
        for fen in keys {
            let moves: Vec<String> = self.entries[fen].iter().map(|m| format!("{} = {}", m.turn, m.score)).collect();
            s.push_str(&format!("{fen} | {}\n", moves.join("; ")));
        }
        s
    }

    /// The positions this book leads to from each of `ends`, for the balanced book's replies: first each of the
    /// end's first `lines` turns that scores within `margin` of its best (1: the best alone; more: the positions
    /// where an opponent's second choice is answered from the book too), then the best turn of each position
    /// reached, `turns - 1` times more. A line that leaves the book or ends the game is left out; so is a
    /// position already reached.
    pub fn follow(&self, ends: &[Position], turns: u32, lines: usize, margin: i32) -> Vec<Position> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for end in ends {
            let Some(moves) = self.moves(end) else { continue };
            let top = moves.first().map_or(0, |m| m.score);
            let walk = |first: &Turn| -> Option<Position> {
                let mut after = *end;
                after.play_turn(first).ok()?;
                for _ in 1..turns {
                    after.play_turn(&self.moves(&after)?.first()?.turn).ok()?;
                }
                (!after.legal_turns().is_empty()).then_some(after)
            };
            for m in moves.iter().take(lines).filter(|m| m.score >= top - margin) {
                if let Some(after) = walk(&m.turn).filter(|a| seen.insert(a.to_fen())) {
                    out.push(after);
                }
            }
        }
        out
    }

    /// Every distinct position `turns` turns from the start (default rules) that is not over, in the order the
    /// turns reach them.
    pub fn positions_after(turns: usize) -> Vec<Position> {
        let mut layer = vec![Position::start(&Rules::default())];
        for _ in 0..turns {
            let mut seen = std::collections::HashSet::new();
            let mut next = Vec::new();
            for pos in &layer {
                for t in pos.legal_turns() {
                    let mut after = *pos;
                    if after.play_turn(&t).is_ok() && seen.insert(after.to_fen()) {
                        next.push(after);
                    }
                }
            }
            layer = next;
        }
        layer.retain(|p| !p.legal_turns().is_empty());
        layer
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Searcher;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    #[test]
    fn the_committed_book_is_valid_and_starts_at_the_start() {
        let book = OpeningBook::parse(BUILTIN).unwrap();
        assert!(book.len() >= 50, "only {} positions", book.len());
        let start = Position::start(&Rules::default());
        let moves = book.moves(&start).expect("the start position is in the book");
        assert!(moves.windows(2).all(|w| w[0].score >= w[1].score));
        // Every position of the book is reached from the start by book turns (nothing stray).
        let mut reached = std::collections::HashSet::from([start.to_fen()]);
        let mut todo = vec![start];
        while let Some(pos) = todo.pop() {
            for m in book.moves(&pos).unwrap_or(&[]) {
                let mut after = pos;
                after.play_turn(&m.turn).unwrap();
                if reached.insert(after.to_fen()) {
                    todo.push(after);
                }
            }
        }
        assert_eq!(book.entries.keys().filter(|k| !reached.contains(*k)).count(), 0);
    }

    #[test]
    fn the_committed_balanced_book_holds_openings_ends_and_merges_into_the_builtin_one() {
        let balanced = OpeningBook::parse(BALANCED).unwrap();
        let committed = OpeningBook::parse(BUILTIN).unwrap();
        // Every position is four turns from the start or the position after a turn of one that is, and none is
        // one of book.txt's (the generator leaves those out).
        let layer = OpeningBook::positions_after(4);
        let four: std::collections::HashSet<String> = layer.iter().map(Position::to_fen).collect();
        let builtin = OpeningBook::builtin();
        // The replies: the positions after the best turn of those four-turn positions, or after another turn that
        // an opponent may play (one within 2 pieces of the best by a multi-line search, or one that was the best
        // before a deeper search replaced the entry).
        let best_replies: std::collections::HashSet<String> = layer
            .iter()
            .filter_map(|p| {
                let mut after = *p;
                after.play_turn(&builtin.moves(p)?[0].turn).unwrap();
                Some(after.to_fen())
            })
            .collect();
        let any_replies: std::collections::HashSet<String> = layer
            .iter()
            .filter(|p| builtin.moves(p).is_some())
            .flat_map(|p| {
                p.legal_turns().into_iter().map(move |t| {
                    let mut after = *p;
                    after.play_turn(&t).unwrap();
                    after.to_fen()
                })
            })
            .collect();
        let (mut ends, mut best) = (0, 0);
        for fen in balanced.entries.keys() {
            ends += usize::from(four.contains(fen));
            best += usize::from(best_replies.contains(fen));
            assert!(four.contains(fen) || any_replies.contains(fen), "{fen} is neither an end nor a reply");
            assert!(!committed.contains_fen(fen), "{fen} is in book.txt too");
        }
        assert!(ends >= 100, "only {ends} four-turn positions");
        // The replies to the best turns are there for most of the ends (those within a piece of even by the
        // first balance check); the rest of the replies answer an opponent's other choices.
        assert!(best * 2 >= ends, "only {best} of {ends} four-turn positions have the reply to their best turn");
        assert_eq!(builtin.len(), committed.len() + balanced.len());
        // Read without replaying its turns, the built-in book is the checked one.
        let mut checked = committed.clone();
        checked.merge(balanced.clone());
        assert_eq!(*builtin, checked);
        let (fen, moves) = balanced.entries.iter().next().unwrap();
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(builtin.moves(&pos), Some(moves.as_slice()));
        let chosen = builtin.play(&pos, 5).unwrap();
        assert!(moves.iter().any(|m| m.turn == chosen));
    }

    #[test]
    fn merging_keeps_the_entries_a_book_has() {
        let start = Position::start(&Rules::default());
        let mut a = OpeningBook::parse(&format!("{} | f2-e3A = 7\n", start.to_fen())).unwrap();
        let mut after = start;
        after.play_turn(&"f2-e3A".parse().unwrap()).unwrap();
        let reply = after.legal_turns()[0].clone();
        let b = OpeningBook::parse(&format!("{} | d2-e3A = 1\n{} | {reply} = 3\n", start.to_fen(), after.to_fen()))
            .unwrap();
        a.merge(b);
        assert_eq!(a.len(), 2);
        assert_eq!(a.moves(&start).unwrap()[0].turn.to_string(), "f2-e3A");
        assert_eq!(a.moves(&after).unwrap()[0].turn, reply);
    }

    #[test]
    fn following_takes_the_lines_within_the_margin_then_the_best_turns() {
        let start = Position::start(&Rules::default());
        let after = |p: &Position, t: &str| {
            let mut a = *p;
            a.play_turn(&t.parse().unwrap()).unwrap();
            a
        };
        let (e3, d2e3) = (after(&start, "f2-e3A"), after(&start, "d2-e3A"));
        let e3_reply = e3.legal_turns()[0].clone();
        let text =
            format!("{} | f2-e3A = 20; d2-e3A = 0; e2-e3A = -200\n{} | {e3_reply} = 5\n", start.to_fen(), e3.to_fen());
        let book = OpeningBook::parse(&text).unwrap();
        let fens = |v: Vec<Position>| v.iter().map(Position::to_fen).collect::<Vec<_>>();
        assert_eq!(fens(book.follow(&[start], 1, 1, 150)), vec![e3.to_fen()]);
        // The third line is 2.2 pieces below the best: outside the margin.
        assert_eq!(fens(book.follow(&[start], 1, 3, 150)), vec![e3.to_fen(), d2e3.to_fen()]);
        assert_eq!(book.follow(&[start], 1, 3, 300).len(), 3);
        // Two turns: only the line whose position has an entry goes on; an end twice is followed once.
        assert_eq!(fens(book.follow(&[start, start], 2, 3, 150)), vec![after(&e3, &e3_reply.to_string()).to_fen()]);
        assert!(book.follow(&[d2e3], 1, 3, 150).is_empty(), "a position outside the book leads nowhere");
    }

    #[test]
    fn choices_stay_within_the_margin_and_vary() {
        let text = "\
# a test book
BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w | d2-e3A = 20; f2-e3A = 15; e2-e3A = -40
";
        let book = OpeningBook::parse(text).unwrap();
        let start = Position::start(&Rules::default());
        let mut rng = SmallRng::seed_from_u64(1);
        let chosen: std::collections::HashSet<String> =
            (0..50).map(|_| book.choose(&start, &mut rng).unwrap().to_string()).collect();
        assert_eq!(chosen, ["d2-e3A", "f2-e3A"].map(String::from).into_iter().collect());
        // Other rules: not the book's position.
        let other = Position::start(&Rules { relay: crate::RelayRule::Lines, ..Rules::default() });
        assert!(book.moves(&other).is_none());
    }

    #[test]
    fn a_damaged_book_is_rejected_with_its_line() {
        let start = "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w";
        let cases = [
            (format!("{start} d2-e3A = 20"), "no '|'"),
            ("x/y w | d2-e3A = 20".to_string(), "position"),
            (format!("{start} | d2-e3A 20"), "expected 'turn = score'"),
            (format!("{start} | zz = 20"), "turn \"zz\""),
            (format!("{start} | a1-a2 = 20"), "illegal"),
            (format!("{start} | d2-e3A = twenty"), "score"),
            (format!("{start} | d2-e3A = 1; f2-e3A = 5"), "scores more"),
            (format!("{start} | d2-e3A = 5; d2-e3A = 1"), "twice"),
            (format!("{start} | d2-e3A = 5\n{start} | f2-e3A = 5"), "same position as line 1"),
            ("# nothing\n".to_string(), "no positions"),
        ];
        for (text, expected) in cases {
            let e = OpeningBook::parse(&text).unwrap_err();
            assert!(e.to_string().contains(expected), "{text:?}: {e}");
        }
    }

    #[test]
    fn a_searcher_opens_from_a_book_file_and_refuses_a_damaged_one() {
        let dir = std::env::temp_dir().join(format!("fanorona-bookfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let start = Position::start(&Rules::default());
        let good = dir.join("good.txt");
        std::fs::write(&good, format!("{} | f2-e3A = 7\n", start.to_fen())).unwrap();
        let mut s = Searcher::new(1);
        s.configure(&format!("max,bookfile={}", good.display())).unwrap();
        let book = s.opening_book().unwrap();
        assert_eq!(book.len(), 1);
        assert_eq!(book.play(&start, 3).unwrap().to_string(), "f2-e3A");
        assert!(s.configure("nobook").is_ok() && s.opening_book().is_none());
        // `max` goes back to the built-in book.
        s.configure("max").unwrap();
        assert_eq!(s.opening_book().unwrap().len(), OpeningBook::builtin().len());
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, format!("{} | a1-a2 = 7\n", start.to_fen())).unwrap();
        let e = s.configure(&format!("bookfile={}", bad.display())).unwrap_err();
        assert!(e.contains("illegal"), "{e}");
        assert!(s.configure(&format!("bookfile={}", dir.join("missing.txt").display())).is_err());
        assert!(s.configure("bookfile").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
