//! Reference move generator: a deliberately simple, independent reading of RULES.md on plain arrays (no bitboards,
//! nothing taken from the engine's move generation), and property tests that compare the engine's turns, positions
//! after each turn and perft counts with it.
//!
//! The property tests are seeded deterministically. `REFERENCE_CASES=<n>` multiplies the number of cases and
//! `REFERENCE_SEED=<u64>` picks another seed, for longer bug hunts.

use fanorona_rules::geometry::point_name;
use fanorona_rules::{Position, RelayRule, Rules, Side, Variant, Vela};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use std::cell::Cell;
use std::fmt;

/// Points use the engine's layout on both boards: index `9 * rank + file`, 0-based.
const STRIDE: usize = 9;
const RANKS: usize = 5;
const CELLS: usize = STRIDE * RANKS;
/// The eight directions as (file, rank) offsets; `d` and `(d + 4) % 8` are opposite.
const DIRS: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

// ---------------------------------------------------------------------------------------------------------------
// The reference
// ---------------------------------------------------------------------------------------------------------------

/// The rule options a game starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Options {
    dimy: bool,
    lines: bool,
    first_turn_no_relay: bool,
    single_first_capture: bool,
    /// Vela: the previous winner, and how many of their pieces count as captured already.
    vela: Option<(Side, u8)>,
}

impl Options {
    const DEFAULT: Options =
        Options { dimy: false, lines: false, first_turn_no_relay: false, single_first_capture: false, vela: None };

    fn width(self) -> usize {
        if self.dimy { 5 } else { 9 }
    }

    fn start_pieces(self) -> usize {
        if self.dimy { 12 } else { 22 }
    }

    /// Captures of the winner's pieces that end the vela phase: all but five of the start pieces.
    fn vela_threshold(self) -> usize {
        self.start_pieces() - 5
    }

    fn rules(self) -> Rules {
        Rules {
            variant: if self.dimy { Variant::Dimy } else { Variant::Tsivy },
            relay: if self.lines { RelayRule::Lines } else { RelayRule::Default },
            first_turn_no_relay: self.first_turn_no_relay,
            single_first_capture: self.single_first_capture,
            vela: self.vela.map(|(winner, captured)| Vela { winner, captured }),
            ..Rules::default()
        }
    }
}

/// A position plus everything the legality of its turns depends on.
#[derive(Clone, PartialEq, Eq)]
struct Board {
    opts: Options,
    cells: [Option<Side>; CELLS],
    side: Side,
    /// No turn has been made yet.
    first_turn: bool,
    /// Whether White, Black has made a capturing turn.
    has_captured: [bool; 2],
    /// While the vela phase is on: the previous winner and how many more of their pieces must be captured.
    vela: Option<(Side, usize)>,
}

/// The state of a capturing turn in progress.
#[derive(Clone)]
struct Relay {
    cells: [Option<Side>; CELLS],
    at: usize,
    last_dir: Option<usize>,
    /// Points the piece stood on this turn, its start included.
    visited: Vec<usize>,
    /// Line segments travelled this turn, as (smaller point, larger point).
    segments: Vec<(usize, usize)>,
    notation: String,
    captured: usize,
}

impl Board {
    fn new(opts: Options, cells: [Option<Side>; CELLS], side: Side) -> Board {
        let vela = opts.vela.and_then(|(winner, captured)| {
            let left = opts.vela_threshold().saturating_sub(captured as usize);
            (left > 0).then_some((winner, left))
        });
        Board { opts, cells, side, first_turn: true, has_captured: [false; 2], vela }
    }

    /// The start position: White on ranks 1–2, Black on ranks 4–5, rank 3 `BWBW·BWBW` (9×5) or `BW·BW` (5×5).
    fn start(opts: Options) -> Board {
        let middle = if opts.dimy { "BW.BW" } else { "BWBW.BWBW" };
        let mut cells = [None; CELLS];
        for rank in 0..RANKS {
            for (file, c) in middle.chars().enumerate() {
                cells[rank * STRIDE + file] = match (rank, c) {
                    (0 | 1, _) | (2, 'W') => Some(Side::White),
                    (3 | 4, _) | (2, 'B') => Some(Side::Black),
                    _ => None,
                };
            }
        }
        // The loser of the previous game starts a vela game.
        let side = opts.vela.map_or(Side::White, |(winner, _)| winner.opponent());
        Board::new(opts, cells, side)
    }

