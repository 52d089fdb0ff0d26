//! Online play end to end: a real server on a loopback port with a temporary database, real WebSocket clients.

mod common;

use common::{Client, Pair, pair, play_random, spawn_binary, start};
use fanorona_net::{
    Backoff, Board, ClientMsg, Colour, ColourChoice, ErrorCode, INVITE_ALPHABET, INVITE_CHARS, MIN_PROTOCOL_VERSION,
    OfferKind, PROTOCOL_VERSION, Role, ServerMsg,
};
use fanorona_rules::record::Record;
use fanorona_rules::{Game, Rules, Turn};
use fanorona_server::Config;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Limits loose enough that tests playing quickly are not rate limited.
fn fast() -> Config {
    Config { msgs_per_sec: 1000.0, burst: 1000.0, ..Config::default() }
}

#[tokio::test]
async fn a_whole_game_to_the_end_with_a_spectator() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir.path().join("db.sqlite3"), fast(), None).await;
    let mut p = pair(server.addr).await;
    let mut watcher = Client::connect(server.addr).await;
    watcher.send(&ClientMsg::Spectate { token: p.spectate.clone() }).await;
    assert!(matches!(watcher.recv().await, ServerMsg::Spectating { .. }));
    assert_eq!(watcher.state().await.you, fanorona_net::Role::Spectator);

    let mut game = Game::new(Rules::default());
    let mut rng = SmallRng::seed_from_u64(11);
    play_random(&mut p.white, &mut p.black, &mut game, &mut rng, 1000).await;
    assert!(game.is_over(), "a game ends within 1000 turns (the no-capture draw rule)");
    // The database knows it is over (the sweep of abandoned games keeps it) although no ending was stored.
    let db = rusqlite::Connection::open(dir.path().join("db.sqlite3")).unwrap();
    let (finished, ending): (bool, Option<String>) =
        db.query_row("SELECT finished, ending FROM games", [], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
    assert!(finished && ending.is_none());
    let end = p.white.state().await;
    assert_eq!(end.to_move, None);
    assert_ne!(end.result, "*");
    assert!(!end.termination.is_empty());
    // The record the server sends is the game both clients played.
    let replayed = Record::load(&end.record).unwrap();
    assert_eq!(replayed.turns(), game.turns());
    assert_eq!(replayed.outcome(), game.outcome());
    assert_eq!(p.black.state().await.record, end.record);
    // The spectator saw every turn, then the end.
    let mut seen = 0;
    let watched = watcher
        .recv_until(|m| match m {
            ServerMsg::TurnPlayed { .. } => {
                seen += 1;
                None
            }
            ServerMsg::State(s) => Some(s.clone()),
            _ => None,
        })
        .await;
    assert_eq!(seen, game.turns().len());
    assert_eq!(watched.record, end.record);
    // Nothing more can be played.
    p.white.send(&ClientMsg::Turn { ply: end.ply, turn: "a1-a2".into() }).await;
    assert!(matches!(p.white.error().await, ErrorCode::GameOver | ErrorCode::NotYourTurn));
}

