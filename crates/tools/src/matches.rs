//! Engine-vs-engine games and matches with randomised openings, for self-play and the level ladder.

use fanorona_engine::game::{Game, GameResult, Outcome};
use fanorona_engine::levels::{Level, history_hashes};
use fanorona_engine::rules::{Rules, Side};
use fanorona_engine::search::{Limits, Searcher};
use fanorona_engine::turns::Turn;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Duration;

/// Opening turns are drawn from those that score within this much of the best (hundredths of a piece).
const OPENING_MARGIN: i32 = 40;

/// One player of a match: a level, with an optional cap on its thinking time per turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    /// The level.
    pub level: Level,
    /// At most this long per turn (None: the level's own budget).
    pub movetime: Option<Duration>,
}

impl Player {
    /// A player at a level's own settings.
    pub fn new(level: Level) -> Player {
        Player { level, movetime: None }
    }

    fn cap(&self) -> Limits {
        Limits { movetime: self.movetime, ..Limits::default() }
    }
}

/// A finished game between two players.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The turns, in order (the random opening included).
    pub turns: Vec<Turn>,
    /// How the game ended by rule (None: stopped at the turn limit, counted as a draw).
    pub outcome: Option<Outcome>,
    /// Number of opening turns that were played at random.
    pub opening: usize,
}

/// How games of a match are set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The rules.
    pub rules: Rules,
    /// Turns played at random before the players take over.
    pub opening: usize,
    /// Seed of the random opening and of the levels' choices.
    pub seed: u64,
    /// A game still going after this many turns stops, drawn.
    pub max_turns: usize,
}

impl Default for Setup {
    fn default() -> Self {
        Setup { rules: Rules::default(), opening: 2, seed: 1, max_turns: 400 }
    }
}

/// Plays one game: the random opening (random among sound turns), then `white` and `black` alternate until the game ends by rule or at the
/// turn limit. `on_turn` sees each turn as it is played.
pub fn play_game(
    setup: &Setup,
    white: Player,
    black: Player,
    mut on_turn: impl FnMut(usize, Side, &Turn),
) -> GameRecord {
    let Setup { rules, opening, seed, max_turns } = *setup;
    let mut game = Game::new(rules);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut searchers = [Searcher::new(16), Searcher::new(16)];
    for s in &mut searchers {
        s.set_draw_rule(rules.draw);
    }
    let mut n = 0;
    while !game.is_over() && n < max_turns {
        let pos = *game.position();
        let side = pos.side_to_move();
        let turn = if n < opening {
            // Random but sound: a blunder in the opening would decide the game before the players start.
            let scored = searchers[0].score_turns(&pos, &history_hashes(&game), 3);
            let best = scored.first().map_or(0, |s| s.1);
            let sound: Vec<&(Turn, i32)> = scored.iter().filter(|s| s.1 >= best - OPENING_MARGIN).collect();
            sound[rng.random_range(0..sound.len())].0.clone()
        } else {
            let player = if side == Side::White { white } else { black };
            let history = history_hashes(&game);
            let s = &mut searchers[side.index()];
            match player.level.choose(s, &pos, &history, rng.random(), player.cap()) {
                Some(t) => t,
                None => break,
            }
        };
        game.play_turn(&turn).expect("players only choose legal turns");
        on_turn(n + 1, side, &turn);
        n += 1;
    }
    GameRecord { turns: game.turns().to_vec(), outcome: game.outcome(), opening }
}

impl GameRecord {
    /// The result (a game stopped at the turn limit is a draw).
    pub fn result(&self) -> GameResult {
        self.outcome.map_or(GameResult::Draw, |o| o.result())
    }
}

/// The score of a match from player A's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchScore {
    /// Games A won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games A lost.
    pub losses: u32,
}

impl MatchScore {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// A's score as a fraction: wins count 1, draws 1/2.
    pub fn fraction(&self) -> f64 {
        if self.games() == 0 { 0.0 } else { (self.wins as f64 + self.draws as f64 / 2.0) / self.games() as f64 }
    }
}

/// Plays `pairs` pairs of games between A and B: each random opening once with A as White and once as Black.
/// `report` sees every finished game (A's side, record).
pub fn play_match(
    setup: &Setup,
    a: Player,
    b: Player,
    pairs: u32,
    mut report: impl FnMut(Side, &GameRecord),
) -> MatchScore {
    let mut score = MatchScore::default();
    for i in 0..pairs as u64 {
        for a_side in Side::BOTH {
            let (w, bl) = if a_side == Side::White { (a, b) } else { (b, a) };
            let game_setup = Setup { seed: setup.seed.wrapping_mul(1_000_003).wrapping_add(i), ..*setup };
            let rec = play_game(&game_setup, w, bl, |_, _, _| {});
            match rec.result() {
                GameResult::Win(s) if s == a_side => score.wins += 1,
                GameResult::Win(_) => score.losses += 1,
                GameResult::Draw => score.draws += 1,
            }
            report(a_side, &rec);
        }
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quick_game_ends_and_is_replayable() {
        let p = Player { level: Level::Beginner, movetime: Some(Duration::from_millis(20)) };
        let rec = play_game(&Setup { seed: 7, ..Setup::default() }, p, p, |_, _, _| {});
        // Replaying the record through a fresh game gives the same result.
        let mut g = Game::new(Rules::default());
        for t in &rec.turns {
            g.play_turn(t).unwrap();
        }
        assert_eq!(g.outcome(), rec.outcome);
    }
}
