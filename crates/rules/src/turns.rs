//! Whole turns: a paika step, or a capture and any relay continuation, each stopping point its own turn; and perft.

use crate::position::{IllegalReason, Position, Step, StepEffect, StepKind, StepList};
use std::fmt;

/// A complete turn: one paika step, or one or more capturing steps of the same piece.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Turn {
    /// The steps in order (never [`StepKind::Stop`]: a turn ends after its last step).
    pub steps: Vec<Step>,
}

impl Turn {
    /// A turn of the given steps.
    pub fn new(steps: Vec<Step>) -> Turn {
        Turn { steps }
    }

    /// Whether the turn captures.
    pub fn is_capture(&self) -> bool {
        self.steps.first().is_some_and(|s| s.kind.is_capture())
    }

    /// Number of steps.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether the turn has no step (never legal).
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.steps.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

/// Why a turn is illegal, naming its first illegal step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalTurn {
    /// The turn has no step.
    Empty,
    /// Step `index` (0-based) is not legal where it is played.
    Step {
        /// Index of the offending step in the turn.
        index: usize,
        /// The step.
        step: Step,
        /// Why it is illegal.
        reason: IllegalReason,
    },
    /// The turn had already ended (no continuation was possible) before step `index`.
    TurnOver {
        /// Index of the step that came too late.
        index: usize,
        /// The step.
        step: Step,
    },
    /// A turn may not contain an explicit stop.
    ExplicitStop {
        /// Index of the stop.
        index: usize,
    },
}

impl fmt::Display for IllegalTurn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalTurn::Empty => write!(f, "the turn has no step"),
            IllegalTurn::Step { index, step, reason } => {
                write!(f, "step {} ({step}) is illegal: {reason}", index + 1)
            }
            IllegalTurn::TurnOver { index, step } => {
                write!(
                    f,
                    "step {} ({step}) is illegal: the turn already ended, no further capture was possible",
                    index + 1
                )
            }
            IllegalTurn::ExplicitStop { index } => {
                write!(f, "step {} is a stop, which turn notation leaves out", index + 1)
            }
        }
    }
}

impl std::error::Error for IllegalTurn {}

impl Position {
    /// Every legal turn from here (from the start of a turn, or the completions of a relay in progress, where
    /// stopping at once is the empty completion). Approach and withdrawal are separate turns, and so is every
    /// stopping point of a relay.
    pub fn legal_turns(&self) -> Vec<Turn> {
        let mut out = Vec::new();
        let mut prefix = Vec::new();
        collect_turns(self, &mut prefix, &mut out);
        out
    }

    /// Plays a whole turn from any source, checking every step; on error the position is unchanged. Returns the
    /// effect of each step. A relay that could go on is stopped after the last step.
    pub fn play_turn(&mut self, turn: &Turn) -> Result<Vec<StepEffect>, IllegalTurn> {
        if turn.steps.is_empty() {
            // In the middle of a relay the empty completion (stop now) is a legal turn, as `legal_turns` lists it.
            if self.in_relay() {
                self.stop_relay();
                return Ok(Vec::new());
            }
            return Err(IllegalTurn::Empty);
        }
        let mut pos = *self;
        let mut effects = Vec::with_capacity(turn.steps.len());
        for (index, &step) in turn.steps.iter().enumerate() {
            if step.kind == StepKind::Stop {
                return Err(IllegalTurn::ExplicitStop { index });
            }
            if index > 0 && effects.last().is_some_and(|e: &StepEffect| e.turn_ended) {
                return Err(IllegalTurn::TurnOver { index, step });
            }
            let e = pos.try_step(step).map_err(|reason| IllegalTurn::Step { index, step, reason })?;
            effects.push(e);
        }
        pos.stop_relay();
        *self = pos;
        Ok(effects)
    }

    /// Turn-level perft: the number of turn sequences of length `depth` (bulk-counted at the last turn).
    pub fn perft(&self, depth: u32) -> u64 {
        Perft::default().turns(self, depth)
    }

    /// Step-level perft: every step, including a stop, is one ply.
    pub fn perft_steps(&self, depth: u32) -> u64 {
        Perft::default().steps(self, depth)
    }
}