#[tokio::test]
async fn illegal_malformed_and_wrong_seat_turns_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir.path().join("db.sqlite3"), fast(), None).await;
    let mut p = pair(server.addr).await;
    let before = p.white.sync().await;

    // Black may not play White's turn, even a legal one.
    p.black.send(&ClientMsg::Turn { ply: 0, turn: "d3-e3A".into() }).await;
    assert_eq!(p.black.error().await, ErrorCode::NotYourTurn);
    // A legal-looking turn that the engine refuses.
    p.white.send(&ClientMsg::Turn { ply: 0, turn: "a1-b1".into() }).await;
    assert_eq!(p.white.error().await, ErrorCode::IllegalTurn);
    // A paika move while a capture exists is illegal too.
    p.white.send(&ClientMsg::Turn { ply: 0, turn: "e2-e3".into() }).await;
    assert_eq!(p.white.error().await, ErrorCode::IllegalTurn);
    p.white.send(&ClientMsg::Turn { ply: 0, turn: "not a turn".into() }).await;
    assert_eq!(p.white.error().await, ErrorCode::BadNotation);
    p.white.send(&ClientMsg::Turn { ply: 5, turn: "d3-e3A".into() }).await;
    assert_eq!(p.white.error().await, ErrorCode::StaleTurn);
    p.white.send_text(r#"{"type":"turn","ply":0}"#).await;
    assert_eq!(p.white.error().await, ErrorCode::Malformed);
    p.white.send_text("\u{0}\u{1}garbage").await;
    assert_eq!(p.white.error().await, ErrorCode::Malformed);
    // A spectator holds no seat.
    let mut watcher = Client::connect(server.addr).await;
    watcher.send(&ClientMsg::Spectate { token: p.spectate.clone() }).await;
    watcher.state().await;
    watcher.send(&ClientMsg::Turn { ply: 0, turn: "d3-e3A".into() }).await;
    assert_eq!(watcher.error().await, ErrorCode::NotYourSeat);
    watcher.send(&ClientMsg::Resign).await;
    assert_eq!(watcher.error().await, ErrorCode::NotYourSeat);

    assert_eq!(p.white.sync().await, before);
    assert_eq!(p.black.sync().await.record, before.record);
    // The legal turn still goes through, once.
    p.white.send(&ClientMsg::Turn { ply: 0, turn: "d3-e3A".into() }).await;
    assert_eq!(p.black.turn_played(0).await, "d3-e3A");
    p.white.send(&ClientMsg::Turn { ply: 0, turn: "d3-e3A".into() }).await;
    assert_eq!(p.white.error().await, ErrorCode::NotYourTurn);
    assert_eq!(p.white.sync().await.ply, 1);
}

#[tokio::test]
async fn killed_server_restarts_mid_game_and_loses_no_turn() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite3");
    let server = spawn_binary(&db, 0);
    let addr = server.addr;
    let mut p = pair(addr).await;
    let mut game = Game::new(Rules::default());
    let mut rng = SmallRng::seed_from_u64(5);
    play_random(&mut p.white, &mut p.black, &mut game, &mut rng, 6).await;
    // The seventh turn is acknowledged, then the server is killed (SIGKILL) at once.
    let ply = game.turns().len() as u32;
    let turns = game.position().legal_turns();
    let turn = turns[0].clone();
    game.play_turn(&turn).unwrap();
    p.white.send(&ClientMsg::Turn { ply, turn: turn.to_string() }).await;
    p.white.turn_played(ply).await;
    drop(server);
    assert!(p.white.try_recv().await.is_none(), "the connection dies with the server");

    // Clients retry with backoff while the server is down, then come back to their seats.
    let restarted = tokio::task::spawn_blocking(move || {
        std::thread::sleep(Duration::from_millis(300));
        spawn_binary(&db, addr.port())
    });
    let (white, white_code) = resume_when_up(addr, &p.white_token).await;
    let (black, black_code) = resume_when_up(addr, &p.black_token).await;
    (p.white, p.black) = (white, black);
    // The game came back from the database with its spectator code, for both players to share.
    assert_eq!((white_code.as_ref(), black_code.as_ref()), (Some(&p.spectate), Some(&p.spectate)));
    let _server = restarted.await.unwrap();
    let s = p.black.state().await;
    assert_eq!(s.ply, 7);
    assert_eq!(Record::load(&s.record).unwrap().turns(), game.turns());
    assert_eq!(s.white.name, "Rasoa");
    // And the game goes on.
    play_random(&mut p.white, &mut p.black, &mut game, &mut rng, 4).await;
    assert_eq!(p.white.sync().await.ply, game.turns().len() as u32);
}

