//! Online play against a friend: the WebSocket connection to `fanorona-server` and the bridge between the
//! server's messages and the local game.
//!
//! The connection says hello, takes its place in a game (create, join, quick match, watch or resume), comes back
//! after a drop with the protocol's [`Backoff`] and resumes its seat with the seat token, and pings while idle so
//! the server keeps it. Incoming messages wake a sleeping window through the [`LoopWaker`].
//!
//! The server may be several: servers of one cluster share their database, so a seat token resumes its seat on any
//! of them. The player gives a list of addresses ([`server_urls`]); a lost connection is tried again on the address
//! that last worked, then each failed attempt moves on to the next address in the list ([`next_server`]), with the
//! same backoff between attempts. One address (a single server, or a load balancer in front of several) is a list
//! of one.
//!
//! The server is authoritative. The opponent's turns (`TurnPlayed`) enter the game as ordinary [`MoveRequest`]s,
//! so that they animate and sound like any other; the local player's finished turns ([`TurnEnded`] of the local
//! side) are sent as `Turn { ply, turn }`; a full `State` that disagrees with the local game replaces it with
//! [`LoadGame`]. Draw offers, resignations and takebacks asked for in the game are [`MoveRequest`]s that the rules
//! refuse in an online game ([`MatchSetup::is_online`]); this plugin sends them on to the server instead.

use crate::i18n::{t, tf};
use crate::platform::redraw::WakeOn;
use crate::platform::redraw::{FrameDemand, LoopWaker};
use crate::play::input::ServerTakeback;
use crate::play::referee::{
    GameSet, GameState, LoadGame, MatchSetup, MoveAction, MoveRequest, NewGame, Player, RequestRejected, TurnEnded,
};
use crate::save::persist::{CurrentSeat, OnlineSeat, ResumeGame};
use crate::save::storage::Storage;
use crate::state::Screen;
use bevy::prelude::*;
use fanorona_engine::{Game, Record, Side, Turn};
use fanorona_net::{
    Backoff, Board, ClientMsg, Colour, ColourChoice, ErrorCode, OfferKind, PROTOCOL_VERSION, Role, ServerMsg,
    parse_server, sanitize_name,
};
use std::collections::VecDeque;
use std::time::Duration;

/// Seconds without sending anything after which a ping keeps the connection open (the server closes connections
/// silent for 90 s).
pub const PING_SECS: f64 = 30.0;

/// Seconds a notice (an error from the server, a declined offer) stays on screen.
pub const NOTICE_SECS: f64 = 6.0;

/// Seconds an attempt may take from connecting to the server's welcome before it counts as failed. A server whose
/// machine is gone answers nothing at all, and the system's own limit on a connection (minutes) would hold the
/// player there instead of moving on to the next address.
pub const CONNECT_SECS: f64 = 10.0;

/// The server address on the desktop: the one the game was built for (`FANORONA_SERVER` when it was compiled, one
/// address or a list as [`server_urls`] reads it), or a server run on this machine with its defaults.
pub const DESKTOP_SERVER: &str = match option_env!("FANORONA_SERVER") {
    Some(server) => server,
    None => "ws://127.0.0.1:8080/ws",
};

/// The WebSocket address of a server as a person types it: a host (`fanorona.example`), a host and port
/// (`192.168.1.20:8080`), a page address (`https://fanorona.example/`) or a full `ws://`/`wss://` address. A page
/// address becomes its WebSocket (`https` gives `wss`), and an address without a path gets the server's `/ws`.
pub fn server_url(typed: &str) -> String {
    let typed = typed.trim();
    let (scheme, rest) = match typed.split_once("://") {
        Some(("https" | "wss", rest)) => ("wss", rest),
        Some((_, rest)) => ("ws", rest),
        None => ("ws", typed),
    };
    let rest = rest.trim_end_matches('/');
    if rest.contains('/') { format!("{scheme}://{rest}") } else { format!("{scheme}://{rest}/ws") }
}

/// The WebSocket addresses of the servers in what a person typed: addresses separated by commas and/or spaces,
/// each in any form [`server_url`] reads, in the order given and each once. Empty when nothing was typed.
pub fn server_urls(typed: &str) -> Vec<String> {
    let mut urls: Vec<String> = Vec::new();
    for part in typed.split(|c: char| c == ',' || c.is_whitespace()).filter(|p| !p.is_empty()) {
        let url = server_url(part);
        if !urls.contains(&url) {
            urls.push(url);
        }
    }
    urls
}

/// The address to try after a failed attempt on address `current` of `count`: the next one, the first after the
/// last.
pub fn next_server(current: usize, count: usize) -> usize {
    if count == 0 { 0 } else { (current + 1) % count }
}

/// What the player asked the server for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// A new game against a friend.
    Create {
        /// The board.
        board: Board,
        /// The creator's colour.
        colour: ColourChoice,
    },
    /// The free seat of a friend's game, with its invite code.
    Join(String),
    /// The next player who asks for the same board.
    QuickMatch(Board),
    /// Watching a game, with its spectator code.
    Watch(String),
    /// Back to a seat with its token (a saved online game resumed).
    Resume(String),
}

/// The state of the connection.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum Link {
    /// No session.
    #[default]
    Offline,
    /// Connecting, or connected and waiting for the server's welcome.
    Connecting,
    /// Connected and welcomed.
    Open,
    /// Lost (or not reached yet); the next attempt is at this real time, in seconds.
    Retrying {
        /// When to try again.
        at: f64,
    },
    /// The server speaks another protocol version: trying again would not help.
    Refused,
}

/// The online session: what the player asked for, the connection, the seat and the server's view of the game.
#[derive(Resource, Debug, Default)]
pub struct Online {
    /// The servers' addresses, in the player's order; never empty during a session.
    servers: Vec<String>,
    /// The address being tried, or connected to: an index into `servers`.
    current: usize,
    /// The address of the last connection the server welcomed: an index into `servers`.
    worked: Option<usize>,
    /// When the attempt in progress began, in real seconds (see [`CONNECT_SECS`]).
    attempt_since: f64,
    name: String,
    goal: Option<Goal>,
    link: Link,
    role: Option<Role>,
    token: Option<String>,
    invite: Option<String>,
    spectate: Option<String>,
    queued: bool,
    server: Option<fanorona_net::GameState>,
    started: bool,
    notice: Option<(String, f64)>,
    failure: Option<String>,
    outbox: VecDeque<ClientMsg>,
    inbox: VecDeque<ServerMsg>,
    backoff: Option<Backoff>,
    last_sent: f64,
    record_saved: bool,
    /// The welcomes so far: one for each connection that opened.
    epoch: u32,
    /// The local player's turns not yet played back by the server nor refused, oldest first.
    pending: Vec<Pending>,
}

