//! `fanorona-cli losses` and `fanorona-cli suite` end to end: a game with a blunder becomes a suite line, and the
//! runner scores an engine on a small suite, the same way every time at a fixed depth.

mod common;

use common::Scratch;
use fanorona_engine::levels::history_hashes;
use fanorona_engine::search::Limits;
use fanorona_engine::{Game, Position, Rules, Side};
use fanorona_tools::losses::{self, Entry};
use std::path::Path;
use std::process::Command;

fn cli(args: &[&str], files: &[&Path]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_fanorona-cli")).args(args).args(files).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A game of depth-2 turns in which White, at its turn index 4, plays the worst turn of a depth-2 search, and
/// then resigns: its game log line, with White lost on points.
fn blunder_game() -> String {
    let mut s = losses::searcher("max", 1).unwrap();
    let mut game = Game::new(Rules::default());
    for n in 0..10 {
        let pos = *game.position();
        let history = history_hashes(&game);
        let t = if n == 4 {
            s.clear();
            s.score_turns(&pos, &history, 2).last().unwrap().0.clone()
        } else {
            losses::deep_verdict(&mut s, &pos, &history, Limits::depth(2)).0.best.unwrap()
        };
        game.play_turn(&t).unwrap();
    }
    let log = losses::match_log(0, Side::White, game.turns(), game.outcome());
    log.to_string().replace("points 0.5", "points 0")
}

#[test]
fn a_lost_game_becomes_a_suite_that_the_runner_scores_deterministically() {
    let dir = Scratch::new("suite", "losses");
    let games = dir.0.join("games.txt");
    let suite = dir.0.join("suite.txt");
    std::fs::write(&games, blunder_game() + "\n").unwrap();
    let out_arg = format!("--out={}", suite.display());
    let report = cli(&["losses", "--depth", "4", "--engine", "max", "--hash", "1", &out_arg, "--games"], &[&games]);
    assert!(report.contains("1 positions from 1 games"), "{report}");
    let entries = losses::parse_suite(&std::fs::read_to_string(&suite).unwrap()).unwrap();
    assert_eq!(entries.len(), 1);
    assert!(entries[0].source.ends_with("turn 5"), "{:?}", entries[0]);
    // At the depth that made it the suite is solved; the runner's line is the same on a second run.
    let args = ["suite", "--depth", "4", "--engine", "max", "--hash", "1", "--verbose"];
    let first = cli(&args, &[&suite]);
    assert!(first.contains("1 of 1 best (100.0%), 0 the losing turn"), "{first}");
    let nodes = |text: &str| text.lines().last().unwrap().split(" nodes").next().unwrap().to_string();
    assert_eq!(nodes(&first), nodes(&cli(&args, &[&suite])));
}

#[test]
fn the_runner_counts_best_and_losing_answers() {
    let dir = Scratch::new("suite", "runner");
    let suite = dir.0.join("suite.txt");
    // Two positions whose "best" is the engine's own depth-3 answer, and one whose "played" turn is.
    let mut s = losses::searcher("max", 1).unwrap();
    let mut game = Game::new(Rules::default());
    let mut lines = String::from("# tiny suite\n");
    for n in 0..3 {
        let pos: Position = *game.position();
        let answer = losses::deep_verdict(&mut s, &pos, &[], Limits::depth(3)).0.best.unwrap();
        let other = pos.legal_turns().into_iter().find(|t| !losses::same_result(&pos, t, &answer)).unwrap();
        let (best, played) = if n == 2 { (other, answer.clone()) } else { (answer.clone(), other) };
        let e = Entry { position: pos, best, score: 0, played, drop: 100, source: format!("test {n}") };
        lines += &format!("{e}\n");
        game.play_turn(&answer).unwrap();
    }
    std::fs::write(&suite, lines).unwrap();
    let out = cli(&["suite", "--depth", "3", "--engine", "max", "--hash", "1"], &[&suite]);
    assert!(out.contains("2 of 3 best (66.7%), 1 the losing turn"), "{out}");
}

#[test]
fn a_damaged_suite_is_named_and_not_run() {
    let dir = Scratch::new("suite", "bad");
    let suite = dir.0.join("suite.txt");
    std::fs::write(&suite, "9/4B4/9/2W3W2/9 w | x | 0\n").unwrap();
    let out =
        Command::new(env!("CARGO_BIN_EXE_fanorona-cli")).args(["suite", "--depth", "2"]).arg(&suite).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("suite line 1"));
}

#[test]
fn the_committed_suite_reads_and_its_turns_are_legal() {
    let entries = losses::parse_suite(include_str!("../data/losses.txt")).unwrap();
    assert_eq!(entries.len(), 34);
    for e in &entries {
        // Every line is a mistake: the turn played is not the deep search's, and it cost at least a piece.
        assert!(!losses::same_result(&e.position, &e.best, &e.played), "{e}");
        assert!(e.drop >= 100, "{e}");
    }
}
