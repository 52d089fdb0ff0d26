//! The attacks of the outside test (issue 70, item 7), made on loopback against a real server: each is refused.

mod common;

use common::{Client, start};
use fanorona_net::{Board, ClientMsg, ColourChoice, ErrorCode, ServerMsg};
use fanorona_server::Config;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// Connects to `server` from the loopback address `from` (any of 127.0.0.0/8 reaches a server on 127.0.0.1).
async fn connect_from(server: SocketAddr, from: &str) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(server).await.unwrap()
}

/// Reads until the server closes the connection and returns how long that took from `since`, or `None` if it was
/// still open at `limit`.
async fn closed_after(s: &mut TcpStream, since: Instant, limit: Duration) -> Option<Duration> {
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout_at((since + limit).into(), s.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0)) | Ok(Err(_)) => return Some(since.elapsed()),
            Ok(Ok(_)) => {}
        }
    }
}

/// `GET path` on a kept-alive connection; the response's status line.
async fn get(s: &mut TcpStream, path: &str) -> String {
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(5), s.read(&mut buf)).await.expect("no answer").unwrap();
    let text = String::from_utf8_lossy(&buf[..n]).to_string();
    text.lines().next().unwrap_or_default().to_string()
}

#[tokio::test]
async fn silent_dripping_and_idle_kept_alive_connections_are_closed_after_the_header_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let timeout = Duration::from_millis(800);
    let server =
        start(&dir.path().join("db.sqlite3"), Config { header_read_timeout: timeout, ..Config::default() }, None).await;
    let t0 = Instant::now();
    // 20 that send nothing at all.
    let mut silent = Vec::new();
    for _ in 0..20 {
        silent.push(TcpStream::connect(server.addr).await.unwrap());
    }
    // 5 that drip a request head one byte every 50 ms: each byte is read, none extends the deadline.
    let mut drips = Vec::new();
    for _ in 0..5 {
        let mut s = TcpStream::connect(server.addr).await.unwrap();
        drips.push(tokio::spawn(async move {
            let start = Instant::now();
            for b in
                b"GET /healthz HTTP/1.1\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            {
                if s.write_all(&[*b]).await.is_err() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            closed_after(&mut s, start, Duration::from_secs(10)).await
        }));
    }
    // 5 that make one request, get the answer and keep the connection open, idle.
    let mut kept = Vec::new();
    for _ in 0..5 {
        let mut s = TcpStream::connect(server.addr).await.unwrap();
        assert_eq!(get(&mut s, "/healthz").await, "HTTP/1.1 200 OK");
        kept.push((s, Instant::now()));
    }
    let limit = Duration::from_secs(10);
    for s in &mut silent {
        let after = closed_after(s, t0, limit).await.expect("a silent connection still open after 10 s");
        assert!(after >= timeout - Duration::from_millis(50), "closed too early: {after:?}");
    }
    for d in drips {
        let after = d.await.unwrap().expect("a dripping connection still open after 10 s");
        // The head would take 4 s to drip; the deadline ends it at the timeout.
        assert!(after < timeout + Duration::from_secs(2), "{after:?}");
    }
    for (s, since) in &mut kept {
        let after = closed_after(s, *since, limit).await.expect("an idle kept-alive connection still open after 10 s");
        assert!(after >= timeout - Duration::from_millis(50) && after < timeout + Duration::from_secs(2), "{after:?}");
    }
    // A WebSocket is not concerned once upgraded: it outlives the header timeout.
    let mut c = Client::connect(server.addr).await;
    tokio::time::sleep(timeout * 2).await;
    c.send(&ClientMsg::Ping).await;
    assert_eq!(c.recv().await, ServerMsg::Pong);
}

