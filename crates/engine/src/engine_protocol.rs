//! The engine protocol of `fanorona-cli engine`: a UCI-like line protocol on standard input and output.
//!
//! Commands: `newgame`, `position startpos`, `position fen <FEN>` (either followed by `moves` and the turns played
//! since, as UCI clients send them), `play <TURN>`, `go depth <n>` / `go movetime <ms>` / `go nodes <n>` /
//! `go wtime <ms> btime <ms> [winc <ms> binc <ms>] [movestogo <n>]`, any of them with
//! `multipv <n>` (answered by `info depth D seldepth S multipv K score …` lines, one per line K of each depth, best
//! first, and `bestmove <TURN>`) and with `ponder` (thinking on the opponent's time until `ponderhit` or `stop`),
//! `stop`, `eval`, `isready` (→ `readyok`, once the endgame table is loaded),
//! `level <1-5>` (play at a level instead of full strength), `level max` (full strength), `level baseline` (the
//! plain reference player of strength tests), `threads <n>` (threads of the full-strength and baseline searches;
//! default [`default_threads`]), `quit`; and for UCI clients `uci` (→ `id …`, `option …`, `uciok`),
//! `ucinewgame` (as `newgame`), `setoption name Threads|Hash value <n>` and `setoption name Ponder value
//! true|false` (`bestmove <TURN> ponder <TURN>`). Full strength plays endgames of up to
//! six pieces perfectly from the tablebase (the largest cached table, else four pieces built in memory; the engine
//! program grows it to six pieces in the background, [`tablebase::grow_shared`]), and opens from the opening book
//! (`info string book <TURN> score cp <n>`, then `bestmove` at once) except for `go depth`, `multipv` and
//! `go infinite`, which ask for a search.
//! `position fen` goes on with the current game where one or two legal turns lead to the position (a client that
//! sends positions instead of turns keeps the game's history), and the client is the arbiter of draws by rule.
//! Errors are reported as `error <message>` lines; nothing a client sends can crash the engine.
//! A command that needs the game (`position`, `play`, `go`, `eval`, `newgame`, `threads`) waits for a running
//! search to end; an endless one (`go infinite`, `go` without a limit, or `go ponder` before its `ponderhit`) is
//! stopped first, with its `bestmove`.

use crate::game::Game;
use crate::geometry::Variant;
use crate::levels::{FULL_STRENGTH, Level};
use crate::position::Position;
use crate::rules::{DrawRule, Rules, Side};
use crate::search::{Info, Limits, Oracle, Score, Searcher, full_evaluate};
use crate::tablebase;
use crate::turns::Turn;
use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;
use web_time::Instant;

/// Pieces on the board at most for a full-strength search to wait for the endgame table while it loads: from
/// here a search soon reaches positions of [`tablebase::SHARED_MAX_PIECES`] pieces.
const WAIT_FOR_TABLE_PIECES: u32 = tablebase::SHARED_MAX_PIECES + 4;

/// The rules of the session's game: the defaults without their draws by rule. The client is the arbiter of
/// repetitions and long runs without a capture (its rules may count them otherwise, or not at all), and an engine
/// that answered `bestmove (none)` in a game its client goes on with would lose it. The search still scores
/// those draws by the default rule, from the game's history.
fn session_rules() -> Rules {
    Rules { draw: DrawRule { repetitions: 0, no_capture_turns: 0 }, ..Rules::default() }
}

/// The whole turns, none to two, that lead from the end of `game` to `to`, where there are such: the position a
/// client sends with `position fen` is then the same game gone on by our turn and the opponent's reply (or by one
/// of them), not a new game. A game that is over or stands in the middle of a relay has none.
fn continuation(game: &Game, to: &Position) -> Option<Vec<Turn>> {
    let from = *game.position();
    if game.is_over() || from.in_relay() || to.in_relay() || from.variant() != to.variant() {
        return None;
    }
    if from == *to {
        return Some(Vec::new());
    }
    let mover = from.side_to_move();
    let (ours, theirs) = (to.count(mover), to.count(mover.opponent()));
    // Pieces only go, so a count that grew rules out every line, and the counts prune the first turns.
    if ours > from.count(mover) || theirs > from.count(mover.opponent()) {
        return None;
    }
    for first in from.legal_turns() {
        let mut after = from;
        after.play_turn(&first).ok()?;
        if after == *to {
            return Some(vec![first]);
        }
        // The reply captures only the mover's pieces, so the opponent's count is already final after the first.
        if to.side_to_move() != mover || after.count(mover.opponent()) != theirs {
            continue;
        }
        for reply in after.legal_turns() {
            let mut end = after;
            if end.play_turn(&reply).is_ok() && end == *to {
                return Some(vec![first, reply]);
            }
        }
    }
    None
}

/// The largest transposition table `setoption name Hash` accepts, in megabytes.
const MAX_HASH_MB: usize = 4096;

/// The answer to a `position` command that is neither form.
const POSITION_USAGE: &str = "usage: position startpos [moves <TURN>…] | position fen <FEN> [moves <TURN>…]";

/// The turns of a `moves` list: steps in turn notation, each turn's steps one after another (a step that starts
/// where the one before it ended continues its turn: the point holds the mover's piece, so the next turn cannot
/// start there), commas allowed between turns.
fn turns_of(words: &[&str]) -> Result<Vec<Turn>, String> {
    let mut turns: Vec<Vec<crate::position::Step>> = Vec::new();
    for word in words.iter().flat_map(|w| w.split(',')).filter(|w| !w.is_empty()) {
        let step: crate::position::Step = word.parse().map_err(|e| format!("{word:?} in the moves: {e}"))?;
        match turns.last_mut() {
            Some(steps) if steps.last().is_some_and(|last| last.to == step.from) => steps.push(step),
            _ => turns.push(vec![step]),
        }
    }
    Ok(turns.into_iter().map(Turn::new).collect())
}

/// Where protocol output goes; shared with the search thread.
pub type Output = Arc<Mutex<dyn Write + Send>>;

fn say(out: &Output, line: &str) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// Formats a search progress report as an `info` line (turns of the PV separated by `,`); `multipv K` names the
/// line, 1 being the best (`go … multipv N` reports N lines per depth).
pub fn info_line(i: &Info) -> String {
    let pv: Vec<String> = i.pv.iter().map(|t| t.to_string()).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} time {} pv {}",
        i.depth,
        i.seldepth,
        i.multipv,
        i.value().to_protocol(),
        i.nodes,
        i.nps(),
        i.elapsed.as_millis(),
        pv.join(", ")
    )
}

