//! Loss analysis: in games a side lost, the turn after which a deep search's evaluation fell furthest, collected as a
//! "best turn" suite with the deep search's answer, and the runner that checks an engine against such a suite.
//!
//! The SPRT says whether a change wins games; a suite built from our own lost games says, in seconds and
//! deterministically at a fixed depth, whether it still walks into the mistakes that lost them.
//!
//! # Games read
//!
//! [`read_games`] accepts, in one text:
//! - game records ([`Record`], the PGN-like format of the game's saves), several in a file one after another;
//! - game log lines, as `fanorona-cli sprt --games FILE` and `fanorona-cli match --games FILE` write them
//!   ([`GameLog`]'s format: `pair … A=white points 0 … | d3-e3A; …;`);
//! - the output of `fanorona-cli selfplay` (`turn 1 white d3-e3A` lines and a `result` line).
//!
//! # Suite format
//!
//! One position a line, six fields separated by `|`; blank lines and lines starting with `#` are ignored:
//!
//! ```text
//! FEN | best | score | played | drop | source
//! ```
//!
//! `best` is the deep search's turn in the position alone (without the game's history, as the suite holds it),
//! `score` its score for the side to move (hundredths of a piece), `played` the
//! turn the loser played, `drop` how far the evaluation fell with it (hundredths of a piece, scores clamped to
//! ±[`CLAMP`]) and `source` where the position comes from (free text without `|`). An answer counts as the
//! suite's when it leaves the same position as `best` (so two spellings of one turn agree).

use crate::sprt::GameLog;
use fanorona_engine::Position;
use fanorona_engine::game::{Game, GameResult};
use fanorona_engine::levels::history_hashes;
use fanorona_engine::record::Record;
use fanorona_engine::rules::{Rules, Side};
use fanorona_engine::search::{Limits, SearchResult, Searcher};
use fanorona_engine::turns::Turn;
use std::fmt;
use std::time::{Duration, Instant};

/// Scores are clamped to ± this many hundredths of a piece before drops are taken: once a side is lost, going
/// from "ten pieces down" to "mated" is not a new mistake, and the turn that lost the game should stand out.
pub const CLAMP: i32 = 1_000;

/// A finished game read from a file, with the side that lost it.
#[derive(Clone, Debug)]
pub struct LostGame {
    /// The position it started from.
    pub start: Position,
    /// Every turn.
    pub turns: Vec<Turn>,
    /// The side that lost (None: a draw, or no result).
    pub loser: Option<Side>,
    /// Where it comes from (file and game number), for the suite's `source` field.
    pub source: String,
}

impl LostGame {
    /// The game replayed up to (not including) turn `n`.
    fn game_before(&self, n: usize) -> Game {
        let mut game = Game::from_position(self.start, Rules::default());
        for t in &self.turns[..n] {
            game.play_turn(t).expect("turns are checked when the game is read");
        }
        game
    }
}

/// Replays `turns` from `start` under the default rules; the first illegal turn is an error.
fn replay(start: Position, turns: &[Turn]) -> Result<Game, String> {
    let mut game = Game::from_position(start, Rules::default());
    for (i, t) in turns.iter().enumerate() {
        game.play_turn(t).map_err(|e| format!("turn {} ({t}) is illegal: {e}", i + 1))?;
    }
    Ok(game)
}

/// The loser by the rules of a replayed game, if the moves ended it.
fn loser_by_rule(game: &Game) -> Option<Side> {
    match game.outcome().map(|o| o.result()) {
        Some(GameResult::Win(winner)) => Some(winner.opponent()),
        _ => None,
    }
}

