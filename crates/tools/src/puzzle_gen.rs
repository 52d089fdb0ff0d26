//! Puzzle generation (`fanorona-cli puzzles`): `win-in-N` puzzles from the tablebase and tactics from self-play
//! games between noisy levels, each answer proven unique as [`fanorona_engine::puzzles`] says.

use fanorona_engine::geometry::Variant;
use fanorona_engine::levels::Level;
use fanorona_engine::position::{Position, StepKind};
use fanorona_engine::puzzles::{
    Kind, MARGIN, Puzzle, VERIFY_DEPTH, puzzle_searcher, taken, unique_winning_turn, verify_win,
};
use fanorona_engine::review::biggest_capture;
use fanorona_engine::rules::{Rules, Side};
use fanorona_engine::search::{Limits, Searcher};
use fanorona_engine::tablebase::{Tablebase, TbValue};
use fanorona_engine::turns::Turn;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// How many puzzles of each kind to generate on one board.
#[derive(Clone, Copy, Debug)]
pub struct Quota {
    /// The board.
    pub variant: Variant,
    /// `win-in-N` puzzles.
    pub win: usize,
    /// `biggest-relay` puzzles.
    pub relay: usize,
    /// `save-your-pieces` puzzles.
    pub save: usize,
    /// `approach-or-withdrawal` puzzles.
    pub choice: usize,
}

/// Generates puzzles: `win-in-N` from random endgames of the [`fanorona_engine::tablebase::QUICK_PIECES`]-piece table, the
/// tactical kinds from the turn-start positions of self-play games between noisy levels (which leave tactics on the
/// board), each answer proven unique as the [puzzles' documentation](fanorona_engine::puzzles) says. `progress` gets a line now and
/// then. Deterministic for a seed.
pub fn generate(quota: Quota, seed: u64, mut progress: impl FnMut(&str)) -> Vec<Puzzle> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut rng = SmallRng::seed_from_u64(seed);
    let tb = fanorona_engine::tablebase::shared(quota.variant, None);
    let mut tries = 0u64;
    let mut wins = 0;
    while wins < quota.win && tries < 50_000_000 {
        tries += 1;
        if let Some(p) = win_puzzle(&tb, quota.variant, &mut rng)
            && seen.insert(p.position.to_fen())
        {
            out.push(p);
            wins += 1;
        }
    }
    progress(&format!("{}: {wins} win-in-N puzzles from {tries} random endgames", quota.variant));

    let mut searcher = puzzle_searcher(8);
    let (mut relay, mut save, mut choice) = (0, 0, 0);
    let mut games = 0;
    while (relay < quota.relay || save < quota.save || choice < quota.choice) && games < 5_000 {
        games += 1;
        for game_pos in self_play_positions(quota.variant, &mut rng, &mut searcher) {
            // A position where the opponent could capture, with the side to move as if the opponent had passed: a
            // threat to answer (the natural positions of a game rarely leave one standing).
            let flipped = Position::from_parts(
                quota.variant,
                game_pos.pieces(Side::White),
                game_pos.pieces(Side::Black),
                game_pos.side_to_move().opponent(),
                &Rules { variant: quota.variant, ..Rules::default() },
            );
            let pos = if game_pos.has_capture() && !flipped.has_capture() && save < quota.save && rng.random_bool(0.5) {
                flipped
            } else {
                game_pos
            };
            if !seen.insert(pos.to_fen()) {
                continue;
            }
            let Some(p) = tactic_puzzle(&pos, &mut searcher) else { continue };
            let slot = match p.kind {
                Kind::BiggestRelay => &mut relay,
                Kind::SaveYourPieces => &mut save,
                Kind::ApproachOrWithdrawal => &mut choice,
                Kind::WinIn(_) => continue,
            };
            let cap = match p.kind {
                Kind::BiggestRelay => quota.relay,
                Kind::SaveYourPieces => quota.save,
                _ => quota.choice,
            };
            if *slot < cap {
                *slot += 1;
                out.push(p);
            }
        }
        if games % 10 == 0 {
            progress(&format!(
                "{}: {games} games, {relay} relay, {save} save, {choice} capture-choice puzzles",
                quota.variant
            ));
        }
    }
    out
}

/// A random endgame with a unique `win-in-N` line (2 ≤ N ≤ 4), or None.
fn win_puzzle(tb: &Tablebase, variant: Variant, rng: &mut SmallRng) -> Option<Puzzle> {
    let board = variant.geometry().board;
    let total = rng.random_range(3..=tb.max_pieces());
    let own = rng.random_range(1..total);
    let mut bits = [0u64; 2];
    let mut placed = 0;
    while placed < total {
        let b = 1u64 << rng.random_range(0..64);
        if b & board != 0 && (bits[0] | bits[1]) & b == 0 {
            bits[usize::from(placed >= own)] |= b;
            placed += 1;
        }
    }
    let side = if rng.random_bool(0.5) { Side::White } else { Side::Black };
    let (white, black) = if side == Side::White { (bits[0], bits[1]) } else { (bits[1], bits[0]) };
    let pos = Position::from_parts(variant, white, black, side, &Rules { variant, ..Rules::default() });
    let TbValue::Win(d) = tb.probe(&pos)? else { return None };
    // A single legal turn would be no question at all.
    if !(3..=7).contains(&d) || pos.legal_turns().len() < 2 {
        return None;
    }
    let mut solution = Vec::new();
    let mut p = pos;
    for i in 0..d {
        let t = if i.is_multiple_of(2) { unique_winning_turn(tb, &p)? } else { tb.best_turn(&p)?.0 };
        p.play_turn(&t).ok()?;
        solution.push(t);
    }
    let n = d.div_ceil(2);
    let legal = pos.legal_turns().len() as u32;
    let rating = 900 + 250 * (n - 2) + 12 * legal.min(40) + if total >= 4 { 100 } else { 0 };
    let puzzle = Puzzle { kind: Kind::WinIn(n), rating, position: pos, solution, theme: "endgame".to_string() };
    verify_win(&puzzle, tb).then_some(puzzle)
}