    fn on_board(&self, p: usize) -> bool {
        p % STRIDE < self.opts.width()
    }

    /// The point one step from `p` in direction `d`, if there is a line that way.
    fn neighbour(&self, p: usize, d: usize) -> Option<usize> {
        let (file, rank) = ((p % STRIDE) as i32, (p / STRIDE) as i32);
        let (df, dr) = DIRS[d];
        // Only strong points (file + rank even) have diagonal lines.
        if df != 0 && dr != 0 && (file + rank) % 2 != 0 {
            return None;
        }
        let (f, r) = (file + df, rank + dr);
        let on = 0 <= f && f < self.opts.width() as i32 && 0 <= r && r < RANKS as i32;
        on.then(|| r as usize * STRIDE + f as usize)
    }

    /// The enemy pieces that the side to move captures on `cells` by stepping from `from` in direction `d`:
    /// by approach the run starts just beyond the destination, by withdrawal just behind the origin; the run goes
    /// on away from the mover up to the first point that is not an enemy piece. Empty: no capture.
    fn captured(
        &self,
        cells: &[Option<Side>; CELLS],
        from: usize,
        d: usize,
        approach: bool,
        only_first: bool,
    ) -> Vec<usize> {
        let (mut next, dir) = if approach {
            (self.neighbour(from, d).and_then(|to| self.neighbour(to, d)), d)
        } else {
            (self.neighbour(from, (d + 4) % 8), (d + 4) % 8)
        };
        let mut out = Vec::new();
        while let Some(p) = next {
            if cells[p] != Some(self.side.opponent()) {
                break;
            }
            out.push(p);
            if only_first {
                break;
            }
            next = self.neighbour(p, dir);
        }
        out
    }

    /// Every legal turn, as (notation, position after it). Each stopping point of a relay is its own turn.
    fn turns(&self) -> Vec<(String, Board)> {
        let me = self.side;
        let vela_winner = self.vela.map(|(winner, _)| winner);
        let mut out = Vec::new();
        // During vela the previous winner never captures.
        if vela_winner != Some(me) {
            let vela_loser = vela_winner.is_some();
            // No relay for the vela loser, on the game's first turn under "first turn without relay", or on the
            // side's first capturing turn under "single first capture".
            let no_relay = vela_loser
                || (self.opts.first_turn_no_relay && self.first_turn)
                || (self.opts.single_first_capture && !self.has_captured[me as usize]);
            for from in 0..CELLS {
                if self.on_board(from) && self.cells[from] == Some(me) {
                    let start = Relay {
                        cells: self.cells,
                        at: from,
                        last_dir: None,
                        visited: vec![from],
                        segments: Vec::new(),
                        notation: String::new(),
                        captured: 0,
                    };
                    self.captures(&start, !no_relay, vela_loser, &mut out);
                }
            }
        }
        // Paika only when no capture exists.
        if out.is_empty() {
            for from in 0..CELLS {
                if !self.on_board(from) || self.cells[from] != Some(me) {
                    continue;
                }
                for d in 0..8 {
                    if let Some(to) = self.neighbour(from, d).filter(|&to| self.cells[to].is_none()) {
                        let mut cells = self.cells;
                        cells[to] = cells[from].take();
                        out.push((
                            format!("{}-{}", point_name(from as u8), point_name(to as u8)),
                            self.after(cells, 0),
                        ));
                    }
                }
            }
        }
        out
    }

    /// Pushes every capturing step from the relay state `r` (the first step of a turn when `r.last_dir` is None),
    /// and, when relaying is allowed, every continuation after it.
    fn captures(&self, r: &Relay, may_relay: bool, only_first: bool, out: &mut Vec<(String, Board)>) {
        for d in 0..8 {
            if r.last_dir == Some(d) {
                continue;
            }
            let Some(to) = self.neighbour(r.at, d) else { continue };
            if r.cells[to].is_some() {
                continue;
            }
            let segment = (r.at.min(to), r.at.max(to));
            if r.last_dir.is_some() {
                let repeated = if self.opts.lines { r.segments.contains(&segment) } else { r.visited.contains(&to) };
                if repeated {
                    continue;
                }
            }
            for approach in [true, false] {
                let taken = self.captured(&r.cells, r.at, d, approach, only_first);
                if taken.is_empty() {
                    continue;
                }
                let mut next = r.clone();
                next.cells[to] = next.cells[r.at].take();
                for &p in &taken {
                    next.cells[p] = None;
                }
                next.at = to;
                next.last_dir = Some(d);
                next.visited.push(to);
                next.segments.push(segment);
                if !next.notation.is_empty() {
                    next.notation.push(' ');
                }
                let suffix = if approach { 'A' } else { 'W' };
                next.notation += &format!("{}-{}{suffix}", point_name(r.at as u8), point_name(to as u8));
                next.captured += taken.len();
                out.push((next.notation.clone(), self.after(next.cells, next.captured)));
                if may_relay {
                    self.captures(&next, true, only_first, out);
                }
            }
        }
    }