/// One protocol session: the current game and the engine.
pub struct Session {
    game: Game,
    searcher: Option<Searcher>,
    /// The engine being made when the session starts ([`Session::new`]).
    making: Option<JoinHandle<Searcher>>,
    running: Option<JoinHandle<Searcher>>,
    /// Whether the running search has no limit of its own (`go infinite`, or a `go` without depth, time or nodes):
    /// it ends only when told to.
    endless: bool,
    stop: Arc<std::sync::atomic::AtomicBool>,
    level: Option<Level>,
    /// Search options of the full search (see [`Searcher::configure`]): [`FULL_STRENGTH`] or `baseline`.
    options: &'static str,
    /// Threads of the full search (levels search on one).
    threads: usize,
    /// The running `go ponder` search until its `ponderhit` or `stop`.
    ponder: Option<Ponder>,
    /// Whether `bestmove` names the reply it expects (`bestmove <TURN> ponder <TURN>`): UCI's Ponder option,
    /// off unless a client sets it, since the turn before `ponder` is itself several words.
    name_ponder: bool,
    out: Output,
}

/// A `go ponder` search: it searches the position after the opponent's expected reply while the opponent thinks,
/// and answers only once told `ponderhit` (the reply came: then within the turn's time, counted from there) or
/// `stop` (another came).
struct Ponder {
    /// The turn's time from `ponderhit`: the `go`'s movetime or its share of the clock. None when the search has
    /// no time limit (a level, which chooses only after the `ponderhit`, or `go ponder depth <n>`).
    time: Option<Duration>,
    /// Whether the search has no limit of its own once pondering ends.
    endless_after: bool,
    gate: Arc<Gate>,
}

/// Where a ponder search's thread and the session meet: the thread holds its answer until the gate opens.
#[derive(Default)]
struct Gate {
    state: Mutex<GateState>,
    changed: std::sync::Condvar,
}

#[derive(Default)]
struct GateState {
    /// `ponderhit` came.
    hit: bool,
    /// `stop`, or another command that ends the search, came before any `ponderhit`.
    released: bool,
    /// The search has its answer.
    finished: bool,
}

impl Gate {
    fn lock(&self) -> std::sync::MutexGuard<'_, GateState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set(&self, change: impl FnOnce(&mut GateState)) {
        change(&mut self.lock());
        self.changed.notify_all();
    }

    /// Waits until pondering ends, by `ponderhit` or by release.
    fn wait_open(&self) {
        let guard = self.lock();
        drop(self.changed.wait_while(guard, |g| !g.hit && !g.released).unwrap_or_else(|e| e.into_inner()));
    }

    /// Stops the search through `stop` once `time` has passed, unless it has its answer by then: the turn's time
    /// after a `ponderhit`. Its thread ends with the search, so that it cannot stop a later one.
    fn stop_after(self: &Arc<Self>, time: Duration, stop: Arc<std::sync::atomic::AtomicBool>) {
        let gate = Arc::clone(self);
        std::thread::spawn(move || {
            let guard = gate.lock();
            let (guard, _) =
                gate.changed.wait_timeout_while(guard, time, |g| !g.finished).unwrap_or_else(|e| e.into_inner());
            // Under the gate's lock, which the search's thread takes to say it finished: a `stop` stored here
            // comes before that thread ends, and so before the next search clears the flag.
            if !guard.finished {
                stop.store(true, Ordering::Relaxed);
            }
        });
    }
}

/// Megabytes of the table of the searches that come before the session's engine is made ([`Session::quick`]).
const QUICK_TABLE_MB: usize = 4;

/// Threads a session searches with until told otherwise (`threads <n>`): one.
pub fn default_threads() -> usize {
    1
}

impl Session {
    /// A session writing to `out`.
    pub fn new(out: Output) -> Session {
        // The engine is made on a thread of its own: writing its 64 MB table took a fresh engine 5 ms, but up to
        // 180 ms at times (the kernel's pages), and a client that sent `position` and `go` at once had its `go`
        // read only after that, outside the turn's time. `isready` and `setoption` wait for it, `go` searches with
        // a small table until it is in ([`Session::quick`]), `position` and `play` do not need it.
        //
        // The opening book is read at its first use: here, first, by whichever of the two threads below starts
        // first while the other waits for it, so that a first `go` does not spend its time on it (a `go` that
        // comes sooner waits for this reading rather than doing it again). On a 2-core VM, the table's page
        // faults and the tablebase's mapping running beside it stretched the reading from 15 ms to 160 ms, and
        // the table's making from 5 to 217 ms, so that a fresh engine's first `go movetime 200` reached depth 2
        // (see [`Session::quick`]).
        let making = std::thread::spawn(|| {
            crate::book::OpeningBook::builtin();
            Searcher::new(64)
        });
        // Full strength plays small endgames from the tablebase, as Master does: load or build it now, while the
        // client is still setting up, so that the first search does not wait for it.
        std::thread::spawn(|| {
            crate::book::OpeningBook::builtin();
            tablebase::shared(Variant::Tsivy, tablebase::default_dir().as_deref())
        });
        Session {
            stop: Arc::new(std::sync::atomic::AtomicBool::new(false)),
            game: Game::new(session_rules()),
            searcher: None,
            making: Some(making),
            running: None,
            endless: false,
            level: None,
            options: FULL_STRENGTH,
            threads: default_threads(),
            ponder: None,
            name_ponder: false,
            out,
        }
    }

    /// Waits for the engine made at the start, where it is not yet in. Not while a search runs (with the small
    /// engine of [`Session::quick`]): its stop flag must stay the one that `stop` and a `ponderhit`'s time set, and
    /// the next `go` takes the made engine.
    fn made(&mut self) {
        if self.running.is_some() {
            return;
        }
        if let Some(h) = self.making.take() {
            let s = h.join().unwrap_or_else(|_| Searcher::new(64));
            self.stop = s.stop_flag();
            self.searcher = Some(s);
        }
    }

    /// The engine made at the start if it is in; if not, without waiting for it, an engine with a small table
    /// ([`QUICK_TABLE_MB`]) for the searches until it is. Making the 64 MB table took from 5 ms to over 200 ms
    /// on the 2-core VM (the kernel's first touch of its pages, while the tablebase was mapped), and a `go` that
    /// waited for it spent its turn's time there.
    fn quick(&mut self) {
        if self.making.as_ref().is_some_and(JoinHandle::is_finished) {
            self.made();
        } else if self.making.is_some() && self.searcher.is_none() {
            let s = Searcher::new(QUICK_TABLE_MB);
            self.stop = s.stop_flag();
            self.searcher = Some(s);
        }
    }

