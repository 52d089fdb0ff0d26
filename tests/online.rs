//! Online games between two headless app instances through a real `fanorona-server`, started in this process on a
//! free loopback port with a temporary database: creating and joining, a remote turn arriving as a `MoveRequest`, an
//! illegal turn refused (the server's state restoring the board), a resignation sent through the server, the
//! finished game counted under "online" and saved as a record, both players back in their seats after the server
//! restarts (with a turn played while it was down), one player cut off alone through a loopback relay, seen away
//! and back by the other, a quick match whose code to watch both players get and a friend uses, and failing over
//! through a list of server addresses: past a dead first address (or one that never answers) to a live server, and
//! from a server that dies to the next address, where both players resume their seats. Every wait is bounded.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use fanorona::LogicPlugin;
use fanorona::online::{self, Goal, Online, error_text};
use fanorona::play::referee::*;
use fanorona::save::persist::{self, PlayerStats};
use fanorona::save::storage::Storage;
use fanorona::state::Screen;
use fanorona_engine::{Game, GameResult, Side, Turn};
use fanorona_net::{Board, ColourChoice, ErrorCode};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest any one wait may take.
const WAIT: Duration = Duration::from_secs(10);

/// A server on a loopback port; it stops when dropped (with its runtime, closing every connection, and its
/// database folder unless the folder was lent to it).
struct Server {
    url: String,
    addr: std::net::SocketAddr,
    _runtime: tokio::runtime::Runtime,
    _dir: Option<tempfile::TempDir>,
}

/// A server on a free loopback port with a temporary database.
fn server() -> Server {
    let dir = tempfile::tempdir().unwrap();
    let mut server = server_at(dir.path(), "127.0.0.1:0".parse().unwrap());
    server._dir = Some(dir);
    server
}

/// A server on `addr` with the database in `dir` (kept when the server stops, so that another can take it over).
fn server_at(dir: &std::path::Path, addr: std::net::SocketAddr) -> Server {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let db = fanorona_server::db::Db::open(&dir.join("games.db")).unwrap();
    let addr = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr).await.unwrap();
        let addr = listener.local_addr().unwrap();
        let hub = Arc::new(fanorona_server::hub::Hub::new(db, fanorona_server::Config::default()));
        tokio::spawn(fanorona_server::serve(listener, hub, None));
        addr
    });
    Server { url: format!("ws://{addr}/ws"), addr, _runtime: runtime, _dir: None }
}

/// A loopback TCP relay in front of a server: a player connected through it can be cut off alone, while the
/// relay keeps listening for the player's return.
struct Relay {
    url: String,
    conns: Arc<std::sync::Mutex<Vec<tokio::task::AbortHandle>>>,
    _runtime: tokio::runtime::Runtime,
}

fn relay(to: std::net::SocketAddr) -> Relay {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let conns = Arc::new(std::sync::Mutex::new(Vec::new()));
    let tasks = conns.clone();
    let addr = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let task = tokio::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(to).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                tasks.lock().unwrap().push(task.abort_handle());
            }
        });
        addr
    });
    Relay { url: format!("ws://{addr}/ws"), conns, _runtime: runtime }
}

impl Relay {
    /// Drops every connection through the relay, as a network that fails would (both ends see it closed).
    fn cut(&self) {
        for task in self.conns.lock().unwrap().drain(..) {
            task.abort();
        }
    }
}

/// Every move request the app saw, to check that remote turns enter like any other.
#[derive(Resource, Default)]
struct SeenRequests(Vec<MoveAction>);

fn record_requests(mut requests: MessageReader<MoveRequest>, mut seen: ResMut<SeenRequests>) {
    seen.0.extend(requests.read().map(|r| r.action.clone()));
}

