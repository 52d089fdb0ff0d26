//! The load generator: many random legal games played concurrently against one or more servers over real WebSockets.
//!
//! Each game is two clients (tokio-tungstenite) in one task: the creator and the invited friend, on different
//! servers when several `--addr` are given. All games are set up first (so the servers hold them all at once), then
//! played at once, each player waiting `think_ms` before its turn. Latency is from a turn sent to the opponent's
//! client receiving it. When a connection drops (a server killed, perhaps by the load generator itself with
//! `--kill-after-s`), that player fails over as a real client does: backoff, the next address, `resume` with its seat
//! token, and the game goes on from the server's ply. At the end every turn a mover saw acknowledged is looked for in
//! the server's record. Loopback only, with bounded counts and time, so it cannot be pointed at someone else's server.

use fanorona_net::{Backoff, Board, ClientMsg, ColourChoice, GameState, PROTOCOL_VERSION, ServerMsg, parse_server};
use fanorona_rules::record::Record;
use fanorona_rules::{Game, Rules};
use futures_util::{SinkExt, StreamExt};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The most games one run may play.
pub const MAX_GAMES: usize = 5_000;

/// How long one answer may take before the game is counted as failed.
const ANSWER_WAIT: Duration = Duration::from_secs(30);

/// How long a player keeps trying to get back to its seat after its connection dropped.
const RECONNECT_WAIT: Duration = Duration::from_secs(60);

/// What to run.
#[derive(clap::Args, Clone, Debug)]
pub struct Options {
    /// Games played at once (two connections each; at most 5000).
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// A server, on this machine (a loopback address); repeat for several: game i's creator connects to the i-th
    /// (modulo their number), its friend to the next one, and a player whose connection drops fails over to the
    /// next address in the list.
    #[arg(long = "addr", value_name = "ADDR", default_value = "127.0.0.1:8080", num_args = 1)]
    pub addrs: Vec<SocketAddr>,
    /// Milliseconds each player waits before sending its turn.
    #[arg(long, default_value_t = 200)]
    pub think_ms: u64,
    /// Turns after which a game stops (games also stop when they end).
    #[arg(long, default_value_t = 150)]
    pub max_turns: u32,
    /// Seconds after which every game stops (at most 600).
    #[arg(long, default_value_t = 120)]
    pub duration_s: u64,
    /// A server's process id, to report its memory (Linux: /proc/PID/status); repeat for several.
    #[arg(long = "server-pid", value_name = "PID", num_args = 1)]
    pub server_pids: Vec<u32>,
    /// Seconds into the play phase at which to kill (SIGKILL) the server `--kill-pid`.
    #[arg(long, value_name = "S", requires = "kill_pid")]
    pub kill_after_s: Option<f64>,
    /// The server to kill: one of the `--server-pid` values.
    #[arg(long, value_name = "PID", requires = "kill_after_s")]
    pub kill_pid: Option<u32>,
    /// Seed of the random games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Why a step failed: the connection is gone (fail over), or the game cannot go on (count it as failed).
#[derive(Debug)]
enum Fail {
    Dropped(String),
    Game(String),
}

impl std::fmt::Display for Fail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fail::Dropped(e) => write!(f, "connection dropped: {e}"),
            Fail::Game(e) => f.write_str(e),
        }
    }
}

/// One seat of a game: its connection, the address it is connected to, and the token that brings it back.
struct Player {
    ws: Ws,
    at: usize,
    token: String,
}

/// One game's numbers.
#[derive(Default)]
struct Played {
    turns: u32,
    latencies_us: Vec<u32>,
    ended: bool,
    at_cap: bool,
    reconnects: u32,
    resent: u32,
    acknowledged: u32,
    lost: u32,
    error: Option<String>,
}

