//! Fanorona's game server: the web build and the online-play API (WebSocket, [`fanorona_net`] protocol) on one port.
//!
//! - [`store`]: where games are stored: [`db`] (SQLite, one server) or [`pg`] (PostgreSQL, shared by several
//!   servers); every change is committed before it is acknowledged.
//! - [`cluster`] and [`notice`]: servers sharing a PostgreSQL database tell each other what changed.
//! - [`room`]: one game in memory.
//! - [`hub`]: the games in memory and every request, checked with the engine.
//! - [`accept`]: the accept loop: header-read timeout and connections per address.
//! - [`conn`]: one WebSocket connection: hello, limits, dispatch.
//! - [`guesses`]: wrong invite codes counted per address, to refuse whoever tries codes.
//! - [`loadtest`]: the load generator (`fanorona-server loadtest`).

pub mod accept;
pub mod cluster;
pub mod conn;
pub mod db;
pub mod guesses;
pub mod hub;
pub mod loadtest;
pub mod notice;
pub mod pg;
pub mod room;
pub mod store;
pub mod tokens;

use axum::Router;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, State};
use axum::http::header::{CACHE_CONTROL, VARY};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use fanorona_net::{ErrorCode, MAX_CLIENT_MESSAGE_BYTES};
use hub::Hub;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeader;

/// The biggest message the WebSocket layer reads (see [`upgrade`]).
const WS_MESSAGE_LIMIT: usize = 2 * MAX_CLIENT_MESSAGE_BYTES;

/// The server's limits.
#[derive(Clone, Debug)]
pub struct Config {
    /// Open WebSocket connections allowed from one IP address.
    pub max_conns_per_ip: usize,
    /// Open TCP connections allowed from one IP address (an IPv6 /64), counted when accepted, whatever they carry
    /// (WebSocket, files, nothing yet); one more is closed at once. Connections from [`Config::trusted_proxies`] are
    /// not counted, since every client comes through them ([`Config::max_conns_per_ip`] still counts the clients'
    /// WebSockets behind them).
    pub max_tcp_per_ip: usize,
    /// A connection must send a whole request head within this time of being accepted, and again of its last
    /// response when it is kept alive; otherwise it is closed. A WebSocket is no longer concerned once upgraded.
    pub header_read_timeout: Duration,
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
    /// A connection must say hello within this time of its upgrade; frames before it (pings included) do not put
    /// the deadline off.
    pub hello_timeout: Duration,
    /// Spectators allowed in one game.
    pub max_spectators: usize,
    /// How long after its game's creation an invite code still seats the friend, counted in whole seconds (a
    /// fraction is dropped); later it is refused as unknown. Short codes are guessable in principle, so they do not
    /// stay valid forever.
    pub invite_ttl: Duration,
    /// Failed joins (an unknown, used or expired invite code) one address (an IPv6 /64) may make within
    /// [`Config::failed_join_window`] of its first; past them its joins are refused as `rate_limited`, before the
    /// code is looked up, until the window ends. A successful join does not count. Joins already being looked up
    /// when the limit is reached still count, so an address with several connections may overshoot it by one per
    /// connection ([`guesses::FailedJoins`]).
    pub max_failed_joins: u32,
    /// The window of [`Config::max_failed_joins`].
    pub failed_join_window: Duration,
    /// Addresses whose failed joins are remembered at once: the table's memory is bounded by it, and when it is
    /// full the address whose window started first is forgotten.
    pub failed_join_addresses: usize,
    /// Games one address (an IPv6 /64) may create within [`Config::create_window`] of its first; past them its
    /// creations are refused as `rate_limited` until the window ends (a fixed window, so up to twice as many around
    /// its end). Counted per address, not per connection, so reconnecting does not start afresh. Quick matches are
    /// not counted: they need a second player. A `max_creates` of 0 is taken as 1.
    pub max_creates: u32,
    /// The window of [`Config::max_creates`].
    pub create_window: Duration,
    /// Addresses whose creations are remembered at once (as [`Config::failed_join_addresses`]).
    pub create_addresses: usize,
    /// A game not over and unchanged for this long is deleted by the sweep ([`spawn_sweeper`], [`db::Db::expire`]);
    /// so is a game never started (a seat still free, no turn) once its invite has expired ([`Config::invite_ttl`]).
    /// Finished games are kept.
    pub abandon_after: Duration,
    /// How often the sweep runs.
    pub sweep_every: Duration,
    /// Reverse proxies whose `X-Forwarded-For` header names the client (see [`client_ip`]); none by default, so
    /// that a client cannot choose the address its connections count against.
    pub trusted_proxies: Vec<IpAddr>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_conns_per_ip: 16,
            max_tcp_per_ip: 64,
            header_read_timeout: Duration::from_secs(10),
            max_connections: 20_000,
            msgs_per_sec: 10.0,
            burst: 20.0,
            max_strikes: 50,
            idle_timeout: Duration::from_secs(90),
            hello_timeout: Duration::from_secs(10),
            max_spectators: 100,
            invite_ttl: Duration::from_secs(24 * 60 * 60),
            max_failed_joins: 10,
            failed_join_window: Duration::from_secs(10 * 60),
            failed_join_addresses: 100_000,
            max_creates: 60,
            create_window: Duration::from_secs(10 * 60),
            create_addresses: 100_000,
            abandon_after: Duration::from_secs(30 * 24 * 60 * 60),
            sweep_every: Duration::from_secs(60 * 60),
            trusted_proxies: Vec::new(),
        }
    }
}