/// One of the local player's turns on its way to the server.
#[derive(Clone, Debug, PartialEq)]
struct Pending {
    /// Its ply in the game.
    ply: u32,
    /// The turn.
    turn: Turn,
    /// The connection ([`Online::epoch`]) it was written to, or `None` while it waits in the outbox.
    sent_on: Option<u32>,
}

impl Online {
    /// Starts a session with the server at `url` for `goal`, as `name`; any session before it ends. `url` is one
    /// address or a list as [`server_urls`] reads it: the first is tried first.
    pub fn start(&mut self, url: &str, name: &str, goal: Goal) {
        let started = matches!(goal, Goal::Resume(_));
        let token = match &goal {
            Goal::Resume(t) => Some(t.clone()),
            _ => None,
        };
        let mut servers = server_urls(url);
        if servers.is_empty() {
            // Nothing typed: tried anyway and failing, as one address that does not answer would.
            servers.push(server_url(url));
        }
        *self = Online {
            servers,
            name: sanitize_name(name),
            goal: Some(goal),
            link: Link::Connecting,
            token,
            // A resumed game is already on the board: the server's state only corrects it.
            started,
            ..Online::default()
        };
    }

    /// Ends the session and closes the connection.
    pub fn leave(&mut self) {
        let failure = self.failure.take();
        *self = Online { failure, ..Online::default() };
    }

    /// Ends any session, saying why to the player (a code that is not one).
    pub fn fail(&mut self, why: String) {
        *self = Online { failure: Some(why), ..Online::default() };
    }

    /// Queues a message for the server (sent once the connection is open).
    pub fn send(&mut self, msg: ClientMsg) {
        self.outbox.push_back(msg);
    }

    /// Whether a session is on (connected or not).
    pub fn is_active(&self) -> bool {
        self.goal.is_some()
    }

    /// Whether the session's game is on the board (a player is seated opposite, or the game is watched).
    pub fn in_game(&self) -> bool {
        self.is_active() && self.started
    }

    /// The connection's state.
    pub fn link(&self) -> Link {
        self.link
    }

    /// The address being tried or connected to.
    pub fn url(&self) -> &str {
        self.servers.get(self.current).map_or("", String::as_str)
    }

    /// Every server's address, in the order they are tried.
    pub fn servers(&self) -> &[String] {
        &self.servers
    }

    /// The address to give others and to keep with the seat: the one last connected to, or the first.
    pub fn home_url(&self) -> &str {
        self.servers.get(self.worked.unwrap_or(0)).map_or("", String::as_str)
    }

    /// Makes `url` the address tried next (the one a saved seat last worked on); added first if it is not in the
    /// list.
    fn prefer(&mut self, url: &str) {
        let url = server_url(url);
        self.current = match self.servers.iter().position(|s| *s == url) {
            Some(i) => i,
            None => {
                self.servers.insert(0, url);
                0
            }
        };
    }

    /// What this connection is in its game, once the server said.
    pub fn role(&self) -> Option<Role> {
        self.role
    }

    /// The local player's side, when seated.
    pub fn my_side(&self) -> Option<Side> {
        match self.role? {
            Role::White => Some(Side::White),
            Role::Black => Some(Side::Black),
            Role::Spectator => None,
        }
    }

    /// The seat token (secret: it returns the player to their seat).
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// The invite code of a game this player created.
    pub fn invite(&self) -> Option<&str> {
        self.invite.as_deref()
    }

    /// The spectator code of this game, when known: the server gave it to this player (at the game's making, or
    /// with the seat while it still held it), or the player watches with it.
    pub fn spectate(&self) -> Option<&str> {
        self.spectate.as_deref()
    }

    /// Whether the player waits in the quick-match queue.
    pub fn queued(&self) -> bool {
        self.queued
    }

    /// The server's last full view of the game, kept up to date by the smaller messages.
    pub fn server_state(&self) -> Option<&fanorona_net::GameState> {
        self.server.as_ref()
    }

    /// Whether the local player may offer a draw now: seated in a game that goes on, with no draw offer standing
    /// (their own waits for an answer; the opponent's is answered, not countered).
    pub fn may_offer_draw(&self) -> bool {
        self.my_side().is_some() && self.server.as_ref().is_some_and(|s| s.to_move.is_some() && s.draw_offer.is_none())
    }

    /// Whether the local player may ask for a takeback now: seated in a game that goes on with a turn to take
    /// back, and no request standing.
    pub fn may_ask_takeback(&self) -> bool {
        self.my_side().is_some()
            && self.server.as_ref().is_some_and(|s| s.to_move.is_some() && s.ply > 0 && s.takeback_request.is_none())
    }

    /// The current notice, while it is fresh at real time `now`.
    pub fn notice(&self, now: f64) -> Option<&str> {
        self.notice.as_ref().filter(|(_, since)| now - since < NOTICE_SECS).map(|(n, _)| n.as_str())
    }

    /// Why the last session could not start (an unknown code, a busy server…), until the player tries again.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    /// The page that opens this game's invite: `http(s)://<host>/?join=<code>`, from the address of the server
    /// connected to ([`Online::home_url`]).
    pub fn invite_link(&self) -> Option<String> {
        Some(join_link(self.home_url(), self.invite.as_deref()?))
    }

    /// The saved form of this session, kept with the game in progress so that "Continue" returns to the seat.
    pub fn seat(&self) -> Option<OnlineSeat> {
        let watching = self.role == Some(Role::Spectator);
        let token = if watching { self.spectate.clone().or_else(|| self.watch_code()) } else { self.token.clone() };
        // One address is saved as before, so that an older game still reads the save.
        let servers = if self.servers.len() > 1 { self.servers.clone() } else { Vec::new() };
        Some(OnlineSeat {
            url: self.home_url().to_string(),
            servers,
            token: token?,
            watching,
            spectate: self.spectate.clone(),
        })
    }

    fn watch_code(&self) -> Option<String> {
        match &self.goal {
            Some(Goal::Watch(code)) => Some(code.clone()),
            _ => None,
        }
    }

    fn note(&mut self, text: String, now: f64) {
        self.notice = Some((text, now));
    }

    /// The connection was lost: try again after the next delay of the backoff, on the same address if the server
    /// had welcomed this connection (the one that last worked), else on the next.
    fn lost(&mut self, now: f64, why: &str) {
        if self.link == Link::Refused || self.goal.is_none() {
            return;
        }
        warn!("online: connection to {} lost: {why}", self.url());
        if self.link != Link::Open {
            self.current = next_server(self.current, self.servers.len());
        }
        let delay = self.backoff.get_or_insert_with(|| Backoff::new(seed())).next_delay_ms();
        self.link = Link::Retrying { at: now + delay as f64 / 1000.0 };
    }

