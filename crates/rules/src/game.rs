//! A game record: turns played, the turn in progress, results (including draws by rule), undo and redo.

use crate::position::{IllegalReason, Position, Step, StepEffect, StepKind};
use crate::rules::{Rules, Side};
use crate::turns::{IllegalTurn, Turn};
use std::fmt;

/// Who won, if anyone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// That side won.
    Win(Side),
    /// Nobody won.
    Draw,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The same position occurred the set number of times with the same side to move.
    Repetition,
    /// The set number of consecutive turns passed without a capture.
    NoCapture,
    /// The players agreed.
    Agreement,
}

/// How a game ended: the result and its reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The loser has no pieces left.
    NoPieces {
        /// The winner.
        winner: Side,
    },
    /// The loser has pieces but no legal move.
    NoMoves {
        /// The winner.
        winner: Side,
    },
    /// The loser resigned.
    Resignation {
        /// The winner.
        winner: Side,
    },
    /// A draw.
    Draw(DrawReason),
}

impl Outcome {
    /// The result.
    pub fn result(self) -> GameResult {
        match self {
            Outcome::NoPieces { winner } | Outcome::NoMoves { winner } | Outcome::Resignation { winner } => {
                GameResult::Win(winner)
            }
            Outcome::Draw(_) => GameResult::Draw,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::NoPieces { winner } => {
                write!(f, "{winner} wins: {} has no pieces left", winner.opponent())
            }
            Outcome::NoMoves { winner } => {
                write!(f, "{winner} wins: {} has no legal move", winner.opponent())
            }
            Outcome::Resignation { winner } => {
                write!(f, "{winner} wins: {} resigned", winner.opponent())
            }
            Outcome::Draw(DrawReason::Repetition) => write!(f, "draw by repetition"),
            Outcome::Draw(DrawReason::NoCapture) => {
                write!(f, "draw: too many turns without a capture")
            }
            Outcome::Draw(DrawReason::Agreement) => write!(f, "draw by agreement"),
        }
    }
}

/// Why the game record refused an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game is over.
    Over(Outcome),
    /// The step is illegal.
    Illegal(IllegalReason),
    /// The turn is illegal.
    IllegalTurn(IllegalTurn),
    /// There is nothing to undo or redo.
    Nothing,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Over(o) => write!(f, "the game is over ({o})"),
            GameError::Illegal(r) => write!(f, "illegal step: {r}"),
            GameError::IllegalTurn(t) => write!(f, "illegal turn: {t}"),
            GameError::Nothing => write!(f, "nothing to undo or redo"),
        }
    }
}

impl std::error::Error for GameError {}