/// The HTTP routes: `/ws` for the game API, `/healthz`, and the web build (with `.br` and `.gz` files served to
/// browsers that accept them) for everything else.
pub fn router(hub: Arc<Hub>, web_dir: Option<PathBuf>) -> Router {
    let api = Router::new().route("/ws", get(upgrade)).route("/healthz", get(health)).with_state(hub);
    match web_dir {
        Some(dir) => {
            let index = ServeFile::new(dir.join("index.html")).precompressed_br().precompressed_gzip();
            let files = ServeDir::new(&dir).precompressed_br().precompressed_gzip().fallback(index);
            // The file names carry no hash, so browsers revalidate (Last-Modified; the service worker serves the
            // game offline anyway), and caches keep the compressed copies apart.
            let files = SetResponseHeader::if_not_present(files, VARY, HeaderValue::from_static("accept-encoding"));
            let files = SetResponseHeader::if_not_present(files, CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            api.fallback_service(files)
        }
        None => api,
    }
}

/// The address a connection counts against: the peer's, or, when the peer is one of `trusted` (a reverse proxy), the
/// nearest address in its `X-Forwarded-For` header that is not a trusted proxy itself. Proxies append the address
/// they saw, so the entries left of it are the client's word and are never read; a missing or unreadable header
/// leaves the peer's address.
pub fn client_ip(peer: IpAddr, headers: &axum::http::HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    let peer = peer.to_canonical();
    if !trusted.contains(&peer) {
        return peer;
    }
    for value in headers.get_all("x-forwarded-for").iter().rev() {
        let Ok(text) = value.to_str() else { return peer };
        for hop in text.rsplit(',') {
            match hop.trim().parse::<IpAddr>().map(|ip| ip.to_canonical()) {
                Ok(ip) if trusted.contains(&ip) => continue,
                Ok(ip) => return ip,
                Err(_) => return peer,
            }
        }
    }
    peer
}

/// `/healthz`: `ok`, or 503 with the reason when the database does not work ([`store::Store::healthy`]).
async fn health(State(hub): State<Arc<Hub>>) -> Response {
    match hub.store.healthy().await {
        Ok(()) => "ok".into_response(),
        Err(e) => {
            eprintln!("health check failed: {e}");
            (StatusCode::SERVICE_UNAVAILABLE, format!("unhealthy: {e}")).into_response()
        }
    }
}

async fn upgrade(
    ws: WebSocketUpgrade,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: axum::http::HeaderMap,
    State(hub): State<Arc<Hub>>,
) -> Response {
    match hub.admit(client_ip(addr.ip(), &headers, &hub.config.trusted_proxies)) {
        // Client messages are small: an 8 KiB read buffer instead of 128 KiB keeps an idle game's memory low, and
        // writing each message at once (no write buffering) keeps the latency low. The WebSocket layer lets through
        // messages of up to twice the protocol's limit, so that one a little over it is read and answered with
        // `too_large` ([`conn`] closes the connection after); bigger ones fail the read, answered best effort.
        Ok(guard) => ws
            .read_buffer_size(8 * 1024)
            .write_buffer_size(0)
            .max_message_size(WS_MESSAGE_LIMIT)
            .max_frame_size(WS_MESSAGE_LIMIT)
            .on_upgrade(move |socket| conn::run(hub, socket, guard)),
        Err(ErrorCode::ServerBusy) => (StatusCode::SERVICE_UNAVAILABLE, "server busy").into_response(),
        Err(_) => (StatusCode::TOO_MANY_REQUESTS, "too many connections from this address").into_response(),
    }
}

/// Serves on `listener` until the task is dropped, with the limits of [`accept::run`], and with this server's part
/// of the cluster when the database is shared ([`cluster::run`]).
pub async fn serve(listener: tokio::net::TcpListener, hub: Arc<Hub>, web_dir: Option<PathBuf>) -> std::io::Result<()> {
    if let Some(pg) = hub.store.postgres() {
        // Alive before the first player can wait in the shared queue.
        pg.heartbeat(&hub.server_id).await.map_err(std::io::Error::other)?;
    }
    let config = hub.config.clone();
    let app = router(hub.clone(), web_dir);
    tokio::select! {
        r = accept::run(listener, app, &config, Arc::new(accept::TcpCounts::default())) => r,
        () = cluster::run(hub) => Ok(()),
    }
}

/// Deletes expired games every [`Config::sweep_every`] (the first time at once) until the task is aborted: see
/// [`db::Db::expire`]. The games in memory are kept, since someone is connected to them; no lock is held while the
/// database works. With several servers on one database each sweeps, keeping the games in its own memory; a game
/// deleted under a player of another server could only be one untouched for the whole abandonment time.
pub fn spawn_sweeper(hub: Arc<Hub>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(hub.config.sweep_every.max(Duration::from_millis(10)));
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            let keep = hub.room_ids().await;
            let (ttl, abandon) = (hub.config.invite_ttl, hub.config.abandon_after);
            match hub.store.expire(db::unix_now(), ttl, abandon, keep).await {
                Ok(n) if n.unstarted + n.abandoned > 0 => {
                    eprintln!("expired {} unstarted and {} abandoned games", n.unstarted, n.abandoned)
                }
                Ok(_) => {}
                Err(e) => eprintln!("expiring games failed: {e}"),
            }
        }
    })
}

