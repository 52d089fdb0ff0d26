//! Two servers on one PostgreSQL database (a throw-away cluster): a game with each player on a different server, a
//! quick match across servers, and a server killed with SIGKILL mid-game whose player resumes on the other with
//! every acknowledged turn there.

mod common;

use common::postgres::PgCluster;
use common::{Client, InProcess, play_random, spawn_binary, start_with};
use fanorona_net::{Board, ClientMsg, Colour, ColourChoice, ErrorCode, GameState, OfferKind, Role, ServerMsg};
use fanorona_rules::record::Record;
use fanorona_rules::{Game, Rules, Side, Turn};
use fanorona_server::Config;
use fanorona_server::store::Store;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::net::SocketAddr;
use std::time::Duration;

fn fast() -> Config {
    Config { msgs_per_sec: 1000.0, burst: 1000.0, ..Config::default() }
}

/// Two servers in this process on one new database of `cluster`.
async fn two_servers(cluster: &PgCluster, name: &str) -> (InProcess, InProcess) {
    let url = cluster.database(name).await;
    let a = start_with(Store::open(&url).await.unwrap(), fast(), None).await;
    let b = start_with(Store::open(&url).await.unwrap(), fast(), None).await;
    (a, b)
}

/// White creates on `a`, Black joins on `b`; returns both clients, both tokens and the spectator token.
async fn pair_across(a: SocketAddr, b: SocketAddr) -> (Client, Client, String, String, String) {
    let mut white = Client::connect(a).await;
    let create = ClientMsg::Create {
        board: Board::Tsivy,
        rules: String::new(),
        colour: ColourChoice::White,
        name: "Rasoa".into(),
    };
    white.send(&create).await;
    let ServerMsg::Created { token: white_token, invite, spectate, .. } = white.recv().await else {
        panic!("expected created")
    };
    white.state().await;
    let mut black = Client::connect(b).await;
    black.send(&ClientMsg::Join { invite, name: "Be".into() }).await;
    let ServerMsg::Seated { token: black_token, colour, .. } = black.recv().await else { panic!("expected seated") };
    assert_eq!(colour, Colour::Black);
    let s = black.state().await;
    assert!(s.black.taken && s.black.connected);
    assert_eq!(s.white.name, "Rasoa");
    // White, on the other server, learns that the seat was taken by Be and that Be is there (the seat and the
    // presence may come in either order: one is read from the database, the other told directly).
    let (mut name, mut connected) = (String::new(), false);
    white
        .recv_until(|m| {
            match m {
                ServerMsg::State(s) if s.black.taken => (name, connected) = (s.black.name.clone(), s.black.connected),
                ServerMsg::Presence { colour: Colour::Black, connected: c } => connected = *c,
                _ => {}
            }
            (!name.is_empty() && connected).then_some(())
        })
        .await;
    assert_eq!(name, "Be");
    (white, black, white_token, black_token, spectate)
}

fn turns_of(state: &GameState) -> Vec<Turn> {
    Record::load(&state.record).unwrap().turns().to_vec()
}

