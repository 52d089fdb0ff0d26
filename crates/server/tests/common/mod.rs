//! Test helpers: a server on a free loopback port with a temporary database, and a WebSocket client.

#![allow(dead_code)]

pub mod postgres;

use fanorona_net::{ClientMsg, PROTOCOL_VERSION, ServerMsg, parse_server};
use fanorona_server::{Config, db::Db, hub::Hub, store::Store};
use futures_util::{SinkExt, StreamExt};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long a test waits for any one message.
pub const WAIT: Duration = Duration::from_secs(5);

/// A server running in this process; dropping the task stops it.
pub struct InProcess {
    pub addr: SocketAddr,
    pub task: tokio::task::JoinHandle<std::io::Result<()>>,
}

/// Starts a server in this process.
pub async fn start(db: &Path, config: Config, web_dir: Option<&Path>) -> InProcess {
    start_with(Db::open(db).unwrap().into(), config, web_dir).await
}

/// Starts a server in this process on `store`.
pub async fn start_with(store: Store, config: Config, web_dir: Option<&Path>) -> InProcess {
    let db = store;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let hub = Arc::new(Hub::new(db, config));
    let task = tokio::spawn(fanorona_server::serve(listener, hub, web_dir.map(Path::to_path_buf)));
    InProcess { addr, task }
}

/// The server binary, killed (SIGKILL) when dropped.
pub struct Process {
    pub child: Child,
    pub addr: SocketAddr,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the server binary on `port` (0: any) with the database `db` (an SQLite path or a PostgreSQL address) and
/// reads its address from its first line.
pub fn spawn_binary(db: impl AsRef<std::ffi::OsStr>, port: u16) -> Process {
    spawn_binary_with(db, port, &[])
}

/// [`spawn_binary`] with more command-line options (limits, say).
pub fn spawn_binary_with(db: impl AsRef<std::ffi::OsStr>, port: u16, options: &[&str]) -> Process {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fanorona-server"))
        .args(["--bind", "127.0.0.1", "--port", &port.to_string(), "--web-dir", "/nonexistent"])
        .args(options)
        .arg("--db")
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.split_whitespace().nth(2).unwrap_or_else(|| panic!("unexpected first line {line:?}"));
    Process { addr: addr.parse().unwrap(), child }
}

/// A protocol client.
pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    /// Connects without saying hello.
    pub async fn raw(addr: SocketAddr) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.unwrap();
        Client { ws }
    }

    /// Connects and says hello.
    pub async fn connect(addr: SocketAddr) -> Client {
        let mut c = Client::raw(addr).await;
        c.send(&ClientMsg::Hello { version: PROTOCOL_VERSION }).await;
        assert_eq!(c.recv().await, ServerMsg::Welcome { version: PROTOCOL_VERSION });
        c
    }

    pub async fn send(&mut self, msg: &ClientMsg) {
        self.send_text(&msg.to_json()).await;
    }

    pub async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    /// The next text frame as it came, for checks of the exact JSON.
    pub async fn recv_text(&mut self) -> String {
        loop {
            let frame = tokio::time::timeout(WAIT, self.ws.next()).await.expect("no message within 5 s");
            match frame {
                Some(Ok(Message::Text(t))) => return t.as_str().to_string(),
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => panic!("the connection closed"),
                Some(Ok(_)) => {}
            }
        }
    }

    /// The next message, or None if the connection closed.
    pub async fn try_recv(&mut self) -> Option<ServerMsg> {
        loop {
            let frame = tokio::time::timeout(WAIT, self.ws.next()).await.expect("no message within 5 s");
            match frame {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return None,
                Some(Ok(Message::Text(t))) => return Some(parse_server(t.as_str()).unwrap()),
                Some(Ok(_)) => {}
            }
        }
    }

    pub async fn recv(&mut self) -> ServerMsg {
        self.try_recv().await.expect("the connection closed")
    }

    /// Reads until `pick` takes a message, skipping the others.
    pub async fn recv_until<T>(&mut self, mut pick: impl FnMut(&ServerMsg) -> Option<T>) -> T {
        loop {
            let m = self.recv().await;
            if let Some(t) = pick(&m) {
                return t;
            }
        }
    }

    /// Reads until an error message and returns its code.
    pub async fn error(&mut self) -> fanorona_net::ErrorCode {
        self.recv_until(|m| match m {
            ServerMsg::Error { code, .. } => Some(*code),
            _ => None,
        })
        .await
    }

    /// Reads until a full state.
    pub async fn state(&mut self) -> fanorona_net::GameState {
        self.recv_until(|m| match m {
            ServerMsg::State(s) => Some(s.clone()),
            _ => None,
        })
        .await
    }

    /// Reads until the turn numbered `ply` is played.
    pub async fn turn_played(&mut self, ply: u32) -> String {
        self.recv_until(|m| match m {
            ServerMsg::TurnPlayed { ply: p, turn, .. } if *p == ply => Some(turn.clone()),
            ServerMsg::Error { code, message } => panic!("error {code:?}: {message}"),
            _ => None,
        })
        .await
    }

    /// Asks for the state and returns it.
    pub async fn sync(&mut self) -> fanorona_net::GameState {
        self.send(&ClientMsg::Sync).await;
        self.state().await
    }
}