#[tokio::test]
async fn a_dropped_client_comes_back_to_its_seat() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir.path().join("db.sqlite3"), fast(), None).await;
    let Pair { white, mut black, white_token, black_token, spectate } = pair(server.addr).await;
    let mut p_black = {
        let mut w = white;
        w.send(&ClientMsg::Turn { ply: 0, turn: "d3-e3A".into() }).await;
        w.turn_played(0).await;
        drop(w);
        black.turn_played(0).await;
        black
    };
    let gone = p_black
        .recv_until(|m| match m {
            ServerMsg::Presence { colour, connected } => Some((*colour, *connected)),
            _ => None,
        })
        .await;
    assert_eq!(gone, (Colour::White, false));
    assert!(!p_black.sync().await.white.connected);

    // A made-up token and the opponent's seat both stay closed.
    let mut stranger = Client::connect(server.addr).await;
    stranger.send(&ClientMsg::Resume { token: "0123456789abcdef0123456789abcdef".into() }).await;
    assert_eq!(stranger.error().await, ErrorCode::UnknownGame);
    stranger.send(&ClientMsg::Spectate { token: white_token.clone() }).await;
    assert_eq!(stranger.error().await, ErrorCode::UnknownGame);

    let mut white = Client::connect(server.addr).await;
    white.send(&ClientMsg::Resume { token: white_token.clone() }).await;
    // The game stayed in memory (Black is connected), so the seat comes back with the code to watch.
    let ServerMsg::Seated { colour: Colour::White, spectate: watch, .. } = white.recv().await else { panic!() };
    assert_eq!(watch, Some(spectate));
    let s = white.state().await;
    assert_eq!((s.ply, s.you, s.to_move), (1, fanorona_net::Role::White, Some(Colour::Black)));
    let back = p_black
        .recv_until(|m| match m {
            ServerMsg::Presence { colour, connected } => Some((*colour, *connected)),
            _ => None,
        })
        .await;
    assert_eq!(back, (Colour::White, true));
    p_black.send(&ClientMsg::Turn { ply: 1, turn: "f4-f3A".into() }).await;
    assert_eq!(white.turn_played(1).await, "f4-f3A");

    // A second connection with the same token takes the seat; the first is closed.
    let mut again = Client::connect(server.addr).await;
    again.send(&ClientMsg::Resume { token: white_token }).await;
    assert!(matches!(again.recv().await, ServerMsg::Seated { .. }));
    loop {
        if white.try_recv().await.is_none() {
            break;
        }
    }
    let _ = black_token;
}

#[tokio::test]
async fn rate_limit_and_connection_limits_trigger() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config { msgs_per_sec: 2.0, burst: 3.0, max_strikes: 5, max_conns_per_ip: 3, ..Config::default() };
    let server = start(&dir.path().join("db.sqlite3"), config, None).await;
    let mut c = Client::connect(server.addr).await;
    for _ in 0..12 {
        c.send(&ClientMsg::Ping).await;
    }
    let mut pongs = 0;
    let mut limited = 0;
    while let Some(m) = c.try_recv().await {
        match m {
            ServerMsg::Pong => pongs += 1,
            ServerMsg::Error { code: ErrorCode::RateLimited, .. } => limited += 1,
            other => panic!("unexpected {other:?}"),
        }
    }
    // A burst of 3 (the hello took one), then 2 a second.
    assert!((2..=5).contains(&pongs), "{pongs} pongs");
    assert_eq!(limited, 5, "closed after five strikes");

    // Three connections from one address at most: the fourth is refused at the upgrade.
    let _open: Vec<Client> = {
        let mut v = Vec::new();
        for _ in 0..3 {
            v.push(Client::connect(server.addr).await);
        }
        v
    };
    let refused = tokio_tungstenite::connect_async(format!("ws://{}/ws", server.addr)).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => assert_eq!(r.status(), 429),
        other => panic!("expected 429, got {:?}", other.map(|_| ())),
    }
}

#[tokio::test]
async fn behind_a_trusted_proxy_connections_count_against_the_forwarded_address() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let dir = tempfile::tempdir().unwrap();
    let config =
        Config { max_conns_per_ip: 2, trusted_proxies: vec!["127.0.0.1".parse().unwrap()], ..Config::default() };
    let server = start(&dir.path().join("db.sqlite3"), config, None).await;
    let connect = |forwarded: &'static str| {
        let mut request = format!("ws://{}/ws", server.addr).into_client_request().unwrap();
        request.headers_mut().insert("x-forwarded-for", forwarded.parse().unwrap());
        tokio_tungstenite::connect_async(request)
    };
    let status = |r: Result<_, tokio_tungstenite::tungstenite::Error>| match r {
        Ok(_) => 101,
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => r.status().as_u16(),
        Err(e) => panic!("{e}"),
    };
    // Two players behind the same proxy (one loopback peer): each has its own two connections.
    let mut open = Vec::new();
    for forwarded in ["203.0.113.7", "203.0.113.7", "203.0.113.8", "1.1.1.1, 203.0.113.8"] {
        open.push(connect(forwarded).await.unwrap());
    }
    assert_eq!(status(connect("203.0.113.7").await.map(|_| ())), 429, "a third from the same client");
    // What the client wrote before the proxy's entry counts for nothing.
    assert_eq!(status(connect("198.51.100.1, 203.0.113.8").await.map(|_| ())), 429);
    assert_eq!(status(connect("203.0.113.9").await.map(|_| ())), 101, "another client still gets in");
    drop(open);
}

