//! The load generator: many random legal games played concurrently against a server over real WebSockets.
//!
//! Each game is two clients (tokio-tungstenite) in one task: the creator and the invited friend. All games are set
//! up first (so the server holds them all at once), then played at once, each player waiting `think_ms` before its
//! turn. Latency is from a turn sent to the opponent's client receiving it. Loopback only, with bounded counts and
//! time, so it cannot be pointed at someone else's server.

use fanorona_net::{Board, ClientMsg, ColourChoice, PROTOCOL_VERSION, ServerMsg, parse_server};
use fanorona_rules::{Game, Rules};
use futures_util::{SinkExt, StreamExt};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The most games one run may play.
pub const MAX_GAMES: usize = 5_000;

/// What to run.
#[derive(clap::Args, Clone, Debug)]
pub struct Options {
    /// Games played at once (two connections each; at most 5000).
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// The server, on this machine (a loopback address).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Milliseconds each player waits before sending its turn.
    #[arg(long, default_value_t = 200)]
    pub think_ms: u64,
    /// Turns after which a game stops (games also stop when they end).
    #[arg(long, default_value_t = 150)]
    pub max_turns: u32,
    /// Seconds after which every game stops (at most 600).
    #[arg(long, default_value_t = 120)]
    pub duration_s: u64,
    /// The server's process id, to report its memory (Linux: /proc/PID/status).
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Seed of the random games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// One game's numbers.
#[derive(Default)]
struct Played {
    turns: u32,
    latencies_us: Vec<u32>,
    finished: bool,
    error: Option<String>,
}

/// The numbers of a run.
#[derive(Clone, Debug)]
pub struct Report {
    /// Games set up.
    pub games: usize,
    /// Games that ended by the rules before the turn or time limit.
    pub finished: usize,
    /// Games that hit an error.
    pub errors: usize,
    /// Turns played in all.
    pub turns: u64,
    /// Seconds the play phase took.
    pub play_secs: f64,
    /// Median latency, milliseconds.
    pub p50_ms: f64,
    /// 99th-percentile latency, milliseconds.
    pub p99_ms: f64,
    /// Largest latency, milliseconds.
    pub max_ms: f64,
    /// The server's resident memory before the games, with all of them set up, at its peak while playing, in KiB.
    pub rss_kib: Option<(u64, u64, u64)>,
}

async fn send(ws: &mut Ws, msg: &ClientMsg) -> Result<(), String> {
    ws.send(Message::Text(msg.to_json().into())).await.map_err(|e| e.to_string())
}

/// The next protocol message (30 s at most).
async fn recv(ws: &mut Ws) -> Result<ServerMsg, String> {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .map_err(|_| "no answer in 30 s".to_string())?
            .ok_or("connection closed")?
            .map_err(|e| e.to_string())?;
        if let Message::Text(t) = frame {
            return parse_server(t.as_str()).map_err(|e| e.to_string());
        }
    }
}

/// Reads until `pick` takes a message; an error message fails.
async fn recv_until<T>(ws: &mut Ws, mut pick: impl FnMut(ServerMsg) -> Option<T>) -> Result<T, String> {
    loop {
        match recv(ws).await? {
            ServerMsg::Error { code, message } => return Err(format!("{code:?}: {message}")),
            m => {
                if let Some(t) = pick(m) {
                    return Ok(t);
                }
            }
        }
    }
}

async fn connect(addr: SocketAddr) -> Result<Ws, String> {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.map_err(|e| e.to_string())?;
    send(&mut ws, &ClientMsg::Hello { version: PROTOCOL_VERSION }).await?;
    recv_until(&mut ws, |m| matches!(m, ServerMsg::Welcome { .. }).then_some(())).await?;
    Ok(ws)
}

/// Two connected clients in one new game: White (the creator) and Black.
async fn set_up(addr: SocketAddr, i: usize) -> Result<[Ws; 2], String> {
    let mut a = connect(addr).await?;
    let create = ClientMsg::Create {
        board: Board::Tsivy,
        rules: String::new(),
        colour: ColourChoice::White,
        name: format!("load {i} a"),
    };
    send(&mut a, &create).await?;
    let invite = recv_until(&mut a, |m| match m {
        ServerMsg::Created { invite, .. } => Some(invite),
        _ => None,
    })
    .await?;
    let mut b = connect(addr).await?;
    send(&mut b, &ClientMsg::Join { invite, name: format!("load {i} b") }).await?;
    recv_until(&mut b, |m| matches!(m, ServerMsg::State(_)).then_some(())).await?;
    Ok([a, b])
}