/// Reads every game of `text` (records, game log lines or `selfplay` output, see the module's documentation);
/// `name` labels their sources. Lines that belong to none of them are an error, named by their line number.
pub fn read_games(text: &str, name: &str) -> Result<Vec<LostGame>, String> {
    let mut games = Vec::new();
    let mut record = String::new();
    let mut record_has_turns = false;
    let mut selfplay: Vec<Turn> = Vec::new();
    let flush_record = |record: &mut String, games: &mut Vec<LostGame>| -> Result<(), String> {
        if record.trim().is_empty() {
            return Ok(());
        }
        let rec = Record::parse(record).map_err(|e| format!("{name}: record {}: {e}", games.len() + 1))?;
        if rec.rules().map_err(|e| e.to_string())? != Rules::default() {
            return Err(format!(
                "{name}: record {}: only games under the default rules can be analysed",
                games.len() + 1
            ));
        }
        let game = rec.to_game().map_err(|e| format!("{name}: record {}: {e}", games.len() + 1))?;
        games.push(LostGame {
            start: *game.start_position(),
            turns: game.turns().to_vec(),
            loser: loser_by_rule(&game),
            source: format!("{name} game {}", games.len() + 1),
        });
        record.clear();
        Ok(())
    };
    let flush_selfplay = |turns: &mut Vec<Turn>, games: &mut Vec<LostGame>| -> Result<(), String> {
        if turns.is_empty() {
            return Ok(());
        }
        let start = Position::start(&Rules::default());
        let game = replay(start, turns).map_err(|e| format!("{name}: game {}: {e}", games.len() + 1))?;
        games.push(LostGame {
            start,
            turns: std::mem::take(turns),
            loser: loser_by_rule(&game),
            source: format!("{name} game {}", games.len() + 1),
        });
        Ok(())
    };
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let at = |e: String| format!("{name}:{}: {e}", i + 1);
        if line.starts_with("pair ") {
            let game = parse_log_line(line).map_err(at)?;
            games.push(LostGame { source: format!("{name}:{}", i + 1), ..game });
        } else if let Some(rest) = line.strip_prefix("turn ") {
            // `turn N side TURN`: a new game starts at turn 1.
            let mut words = rest.splitn(3, ' ');
            let number =
                words.next().and_then(|n| n.parse::<usize>().ok()).ok_or_else(|| at("bad turn line".into()))?;
            let turn_text = words.nth(1).ok_or_else(|| at("turn line without a turn".into()))?;
            if number == 1 {
                flush_selfplay(&mut selfplay, &mut games)?;
            }
            selfplay.push(turn_text.parse::<Turn>().map_err(|e| at(e.to_string()))?);
        } else if line.starts_with("result ") {
            flush_selfplay(&mut selfplay, &mut games)?;
        } else if line.starts_with('[') {
            // A tag after turns begins the next record.
            if record_has_turns {
                flush_record(&mut record, &mut games)?;
                record_has_turns = false;
            }
            record.push_str(line);
            record.push('\n');
        } else if !record.is_empty() {
            record_has_turns |= !line.is_empty() && !line.starts_with(';') && !line.starts_with('#');
            record.push_str(line);
            record.push('\n');
        } else if !(line.is_empty() || line.starts_with('#') || line.starts_with(';')) {
            return Err(at(format!("not a game record, game log line or selfplay line: {line}")));
        }
    }
    flush_record(&mut record, &mut games)?;
    flush_selfplay(&mut selfplay, &mut games)?;
    Ok(games)
}

/// One game log line ([`GameLog`]'s format). The loser is the rules' when the moves ended the game, else the side
/// the points say lost (a resignation, or an engine that failed).
fn parse_log_line(line: &str) -> Result<LostGame, String> {
    let (head, turns_text) = line.split_once('|').ok_or("a game log line needs `|` before its turns")?;
    let words: Vec<&str> = head.split_whitespace().collect();
    let value = |key: &str| words.iter().position(|w| *w == key).and_then(|k| words.get(k + 1)).copied();
    let a_side = match words.iter().find_map(|w| w.strip_prefix("A=")) {
        Some("white") => Side::White,
        Some("black") => Side::Black,
        _ => return Err("a game log line needs A=white or A=black".into()),
    };
    let points: f64 = value("points").and_then(|p| p.parse().ok()).ok_or("a game log line needs `points P`")?;
    let start = match head.split_once(" from ") {
        Some((_, fen)) => fen.trim().parse::<Position>().map_err(|e| format!("bad start FEN: {e}"))?,
        None => Position::start(&Rules::default()),
    };
    let turns = turns_text
        .split(';')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| t.parse::<Turn>().map_err(|e| format!("bad turn {t}: {e}")))
        .collect::<Result<Vec<Turn>, String>>()?;
    let game = replay(start, &turns)?;
    let loser = loser_by_rule(&game).or(if points == 0.0 {
        Some(a_side)
    } else if points == 1.0 {
        Some(a_side.opponent())
    } else {
        None
    });
    Ok(LostGame { start, turns, loser, source: String::new() })
}