#[tokio::test]
async fn hello_comes_first_with_the_right_version() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir.path().join("db.sqlite3"), fast(), None).await;
    let mut c = Client::raw(server.addr).await;
    c.send(&ClientMsg::Hello { version: PROTOCOL_VERSION + 1 }).await;
    assert_eq!(c.error().await, ErrorCode::VersionMismatch);
    assert!(c.try_recv().await.is_none());
    let mut c = Client::raw(server.addr).await;
    c.send(&ClientMsg::Ping).await;
    assert_eq!(c.error().await, ErrorCode::HelloFirst);
    assert!(c.try_recv().await.is_none());
    let mut c = Client::connect(server.addr).await;
    c.send(&ClientMsg::Resign).await;
    assert_eq!(c.error().await, ErrorCode::NotInGame);
    c.send(&ClientMsg::Create {
        board: Board::Tsivy,
        rules: "relay=sideways".into(),
        colour: fanorona_net::ColourChoice::Black,
        name: String::new(),
    })
    .await;
    assert_eq!(c.error().await, ErrorCode::BadRules);
}

#[tokio::test]
async fn invites_seat_one_player_and_quick_match_pairs_two() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir.path().join("db.sqlite3"), fast(), None).await;
    let mut a = Client::connect(server.addr).await;
    a.send(&ClientMsg::Create {
        board: Board::Dimy,
        rules: "first=black".into(),
        colour: fanorona_net::ColourChoice::Black,
        name: String::new(),
    })
    .await;
    let ServerMsg::Created { invite, .. } = a.recv().await else { panic!() };
    let s = a.state().await;
    assert_eq!(s.to_move, Some(Colour::Black));
    assert!(s.record.contains("[Variant \"5x5\"]"));
    let mut b = Client::connect(server.addr).await;
    b.send(&ClientMsg::Join { invite: invite.clone(), name: "B".into() }).await;
    assert!(matches!(b.recv().await, ServerMsg::Seated { colour: Colour::White, .. }));
    let mut c = Client::connect(server.addr).await;
    c.send(&ClientMsg::Join { invite, name: "C".into() }).await;
    assert_eq!(c.error().await, ErrorCode::UnknownGame);

    let mut q1 = Client::connect(server.addr).await;
    q1.send(&ClientMsg::QuickMatch { board: Board::Tsivy, name: "Q1".into() }).await;
    assert_eq!(q1.recv().await, ServerMsg::Queued { board: Board::Tsivy });
    q1.send(&ClientMsg::Create {
        board: Board::Tsivy,
        rules: String::new(),
        colour: fanorona_net::ColourChoice::White,
        name: String::new(),
    })
    .await;
    assert_eq!(q1.error().await, ErrorCode::AlreadyInGame);
    c.send(&ClientMsg::QuickMatch { board: Board::Tsivy, name: "Q2".into() }).await;
    let ServerMsg::Seated { colour: c1, spectate: w1, .. } = q1.recv().await else { panic!() };
    let ServerMsg::Seated { colour: c2, spectate: w2, .. } = c.recv().await else { panic!() };
    assert_eq!(c1, c2.opponent());
    // Both players get the game's spectator token, and it lets a friend watch.
    let watch = w1.expect("a quick match's seat carries the spectator token");
    assert_eq!(w2.as_deref(), Some(watch.as_str()));
    let s = q1.state().await;
    assert!(s.white.taken && s.black.taken);
    let (mut white, mut black) = if c1 == Colour::White { (q1, c) } else { (c, q1) };
    white.send(&ClientMsg::Turn { ply: 0, turn: "d3-e3A".into() }).await;
    assert_eq!(black.turn_played(0).await, "d3-e3A");
    white.turn_played(0).await;
    let mut friend = Client::connect(server.addr).await;
    friend.send(&ClientMsg::Spectate { token: watch }).await;
    assert!(matches!(friend.recv().await, ServerMsg::Spectating { .. }));
    let s = friend.state().await;
    assert_eq!((s.you, s.ply), (Role::Spectator, 1));
    let mut names = [s.white.name, s.black.name];
    names.sort();
    assert_eq!(names, ["Q1", "Q2"]);
}