/// The default database: `games.sqlite3` in the platform's data folder.
pub fn default_db_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "fanorona-server").map(|d| d.data_dir().join("games.sqlite3"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderMap;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    }

    #[tokio::test]
    async fn healthz_answers_503_once_the_database_writer_died() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let dir = tempfile::tempdir().unwrap();
        let hub = Arc::new(Hub::new(db::Db::open(&dir.path().join("db.sqlite3")).unwrap(), Config::default()));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(serve(listener, hub.clone(), None));
        let get = async || {
            let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
            s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.unwrap();
            let mut out = String::new();
            s.read_to_string(&mut out).await.unwrap();
            out
        };
        let ok = get().await;
        assert!(ok.starts_with("HTTP/1.1 200") && ok.ends_with("ok"), "{ok}");
        let store::Store::Sqlite(db) = &hub.store else { unreachable!("an SQLite hub") };
        db.kill_writer().await;
        let down = get().await;
        assert!(down.starts_with("HTTP/1.1 503") && down.contains("writer stopped"), "{down}");
        server.abort();
    }

    #[test]
    fn only_a_trusted_proxy_names_the_client_and_only_by_the_address_it_appended() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let proxy = [ip("127.0.0.1"), ip("10.0.0.2")];
        let peer = ip("127.0.0.1");
        // Not a trusted peer: the header is the client's word and is ignored.
        assert_eq!(client_ip(ip("198.51.100.9"), &headers(&["203.0.113.7"]), &proxy), ip("198.51.100.9"));
        assert_eq!(client_ip(peer, &headers(&["203.0.113.7"]), &[]), peer);
        // The proxy appended the client's address: the last entry, whatever the client put before it.
        assert_eq!(client_ip(peer, &headers(&["203.0.113.7"]), &proxy), ip("203.0.113.7"));
        assert_eq!(client_ip(peer, &headers(&["1.1.1.1, 203.0.113.7"]), &proxy), ip("203.0.113.7"));
        assert_eq!(client_ip(peer, &headers(&["1.1.1.1", "203.0.113.7"]), &proxy), ip("203.0.113.7"));
        // A chain of trusted proxies is walked back to the first address that is not one.
        assert_eq!(client_ip(peer, &headers(&["203.0.113.7, 10.0.0.2"]), &proxy), ip("203.0.113.7"));
        assert_eq!(client_ip(peer, &headers(&[" 2001:db8::1 "]), &proxy), ip("2001:db8::1"));
        assert_eq!(client_ip(peer, &headers(&["::ffff:203.0.113.7"]), &proxy), ip("203.0.113.7"));
        // Missing, unreadable or only proxies: the peer's own address.
        assert_eq!(client_ip(peer, &HeaderMap::new(), &proxy), peer);
        assert_eq!(client_ip(peer, &headers(&["1.1.1.1, unknown"]), &proxy), peer);
        assert_eq!(client_ip(peer, &headers(&["10.0.0.2"]), &proxy), peer);
        assert_eq!(client_ip(peer, &headers(&["203.0.113.7, ::ffff:10.0.0.2"]), &proxy), ip("203.0.113.7"));
        assert_eq!(client_ip(ip("::ffff:127.0.0.1"), &headers(&["203.0.113.7"]), &proxy), ip("203.0.113.7"));
    }
}