    /// Waits for the running search to finish. An endless one is stopped first: the commands that wait are read
    /// on this thread, so waiting for it would leave the engine deaf to the `stop` that could end it.
    fn wait(&mut self) {
        // A ponder search holds its answer until told: whatever ends it now ends its pondering too.
        if let Some(p) = self.ponder.take() {
            p.gate.set(|g| g.released = true);
        }
        if std::mem::take(&mut self.endless) {
            self.stop.store(true, Ordering::Relaxed);
        }
        if let Some(h) = self.running.take() {
            match h.join() {
                Ok(s) => self.searcher = Some(s),
                Err(_) => {
                    say(&self.out, "error the search thread failed; starting a fresh engine");
                    let s = Searcher::new(64);
                    self.stop = s.stop_flag();
                    self.searcher = Some(s);
                }
            }
        }
    }

    /// Handles one command line; returns false after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match cmd {
            "" => {}
            "quit" => {
                self.stop.store(true, Ordering::Relaxed);
                self.wait();
                return false;
            }
            "isready" => {
                // Ready means the endgame table is in memory (loading a cached six-piece table takes a moment):
                // a client that waits for `readyok` before its clock starts does not lose that time on a turn.
                // So does the engine, made when the session started.
                self.made();
                if self.options == FULL_STRENGTH {
                    tablebase::shared(Variant::Tsivy, tablebase::default_dir().as_deref());
                }
                say(&self.out, "readyok");
            }
            "stop" => {
                self.stop.store(true, Ordering::Relaxed);
                self.wait();
            }
            "ponderhit" => self.ponder_hit(),
            "newgame" | "ucinewgame" => {
                self.wait();
                self.game = Game::new(session_rules());
                if let Some(s) = &mut self.searcher {
                    s.clear();
                }
            }
            "position" => {
                self.wait();
                match self.position_game(rest) {
                    Ok(game) => self.game = game,
                    Err(e) => say(&self.out, &format!("error {e}")),
                }
            }
            "play" => {
                self.wait();
                match rest.parse::<Turn>() {
                    Ok(t) => {
                        if let Err(e) = self.game.play_turn(&t) {
                            say(&self.out, &format!("error {e}"));
                        }
                    }
                    Err(e) => say(&self.out, &format!("error {e}")),
                }
            }
            "eval" => {
                self.wait();
                let p = *self.game.position();
                let score = Score::from_raw(full_evaluate(&p));
                say(&self.out, &format!("eval {} ({score})", score.to_protocol()));
            }
            "level" => match rest.parse::<u8>().ok().and_then(Level::from_number) {
                Some(l) => self.level = Some(l),
                None if rest == "off" || rest == "max" || rest == "baseline" => {
                    self.level = None;
                    self.options = if rest == "baseline" { "baseline" } else { FULL_STRENGTH };
                }
                None => say(&self.out, "error usage: level <1-5> | level max | level baseline"),
            },
            "threads" => match rest.parse::<usize>() {
                Ok(n) if (1..=crate::search::MAX_THREADS).contains(&n) => {
                    self.wait();
                    self.threads = n;
                }
                _ => say(&self.out, &format!("error usage: threads <1-{}>", crate::search::MAX_THREADS)),
            },
            "uci" => {
                say(&self.out, &format!("id name Fanorona {}", env!("CARGO_PKG_VERSION")));
                say(&self.out, "id author the Fanorona developers");
                say(
                    &self.out,
                    &format!("option name Threads type spin default 1 min 1 max {}", crate::search::MAX_THREADS),
                );
                say(&self.out, &format!("option name Hash type spin default 64 min 1 max {MAX_HASH_MB}"));
                say(&self.out, "option name Ponder type check default false");
                say(&self.out, "uciok");
            }
            "setoption" => self.set_option(rest),
            "go" => self.go(rest),
            "fen" => say(&self.out, &self.game.position().to_fen()),
            _ => say(&self.out, &format!("error unknown command {cmd:?}")),
        }
        true
    }

    /// The game that `position <rest>` describes: `startpos` or `fen <FEN>`, then optionally `moves` and the
    /// turns played since, as UCI clients send them. A FEN that one or two legal turns reach from the current
    /// game goes on with it (a client that sends positions instead of turns keeps the game's history). The turns
    /// may be steps one after another (`f2-e3A d5-d4A e3-d3W d3-d2W`, three turns: a step that starts where the
    /// last one ended goes on with its turn, since the opponent has no piece there) or separated by commas, as
    /// `info … pv` writes them. Any error leaves the current game as it was.
    fn position_game(&self, rest: &str) -> Result<Game, String> {
        let rules = *self.game.rules();
        let words: Vec<&str> = rest.split_whitespace().collect();
        let (base, moves) = match words.iter().position(|w| *w == "moves") {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (&words[..], &[][..]),
        };
        let mut game = match base {
            ["startpos"] => Game::new(rules),
            ["fen", fen @ ..] if !fen.is_empty() => {
                let p = Position::from_fen_with_rules(&fen.join(" "), &rules).map_err(|e| e.to_string())?;
                // A turn the game refused (it cannot: they are legal turns) would leave it half played, and a
                // new game from the position is always right.
                let mut game = self.game.clone();
                let continued =
                    continuation(&game, &p).is_some_and(|turns| turns.iter().all(|t| game.play_turn(t).is_ok()));
                if continued { game } else { Game::from_position(p, Rules { variant: p.variant(), ..rules }) }
            }
            _ => return Err(POSITION_USAGE.to_string()),
        };
        for (n, turn) in turns_of(moves)?.iter().enumerate() {
            game.play_turn(turn).map_err(|e| format!("turn {} of the moves ({turn}): {e}", n + 1))?;
        }
        Ok(game)
    }

    /// `setoption name <Threads|Hash> value <n>` and `setoption name Ponder value <true|false>`, for UCI clients
    /// (`threads <n>` does the same as Threads).
    fn set_option(&mut self, rest: &str) {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let (name, value) = match words.as_slice() {
            ["name", name, "value", value] => (name.to_ascii_lowercase(), *value),
            _ => {
                say(
                    &self.out,
                    "error usage: setoption name <Threads|Hash> value <n> | setoption name Ponder value <true|false>",
                );
                return;
            }
        };
        if name == "ponder" {
            match value.to_ascii_lowercase().as_str() {
                "true" => self.name_ponder = true,
                "false" => self.name_ponder = false,
                _ => say(&self.out, "error usage: setoption name Ponder value <true|false>"),
            }
            return;
        }
        let value = value.parse::<usize>().ok();
        match (name.as_str(), value) {
            ("threads", Some(n)) if (1..=crate::search::MAX_THREADS).contains(&n) => {
                self.wait();
                self.threads = n;
            }
            ("hash", Some(mb)) if (1..=MAX_HASH_MB).contains(&mb) => {
                self.wait();
                // The engine made at the start must not replace this one when it comes in.
                self.made();
                // A fresh searcher: the table's size is fixed when it is made.
                let s = Searcher::new(mb);
                self.stop = s.stop_flag();
                self.searcher = Some(s);
            }
            ("threads", _) => {
                say(&self.out, &format!("error usage: setoption name Threads value <1-{}>", crate::search::MAX_THREADS))
            }
            ("hash", _) => say(&self.out, &format!("error usage: setoption name Hash value <1-{MAX_HASH_MB}>")),
            _ => say(&self.out, &format!("error unknown option {name:?} (Threads, Hash, Ponder)")),
        }
    }

    fn go(&mut self, args: &str) {
        // The turn's time runs from the command's arrival: what the engine does before it searches (loading the
        // endgame table, the book's first use, starting the thread) comes out of it.
        let asked = Instant::now();
        self.wait();
        self.quick();
        let words: Vec<&str> = args.split_whitespace().collect();
        let mut limits = Limits::default();
        let mut clock = Clock::default();
        let mut infinite = false;
        let mut ponder = false;
        let mut i = 0;
        while i < words.len() {
            let value = words.get(i + 1).and_then(|v| v.parse::<u64>().ok());
            match (words[i], value) {
                ("depth", Some(v)) => limits.depth = Some(v.clamp(1, 200) as u32),
                ("movetime", Some(v)) => limits.movetime = Some(Duration::from_millis(search_time(v))),
                ("nodes", Some(v)) => limits.nodes = Some(v),
                ("multipv", Some(v)) => limits.multipv = v.clamp(1, 256) as usize,
                ("wtime", Some(v)) => clock.time[0] = Some(v),
                ("btime", Some(v)) => clock.time[1] = Some(v),
                ("winc", Some(v)) => clock.inc[0] = v,
                ("binc", Some(v)) => clock.inc[1] = v,
                ("movestogo", Some(v)) => clock.moves_to_go = Some(v),
                ("infinite", _) => {
                    infinite = true;
                    i += 1;
                    continue;
                }
                ("ponder", _) => {
                    ponder = true;
                    i += 1;
                    continue;
                }
                _ => {
                    say(
                        &self.out,
                        "error usage: go depth <n> | go movetime <ms> | go nodes <n> | go wtime <ms> btime <ms> [winc <ms> binc <ms>] [movestogo <n>] | go infinite, each with [multipv <n>] [ponder]",
                    );
                    return;
                }
            }
            i += 2;
        }
        let side = self.game.position().side_to_move().index();
        if let (None, Some(t)) = (limits.movetime, clock.time[side]) {
            limits.movetime = Some(Duration::from_millis(time_for_turns(t, clock.inc[side], clock.moves_to_go)));
        }
        if let Some(o) = self.game.outcome() {
            say(&self.out, &format!("info string game over: {o}"));
            say(&self.out, "bestmove (none)");
            return;
        }
        let Some(mut searcher) = self.searcher.take() else { return };
        // A `stop` that arrives from here on, even before the thread starts searching, ends this search.
        self.stop.store(false, Ordering::Relaxed);
        let pos = *self.game.position();
        let history = crate::levels::history_hashes(&self.game);
        let out = self.out.clone();
        let level = self.level;
        let seed = self.game.turns().len() as u64;
        searcher.configure(self.options).expect("the session's options are valid");
        searcher.threads = if level.is_none() { self.threads } else { 1 };
        // The table loads while the engine starts. A search near the endgame waits for it, to play that endgame
        // perfectly, but for half its time at most: a freshly started engine asked for a short turn in an endgame
        // answered `go movetime 200` after 0.6-1.8 s while the six-piece table loaded. One far from the endgame
        // goes without until it is in (measured over five fresh engines, `go movetime 200` as the first command
        // while the five-piece table loads: 226-291 ms waiting for it, 198-223 ms without).
        let near_endgame = pos.count(Side::White) + pos.count(Side::Black) <= WAIT_FOR_TABLE_PIECES;
        let oracle: Option<Arc<dyn Oracle>> = (self.options == FULL_STRENGTH)
            .then(|| {
                if near_endgame {
                    match limits.movetime {
                        Some(t) => wait_for_table(pos.variant(), t / 2),
                        None => Some(tablebase::shared(pos.variant(), tablebase::default_dir().as_deref())),
                    }
                } else {
                    tablebase::shared_now(pos.variant())
                }
            })
            .flatten()
            .map(|tb| tb as Arc<dyn Oracle>);
        searcher.set_oracle(oracle);
        // Full strength opens from the book, at once, unless asked for a fixed depth, several lines or an endless
        // search (analysis, where a search's lines are the point).
        let book = searcher
            .opening_book()
            .filter(|_| level.is_none() && limits.depth.is_none() && limits.multipv == 1 && !infinite);
        // The book's turn, and where the client asks for it, the book's best reply to it (its line).
        let book_line = book.and_then(|b| b.play(&pos, book_seed()).map(|t| (b, t))).map(|(book, turn)| {
            let score = book.moves(&pos).and_then(|m| m.iter().find(|m| m.turn == turn)).map_or(0, |m| m.score);
            say(&self.out, &format!("info string book {turn} score {}", Score::from_raw(score).to_protocol()));
            let reply = self.name_ponder.then(|| book_reply(book, &pos, &turn)).flatten();
            (turn, reply)
        });
        if let Some((turn, reply)) = book_line.as_ref().filter(|_| !ponder) {
            match reply {
                Some(reply) => say(&self.out, &format!("bestmove {turn} ponder {reply}")),
                None => say(&self.out, &format!("bestmove {turn}")),
            }
            self.searcher = Some(searcher);
            return;
        }
        let endless = |limits: &Limits| {
            level.is_none() && limits.depth.is_none() && limits.movetime.is_none() && limits.nodes.is_none()
        };
        // Pondering, the search has no time limit: the turn's time runs from the `ponderhit` (a level does not
        // ponder: it waits for the `ponderhit` and then chooses within its time).
        let gate = ponder.then(|| {
            let time = if level.is_none() { limits.movetime.take() } else { None };
            let endless_after = book_line.is_none() && endless(&Limits { movetime: time, ..limits });
            let gate = Arc::new(Gate::default());
            self.ponder = Some(Ponder { time, endless_after, gate: Arc::clone(&gate) });
            gate
        });
        // Until a `ponderhit`, a ponder search ends only when told to.
        self.endless = gate.is_some() || endless(&limits);
        let name_ponder = self.name_ponder;
        self.running = Some(std::thread::spawn(move || {
            let mut from = asked;
            if let (Some(gate), Some(_)) = (&gate, level) {
                gate.wait_open();
                from = Instant::now();
            }
            // Measured in a fresh engine: the book's first use took 2 ms and starting this thread 0.1 ms more,
            // which a budget shortened before them did not count (`go movetime 1000` answered after 994 ms).
            if let Some(t) = limits.movetime.as_mut() {
                *t = t.saturating_sub(from.elapsed()).max(Duration::from_millis(1));
            }
            let (best, pv) = match (book_line, level) {
                (Some((turn, reply)), _) => (Some(turn.clone()), std::iter::once(turn).chain(reply).collect()),
                (None, Some(l)) => (l.choose(&mut searcher, &pos, &history, seed, limits), Vec::new()),
                (None, None) => {
                    let r = searcher.search(&pos, &history, limits, |i| say(&out, &info_line(i)));
                    (r.best, r.pv)
                }
            };
            if let Some(gate) = &gate {
                gate.set(|g| g.finished = true);
                gate.wait_open();
            }
            // The reply it expects: its line's (or the book's) second turn, or where the line ends in the endgame
            // table (whose positions the search does not go into), the table's best reply.
            let reply = best.as_ref().filter(|_| name_ponder).and_then(|t| {
                pv.get(1)
                    .filter(|_| pv.first() == Some(t))
                    .cloned()
                    .or_else(|| searcher.oracle().and_then(|o| table_reply(o.as_ref(), &pos, t)))
            });
            match (best, reply) {
                (Some(t), Some(reply)) => say(&out, &format!("bestmove {t} ponder {reply}")),
                (Some(t), None) => say(&out, &format!("bestmove {t}")),
                (None, _) => say(&out, "bestmove (none)"),
            }
            searcher
        }));
    }

    /// `ponderhit`: the opponent played the reply the running `go ponder` searched after. The search goes on, now
    /// within the turn's time counted from here, and answers as any other.
    fn ponder_hit(&mut self) {
        let Some(p) = self.ponder.take() else {
            say(&self.out, "error ponderhit without a go ponder searching");
            return;
        };
        p.gate.set(|g| g.hit = true);
        self.endless = p.endless_after;
        if let Some(time) = p.time {
            p.gate.stop_after(time, Arc::clone(&self.stop));
        }
    }
}