    /// The position after a turn of the side to move that leaves `cells` and captured `captured` pieces.
    fn after(&self, cells: [Option<Side>; CELLS], captured: usize) -> Board {
        let me = self.side;
        let mut b = self.clone();
        b.cells = cells;
        b.side = me.opponent();
        b.first_turn = false;
        if captured > 0 {
            b.has_captured[me as usize] = true;
        }
        if let Some((winner, left)) = self.vela
            && winner != me
        {
            b.vela = (left > captured).then_some((winner, left - captured));
        }
        b
    }

    fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.turns().len() as u64,
            _ => self.turns().iter().map(|(_, b)| b.perft(depth - 1)).sum(),
        }
    }

    fn bits(&self, side: Side) -> u64 {
        (0..CELLS).filter(|&p| self.cells[p] == Some(side)).map(|p| 1u64 << p).sum()
    }

    fn count(&self, side: Side) -> usize {
        self.cells.iter().filter(|&&c| c == Some(side)).count()
    }

    /// The engine's position for this board, at the start of a game under its options.
    fn engine(&self) -> Position {
        let rules = self.opts.rules();
        Position::from_parts(rules.variant, self.bits(Side::White), self.bits(Side::Black), self.side, &rules)
    }

    /// FEN, written here independently: ranks 5 to 1, runs of empty points as digits, then `w` or `b`.
    fn fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..self.opts.width() {
                match self.cells[rank * STRIDE + file] {
                    None => empty += 1,
                    Some(side) => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        s.push(if side == Side::White { 'W' } else { 'B' });
                    }
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s + if self.side == Side::White { " w" } else { " b" }
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:?}", self.fen(), self.opts)?;
        if self.opts.first_turn_no_relay && !self.first_turn {
            write!(f, " (first turn made)")?;
        }
        if self.opts.single_first_capture {
            write!(f, " has_captured={:?}", self.has_captured)?;
        }
        if self.opts.vela.is_some() {
            write!(f, " vela_now={:?}", self.vela)?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Comparison helpers
// ---------------------------------------------------------------------------------------------------------------

/// Checks that the engine position holds the same pieces and side to move as the reference.
fn same_position(reference: &Board, engine: &Position) -> Result<(), TestCaseError> {
    prop_assert_eq!(engine.pieces(Side::White), reference.bits(Side::White), "white pieces of {:?}", reference);
    prop_assert_eq!(engine.pieces(Side::Black), reference.bits(Side::Black), "black pieces of {:?}", reference);
    prop_assert_eq!(engine.side_to_move(), reference.side, "side to move of {:?}", reference);
    prop_assert_eq!(engine.to_fen(), reference.fen());
    Ok(())
}

/// Checks that both generate the same set of turns, without duplicates in the engine's list; returns the
/// reference turns sorted by notation.
fn same_turns(reference: &Board, engine: &Position) -> Result<Vec<(String, Board)>, TestCaseError> {
    let mut ours = reference.turns();
    ours.sort_by(|a, b| a.0.cmp(&b.0));
    let mut theirs: Vec<String> = engine.legal_turns().iter().map(ToString::to_string).collect();
    theirs.sort();
    let duplicates: Vec<&String> = theirs.windows(2).filter(|w| w[0] == w[1]).map(|w| &w[0]).collect();
    prop_assert!(duplicates.is_empty(), "engine lists duplicate turns {:?} in {:?}", duplicates, reference);
    let names: Vec<&String> = ours.iter().map(|(n, _)| n).collect();
    if names.iter().copied().ne(theirs.iter()) {
        let missing: Vec<&&String> = names.iter().filter(|n| !theirs.contains(n)).collect();
        let extra: Vec<&String> = theirs.iter().filter(|n| !names.contains(n)).collect();
        return Err(TestCaseError::fail(format!(
            "turns differ in {reference:?}\n  engine lacks: {missing:?}\n  engine adds: {extra:?}"
        )));
    }
    Ok(ours)
}

/// A deterministic runner with `cases` cases (times `REFERENCE_CASES`), seeded by `REFERENCE_SEED` if set.
fn runner(cases: u32) -> TestRunner {
    let factor: u32 = std::env::var("REFERENCE_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let config = Config { cases: cases * factor, failure_persistence: None, ..Config::default() };
    let rng = match std::env::var("REFERENCE_SEED").ok().and_then(|s| s.parse::<u64>().ok()) {
        Some(seed) => {
            let mut bytes = [0u8; 32];
            bytes[..8].copy_from_slice(&seed.to_le_bytes());
            TestRng::from_seed(RngAlgorithm::ChaCha, &bytes)
        }
        None => TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    };
    TestRunner::new_with_rng(config, rng)
}

fn run<S: Strategy>(cases: u32, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>) {
    if let Err(e) = runner(cases).run(&strategy, test) {
        panic!("{e}");
    }
}

/// What the random tests covered, printed with `--nocapture`.
#[derive(Default)]
struct Coverage {
    cases: Cell<usize>,
    turns: Cell<usize>,
    /// Turns of three or more capturing steps.
    long_relays: Cell<usize>,
    longest: Cell<usize>,
    /// Games that ended because the side to move had no turn; vela phases that ended during a game.
    games_over: Cell<usize>,
    vela_ends: Cell<usize>,
}

impl Coverage {
    fn add_turns(&self, turns: &[(String, Board)]) {
        self.turns.set(self.turns.get() + turns.len());
        for (name, _) in turns {
            let steps = name.split(' ').count();
            self.long_relays.set(self.long_relays.get() + usize::from(steps >= 3));
            self.longest.set(self.longest.get().max(steps));
        }
    }

    fn report(&self, test: &str) {
        println!(
            "{test}: {} cases, {} turns compared, {} of 3+ steps, longest {} steps, {} games over, {} vela phases ended",
            self.cases.get(),
            self.turns.get(),
            self.long_relays.get(),
            self.longest.get(),
            self.games_over.get(),
            self.vela_ends.get()
        );
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------------------------------------------

fn side(black: bool) -> Side {
    if black { Side::Black } else { Side::White }
}

/// Random rule options; the relay-limiting ones are rarer, so that relays stay common.
fn options() -> impl Strategy<Value = Options> {
    let vela = prop_oneof![3 => Just(None), 1 => (any::<bool>(), 0usize..=17).prop_map(Some)];
    (any::<bool>(), any::<bool>(), prop::bool::weighted(0.25), prop::bool::weighted(0.25), vela).prop_map(
        |(dimy, lines, first_turn_no_relay, single_first_capture, vela)| {
            let mut o = Options { dimy, lines, first_turn_no_relay, single_first_capture, vela: None };
            // `missing` more captures end the vela phase (none: it is over from the start).
            let threshold = o.vela_threshold();
            o.vela = vela.map(|(black, missing)| (side(black), threshold.saturating_sub(missing) as u8));
            o
        },
    )
}

/// Random positions under random options: each point empty with a random probability (dense to sparse), else a
/// random colour; at most the start count of pieces per side and at least one.
fn positions() -> impl Strategy<Value = Board> {
    (options(), 1u8..=8, prop::collection::vec(0u8..10, CELLS), any::<bool>())
        .prop_map(|(opts, empty_below, cells, black)| {
            let mut board = [None; CELLS];
            let mut counts = [0; 2];
            for (p, &v) in cells.iter().enumerate() {
                if p % STRIDE >= opts.width() || v < empty_below {
                    continue;
                }
                let s = side(v % 2 == 1);
                if counts[s as usize] < opts.start_pieces() {
                    counts[s as usize] += 1;
                    board[p] = Some(s);
                }
            }
            Board::new(opts, board, side(black))
        })
        .prop_filter("both sides have pieces", |b| b.count(Side::White) > 0 && b.count(Side::Black) > 0)
}

/// A game start: the start position under random options, or a random position.
fn game_starts() -> impl Strategy<Value = Board> {
    prop_oneof![options().prop_map(Board::start), positions()]
}

// ---------------------------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn reference_agrees_with_known_start_turns() {
    let b = Board::start(Options::DEFAULT);
    assert_eq!(b.fen(), "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w");
    let mut names: Vec<String> = b.turns().into_iter().map(|(n, _)| n).collect();
    names.sort();
    assert_eq!(names, ["d2-e3A", "d3-e3A", "d3-e3W", "e2-e3A", "f2-e3A"]);
    let d = Board::start(Options { dimy: true, ..Options::DEFAULT });
    assert_eq!(d.fen(), "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w");
}

#[test]
fn start_perft_matches_engine() {
    let cases: [(Options, u32); 7] = [
        (Options::DEFAULT, 5),
        (Options { dimy: true, ..Options::DEFAULT }, 5),
        (Options { lines: true, ..Options::DEFAULT }, 4),
        (Options { first_turn_no_relay: true, ..Options::DEFAULT }, 4),
        (Options { single_first_capture: true, ..Options::DEFAULT }, 4),
        (Options { vela: Some((Side::White, 0)), ..Options::DEFAULT }, 4),
        (Options { dimy: true, lines: true, ..Options::DEFAULT }, 5),
    ];
    for (opts, max_depth) in cases {
        let reference = Board::start(opts);
        let engine = Position::start(&opts.rules());
        same_position(&reference, &engine).unwrap();
        for depth in 1..=max_depth {
            let expected = reference.perft(depth);
            println!("start perft {opts:?} depth {depth}: {expected}");
            assert_eq!(engine.perft(depth), expected, "start perft {opts:?} depth {depth}");
        }
    }
}

#[test]
fn no_pieces_or_no_moves_means_no_turns() {
    // Black has no pieces; Black has no pieces on 5x5; White's only piece is walled in.
    for fen in ["9/9/9/9/4W4 b", "5/5/5/5/W4 b", "9/9/9/BB7/WB7 w"] {
        let variant = if fen.starts_with("5/") { Variant::Dimy } else { Variant::Tsivy };
        let pos = Position::from_fen_with_rules(fen, &Rules { variant, ..Rules::default() }).unwrap();
        assert!(pos.legal_turns().is_empty(), "{fen}");
        assert_eq!(pos.perft(1), 0, "{fen}");
        assert_eq!(pos.perft(2), 0, "{fen}");
    }
}

#[test]
fn random_positions_have_the_same_turns() {
    let seen = Coverage::default();
    run(2000, positions(), |reference| {
        seen.cases.set(seen.cases.get() + 1);
        let engine = reference.engine();
        same_position(&reference, &engine)?;
        seen.add_turns(&same_turns(&reference, &engine)?);
        // The FEN route gives the same position as from_parts.
        let from_fen = Position::from_fen_with_rules(&reference.fen(), &reference.opts.rules()).unwrap();
        prop_assert_eq!(from_fen.legal_turns(), engine.legal_turns());
        Ok(())
    });
    seen.report("random positions");
}

#[test]
fn random_games_stay_in_step() {
    let seen = Coverage::default();
    run(500, (game_starts(), prop::collection::vec(any::<Index>(), 60)), |(start, choices)| {
        seen.cases.set(seen.cases.get() + 1);
        let mut reference = start;
        let mut engine = reference.engine();
        for choice in choices {
            same_position(&reference, &engine)?;
            let turns = same_turns(&reference, &engine)?;
            seen.add_turns(&turns);
            if turns.is_empty() {
                seen.games_over.set(seen.games_over.get() + 1);
                break;
            }
            let (name, next) = &turns[choice.index(turns.len())];
            let turn = engine.legal_turns().into_iter().find(|t| t.to_string() == *name).unwrap();
            let before = engine;
            if let Err(e) = engine.play_turn(&turn) {
                return Err(TestCaseError::fail(format!("engine refuses its own turn {name} in {before}: {e}")));
            }
            if reference.vela.is_some() && next.vela.is_none() {
                seen.vela_ends.set(seen.vela_ends.get() + 1);
            }
            reference = next.clone();
        }
        Ok(())
    });
    seen.report("random games");
}

#[test]
fn random_positions_have_the_same_perft() {
    let (cases, leaves) = (Cell::new(0), Cell::new(0));
    run(60, positions(), |reference| {
        let engine = reference.engine();
        let expected = reference.perft(3);
        cases.set(cases.get() + 1);
        leaves.set(leaves.get() + expected);
        prop_assert_eq!(engine.perft(3), expected, "perft(3) of {:?}", reference);
        Ok(())
    });
    println!("random perft: {} cases, {} leaves in all", cases.get(), leaves.get());
}
