//! The opening book: the first turns of the game, scored by deep searches once and committed as data
//! (`data/book.txt`), so that the strongest levels open with well-searched turns at once and vary among
//! equally good ones.
//!
//! Each entry is a position at the start of a turn under the default rules, with the best root turns of a
//! multi-PV search and their scores. [`OpeningBook::generate`] builds it breadth-first from the start position:
//! every turn that scores close to the best is followed, for both sides, so the book holds the replies to
//! reasonable play as well as the engine's own lines.

use crate::game::Game;
use crate::position::Position;
use crate::rules::Rules;
use crate::search::{Limits, Searcher};
use crate::turns::Turn;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;

/// The committed book, compiled in (no file to find at run time, on the web too).
pub const BUILTIN: &str = include_str!("../data/book.txt");

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

/// How [`OpeningBook::generate`] searches.
#[derive(Clone, Copy, Debug)]
pub struct BookConfig {
    /// Positions up to this many turns from the start get an entry.
    pub turns: usize,
    /// Nodes of each position's search.
    pub nodes: u64,
    /// Root turns searched and kept per position (multi-PV).
    pub lines: usize,
    /// The position after a kept turn is searched too when the turn scores within this much of the best.
    pub follow_margin: i32,
    /// Search options ([`Searcher::configure`]).
    pub options: &'static str,
    /// Worker threads.
    pub threads: usize,
}

impl OpeningBook {
    /// The committed book ([`BUILTIN`]).
    pub fn builtin() -> &'static OpeningBook {
        static BOOK: std::sync::OnceLock<OpeningBook> = std::sync::OnceLock::new();
        BOOK.get_or_init(|| OpeningBook::parse(BUILTIN).expect("the committed book is valid (a unit test checks it)"))
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
        let mut entries = HashMap::new();
        let mut first_line = HashMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |message: String| OpeningBookError { line: i + 1, message };
            let (fen, rest) = line.split_once('|').ok_or_else(|| err("no '|' after the position".into()))?;
            let pos = Position::from_fen(fen.trim()).map_err(|e| err(format!("position {:?}: {e}", fen.trim())))?;
            if pos.in_relay() {
                return Err(err("a book position must be at the start of a turn".into()));
            }
            let mut moves: Vec<BookMove> = Vec::new();
            for part in rest.split(';') {
                let (turn, score) =
                    part.split_once('=').ok_or_else(|| err(format!("{:?}: expected 'turn = score'", part.trim())))?;
                let turn: Turn = turn.trim().parse().map_err(|e| err(format!("turn {:?}: {e}", turn.trim())))?;
                let score: i32 =
                    score.trim().parse().map_err(|_| err(format!("score {:?} of {turn}", score.trim())))?;
                let mut after = pos;
                after.play_turn(&turn).map_err(|e| err(format!("turn {turn} is illegal here: {e}")))?;
                if moves.iter().any(|m| m.turn == turn) {
                    return Err(err(format!("turn {turn} is listed twice")));
                }
                if moves.last().is_some_and(|m| m.score < score) {
                    return Err(err(format!("turn {turn} scores more than the turn before it")));
                }
                moves.push(BookMove { turn, score });
            }
            let key = pos.to_fen();
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

    /// Builds a book from the start position (default rules, Fanoron-Tsivy): breadth-first to `cfg.turns`
    /// turns, each position searched with `cfg.lines` lines; the position after every line within
    /// `cfg.follow_margin` of the best is searched next. Positions of a turn are searched in parallel, each
    /// with a fresh table, so the book depends only on `cfg`. `progress` hears (turn, positions done, of).
    pub fn generate(cfg: &BookConfig, mut progress: impl FnMut(usize, usize, usize)) -> OpeningBook {
        let mut book = OpeningBook::default();
        let mut frontier = vec![Game::new(Rules::default())];
        for turn in 0..cfg.turns {
            let total = frontier.len();
            let next = std::sync::Mutex::new(0usize);
            let results = std::sync::Mutex::new(Vec::new());
            let done = std::sync::atomic::AtomicUsize::new(0);
            std::thread::scope(|s| {
                for _ in 0..cfg.threads.max(1) {
                    s.spawn(|| {
                        let mut searcher = Searcher::new(64);
                        searcher.configure(cfg.options).expect("valid search options");
                        loop {
                            let i = {
                                let mut n = next.lock().unwrap();
                                *n += 1;
                                *n - 1
                            };
                            let Some(game) = frontier.get(i) else { break };
                            searcher.clear();
                            let history = crate::levels::history_hashes(game);
                            let limits = Limits::nodes(cfg.nodes).with_multipv(cfg.lines);
                            let r = searcher.search(game.position(), &history, limits, |_| {});
                            let mut moves: Vec<BookMove> =
                                r.lines.iter().map(|l| BookMove { turn: l.pv[0].clone(), score: l.score }).collect();
                            moves.sort_by_key(|m| std::cmp::Reverse(m.score));
                            results.lock().unwrap().push((i, moves));
                            done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                    });
                }
                let mut shown = usize::MAX;
                while done.load(std::sync::atomic::Ordering::Relaxed) < total {
                    let d = done.load(std::sync::atomic::Ordering::Relaxed);
                    if d != shown {
                        progress(turn, d, total);
                        shown = d;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(200));
                }
            });
            progress(turn, total, total);
            let mut results = results.into_inner().unwrap();
            results.sort_by_key(|r| r.0);
            let mut next_frontier = Vec::new();
            for (i, moves) in results {
                let game = &frontier[i];
                let Some(top) = moves.first().map(|m| m.score) else { continue };
                for m in moves.iter().filter(|m| m.score >= top - cfg.follow_margin) {
                    let mut child = game.clone();
                    if child.play_turn(&m.turn).is_ok()
                        && !child.is_over()
                        && !book.entries.contains_key(&child.position().to_fen())
                        && !next_frontier.iter().any(|g: &Game| g.position().to_fen() == child.position().to_fen())
                    {
                        next_frontier.push(child);
                    }
                }
                book.entries.insert(game.position().to_fen(), moves);
            }
            frontier = next_frontier;
        }
        book
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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

    #[test]
    fn generation_follows_close_turns_for_both_sides() {
        let cfg = BookConfig {
            turns: 2,
            nodes: 100_000,
            lines: 3,
            follow_margin: 1_000,
            options: crate::protocol::FULL_STRENGTH,
            threads: 2,
        };
        let book = OpeningBook::generate(&cfg, |_, _, _| {});
        let start = Position::start(&Rules::default());
        let first = book.moves(&start).unwrap();
        assert!(!first.is_empty() && first.len() <= 3);
        // With a wide margin every kept first turn has its replies in the book.
        for m in first {
            let mut after = start;
            after.play_turn(&m.turn).unwrap();
            assert!(book.moves(&after).is_some(), "no entry after {}", m.turn);
        }
        assert_eq!(book.len(), 1 + first.len());
        // Same configuration, same book.
        assert_eq!(OpeningBook::generate(&cfg, |_, _, _| {}), book);
    }
}