#[tokio::test]
async fn a_whole_game_with_each_player_on_a_different_server() {
    let Some(cluster) = PgCluster::start() else { return };
    let (a, b) = two_servers(&cluster, "whole").await;
    let (mut white, mut black, _, _, spectate) = pair_across(a.addr, b.addr).await;
    // A spectator on each server.
    let mut watchers = Vec::new();
    for addr in [a.addr, b.addr] {
        let mut w = Client::connect(addr).await;
        w.send(&ClientMsg::Spectate { token: spectate.clone() }).await;
        assert!(matches!(w.recv().await, ServerMsg::Spectating { .. }));
        assert_eq!(w.state().await.you, Role::Spectator);
        watchers.push(w);
    }

    let mut game = Game::new(Rules::default());
    let mut rng = SmallRng::seed_from_u64(3);
    play_random(&mut white, &mut black, &mut game, &mut rng, 10).await;

    // A draw offered on one server is declined on the other; a takeback asked on one is granted on the other.
    white.send(&ClientMsg::OfferDraw).await;
    let offer = |kind| move |m: &ServerMsg| matches!(m, ServerMsg::Offer { kind: k, .. } if *k == kind).then_some(());
    black.recv_until(offer(OfferKind::Draw)).await;
    black.send(&ClientMsg::DeclineDraw).await;
    white
        .recv_until(|m| matches!(m, ServerMsg::Declined { kind: OfferKind::Draw, by: Colour::Black }).then_some(()))
        .await;
    let asker_is_white = game.position().side_to_move() == Side::Black;
    let (asker, answerer) = if asker_is_white { (&mut white, &mut black) } else { (&mut black, &mut white) };
    asker.send(&ClientMsg::RequestTakeback).await;
    answerer.recv_until(offer(OfferKind::Takeback)).await;
    answerer.send(&ClientMsg::AcceptTakeback).await;
    let after = asker.state().await;
    assert_eq!(after.ply, 9);
    game.undo().unwrap();
    assert_eq!(turns_of(&after), game.turns());
    assert_eq!(answerer.state().await.record, after.record);

    play_random(&mut white, &mut black, &mut game, &mut rng, 1000).await;
    assert!(game.is_over());
    let end = white.state().await;
    assert_eq!(turns_of(&end), game.turns());
    assert_eq!(black.state().await.record, end.record);
    for w in &mut watchers {
        let seen = w.recv_until(|m| match m {
            ServerMsg::State(s) if s.to_move.is_none() => Some(s.clone()),
            _ => None,
        });
        assert_eq!(seen.await.record, end.record);
    }

    // Presence crosses servers too: Black leaves, White hears it.
    drop(black);
    white
        .recv_until(|m| matches!(m, ServerMsg::Presence { colour: Colour::Black, connected: false }).then_some(()))
        .await;
}

#[tokio::test]
async fn both_servers_refuse_what_one_would() {
    let Some(cluster) = PgCluster::start() else { return };
    let (a, b) = two_servers(&cluster, "refuse").await;
    let (mut white, mut black, white_token, _, _) = pair_across(a.addr, b.addr).await;
    // Black may not play White's turn on its own server; White's stale or illegal turns are refused on White's.
    black.send(&ClientMsg::Turn { ply: 0, turn: "d3-e3A".into() }).await;
    assert_eq!(black.error().await, ErrorCode::NotYourTurn);
    white.send(&ClientMsg::Turn { ply: 0, turn: "a1-b1".into() }).await;
    assert_eq!(white.error().await, ErrorCode::IllegalTurn);
    white.send(&ClientMsg::Turn { ply: 0, turn: "d3-e3A".into() }).await;
    assert_eq!(black.turn_played(0).await, "d3-e3A");
    // White's seat resumed on the other server: the connection on the first server gives way.
    let mut white2 = Client::connect(b.addr).await;
    white2.send(&ClientMsg::Resume { token: white_token }).await;
    white2.recv_until(|m| matches!(m, ServerMsg::Seated { .. }).then_some(())).await;
    let s = white2.state().await;
    assert_eq!(s.ply, 1);
    assert!(
        tokio::time::timeout(Duration::from_secs(5), async {
            loop {
                if white.try_recv().await.is_none() {
                    return;
                }
            }
        })
        .await
        .is_ok(),
        "the first connection was closed"
    );
    black.send(&ClientMsg::Turn { ply: 1, turn: "f4-f3A".into() }).await;
    assert_eq!(white2.turn_played(1).await, "f4-f3A");
    black.send(&ClientMsg::Turn { ply: 1, turn: "f4-f3A".into() }).await;
    assert_eq!(black.error().await, ErrorCode::NotYourTurn);
    assert_eq!(white2.sync().await.record, black.sync().await.record);
}