/// The book's best reply to `turn` in `pos`, where the book holds the position after it.
fn book_reply(book: &crate::book::OpeningBook, pos: &Position, turn: &Turn) -> Option<Turn> {
    let mut after = *pos;
    after.play_turn(turn).ok()?;
    book.moves(&after)?.iter().max_by_key(|m| m.score).map(|m| m.turn.clone())
}

/// The opponent's best reply to `turn` in `pos` by the endgame table (the one that leaves the mover the worst
/// value, a reply that ends the game first), where the table knows the position after `turn`.
fn table_reply(oracle: &dyn Oracle, pos: &Position, turn: &Turn) -> Option<Turn> {
    let mut after = *pos;
    after.play_turn(turn).ok()?;
    oracle.score(&after)?;
    let value = |reply: &Turn| {
        let mut next = after;
        next.play_turn(reply).ok()?;
        if next.legal_turns().is_empty() { Some(i32::MIN) } else { oracle.score(&next) }
    };
    after.legal_turns().into_iter().filter_map(|r| value(&r).map(|v| (v, r))).min_by_key(|(v, _)| *v).map(|(_, r)| r)
}

/// A seed for the book's choice that differs from game to game: the clock's nanoseconds.
fn book_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

/// The clocks of `go wtime … btime … winc … binc …`, indexed by side (White 0, Black 1), in milliseconds.
#[derive(Default)]
struct Clock {
    time: [Option<u64>; 2],
    inc: [u64; 2],
    /// Turns to play before the clock is next filled up (`movestogo`), if the time control has such periods.
    moves_to_go: Option<u64>,
}