#[tokio::test]
async fn a_client_of_protocol_1_still_plays_and_reads_only_what_it_knows() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir.path().join("db.sqlite3"), fast(), None).await;
    let mut old = Client::raw(server.addr).await;
    old.send_text(r#"{"type":"hello","version":1}"#).await;
    assert_eq!(old.recv_text().await, r#"{"type":"welcome","version":1}"#);
    old.send_text(r#"{"type":"quick_match","board":"5x5","name":"Old"}"#).await;
    old.recv_text().await; // queued
    let mut new = Client::connect(server.addr).await;
    new.send(&ClientMsg::QuickMatch { board: Board::Dimy, name: "New".into() }).await;
    let ServerMsg::Seated { spectate, .. } = new.recv().await else { panic!() };
    assert!(spectate.is_some());
    // Protocol 1's seat message has exactly its four fields, which its clients' strict parser accepts.
    let seated: serde_json::Value = serde_json::from_str(&old.recv_text().await).unwrap();
    let mut keys: Vec<&str> = seated.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["colour", "game", "token", "type"]);
    assert_eq!(seated["type"], "seated");
    // A second hello does not change the version either.
    old.send_text(r#"{"type":"hello","version":2}"#).await;
    loop {
        let text = old.recv_text().await;
        if text.contains("welcome") {
            assert_eq!(text, r#"{"type":"welcome","version":1}"#);
            break;
        }
    }
    let mut c = Client::raw(server.addr).await;
    c.send(&ClientMsg::Hello { version: MIN_PROTOCOL_VERSION - 1 }).await;
    assert_eq!(c.error().await, ErrorCode::VersionMismatch);
}

#[tokio::test]
async fn draws_takebacks_and_resignation() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir.path().join("db.sqlite3"), fast(), None).await;
    let mut p = pair(server.addr).await;
    let offer = |kind, by| ServerMsg::Offer { kind, by };

    // Takeback: White plays, asks, Black declines, White asks again, Black accepts: the turn is gone.
    p.black.send(&ClientMsg::RequestTakeback).await;
    assert_eq!(p.black.error().await, ErrorCode::NothingToAnswer);
    p.white.send(&ClientMsg::Turn { ply: 0, turn: "d3-e3A".into() }).await;
    p.black.turn_played(0).await;
    p.white.turn_played(0).await;
    p.white.send(&ClientMsg::RequestTakeback).await;
    assert_eq!(p.black.recv().await, offer(OfferKind::Takeback, Colour::White));
    p.black.send(&ClientMsg::DeclineTakeback).await;
    assert!(matches!(p.white.recv_until(|m| matches!(m, ServerMsg::Declined { .. }).then_some(())).await, ()));
    p.white.send(&ClientMsg::RequestTakeback).await;
    p.black.recv_until(|m| matches!(m, ServerMsg::Offer { .. }).then_some(())).await;
    p.white.send(&ClientMsg::AcceptTakeback).await;
    assert_eq!(p.white.error().await, ErrorCode::NothingToAnswer);
    p.black.send(&ClientMsg::AcceptTakeback).await;
    let s = p.white.state().await;
    assert_eq!((s.ply, s.to_move), (0, Some(Colour::White)));
    assert_eq!(Record::load(&s.record).unwrap().turns(), &[] as &[Turn]);

    // Draw: offered, declined, offered again and accepted.
    p.white.send(&ClientMsg::AcceptDraw).await;
    assert_eq!(p.white.error().await, ErrorCode::NothingToAnswer);
    p.white.send(&ClientMsg::OfferDraw).await;
    assert_eq!(
        p.black.recv_until(|m| matches!(m, ServerMsg::Offer { .. }).then(|| m.clone())).await,
        offer(OfferKind::Draw, Colour::White)
    );
    p.black.send(&ClientMsg::DeclineDraw).await;
    p.white.recv_until(|m| matches!(m, ServerMsg::Declined { kind: OfferKind::Draw, .. }).then_some(())).await;
    p.black.send(&ClientMsg::OfferDraw).await;
    p.white.recv_until(|m| matches!(m, ServerMsg::Offer { .. }).then_some(())).await;
    p.white.send(&ClientMsg::AcceptDraw).await;
    let s = p.black.state().await;
    assert_eq!((s.result.as_str(), s.termination.as_str(), s.to_move), ("1/2-1/2", "agreement", None));
    p.black.send(&ClientMsg::Resign).await;
    assert_eq!(p.black.error().await, ErrorCode::GameOver);

    // Resignation, in a new game.
    let mut q = pair(server.addr).await;
    q.black.send(&ClientMsg::Resign).await;
    let s = q.white.state().await;
    assert_eq!((s.result.as_str(), s.termination.as_str()), ("1-0", "resignation"));
}

/// A client back in the seat of `token` on a server that may still be starting, and the spectator code it got.
async fn resume_when_up(addr: std::net::SocketAddr, token: &str) -> (Client, Option<String>) {
    let mut backoff = Backoff::new(2);
    loop {
        if let Ok((ws, _)) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await {
            let mut c = Client { ws };
            c.send(&ClientMsg::Hello { version: PROTOCOL_VERSION }).await;
            c.recv().await;
            c.send(&ClientMsg::Resume { token: token.to_string() }).await;
            let ServerMsg::Seated { spectate, .. } = c.recv().await else { panic!("not seated") };
            return (c, spectate);
        }
        tokio::time::sleep(Duration::from_millis(backoff.next_delay_ms())).await;
    }
}

#[tokio::test]
async fn standing_offers_survive_a_killed_server() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite3");
    let server = spawn_binary(&db, 0);
    let addr = server.addr;
    let mut p = pair(addr).await;
    p.white.send(&ClientMsg::Turn { ply: 0, turn: "d3-e3A".into() }).await;
    p.white.turn_played(0).await;
    p.black.turn_played(0).await;
    // Each offer is broadcast only once stored, so seeing both means both are on disk. One after the other: the
    // two players' messages on their own connections would reach the server in either order.
    p.white.send(&ClientMsg::RequestTakeback).await;
    for c in [&mut p.white, &mut p.black] {
        c.recv_until(|m| matches!(m, ServerMsg::Offer { kind: OfferKind::Takeback, .. }).then_some(())).await;
    }
    p.black.send(&ClientMsg::OfferDraw).await;
    for c in [&mut p.white, &mut p.black] {
        c.recv_until(|m| matches!(m, ServerMsg::Offer { kind: OfferKind::Draw, .. }).then_some(())).await;
    }
    drop(server);

    let server = spawn_binary(&db, addr.port());
    p.white = resume_when_up(addr, &p.white_token).await.0;
    p.black = resume_when_up(addr, &p.black_token).await.0;
    for c in [&mut p.white, &mut p.black] {
        let s = c.state().await;
        assert_eq!((s.ply, s.draw_offer, s.takeback_request), (1, Some(Colour::Black), Some(Colour::White)));
    }
    // The restored offers can be answered: the takeback is granted, which also clears the draw offer.
    p.black.send(&ClientMsg::AcceptTakeback).await;
    let s = p.white.state().await;
    assert_eq!((s.ply, s.draw_offer, s.takeback_request), (0, None, None));
    drop(server);

    // And what was cleared stays cleared.
    let _server = spawn_binary(&db, addr.port());
    let mut white = resume_when_up(addr, &p.white_token).await.0;
    let s = white.state().await;
    assert_eq!((s.ply, s.draw_offer, s.takeback_request), (0, None, None));
}

