//! CPU levels, from a beginner who makes human-looking mistakes to full-strength master play with opening
//! variety; draw-offer judgement and hints.

use crate::game::Game;
use crate::position::Position;
use crate::rules::Side;
use crate::search::{Info, Limits, Oracle, PIECE, Searcher};
use crate::tablebase;
use crate::turns::Turn;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;
use std::time::Duration;

/// A CPU playing strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Level {
    /// Looks one turn ahead, misjudges often, sometimes stops a relay too early.
    Beginner = 1,
    /// Looks two turns ahead with some noise.
    Novice = 2,
    /// A club player: three turns and a little noise.
    #[default]
    Intermediate = 3,
    /// A solid search with a short time budget.
    Advanced = 4,
    /// Full strength: deep search, endgame tablebase, opening variety.
    Master = 5,
}

struct Spec {
    /// Search depth of each candidate turn's evaluation (noisy levels) or of the search.
    depth: u32,
    /// Time budget (full searches only).
    movetime: Option<u64>,
    /// Spread of the evaluation noise in hundredths of a piece (0: none, full search).
    noise: i32,
    /// Chance of stopping a relay early, as if its continuation went unseen.
    relay_cut: f64,
}

impl Level {
    /// All levels, weakest first.
    pub const ALL: [Level; 5] = [Level::Beginner, Level::Novice, Level::Intermediate, Level::Advanced, Level::Master];

    /// The level with number 1..=5.
    pub fn from_number(n: u8) -> Option<Level> {
        Level::ALL.get((n as usize).checked_sub(1)?).copied()
    }

    /// The number 1..=5.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// Name shown to players.
    pub fn name(self) -> &'static str {
        match self {
            Level::Beginner => "Beginner",
            Level::Novice => "Novice",
            Level::Intermediate => "Intermediate",
            Level::Advanced => "Advanced",
            Level::Master => "Master",
        }
    }

    fn spec(self) -> Spec {
        match self {
            Level::Beginner => Spec { depth: 1, movetime: None, noise: 220, relay_cut: 0.45 },
            Level::Novice => Spec { depth: 2, movetime: None, noise: 90, relay_cut: 0.2 },
            Level::Intermediate => Spec { depth: 3, movetime: None, noise: 25, relay_cut: 0.05 },
            Level::Advanced => Spec { depth: 6, movetime: Some(300), noise: 0, relay_cut: 0.0 },
            Level::Master => Spec { depth: 64, movetime: Some(1500), noise: 0, relay_cut: 0.0 },
        }
    }

    /// The search limits of this level for a full search, tightened by `cap` where it is stricter.
    pub fn limits(self, cap: Limits) -> Limits {
        let s = self.spec();
        let movetime = match (s.movetime.map(Duration::from_millis), cap.movetime) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Limits { depth: Some(cap.depth.map_or(s.depth, |d| d.min(s.depth))), movetime, nodes: cap.nodes }
    }

    /// Chooses a turn at this level. `seed` makes the choice reproducible; `cap` can shorten the thinking.
    pub fn choose(
        self,
        searcher: &mut Searcher,
        pos: &Position,
        history: &[u64],
        seed: u64,
        cap: Limits,
    ) -> Option<Turn> {
        self.choose_with_info(searcher, pos, history, seed, cap, |_| {})
    }

    /// [`Level::choose`], reporting the progress of the search (full-strength levels) to `info`.
    pub fn choose_with_info(
        self,
        searcher: &mut Searcher,
        pos: &Position,
        history: &[u64],
        seed: u64,
        cap: Limits,
        info: impl FnMut(&Info),
    ) -> Option<Turn> {
        let spec = self.spec();
        // The strong levels play small endgames perfectly; the others find their own way (and their mistakes).
        let oracle: Option<Arc<dyn Oracle>> = if self >= Level::Advanced {
            Some(tablebase::shared(pos.variant(), tablebase::default_dir().as_deref()))
        } else {
            None
        };
        searcher.set_oracle(oracle);
        let mut rng = SmallRng::seed_from_u64(seed ^ (self as u64) << 56 ^ pos.hash());
        if spec.noise == 0 {
            let r = searcher.search(pos, history, self.limits(cap), info);
            let best = r.best?;
            // Opening variety without weakening: on the first turns, pick among turns that score as well.
            let total = pos.count(pos.side_to_move()) + pos.count(pos.side_to_move().opponent());
            if self == Level::Master && total >= 2 * pos.variant().start_pieces() - 4 {
                let alts = searcher.score_turns(pos, history, r.depth.clamp(1, 6));
                let top = alts.iter().map(|a| a.1).max().unwrap_or(r.score);
                let close: Vec<&(Turn, i32)> = alts.iter().filter(|a| a.1 >= top - 5).collect();
                if close.len() > 1 && close.iter().any(|a| a.0 == best) {
                    return Some(close[rng.random_range(0..close.len())].0.clone());
                }
            }
            return Some(best);
        }
        let scored = searcher.score_turns(pos, history, spec.depth);
        let mut choice = scored
            .iter()
            .max_by_key(|(_, s)| {
                // Noise shaped like a sum of uniforms (roughly normal), so big blunders stay rarer than small ones.
                let n: i32 = (0..3).map(|_| rng.random_range(-spec.noise..=spec.noise)).sum::<i32>() / 3;
                // A forced win or loss is seen even by a beginner only when it is immediate.
                s.saturating_add(n)
            })?
            .0
            .clone();
        if choice.len() > 1 && rng.random_bool(spec.relay_cut) {
            let keep = rng.random_range(1..choice.len());
            choice.steps.truncate(keep);
        }
        Some(choice)
    }

    /// Whether the CPU playing `cpu` accepts a draw offer in `pos`: only when its search says it is not winning.
    pub fn accepts_draw(self, searcher: &mut Searcher, pos: &Position, history: &[u64], cpu: Side) -> bool {
        let r = searcher.search(pos, history, self.limits(Limits::movetime(400)), |_| {});
        let for_cpu = if pos.side_to_move() == cpu { r.score } else { -r.score };
        // A quarter of a piece is within the evaluation's noise: "not winning".
        for_cpu <= PIECE / 4
    }
}