#[tokio::test]
async fn quick_match_pairs_players_waiting_on_different_servers() {
    let Some(cluster) = PgCluster::start() else { return };
    let (a, b) = two_servers(&cluster, "quick").await;
    // A player who waits and gives up is not paired.
    let mut gone = Client::connect(a.addr).await;
    gone.send(&ClientMsg::QuickMatch { board: Board::Tsivy, name: "Gone".into() }).await;
    assert_eq!(gone.recv().await, ServerMsg::Queued { board: Board::Tsivy });
    gone.send(&ClientMsg::CancelQuickMatch).await;
    gone.send(&ClientMsg::Ping).await;
    assert_eq!(gone.recv().await, ServerMsg::Pong);

    let mut first = Client::connect(a.addr).await;
    first.send(&ClientMsg::QuickMatch { board: Board::Tsivy, name: "First".into() }).await;
    assert_eq!(first.recv().await, ServerMsg::Queued { board: Board::Tsivy });
    // Another board's queue is another queue.
    let mut small = Client::connect(b.addr).await;
    small.send(&ClientMsg::QuickMatch { board: Board::Dimy, name: "Small".into() }).await;
    assert_eq!(small.recv().await, ServerMsg::Queued { board: Board::Dimy });

    let mut second = Client::connect(b.addr).await;
    second.send(&ClientMsg::QuickMatch { board: Board::Tsivy, name: "Second".into() }).await;
    let seated = |m: &ServerMsg| match m {
        ServerMsg::Seated { game, colour, .. } => Some((game.clone(), *colour)),
        _ => None,
    };
    let (game2, colour2) = second.recv_until(seated).await;
    let (game1, colour1) = first.recv_until(seated).await;
    assert_eq!(game1, game2);
    assert_ne!(colour1, colour2);
    let s1 = first.state().await;
    assert_eq!((s1.white.name.as_str(), s1.black.name.as_str()) == ("First", "Second"), colour1 == Colour::White);
    second.state().await;
    // The game is played across the servers.
    let (mut white, mut black) = if colour1 == Colour::White { (first, second) } else { (second, first) };
    let mut game = Game::new(Rules::default());
    play_random(&mut white, &mut black, &mut game, &mut SmallRng::seed_from_u64(8), 6).await;
    assert_eq!(turns_of(&white.sync().await), game.turns());
    drop(small);
}

#[tokio::test]
async fn a_killed_server_s_player_resumes_on_the_other_with_every_acknowledged_turn() {
    let Some(cluster) = PgCluster::start() else { return };
    let url = cluster.database("killed").await;
    let a = spawn_binary(&url, 0);
    let b = spawn_binary(&url, 0);
    let (mut white, mut black, white_token, _, _) = pair_across(a.addr, b.addr).await;
    let mut game = Game::new(Rules::default());
    let mut rng = SmallRng::seed_from_u64(21);
    play_random(&mut white, &mut black, &mut game, &mut rng, 8).await;
    // White's ninth turn is acknowledged by its server, which is then killed at once.
    let ply = game.turns().len() as u32;
    let turn = game.position().legal_turns()[0].clone();
    game.play_turn(&turn).unwrap();
    white.send(&ClientMsg::Turn { ply, turn: turn.to_string() }).await;
    assert_eq!(white.turn_played(ply).await, turn.to_string());
    drop(a);
    assert!(white.try_recv().await.is_none(), "the connection dies with its server");
    // Black, on the other server, got the turn.
    assert_eq!(black.turn_played(ply).await, turn.to_string());

    // White resumes on the other server, with every acknowledged turn there.
    let mut white = Client::connect(b.addr).await;
    white.send(&ClientMsg::Resume { token: white_token }).await;
    white.recv_until(|m| matches!(m, ServerMsg::Seated { .. }).then_some(())).await;
    let s = white.state().await;
    assert_eq!(turns_of(&s), game.turns());
    assert_eq!(s.ply, 9);
    play_random(&mut white, &mut black, &mut game, &mut rng, 6).await;
    assert_eq!(turns_of(&black.sync().await), game.turns());
    drop(b);
}

/// A connection handle whose messages the test reads.
fn handle(id: u64) -> (fanorona_server::room::ConnHandle, tokio::sync::mpsc::Receiver<String>) {
    let (tx, rx) = tokio::sync::mpsc::channel(256);
    let kill = std::sync::Arc::new(tokio::sync::Notify::new());
    (fanorona_server::room::ConnHandle { id, tx, kill, version: fanorona_net::PROTOCOL_VERSION }, rx)
}