#[tokio::test]
async fn one_address_cannot_hold_more_than_its_share_of_raw_connections() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config { max_tcp_per_ip: 10, header_read_timeout: Duration::from_secs(30), ..Config::default() };
    let server = start(&dir.path().join("db.sqlite3"), config, None).await;
    // Ten idle connections fill the address's share (the server reads none of them before the timeout)...
    let mut held = Vec::new();
    for _ in 0..10 {
        held.push(connect_from(server.addr, "127.0.0.2").await);
    }
    // ... and each further one is closed at once, long before any timeout: 30 tries, all refused.
    for _ in 0..30 {
        let mut extra = connect_from(server.addr, "127.0.0.2").await;
        let t = Instant::now();
        let after = closed_after(&mut extra, t, Duration::from_secs(5)).await.expect("an 11th connection kept open");
        assert!(after < Duration::from_secs(2), "{after:?}");
    }
    // Another address is served meanwhile: the files, health and the game.
    let mut other = connect_from(server.addr, "127.0.0.3").await;
    assert_eq!(get(&mut other, "/healthz").await, "HTTP/1.1 200 OK");
    let mut c = Client::connect(server.addr).await;
    c.send(&ClientMsg::Ping).await;
    assert_eq!(c.recv().await, ServerMsg::Pong);
    // The held ones still work, and closing one frees its place.
    assert_eq!(get(&mut held[0], "/healthz").await, "HTTP/1.1 200 OK");
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut again = connect_from(server.addr, "127.0.0.2").await;
    assert_eq!(get(&mut again, "/healthz").await, "HTTP/1.1 200 OK");
}

#[tokio::test]
async fn an_upgraded_websocket_still_counts_against_its_address() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config { max_tcp_per_ip: 3, ..Config::default() };
    let server = start(&dir.path().join("db.sqlite3"), config, None).await;
    let mut games = Vec::new();
    for _ in 0..3 {
        let stream = tokio_tungstenite::MaybeTlsStream::Plain(connect_from(server.addr, "127.0.0.2").await);
        let (ws, _) = tokio_tungstenite::client_async(format!("ws://{}/ws", server.addr), stream).await.unwrap();
        games.push(Client { ws });
    }
    // The three upgraded connections hold the address's share: a fourth connection is closed at once.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut extra = connect_from(server.addr, "127.0.0.2").await;
    assert!(closed_after(&mut extra, Instant::now(), Duration::from_secs(2)).await.is_some());
    // Closing a WebSocket frees its place.
    drop(games.pop());
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut again = connect_from(server.addr, "127.0.0.2").await;
    assert_eq!(get(&mut again, "/healthz").await, "HTTP/1.1 200 OK");
}

#[tokio::test]
async fn a_trusted_proxy_is_not_capped_by_connection_count() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config {
        max_tcp_per_ip: 4,
        max_conns_per_ip: 100,
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..Config::default()
    };
    let server = start(&dir.path().join("db.sqlite3"), config, None).await;
    let mut open = Vec::new();
    for _ in 0..12 {
        let mut s = TcpStream::connect(server.addr).await.unwrap();
        assert_eq!(get(&mut s, "/healthz").await, "HTTP/1.1 200 OK");
        open.push(s);
    }
    // Any other address is capped.
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(connect_from(server.addr, "127.0.0.2").await);
    }
    let mut extra = connect_from(server.addr, "127.0.0.2").await;
    assert!(closed_after(&mut extra, Instant::now(), Duration::from_secs(5)).await.is_some());
}

/// Sends WebSocket ping frames every `every` until the server closes the connection; how long that took, or `None`
/// if it was still open after `limit`.
async fn ping_until_closed(c: &mut Client, every: Duration, limit: Duration) -> Option<Duration> {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let t = Instant::now();
    while t.elapsed() < limit {
        if c.ws.send(Message::Ping(vec![1, 2, 3].into())).await.is_err() {
            return Some(t.elapsed());
        }
        let stop = tokio::time::Instant::now() + every;
        loop {
            match tokio::time::timeout_at(stop, c.ws.next()).await {
                Err(_) => break,
                Ok(None) | Ok(Some(Err(_))) | Ok(Some(Ok(Message::Close(_)))) => return Some(t.elapsed()),
                Ok(Some(Ok(_))) => {}
            }
        }
    }
    None
}

#[tokio::test]
async fn pings_do_not_put_off_the_hello_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config { hello_timeout: Duration::from_millis(600), ..Config::default() };
    let server = start(&dir.path().join("db.sqlite3"), config, None).await;
    let mut c = Client::raw(server.addr).await;
    let after = ping_until_closed(&mut c, Duration::from_millis(100), Duration::from_secs(5))
        .await
        .expect("pinging kept a connection without hello open for 5 s");
    assert!(after < Duration::from_millis(1500), "{after:?}");
}