/// A deep search's verdict on a position: its best turn and its score for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The best turn (None where the side to move has no turn).
    pub best: Option<Turn>,
    /// The score for the side to move, hundredths of a piece.
    pub score: i32,
}

/// The turn of a lost game after which the evaluation fell furthest, from the side's point of view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drop {
    /// Index of the turn in the game (0 is the first turn).
    pub turn_index: usize,
    /// The position before it, the side to move.
    pub position: Position,
    /// The deep search's turn there.
    pub best: Turn,
    /// The deep search's score there (side to move's view).
    pub before: i32,
    /// The score after the turn played, from the same side's view.
    pub after: i32,
    /// The turn played.
    pub played: Turn,
}

impl Drop {
    /// How far the evaluation fell, both scores clamped to ±[`CLAMP`].
    pub fn fall(&self) -> i32 {
        self.before.clamp(-CLAMP, CLAMP) - self.after.clamp(-CLAMP, CLAMP)
    }
}

/// Whether turns `a` and `b` leave the same position when played from `pos` (an illegal one never matches).
pub fn same_result(pos: &Position, a: &Turn, b: &Turn) -> bool {
    let (mut pa, mut pb) = (*pos, *pos);
    pa.play_turn(a).is_ok() && pb.play_turn(b).is_ok() && pa == pb
}

/// Finds, among `side`'s turns of `game` from turn index `skip` on, the one after which `evaluate`'s score (of the
/// position before the turn, and of the position after it, negated) fell furthest; turns the evaluation itself
/// would play, and turns that end the game, are left out. Ties go to the earlier turn. `evaluate` sees each
/// position with the hashes of the game's earlier turn starts since the last capture (for repetitions).
pub fn find_drop(
    game: &LostGame,
    side: Side,
    skip: usize,
    mut evaluate: impl FnMut(&Position, &[u64]) -> Verdict,
) -> Option<Drop> {
    let mut best: Option<Drop> = None;
    let mut replayed = game.game_before(skip.min(game.turns.len()));
    for n in skip..game.turns.len() {
        let pos = *replayed.position();
        let played = &game.turns[n];
        if pos.side_to_move() == side {
            let before = evaluate(&pos, &history_hashes(&replayed));
            let mut after_game = replayed.clone();
            after_game.play_turn(played).expect("turns are checked when the game is read");
            if let Some(best_turn) = before.best.as_ref().filter(|b| !same_result(&pos, b, played))
                && !after_game.is_over()
            {
                let reply = evaluate(after_game.position(), &history_hashes(&after_game));
                let drop = Drop {
                    turn_index: n,
                    position: pos,
                    best: best_turn.clone(),
                    before: before.score,
                    after: -reply.score,
                    played: played.clone(),
                };
                if best.as_ref().is_none_or(|b| drop.fall() > b.fall()) {
                    best = Some(drop);
                }
            }
        }
        replayed.play_turn(played).expect("turns are checked when the game is read");
    }
    best
}

/// A searcher with `options` (see [`Searcher::configure`]) and a table of `hash_mb` MB, on one thread.
pub fn searcher(options: &str, hash_mb: usize) -> Result<Searcher, String> {
    let mut s = Searcher::new(hash_mb);
    s.configure(options)?;
    Ok(s)
}

/// The deep search's verdict of `pos`, from a searcher cleared first, so that a fixed depth gives the same answer
/// whatever was searched before.
pub fn deep_verdict(s: &mut Searcher, pos: &Position, history: &[u64], limits: Limits) -> (Verdict, SearchResult) {
    s.clear();
    let r = s.search(pos, history, limits, |_| {});
    (Verdict { best: r.best.clone(), score: r.score }, r)
}