/// What a new friend game gives: both clients, both seat tokens, the spectator token.
pub struct Pair {
    pub white: Client,
    pub black: Client,
    pub white_token: String,
    pub black_token: String,
    pub spectate: String,
}

/// Creates a game (White) and joins it (Black).
pub async fn pair(addr: SocketAddr) -> Pair {
    let mut white = Client::connect(addr).await;
    white
        .send(&ClientMsg::Create {
            board: fanorona_net::Board::Tsivy,
            rules: String::new(),
            colour: fanorona_net::ColourChoice::White,
            name: "Rasoa".into(),
        })
        .await;
    let ServerMsg::Created { token: white_token, invite, spectate, colour, .. } = white.recv().await else {
        panic!("expected created")
    };
    assert_eq!(colour, fanorona_net::Colour::White);
    let first = white.state().await;
    assert!(!first.black.taken);
    let mut black = Client::connect(addr).await;
    black.send(&ClientMsg::Join { invite, name: "Be".into() }).await;
    let ServerMsg::Seated { token: black_token, colour, spectate: watch, .. } = black.recv().await else {
        panic!("expected seated")
    };
    assert_eq!(colour, fanorona_net::Colour::Black);
    // The friend who joins gets the code to watch too, while the game has stayed in the server's memory.
    assert_eq!(watch.as_deref(), Some(spectate.as_str()));
    let s = black.state().await;
    assert!(s.black.taken && s.white.connected && s.black.connected);
    assert_eq!(s.black.name, "Be");
    // White learns that the seat was taken.
    assert!(white.state().await.black.taken);
    Pair { white, black, white_token, black_token, spectate }
}

/// Plays `n` random legal turns (or until the game ends), each acknowledged to its mover and seen by the opponent.
pub async fn play_random(
    white: &mut Client,
    black: &mut Client,
    game: &mut fanorona_rules::Game,
    rng: &mut impl rand::Rng,
    n: usize,
) {
    for _ in 0..n {
        if game.is_over() {
            return;
        }
        let ply = game.turns().len() as u32;
        let turns = game.position().legal_turns();
        let turn = turns[rng.random_range(0..turns.len())].clone();
        let white_moves = game.position().side_to_move() == fanorona_rules::Side::White;
        game.play_turn(&turn).unwrap();
        let (mover, other) = if white_moves { (&mut *white, &mut *black) } else { (&mut *black, &mut *white) };
        mover.send(&ClientMsg::Turn { ply, turn: turn.to_string() }).await;
        assert_eq!(other.turn_played(ply).await, turn.to_string());
        assert_eq!(mover.turn_played(ply).await, turn.to_string());
    }
}