#[tokio::test]
async fn pings_count_against_the_rate_limit() {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let dir = tempfile::tempdir().unwrap();
    let config = Config { msgs_per_sec: 2.0, burst: 3.0, max_strikes: 5, ..Config::default() };
    let server = start(&dir.path().join("db.sqlite3"), config, None).await;
    let mut c = Client::connect(server.addr).await;
    for _ in 0..40 {
        if c.ws.send(Message::Ping(vec![0; 16].into())).await.is_err() {
            break;
        }
    }
    let mut limited = 0;
    while let Some(m) = c.try_recv().await {
        assert!(matches!(m, ServerMsg::Error { code: ErrorCode::RateLimited, .. }), "{m:?}");
        limited += 1;
    }
    // A burst of 3 (the hello took one), then five strikes close the connection.
    assert_eq!(limited, 5);
}

#[tokio::test]
async fn a_message_over_the_limit_is_answered_too_large_then_closed() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir.path().join("db.sqlite3"), Config::default(), None).await;
    let limit = fanorona_net::MAX_CLIENT_MESSAGE_BYTES;
    // Just over the limit, far over it (past what the WebSocket layer reads), and over it before the hello.
    for (size, greet) in [(limit + 1, true), (3 * limit, true), (64 * 1024, true), (limit + 100, false)] {
        let mut c = if greet { Client::connect(server.addr).await } else { Client::raw(server.addr).await };
        let pad = "x".repeat(size - r#"{"type":"ping","pad":""}"#.len());
        c.send_text(&format!(r#"{{"type":"ping","pad":"{pad}"}}"#)).await;
        match c.try_recv().await {
            Some(ServerMsg::Error { code: ErrorCode::TooLarge, message }) => {
                assert!(message.contains(&limit.to_string()), "{message}")
            }
            other => panic!("{size} bytes: {other:?}"),
        }
        assert_eq!(c.try_recv().await, None, "{size} bytes: still open");
    }
    // A message of the limit is read.
    let mut c = Client::connect(server.addr).await;
    let pad = "x".repeat(limit - r#"{"type":"ping","pad":""}"#.len());
    c.send_text(&format!(r#"{{"type":"ping","pad":"{pad}"}}"#)).await;
    assert_eq!(c.recv().await, ServerMsg::Pong);
}

/// Creates a game from `c` and returns whether it was created, or the error's code and message.
async fn create(c: &mut Client) -> Result<(), (ErrorCode, String)> {
    let create =
        ClientMsg::Create { board: Board::Tsivy, rules: String::new(), colour: ColourChoice::White, name: "A".into() };
    c.send(&create).await;
    c.recv_until(|m| match m {
        ServerMsg::Created { .. } => Some(Ok(())),
        ServerMsg::Error { code, message } => Some(Err((*code, message.clone()))),
        _ => None,
    })
    .await
}

/// A greeted client whose connection comes through the trusted proxy (the loopback peer) for `forwarded`.
async fn via_proxy(addr: SocketAddr, forwarded: &str) -> Client {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
    request.headers_mut().insert("x-forwarded-for", forwarded.parse().unwrap());
    let (ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    let mut c = Client { ws };
    c.send(&ClientMsg::Hello { version: fanorona_net::PROTOCOL_VERSION }).await;
    assert!(matches!(c.recv().await, ServerMsg::Welcome { .. }));
    c
}

#[tokio::test]
async fn an_address_creates_a_bounded_number_of_games_whatever_its_connections() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config {
        max_creates: 5,
        msgs_per_sec: 1000.0,
        burst: 1000.0,
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..Config::default()
    };
    let server = start(&dir.path().join("db.sqlite3"), config, None).await;
    // Five games, each on a fresh connection, as the attack reconnected to reset the per-connection limit.
    for i in 0..5 {
        let mut c = via_proxy(server.addr, "203.0.113.7").await;
        assert_eq!(create(&mut c).await, Ok(()), "game {i}");
    }
    // Then 50 more tries, on new connections and on one: all refused, with the wait in words.
    let mut c = via_proxy(server.addr, "203.0.113.7").await;
    for _ in 0..25 {
        let (code, message) = create(&mut c).await.unwrap_err();
        assert_eq!(code, ErrorCode::RateLimited);
        assert!(message.contains("too many games") && message.contains("10 minutes"), "{message}");
        let mut fresh = via_proxy(server.addr, "203.0.113.7").await;
        assert_eq!(create(&mut fresh).await.map_err(|e| e.0), Err(ErrorCode::RateLimited));
    }
    // An IPv6 subscriber counts as its /64; another address is not concerned.
    for i in 0..5 {
        let mut c = via_proxy(server.addr, &format!("2001:db8:1:2::{i}")).await;
        assert_eq!(create(&mut c).await, Ok(()), "v6 game {i}");
    }
    let mut c = via_proxy(server.addr, "2001:db8:1:2:ffff::9").await;
    assert_eq!(create(&mut c).await.map_err(|e| e.0), Err(ErrorCode::RateLimited));
    let mut other = via_proxy(server.addr, "203.0.113.8").await;
    assert_eq!(create(&mut other).await, Ok(()));
}

#[tokio::test]
async fn a_storage_failure_on_join_is_internal_not_seat_taken() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite3");
    let server = start(&path, Config::default(), None).await;
    let mut a = Client::connect(server.addr).await;
    let create =
        ClientMsg::Create { board: Board::Tsivy, rules: String::new(), colour: ColourChoice::White, name: "A".into() };
    a.send(&create).await;
    let ServerMsg::Created { invite, .. } = a.recv().await else { panic!("expected created") };
    // The disk refuses the seat's row, as a full or failing disk would.
    let db = rusqlite::Connection::open(&path).unwrap();
    db.execute_batch("CREATE TRIGGER broken BEFORE INSERT ON seats BEGIN SELECT RAISE(ABORT, 'disk on fire'); END;")
        .unwrap();
    let mut b = Client::connect(server.addr).await;
    b.send(&ClientMsg::Join { invite: invite.clone(), name: "B".into() }).await;
    let (code, message) = b
        .recv_until(|m| match m {
            ServerMsg::Error { code, message } => Some((*code, message.clone())),
            _ => None,
        })
        .await;
    assert_eq!(code, ErrorCode::Internal);
    assert!(!message.contains("disk on fire"), "the database's text reached the client: {message}");
    // Nothing was taken: once the disk is back, the same invite seats the friend.
    db.execute_batch("DROP TRIGGER broken;").unwrap();
    b.send(&ClientMsg::Join { invite, name: "B".into() }).await;
    assert!(matches!(b.recv().await, ServerMsg::Seated { .. }));
}

#[tokio::test]
async fn the_sweep_deletes_expired_games_but_not_under_a_connected_player() {
    use fanorona_server::{db::Db, hub::Hub};
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    // Invites expire at once and the sweep runs every 100 ms: every unstarted game is due a second after creation.
    let config = Config { invite_ttl: Duration::ZERO, sweep_every: Duration::from_millis(100), ..Config::default() };
    let hub = Arc::new(Hub::new(Db::open(&dir.path().join("db.sqlite3")).unwrap(), config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(fanorona_server::serve(listener, hub.clone(), None));
    let sweeper = fanorona_server::spawn_sweeper(hub.clone());
    let mut waiting = Client::connect(addr).await;
    let create =
        ClientMsg::Create { board: Board::Tsivy, rules: String::new(), colour: ColourChoice::White, name: "A".into() };
    waiting.send(&create).await;
    let ServerMsg::Created { game: kept, .. } = waiting.recv().await else { panic!("expected created") };
    let mut gone_away = Client::connect(addr).await;
    gone_away.send(&create).await;
    let ServerMsg::Created { game: gone, .. } = gone_away.recv().await else { panic!("expected created") };
    drop(gone_away);
    let t = Instant::now();
    while hub.store.load(gone.clone()).await.unwrap().is_some() {
        assert!(t.elapsed() < Duration::from_secs(5), "the abandoned unstarted game was not swept");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Swept many times over by now; the game of the player still connected is there, and still plays.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(hub.store.load(kept.clone()).await.unwrap().is_some());
    assert_eq!(waiting.sync().await.ply, 0);
    // Once that player is gone too, it goes.
    drop(waiting);
    let t = Instant::now();
    while hub.store.load(kept.clone()).await.unwrap().is_some() {
        assert!(t.elapsed() < Duration::from_secs(5), "the game left alone was not swept");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    sweeper.abort();
    server.abort();
}
