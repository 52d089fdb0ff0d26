//! Fanorona's game server: the web build and the online-play API (WebSocket, [`fanorona_net`] protocol) on one port.
//!
//! - [`db`]: SQLite storage; every change is committed before it is acknowledged.
//! - [`room`]: one game in memory.
//! - [`hub`]: the games in memory and every request, checked with the engine.
//! - [`conn`]: one WebSocket connection: hello, limits, dispatch.
//! - [`loadtest`]: the load generator (`fanorona-server loadtest`).

pub mod conn;
pub mod db;
pub mod hub;
pub mod loadtest;
pub mod room;
pub mod tokens;

use axum::Router;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use fanorona_net::{ErrorCode, MAX_CLIENT_MESSAGE_BYTES};
use hub::Hub;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tower_http::services::{ServeDir, ServeFile};

/// The server's limits.
#[derive(Clone, Debug)]
pub struct Config {
    /// Open WebSocket connections allowed from one IP address.
    pub max_conns_per_ip: usize,
    /// Open WebSocket connections allowed in all.
    pub max_connections: usize,
    /// Messages a second one connection may send on average.
    pub msgs_per_sec: f64,
    /// Messages one connection may send in a burst.
    pub burst: f64,
    /// Rate-limited or malformed messages after which a connection is closed.
    pub max_strikes: u32,
    /// A connection that sends nothing (not even a ping) for this long is closed.
    pub idle_timeout: Duration,
    /// A connection must say hello within this time.
    pub hello_timeout: Duration,
    /// Spectators allowed in one game.
    pub max_spectators: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_conns_per_ip: 16,
            max_connections: 20_000,
            msgs_per_sec: 10.0,
            burst: 20.0,
            max_strikes: 50,
            idle_timeout: Duration::from_secs(90),
            hello_timeout: Duration::from_secs(10),
            max_spectators: 100,
        }
    }
}

/// The HTTP routes: `/ws` for the game API, `/healthz`, and the web build (with `.br` and `.gz` files served to
/// browsers that accept them) for everything else.
pub fn router(hub: Arc<Hub>, web_dir: Option<PathBuf>) -> Router {
    let api = Router::new().route("/ws", get(upgrade)).route("/healthz", get(|| async { "ok" })).with_state(hub);
    match web_dir {
        Some(dir) => {
            let index = ServeFile::new(dir.join("index.html")).precompressed_br().precompressed_gzip();
            let files = ServeDir::new(&dir).precompressed_br().precompressed_gzip().fallback(index);
            api.fallback_service(files)
        }
        None => api,
    }
}

async fn upgrade(
    ws: WebSocketUpgrade,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    State(hub): State<Arc<Hub>>,
) -> Response {
    match hub.admit(addr.ip()) {
        Ok(guard) => ws
            .max_message_size(MAX_CLIENT_MESSAGE_BYTES)
            .max_frame_size(MAX_CLIENT_MESSAGE_BYTES)
            .on_upgrade(move |socket| conn::run(hub, socket, guard)),
        Err(ErrorCode::ServerBusy) => (StatusCode::SERVICE_UNAVAILABLE, "server busy").into_response(),
        Err(_) => (StatusCode::TOO_MANY_REQUESTS, "too many connections from this address").into_response(),
    }
}

/// Serves on `listener` until the task is dropped.
pub async fn serve(listener: tokio::net::TcpListener, hub: Arc<Hub>, web_dir: Option<PathBuf>) -> std::io::Result<()> {
    let app = router(hub, web_dir);
    axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).await
}

/// The default database: `games.sqlite3` in the platform's data folder.
pub fn default_db_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "fanorona-server").map(|d| d.data_dir().join("games.sqlite3"))
}
