//! `play`, `selfplay` and `match`: games against the CPU in the terminal and between CPU levels.

use crate::args::{PositionArgs, SideArg};
use clap::Args;
use fanorona_engine::levels::Level;
use fanorona_engine::{Rules, Side, Turn};
use fanorona_tools::matches;

/// The arguments of `fanorona-cli play`.
#[derive(Args)]
pub(crate) struct PlayArgs {
    /// CPU level (1-5).
    #[arg(long, default_value_t = 3)]
    level: u8,
    /// Your colour.
    #[arg(long, value_enum, default_value_t = SideArg::White)]
    color: SideArg,
    #[command(flatten)]
    pos: PositionArgs,
}

impl PlayArgs {
    /// Play against the CPU in the terminal (type turns like `d3-e3A`; `help` lists commands).
    pub(crate) fn run(self) -> Result<(), String> {
        let PlayArgs { level, color, pos } = self;
        play(level, color.into(), &pos)
    }
}

/// The arguments of `fanorona-cli selfplay`.
#[derive(Args)]
pub(crate) struct SelfplayArgs {
    /// Level of White (1-5).
    #[arg(long, default_value_t = 3)]
    white: u8,
    /// Level of Black (1-5).
    #[arg(long, default_value_t = 3)]
    black: u8,
    /// Cap on thinking time per turn, in milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Random opening turns before the levels play.
    #[arg(long, default_value_t = 0)]
    opening: usize,
    /// Seed of the random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop (drawn) after this many turns.
    #[arg(long, default_value_t = 400)]
    max_turns: usize,
}

impl SelfplayArgs {
    /// Plays one CPU-vs-CPU game and prints its turns and result.
    pub(crate) fn run(self) -> Result<(), String> {
        let SelfplayArgs { white, black, movetime, opening, seed, max_turns } = self;
        let w = player(white, movetime)?;
        let b = player(black, movetime)?;
        let setup = matches::Setup { rules: Rules::default(), opening, seed, max_turns };
        let rec = matches::play_game(&setup, w, b, |n, side, t| out!("turn {n} {side} {t}"));
        match rec.outcome {
            Some(o) => out!("result {o}"),
            None => out!("result draw: stopped after {max_turns} turns"),
        }
        Ok(())
    }
}

/// The arguments of `fanorona-cli match`.
#[derive(Args)]
pub(crate) struct MatchArgs {
    /// Level of player A (1-5).
    a: u8,
    /// Level of player B (1-5).
    b: u8,
    /// Pairs of games.
    #[arg(long, default_value_t = 10)]
    pairs: u32,
    /// Cap on A's thinking time per turn, in milliseconds.
    #[arg(long)]
    movetime_a: Option<u64>,
    /// Cap on B's thinking time per turn, in milliseconds.
    #[arg(long)]
    movetime_b: Option<u64>,
    /// Random opening turns.
    #[arg(long, default_value_t = 2)]
    opening: usize,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop a game (drawn) after this many turns.
    #[arg(long, default_value_t = 400)]
    max_turns: usize,
    /// Append every game to FILE, one line each in the format of `sprt --games` (for `losses`).
    #[arg(long)]
    games: Option<std::path::PathBuf>,
}

impl MatchArgs {
    /// Plays a match between two levels with randomised openings, each opening with both colours.
    pub(crate) fn run(self) -> Result<(), String> {
        let MatchArgs { a, b, pairs, movetime_a, movetime_b, opening, seed, max_turns, games } = self;
        let mut log = crate::args::open_game_log(games.as_deref())?;
        let mut log_error = None;
        let pa = player(a, movetime_a)?;
        let pb = player(b, movetime_b)?;
        let setup = matches::Setup { rules: Rules::default(), opening, seed, max_turns };
        let mut n = 0;
        let score = matches::play_match(&setup, pa, pb, pairs, |a_side, rec| {
            n += 1;
            let result = match rec.outcome {
                Some(o) => o.to_string(),
                None => "draw at the turn limit".to_string(),
            };
            out!("game {n}: A ({}) as {a_side}: {result} after {} turns", pa.level.name(), rec.turns.len());
            if let Some(f) = log.as_mut() {
                use std::io::Write as _;
                let line = fanorona_tools::losses::match_log((n - 1) / 2, a_side, &rec.turns, rec.outcome);
                if let Err(e) = writeln!(f, "{line}") {
                    log_error.get_or_insert(e);
                }
            }
        });
        if let (Some(e), Some(path)) = (log_error, &games) {
            return Err(format!("cannot write the game log {}: {e}", path.display()));
        }
        out!(
            "A {} vs B {}: +{} ={} -{} ({:.1}%)",
            pa.level.name(),
            pb.level.name(),
            score.wins,
            score.draws,
            score.losses,
            100.0 * score.fraction()
        );
        Ok(())
    }
}