fn collect_turns(pos: &Position, prefix: &mut Vec<Step>, out: &mut Vec<Turn>) {
    let steps = pos.steps();
    for &s in steps.iter() {
        if s.kind == StepKind::Stop {
            out.push(Turn::new(prefix.clone()));
            continue;
        }
        let mut child = *pos;
        let e = child.play(s);
        prefix.push(s);
        if e.turn_ended {
            out.push(Turn::new(prefix.clone()));
        } else {
            collect_turns(&child, prefix, out);
        }
        prefix.pop();
    }
}

/// A perft counter that also counts the steps it plays, for throughput figures. At the last turn, a capture
/// that cannot be continued is counted without being played (bulk counting).
#[derive(Default, Debug, Clone, Copy)]
pub struct Perft {
    /// Steps played (calls to [`Position::play`]) so far; bulk-counted leaves are not included.
    pub steps_played: u64,
    /// Turns counted at the leaves, including the bulk-counted ones.
    pub leaf_turns: u64,
    /// Leaf steps counted without being played (the last step of a turn at the last depth).
    pub steps_counted: u64,
}

impl Perft {
    /// Counts turn sequences of length `depth` from a position at the start of a turn.
    pub fn turns(&mut self, pos: &Position, depth: u32) -> u64 {
        if depth == 0 {
            self.leaf_turns += 1;
            return 1;
        }
        if let Some(n) = pos.perft_plain(depth, &mut self.steps_played) {
            self.leaf_turns += n;
            self.steps_counted += n;
            return n;
        }
        if depth == 1 && !pos.in_relay() {
            let n = pos.count_turns();
            self.leaf_turns += n;
            self.steps_counted += n;
            return n;
        }
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        let mut n = 0;
        for &s in list.iter() {
            if depth == 1 && !pos.capture_continues(s) {
                self.leaf_turns += 1;
                self.steps_counted += 1;
                n += 1;
                continue;
            }
            let mut c = *pos;
            self.steps_played += 1;
            if c.play(s).turn_ended {
                n += self.turns(&c, depth - 1);
            } else {
                n += self.relay(&c, depth);
            }
        }
        n
    }

    /// Counts from a position in the middle of a relay, where the current turn is still `depth` turns from the end.
    fn relay(&mut self, pos: &Position, depth: u32) -> u64 {
        let mut n = if depth == 1 {
            self.leaf_turns += 1;
            1
        } else {
            let mut c = *pos;
            c.stop_relay();
            self.turns(&c, depth - 1)
        };
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        for &s in list.iter() {
            if s.kind == StepKind::Stop {
                continue;
            }
            if depth == 1 && !pos.capture_continues(s) {
                self.leaf_turns += 1;
                self.steps_counted += 1;
                n += 1;
                continue;
            }
            let mut c = *pos;
            self.steps_played += 1;
            if c.play(s).turn_ended {
                n += if depth == 1 {
                    self.leaf_turns += 1;
                    1
                } else {
                    self.turns(&c, depth - 1)
                };
            } else {
                n += self.relay(&c, depth);
            }
        }
        n
    }

    /// Counts step sequences of length `depth` (a stop is a step).
    pub fn steps(&mut self, pos: &Position, depth: u32) -> u64 {
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        if depth <= 1 {
            return if depth == 0 { 1 } else { list.len() as u64 };
        }
        let mut n = 0;
        for &s in list.iter() {
            let mut c = *pos;
            self.steps_played += 1;
            c.play(s);
            n += self.steps(&c, depth - 1);
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn start_has_five_turns_none_relaying() {
        let p = Position::start(&Rules::default());
        let turns = p.legal_turns();
        let mut names: Vec<String> = turns.iter().map(|t| t.to_string()).collect();
        names.sort();
        assert_eq!(names, ["d2-e3A", "d3-e3A", "d3-e3W", "e2-e3A", "f2-e3A"]);
        assert!(turns.iter().all(|t| t.len() == 1));
        assert_eq!(p.perft(1), 5);
    }
}