/// A whole game: the start, every completed turn, the turn in progress, and the result.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    /// Positions at the start of each turn: `starts[i]` is before turn `i`; the last one is the current turn's.
    starts: Vec<Position>,
    turns: Vec<Turn>,
    /// The current position, possibly in the middle of a relay.
    current: Position,
    /// Steps played so far in the turn in progress.
    pending: Vec<Step>,
    redo: Vec<Turn>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A new game from the start position of `rules`.
    pub fn new(rules: Rules) -> Game {
        Game::from_position(Position::start(&rules), rules)
    }

    /// A new game from any position at the start of a turn (a relay in progress is stopped).
    pub fn from_position(mut start: Position, rules: Rules) -> Game {
        start.stop_relay();
        let mut g = Game {
            rules,
            starts: vec![start],
            turns: Vec::new(),
            current: start,
            pending: Vec::new(),
            redo: Vec::new(),
            outcome: None,
        };
        g.outcome = g.judge();
        g
    }

    /// The rules of this game.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current position (possibly in the middle of a relay).
    pub fn position(&self) -> &Position {
        &self.current
    }

    /// The position at the start of the game.
    pub fn start_position(&self) -> &Position {
        &self.starts[0]
    }

    /// The position at the start of the turn in progress.
    pub fn turn_start(&self) -> &Position {
        self.starts.last().expect("never empty")
    }

    /// The completed turns.
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// The positions at the start of each completed turn and of the current one.
    pub fn turn_starts(&self) -> &[Position] {
        &self.starts
    }

    /// The steps of the turn in progress.
    pub fn pending_steps(&self) -> &[Step] {
        &self.pending
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Consecutive completed turns without a capture, up to now.
    pub fn turns_without_capture(&self) -> usize {
        self.turns.iter().rev().take_while(|t| !t.is_capture()).count()
    }

    /// How many times the current turn-start position has occurred (1 if new).
    pub fn repetitions(&self) -> usize {
        let now = self.turn_start();
        // Captures are irreversible, so only positions since the last capture can repeat.
        let since = self.turns_without_capture();
        self.starts.iter().rev().take(since + 1).filter(|p| *p == now).count()
    }

    fn judge(&self) -> Option<Outcome> {
        let p = self.turn_start();
        let mover = p.side_to_move();
        if p.count(mover) == 0 {
            return Some(Outcome::NoPieces { winner: mover.opponent() });
        }
        if p.is_lost() {
            return Some(Outcome::NoMoves { winner: mover.opponent() });
        }
        let d = self.rules.draw;
        if d.repetitions > 0 && self.repetitions() >= d.repetitions as usize {
            return Some(Outcome::Draw(DrawReason::Repetition));
        }
        if d.no_capture_turns > 0 && self.turns_without_capture() >= d.no_capture_turns as usize {
            return Some(Outcome::Draw(DrawReason::NoCapture));
        }
        None
    }

    fn check_open(&self) -> Result<(), GameError> {
        match self.outcome {
            Some(o) => Err(GameError::Over(o)),
            None => Ok(()),
        }
    }

    fn finish_turn(&mut self) {
        let turn = Turn::new(std::mem::take(&mut self.pending));
        self.turns.push(turn);
        self.starts.push(self.current);
        self.outcome = self.judge();
    }

    /// Plays one step (a stop included) from any source. Illegal steps change nothing.
    pub fn play_step(&mut self, step: Step) -> Result<StepEffect, GameError> {
        self.check_open()?;
        let effect = self.current.try_step(step).map_err(GameError::Illegal)?;
        self.redo.clear();
        if step.kind != StepKind::Stop {
            self.pending.push(step);
        }
        if effect.turn_ended {
            self.finish_turn();
        }
        Ok(effect)
    }

    /// Ends the relay in progress (the "End turn" button). Does nothing outside a relay.
    pub fn end_relay(&mut self) -> Result<(), GameError> {
        if self.current.in_relay() {
            let piece = self.current.relay_piece().expect("in relay");
            self.play_step(Step::stop(piece))?;
        }
        Ok(())
    }

    /// Plays a whole turn, checking every step; an illegal turn changes nothing. Not allowed in mid-relay.
    pub fn play_turn(&mut self, turn: &Turn) -> Result<Vec<StepEffect>, GameError> {
        self.check_open()?;
        if !self.pending.is_empty() {
            return Err(GameError::Illegal(IllegalReason::MustContinueWith(
                self.current.relay_piece().expect("pending steps mean a relay"),
            )));
        }
        let mut pos = self.current;
        let effects = pos.play_turn(turn).map_err(GameError::IllegalTurn)?;
        self.current = pos;
        self.pending = turn.steps.clone();
        self.redo.clear();
        self.finish_turn();
        Ok(effects)
    }

    /// Takes back the steps of the turn in progress, restoring the turn's start. Returns whether anything changed.
    pub fn undo_pending(&mut self) -> bool {
        if self.pending.is_empty() {
            return false;
        }
        self.pending.clear();
        self.current = *self.turn_start();
        true
    }

    /// Takes back the turn in progress, or else the last completed turn (which can then be redone).
    pub fn undo(&mut self) -> Result<(), GameError> {
        if self.undo_pending() {
            return Ok(());
        }
        let turn = self.turns.pop().ok_or(GameError::Nothing)?;
        self.starts.pop();
        self.current = *self.turn_start();
        self.redo.push(turn);
        self.outcome = self.judge();
        Ok(())
    }

    /// Replays the last undone turn.
    pub fn redo(&mut self) -> Result<(), GameError> {
        let turn = self.redo.pop().ok_or(GameError::Nothing)?;
        let keep = std::mem::take(&mut self.redo);
        let r = self.play_turn(&turn);
        self.redo = keep;
        r.map(|_| ())
    }

    /// Whether a turn can be redone.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Ends the game as agreed drawn.
    pub fn agree_draw(&mut self) -> Result<(), GameError> {
        self.check_open()?;
        self.outcome = Some(Outcome::Draw(DrawReason::Agreement));
        Ok(())
    }

    /// `side` resigns.
    pub fn resign(&mut self, side: Side) -> Result<(), GameError> {
        self.check_open()?;
        self.outcome = Some(Outcome::Resignation { winner: side.opponent() });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(s: &str) -> Turn {
        s.parse().unwrap()
    }

    #[test]
    fn undo_redo_and_errors() {
        let mut g = Game::new(Rules::default());
        assert!(g.play_turn(&turn("a1-b1")).is_err());
        g.play_turn(&turn("d3-e3A")).unwrap();
        assert_eq!(g.turns().len(), 1);
        let after = *g.position();
        g.undo().unwrap();
        assert_eq!(*g.position(), Position::start(&Rules::default()));
        assert!(g.can_redo());
        g.redo().unwrap();
        assert_eq!(*g.position(), after);
        assert!(!g.undo_pending());
        g.resign(Side::Black).unwrap();
        assert_eq!(g.outcome(), Some(Outcome::Resignation { winner: Side::White }));
        assert!(matches!(g.play_turn(&turn("e4-e3")), Err(GameError::Over(_))));
    }
}