/// One player's game: the logic, saves and stats on a memory storage, and the online session.
fn player(storage: &Storage) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    persist::plugin(&mut app, storage.clone(), false);
    app.add_plugins(LogicPlugin);
    online::plugin(&mut app);
    app.init_resource::<SeenRequests>().add_systems(Update, record_requests.in_set(GameSet::Rules));
    app.update();
    app
}

/// Updates every app until `done` holds, for at most [`WAIT`].
fn drive(apps: &mut [&mut App], what: &str, done: impl Fn(&[&mut App]) -> bool) {
    drive_for(apps, what, WAIT, done);
}

/// Updates every app until `done` holds, for at most `limit`.
fn drive_for(apps: &mut [&mut App], what: &str, limit: Duration, done: impl Fn(&[&mut App]) -> bool) {
    let start = Instant::now();
    while !done(apps) {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        for app in apps.iter_mut() {
            app.update();
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn online(app: &App) -> &Online {
    app.world().resource::<Online>()
}

fn game(app: &App) -> &Game {
    app.world().resource::<GameState>().game()
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

fn start(app: &mut App, url: &str, name: &str, goal: Goal) {
    app.world_mut().resource_mut::<Online>().start(url, name, goal);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Online);
}

/// Plays a whole turn as the local player's input would end it.
fn play(app: &mut App, turn: &Turn) {
    app.world_mut().write_message(MoveRequest::new(MoveAction::Turn(turn.clone())));
}

/// A single-step turn (no relay left open), or the first.
fn some_turn(game: &Game, pick: usize) -> Turn {
    let turns = game.position().legal_turns();
    let singles: Vec<&Turn> = turns.iter().filter(|t| t.len() == 1).collect();
    if singles.is_empty() { turns[pick % turns.len()].clone() } else { singles[pick % singles.len()].clone() }
}

#[test]
fn a_game_between_two_apps_through_a_real_server() {
    let server = server();
    let (store_a, store_b) = (Storage::memory(), Storage::memory());
    let (mut a, mut b) = (player(&store_a), player(&store_b));

    // Ana creates a 5×5 game as White; Be joins with the invite code.
    start(&mut a, &server.url, "Ana", Goal::Create { board: Board::Dimy, colour: ColourChoice::White });
    drive(&mut [&mut a], "the invite", |apps| online(apps[0]).invite().is_some());
    assert_eq!(screen(&a), Screen::Online, "the creator waits for the friend on the online screen");
    let invite = online(&a).invite().unwrap().to_string();
    assert!(online(&a).invite_link().unwrap().ends_with(&format!("/?join={invite}")));
    // A short code, read out over the phone and typed by the friend in lower case as shown, hyphen and all.
    assert_eq!(invite.len(), fanorona_net::INVITE_CHARS, "{invite}");
    let typed = fanorona_net::format_invite(&invite).to_lowercase();
    assert!(typed.contains('-'), "{typed}");
    start(&mut b, &server.url, "Be", Goal::Join(fanorona::online::parse_invite(&typed).expect("an invite")));
    drive(&mut [&mut a, &mut b], "both seated in the game", |apps| {
        apps.iter().all(|app| screen(app) == Screen::Playing && online(app).in_game())
    });
    drive(&mut [&mut a, &mut b], "the fresh game on both boards", |apps| {
        apps.iter().all(|app| game(app).rules().variant == fanorona_engine::Variant::Dimy)
    });
    assert_eq!(a.world().resource::<MatchSetup>().players, [Player::Human, Player::Remote]);
    assert_eq!(b.world().resource::<MatchSetup>().players, [Player::Remote, Player::Human]);
    assert_eq!(online(&b).my_side(), Some(Side::Black));
    // The friend who joined can share the code to watch too.
    assert!(online(&a).spectate().is_some());
    assert_eq!(online(&b).spectate(), online(&a).spectate());

    // White's turn reaches Black as an ordinary move request; Black's reply reaches White.
    let first = some_turn(game(&a), 0);
    play(&mut a, &first);
    drive(&mut [&mut a, &mut b], "White's turn on Black's board", |apps| game(apps[1]).turns().len() == 1);
    assert_eq!(game(&b).turns()[0], first);
    assert!(b.world().resource::<SeenRequests>().0.contains(&MoveAction::Turn(first.clone())));
    let reply = some_turn(game(&b), 1);
    play(&mut b, &reply);
    drive(&mut [&mut a, &mut b], "Black's reply on White's board", |apps| game(apps[0]).turns().len() == 2);
    assert_eq!(game(&a).turns(), game(&b).turns());

    let server_game = game(&a).clone();

    // White's board drifts from the server's (the same number of turns, other turns); a turn legal there but
    // illegal in the real position is refused by the server, whose state puts White's board right.
    let mut drifted = Game::new(*server_game.rules());
    let starts = drifted.position().legal_turns();
    let other = starts.iter().rev().find(|t| **t != server_game.turns()[0] && t.len() == 1).unwrap().clone();
    drifted.play_turn(&other).unwrap();
    let answer = some_turn(&drifted, 0);
    drifted.play_turn(&answer).unwrap();
    let legal_on_server = server_game.position().legal_turns();
    let bad = drifted.position().legal_turns().into_iter().find(|t| !legal_on_server.contains(t)).unwrap();
    a.world_mut().write_message(LoadGame(drifted));
    a.update();
    play(&mut a, &bad);
    let refused = error_text(ErrorCode::IllegalTurn);
    drive(&mut [&mut a, &mut b], "the refusal and the server's game", |apps| {
        let now = apps[0].world().resource::<Time<Real>>().elapsed_secs_f64();
        online(apps[0]).notice(now) == Some(refused) && game(apps[0]).turns() == server_game.turns()
    });
    assert_eq!(game(&b).turns(), server_game.turns(), "the refused turn never reached Black");

    // Black resigns with the HUD's button: the rules refuse it locally, the server ends the game for both.
    b.world_mut().write_message(MoveRequest::new(MoveAction::Resign(Side::Black)));
    drive(&mut [&mut a, &mut b], "the resignation on both boards", |apps| {
        apps.iter().all(|app| game(app).outcome().is_some_and(|o| o.result() == GameResult::Win(Side::White)))
    });
    for _ in 0..3 {
        a.update();
        b.update();
    }

    // Counted apart from CPU and hot-seat games, and kept as a record.
    let tally = |app: &App| app.world().resource::<PlayerStats>().0.results.get("online").copied().unwrap_or_default();
    assert_eq!((tally(&a).wins, tally(&a).losses), (1, 0));
    assert_eq!((tally(&b).wins, tally(&b).losses), (0, 1));
    assert!(store_a.list_records().iter().any(|n| n.ends_with("-online")), "{:?}", store_a.list_records());
    let text = store_a.read_record(&store_a.list_records()[0]).unwrap().unwrap();
    assert!(text.contains("Ana") && text.contains("Be"), "{text}");
}

#[test]
fn bad_codes_and_unknown_games_are_refused_with_words() {
    let server = server();
    let storage = Storage::memory();
    let mut app = player(&storage);
    start(&mut app, &server.url, "", Goal::Join("0123456789abcdef0123456789abcdef".into()));
    drive(&mut [&mut app], "the refusal", |apps| online(apps[0]).failure().is_some());
    assert_eq!(online(&app).failure(), Some(error_text(ErrorCode::UnknownGame)));
    assert!(!online(&app).is_active(), "the session ends; the form shows why");
    assert_eq!(online::parse_code("12"), None);
}

/// Ana (White, through `white_url`) creates a 5×5 game and Be (Black, through `black_url`) joins it with the invite;
/// once both are seated and see each other connected, White plays a first turn that reaches Black's board.
fn seated_pair(white_url: &str, black_url: &str) -> (App, App) {
    let (mut a, mut b) = (player(&Storage::memory()), player(&Storage::memory()));
    start(&mut a, white_url, "Ana", Goal::Create { board: Board::Dimy, colour: ColourChoice::White });
    drive(&mut [&mut a], "the invite", |apps| online(apps[0]).invite().is_some());
    let invite = online(&a).invite().unwrap().to_string();
    start(&mut b, black_url, "Be", Goal::Join(invite));
    drive(&mut [&mut a, &mut b], "both seated, each seeing the other connected", |apps| {
        apps.iter().all(|app| {
            screen(app) == Screen::Playing
                && online(app).in_game()
                && online(app).server_state().is_some_and(|s| s.white.connected && s.black.connected)
        })
    });
    let first = some_turn(game(&a), 0);
    play(&mut a, &first);
    drive(&mut [&mut a, &mut b], "White's turn on Black's board", |apps| game(apps[1]).turns().len() == 1);
    (a, b)
}

#[test]
fn both_players_return_to_their_seats_after_the_server_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = server_at(dir.path(), "127.0.0.1:0".parse().unwrap());
    let (mut a, mut b) = seated_pair(&server.url, &server.url);
    let tokens = (online(&a).token().unwrap().to_string(), online(&b).token().unwrap().to_string());

    // The server goes down: both connections drop and both players wait to try again, still in the game.
    let addr = server.addr;
    drop(server);
    drive(&mut [&mut a, &mut b], "both connections lost", |apps| {
        apps.iter().all(|app| matches!(online(app).link(), online::Link::Retrying { .. }))
    });
    assert!(online(&a).in_game() && online(&b).in_game());

    // Black plays while the server is away: the turn waits to be sent.
    let reply = some_turn(game(&b), 1);
    play(&mut b, &reply);
    drive(&mut [&mut a, &mut b], "Black's turn on its own board", |apps| game(apps[1]).turns().len() == 2);

    // The server comes back on the same address with the same database: each player resumes its own seat (the
    // same token), Black's waiting turn reaches the server and then White, and the game goes on.
    server = server_at(dir.path(), addr);
    drive(&mut [&mut a, &mut b], "both back and Black's turn on White's board", |apps| {
        apps.iter().all(|app| online(app).link() == online::Link::Open) && game(apps[0]).turns().len() == 2
    });
    assert_eq!(game(&a).turns(), game(&b).turns());
    assert_eq!(game(&b).turns()[1], reply);
    assert_eq!((online(&a).token().unwrap(), online(&b).token().unwrap()), (tokens.0.as_str(), tokens.1.as_str()));
    assert_eq!(online(&a).my_side(), Some(Side::White));
    assert_eq!(online(&b).my_side(), Some(Side::Black));
    let third = some_turn(game(&a), 2);
    play(&mut a, &third);
    drive(&mut [&mut a, &mut b], "White's next turn on Black's board", |apps| game(apps[1]).turns().len() == 3);
    assert_eq!(game(&a).turns(), game(&b).turns());
    drop(server);
}

#[test]
fn a_player_cut_off_alone_is_seen_away_and_comes_back_to_the_game() {
    let server = server();
    let relay = relay(server.addr);
    let (mut a, mut b) = seated_pair(&server.url, &relay.url);

    // Black's network fails: White's seat list shows Black away; Black retries, still in the game.
    relay.cut();
    drive(&mut [&mut a, &mut b], "Black away for White, retrying for itself", |apps| {
        online(apps[0]).server_state().is_some_and(|s| !s.black.connected)
            && matches!(online(apps[1]).link(), online::Link::Retrying { .. })
    });
    assert_eq!(online(&a).link(), online::Link::Open, "White's own connection never dropped");
    assert!(online(&b).in_game());

    // Black comes back by itself: White sees it here again, and the game goes on from where it was.
    drive(&mut [&mut b], "Black's connection open again", |apps| online(apps[0]).link() == online::Link::Open);
    assert_eq!(game(&b).turns(), game(&a).turns());
    // Played at once, the turn may reach Black's board before the server's state of the resumed seat does: that
    // state is behind by the turn on its way, and Black's board keeps it all along.
    let reply = some_turn(game(&b), 1);
    play(&mut b, &reply);
    b.update();
    drive(&mut [&mut a, &mut b], "Black's reply on White's board", |apps| {
        assert_eq!(game(apps[1]).turns().len(), 2, "Black's own turn left its board");
        game(apps[0]).turns().len() == 2
    });
    drive(&mut [&mut a, &mut b], "Black seen back", |apps| {
        online(apps[0]).server_state().is_some_and(|s| s.black.connected)
    });
    for _ in 0..20 {
        a.update();
        b.update();
        assert_eq!(game(&b).turns().len(), 2, "Black's own turn left its board");
        std::thread::sleep(Duration::from_millis(2));
    }
    assert_eq!(game(&a).turns(), game(&b).turns());
}

#[test]
fn a_quick_match_gives_both_players_a_code_for_friends_to_watch() {
    let server = server();
    let stores = [Storage::memory(), Storage::memory(), Storage::memory()];
    let (mut a, mut b, mut c) = (player(&stores[0]), player(&stores[1]), player(&stores[2]));
    start(&mut a, &server.url, "Ana", Goal::QuickMatch(Board::Dimy));
    drive(&mut [&mut a], "Ana in the queue", |apps| online(apps[0]).queued());
    start(&mut b, &server.url, "Be", Goal::QuickMatch(Board::Dimy));
    drive(&mut [&mut a, &mut b], "both paired in the game", |apps| {
        apps.iter().all(|app| screen(app) == Screen::Playing && online(app).in_game())
    });
    // Nobody created the game, so both players get its spectator code; it is kept with the saved seat.
    let code = online(&a).spectate().expect("a quick match's code to watch").to_string();
    assert_eq!(online(&b).spectate(), Some(code.as_str()));
    assert_eq!(online(&a).seat().unwrap().spectate.as_deref(), Some(code.as_str()));
    assert!(online(&a).invite().is_none());

    // A friend given the code watches the game and sees its turns.
    start(&mut c, &server.url, "", Goal::Watch(code));
    drive(&mut [&mut a, &mut b, &mut c], "the friend watching", |apps| {
        online(apps[2]).in_game() && online(apps[2]).role() == Some(fanorona_net::Role::Spectator)
    });
    let white = if online(&a).my_side() == Some(Side::White) { &mut a } else { &mut b };
    let first = some_turn(game(white), 0);
    play(white, &first);
    drive(&mut [&mut a, &mut b, &mut c], "the first turn on the friend's board", |apps| {
        game(apps[2]).turns().len() == 1
    });
    assert_eq!(game(&c).turns()[0], first);
}

/// A loopback address where nothing listens (a port just freed): connecting there is refused at once.
fn dead_addr() -> std::net::SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap()
}

#[test]
fn a_dead_first_address_fails_over_to_the_live_server() {
    let server = server();
    let dead = dead_addr();
    // As a player would type them: a host and port, then the live server's address, after a comma.
    let servers = format!("127.0.0.1:{}, {}", dead.port(), server.url);
    let (mut a, mut b) = seated_pair(&servers, &servers);
    for app in [&a, &b] {
        assert_eq!(online(app).servers(), [format!("ws://{dead}/ws"), server.url.clone()]);
        assert_eq!(online(app).url(), server.url, "connected to the live server");
        assert_eq!(online(app).home_url(), server.url);
        assert_eq!(online(app).seat().unwrap().url, server.url, "the seat is kept with the address that worked");
    }
    // The invite went out with the live server's address, not the dead one listed first.
    assert!(online(&a).invite_link().unwrap().starts_with(&format!("http://{}/?join=", server.addr)));

    // The game goes on there: Black's reply reaches White.
    let reply = some_turn(game(&b), 1);
    play(&mut b, &reply);
    drive(&mut [&mut a, &mut b], "Black's reply on White's board", |apps| game(apps[0]).turns().len() == 2);
    assert_eq!(game(&a).turns(), game(&b).turns());
}

#[test]
fn a_server_that_never_answers_is_left_for_the_next_after_a_while() {
    let server = server();
    // Connections to it are taken by the system (the backlog) and never answered, as a server that hangs would.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let silent_url = format!("ws://{}/ws", silent.local_addr().unwrap());
    let mut app = player(&Storage::memory());
    let began = Instant::now();
    start(&mut app, &format!("{silent_url},{}", server.url), "Ana", Goal::QuickMatch(Board::Dimy));
    drive(&mut [&mut app], "the attempt on the silent server", |apps| {
        online(apps[0]).link() == online::Link::Connecting && online(apps[0]).url() == silent_url
    });
    let limit = Duration::from_secs_f64(online::CONNECT_SECS) + WAIT;
    drive_for(&mut [&mut app], "the quick-match queue on the live server", limit, |apps| online(apps[0]).queued());
    assert!(began.elapsed().as_secs_f64() >= online::CONNECT_SECS, "given up before its time");
    assert_eq!(online(&app).url(), server.url);
    drop(silent);
}

#[test]
fn seats_resume_on_the_next_listed_server_when_theirs_dies() {
    let dir = tempfile::tempdir().unwrap();
    let first = server_at(dir.path(), "127.0.0.1:0".parse().unwrap());
    let second_addr = dead_addr();
    let servers = format!("{} ws://{second_addr}/ws", first.url);
    let (mut a, mut b) = seated_pair(&servers, &servers);
    assert!([&a, &b].iter().all(|app| online(app).url() == first.url));
    let tokens = (online(&a).token().unwrap().to_string(), online(&b).token().unwrap().to_string());

    // The first server dies: both players lose it, and each tries it again and then the second address, where
    // nothing listens yet.
    drop(first);
    drive(&mut [&mut a, &mut b], "both connections lost and the second address tried", |apps| {
        apps.iter().all(|app| {
            matches!(online(app).link(), online::Link::Retrying { .. })
                && online(app).url() == format!("ws://{second_addr}/ws")
        })
    });
    assert!(online(&a).in_game() && online(&b).in_game());
    let reply = some_turn(game(&b), 1);
    play(&mut b, &reply);
    drive(&mut [&mut a, &mut b], "Black's turn on its own board", |apps| game(apps[1]).turns().len() == 2);

    // Another server of the cluster comes up at the second address with the same database (the first is gone, so
    // SQLite has one writer at a time): both resume their own seats there and Black's waiting turn gets through.
    let second = server_at(dir.path(), second_addr);
    drive(&mut [&mut a, &mut b], "both back on the second server and Black's turn on White's board", |apps| {
        apps.iter().all(|app| online(app).link() == online::Link::Open && online(app).url() == second.url)
            && game(apps[0]).turns().len() == 2
    });
    assert_eq!((online(&a).token().unwrap(), online(&b).token().unwrap()), (tokens.0.as_str(), tokens.1.as_str()));
    assert_eq!(online(&a).my_side(), Some(Side::White));
    assert_eq!(online(&b).my_side(), Some(Side::Black));
    assert_eq!(game(&b).turns()[1], reply);
    for app in [&a, &b] {
        assert_eq!(online(app).home_url(), second.url);
        assert_eq!(online(app).seat().unwrap().url, second.url, "the seat now resumes on the second server first");
    }
    let third = some_turn(game(&a), 2);
    play(&mut a, &third);
    drive(&mut [&mut a, &mut b], "White's next turn on Black's board", |apps| game(apps[1]).turns().len() == 3);
    assert_eq!(game(&a).turns(), game(&b).turns());
}