    /// The server welcomed the connection: it is open, the address works, and the seat (or the goal) is asked for
    /// first.
    fn welcomed(&mut self) {
        self.link = Link::Open;
        self.epoch += 1;
        self.worked = Some(self.current);
        if let Some(b) = self.backoff.as_mut() {
            b.reset();
        }
        if let Some(first) = self.entry_message() {
            self.outbox.push_front(first);
        }
    }

    /// What the screens show of the connection: its state (not when the next attempt is), the address tried and
    /// the one that worked. A frame is asked for whenever it changes.
    fn shown(&self) -> (std::mem::Discriminant<Link>, usize, Option<usize>) {
        (std::mem::discriminant(&self.link), self.current, self.worked)
    }

    /// Queues again the local player's turns written to a connection that has closed since: the server's state,
    /// made after it closed, lacks them, so they never arrived.
    fn resend_lost_turns(&mut self) {
        let epoch = self.epoch;
        let lost: Vec<ClientMsg> = self
            .pending
            .iter_mut()
            .filter(|p| p.sent_on.is_some_and(|e| e != epoch))
            .map(|p| {
                p.sent_on = None;
                ClientMsg::Turn { ply: p.ply, turn: p.turn.to_string() }
            })
            .collect();
        self.outbox.extend(lost);
    }

    /// The first message after the welcome: back to the seat when there is one, else what the player asked for.
    fn entry_message(&self) -> Option<ClientMsg> {
        if let Some(token) = &self.token {
            return Some(ClientMsg::Resume { token: token.clone() });
        }
        let name = self.name.clone();
        Some(match self.goal.clone()? {
            Goal::Create { board, colour } => ClientMsg::Create { board, rules: String::new(), colour, name },
            Goal::Join(invite) => ClientMsg::Join { invite, name },
            Goal::QuickMatch(board) => ClientMsg::QuickMatch { board, name },
            Goal::Watch(token) => ClientMsg::Spectate { token },
            Goal::Resume(token) => ClientMsg::Resume { token },
        })
    }
}

/// The page that opens an invite: `ws://host/ws` gives `http://host/?join=<code>` (`wss` gives `https`).
pub fn join_link(server: &str, code: &str) -> String {
    let (scheme, rest) = match server.split_once("://") {
        Some(("wss", rest)) => ("https", rest),
        Some((_, rest)) => ("http", rest),
        None => ("http", server),
    };
    let host = rest.split('/').next().unwrap_or(rest);
    format!("{scheme}://{host}/?join={code}")
}

/// The code in what was typed or pasted: the code itself, or a link holding `join=<code>`.
fn typed_code(text: &str) -> &str {
    let text = text.trim();
    match text.split_once("join=") {
        Some((_, rest)) => rest.split(['&', '#']).next().unwrap_or(rest),
        None => text,
    }
}

/// An invite as typed, read aloud or pasted (the code, `7KQ2M-XW9PD` in any case, or a link holding `join=<code>`):
/// the short code in the server's form, or an older server's 32-digit invite. `None` if it is not an invite.
pub fn parse_invite(text: &str) -> Option<String> {
    let code = typed_code(text);
    fanorona_net::normalize_invite(code).or_else(|| parse_code(code))
}

/// A spectator code as typed or pasted: the code itself, or a link holding `join=<code>`; lower case, without
/// spaces. `None` if it is not a code.
pub fn parse_code(text: &str) -> Option<String> {
    let code: String = typed_code(text).chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
    fanorona_net::check_token(&code).ok().map(|()| code)
}

/// The server address to offer: on the web the page's own host (`ws(s)://<host>/ws`, where `fanorona-server`
/// serves both), on the desktop a server on this machine.
pub fn default_server() -> String {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    if let Some(loc) = web_sys::window().map(|w| w.location()) {
        let secure = loc.protocol().is_ok_and(|p| p == "https:");
        if let Ok(host) = loc.host()
            && !host.is_empty()
        {
            return format!("{}://{host}/ws", if secure { "wss" } else { "ws" });
        }
    }
    DESKTOP_SERVER.to_string()
}

/// A random seed for the backoff's spread, so that clients cut off together come back apart.
fn seed() -> u64 {
    rand::random()
}

/// The open connection: ewebsock's two halves (not `Sync`, and not `Send` in the browser, hence a non-send
/// resource).
#[derive(Default)]
struct Socket(Option<(ewebsock::WsSender, ewebsock::WsReceiver)>);

/// Adds the online session: the connection, the bridge to the game, the turns and requests sent on.
pub fn plugin(app: &mut App) {
    app.init_resource::<Online>()
        .add_woken_message::<ResumeGame>()
        .insert_non_send(Socket::default())
        .add_systems(Update, (pump, handle_inbox).chain().in_set(GameSet::Request))
        .add_systems(Update, (send_turns, send_requests).in_set(GameSet::Present))
        .add_systems(Update, resume_saved_seat.before(GameSet::Rules))
        .add_systems(Update, (publish_takeback, publish_seat).after(handle_inbox).before(GameSet::Rules));
    for screen in [Screen::Title, Screen::Setup, Screen::Lesson, Screen::Records, Screen::Stats, Screen::Replay] {
        app.add_systems(OnEnter(screen), |mut online: ResMut<Online>| {
            if online.is_active() {
                online.leave();
            }
        });
    }
}

/// Tells the board's keys whether the server would take a takeback request now ([`ServerTakeback`]), while a game is
/// played online.
fn publish_takeback(online: Res<Online>, current: Option<ResMut<ServerTakeback>>, mut commands: Commands) {
    match (online.in_game(), current) {
        (true, Some(mut current)) => {
            current.set_if_neq(ServerTakeback(online.may_ask_takeback()));
        }
        (true, None) => commands.insert_resource(ServerTakeback(online.may_ask_takeback())),
        (false, Some(_)) => commands.remove_resource::<ServerTakeback>(),
        (false, None) => {}
    }
}

/// Tells the saves the seat of the game being played ([`CurrentSeat`]), so that the saved game can go on.
fn publish_seat(online: Res<Online>, seat: Option<ResMut<CurrentSeat>>, mut commands: Commands) {
    let now = CurrentSeat(online.in_game().then(|| online.seat()).flatten());
    match seat {
        Some(mut seat) => {
            seat.set_if_neq(now);
        }
        None => commands.insert_resource(now),
    }
}

/// Connects when it is time, reads the connection's events, answers the welcome, and sends what is queued (or a
/// ping when nothing was sent for a while). A change in what the screens show of the connection (see
/// [`Online::shown`]) asks for a frame.
fn pump(
    mut online: ResMut<Online>,
    mut socket: NonSendMut<Socket>,
    waker: Res<LoopWaker>,
    time: Res<Time<Real>>,
    mut demand: ResMut<FrameDemand>,
) {
    let before = online.shown();
    pump_socket(&mut online, &mut socket, &waker, time.elapsed_secs_f64(), &mut demand);
    if online.shown() != before {
        demand.next_frame();
    }
}