#[tokio::test]
async fn the_web_build_is_served_precompressed() {
    let dir = tempfile::tempdir().unwrap();
    let web = dir.path().join("dist");
    std::fs::create_dir(&web).unwrap();
    std::fs::write(web.join("index.html"), "<html>fanorona</html>").unwrap();
    std::fs::write(web.join("app.js"), "plain").unwrap();
    std::fs::write(web.join("app.js.br"), "brotli bytes").unwrap();
    std::fs::write(web.join("app.js.gz"), "gzip bytes").unwrap();
    let server = start(&dir.path().join("db.sqlite3"), fast(), Some(&web)).await;
    let get = async |path: &str, accept: &str| {
        let mut s = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        let req = format!("GET {path} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: {accept}\r\nConnection: close\r\n\r\n");
        s.write_all(req.as_bytes()).await.unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).await.unwrap();
        out.to_lowercase()
    };
    let br = get("/app.js", "gzip, br").await;
    assert!(br.contains("content-encoding: br") && br.ends_with("brotli bytes"), "{br}");
    assert!(br.contains("vary: accept-encoding") && br.contains("cache-control: no-cache"), "{br}");
    let gz = get("/app.js", "gzip").await;
    assert!(gz.contains("content-encoding: gzip") && gz.ends_with("gzip bytes"), "{gz}");
    let plain = get("/app.js", "identity").await;
    assert!(plain.ends_with("plain"));
    assert!(get("/", "identity").await.contains("<html>fanorona</html>"));
    assert!(get("/healthz", "identity").await.ends_with("ok"));
}