/// The messages queued for a handle so far.
fn drain(rx: &mut tokio::sync::mpsc::Receiver<String>) -> Vec<ServerMsg> {
    std::iter::from_fn(|| rx.try_recv().ok()).map(|t| fanorona_net::parse_server(&t).unwrap()).collect()
}

#[tokio::test]
async fn a_server_whose_copy_is_behind_decides_again_on_the_stored_game() {
    use fanorona_server::hub::{Hub, Placed};
    let Some(cluster) = PgCluster::start() else { return };
    let url = cluster.database("behind").await;
    // Two hubs on one database that hear nothing from each other (no notices): each one's copy of the game falls
    // behind every change the other makes, the worst case of a notice that has not arrived yet.
    let a = Hub::new(Store::open(&url).await.unwrap(), fast());
    let b = Hub::new(Store::open(&url).await.unwrap(), fast());
    let ip = "127.0.0.1".parse().unwrap();
    let (white, mut white_rx) = handle(1);
    let (black, mut black_rx) = handle(2);
    let Ok(Placed::Game(room_a, Role::White)) =
        a.create(&white, ip, Board::Tsivy, "", ColourChoice::White, "Rasoa".into()).await
    else {
        panic!("created")
    };
    let invite = drain(&mut white_rx)
        .into_iter()
        .find_map(|m| match m {
            ServerMsg::Created { invite, .. } => Some(invite),
            _ => None,
        })
        .unwrap();
    let Ok(Placed::Game(room_b, Role::Black)) = b.join(&black, ip, &invite, "Be".into()).await else {
        panic!("joined")
    };
    // A still thinks Black's seat is free, but reads the game again before refusing and plays the turn.
    a.turn(&room_a, Role::White, 0, "d3-e3A").await.unwrap();
    assert!(drain(&mut white_rx).iter().any(|m| matches!(m, ServerMsg::TurnPlayed { ply: 0, .. })));
    // B does not know that turn: Black's answer at ply 1 looks early to it until it reads the game again.
    b.turn(&room_b, Role::Black, 1, "f4-f3A").await.unwrap();
    let seen = drain(&mut black_rx);
    assert!(seen.iter().any(|m| matches!(m, ServerMsg::TurnPlayed { ply: 0, .. })), "{seen:?}");
    assert!(seen.iter().any(|m| matches!(m, ServerMsg::TurnPlayed { ply: 1, .. })), "{seen:?}");
    // A's draw offer is made from an old version: a conflict, then made again on the stored game.
    a.draw(&room_a, Role::White, None).await.unwrap();
    // A turn really not one's own is still refused, after the check (B's copy is behind the draw offer).
    assert_eq!(b.turn(&room_b, Role::Black, 2, "e3-f2W").await.unwrap_err().code, ErrorCode::NotYourTurn);
    assert_eq!(room_b.lock().await.draw_offer, Some(Side::White), "B read the game again");
    let stored = a.store.load(room_a.lock().await.id.clone()).await.unwrap().unwrap();
    assert_eq!(stored.turns, vec!["d3-e3A", "f4-f3A"]);
    assert_eq!(stored.draw_offer.as_deref(), Some("white"));
    assert_eq!(stored.version, 4);
}

#[tokio::test]
async fn healthz_says_when_the_shared_database_is_gone() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let Some(cluster) = PgCluster::start() else { return };
    let url = cluster.database("health").await;
    let server = start_with(Store::open(&url).await.unwrap(), fast(), None).await;
    let get = async || {
        let mut s = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).await.unwrap();
        out
    };
    let ok = get().await;
    assert!(ok.starts_with("HTTP/1.1 200") && ok.ends_with("ok"), "{ok}");
    drop(cluster);
    let down = get().await;
    assert!(down.starts_with("HTTP/1.1 503") && down.contains("unhealthy"), "{down}");
}