/// [`pump`]'s work, at real time `now`.
fn pump_socket(online: &mut Online, socket: &mut Socket, waker: &LoopWaker, now: f64, demand: &mut FrameDemand) {
    if !online.is_active() {
        if socket.0.is_some() {
            socket.0 = None;
        }
        return;
    }
    if online.link == Link::Connecting && socket.0.is_some() {
        let waited = now - online.attempt_since;
        if waited >= CONNECT_SECS {
            // No answer: this attempt failed, and the next goes to the next address.
            socket.0 = None;
            online.lost(now, "no answer");
        } else {
            demand.within(Duration::from_secs_f64(CONNECT_SECS - waited));
        }
    }
    let due = match online.link {
        Link::Connecting => socket.0.is_none(),
        Link::Retrying { at } if now < at => {
            // A sleeping window must still wake for the next attempt.
            demand.within(Duration::from_secs_f64(at - now));
            false
        }
        Link::Retrying { .. } => true,
        Link::Open | Link::Offline | Link::Refused => false,
    };
    if due {
        let waker = waker.clone();
        let options =
            ewebsock::Options { max_incoming_frame_size: fanorona_net::MAX_MESSAGE_BYTES, ..Default::default() };
        online.attempt_since = now;
        match ewebsock::connect_with_wakeup(online.url().to_string(), options, move || waker.wake()) {
            Ok(pair) => {
                socket.0 = Some(pair);
                online.link = Link::Connecting;
                demand.within(Duration::from_secs_f64(CONNECT_SECS));
            }
            Err(e) => online.lost(now, &e),
        }
    }
    let mut lost = None;
    if let Some((tx, rx)) = socket.0.as_mut() {
        while let Some(event) = rx.try_recv() {
            match event {
                ewebsock::WsEvent::Opened => {
                    tx.send(ewebsock::WsMessage::Text(ClientMsg::Hello { version: PROTOCOL_VERSION }.to_json()));
                    online.last_sent = now;
                }
                ewebsock::WsEvent::Message(ewebsock::WsMessage::Text(text)) => match parse_server(&text) {
                    Ok(ServerMsg::Welcome { .. }) => online.welcomed(),
                    Ok(ServerMsg::Pong) => {}
                    Ok(msg) => online.inbox.push_back(msg),
                    Err(e) => {
                        warn!("online: unreadable message from the server: {e}");
                        online.note(t("online.error.garbled").to_string(), now);
                    }
                },
                ewebsock::WsEvent::Message(_) => {}
                ewebsock::WsEvent::Error(e) => {
                    lost = Some(e);
                    break;
                }
                ewebsock::WsEvent::Closed => {
                    lost = Some("closed by the server".to_string());
                    break;
                }
            }
        }
    }
    if let Some(why) = lost {
        socket.0 = None;
        online.lost(now, &why);
        if let Link::Retrying { at } = online.link {
            demand.within(Duration::from_secs_f64((at - now).max(0.0)));
        }
        return;
    }
    if online.link != Link::Open {
        return;
    }
    let Some((tx, _)) = socket.0.as_mut() else { return };
    while let Some(msg) = online.outbox.pop_front() {
        tx.send(ewebsock::WsMessage::Text(msg.to_json()));
        online.last_sent = now;
        if let ClientMsg::Turn { ply, .. } = msg {
            let epoch = online.epoch;
            online.pending.iter_mut().filter(|p| p.ply == ply).for_each(|p| p.sent_on = Some(epoch));
        }
    }
    if now - online.last_sent >= PING_SECS {
        tx.send(ewebsock::WsMessage::Text(ClientMsg::Ping.to_json()));
        online.last_sent = now;
    }
    demand.within(Duration::from_secs_f64((PING_SECS - (now - online.last_sent)).max(0.0)));
}

/// The writers that change the local game.
#[derive(bevy::ecs::system::SystemParam)]
struct GameOut<'w> {
    requests: MessageWriter<'w, MoveRequest>,
    loads: MessageWriter<'w, LoadGame>,
    new: MessageWriter<'w, NewGame>,
    next: ResMut<'w, NextState<Screen>>,
}

/// Applies the server's messages to the session and the game. After a message that changes the game, the rest
/// wait for the next frame: each is judged against the game as the rules left it.
fn handle_inbox(
    mut online: ResMut<Online>,
    state: Res<GameState>,
    screen: Res<State<Screen>>,
    mut setup: ResMut<MatchSetup>,
    mut out: GameOut,
    storage: Option<Res<Storage>>,
    time: Res<Time<Real>>,
    mut demand: ResMut<FrameDemand>,
) {
    let now = time.elapsed_secs_f64();
    while let Some(msg) = online.inbox.pop_front() {
        if handle(&mut online, msg, *screen.get(), &state, &mut setup, &mut out, storage.as_deref(), now) {
            break;
        }
    }
    if !online.inbox.is_empty() || !online.outbox.is_empty() {
        demand.next_frame();
    }
}

/// The players of a game seen as `role`.
fn players_for(role: Role) -> [Player; 2] {
    match role {
        Role::White => [Player::Human, Player::Remote],
        Role::Black => [Player::Remote, Player::Human],
        Role::Spectator => [Player::Remote, Player::Remote],
    }
}

fn side_of(colour: Colour) -> Side {
    match colour {
        Colour::White => Side::White,
        Colour::Black => Side::Black,
    }
}

fn role_of(colour: Colour) -> Role {
    match colour {
        Colour::White => Role::White,
        Colour::Black => Role::Black,
    }
}