/// The turn-start positions of one game between noisy levels from a few random opening turns.
fn self_play_positions(variant: Variant, rng: &mut SmallRng, searcher: &mut Searcher) -> Vec<Position> {
    let rules = Rules { variant, ..Rules::default() };
    let mut pos = Position::start(&rules);
    let mut out = Vec::new();
    let levels = [Level::Beginner, Level::Novice];
    let (a, b) = (levels[rng.random_range(0..2)], levels[rng.random_range(0..2)]);
    for ply in 0..120 {
        let turns = pos.legal_turns();
        if turns.is_empty() {
            break;
        }
        out.push(pos);
        let turn = if ply < 3 {
            turns[rng.random_range(0..turns.len())].clone()
        } else {
            let level = if pos.side_to_move() == Side::White { a } else { b };
            match level.choose(searcher, &pos, &[], rng.random(), Limits::default()) {
                Some(t) if pos.legal_turns().contains(&t) => t,
                _ => turns[0].clone(),
            }
        };
        if pos.play_turn(&turn).is_err() {
            break;
        }
    }
    out
}

/// A tactical puzzle at `pos`, if it has one with a unique answer.
fn tactic_puzzle(pos: &Position, searcher: &mut Searcher) -> Option<Puzzle> {
    let turns = pos.legal_turns();
    if turns.len() < 3 {
        return None;
    }
    let after: Vec<Position> = turns
        .iter()
        .map(|t| {
            let mut c = *pos;
            let _ = c.play_turn(t);
            c
        })
        .collect();
    let legal = turns.len() as u32;
    let (kind, answer, theme, base) = if pos.has_capture() {
        let took: Vec<u32> = after.iter().map(|a| taken(pos, a)).collect();
        let most = *took.iter().max()?;
        let best_i = took.iter().position(|&t| t == most)?;
        let answer = turns[best_i].clone();
        let first = answer.steps[0];
        let twin = turns.iter().any(|t| {
            let s = t.steps[0];
            (s.from, s.to) == (first.from, first.to) && s.kind != first.kind && s.kind != StepKind::Paika
        });
        if twin {
            (Kind::ApproachOrWithdrawal, None, "capture-choice", 1000)
        } else if most >= 3 && answer.len() >= 2 && took.iter().filter(|&&t| t == most).count() == 1 {
            (Kind::BiggestRelay, Some(answer), "relay", 700)
        } else {
            return None;
        }
    } else {
        if pos.threat() == 0 {
            return None;
        }
        let allowed: Vec<u32> = after.iter().map(biggest_capture).collect();
        if allowed.iter().filter(|&&a| a == 0).count() != 1 {
            return None;
        }
        let i = allowed.iter().position(|&a| a == 0)?;
        (Kind::SaveYourPieces, Some(turns[i].clone()), "defence", 1000)
    };
    let answer = match answer {
        Some(a) => a,
        None => {
            // A capture choice: the engine's best must be a capture whose step has a twin of the other kind.
            searcher.clear();
            let best = searcher.search(pos, &[], Limits::depth(VERIFY_DEPTH - 1), |_| {}).best?;
            let first = best.steps[0];
            if !turns.iter().any(|t| {
                let s = t.steps[0];
                (s.from, s.to) == (first.from, first.to) && s.kind != first.kind && s.kind != StepKind::Paika
            }) {
                return None;
            }
            best
        }
    };
    let needed = engine_verdict(searcher, pos, &answer, VERIFY_DEPTH)?;
    let rating = base + 150 * (needed - 1) + 6 * legal.min(60) + 40 * (answer.len() as u32 - 1);
    Some(Puzzle { kind, rating, position: *pos, solution: vec![answer], theme: theme.to_string() })
}

/// The engine's check of a tactical answer: one multi-PV search (two lines) to `depth`; the answer must lead by at
/// least [`MARGIN`] at `depth` and at `depth − 1` (so that it does not hang on the last turn searched). Returns the
/// smallest depth from which line 1 is the answer for good, as a measure of difficulty.
fn engine_verdict(searcher: &mut Searcher, pos: &Position, answer: &Turn, depth: u32) -> Option<u32> {
    searcher.clear();
    // Per depth: line 1's turn, and the lead of line 1 over line 2.
    let mut by_depth: Vec<(Option<Turn>, i32)> = vec![(None, i32::MIN); depth as usize + 1];
    let mut line1 = None;
    let r = searcher.search(pos, &[], Limits::depth(depth).with_multipv(2), |i| {
        let d = i.depth as usize;
        if i.multipv == 1 {
            line1 = Some(i.score);
            by_depth[d].0 = i.pv.first().cloned();
        } else if let Some(l1) = line1 {
            by_depth[d].1 = l1 - i.score;
        }
    });
    if r.depth < depth {
        return None;
    }
    for d in [depth, depth - 1] {
        let (first, lead) = &by_depth[d as usize];
        if first.as_ref() != Some(answer) || *lead < MARGIN {
            return None;
        }
    }
    let mut needed = depth;
    while needed > 1 && by_depth[needed as usize - 1].0.as_ref() == Some(answer) {
        needed -= 1;
    }
    Some(needed)
}