/// One server's resident memory, in KiB (`VmRSS`, and `VmHWM` for the peak).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerMemory {
    /// The process id.
    pub pid: u32,
    /// Before the games were set up.
    pub before_kib: Option<u64>,
    /// With all games set up.
    pub set_up_kib: Option<u64>,
    /// The peak, up to the end of the run or the process's death.
    pub peak_kib: Option<u64>,
    /// Whether the load generator killed it.
    pub killed: bool,
}

/// The numbers of a run.
#[derive(Clone, Debug)]
pub struct Report {
    /// Games set up.
    pub games: usize,
    /// Games that ended by the rules or reached the turn cap.
    pub finished: usize,
    /// Of those, games that ended by the rules.
    pub ended: usize,
    /// Games that hit an error (the first is in `first_error`); the others were stopped by the time limit.
    pub failed: usize,
    /// The first error of a failed game.
    pub first_error: Option<String>,
    /// Turns played in all (each stored and seen by both players).
    pub turns: u64,
    /// Seconds the play phase took.
    pub play_secs: f64,
    /// Median latency, milliseconds.
    pub p50_ms: f64,
    /// 99th-percentile latency, milliseconds.
    pub p99_ms: f64,
    /// Largest latency, milliseconds.
    pub max_ms: f64,
    /// Connections re-established after a drop.
    pub reconnects: u64,
    /// Turns sent again after a failover because the server had not stored them.
    pub resent: u64,
    /// Turns whose mover received their `turn_played`.
    pub acknowledged: u64,
    /// Acknowledged turns missing from the server's final record of their game.
    pub lost: u64,
    /// Seconds into the play phase at which `--kill-pid` was killed.
    pub killed_at_s: Option<f64>,
    /// Each `--server-pid`'s memory, in their order.
    pub servers: Vec<ServerMemory>,
}

impl Report {
    /// Turns per second of the play phase.
    pub fn turns_per_sec(&self) -> f64 {
        if self.play_secs > 0.0 { self.turns as f64 / self.play_secs } else { 0.0 }
    }

    /// The report as `label: value` lines, the value's first word a number, so that scripts can pick them out.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let stopped = self.games - self.finished - self.failed;
        let _ = writeln!(s, "games:          {}", self.games);
        let _ = writeln!(
            s,
            "finished:       {} ({} ended by the rules, {} at the turn cap; {stopped} stopped at the time limit)",
            self.finished,
            self.ended,
            self.finished - self.ended
        );
        let _ = writeln!(s, "failed:         {}", self.failed);
        let _ = writeln!(s, "turns:          {} in {:.1} s", self.turns, self.play_secs);
        let _ = writeln!(s, "turns/s:        {:.0}", self.turns_per_sec());
        let _ = writeln!(s, "latency p50 ms: {:.2} (turn sent to opponent received)", self.p50_ms);
        let _ = writeln!(s, "latency p99 ms: {:.2}", self.p99_ms);
        let _ = writeln!(s, "latency max ms: {:.2}", self.max_ms);
        let _ = writeln!(s, "reconnects:     {}", self.reconnects);
        let _ =
            writeln!(s, "resent:         {} turns the server had not stored when their mover came back", self.resent);
        let _ = writeln!(s, "acknowledged:   {} turns", self.acknowledged);
        let _ = writeln!(s, "lost:           {} acknowledged turns missing from the records", self.lost);
        for m in &self.servers {
            let mib = |k: Option<u64>| k.map_or("?".to_string(), |k| format!("{:.1}", k as f64 / 1024.0));
            let _ = write!(
                s,
                "server {} MiB: {} before, {} with all games set up, {} peak",
                m.pid,
                mib(m.before_kib),
                mib(m.set_up_kib),
                mib(m.peak_kib)
            );
            if let (Some(b), Some(p)) = (m.before_kib, m.peak_kib) {
                let _ = write!(s, " = {:.1} KiB a game", p.saturating_sub(b) as f64 / self.games as f64);
            }
            match (m.killed, self.killed_at_s) {
                (true, Some(t)) => {
                    let _ = writeln!(s, " (killed at {t:.1} s)");
                }
                _ => s.push('\n'),
            }
        }
        if let Some(e) = &self.first_error {
            let _ = writeln!(s, "first error:    {e}");
        }
        s
    }
}