/// The time to spend on one turn with `remaining` ms on the clock and `inc` ms added per turn: a share of the
/// remaining time as if about 25 more turns were to come, plus most of the increment, never more than a third of
/// what is left, and a margin for the reply to travel back.
pub fn time_for_turn(remaining: u64, inc: u64) -> u64 {
    time_for_turns(remaining, inc, None)
}

/// [`time_for_turn`] where the clock is filled up again after `moves_to_go` more turns (UCI's `movestogo`): the
/// remaining time is shared among those turns instead of about 25, still never more than a third of it, or
/// three quarters of it for the last turn of the period.
pub fn time_for_turns(remaining: u64, inc: u64, moves_to_go: Option<u64>) -> u64 {
    let n = moves_to_go.unwrap_or(25).clamp(1, 25);
    let share = remaining / n + inc * 3 / 4;
    let most = if n == 1 { remaining / 4 * 3 } else { remaining / 3 };
    share.min(most).saturating_sub(5).max(1)
}

/// How long to search on `go movetime <ms>`: the whole budget but a margin (a tenth, at most 10 ms) for the
/// search to stop, the answer to be written and to travel back, so that the answer arrives within the budget
/// (measured: a search told to stop at the budget answered 0-4 ms after it).
pub fn search_time(movetime: u64) -> u64 {
    movetime.saturating_sub((movetime / 10).min(10)).max(1)
}

/// The shared table of `variant` as soon as it is in memory, waiting `at_most` for it: None if it is still being
/// loaded or built then (the search goes without it, and the next one finds it). The engine starts loading it when
/// it starts ([`Session::new`]).
fn wait_for_table(variant: Variant, at_most: Duration) -> Option<Arc<tablebase::Tablebase>> {
    wait_for(at_most, || tablebase::shared_now(variant))
}