/// Handles one message; true when it changed the local game (or the screen) this frame.
fn handle(
    online: &mut Online,
    msg: ServerMsg,
    screen: Screen,
    state: &GameState,
    setup: &mut MatchSetup,
    out: &mut GameOut,
    storage: Option<&Storage>,
    now: f64,
) -> bool {
    match msg {
        ServerMsg::Welcome { .. } | ServerMsg::Pong => false,
        ServerMsg::Created { colour, token, invite, spectate, .. } => {
            online.role = Some(role_of(colour));
            online.token = Some(token);
            online.invite = Some(invite);
            online.spectate = Some(spectate);
            false
        }
        ServerMsg::Seated { colour, token, spectate, .. } => {
            online.role = Some(role_of(colour));
            online.token = Some(token);
            // A seat of a game loaded from the server's database has none: keep the code it had.
            if spectate.is_some() {
                online.spectate = spectate;
            }
            online.queued = false;
            false
        }
        ServerMsg::Spectating { .. } => {
            online.role = Some(Role::Spectator);
            false
        }
        ServerMsg::Queued { .. } => {
            online.queued = true;
            false
        }
        ServerMsg::State(s) => apply_state(online, s, screen, state, setup, out, storage, now),
        ServerMsg::TurnPlayed { ply, by, turn, to_move } => turn_played(online, ply, by, &turn, to_move, state, out),
        ServerMsg::Offer { kind, by } => {
            if let Some(s) = online.server.as_mut() {
                match kind {
                    OfferKind::Draw => s.draw_offer = Some(by),
                    OfferKind::Takeback => s.takeback_request = Some(by),
                }
            }
            false
        }
        ServerMsg::Declined { kind, by } => {
            declined(online, kind, by, now);
            false
        }
        ServerMsg::Presence { colour, connected } => {
            if let Some(s) = online.server.as_mut() {
                let seat = if colour == Colour::White { &mut s.white } else { &mut s.black };
                seat.connected = connected;
            }
            false
        }
        ServerMsg::Error { code, message } => {
            refused(online, code, &message, now);
            false
        }
    }
}

/// A turn the server accepted: the opponent's goes to the referee as an ordinary request (true when one
/// was sent); our own coming back changes nothing; anything out of step asks for the whole game.
fn turn_played(
    online: &mut Online,
    ply: u32,
    by: Colour,
    turn: &str,
    to_move: Option<Colour>,
    state: &GameState,
    out: &mut GameOut,
) -> bool {
    if let Some(s) = online.server.as_mut() {
        s.ply = ply + 1;
        s.to_move = to_move;
    }
    if online.my_side() == Some(side_of(by)) {
        online.pending.retain(|p| p.ply > ply);
    }
    if !online.started {
        return false;
    }
    let game = state.game();
    let have = game.turns().len() as u32;
    let parsed = turn.parse::<Turn>().ok();
    if have == ply + 1 && parsed.is_some() && game.turns().last() == parsed.as_ref() {
        // Our own turn coming back, or one already on the board.
        return false;
    }
    let theirs = game.position().side_to_move() == side_of(by) && game.pending_steps().is_empty();
    if let (true, true, Some(turn)) = (have == ply, theirs, parsed) {
        out.requests.write(MoveRequest { action: MoveAction::Turn(turn), expect_generation: Some(state.generation()) });
        return true;
    }
    // Out of step (a message missed while away): the whole game puts it right.
    online.send(ClientMsg::Sync);
    false
}

/// An offer or request declined: cleared, and said to the player who made it.
fn declined(online: &mut Online, kind: OfferKind, by: Colour, now: f64) {
    if let Some(s) = online.server.as_mut() {
        match kind {
            OfferKind::Draw => s.draw_offer = None,
            OfferKind::Takeback => s.takeback_request = None,
        }
    }
    if online.my_side().is_some_and(|me| me != side_of(by)) {
        let key = match kind {
            OfferKind::Draw => "online.draw_declined",
            OfferKind::Takeback => "online.takeback_declined",
        };
        online.note(t(key).to_string(), now);
    }
}

/// An error from the server: a version it does not speak ends the session; a game that cannot start goes back to
/// the form, saying why; a turn or answer it did not take is resynchronised.
fn refused(online: &mut Online, code: ErrorCode, message: &str, now: f64) {
    warn!("online: the server refused: {code:?}: {message}");
    let text = error_text(code).to_string();
    match code {
        ErrorCode::VersionMismatch => {
            online.link = Link::Refused;
            online.failure = Some(text);
        }
        ErrorCode::UnknownGame
        | ErrorCode::SeatTaken
        | ErrorCode::InvalidField
        | ErrorCode::AlreadyInGame
        | ErrorCode::ServerBusy
            if !online.started =>
        {
            online.failure = Some(text);
            online.goal = None;
            online.link = Link::Offline;
        }
        // A turn that crossed the friend's resignation (or an agreed draw) on its way: the end has reached the
        // board already and the result says it, so a notice would only repeat it.
        ErrorCode::GameOver if online.server.as_ref().is_some_and(|s| s.to_move.is_none()) => {
            online.pending.clear();
            online.send(ClientMsg::Sync);
        }
        ErrorCode::IllegalTurn
        | ErrorCode::StaleTurn
        | ErrorCode::NotYourTurn
        | ErrorCode::BadNotation
        | ErrorCode::NoOpponent
        | ErrorCode::GameOver => {
            online.note(text, now);
            // The server's state, asked for here, puts a refused turn's board right.
            online.pending.clear();
            online.send(ClientMsg::Sync);
        }
        // Not taken, whatever it was: a turn on its way may have been it, so the server's state decides the board.
        ErrorCode::RateLimited | ErrorCode::Internal | ErrorCode::NotInGame if !online.pending.is_empty() => {
            online.note(text, now);
            online.pending.clear();
            online.send(ClientMsg::Sync);
        }
        _ => online.note(text, now),
    }
}

/// A full state from the server: starts the game on the board when both seats are taken (or when watching), and
/// afterwards replaces the local game when they disagree.
fn apply_state(
    online: &mut Online,
    s: fanorona_net::GameState,
    screen: Screen,
    state: &GameState,
    setup: &mut MatchSetup,
    out: &mut GameOut,
    storage: Option<&Storage>,
    now: f64,
) -> bool {
    let game = match Record::load(&s.record) {
        Ok(g) => g,
        Err(e) => {
            warn!("online: the server's record does not load: {e}");
            online.note(t("online.error.garbled").to_string(), now);
            return false;
        }
    };
    online.role = Some(s.you);
    let ready = s.you == Role::Spectator || (s.white.taken && s.black.taken);
    let over = s.result != "*";
    let record = s.record.clone();
    if !online.started {
        if !ready {
            // The friend has not joined yet: the online screen shows the invite.
            online.server = Some(s);
            return false;
        }
        if screen != Screen::Playing {
            // The game screen first, so that the game starts in it and counts as the player's; the state is
            // read again there.
            out.next.set(Screen::Playing);
            online.inbox.push_front(ServerMsg::State(s));
            return true;
        }
        online.server = Some(s);
        online.started = true;
        *setup = MatchSetup {
            rules: *game.rules(),
            players: players_for(online.role.unwrap_or(Role::Spectator)),
            seed: 0,
            vela_match: false,
        };
        // A fresh game starts as a new one, so that it counts in the stats; one under way is loaded.
        if game.turns().is_empty() && game.pending_steps().is_empty() && !game.is_over() {
            out.new.write(NewGame);
        } else {
            out.loads.write(LoadGame(game));
        }
        return true;
    }
    online.server = Some(s);
    if over && online.my_side().is_some() && !online.record_saved {
        online.record_saved = true;
        save_record(storage, &record, online, now);
    }
    let players = players_for(online.role.unwrap_or(Role::Spectator));
    if setup.players != players {
        setup.players = players;
    }
    online.pending.retain(|p| p.ply as usize >= game.turns().len());
    if awaits_own_turns(state.game(), &game, &online.pending) {
        // The board keeps them meanwhile.
        online.resend_lost_turns();
        return false;
    }
    online.pending.clear();
    if same_game(state.game(), &game) {
        return false;
    }
    setup.rules = *game.rules();
    out.loads.write(LoadGame(game));
    true
}