async fn send(ws: &mut Ws, msg: &ClientMsg) -> Result<(), Fail> {
    ws.send(Message::Text(msg.to_json().into())).await.map_err(|e| Fail::Dropped(e.to_string()))
}

/// The next protocol message, or why there is none.
async fn next_msg(ws: &mut Ws) -> Result<ServerMsg, Fail> {
    loop {
        match ws.next().await {
            None => return Err(Fail::Dropped("connection closed".into())),
            Some(Err(e)) => return Err(Fail::Dropped(e.to_string())),
            Some(Ok(Message::Close(_))) => return Err(Fail::Dropped("closed by the server".into())),
            Some(Ok(Message::Text(t))) => return parse_server(t.as_str()).map_err(|e| Fail::Game(e.to_string())),
            Some(Ok(_)) => {}
        }
    }
}

/// Reads until `pick` takes a message ([`ANSWER_WAIT`] at most); an error message fails.
async fn recv_until<T>(ws: &mut Ws, mut pick: impl FnMut(ServerMsg) -> Option<T>) -> Result<T, Fail> {
    let read = async {
        loop {
            match next_msg(ws).await? {
                ServerMsg::Error { code, message } => return Err(Fail::Game(format!("{code:?}: {message}"))),
                m => {
                    if let Some(t) = pick(m) {
                        return Ok(t);
                    }
                }
            }
        }
    };
    tokio::time::timeout(ANSWER_WAIT, read).await.map_err(|_| Fail::Game("no answer in 30 s".into()))?
}

async fn connect(addr: SocketAddr) -> Result<Ws, Fail> {
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.map_err(|e| Fail::Dropped(e.to_string()))?;
    send(&mut ws, &ClientMsg::Hello { version: PROTOCOL_VERSION }).await?;
    recv_until(&mut ws, |m| matches!(m, ServerMsg::Welcome { .. }).then_some(())).await?;
    Ok(ws)
}

/// Two connected clients in one new game: White (the creator, on `addrs[i % n]`) and Black (on the next address).
async fn set_up(addrs: &[SocketAddr], i: usize) -> Result<[Player; 2], String> {
    let (at_a, at_b) = (i % addrs.len(), (i + 1) % addrs.len());
    let mut a = connect(addrs[at_a]).await.map_err(|e| e.to_string())?;
    let create = ClientMsg::Create {
        board: Board::Tsivy,
        rules: String::new(),
        colour: ColourChoice::White,
        name: format!("load {i} a"),
    };
    send(&mut a, &create).await.map_err(|e| e.to_string())?;
    let (invite, token_a) = recv_until(&mut a, |m| match m {
        ServerMsg::Created { invite, token, .. } => Some((invite, token)),
        _ => None,
    })
    .await
    .map_err(|e| e.to_string())?;
    let mut b = connect(addrs[at_b]).await.map_err(|e| e.to_string())?;
    send(&mut b, &ClientMsg::Join { invite, name: format!("load {i} b") }).await.map_err(|e| e.to_string())?;
    let token_b = recv_until(&mut b, |m| match m {
        ServerMsg::Seated { token, .. } => Some(token),
        _ => None,
    })
    .await
    .map_err(|e| e.to_string())?;
    recv_until(&mut b, |m| matches!(m, ServerMsg::State(_)).then_some(())).await.map_err(|e| e.to_string())?;
    Ok([Player { ws: a, at: at_a, token: token_a }, Player { ws: b, at: at_b, token: token_b }])
}

/// A new connection to the seat of `token` at `addr`, and the game's state.
async fn resume(addr: SocketAddr, token: &str) -> Result<(Ws, GameState), Fail> {
    let mut ws = connect(addr).await?;
    send(&mut ws, &ClientMsg::Resume { token: token.to_string() }).await?;
    let state = recv_until(&mut ws, |m| match m {
        ServerMsg::State(s) => Some(s),
        _ => None,
    })
    .await?;
    Ok((ws, state))
}