#[tokio::test]
async fn oversized_idle_and_badly_named_clients_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let config =
        Config { idle_timeout: Duration::from_millis(600), hello_timeout: Duration::from_millis(300), ..fast() };
    let server = start(&dir.path().join("db.sqlite3"), config, None).await;
    // A name with a line break (or too long) is refused; the game is not created.
    let mut c = Client::connect(server.addr).await;
    c.send(&ClientMsg::QuickMatch { board: Board::Tsivy, name: "Ra\nsoa".into() }).await;
    assert_eq!(c.error().await, ErrorCode::InvalidField);
    c.send(&ClientMsg::Join { invite: "x".repeat(40), name: String::new() }).await;
    assert_eq!(c.error().await, ErrorCode::InvalidField);
    // A message over the size limit is refused as too large, and the connection closed.
    c.send_text(&format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(8 * 1024))).await;
    assert_eq!(c.error().await, ErrorCode::TooLarge);
    assert!(c.try_recv().await.is_none());
    // Silence closes a connection: before the hello, and after it.
    let mut quiet = Client::raw(server.addr).await;
    assert!(quiet.try_recv().await.is_none());
    let mut idle = Client::connect(server.addr).await;
    tokio::time::sleep(Duration::from_millis(150)).await;
    idle.send(&ClientMsg::Ping).await;
    assert_eq!(idle.recv().await, ServerMsg::Pong);
    assert!(idle.try_recv().await.is_none(), "closed 600 ms after the last message");
}

/// A client that created a friend game (White), with the game id and the invite code it got.
async fn created(addr: std::net::SocketAddr) -> (Client, String, String) {
    let mut c = Client::connect(addr).await;
    let create =
        ClientMsg::Create { board: Board::Tsivy, rules: String::new(), colour: ColourChoice::White, name: "A".into() };
    c.send(&create).await;
    let ServerMsg::Created { game, invite, .. } = c.recv().await else { panic!("expected created") };
    (c, game, invite)
}

/// Sends a join and returns the seat's colour, or the error's code.
async fn join(c: &mut Client, invite: &str) -> Result<Colour, ErrorCode> {
    c.send(&ClientMsg::Join { invite: invite.to_string(), name: "B".into() }).await;
    c.recv_until(|m| match m {
        ServerMsg::Seated { colour, .. } => Some(Ok(*colour)),
        ServerMsg::Error { code, .. } => Some(Err(*code)),
        _ => None,
    })
    .await
}

/// `code` with its first character replaced by another of the alphabet: a wrong code of the right form.
fn wrong(code: &str) -> String {
    let first = if code.starts_with('7') { 'K' } else { '7' };
    format!("{first}{}", &code[1..])
}

#[tokio::test]
async fn invites_are_short_codes_read_back_as_people_type_them() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir.path().join("db.sqlite3"), fast(), None).await;
    let (mut a, _, invite) = created(server.addr).await;
    a.state().await;
    assert_eq!(invite.len(), INVITE_CHARS);
    assert!(invite.chars().all(|c| INVITE_ALPHABET.contains(c)), "{invite}");
    // A wrong code of the right form is refused, and the seat stays free.
    let mut b = Client::connect(server.addr).await;
    assert_eq!(join(&mut b, &wrong(&invite)).await, Err(ErrorCode::UnknownGame));
    // Read out and typed: grouped with spaces and a hyphen, in lower case, with O for 0 and l for 1.
    let shown = fanorona_net::format_invite(&invite);
    let typed = format!(" {} ", shown.to_lowercase().replace('-', " - ").replace('0', "o").replace('1', "l"));
    assert_eq!(join(&mut b, &typed).await, Ok(Colour::Black), "{typed:?}");
    assert!(a.state().await.black.taken);
    // Once used, the code seats nobody else.
    let mut c = Client::connect(server.addr).await;
    assert_eq!(join(&mut c, &invite).await, Err(ErrorCode::UnknownGame));
}

