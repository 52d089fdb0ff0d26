//! Making opening books: each position of the first turns (or of the balanced openings' ends) searched by full
//! strength, its best turns kept. Apart from the book itself, which the search reads, so that reading a book needs
//! no search.

use fanorona_engine::book::{BookMove, OpeningBook};
use fanorona_engine::game::Game;
use fanorona_engine::position::Position;
use fanorona_engine::rules::Rules;
use fanorona_engine::search::{Limits, Searcher};

/// How [`generate`] searches.
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

/// Every distinct position `turns` turns from the start (default rules) that is not over and whose search of
/// `depth` turns (the balanced-opening generator's, [`crate::sprt::Openings::generate`]: `max,qs-turns=2`)
/// scores within `margin` of even, with that score: most balanced first, then by FEN, so the order depends
/// on nothing else. Where random balanced openings of that length end.
pub fn balanced_positions(turns: usize, depth: u32, margin: i32) -> Vec<(Position, i32)> {
    balanced_positions_checked(turns, depth, margin, None)
}

/// [`balanced_positions`], with `check` = (nodes, threads) widened to the positions that
/// full strength, searching that many nodes each (a fresh table each, that many at once), scores within
/// `margin` too: of random 4-turn openings that a 300,000-node search scores within a piece of even, the
/// depth-4 check keeps only half, so an opening that another program's check calls balanced is often not
/// among its positions. Those the second check keeps come with its score.
pub fn balanced_positions_checked(
    turns: usize,
    depth: u32,
    margin: i32,
    check: Option<(u64, usize)>,
) -> Vec<(Position, i32)> {
    let layer = OpeningBook::positions_after(turns);
    let mut searcher = Searcher::new(16);
    searcher.configure("max,qs-turns=2").expect("valid options");
    let mut kept: Vec<(String, Position, i32)> = Vec::new();
    let mut unbalanced = Vec::new();
    for pos in layer {
        searcher.clear();
        let limits = Limits { depth: Some(depth), nodes: Some(4_000_000), ..Limits::default() };
        let r = searcher.search(&pos, &[], limits, |_| {});
        if r.depth == depth && r.score.abs() <= margin {
            kept.push((pos.to_fen(), pos, r.score));
        } else {
            unbalanced.push(pos);
        }
    }
    if let Some((nodes, threads)) = check {
        let games: Vec<Game> = unbalanced.iter().map(|p| Game::from_position(*p, Rules::default())).collect();
        let cfg = BookConfig {
            turns,
            nodes,
            lines: 1,
            follow_margin: 0,
            options: fanorona_engine::levels::FULL_STRENGTH,
            threads,
        };
        for (pos, moves) in unbalanced.into_iter().zip(search_games(&games, &cfg, |_, _| {})) {
            if let Some(score) = moves.first().map(|m| m.score).filter(|s| s.abs() <= margin) {
                kept.push((pos.to_fen(), pos, score));
            }
        }
    }
    kept.sort_by(|a, b| (a.2.abs(), &a.0).cmp(&(b.2.abs(), &b.0)));
    kept.into_iter().map(|(_, p, s)| (p, s)).collect()
}

/// Searches `positions` as [`generate`] searches a turn's positions (`nodes` and `lines`
/// each, a fresh table each, `threads` at once), in chunks, leaving out those `skip` has; `progress` hears
/// the positions done, of how many, and the book so far after each chunk (to save it as it grows).
pub fn generate_balanced(
    positions: &[Position],
    cfg: &BookConfig,
    skip: &OpeningBook,
    mut progress: impl FnMut(usize, usize, &OpeningBook),
) -> OpeningBook {
    // Two ends can share a reply: each position is searched once.
    let mut seen = std::collections::HashSet::new();
    let todo: Vec<Game> = positions
        .iter()
        .filter(|p| !skip.contains_fen(&p.to_fen()) && seen.insert(p.to_fen()))
        .map(|p| Game::from_position(*p, Rules::default()))
        .collect();
    let mut book = OpeningBook::default();
    let mut done = 0;
    for chunk in todo.chunks(64) {
        let results = search_games(chunk, cfg, |_, _| {});
        for (game, moves) in chunk.iter().zip(results) {
            if !moves.is_empty() {
                book.insert(game.position().to_fen(), moves);
            }
        }
        done += chunk.len();
        progress(done, todo.len(), &book);
    }
    book
}

/// Builds a book from the start position (default rules, Fanoron-Tsivy): breadth-first to `cfg.turns`
/// turns, each position searched with `cfg.lines` lines; the position after every line within
/// `cfg.follow_margin` of the best is searched next. Positions of a turn are searched in parallel, each
/// with a fresh table, so the book depends only on `cfg`. `progress` hears (turn, positions done, of).
pub fn generate(cfg: &BookConfig, mut progress: impl FnMut(usize, usize, usize)) -> OpeningBook {
    let mut book = OpeningBook::default();
    let mut frontier = vec![Game::new(Rules::default())];
    for turn in 0..cfg.turns {
        let results = search_games(&frontier, cfg, |done, of| progress(turn, done, of));
        let mut next_frontier = Vec::new();
        for (game, moves) in frontier.iter().zip(results) {
            let Some(top) = moves.first().map(|m| m.score) else { continue };
            for m in moves.iter().filter(|m| m.score >= top - cfg.follow_margin) {
                let mut child = game.clone();
                if child.play_turn(&m.turn).is_ok()
                    && !child.is_over()
                    && !book.contains_fen(&child.position().to_fen())
                    && !next_frontier.iter().any(|g: &Game| g.position().to_fen() == child.position().to_fen())
                {
                    next_frontier.push(child);
                }
            }
            book.insert(game.position().to_fen(), moves);
        }
        frontier = next_frontier;
    }
    book
}