/// Brings a player whose connection dropped back to its seat, as a client does: wait a backoff delay, try the next
/// address (so a dead server is skipped), and so on. Returns the game's state there.
async fn fail_over(p: &mut Player, addrs: &[SocketAddr], seed: u64) -> Result<GameState, String> {
    let give_up = Instant::now() + RECONNECT_WAIT;
    let mut backoff = Backoff::new(seed);
    loop {
        // The delay comes first: every client of a dead server drops at once, and the jitter spreads them out.
        tokio::time::sleep(Duration::from_millis(backoff.next_delay_ms())).await;
        p.at = (p.at + 1) % addrs.len();
        match resume(addrs[p.at], &p.token).await {
            Ok((ws, state)) => {
                p.ws = ws;
                return Ok(state);
            }
            Err(Fail::Dropped(e)) if Instant::now() >= give_up => {
                return Err(format!("no server took the seat back in {} s: {e}", RECONNECT_WAIT.as_secs()));
            }
            Err(Fail::Dropped(_)) => {}
            Err(Fail::Game(e)) => return Err(format!("resume refused: {e}")),
        }
    }
}

/// The next message of either player ([`ANSWER_WAIT`] at most), with the player's index.
async fn next_event(players: &mut [Player; 2]) -> Result<(usize, Result<ServerMsg, Fail>), String> {
    let [a, b] = players;
    let either = async {
        tokio::select! {
            m = next_msg(&mut a.ws) => (0, m),
            m = next_msg(&mut b.ws) => (1, m),
        }
    };
    tokio::time::timeout(ANSWER_WAIT, either).await.map_err(|_| "no answer in 30 s".to_string())
}

/// The game in a server's state.
fn game_of(state: &GameState) -> Result<Game, String> {
    Record::load(&state.record).map_err(|e| format!("the server's record does not load: {e}"))
}