#[tokio::test]
async fn invites_expire() {
    let dir = tempfile::tempdir().unwrap();
    // With no time to live, an invite is refused once the clock's second has turned.
    let config = Config { invite_ttl: Duration::ZERO, ..fast() };
    let server = start(&dir.path().join("zero.sqlite3"), config, None).await;
    let (_a, _, invite) = created(server.addr).await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let mut b = Client::connect(server.addr).await;
    assert_eq!(join(&mut b, &invite).await, Err(ErrorCode::UnknownGame));

    // With the default day, the games table's creation time decides: a game made 23 hours ago can still be joined,
    // one made a day and a bit ago cannot (its age is set in the database, as a restarted server would find it).
    assert_eq!(Config::default().invite_ttl, Duration::from_secs(24 * 60 * 60));
    let path = dir.path().join("day.sqlite3");
    let server = start(&path, fast(), None).await;
    let (_old, old_game, old_invite) = created(server.addr).await;
    let (_recent, recent_game, recent_invite) = created(server.addr).await;
    let db = rusqlite::Connection::open(&path).unwrap();
    let age = |game: &str, seconds: i64| {
        db.execute("UPDATE games SET created_at = created_at - ?2 WHERE id = ?1", rusqlite::params![game, seconds])
            .unwrap();
    };
    age(&old_game, 24 * 60 * 60 + 2);
    age(&recent_game, 23 * 60 * 60);
    let mut b = Client::connect(server.addr).await;
    assert_eq!(join(&mut b, &old_invite).await, Err(ErrorCode::UnknownGame));
    assert_eq!(join(&mut b, &recent_invite).await, Ok(Colour::Black));
}

/// A client that says hello through a trusted proxy (the server's loopback peer) on behalf of `forwarded`.
async fn connect_from(addr: std::net::SocketAddr, forwarded: &str) -> Client {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
    request.headers_mut().insert("x-forwarded-for", forwarded.parse().unwrap());
    let (ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    let mut c = Client { ws };
    c.send(&ClientMsg::Hello { version: PROTOCOL_VERSION }).await;
    assert_eq!(c.recv().await, ServerMsg::Welcome { version: PROTOCOL_VERSION });
    c
}

#[tokio::test]
async fn an_address_that_tries_wrong_invite_codes_is_refused_even_the_right_one() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config { max_failed_joins: 3, trusted_proxies: vec!["127.0.0.1".parse().unwrap()], ..fast() };
    let server = start(&dir.path().join("db.sqlite3"), config, None).await;
    let (_a, _, first) = created(server.addr).await;
    let (_b, _, second) = created(server.addr).await;
    let guesser = "203.0.113.7";
    let mut g = connect_from(server.addr, guesser).await;
    for _ in 0..2 {
        assert_eq!(join(&mut g, &wrong(&first)).await, Err(ErrorCode::UnknownGame));
    }
    // A successful join from the same address does not count...
    let mut friend = connect_from(server.addr, guesser).await;
    assert_eq!(join(&mut friend, &first).await, Ok(Colour::Black));
    // ... so a third wrong code is still looked up and refused as unknown,
    assert_eq!(join(&mut g, &wrong(&second)).await, Err(ErrorCode::UnknownGame));
    // and past it every join from the address is refused, the right code included, on any of its connections, with
    // a message that says how long to wait.
    g.send(&ClientMsg::Join { invite: second.clone(), name: String::new() }).await;
    let (code, message) = g
        .recv_until(|m| match m {
            ServerMsg::Error { code, message } => Some((*code, message.clone())),
            _ => None,
        })
        .await;
    assert_eq!(code, ErrorCode::RateLimited);
    assert!(message.contains("wrong invite codes") && message.contains("10 minutes"), "{message}");
    let mut again = connect_from(server.addr, guesser).await;
    assert_eq!(join(&mut again, &second).await, Err(ErrorCode::RateLimited));
    // The refusals did not use the invite, and another address is not concerned.
    let mut other = connect_from(server.addr, "203.0.113.8").await;
    assert_eq!(join(&mut other, &second).await, Ok(Colour::Black));
}