/// Whether the local game is the server's followed by the local player's own turns still on their way to it (sent
/// or waiting to be), the server's game not being over: then the server's state is only behind, not different.
fn awaits_own_turns(local: &Game, server: &Game, pending: &[Pending]) -> bool {
    let (mine, theirs) = (local.turns(), server.turns());
    !pending.is_empty()
        && local.rules() == server.rules()
        && server.outcome().is_none()
        && mine.len() == theirs.len() + pending.len()
        && mine.starts_with(theirs)
        && pending
            .iter()
            .zip(&mine[theirs.len()..])
            .enumerate()
            .all(|(k, (p, turn))| p.ply as usize == theirs.len() + k && p.turn == *turn)
}

/// Whether the local game is the server's: the same turns and result (a relay in progress locally is the local
/// player's own business until its turn ends).
fn same_game(local: &Game, server: &Game) -> bool {
    local.rules() == server.rules() && local.turns() == server.turns() && local.outcome() == server.outcome()
}

/// Keeps the finished game's record (the server's, with both names) with the player's records.
fn save_record(storage: Option<&Storage>, record: &str, online: &mut Online, now: f64) {
    let Some(storage) = storage else { return };
    let suffix = crate::save::records::KEPT_SUFFIXES[2];
    match crate::save::records::keep_record(storage, suffix, crate::save::records::unix_now(), record) {
        Ok(name) => online.note(tf("online.record_saved", &[("place", storage.record_location(&name).into())]), now),
        Err(e) => online.note(tf("records.save_failed", &[("error", e.to_string().into())]), now),
    }
}

/// Sends the local player's finished turns.
fn send_turns(mut turns: MessageReader<TurnEnded>, setup: Res<MatchSetup>, mut online: ResMut<Online>) {
    for ended in turns.read() {
        if online.in_game() && setup.is_online() && online.my_side() == Some(ended.side) && setup.is_human(ended.side) {
            let ply = ended.number as u32 - 1;
            online.pending.push(Pending { ply, turn: ended.turn.clone(), sent_on: None });
            online.send(ClientMsg::Turn { ply, turn: ended.turn.to_string() });
        }
    }
}

/// Sends on what the rules refused because the server decides it online: a takeback (Undo with no relay in
/// progress), a draw offer or its answer, a resignation.
fn send_requests(mut refused: MessageReader<RequestRejected>, setup: Res<MatchSetup>, mut online: ResMut<Online>) {
    if !setup.is_online() || !online.in_game() || online.my_side().is_none() {
        refused.clear();
        return;
    }
    for r in refused.read() {
        let msg = match r.action {
            MoveAction::Undo { .. } => ClientMsg::RequestTakeback,
            MoveAction::OfferDraw(_) => ClientMsg::OfferDraw,
            MoveAction::AnswerDraw { accept: true } => ClientMsg::AcceptDraw,
            MoveAction::AnswerDraw { accept: false } => ClientMsg::DeclineDraw,
            MoveAction::Resign(_) => ClientMsg::Resign,
            _ => continue,
        };
        online.send(msg);
    }
}

/// "Continue" on a saved online game: back to its seat (or to watching it).
fn resume_saved_seat(
    mut asks: MessageReader<ResumeGame>,
    resume: Option<Res<crate::save::persist::Resume>>,
    mut online: ResMut<Online>,
) {
    if asks.read().count() == 0 {
        return;
    }
    let Some(seat) = resume.as_deref().and_then(|r| r.saved()).and_then(|s| s.online.clone()) else { return };
    let goal = if seat.watching { Goal::Watch(seat.token.clone()) } else { Goal::Resume(seat.token.clone()) };
    if seat.servers.is_empty() {
        online.start(&seat.url, "", goal);
    } else {
        online.start(&seat.servers.join(" "), "", goal);
        online.prefer(&seat.url);
    }
    if seat.watching {
        online.role = Some(Role::Spectator);
        online.spectate = Some(seat.token);
    } else {
        online.spectate = seat.spectate;
    }
}