/// What `ready` gives as soon as it gives something, asking every millisecond for `at_most` (and once at least).
fn wait_for<T>(at_most: Duration, mut ready: impl FnMut() -> Option<T>) -> Option<T> {
    let from = Instant::now();
    loop {
        if let Some(t) = ready() {
            return Some(t);
        }
        if from.elapsed() >= at_most {
            return None;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Runs the protocol until `quit` or end of input.
pub fn run(input: impl BufRead, out: Output) {
    let mut session = Session::new(out);
    // The engine program (not every session: tests make many) grows its table to six pieces in the background.
    // After the book, as the session's other start-up work (see [`Session::new`]).
    std::thread::spawn(|| {
        crate::book::OpeningBook::builtin();
        tablebase::grow_shared(Variant::Tsivy, tablebase::default_dir(), tablebase::ENGINE_PIECES)
    });
    for line in input.lines() {
        let Ok(line) = line else { break };
        if !session.handle(&line) {
            return;
        }
    }
    session.handle("quit");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_still_loading_is_waited_for_only_so_long() {
        // Never ready: given up after the time allowed, having asked more than once.
        let mut asked = 0;
        let from = Instant::now();
        assert_eq!(
            wait_for(Duration::from_millis(20), || {
                asked += 1;
                None::<u32>
            }),
            None
        );
        assert!(from.elapsed() >= Duration::from_millis(20));
        assert!(asked > 1);
        // Ready at the third look: taken then, whatever time was left.
        let mut asked = 0;
        let got = wait_for(Duration::from_secs(3600), || {
            asked += 1;
            (asked == 3).then_some("table")
        });
        assert_eq!((got, asked), (Some("table"), 3));
        // Ready at once: no wait even with no time at all.
        assert_eq!(wait_for(Duration::ZERO, || Some(1)), Some(1));
    }

    #[test]
    fn clock_time_is_shared_out() {
        // 60 s left, no increment: 60 000 / 25 = 2 400 ms, less the 5 ms margin.
        assert_eq!(time_for_turn(60_000, 0), 2_395);
        // The increment mostly adds to it.
        assert_eq!(time_for_turn(60_000, 1_000), 2_400 + 750 - 5);
        // Never more than a third of what is left, however large the increment.
        assert_eq!(time_for_turn(900, 10_000), 300 - 5);
        // Nearly flagged: still a positive budget.
        assert_eq!(time_for_turn(3, 0), 1);
    }

    /// A session whose answers go nowhere, to look at its game.
    fn quiet_session() -> Session {
        Session::new(Arc::new(Mutex::new(std::io::sink())))
    }

    fn after(fen: &str, turns: &[&str]) -> String {
        let mut p = Position::from_fen(fen).unwrap();
        for t in turns {
            p.play_turn(&t.parse().unwrap()).unwrap();
        }
        p.to_fen()
    }

    #[test]
    fn a_position_that_goes_on_from_the_game_keeps_its_history() {
        let mut s = quiet_session();
        let start = "9/9/4W4/9/B8 w";
        let there = after(start, &["e3-e4", "a1-a2"]);
        assert!(s.handle(&format!("position fen {start}")));
        // Our turn and the reply, then the same once more: the client sends only positions.
        for fen in [&there, start, &there, start] {
            assert!(s.handle(&format!("position fen {fen}")));
        }
        assert_eq!(s.game.turns().len(), 8);
        assert_eq!(s.game.repetitions(), 3, "the third occurrence of the start position");
        assert_eq!(crate::levels::history_hashes(&s.game).len(), 8, "the search sees the repetitions");
        // The client, not the engine, ends a game by a draw rule: asked for a turn, the engine gives one.
        assert!(!s.game.is_over());
        let buffer = Arc::new(Mutex::new(Vec::<u8>::new()));
        s.out = buffer.clone();
        assert!(s.handle("go depth 2"));
        assert!(!s.handle("quit"));
        let text = String::from_utf8(buffer.lock().unwrap().clone()).unwrap();
        let answer = text.lines().find_map(|l| l.strip_prefix("bestmove ")).expect(&text);
        assert!(s.game.position().legal_turns().iter().any(|t| t.to_string() == answer), "{text}");
        assert!(s.handle("play e3-e4"));
        assert_eq!(s.game.turns().len(), 9);

        // One turn on (the client's own turn, then ours to search) goes on as well.
        let mut s = quiet_session();
        let opening = Position::start(&Rules::default()).to_fen();
        let one = after(&opening, &["d3-e3A"]);
        assert!(s.handle(&format!("position fen {opening}")));
        assert!(s.handle(&format!("position fen {one}")));
        assert_eq!(s.game.turns().len(), 1);
        assert_eq!(s.game.turns()[0].to_string(), "d3-e3A");
        // The same position again changes nothing.
        assert!(s.handle(&format!("position fen {one}")));
        assert_eq!(s.game.turns().len(), 1);
        // A position no one or two turns reach is a new game.
        assert!(s.handle(&format!("position fen {start}")));
        assert!(s.game.turns().is_empty());
        assert_eq!(s.game.position().to_fen(), start);
        // So is the start position after a game, however short (pieces never come back).
        assert!(s.handle(&format!("position fen {opening}")));
        assert!(s.handle("play d3-e3A"));
        assert!(s.handle(&format!("position fen {opening}")));
        assert!(s.game.turns().is_empty());
        // A damaged position is an error and keeps the game.
        assert!(s.handle("play d3-e3A"));
        assert!(s.handle("position fen 9/9/9 w"));
        assert_eq!(s.game.turns().len(), 1);
    }

    #[test]
    fn uci_move_lists_replay_the_game() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        let mut relays = 0;
        for _ in 0..30 {
            // A random game of up to 40 turns, played directly.
            let mut game = Game::new(session_rules());
            let mut turns = Vec::new();
            for _ in 0..rng.random_range(1..40) {
                let legal = game.position().legal_turns();
                if legal.is_empty() {
                    break;
                }
                let t = legal[rng.random_range(0..legal.len())].clone();
                relays += usize::from(t.len() > 1);
                game.play_turn(&t).unwrap();
                turns.push(t.to_string());
            }
            let fen = game.position().to_fen();
            // Steps one after another, or turns between commas: the same game, history included.
            for list in [turns.join(" "), turns.join(", ")] {
                let mut s = quiet_session();
                assert!(s.handle("play d3-e3A"));
                assert!(s.handle(&format!("position startpos moves {list}")));
                assert_eq!(s.game.position().to_fen(), fen, "{list}");
                assert_eq!(s.game.turns().len(), turns.len());
                assert_eq!(s.game.repetitions(), game.repetitions());
            }
            // From a FEN, the same.
            if turns.len() > 2 {
                let mut s = quiet_session();
                let mid = &game.turn_starts()[2];
                assert!(s.handle(&format!("position fen {} moves {}", mid.to_fen(), turns[2..].join(" "))));
                assert_eq!(s.game.position().to_fen(), fen);
            }
        }
        assert!(relays > 20, "the games had {relays} turns of several steps");
    }

    #[test]
    fn a_bad_move_list_keeps_the_game() {
        let mut s = quiet_session();
        assert!(s.handle("play d3-e3A"));
        let before = s.game.position().to_fen();
        for bad in [
            "startpos moves d3-e3A d3-e3A",
            "startpos moves d3-e3A zz-e3A",
            "startpos moves d3-e3A c3-d3A d3-d4",
            "fen 9/9 w moves d3-e3A",
            "startpos d3-e3A",
            "fen",
            "moves d3-e3A",
        ] {
            let buffer = Arc::new(Mutex::new(Vec::<u8>::new()));
            s.out = buffer.clone();
            assert!(s.handle(&format!("position {bad}")));
            let text = String::from_utf8(buffer.lock().unwrap().clone()).unwrap();
            assert!(text.starts_with("error "), "{bad}: {text}");
            assert_eq!(s.game.position().to_fen(), before, "{bad}");
            assert_eq!(s.game.turns().len(), 1, "{bad}");
        }
        // `moves` with nothing after it is the position itself.
        assert!(s.handle("position startpos moves"));
        assert!(s.game.turns().is_empty());
    }

    /// Makes the session's engine again, held until the test sends on the returned channel.
    fn hold_making(s: &mut Session) -> std::sync::mpsc::Sender<()> {
        s.made();
        let (release, stuck) = std::sync::mpsc::channel::<()>();
        s.searcher = None;
        s.making = Some(std::thread::spawn(move || {
            let _ = stuck.recv();
            Searcher::new(1)
        }));
        release
    }

    #[test]
    fn a_go_does_not_wait_for_the_engine_being_made() {
        let buffer = Arc::new(Mutex::new(Vec::<u8>::new()));
        let mut s = Session::new(buffer.clone());
        let release = hold_making(&mut s);
        assert!(s.handle("position startpos moves d3-e3A"));
        assert!(s.handle("go nodes 20000"));
        s.wait();
        let text = String::from_utf8(buffer.lock().unwrap().clone()).unwrap();
        let best = text.lines().find_map(|l| l.strip_prefix("bestmove ")).expect(&text);
        let mut after = Position::start(&Rules::default());
        after.play_turn(&"d3-e3A".parse().unwrap()).unwrap();
        assert!(after.legal_turns().iter().any(|t| t.to_string() == best), "{text}");
        assert!(s.making.is_some(), "the search did not wait for the engine");
        // Once it is made, the next `go` takes it.
        release.send(()).unwrap();
        while !s.making.as_ref().is_some_and(JoinHandle::is_finished) {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(s.handle("go nodes 1000"));
        s.wait();
        assert!(s.making.is_none());
        assert_eq!(String::from_utf8(buffer.lock().unwrap().clone()).unwrap().matches("bestmove ").count(), 2);
    }

    #[test]
    fn uci_commands_are_understood() {
        let buffer = Arc::new(Mutex::new(Vec::<u8>::new()));
        let mut s = Session::new(buffer.clone());
        for line in [
            "uci",
            "setoption name Threads value 2",
            "setoption name Hash value 8",
            "setoption name Hash value 0",
            "setoption name Contempt value 3",
            "setoption Threads 2",
            "ucinewgame",
            "position startpos moves d3-e3A",
            "go wtime 1000 btime 1000 winc 0 binc 0 movestogo 10",
        ] {
            assert!(s.handle(line), "{line}");
        }
        assert!(!s.handle("quit"));
        let text = String::from_utf8(buffer.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("id name Fanorona"), "{text}");
        assert!(lines.iter().position(|l| *l == "uciok").is_some_and(|i| i < 6), "{text}");
        assert!(lines.contains(&"option name Ponder type check default false"), "{text}");
        assert_eq!(s.threads, 2);
        assert_eq!(lines.iter().filter(|l| l.starts_with("error ")).count(), 3, "{text}");
        assert!(text.contains("error usage: setoption name Hash value <1-4096>"), "{text}");
        let best = text.lines().find_map(|l| l.strip_prefix("bestmove ")).expect(&text);
        let mut after = Position::start(&Rules::default());
        after.play_turn(&"d3-e3A".parse().unwrap()).unwrap();
        assert!(after.legal_turns().iter().any(|t| t.to_string() == best), "{text}");
    }

    /// A session writing into a buffer, and the buffer.
    fn recording_session() -> (Session, Arc<Mutex<Vec<u8>>>) {
        let buffer = Arc::new(Mutex::new(Vec::<u8>::new()));
        (Session::new(buffer.clone()), buffer)
    }

    fn text_of(buffer: &Arc<Mutex<Vec<u8>>>) -> String {
        String::from_utf8(buffer.lock().unwrap().clone()).unwrap()
    }

    /// The `bestmove` lines written so far.
    fn answers(buffer: &Arc<Mutex<Vec<u8>>>) -> Vec<String> {
        text_of(buffer).lines().filter(|l| l.starts_with("bestmove")).map(str::to_string).collect()
    }

    /// Waits up to `at_most` for the `n`th `bestmove` line.
    fn nth_answer(buffer: &Arc<Mutex<Vec<u8>>>, n: usize, at_most: Duration) -> Option<String> {
        wait_for(at_most, || answers(buffer).get(n - 1).cloned())
    }

    /// A position of 14 pieces against 15 that no book holds, far from any forced result.
    const MIDGAME: &str = "BB1B1BBB1/BB1BBBB1B/BWWWW1W2/WW1BW3W/WWWW2W2 w";

    #[test]
    fn a_ponder_search_answers_only_after_the_ponderhit() {
        let (mut s, buffer) = recording_session();
        assert!(s.handle(&format!("position fen {MIDGAME}")));
        assert!(s.handle("go ponder movetime 100"));
        // The opponent thinks: the engine searches and answers nothing, long past its 100 ms. (A loaded machine may
        // take a while over the first iteration: its report is waited for, not assumed after a fixed time.)
        let searched = wait_for(Duration::from_secs(10), || text_of(&buffer).contains("info depth").then_some(()));
        assert!(searched.is_some(), "no search while pondering");
        std::thread::sleep(Duration::from_millis(400));
        assert!(answers(&buffer).is_empty(), "answered while pondering: {}", text_of(&buffer));
        // The expected reply came: the search goes on and answers within its turn's time from here.
        assert!(s.handle("ponderhit"));
        let best = nth_answer(&buffer, 1, Duration::from_secs(10)).expect("no answer after the ponderhit");
        let turn = best.strip_prefix("bestmove ").unwrap();
        let pos = Position::from_fen(MIDGAME).unwrap();
        assert!(pos.legal_turns().iter().any(|t| t.to_string() == turn), "{best}");
        assert!(!best.contains(" ponder "), "no reply named unless the client asks: {best}");
        // The session goes on as after any search, and a ponderhit with nothing pondering is an error.
        assert!(s.handle("ponderhit"));
        assert!(s.handle("go depth 2"));
        s.wait();
        assert_eq!(answers(&buffer).len(), 2);
        assert!(text_of(&buffer).contains("error ponderhit without a go ponder searching"));
    }

    #[test]
    fn a_ponder_search_stopped_or_left_answers_at_once() {
        let (mut s, buffer) = recording_session();
        assert!(s.handle(&format!("position fen {MIDGAME}")));
        // Another reply came: `stop` ends the search with its answer (the client drops it).
        assert!(s.handle("go ponder wtime 60000 btime 60000"));
        std::thread::sleep(Duration::from_millis(50));
        assert!(s.handle("stop"));
        assert_eq!(answers(&buffer).len(), 1, "{}", text_of(&buffer));
        // A client that sends the next position without a `stop` ends the pondering too, and the game moves on.
        assert!(s.handle("go ponder movetime 100"));
        let turn = Position::from_fen(MIDGAME).unwrap().legal_turns()[0].to_string();
        assert!(s.handle(&format!("position fen {MIDGAME} moves {turn}")));
        assert_eq!(answers(&buffer).len(), 2, "{}", text_of(&buffer));
        assert_eq!(s.game.turns().len(), 1);
        assert!(!s.handle("quit"));
    }

    #[test]
    fn a_ponder_answer_found_early_waits_for_the_ponderhit() {
        let (mut s, buffer) = recording_session();
        // The book's turn, known at once, and a capture of the last piece, proven at once: both held until the
        // opponent's reply is known.
        for (position, ready) in [("position startpos", "info string book "), ("position fen 9/9/9/9/B1W6 w", "")] {
            assert!(s.handle(position));
            assert!(s.handle("go ponder movetime 50"));
            let found = wait_for(Duration::from_secs(10), || text_of(&buffer).contains(ready).then_some(()));
            assert!(found.is_some(), "{}", text_of(&buffer));
            // Long past the turn's 50 ms, the answer is still held.
            std::thread::sleep(Duration::from_millis(300));
            let text = text_of(&buffer);
            let before = answers(&buffer).len();
            assert!(s.running.as_ref().is_some_and(|h| !h.is_finished()), "the answer was not held: {text}");
            assert!(s.handle("ponderhit"));
            let best = nth_answer(&buffer, before + 1, Duration::from_secs(10)).expect("no answer after the ponderhit");
            let turn = best.strip_prefix("bestmove ").unwrap().to_string();
            if ready.is_empty() {
                assert_eq!(turn, "c1-b1A");
            } else {
                assert!(text_of(&buffer).contains(&format!("info string book {turn} ")), "{}", text_of(&buffer));
            }
        }
    }

    #[test]
    fn the_engine_made_while_a_ponder_search_runs_leaves_its_stop_alone() {
        let (mut s, buffer) = recording_session();
        // The search starts with the small engine while the one of the start is held.
        let release = hold_making(&mut s);
        assert!(s.handle(&format!("position fen {MIDGAME}")));
        assert!(s.handle("go ponder movetime 50"));
        release.send(()).unwrap();
        while !s.making.as_ref().is_some_and(JoinHandle::is_finished) {
            std::thread::sleep(Duration::from_millis(1));
        }
        // A client's `isready` meanwhile: the running search must still be the one that the turn's time stops.
        assert!(s.handle("isready"));
        assert!(s.handle("ponderhit"));
        assert!(nth_answer(&buffer, 1, Duration::from_secs(10)).is_some(), "{}", text_of(&buffer));
        // The next search takes the engine made at the start.
        assert!(s.handle("go depth 1"));
        s.wait();
        assert!(s.making.is_none());
        assert_eq!(answers(&buffer).len(), 2);
    }

    /// Checks that `best` is `bestmove <TURN> ponder <REPLY>` with a legal turn in `fen` and a legal reply to it.
    fn names_a_legal_reply(best: &str, fen: &str) {
        let (turn, reply) = best.strip_prefix("bestmove ").unwrap().split_once(" ponder ").expect(best);
        let mut pos = Position::from_fen(fen).unwrap();
        let turn = pos.legal_turns().into_iter().find(|t| t.to_string() == turn).expect(best);
        pos.play_turn(&turn).unwrap();
        assert!(pos.legal_turns().iter().any(|t| t.to_string() == reply), "{best}");
    }

    #[test]
    fn the_ponder_option_names_the_expected_reply() {
        let (mut s, buffer) = recording_session();
        assert!(s.handle("setoption name Ponder value true"));
        let start = Position::start(&Rules::default()).to_fen();
        // The search's line in the middlegame; from the book, the book's best reply; in an endgame the table plays,
        // the line ends where the table takes over, and the table names the reply.
        for (fen, go) in
            [(MIDGAME, "go depth 6"), (start.as_str(), "go movetime 50"), ("9/9/4W4/9/B3W4 w", "go depth 4")]
        {
            assert!(s.handle(&format!("position fen {fen}")));
            assert!(s.handle(go));
            s.wait();
            names_a_legal_reply(&answers(&buffer).pop().unwrap(), fen);
        }
        // Off again: the plain answer; a value other than true or false is an error and changes nothing.
        assert!(s.handle("setoption name Ponder value false"));
        assert!(s.handle("setoption name Ponder value maybe"));
        assert!(s.handle("go depth 6"));
        s.wait();
        assert!(!answers(&buffer).pop().unwrap().contains(" ponder "));
        assert!(text_of(&buffer).contains("error usage: setoption name Ponder value <true|false>"));
        assert!(!s.name_ponder);
    }

    #[test]
    fn moves_to_go_shares_the_clock_among_them() {
        // Without movestogo, as before.
        assert_eq!(time_for_turns(60_000, 0, None), time_for_turn(60_000, 0));
        // 10 turns to go: a tenth each.
        assert_eq!(time_for_turns(60_000, 0, Some(10)), 6_000 - 5);
        // Many turns to go count as 25.
        assert_eq!(time_for_turns(60_000, 0, Some(40)), 2_400 - 5);
        // Two to go: a third at most; the last: three quarters.
        assert_eq!(time_for_turns(60_000, 0, Some(2)), 20_000 - 5);
        assert_eq!(time_for_turns(60_000, 0, Some(1)), 45_000 - 5);
        assert_eq!(time_for_turns(60_000, 0, Some(0)), 45_000 - 5);
        assert_eq!(time_for_turns(3, 0, Some(1)), 1);
    }

    #[test]
    fn full_strength_is_the_defaults_and_its_extras() {
        assert_eq!(FULL_STRENGTH, format!("max,{}", crate::levels::FULL_STRENGTH_EXTRAS));
    }

    #[test]
    fn a_movetime_is_spent_but_for_a_margin() {
        assert_eq!(search_time(200), 190);
        assert_eq!(search_time(1_000), 990);
        assert_eq!(search_time(40), 36);
        assert_eq!(search_time(1), 1);
        assert_eq!(search_time(0), 1);
    }
}