impl Searcher {
    /// Scores every legal turn with a search of `depth` turns (the turn itself included), best first.
    pub fn score_turns(&mut self, pos: &Position, history: &[u64], depth: u32) -> Vec<(Turn, i32)> {
        let mut hist = history.to_vec();
        if !pos.in_relay() {
            hist.push(pos.hash());
        }
        let stop = self.stop_flag();
        let mut out: Vec<(Turn, i32)> = pos
            .legal_turns()
            .into_iter()
            .take_while(|_| !stop.load(std::sync::atomic::Ordering::Relaxed))
            .map(|t| {
                let mut c = *pos;
                c.play_turn(&t).expect("generated turns are legal");
                let h: &[u64] = if t.is_capture() { &[] } else { &hist };
                let s = if c.is_lost() {
                    crate::search::WIN - 1
                } else {
                    // Draws are judged for the side choosing the turn.
                    self.root_side = pos.side_to_move();
                    -self.fixed_depth(&c, h, depth.saturating_sub(1))
                };
                (t, s)
            })
            .collect();
        out.sort_by_key(|a| std::cmp::Reverse(a.1));
        stop.store(false, std::sync::atomic::Ordering::Relaxed);
        out
    }
}

/// Hashes of the positions at the start of the game's turns since the last capture, oldest first, not counting
/// the current turn: what [`Searcher::search`] wants as `history`.
pub fn history_hashes(game: &Game) -> Vec<u64> {
    let starts = game.turn_starts();
    let quiet = game.turns_without_capture();
    let n = starts.len() - 1;
    starts[n - quiet.min(n)..n].iter().map(|p| p.hash()).collect()
}

/// A suggested turn for the side to move and its score (the player's hint), from a search of `movetime`.
pub fn hint(searcher: &mut Searcher, game: &Game, movetime: Duration) -> Option<(Turn, i32)> {
    let pos = *game.position();
    let history = history_hashes(game);
    let r = searcher.search(&pos, &history, Limits { movetime: Some(movetime), ..Limits::default() }, |_| {});
    r.best.map(|b| (b, r.score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn every_level_plays_legal_turns() {
        let mut game = Game::new(Rules::default());
        let mut s = Searcher::new(1);
        for (i, level) in Level::ALL.iter().cycle().take(12).enumerate() {
            if game.is_over() {
                break;
            }
            let pos = *game.position();
            let cap = Limits { depth: Some(3), movetime: Some(Duration::from_millis(50)), nodes: None };
            let t = level.choose(&mut s, &pos, &history_hashes(&game), i as u64, cap).expect("has a turn");
            game.play_turn(&t).expect("legal");
        }
    }

    #[test]
    fn draw_offers_are_judged() {
        let mut s = Searcher::new(1);
        // White to move, two pieces against one lone black piece far away: White is winning.
        let p = Position::from_fen("8B/9/9/9/WW7 w").unwrap();
        assert!(!Level::Advanced.accepts_draw(&mut s, &p, &[], Side::White));
        assert!(Level::Advanced.accepts_draw(&mut s, &p, &[], Side::Black));
    }

    #[test]
    fn levels_number_round_trip() {
        for l in Level::ALL {
            assert_eq!(Level::from_number(l.number()), Some(l));
        }
        assert_eq!(Level::from_number(0), None);
        assert_eq!(Level::from_number(6), None);
    }
}