/// Searches each game's position with `cfg.nodes` and `cfg.lines` (a fresh table each, so that the result
/// depends only on `cfg`), `cfg.threads` at once: the scored turns of each, best first, in the games' order.
/// `progress` hears (positions done, of) while they run.
fn search_games(games: &[Game], cfg: &BookConfig, mut progress: impl FnMut(usize, usize)) -> Vec<Vec<BookMove>> {
    let total = games.len();
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
                        let mut n = next.lock().unwrap_or_else(|e| e.into_inner());
                        *n += 1;
                        *n - 1
                    };
                    let Some(game) = games.get(i) else { break };
                    searcher.clear();
                    let history = fanorona_engine::levels::history_hashes(game);
                    let limits = Limits::nodes(cfg.nodes).with_multipv(cfg.lines);
                    let r = searcher.search(game.position(), &history, limits, |_| {});
                    let mut moves: Vec<BookMove> =
                        r.lines.iter().map(|l| BookMove { turn: l.pv[0].clone(), score: l.score }).collect();
                    moves.sort_by_key(|m| std::cmp::Reverse(m.score));
                    results.lock().unwrap_or_else(|e| e.into_inner()).push((i, moves));
                    done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
            });
        }
        let mut shown = usize::MAX;
        while done.load(std::sync::atomic::Ordering::Relaxed) < total {
            let d = done.load(std::sync::atomic::Ordering::Relaxed);
            if d != shown {
                progress(d, total);
                shown = d;
            }
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
    });
    progress(total, total);
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|r| r.0);
    results.into_iter().map(|r| r.1).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balanced_positions_are_the_distinct_ends_scored_near_even_most_balanced_first() {
        let all = balanced_positions(2, 2, 100_000);
        // 39 sequences of two turns from the start, no two ending in the same position.
        assert_eq!(all.len(), 39);
        assert!(all.windows(2).all(|w| w[0].1.abs() <= w[1].1.abs()));
        let near = balanced_positions(2, 2, 30);
        assert!(!near.is_empty() && near.len() < all.len());
        assert!(near.iter().all(|(_, s)| s.abs() <= 30));
        assert_eq!(near[..], all[..near.len()]);
    }

    #[test]
    fn a_second_balance_check_adds_the_positions_it_scores_near_even() {
        let margin = 30;
        let shallow = balanced_positions(2, 2, margin);
        let nodes = 5_000;
        let checked = balanced_positions_checked(2, 2, margin, Some((nodes, 2)));
        assert!(checked.len() > shallow.len(), "the second check adds none");
        assert!(shallow.iter().all(|p| checked.contains(p)), "it keeps those of the first");
        assert!(checked.windows(2).all(|w| w[0].1.abs() <= w[1].1.abs()));
        // Each added one is what full strength scores within the margin.
        for (pos, score) in checked.iter().filter(|p| !shallow.contains(p)) {
            let mut s = Searcher::new(64);
            s.configure(fanorona_engine::levels::FULL_STRENGTH).unwrap();
            let r = s.search(pos, &[], Limits::nodes(nodes), |_| {});
            assert_eq!(r.score, *score, "{}", pos.to_fen());
            assert!(score.abs() <= margin);
        }
    }

    #[test]
    fn the_balanced_generator_searches_what_the_skipped_book_lacks_and_repeats_itself() {
        let cfg = BookConfig {
            turns: 0,
            nodes: 20_000,
            lines: 2,
            follow_margin: 0,
            options: fanorona_engine::levels::FULL_STRENGTH,
            threads: 2,
        };
        let positions: Vec<Position> = balanced_positions(2, 2, 100_000).into_iter().map(|p| p.0).collect();
        let skip = OpeningBook::parse(&format!("{} | {} = 0\n", positions[0].to_fen(), positions[0].legal_turns()[0]))
            .unwrap();
        let mut calls = Vec::new();
        // The second position twice: searched once.
        let mut twice = positions[..5].to_vec();
        twice.insert(2, positions[1]);
        let book = generate_balanced(&twice, &cfg, &skip, |done, of, b| {
            calls.push((done, of, b.len()));
        });
        assert_eq!(book.len(), 4);
        assert!(!book.contains_fen(&positions[0].to_fen()));
        for p in &positions[1..5] {
            let moves = book.moves(p).unwrap();
            assert!(!moves.is_empty() && moves.len() <= 2);
            assert!(moves.iter().all(|m| p.legal_turns().contains(&m.turn)));
        }
        assert_eq!(calls.last(), Some(&(4, 4, 4)));
        // Fixed nodes and a fresh table for each: the same book again.
        assert_eq!(generate_balanced(&positions[..5], &cfg, &skip, |_, _, _| {}), book);
    }

    #[test]
    fn generation_follows_close_turns_for_both_sides() {
        let cfg = BookConfig {
            turns: 2,
            nodes: 100_000,
            lines: 3,
            follow_margin: 1_000,
            options: fanorona_engine::levels::FULL_STRENGTH,
            threads: 2,
        };
        let book = generate(&cfg, |_, _, _| {});
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
        assert_eq!(generate(&cfg, |_, _, _| {}), book);
    }
}