/// One position of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position, side to move.
    pub position: Position,
    /// The deep search's turn.
    pub best: Turn,
    /// The deep search's score (side to move's view, hundredths of a piece).
    pub score: i32,
    /// The turn the loser played.
    pub played: Turn,
    /// How far the evaluation fell with it.
    pub drop: i32,
    /// Where the position comes from.
    pub source: String,
}

impl Entry {
    /// The suite line of a drop found in a game from `source`.
    pub fn from_drop(drop: &Drop, source: &str) -> Entry {
        Entry {
            position: drop.position,
            best: drop.best.clone(),
            score: drop.before,
            played: drop.played.clone(),
            drop: drop.fall(),
            source: format!("{source} turn {}", drop.turn_index + 1),
        }
    }
}

/// The suite line of `drop`, with the best turn and score of a deep search of the position alone (no game history,
/// as the suite holds it and [`run_suite`] searches it), so that a run at the depth that made the suite answers
/// every line with its best turn. None where that search plays the game's turn itself (the game's repetitions
/// made it a mistake, which the position alone does not show).
pub fn suite_entry(s: &mut Searcher, drop: &Drop, source: &str, limits: Limits) -> Option<Entry> {
    let (v, _) = deep_verdict(s, &drop.position, &[], limits);
    let best = v.best.filter(|b| !same_result(&drop.position, b, &drop.played))?;
    Some(Entry { best, score: v.score, ..Entry::from_drop(drop, source) })
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let source = self.source.replace('|', "/");
        write!(f, "{} | {} | {} | {} | {} | {source}", self.position, self.best, self.score, self.played, self.drop)
    }
}

/// Reads a suite (format in the module's documentation), checking that both turns of every line are legal;
/// an error names its line.
pub fn parse_suite(text: &str) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |e: String| format!("suite line {}: {e}", i + 1);
        let fields: Vec<&str> = line.splitn(6, '|').map(str::trim).collect();
        if fields.len() != 6 {
            return Err(at(format!("{} fields instead of 6", fields.len())));
        }
        let position = fields[0].parse::<Position>().map_err(|e| at(format!("bad FEN: {e}")))?;
        let turn = |text: &str| -> Result<Turn, String> {
            let t = text.parse::<Turn>().map_err(|e| at(format!("bad turn {text}: {e}")))?;
            position.clone().play_turn(&t).map_err(|e| at(format!("illegal turn {text}: {e}")))?;
            Ok(t)
        };
        let number = |text: &str| text.parse::<i32>().map_err(|_| at(format!("not a whole number: {text}")));
        entries.push(Entry {
            position,
            best: turn(fields[1])?,
            score: number(fields[2])?,
            played: turn(fields[3])?,
            drop: number(fields[4])?,
            source: fields[5].to_string(),
        });
    }
    Ok(entries)
}

/// An engine's answer to one suite position.
#[derive(Clone, Debug)]
pub struct Answer {
    /// Its turn.
    pub turn: Option<Turn>,
    /// Its score.
    pub score: i32,
    /// Whether it leaves the same position as the suite's best turn.
    pub solved: bool,
    /// Whether it repeats the losing turn.
    pub repeated: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

/// Totals of a suite run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SuiteScore {
    /// Positions searched.
    pub positions: usize,
    /// Answered with the suite's best turn.
    pub solved: usize,
    /// Answered with the turn that lost.
    pub repeated: usize,
    /// Nodes over all searches.
    pub nodes: u64,
    /// Time over all searches.
    pub elapsed: Duration,
}

