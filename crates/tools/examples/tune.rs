//! Tuning matches: a searcher with one setting changed (B) plays the default searcher (A) at equal time.
//!
//! `cargo run --release -p fanorona-tools --example tune -- <setting> <value> [movetime-ms] [pairs]`, where
//! setting is one of `threat`, `contempt`, `lmr`, `qs-floor`, `qs-table`, `qs-turns`, `killers`. `fanorona-cli sprt`
//! is the better tool: a fixed book of balanced openings, both cores, error bars and a stopping rule. Each pair starts from a
//! random (but sound) two-turn opening and is played once with B as White and once as Black. Expect about ±8% of noise in
//! 40 games.

use fanorona_engine::levels::history_hashes;
use fanorona_engine::search::{Limits, Searcher};
use fanorona_engine::{Game, GameResult, Rules, Side};
use rand::{Rng, SeedableRng};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: tune <threat|contempt|lmr|qs-floor|qs-table|qs-turns> <value> [movetime-ms] [pairs]";
    let setting = args.first().ok_or(usage)?.clone();
    let value: i32 = args.get(1).and_then(|v| v.parse().ok()).ok_or(usage)?;
    let movetime: u64 = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(60);
    let pairs: u64 = args.get(3).and_then(|v| v.parse().ok()).unwrap_or(20);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for i in 0..pairs {
        for b_side in Side::BOTH {
            let mut game = Game::new(Rules::default());
            let mut rng = rand::rngs::SmallRng::seed_from_u64(i * 7 + 3);
            let mut a = Searcher::new(16);
            let mut b = Searcher::new(16);
            b.configure(&format!("{setting}={value}"))?;
            let mut turns = 0;
            while !game.is_over() && turns < 300 {
                let pos = *game.position();
                let turn = if turns < 2 {
                    // Random among sound turns: an opening blunder would decide the game by itself.
                    let scored = a.score_turns(&pos, &history_hashes(&game), 3);
                    let best = scored.first().map_or(0, |s| s.1);
                    let sound: Vec<_> = scored.iter().filter(|s| s.1 >= best - 40).collect();
                    sound[rng.random_range(0..sound.len())].0.clone()
                } else {
                    let s = if pos.side_to_move() == b_side { &mut b } else { &mut a };
                    let r = s.search(&pos, &history_hashes(&game), Limits::movetime(movetime), |_| {});
                    r.best.ok_or("no turn")?
                };
                game.play_turn(&turn).map_err(|e| e.to_string())?;
                turns += 1;
            }
            match game.outcome().map(|o| o.result()) {
                Some(GameResult::Win(s)) if s == b_side => wins += 1,
                Some(GameResult::Win(_)) => losses += 1,
                _ => draws += 1,
            }
        }
    }
    let score = (wins as f64 + draws as f64 / 2.0) / (wins + draws + losses) as f64;
    println!(
        "B ({setting} = {value}) vs A (defaults), {movetime} ms a turn: +{wins} ={draws} -{losses} ({:.1}%)",
        100.0 * score
    );
    Ok(())
}