async fn play(
    mut players: [Player; 2],
    addrs: Arc<[SocketAddr]>,
    seed: u64,
    options: &Options,
    deadline: Instant,
) -> Played {
    let mut out = Played::default();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = Game::new(Rules::default());
    let think = Duration::from_millis(options.think_ms);
    // (ply, turn) of each turn its mover saw acknowledged, to be found in the final record.
    let mut acked: Vec<(u32, String)> = Vec::new();
    // Spread the games' first turns over one thinking time, as real players would be.
    tokio::time::sleep(think.mul_f64(rng.random::<f64>())).await;
    let result: Result<(), String> = async {
        'game: while !game.is_over() && (game.turns().len() as u32) < options.max_turns && Instant::now() < deadline {
            let ply = game.turns().len() as u32;
            let mover = game.position().side_to_move().index();
            let turns = game.position().legal_turns();
            let turn = turns[rng.random_range(0..turns.len())].clone();
            let text = turn.to_string();
            tokio::time::sleep(think).await;
            // The turn is done once each player has it: by its `turn_played`, or by a state after a reconnection.
            let mut done = [false; 2];
            let mut to_send = true;
            let mut sent = Instant::now();
            while !(done[0] && done[1]) {
                let event = if to_send {
                    to_send = false;
                    sent = Instant::now();
                    let msg = ClientMsg::Turn { ply, turn: text.clone() };
                    match send(&mut players[mover].ws, &msg).await {
                        Ok(()) => continue,
                        Err(e) => (mover, Err(e)),
                    }
                } else {
                    next_event(&mut players).await?
                };
                match event {
                    (who, Ok(ServerMsg::TurnPlayed { ply: p, turn: t, .. })) if p == ply && t == text && !done[who] => {
                        if who == mover {
                            out.acknowledged += 1;
                            acked.push((ply, text.clone()));
                        } else {
                            out.latencies_us.push(sent.elapsed().as_micros().min(u32::MAX as u128) as u32);
                        }
                        done[who] = true;
                    }
                    (_, Ok(ServerMsg::Error { code, message })) => return Err(format!("{code:?}: {message}")),
                    (_, Ok(_)) => {}
                    (_, Err(Fail::Game(e))) => return Err(e),
                    (who, Err(Fail::Dropped(_))) => {
                        out.reconnects += 1;
                        let state = fail_over(&mut players[who], &addrs, seed ^ u64::from(out.reconnects)).await?;
                        let stored = game_of(&state)?;
                        let n = stored.turns().len();
                        if n > ply as usize {
                            if stored.turns()[ply as usize] != turn {
                                return Err(format!("the server has another turn than ours at ply {ply}"));
                            }
                            // The state shows it, so no `turn_played` for it comes on the new connection.
                            done[who] = true;
                        } else if n < ply as usize || done[mover] {
                            // Turns already acknowledged are missing: go on from the server's ply, as a client
                            // would; the final record check counts what was lost.
                            game = stored;
                            continue 'game;
                        } else if who == mover {
                            // Not stored (the old server died first) and still ours to play: send it again.
                            to_send = true;
                            out.resent += 1;
                        }
                        // The opponent back without the turn gets its `turn_played` on the new connection.
                    }
                }
            }
            game.play_turn(&turn).map_err(|e| e.to_string())?;
            out.turns += 1;
        }
        out.ended = game.is_over();
        out.at_cap = !out.ended && game.turns().len() as u32 >= options.max_turns;
        Ok(())
    }
    .await;
    out.error = result.err();

    // Every acknowledged turn must be in the server's record, even of a game that failed.
    match final_record(&mut players[0], &addrs, seed).await {
        Ok(record) => {
            out.lost = lost_turns(&acked, &record);
            if out.error.is_none() && out.lost == 0 && record.turns() != game.turns() {
                out.error = Some(format!(
                    "the server's record has {} turns, the players {}",
                    record.turns().len(),
                    game.turns().len()
                ));
            }
        }
        Err(e) => {
            out.error.get_or_insert(format!("no final record: {e}"));
        }
    }
    if out.error.is_some() {
        out.ended = false;
        out.at_cap = false;
    }
    for p in &mut players {
        let _ = p.ws.close(None).await;
    }
    out
}

/// How many of the acknowledged turns `(ply, turn)` are not at their ply in the server's game.
fn lost_turns(acked: &[(u32, String)], stored: &Game) -> u32 {
    let missing =
        |(ply, turn): &&(u32, String)| stored.turns().get(*ply as usize).is_none_or(|t| t.to_string() != *turn);
    acked.iter().filter(missing).count() as u32
}

/// The game as the server has stored it, asked for by `p` (failing over if its connection has dropped).
async fn final_record(p: &mut Player, addrs: &[SocketAddr], seed: u64) -> Result<Game, String> {
    // States sent earlier may still be unread; the answer to `sync` is the last one before the `pong` that follows
    // it, as the server answers a connection's messages in order.
    let asked = async {
        send(&mut p.ws, &ClientMsg::Sync).await?;
        send(&mut p.ws, &ClientMsg::Ping).await?;
        let mut last = None;
        // An error here may be a late answer to a turn abandoned when the game failed: not this question's.
        loop {
            match next_msg(&mut p.ws).await? {
                ServerMsg::State(s) => last = Some(s),
                ServerMsg::Pong => return last.ok_or_else(|| Fail::Game("no state before the pong".into())),
                _ => {}
            }
        }
    };
    let answer = tokio::time::timeout(ANSWER_WAIT, asked).await.map_err(|_| "no final state in 30 s".to_string())?;
    match answer {
        Ok(state) => game_of(&state),
        Err(Fail::Dropped(_)) => game_of(&fail_over(p, addrs, seed.rotate_left(32)).await?),
        Err(Fail::Game(e)) => Err(e),
    }
}