/// Searches every entry with a fresh-cleared searcher (so a fixed depth is deterministic) and counts the answers
/// that match the suite's best turn; `on_answer` sees each as it comes.
pub fn run_suite(
    entries: &[Entry],
    s: &mut Searcher,
    limits: Limits,
    mut on_answer: impl FnMut(usize, &Entry, &Answer),
) -> SuiteScore {
    let mut score = SuiteScore::default();
    for (i, e) in entries.iter().enumerate() {
        let t0 = Instant::now();
        let (v, r) = deep_verdict(s, &e.position, &[], limits);
        let elapsed = t0.elapsed();
        let matches = |t: &Turn| v.best.as_ref().is_some_and(|b| same_result(&e.position, b, t));
        let answer = Answer {
            solved: matches(&e.best),
            repeated: matches(&e.played),
            turn: v.best,
            score: v.score,
            nodes: r.nodes,
            elapsed,
        };
        score.positions += 1;
        score.solved += usize::from(answer.solved);
        score.repeated += usize::from(answer.repeated);
        score.nodes += answer.nodes;
        score.elapsed += elapsed;
        on_answer(i, e, &answer);
    }
    score
}

/// The [`GameLog`] line of a finished match game (`match --games FILE`), A's side and points given.
pub fn match_log(
    pair: usize,
    a_side: Side,
    turns: &[Turn],
    outcome: Option<fanorona_engine::game::Outcome>,
) -> GameLog {
    let points = match outcome.map(|o| o.result()) {
        Some(GameResult::Win(s)) if s == a_side => 1.0,
        Some(GameResult::Win(_)) => 0.0,
        _ => 0.5,
    };
    let start = Position::start(&Rules::default());
    let end = replay(start, turns).map_or(start, |g| *g.position());
    GameLog {
        pair,
        a_side,
        points,
        outcome,
        pieces: [end.count(a_side), end.count(a_side.opponent())],
        turns: turns.to_vec(),
        start: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A game of `n` turns from the start, each side playing its first legal turn in the rules' order.
    fn first_turns_game(n: usize) -> LostGame {
        let start = Position::start(&Rules::default());
        let mut game = Game::from_position(start, Rules::default());
        for _ in 0..n {
            let t = game.position().legal_turns()[0].clone();
            game.play_turn(&t).unwrap();
        }
        LostGame { start, turns: game.turns().to_vec(), loser: Some(Side::White), source: "test".into() }
    }

    #[test]
    fn the_largest_fall_of_the_sides_turns_is_found() {
        let game = first_turns_game(10);
        // Scores by position, for the side to move: White's view is +40 until White's turn 6 (index 6), after
        // which Black, to move, sees +300; a smaller fall (60) at White's turn 2.
        let mut positions = vec![game.start];
        let mut g = game.game_before(0);
        for t in &game.turns {
            g.play_turn(t).unwrap();
            positions.push(*g.position());
        }
        let script: HashMap<u64, i32> = positions
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let white_view = match k {
                    0..=2 => 40,
                    3..=6 => -20,
                    _ => -300,
                };
                (p.hash(), if p.side_to_move() == Side::White { white_view } else { -white_view })
            })
            .collect();
        let evaluate = |pos: &Position, _: &[u64]| {
            // The evaluation's own turn is never the game's: the last legal turn.
            Verdict { best: pos.legal_turns().last().cloned(), score: script[&pos.hash()] }
        };
        let drop = find_drop(&game, Side::White, 0, evaluate).expect("White has turns");
        assert_eq!(drop.turn_index, 6);
        assert_eq!((drop.before, drop.after, drop.fall()), (-20, -300, 280));
        assert_eq!(drop.position, positions[6]);
        assert_eq!(drop.played, game.turns[6]);
        // Skipping past turn 6 leaves the later, flat turns: no fall, the first of them.
        let later = find_drop(&game, Side::White, 7, evaluate).unwrap();
        assert_eq!((later.turn_index, later.fall()), (8, 0));
        // Black's evaluation never falls with its own turns (it rises with White's): the largest fall is zero.
        assert_eq!(find_drop(&game, Side::Black, 0, evaluate).unwrap().fall(), 0);
    }

    #[test]
    fn a_turn_the_evaluation_would_play_itself_is_not_a_mistake() {
        let game = first_turns_game(6);
        let mut played: HashMap<u64, Turn> = HashMap::new();
        let mut g = game.game_before(0);
        for t in &game.turns {
            played.insert(g.position().hash(), t.clone());
            g.play_turn(t).unwrap();
        }
        // The evaluation agrees with every turn played, and says each lost a piece: nothing to report.
        let agree = |pos: &Position, _: &[u64]| Verdict {
            best: played.get(&pos.hash()).cloned().or_else(|| pos.legal_turns().first().cloned()),
            score: if pos.side_to_move() == Side::White { 0 } else { 100 },
        };
        assert_eq!(find_drop(&game, Side::White, 0, agree), None);
    }

    #[test]
    fn a_real_blunder_is_the_turn_found_by_a_search() {
        // White plays depth-2 turns except at its turn index 6, where it plays the worst turn of a depth-2
        // search; Black plays depth-2 turns. A depth-4 search must find index 6.
        let mut s = searcher("max", 1).unwrap();
        let start = Position::start(&Rules::default());
        let mut game = Game::from_position(start, Rules::default());
        let blunder = 6;
        for n in 0..12 {
            let pos = *game.position();
            let history = history_hashes(&game);
            let t = if n == blunder {
                s.clear();
                s.score_turns(&pos, &history, 2).last().unwrap().0.clone()
            } else {
                deep_verdict(&mut s, &pos, &history, Limits::depth(2)).0.best.unwrap()
            };
            game.play_turn(&t).unwrap();
            if game.is_over() {
                break;
            }
        }
        let lost = LostGame { start, turns: game.turns().to_vec(), loser: Some(Side::White), source: "t".into() };
        let drop = find_drop(&lost, Side::White, 0, |p, h| deep_verdict(&mut s, p, h, Limits::depth(4)).0).unwrap();
        assert_eq!(drop.turn_index, blunder, "{drop:?}");
        assert!(drop.fall() >= 100, "a blunder loses at least a piece: {drop:?}");
        assert_ne!(drop.best, drop.played);
    }

    #[test]
    fn suite_lines_read_back_as_written() {
        let game = first_turns_game(5);
        let pos = game.game_before(4).position().to_owned();
        let turns = pos.legal_turns();
        let entry = Entry {
            position: pos,
            best: turns[0].clone(),
            score: -35,
            played: turns[turns.len() - 1].clone(),
            drop: 240,
            source: "odds.txt:3 turn 5".into(),
        };
        let text = format!("# a comment\n\n{entry}\n{entry}\n");
        assert_eq!(parse_suite(&text).unwrap(), vec![entry.clone(), entry.clone()]);
        // A damaged line is named: line 3 has five fields; line 2 an illegal turn.
        let bad = format!("{entry}\n{} | a1-a2 | 0 | {} | 0 | x\n{} | 1 | 2 | 3 | 4\n", pos, turns[0], pos);
        let e = parse_suite(&bad).unwrap_err();
        assert!(e.contains("line 2") && e.contains("a1-a2"), "{e}");
        assert!(
            parse_suite(&format!("{pos} | {} | 1 | {} | 4\n", turns[0], turns[0])).unwrap_err().contains("5 fields")
        );
    }

    #[test]
    fn games_are_read_from_logs_records_and_selfplay_output() {
        let game = first_turns_game(8);
        let g = game.game_before(8);
        // A log line of a game A lost on points (a resignation: the moves did not end it).
        let log = match_log(3, Side::Black, &game.turns, None).to_string();
        let lost_log = log.replace("points 0.5", "points 0");
        let mut record = Record::from_game(&g, "w", "b", "2026-12-04").to_string();
        record.push('\n');
        let selfplay: String =
            game.turns.iter().enumerate().map(|(i, t)| format!("turn {} white {t}\n", i + 1)).collect::<String>()
                + "result none\n";
        let text = format!("# games\n{lost_log}\n{record}{record}{selfplay}");
        let games = read_games(&text, "f").unwrap();
        assert_eq!(games.len(), 4);
        for read in &games {
            assert_eq!(read.turns, game.turns);
            assert_eq!(read.start, game.start);
        }
        assert_eq!(games[0].loser, Some(Side::Black));
        assert_eq!(games[0].source, "f:2");
        assert_eq!(games[1].loser, None);
        assert!(read_games("hello\n", "f").unwrap_err().contains("f:1"));
    }
}