/// The player's words for a refusal from the server.
pub fn error_text(code: ErrorCode) -> &'static str {
    t(match code {
        ErrorCode::VersionMismatch => "online.error.version",
        ErrorCode::UnknownGame => "online.error.unknown_game",
        ErrorCode::SeatTaken => "online.error.seat_taken",
        ErrorCode::NotYourTurn => "online.error.not_your_turn",
        ErrorCode::IllegalTurn | ErrorCode::BadNotation | ErrorCode::StaleTurn => "online.error.illegal_turn",
        ErrorCode::GameOver => "online.error.game_over",
        ErrorCode::NothingToAnswer => "online.error.nothing_to_answer",
        ErrorCode::NoOpponent => "online.error.no_opponent",
        ErrorCode::ServerBusy | ErrorCode::RateLimited | ErrorCode::Internal => "online.error.busy",
        ErrorCode::InvalidField => "online.error.invalid",
        ErrorCode::Malformed
        | ErrorCode::TooLarge
        | ErrorCode::HelloFirst
        | ErrorCode::AlreadyInGame
        | ErrorCode::NotInGame
        | ErrorCode::NotYourSeat
        | ErrorCode::BadRules => "online.error.refused",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_net::{Colour, SeatInfo};

    /// The server's view of a game in progress, White seated here, one turn played, White to move.
    fn server_state() -> fanorona_net::GameState {
        let seat = SeatInfo { taken: true, name: String::new(), connected: true };
        fanorona_net::GameState {
            game: "00ff".into(),
            you: Role::White,
            record: String::new(),
            ply: 1,
            to_move: Some(Colour::White),
            result: "*".into(),
            termination: String::new(),
            white: seat.clone(),
            black: seat,
            draw_offer: None,
            takeback_request: None,
        }
    }

    #[test]
    fn invite_links_follow_the_server_address() {
        let code = "0123456789abcdef0123456789abcdef";
        assert_eq!(join_link("ws://127.0.0.1:8080/ws", code), format!("http://127.0.0.1:8080/?join={code}"));
        assert_eq!(join_link("wss://fanorona.example/ws", code), format!("https://fanorona.example/?join={code}"));
        assert_eq!(parse_code(&format!(" https://x.example/?join={code}&lang=fr ")), Some(code.to_string()));
        assert_eq!(parse_code(&code.to_ascii_uppercase()), Some(code.to_string()));
        assert_eq!(parse_code("not a code"), None);
        assert_eq!(parse_code(""), None);
        // Invites: the short code however it is typed or read out, in a link too, and the older long ones.
        assert_eq!(parse_invite("7kq2m-xw9pd").as_deref(), Some("7KQ2MXW9PD"));
        assert_eq!(parse_invite(" 7KQ2M XW9PD ").as_deref(), Some("7KQ2MXW9PD"));
        assert_eq!(parse_invite("http://x.example/?join=7KQ2MXW9PD&lang=fr").as_deref(), Some("7KQ2MXW9PD"));
        assert_eq!(parse_invite(&code.to_ascii_uppercase()), Some(code.to_string()));
        assert_eq!(parse_invite("7KQ2M-XW9P"), None);
        assert_eq!(parse_invite(""), None);
    }

    #[test]
    fn a_server_is_reached_however_its_address_is_typed() {
        assert_eq!(server_url("fanorona.example"), "ws://fanorona.example/ws");
        assert_eq!(server_url(" 192.168.1.20:8080 "), "ws://192.168.1.20:8080/ws");
        assert_eq!(server_url("https://fanorona.example/"), "wss://fanorona.example/ws");
        assert_eq!(server_url("http://fanorona.example:8080"), "ws://fanorona.example:8080/ws");
        assert_eq!(server_url("wss://fanorona.example/ws"), "wss://fanorona.example/ws");
        assert_eq!(server_url("ws://127.0.0.1:8080/ws"), "ws://127.0.0.1:8080/ws");
        assert_eq!(server_url("ws://proxy.example/games/ws"), "ws://proxy.example/games/ws");
    }

    #[test]
    fn a_list_of_servers_is_read_from_commas_and_spaces() {
        // One address reads as it always did.
        assert_eq!(server_urls("fanorona.example"), ["ws://fanorona.example/ws"]);
        assert_eq!(server_urls(" wss://fanorona.example/ws "), ["wss://fanorona.example/ws"]);
        // Commas, spaces or both, each address in any form `server_url` reads, in order and each once.
        let typed = "a.example:8080, https://b.example/,wss://c.example/games/ws  d.example\t,, a.example:8080 ";
        let want = ["ws://a.example:8080/ws", "wss://b.example/ws", "wss://c.example/games/ws", "ws://d.example/ws"];
        assert_eq!(server_urls(typed), want);
        assert_eq!(
            server_urls("ws://127.0.0.1:1/ws ws://127.0.0.1:2/ws"),
            ["ws://127.0.0.1:1/ws", "ws://127.0.0.1:2/ws"]
        );
        assert!(server_urls("").is_empty());
        assert!(server_urls(" , ").is_empty());
        // A session always has an address to try, even from an empty field.
        let mut online = Online::default();
        online.start("", "", Goal::QuickMatch(Board::Dimy));
        assert_eq!(online.servers().len(), 1);
    }

    #[test]
    fn failed_attempts_move_through_the_list_from_the_server_that_last_worked() {
        assert_eq!([next_server(0, 3), next_server(1, 3), next_server(2, 3)], [1, 2, 0]);
        assert_eq!((next_server(0, 1), next_server(0, 0)), (0, 0));

        let mut online = Online::default();
        online.start("a.example, b.example c.example", "", Goal::QuickMatch(Board::Dimy));
        assert_eq!(online.url(), "ws://a.example/ws", "the first address first");
        assert_eq!(online.home_url(), "ws://a.example/ws", "nothing worked yet: the first one is given out");
        // Each failed attempt moves on, after the backoff's growing delays.
        let mut tried = vec![online.url().to_string()];
        let mut delays = Vec::new();
        for k in 0..3 {
            let now = 10.0 * k as f64;
            online.lost(now, "refused");
            let Link::Retrying { at } = online.link() else { panic!("no retry") };
            delays.push(((at - now) * 1000.0).round() as u64);
            tried.push(online.url().to_string());
        }
        assert_eq!(tried, ["ws://a.example/ws", "ws://b.example/ws", "ws://c.example/ws", "ws://a.example/ws"]);
        assert!(delays[0] <= Backoff::FIRST_MS && delays[1] > Backoff::FIRST_MS && delays[2] > delays[1], "{delays:?}");

        // The second address answers: it is the one given out, and a drop there tries it again first.
        online.lost(40.0, "refused");
        assert_eq!(online.url(), "ws://b.example/ws");
        online.link = Link::Connecting;
        online.welcomed();
        assert_eq!(online.link(), Link::Open);
        assert_eq!(online.home_url(), "ws://b.example/ws");
        online.invite = Some("7KQ2MXW9PD".into());
        assert_eq!(online.invite_link().as_deref(), Some("http://b.example/?join=7KQ2MXW9PD"));
        online.lost(50.0, "closed by the server");
        assert_eq!(online.url(), "ws://b.example/ws", "the server that last worked first");
        let Link::Retrying { at } = online.link() else { panic!("no retry") };
        assert!(at - 50.0 <= Backoff::FIRST_MS as f64 / 1000.0, "a welcome starts the delays again");
        // It does not answer any more: on to the next, around the list.
        online.lost(60.0, "refused");
        assert_eq!(online.url(), "ws://c.example/ws");
        assert_eq!(online.home_url(), "ws://b.example/ws", "the last one that worked until another does");

        // One address: every attempt goes to it, as before lists.
        let mut one = Online::default();
        one.start("fanorona.example", "", Goal::QuickMatch(Board::Dimy));
        one.lost(1.0, "refused");
        one.lost(2.0, "refused");
        assert_eq!(one.url(), "ws://fanorona.example/ws");
    }

    #[test]
    fn a_saved_seat_keeps_every_server_and_old_saves_still_load() {
        let token = "0123456789abcdef0123456789abcdef";
        let mut online = Online::default();
        online.start("a.example, b.example", "", Goal::Resume(token.into()));
        online.lost(1.0, "refused");
        online.link = Link::Connecting;
        online.welcomed();
        let seat = online.seat().unwrap();
        assert_eq!(seat.url, "ws://b.example/ws", "the address that last worked");
        assert_eq!(seat.servers, ["ws://a.example/ws", "ws://b.example/ws"]);
        let text = ron::to_string(&seat).unwrap();
        assert_eq!(ron::from_str::<OnlineSeat>(&text).unwrap(), seat);
        // Resumed, it starts from the address that last worked and keeps the others.
        let mut back = Online::default();
        back.start(&seat.servers.join(" "), "", Goal::Resume(seat.token.clone()));
        back.prefer(&seat.url);
        assert_eq!((back.url(), back.servers()), ("ws://b.example/ws", seat.servers.as_slice()));
        back.lost(1.0, "refused");
        assert_eq!(back.url(), "ws://a.example/ws");
        // An address that is not in the list goes first.
        back.prefer("c.example");
        assert_eq!(back.servers(), ["ws://c.example/ws", "ws://a.example/ws", "ws://b.example/ws"]);
        assert_eq!(back.url(), "ws://c.example/ws");

        // One server saves as before lists, and a save from before them loads as one server.
        let mut single = Online::default();
        single.start("ws://h/ws", "", Goal::Resume(token.into()));
        let text = ron::to_string(&single.seat().unwrap()).unwrap();
        assert!(!text.contains("servers"), "{text}");
        let old = format!("(url:\"ws://h/ws\",token:\"{token}\",watching:false,spectate:None)");
        let seat = ron::from_str::<OnlineSeat>(&old).unwrap();
        assert_eq!((seat.url.as_str(), seat.servers.len()), ("ws://h/ws", 0));
        assert_eq!(single.seat().unwrap(), seat);
    }

    #[test]
    fn every_refusal_has_words() {
        for code in [ErrorCode::VersionMismatch, ErrorCode::IllegalTurn, ErrorCode::BadRules, ErrorCode::ServerBusy] {
            assert!(!error_text(code).starts_with("online."), "{code:?} has no text");
        }
    }

    #[test]
    fn the_servers_state_behind_by_own_turns_on_their_way_keeps_the_board() {
        let mut local = Game::new(fanorona_engine::Rules::default());
        let first = local.position().legal_turns()[0].clone();
        local.play_turn(&first).unwrap();
        let server = local.clone();
        let second = local.position().legal_turns()[0].clone();
        local.play_turn(&second).unwrap();
        let on_way = |sent_on| vec![Pending { ply: 1, turn: second.clone(), sent_on }];
        assert!(awaits_own_turns(&local, &server, &on_way(None)), "waiting in the outbox");
        assert!(awaits_own_turns(&local, &server, &on_way(Some(3))), "written to a connection");
        assert!(!awaits_own_turns(&local, &server, &[]), "no turn on its way: the server's game is the truth");
        assert!(!awaits_own_turns(&local, &local, &on_way(None)), "the server has it already");
        let wrong_ply = vec![Pending { ply: 2, turn: second.clone(), sent_on: None }];
        assert!(!awaits_own_turns(&local, &server, &wrong_ply));
        // The server's game went another way (a takeback, another turn): the board follows the server.
        let mut other = Game::new(fanorona_engine::Rules::default());
        other.play_turn(other.position().legal_turns().last().unwrap()).unwrap();
        assert!(!awaits_own_turns(&local, &other, &on_way(None)));

        // Only a turn written to an earlier connection goes again, once.
        let mut online = Online { epoch: 2, pending: on_way(Some(1)), ..Online::default() };
        online.resend_lost_turns();
        let again = ClientMsg::Turn { ply: 1, turn: second.to_string() };
        assert_eq!(online.outbox, [again]);
        assert_eq!(online.pending[0].sent_on, None, "waiting in the outbox again");
        online.resend_lost_turns();
        assert_eq!(online.outbox.len(), 1);
        let mut online = Online { epoch: 2, pending: on_way(Some(2)), ..Online::default() };
        online.resend_lost_turns();
        assert!(online.outbox.is_empty(), "written to this connection: still on its way");
    }

    #[test]
    fn offers_and_takebacks_follow_the_servers_state() {
        let with = |role, f: &dyn Fn(&mut fanorona_net::GameState)| {
            let mut s = server_state();
            f(&mut s);
            Online { role: Some(role), server: Some(s), ..Online::default() }
        };
        let free = with(Role::White, &|_| {});
        assert!(free.may_offer_draw() && free.may_ask_takeback());
        // An offer of either side stands: no second one.
        for by in [Colour::White, Colour::Black] {
            let o = with(Role::White, &|s| s.draw_offer = Some(by));
            assert!(!o.may_offer_draw() && o.may_ask_takeback(), "{by:?} offered");
            let o = with(Role::White, &|s| s.takeback_request = Some(by));
            assert!(o.may_offer_draw() && !o.may_ask_takeback(), "{by:?} asked");
        }
        let o = with(Role::White, &|s| s.ply = 0);
        assert!(o.may_offer_draw() && !o.may_ask_takeback(), "no turn to take back");
        let o = with(Role::White, &|s| s.to_move = None);
        assert!(!o.may_offer_draw() && !o.may_ask_takeback(), "the game is over");
        let o = with(Role::Spectator, &|_| {});
        assert!(!o.may_offer_draw() && !o.may_ask_takeback(), "a spectator has no say");
        assert!(!Online::default().may_offer_draw(), "no state from the server yet");
    }

    #[test]
    fn a_turn_refused_after_the_game_ended_leaves_no_notice() {
        let ended = fanorona_net::GameState { to_move: None, result: "0-1".into(), ..server_state() };
        let on_way = || vec![Pending { ply: 1, turn: "d3-e3A".parse().unwrap(), sent_on: Some(1) }];
        // The server's state already holds the end (the friend resigned): no notice, and the turn is dropped.
        let mut online = Online { server: Some(ended), pending: on_way(), ..Online::default() };
        refused(&mut online, ErrorCode::GameOver, "game over", 5.0);
        assert_eq!(online.notice(5.0), None);
        assert!(online.pending.is_empty());
        assert_eq!(online.outbox, [ClientMsg::Sync]);
        // Without the end on the board, the player is told why the turn did not count.
        let mut online = Online { server: Some(server_state()), pending: on_way(), ..Online::default() };
        refused(&mut online, ErrorCode::GameOver, "game over", 5.0);
        assert!(online.notice(5.0).is_some());
        assert!(online.pending.is_empty());
    }

    #[test]
    fn the_seat_token_is_resumed_after_a_drop() {
        let mut online = Online::default();
        online.start("ws://h/ws", " Rasoa\n", Goal::QuickMatch(Board::Dimy));
        assert_eq!(online.entry_message(), Some(ClientMsg::QuickMatch { board: Board::Dimy, name: "Rasoa".into() }));
        online.token = Some("0123456789abcdef0123456789abcdef".into());
        assert_eq!(online.entry_message(), Some(ClientMsg::Resume { token: online.token.clone().unwrap() }));
        online.lost(10.0, "test");
        let Link::Retrying { at } = online.link() else { panic!("no retry") };
        assert!(at > 10.0 && at <= 10.0 + Backoff::FIRST_MS as f64 / 1000.0);
    }
}