/// A line of `/proc/PID/status` in KiB (`VmRSS`: resident now; `VmHWM`: the most resident so far).
pub fn status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.strip_prefix(field).is_some_and(|r| r.starts_with(':')))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The resident memory of a process, in KiB.
pub fn rss_kib(pid: u32) -> Option<u64> {
    status_kib(pid, "VmRSS")
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

fn check(options: &Options) -> Result<(), String> {
    if options.addrs.is_empty() {
        return Err("give at least one --addr".into());
    }
    if let Some(a) = options.addrs.iter().find(|a| !a.ip().is_loopback()) {
        return Err(format!("the load generator only loads a server on this machine, not {a}"));
    }
    if options.games == 0 || options.games > MAX_GAMES {
        return Err(format!("--games must be 1 to {MAX_GAMES}"));
    }
    match (options.kill_after_s, options.kill_pid) {
        (None, None) => Ok(()),
        (Some(s), Some(pid)) => {
            if !options.server_pids.contains(&pid) {
                return Err(format!("--kill-pid {pid} is not one of the --server-pid values"));
            }
            if !(0.0..=600.0).contains(&s) {
                return Err("--kill-after-s must be 0 to 600".into());
            }
            Ok(())
        }
        _ => Err("--kill-after-s and --kill-pid go together".into()),
    }
}

/// Runs the load and returns its numbers.
pub async fn measure(options: &Options) -> Result<Report, String> {
    check(options)?;
    let addrs: Arc<[SocketAddr]> = options.addrs.clone().into();
    let duration = Duration::from_secs(options.duration_s.min(600));
    let before: Vec<Option<u64>> = options.server_pids.iter().map(|&p| rss_kib(p)).collect();

    // Set every game up, a bounded number at a time, and keep them all open.
    let start = Instant::now();
    let gate = Arc::new(tokio::sync::Semaphore::new(64));
    let mut setups = Vec::with_capacity(options.games);
    for i in 0..options.games {
        let gate = gate.clone();
        let addrs = addrs.clone();
        setups.push(tokio::spawn(async move {
            let _permit = gate.acquire_owned().await;
            set_up(&addrs, i).await
        }));
    }
    let mut ready = Vec::with_capacity(options.games);
    for s in setups {
        ready.push(s.await.map_err(|e| e.to_string())??);
    }
    let set_up_secs = start.elapsed().as_secs_f64();
    let all_set_up: Vec<Option<u64>> = options.server_pids.iter().map(|&p| rss_kib(p)).collect();
    eprintln!("{} games set up in {set_up_secs:.1} s on {} address(es); playing", ready.len(), addrs.len());

    let play_start = Instant::now();
    let deadline = play_start + duration;
    let mut tasks = Vec::with_capacity(ready.len());
    for (i, players) in ready.into_iter().enumerate() {
        let options = options.clone();
        let addrs = addrs.clone();
        tasks.push(tokio::spawn(async move {
            play(players, addrs, options.seed.wrapping_mul(1_000_003) + i as u64, &options, deadline).await
        }));
    }
    let killer = match (options.kill_after_s, options.kill_pid) {
        (Some(after), Some(pid)) => Some(tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs_f64(after)).await;
            let at = play_start.elapsed().as_secs_f64();
            let status = tokio::task::spawn_blocking(move || {
                std::process::Command::new("kill").args(["-9", &pid.to_string()]).status()
            })
            .await;
            match status {
                Ok(Ok(s)) if s.success() => {
                    eprintln!("killed server {pid} at {at:.1} s");
                    Ok(at)
                }
                other => Err(format!("could not kill {pid}: {other:?}")),
            }
        })),
        _ => None,
    };
    // The peak is the process's own high-water mark, read until it ends (or is killed).
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let done = done.clone();
        let pids = options.server_pids.clone();
        tokio::spawn(async move {
            let mut peaks: Vec<Option<u64>> = vec![None; pids.len()];
            loop {
                for (peak, &pid) in peaks.iter_mut().zip(&pids) {
                    if let Some(k) = status_kib(pid, "VmHWM") {
                        *peak = Some(peak.unwrap_or(0).max(k));
                    }
                }
                if done.load(Ordering::Relaxed) {
                    return peaks;
                }
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
        })
    };
    let mut played = Vec::with_capacity(tasks.len());
    for t in tasks {
        played.push(t.await.map_err(|e| e.to_string())?);
    }
    let play_secs = play_start.elapsed().as_secs_f64();
    done.store(true, Ordering::Relaxed);
    let peaks = sampler.await.map_err(|e| e.to_string())?;
    let killed_at_s = match killer {
        Some(k) => {
            if !k.is_finished() {
                k.abort();
                eprintln!("the run ended before the kill");
            }
            match k.await {
                Ok(r) => Some(r?),
                Err(_) => None,
            }
        }
        None => None,
    };

    let mut latencies: Vec<u32> = played.iter().flat_map(|p| p.latencies_us.iter().copied()).collect();
    latencies.sort_unstable();
    let errors: Vec<&String> = played.iter().filter_map(|p| p.error.as_ref()).collect();
    let servers = options
        .server_pids
        .iter()
        .enumerate()
        .map(|(i, &pid)| ServerMemory {
            pid,
            before_kib: before[i],
            set_up_kib: all_set_up[i],
            peak_kib: peaks[i],
            killed: killed_at_s.is_some() && options.kill_pid == Some(pid),
        })
        .collect();
    Ok(Report {
        games: played.len(),
        finished: played.iter().filter(|p| p.ended || p.at_cap).count(),
        ended: played.iter().filter(|p| p.ended).count(),
        failed: errors.len(),
        first_error: errors.first().map(|e| e.to_string()),
        turns: played.iter().map(|p| p.turns as u64).sum(),
        play_secs,
        p50_ms: percentile(&latencies, 0.50),
        p99_ms: percentile(&latencies, 0.99),
        max_ms: latencies.last().map_or(0.0, |&l| l as f64 / 1000.0),
        reconnects: played.iter().map(|p| p.reconnects as u64).sum(),
        resent: played.iter().map(|p| p.resent as u64).sum(),
        acknowledged: played.iter().map(|p| p.acknowledged as u64).sum(),
        lost: played.iter().map(|p| p.lost as u64).sum(),
        killed_at_s,
        servers,
    })
}