async fn play(mut ws: [Ws; 2], seed: u64, options: &Options, deadline: Instant) -> Played {
    let mut out = Played::default();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = Game::new(Rules::default());
    let think = Duration::from_millis(options.think_ms);
    // Spread the games' first turns over one thinking time, as real players would be.
    tokio::time::sleep(think.mul_f64(rng.random::<f64>())).await;
    let result: Result<(), String> = async {
        while !game.is_over() && out.turns < options.max_turns && Instant::now() < deadline {
            let ply = game.turns().len() as u32;
            let mover = game.position().side_to_move().index();
            let turns = game.position().legal_turns();
            let turn = &turns[rng.random_range(0..turns.len())];
            game.play_turn(turn).map_err(|e| e.to_string())?;
            tokio::time::sleep(think).await;
            let sent = Instant::now();
            send(&mut ws[mover], &ClientMsg::Turn { ply, turn: turn.to_string() }).await?;
            let seen = |m: ServerMsg| matches!(m, ServerMsg::TurnPlayed { ply: p, .. } if p == ply).then_some(());
            recv_until(&mut ws[1 - mover], seen).await?;
            out.latencies_us.push(sent.elapsed().as_micros().min(u32::MAX as u128) as u32);
            recv_until(&mut ws[mover], seen).await?;
            out.turns += 1;
        }
        Ok(())
    }
    .await;
    out.finished = game.is_over();
    out.error = result.err();
    for w in &mut ws {
        let _ = w.close(None).await;
    }
    out
}

/// The resident memory of a process, in KiB.
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

/// Runs the load and returns its numbers.
pub async fn measure(options: &Options) -> Result<Report, String> {
    if !options.addr.ip().is_loopback() {
        return Err(format!("the load generator only loads a server on this machine, not {}", options.addr));
    }
    if options.games == 0 || options.games > MAX_GAMES {
        return Err(format!("--games must be 1 to {MAX_GAMES}"));
    }
    let duration = Duration::from_secs(options.duration_s.min(600));
    let rss = |pid: Option<u32>| pid.and_then(rss_kib);
    let before = rss(options.server_pid);

    // Set every game up, a bounded number at a time, and keep them all open.
    let start = Instant::now();
    let gate = Arc::new(tokio::sync::Semaphore::new(64));
    let mut setups = Vec::with_capacity(options.games);
    for i in 0..options.games {
        let gate = gate.clone();
        let addr = options.addr;
        setups.push(tokio::spawn(async move {
            let _permit = gate.acquire_owned().await;
            set_up(addr, i).await
        }));
    }
    let mut ready = Vec::with_capacity(options.games);
    for s in setups {
        ready.push(s.await.map_err(|e| e.to_string())??);
    }
    let set_up_secs = start.elapsed().as_secs_f64();
    let all_set_up = rss(options.server_pid);
    eprintln!("{} games set up in {set_up_secs:.1} s; playing", ready.len());

    let play_start = Instant::now();
    let deadline = play_start + duration;
    let mut tasks = Vec::with_capacity(ready.len());
    for (i, ws) in ready.into_iter().enumerate() {
        let options = options.clone();
        tasks.push(tokio::spawn(async move {
            play(ws, options.seed.wrapping_mul(1_000_003) + i as u64, &options, deadline).await
        }));
    }
    let done = Arc::new(AtomicBool::new(false));
    let sampler = options.server_pid.map(|pid| {
        let done = done.clone();
        tokio::spawn(async move {
            let mut peak = 0;
            loop {
                peak = peak.max(rss_kib(pid).unwrap_or(0));
                if done.load(Ordering::Relaxed) {
                    return peak;
                }
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
        })
    });
    let mut played = Vec::with_capacity(tasks.len());
    for t in tasks {
        played.push(t.await.map_err(|e| e.to_string())?);
    }
    let play_secs = play_start.elapsed().as_secs_f64();
    done.store(true, Ordering::Relaxed);
    let peak = match sampler {
        Some(s) => s.await.ok(),
        None => None,
    };

    let mut latencies: Vec<u32> = played.iter().flat_map(|p| p.latencies_us.iter().copied()).collect();
    latencies.sort_unstable();
    let errors: Vec<&String> = played.iter().filter_map(|p| p.error.as_ref()).collect();
    if let Some(e) = errors.first() {
        eprintln!("{} games failed; the first: {e}", errors.len());
    }
    Ok(Report {
        games: played.len(),
        finished: played.iter().filter(|p| p.finished).count(),
        errors: errors.len(),
        turns: played.iter().map(|p| p.turns as u64).sum(),
        play_secs,
        p50_ms: percentile(&latencies, 0.50),
        p99_ms: percentile(&latencies, 0.99),
        max_ms: latencies.last().map_or(0.0, |&l| l as f64 / 1000.0),
        rss_kib: match (before, all_set_up, peak) {
            (Some(b), Some(s), Some(p)) => Some((b, s, p.max(s))),
            _ => None,
        },
    })
}

/// `fanorona-server loadtest`: runs the load and prints its numbers.
pub async fn run(options: Options) -> Result<(), String> {
    let r = measure(&options).await?;
    println!("games:        {} at once ({} ended by the rules, {} errors)", r.games, r.finished, r.errors);
    println!("turns:        {} in {:.1} s = {:.0} turns/s", r.turns, r.play_secs, r.turns as f64 / r.play_secs);
    println!(
        "latency:      p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms (turn sent to opponent received)",
        r.p50_ms, r.p99_ms, r.max_ms
    );
    if let Some((before, set_up, peak)) = r.rss_kib {
        let per_game = (peak.saturating_sub(before)) as f64 / r.games as f64;
        println!(
            "server RSS:   {:.1} MiB before, {:.1} MiB with all games set up, {:.1} MiB peak = {per_game:.1} KiB a game",
            before as f64 / 1024.0,
            set_up as f64 / 1024.0,
            peak as f64 / 1024.0
        );
    }
    if r.errors > 0 {
        return Err(format!("{} games failed", r.errors));
    }
    Ok(())
}