fn play(level: u8, human: Side, args: &PositionArgs) -> Result<(), String> {
    use fanorona_engine::Game;
    use fanorona_engine::levels::{hint, history_hashes};
    use fanorona_engine::search::{Limits, Searcher};
    use std::io::BufRead;
    let level = Level::from_number(level).ok_or_else(|| format!("level {level} does not exist (1-5)"))?;
    let rules = args.rules();
    let mut game = Game::from_position(args.position()?, rules);
    let mut searcher = Searcher::new(64);
    let mut input = std::io::stdin().lock().lines();
    let mut seed = 1u64;
    out!("You play {human} against the CPU ({}). Type a turn like d3-e3A, or help.", level.name());
    loop {
        let pos = *game.position();
        out!("\n{}", pos.diagram());
        if let Some(o) = game.outcome() {
            out!("Game over: {o}.");
            return Ok(());
        }
        if pos.side_to_move() != human {
            let t = level
                .choose(&mut searcher, &pos, &history_hashes(&game), seed, Limits::default())
                .ok_or("the CPU has no turn")?;
            seed += 1;
            game.play_turn(&t).map_err(|e| e.to_string())?;
            out!("CPU ({}) plays {t}", pos.side_to_move());
            continue;
        }
        print!("{human} to move> ");
        use std::io::Write;
        let _ = std::io::stdout().flush();
        let Some(Ok(line)) = input.next() else { return Ok(()) };
        match line.trim() {
            "quit" | "exit" => return Ok(()),
            "help" => out!(
                "Commands: a turn (steps like d3-e3A separated by spaces; A = approach, W = withdrawal, none = paika),\n\
                 moves (list legal turns), hint, undo (takes back your last turn), draw (offer a draw), resign, quit."
            ),
            "moves" => {
                let mut turns: Vec<String> = pos.legal_turns().iter().map(|t| t.to_string()).collect();
                turns.sort();
                out!("{}", turns.join("\n"));
            }
            "hint" => match hint(&mut searcher, &game, std::time::Duration::from_millis(700)) {
                Some((t, s)) => out!("Hint: {t} ({s})"),
                None => out!("No legal turn."),
            },
            "undo" => {
                // Take back the CPU's reply and your own turn.
                let _ = game.undo();
                if game.position().side_to_move() != human {
                    let _ = game.undo();
                }
            }
            "draw" => {
                if level.accepts_draw(&mut searcher, &pos, &history_hashes(&game), human.opponent()) {
                    let _ = game.agree_draw();
                    out!("The CPU accepts the draw.");
                } else {
                    out!("The CPU declines: it thinks it is winning.");
                }
            }
            "resign" => {
                let _ = game.resign(human);
            }
            text => match text.parse::<Turn>() {
                Ok(t) => {
                    if let Err(e) = game.play_turn(&t) {
                        out!("{e}");
                    }
                }
                Err(e) => out!("{e}"),
            },
        }
    }
}

fn player(level: u8, movetime: Option<u64>) -> Result<matches::Player, String> {
    let level = Level::from_number(level).ok_or_else(|| format!("level {level} does not exist (1-5)"))?;
    Ok(matches::Player { level, movetime: movetime.map(std::time::Duration::from_millis) })
}