/// `fanorona-server loadtest`: runs the load and prints its numbers.
pub async fn run(options: Options) -> Result<(), String> {
    let r = measure(&options).await?;
    print!("{}", r.to_text());
    if r.failed > 0 || r.lost > 0 {
        return Err(format!("{} games failed, {} acknowledged turns lost", r.failed, r.lost));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_acknowledged_turn_is_lost_when_the_record_lacks_it_or_has_another_at_its_ply() {
        let mut game = Game::new(Rules::default());
        let mut played = Vec::new();
        for _ in 0..3 {
            let turn = game.position().legal_turns()[0].clone();
            played.push(turn.to_string());
            game.play_turn(&turn).unwrap();
        }
        let acked: Vec<(u32, String)> = played.iter().enumerate().map(|(i, t)| (i as u32, t.clone())).collect();
        assert_eq!(lost_turns(&acked, &game), 0);
        // The server kept only the first two turns.
        let mut shorter = Game::new(Rules::default());
        for t in &game.turns()[..2] {
            shorter.play_turn(t).unwrap();
        }
        assert_eq!(lost_turns(&acked, &shorter), 1);
        // Another turn at ply 0 (the first turn lost, then played differently) loses it and all that followed.
        let mut other = Game::new(Rules::default());
        let turns = other.position().legal_turns();
        let different = turns.iter().find(|t| t.to_string() != played[0]).unwrap().clone();
        other.play_turn(&different).unwrap();
        assert_eq!(lost_turns(&acked, &other), 3);
    }
}
