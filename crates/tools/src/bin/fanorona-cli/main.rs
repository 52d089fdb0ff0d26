//! `fanorona-cli`: perft, legal turns, applying turns and benchmarks from the command line.
//!
//! One module per group of commands; each command's arguments are a struct there whose `run` does the command.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Prints a line to standard output; when the reader has gone away (`fanorona-cli moves | head`), exits quietly
/// instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::emit(format_args!($($arg)*))
    };
}

/// The line [`out!`] prints.
fn emit(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if writeln!(stdout, "{args}").and_then(|_| stdout.flush()).is_err() {
        std::process::exit(0);
    }
}

mod args;
mod book;
mod ceiling;
mod losses;
mod play;
mod puzzles;
mod strength;
mod tablebase;
mod tune;
mod turns;

#[derive(Parser)]
#[command(name = "fanorona-cli", version, about = "Fanorona engine: perft, legal turns, apply turns, benchmarks")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Turn-level perft: prints `<depth> <count>` for every depth 1..=DEPTH.
    Perft(turns::PerftArgs),
    /// Every legal turn, one per line, in turn notation.
    Moves(turns::MovesArgs),
    /// Prints the position after a turn as FEN; an illegal turn exits with code 2.
    Apply(turns::ApplyArgs),
    /// The engine protocol on standard input and output (see docs/engine-protocol.md).
    Engine,
    /// Endgame tablebases: build (cached on disk) or probe.
    Tablebase {
        #[command(subcommand)]
        action: tablebase::TbAction,
    },
    /// Play against the CPU in the terminal (type turns like `d3-e3A`; `help` lists commands).
    Play(play::PlayArgs),
    /// Plays one CPU-vs-CPU game and prints its turns and result.
    Selfplay(play::SelfplayArgs),
    /// Plays a match between two levels with randomised openings, each opening with both colours.
    Match(play::MatchArgs),
    /// Perft throughput (turns/s and steps/s) and search speed (nodes/s, depth in a set time) from fixed positions.
    Bench(strength::BenchArgs),
    /// Sequential probability ratio test: engine A against engine B over the opening book, each opening with
    /// both colours, until the log-likelihood ratio decides or the pair limit is reached.
    Sprt(strength::SprtArgs),
    /// SPSA tuning of whole-number search options by self-play (fishtest's method): every pair of games moves
    /// all parameters at once; prints their values as it goes and the options to test with `sprt` at the end.
    Spsa(strength::SpsaArgs),
    /// Puzzles: generate, check, show.
    Puzzles {
        #[command(subcommand)]
        action: puzzles::PuzzleAction,
    },
    /// Texel-style tuning of the evaluation: labelled positions from self-play, and the fit of the weights.
    Tune {
        #[command(subcommand)]
        action: tune::TuneAction,
    },
    /// Generates a book of balanced openings (4-6 turns whose shallow-search score is near even).
    Openings(book::OpeningsArgs),
    /// Builds the opening book of Master and full strength (crates/engine/data/book.txt) by deep searches.
    Book(book::BookArgs),
    /// In lost games, the turn after which a deep search's evaluation fell furthest, written as a suite of
    /// positions with the deep search's best turn.
    Losses(losses::LossesArgs),
    /// Searches every position of a suite and counts the answers that match its best turns.
    Suite(losses::SuiteArgs),
    /// Judges each opening of a book drawn, decided or open by a deep search from its end, and prints the most
    /// an engine could score from the book against an opponent that holds the draws and converts the wins.
    Ceiling(ceiling::CeilingArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
/// Runs one command; an error is printed by `main`, which exits with code 2.
fn run(command: Command) -> Result<(), String> {
    match command {
        Command::Perft(args) => args.run(),
        Command::Moves(args) => args.run(),
        Command::Apply(args) => args.run(),
        Command::Engine => engine(),
        Command::Tablebase { action } => tablebase::run(action),
        Command::Play(args) => args.run(),
        Command::Selfplay(args) => args.run(),
        Command::Match(args) => args.run(),
        Command::Bench(args) => args.run(),
        Command::Sprt(args) => args.run(),
        Command::Spsa(args) => args.run(),
        Command::Puzzles { action } => puzzles::run(action),
        Command::Tune { action } => tune::run(action),
        Command::Openings(args) => args.run(),
        Command::Book(args) => args.run(),
        Command::Losses(args) => args.run(),
        Command::Suite(args) => args.run(),
        Command::Ceiling(args) => args.run(),
    }
}

/// `fanorona-cli engine`: the engine protocol on standard input and output until `quit` or the end of input.
fn engine() -> Result<(), String> {
    let out: fanorona_engine::engine_protocol::Output = std::sync::Arc::new(std::sync::Mutex::new(std::io::stdout()));
    fanorona_engine::engine_protocol::run(std::io::stdin().lock(), out);
    Ok(())
}
