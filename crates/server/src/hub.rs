//! The games in memory and every request that acts on them, each checked and stored before it is answered.

use crate::Config;
use crate::db::{NewGame, StoredSeat, Write, unix_now};
use crate::guesses::FailedJoins;
use crate::notice::Notice;
use crate::pg::Waiter;
use crate::room::{ConnHandle, Room, colour};
use crate::store::Store;
use crate::tokens;
use fanorona_net::{Board, ColourChoice, ErrorCode, OfferKind, Role, ServerMsg};
use fanorona_rules::{Rules, Side, Turn, Variant};
use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex as StdMutex, MutexGuard as StdMutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::{Mutex, OwnedMutexGuard, oneshot};

/// A shared game.
pub type RoomRef = Arc<Mutex<Room>>;

/// Runs a request (`attempt`, an expression evaluated again to retry) on the game `r` of `hub`; if the game
/// changed on another server meanwhile, reads it again and runs the request once more against the newer state.
///
/// A refusal on the game's state (not your turn, no opponent yet, nothing to answer…) may come from a copy that is
/// behind too, when a notice has not arrived yet: with a shared database the stored version is checked before such
/// a refusal is sent, and the request decided again if the copy was behind.
macro_rules! retrying {
    ($hub:expr, $r:expr, $attempt:expr) => {{
        match $attempt {
            Err(e) if e.retry || $hub.is_behind($r).await => {
                $hub.refresh($r).await?;
                $attempt
            }
            other => other,
        }
    }};
}

/// A refusal: the error sent back; nothing changed.
#[derive(Debug)]
pub struct Refusal {
    /// What went wrong.
    pub code: ErrorCode,
    /// Details in English.
    pub message: String,
    /// Whether the game changed on another server meanwhile: read it again and decide anew.
    pub retry: bool,
}

impl Refusal {
    /// The error message the client gets.
    pub fn to_msg(&self) -> ServerMsg {
        ServerMsg::error(self.code, self.message.clone())
    }
}

/// A refusal with its code and details.
pub fn refuse(code: ErrorCode, message: impl Into<String>) -> Refusal {
    Refusal { code, message: message.into(), retry: false }
}

fn internal(e: impl std::fmt::Display) -> Refusal {
    eprintln!("storage error: {e}");
    refuse(ErrorCode::Internal, "the server could not store this; nothing changed, try again")
}

/// A player waiting for a quick match on this server (SQLite: the queue is this server's).
struct Waiting {
    conn: ConnHandle,
    name: String,
    matched: oneshot::Sender<(RoomRef, Side)>,
}

/// A player of this server waiting in the shared queue (PostgreSQL), with the seat token chosen for them: the
/// server that pairs them stores only its hash.
struct Queued {
    conn: ConnHandle,
    token: String,
    matched: oneshot::Sender<(RoomRef, Side)>,
}

/// Where a connection stands after a request that places it.
pub enum Placed {
    /// In a game.
    Game(RoomRef, Role),
    /// Waiting for a quick match; the receiver gets the game.
    Queued(Board, oneshot::Receiver<(RoomRef, Side)>),
}

/// Everything the server holds in memory.
pub struct Hub {
    /// The database.
    pub store: Store,
    /// The limits.
    pub config: Config,
    /// This server's id among the servers that share a PostgreSQL database (random at each start).
    pub server_id: String,
    rooms: Mutex<HashMap<String, RoomRef>>,
    queue: StdMutex<HashMap<Board, Waiting>>,
    queued: StdMutex<HashMap<u64, Queued>>,
    per_ip: StdMutex<HashMap<IpAddr, usize>>,
    failed_joins: StdMutex<FailedJoins>,
    /// Games created per address: the same fixed-window count as wrong invite codes, every creation counted.
    creates: StdMutex<FailedJoins>,
    connections: AtomicUsize,
    next_conn: AtomicU64,
}

/// Counts a connection against its address until dropped.
pub struct IpGuard {
    hub: Arc<Hub>,
    ip: IpAddr,
}

impl IpGuard {
    /// The client address the connection counts against (see [`crate::client_ip`]).
    pub fn ip(&self) -> IpAddr {
        self.ip
    }
}

impl Drop for IpGuard {
    fn drop(&mut self) {
        let mut map = self.hub.per_ip.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = map.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                map.remove(&self.ip);
            }
        }
        self.hub.connections.fetch_sub(1, Ordering::Relaxed);
    }
}

fn variant(board: Board) -> Variant {
    match board {
        Board::Tsivy => Variant::Tsivy,
        Board::Dimy => Variant::Dimy,
    }
}

impl Hub {
    /// A hub over a database.
    pub fn new(store: impl Into<Store>, config: Config) -> Hub {
        Hub {
            store: store.into(),
            server_id: tokens::new_game_id(),
            rooms: Mutex::new(HashMap::new()),
            queue: StdMutex::new(HashMap::new()),
            queued: StdMutex::new(HashMap::new()),
            per_ip: StdMutex::new(HashMap::new()),
            failed_joins: StdMutex::new(FailedJoins::new(
                config.max_failed_joins,
                config.failed_join_window,
                config.failed_join_addresses,
            )),
            creates: StdMutex::new(FailedJoins::new(config.max_creates, config.create_window, config.create_addresses)),
            connections: AtomicUsize::new(0),
            next_conn: AtomicU64::new(1),
            config,
        }
    }

    /// Admits a connection from `ip`, or refuses it when that address or the server is at its limit.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<IpGuard, ErrorCode> {
        let mut map = self.per_ip.lock().unwrap_or_else(|p| p.into_inner());
        let n = map.entry(ip).or_insert(0);
        if *n >= self.config.max_conns_per_ip {
            return Err(ErrorCode::RateLimited);
        }
        if self.connections.fetch_add(1, Ordering::Relaxed) >= self.config.max_connections {
            self.connections.fetch_sub(1, Ordering::Relaxed);
            return Err(ErrorCode::ServerBusy);
        }
        *n += 1;
        Ok(IpGuard { hub: self.clone(), ip })
    }

    /// A fresh connection id.
    pub fn conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// Games held in memory now.
    pub async fn rooms_in_memory(&self) -> usize {
        self.rooms.lock().await.len()
    }

    /// The game `id` if it is in memory.
    pub(crate) async fn room_in_memory(&self, id: &str) -> Option<RoomRef> {
        self.rooms.lock().await.get(id).cloned()
    }

    /// Every game in memory.
    pub(crate) async fn rooms_held(&self) -> Vec<RoomRef> {
        self.rooms.lock().await.values().cloned().collect()
    }

    /// The ids of the games in memory now: someone is connected to each, so [`crate::db::Db::expire`] must keep them.
    pub async fn room_ids(&self) -> HashSet<String> {
        self.rooms.lock().await.keys().cloned().collect()
    }

    /// The game `id`, from memory or else from the database.
    pub(crate) async fn room(&self, id: &str) -> Result<Option<RoomRef>, Refusal> {
        if let Some(r) = self.room_in_memory(id).await {
            return Ok(Some(r));
        }
        // Read without holding the map, so that other games' requests go on meanwhile; if another request loaded
        // the game at the same time, the first copy in the map is the one.
        let Some(stored) = self.store.load(id.to_string()).await.map_err(internal)? else {
            return Ok(None);
        };
        let room = Room::from_stored(stored).map_err(internal)?;
        let (r, loaded) = {
            let mut rooms = self.rooms.lock().await;
            match rooms.get(id) {
                Some(r) => (r.clone(), false),
                None => {
                    let r = Arc::new(Mutex::new(room));
                    rooms.insert(id.to_string(), r.clone());
                    (r, true)
                }
            }
        };
        if loaded && self.store.postgres().is_some() {
            // Changes notified while the game was being read found it not yet in the map: its stored version says
            // whether to read it once more. And the other servers say which of its players are connected to them.
            self.notify(Notice::Ask { server: self.server_id.clone(), game: id.to_string() }).await;
            if self.is_behind(&r).await {
                self.refresh(&r).await?;
            }
        }
        Ok(Some(r))
    }

    /// Reads the game of `r` again and, if another server changed it since, takes the newer state and tells this
    /// server's connections what changed.
    pub(crate) async fn refresh(&self, r: &RoomRef) -> Result<(), Refusal> {
        let id = r.lock().await.id.clone();
        let Some(stored) = self.store.load(id).await.map_err(internal)? else {
            return Ok(());
        };
        let fresh = Room::from_stored(stored).map_err(internal)?;
        let mut room = r.lock().await;
        if fresh.version > room.version {
            room.adopt(fresh);
        }
        Ok(())
    }

    /// Whether another server changed the game of `r` since this server's copy (always false with SQLite, where this
    /// server makes every change). A failed read counts as not behind: the refusal at hand stands.
    pub(crate) async fn is_behind(&self, r: &RoomRef) -> bool {
        let Some(pg) = self.store.postgres() else { return false };
        let (id, version) = {
            let room = r.lock().await;
            (room.id.clone(), room.version)
        };
        matches!(pg.version(&id).await, Ok(Some(stored)) if stored > version)
    }

    /// Sends a notice to the other servers (with PostgreSQL; nothing with SQLite). A notice that cannot be sent is
    /// only logged: the other servers still read the game again when a change of theirs meets a newer version.
    pub(crate) async fn notify(&self, notice: Notice) {
        if let Some(pg) = self.store.postgres()
            && let Err(e) = pg.notify(&notice.to_json()).await
        {
            eprintln!("notify: {e}");
        }
    }

    /// Stores a change of `room` made from its version, which it raises by one once stored. The other servers hear
    /// of it when it commits: a stored turn (`turn`: its number, mover and notation) as the turn itself, anything
    /// else as a change to read again.
    async fn commit(&self, room: &mut Room, write: Write, turn: Option<(u32, String)>) -> Result<(), Refusal> {
        let (server, game, version) = (self.server_id.clone(), room.id.clone(), room.version + 1);
        let notice = move || {
            match turn {
                Some((ply, turn)) => Notice::Turn { server, game, version, ply, turn },
                None => Notice::Changed { server, game, version },
            }
            .to_json()
        };
        match self.store.write_checked(write, room.version, notice).await {
            Ok(()) => {
                room.version = version;
                Ok(())
            }
            Err(e) if e.conflict => Err(Refusal {
                code: ErrorCode::ServerBusy,
                message: "the game changed meanwhile on another server; try again".into(),
                retry: true,
            }),
            Err(e) => Err(internal(e)),
        }
    }

    /// The locked game `id`, looked up again if it was evicted while we waited for the lock.
    async fn lock_room(&self, id: &str) -> Result<(RoomRef, OwnedMutexGuard<Room>), Refusal> {
        for _ in 0..4 {
            let r = self.room(id).await?.ok_or_else(|| refuse(ErrorCode::UnknownGame, "no such game"))?;
            let room = r.clone().lock_owned().await;
            if !room.evicted {
                return Ok((r, room));
            }
        }
        Err(refuse(ErrorCode::Internal, "the game is busy; try again"))
    }

    /// Forgets a connection: out of its game (the game leaves memory when nobody is left) or the queue.
    pub async fn leave(&self, room: &RoomRef, conn: u64) {
        let (empty, left) = {
            let mut r = room.lock().await;
            let left = r.remove(conn).map(|s| (s, r.id.clone()));
            if let Some((s, _)) = &left {
                r.broadcast(&ServerMsg::Presence { colour: colour(*s), connected: false });
            }
            (r.is_empty(), left)
        };
        if let Some((side, game)) = left {
            self.notify(Notice::Presence { server: self.server_id.clone(), game, side, connected: false }).await;
        }
        if empty {
            let mut rooms = self.rooms.lock().await;
            let mut r = room.lock().await;
            if r.is_empty() && !r.evicted {
                r.evicted = true;
                rooms.remove(&r.id);
            }
        }
    }

    /// Leaves the quick-match queue.
    pub async fn leave_queue(&self, conn: u64) {
        self.queue.lock().unwrap_or_else(|p| p.into_inner()).retain(|_, w| w.conn.id != conn);
        let queued = self.queued.lock().unwrap_or_else(|p| p.into_inner()).remove(&conn);
        if let (Some(_), Some(pg)) = (queued, self.store.postgres())
            && let Err(e) = pg.dequeue(&self.server_id, conn as i64).await
        {
            // The entry stays until this server is taken for dead; a match made with it meanwhile finds the
            // connection gone, as when a player leaves just as they are paired.
            eprintln!("quick-match queue: {e}");
        }
    }

    /// [`fanorona_net::ClientMsg::Create`] from a client at `ip`, which may create [`Config::max_creates`] games per
    /// [`Config::create_window`] (counted per address, so reconnecting does not start afresh).
    pub async fn create(
        &self,
        me: &ConnHandle,
        ip: IpAddr,
        board: Board,
        rules: &str,
        choice: ColourChoice,
        name: String,
    ) -> Result<Placed, Refusal> {
        let rules = Rules::from_tag(rules, variant(board)).map_err(|e| refuse(ErrorCode::BadRules, e.to_string()))?;
        let allowed = self.creates.lock().unwrap_or_else(|p| p.into_inner()).take(ip, Instant::now());
        if let Err(wait) = allowed {
            let text = format!("too many games created from this address; try again in {}", in_words(wait));
            return Err(refuse(ErrorCode::RateLimited, text));
        }
        let mine = match choice {
            ColourChoice::White => Side::White,
            ColourChoice::Black => Side::Black,
            ColourChoice::Random => {
                if rand::random() {
                    Side::White
                } else {
                    Side::Black
                }
            }
        };
        let (id, token, invite, spectate) =
            (tokens::new_game_id(), tokens::new_token(), tokens::new_invite(), tokens::new_token());
        let seat = StoredSeat { token_hash: tokens::hash(&token), name: name.clone() };
        let (white, black) = match mine {
            Side::White => (Some(seat), None),
            Side::Black => (None, Some(seat)),
        };
        let new = NewGame {
            id: id.clone(),
            variant: board.tag().to_string(),
            rules: rules.to_tag(),
            // The code is canonical already, so this is what `tokens::invite_hash` gives for any typed form of it.
            invite_hash: Some(tokens::hash(&invite)),
            spectate_hash: tokens::hash(&spectate),
            spectate_code: spectate.clone(),
            white,
            black,
        };
        self.store.write(Write::CreateGame(new)).await.map_err(internal)?;
        let mut room = Room::new(id.clone(), rules);
        room.spectate = Some(spectate.clone());
        let s = &mut room.seats[mine.index()];
        s.token_hash = Some(tokens::hash(&token));
        s.name = name;
        s.conn = Some(me.clone());
        me.send(&ServerMsg::Created { game: id.clone(), colour: colour(mine), token, invite, spectate });
        me.send(&room.state(role(mine)));
        let r = Arc::new(Mutex::new(room));
        self.rooms.lock().await.insert(id, r.clone());
        Ok(Placed::Game(r, role(mine)))
    }

    /// [`fanorona_net::ClientMsg::Join`] from a client at `ip`: the invite in any form a person types it
    /// ([`tokens::invite_hash`]), while it is unused and younger than [`Config::invite_ttl`]. An address that sent
    /// too many wrong codes lately ([`Config::max_failed_joins`]) is refused before its code is looked up.
    pub async fn join(&self, me: &ConnHandle, ip: IpAddr, invite: &str, name: String) -> Result<Placed, Refusal> {
        let allowed = self.failed_joins().check(ip, Instant::now());
        if let Err(wait) = allowed {
            let text = format!("too many wrong invite codes from this address; try again in {}", in_words(wait));
            return Err(refuse(ErrorCode::RateLimited, text));
        }
        let hash = tokens::invite_hash(invite).ok_or_else(|| refuse(ErrorCode::InvalidField, "not an invite code"))?;
        // An expired invite is answered exactly as one that never existed: either way there is nothing to join.
        let id = match self.store.find_invite(hash).await.map_err(internal)? {
            Some((id, created_at)) if !self.invite_expired(created_at) => id,
            _ => {
                self.failed_joins().record(ip, Instant::now());
                return Err(refuse(
                    ErrorCode::UnknownGame,
                    "no game has this invite code (or it was used, or expired)",
                ));
            }
        };
        let mut again = false;
        loop {
            let (r, mut room) = self.lock_room(&id).await?;
            match self.take_seat(&mut room, me, &name).await {
                Err(e) if e.retry && !again => {
                    again = true;
                    drop(room);
                    self.refresh(&r).await?;
                }
                Err(e) => return Err(e),
                Ok(mine) => {
                    drop(room);
                    let game = id.clone();
                    self.notify(Notice::Presence { server: self.server_id.clone(), game, side: mine, connected: true })
                        .await;
                    return Ok(Placed::Game(r, role(mine)));
                }
            }
        }
    }

    /// Seats `me` in the free seat of `room`, whose invite they hold.
    async fn take_seat(&self, room: &mut Room, me: &ConnHandle, name: &str) -> Result<Side, Refusal> {
        let free = Side::BOTH.into_iter().find(|s| room.seats[s.index()].token_hash.is_none());
        let (true, Some(mine)) = (room.invite_open, free) else {
            return Err(refuse(ErrorCode::SeatTaken, "the invite was already used"));
        };
        let token = tokens::new_token();
        let seat = StoredSeat { token_hash: tokens::hash(&token), name: name.to_string() };
        let write = Write::TakeSeat { game: room.id.clone(), side: mine.name(), seat };
        self.commit(room, write, None).await?;
        room.invite_open = false;
        let s = &mut room.seats[mine.index()];
        s.token_hash = Some(tokens::hash(&token));
        s.name = name.to_string();
        s.conn = Some(me.clone());
        s.remote = None;
        let spectate = room.spectate.clone();
        me.send(&ServerMsg::Seated { game: room.id.clone(), colour: colour(mine), token, spectate });
        room.broadcast_state();
        Ok(mine)
    }

    fn failed_joins(&self) -> StdMutexGuard<'_, FailedJoins> {
        self.failed_joins.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether the invite of a game created at `created_at` (Unix seconds) is older than [`Config::invite_ttl`]. Both
    /// times are whole seconds, so an invite may last up to a second longer than the TTL, never less.
    fn invite_expired(&self, created_at: i64) -> bool {
        let ttl = i64::try_from(self.config.invite_ttl.as_secs()).unwrap_or(i64::MAX);
        unix_now().saturating_sub(created_at) > ttl
    }

    /// [`fanorona_net::ClientMsg::Resume`]: back to a seat; an older connection on it is closed.
    pub async fn resume(&self, me: &ConnHandle, token: &str) -> Result<Placed, Refusal> {
        let found = self.store.find_seat(tokens::hash(token)).await.map_err(internal)?;
        let (id, side_name) = found.ok_or_else(|| refuse(ErrorCode::UnknownGame, "no seat has this token"))?;
        let mine = if side_name == "white" { Side::White } else { Side::Black };
        let (r, mut room) = self.lock_room(&id).await?;
        if let Some(old) = room.seats[mine.index()].conn.replace(me.clone()) {
            old.kill.notify_one();
        }
        // A connection to another server on this seat gives way to this one.
        room.seats[mine.index()].remote = None;
        let seated = ServerMsg::Seated {
            game: room.id.clone(),
            colour: colour(mine),
            token: token.to_string(),
            spectate: room.spectate.clone(),
        };
        me.send(&seated);
        me.send(&room.state(role(mine)));
        room.broadcast_except(me.id, &ServerMsg::Presence { colour: colour(mine), connected: true });
        drop(room);
        self.notify(Notice::Presence { server: self.server_id.clone(), game: id, side: mine, connected: true }).await;
        Ok(Placed::Game(r, role(mine)))
    }

    /// [`fanorona_net::ClientMsg::Spectate`].
    pub async fn spectate(&self, me: &ConnHandle, token: &str) -> Result<Placed, Refusal> {
        let found = self.store.find_spectate(tokens::hash(token)).await.map_err(internal)?;
        let id = found.ok_or_else(|| refuse(ErrorCode::UnknownGame, "no game has this spectator token"))?;
        let (r, mut room) = self.lock_room(&id).await?;
        if room.spectators.len() >= self.config.max_spectators {
            return Err(refuse(ErrorCode::ServerBusy, "too many spectators in this game"));
        }
        room.spectators.push(me.clone());
        me.send(&ServerMsg::Spectating { game: room.id.clone() });
        me.send(&room.state(Role::Spectator));
        Ok(Placed::Game(r.clone(), Role::Spectator))
    }

    /// [`fanorona_net::ClientMsg::QuickMatch`]: pairs with the player waiting for the same board, or waits.
    pub async fn quick_match(&self, me: &ConnHandle, board: Board, name: String) -> Result<Placed, Refusal> {
        if self.store.postgres().is_some() {
            return self.quick_match_shared(me, board, name).await;
        }
        let waiting = {
            let mut q = self.queue.lock().unwrap_or_else(|p| p.into_inner());
            match q.remove(&board) {
                Some(w) if !w.matched.is_closed() && w.conn.id != me.id => w,
                _ => {
                    let (tx, rx) = oneshot::channel();
                    q.insert(board, Waiting { conn: me.clone(), name, matched: tx });
                    me.send(&ServerMsg::Queued { board });
                    return Ok(Placed::Queued(board, rx));
                }
            }
        };
        let rules = Rules { variant: variant(board), ..Rules::default() };
        let mine = if rand::random() { Side::White } else { Side::Black };
        let id = tokens::new_game_id();
        let (my_token, their_token, spectate) = (tokens::new_token(), tokens::new_token(), tokens::new_token());
        let mut room = Room::new(id.clone(), rules);
        room.invite_open = false;
        room.spectate = Some(spectate.clone());
        let mut seats = [None, None];
        for (side, token, name, conn) in
            [(mine, &my_token, &name, me), (mine.opponent(), &their_token, &waiting.name, &waiting.conn)]
        {
            let s = &mut room.seats[side.index()];
            s.token_hash = Some(tokens::hash(token));
            s.name = name.clone();
            s.conn = Some(conn.clone());
            seats[side.index()] = Some(StoredSeat { token_hash: tokens::hash(token), name: name.clone() });
        }
        let new = matched_game(&id, board, &spectate, seats);
        if let Err(e) = self.store.write(Write::CreateGame(new)).await {
            // Put the waiting player back: the failure is ours, not theirs.
            self.queue.lock().unwrap_or_else(|p| p.into_inner()).entry(board).or_insert(waiting);
            return Err(internal(e));
        }
        let r = Arc::new(Mutex::new(room));
        self.rooms.lock().await.insert(id.clone(), r.clone());
        let room = r.lock().await;
        let theirs = mine.opponent();
        // Both players get the spectator token, to share with whoever may watch.
        let watch = Some(spectate);
        waiting.conn.send(&ServerMsg::Seated {
            game: id.clone(),
            colour: colour(theirs),
            token: their_token,
            spectate: watch.clone(),
        });
        waiting.conn.send(&room.state(role(theirs)));
        me.send(&ServerMsg::Seated { game: id, colour: colour(mine), token: my_token, spectate: watch });
        me.send(&room.state(role(mine)));
        drop(room);
        if waiting.matched.send((r.clone(), theirs)).is_err() {
            // The waiting connection went away just now, most likely before its token reached it: free its place
            // so that the room can leave memory, and tell the opponent, who can resign the game or leave.
            let mut room = r.lock().await;
            room.remove(waiting.conn.id);
            room.broadcast(&ServerMsg::Presence { colour: colour(theirs), connected: false });
        }
        Ok(Placed::Game(r, role(mine)))
    }

    /// Quick match with the queue that every server sharing the PostgreSQL database uses: pairs with the player
    /// who waited longest on any live server, or waits. The waiting player's server learns of the match by a notice
    /// ([`Hub::matched`]).
    async fn quick_match_shared(&self, me: &ConnHandle, board: Board, name: String) -> Result<Placed, Refusal> {
        let Some(pg) = self.store.postgres() else {
            return Err(refuse(ErrorCode::Internal, "no shared queue"));
        };
        let rules = Rules { variant: variant(board), ..Rules::default() };
        let mine = if rand::random() { Side::White } else { Side::Black };
        let theirs = mine.opponent();
        let id = tokens::new_game_id();
        let (my_token, spectate) = (tokens::new_token(), tokens::new_token());
        // If nobody waits, this token is the one this player waits with.
        let wait_token = tokens::new_token();
        let me_waiting = Waiter {
            server: self.server_id.clone(),
            conn: me.id as i64,
            name: name.clone(),
            token_hash: tokens::hash(&wait_token),
        };
        let make = |w: &Waiter| {
            let mut seats = [None, None];
            seats[mine.index()] = Some(StoredSeat { token_hash: tokens::hash(&my_token), name: name.clone() });
            seats[theirs.index()] = Some(StoredSeat { token_hash: w.token_hash, name: w.name.clone() });
            let game = matched_game(&id, board, &spectate, seats);
            let conn = u64::try_from(w.conn).unwrap_or(0);
            let notice = Notice::Matched {
                server: self.server_id.clone(),
                to: w.server.clone(),
                conn,
                game: id.clone(),
                side: theirs,
            };
            (game, notice.to_json())
        };
        let (tx, rx) = oneshot::channel();
        // Registered before the queue entry is stored, so that a match made at once finds it.
        self.queued_map().insert(me.id, Queued { conn: me.clone(), token: wait_token, matched: tx });
        let paired = pg.pair_or_wait(board.tag(), &me_waiting, make).await;
        let waiter = match paired {
            Ok(Some(w)) => {
                self.queued_map().remove(&me.id);
                w
            }
            Ok(None) => {
                me.send(&ServerMsg::Queued { board });
                return Ok(Placed::Queued(board, rx));
            }
            Err(e) => {
                self.queued_map().remove(&me.id);
                return Err(internal(e));
            }
        };
        let mut room = Room::new(id.clone(), rules);
        room.invite_open = false;
        room.spectate = Some(spectate.clone());
        let s = &mut room.seats[mine.index()];
        s.token_hash = Some(tokens::hash(&my_token));
        s.name = name;
        s.conn = Some(me.clone());
        let s = &mut room.seats[theirs.index()];
        s.token_hash = Some(waiter.token_hash);
        s.name = waiter.name;
        me.send(&ServerMsg::Seated {
            game: id.clone(),
            colour: colour(mine),
            token: my_token,
            spectate: Some(spectate),
        });
        me.send(&room.state(role(mine)));
        let r = Arc::new(Mutex::new(room));
        self.rooms.lock().await.insert(id.clone(), r.clone());
        self.notify(Notice::Presence { server: self.server_id.clone(), game: id, side: mine, connected: true }).await;
        Ok(Placed::Game(r, role(mine)))
    }

    fn queued_map(&self) -> StdMutexGuard<'_, HashMap<u64, Queued>> {
        self.queued.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Another server paired this server's waiting connection `conn` into `game`, in the seat `side`: seats it and
    /// tells it. A connection that has gone meanwhile leaves its seat free of anyone connected, as when a player
    /// leaves just as they are paired on one server.
    pub(crate) async fn matched(&self, conn: u64, game: &str, side: Side) {
        let Some(q) = self.queued_map().remove(&conn) else {
            return;
        };
        let r = match self.room(game).await {
            Ok(Some(r)) => r,
            Ok(None) | Err(_) => {
                q.conn.send(&ServerMsg::error(ErrorCode::Internal, "the match could not be read; try again"));
                q.conn.kill.notify_one();
                return;
            }
        };
        {
            let mut room = r.lock().await;
            // The connection moves into the game before it hears of it, so that its answer finds it there.
            if q.matched.send((r.clone(), side)).is_err() {
                return;
            }
            let seat = &mut room.seats[side.index()];
            seat.conn = Some(q.conn.clone());
            seat.remote = None;
            let seated = ServerMsg::Seated {
                game: game.to_string(),
                colour: colour(side),
                token: q.token.clone(),
                spectate: room.spectate.clone(),
            };
            q.conn.send(&seated);
            q.conn.send(&room.state(role(side)));
            room.broadcast_except(q.conn.id, &ServerMsg::Presence { colour: colour(side), connected: true });
        }
        self.notify(Notice::Presence { server: self.server_id.clone(), game: game.to_string(), side, connected: true })
            .await;
    }

    /// Forgets the players connected to servers taken for dead.
    pub(crate) async fn forget_servers(&self, dead: &[String]) {
        for r in self.rooms_held().await {
            let mut room = r.lock().await;
            for side in Side::BOTH {
                if let Some(server) = room.seats[side.index()].remote.clone()
                    && dead.contains(&server)
                {
                    room.set_remote(side, &server, false);
                }
            }
        }
    }

    /// [`fanorona_net::ClientMsg::Turn`]: checked by the engine, stored, then broadcast.
    pub async fn turn(&self, r: &RoomRef, who: Role, ply: u32, text: &str) -> Result<(), Refusal> {
        retrying!(self, r, self.turn_once(r, who, ply, text).await)
    }

    async fn turn_once(&self, r: &RoomRef, who: Role, ply: u32, text: &str) -> Result<(), Refusal> {
        let mut room = r.lock().await;
        let mine = player(who)?;
        open(&room)?;
        if room.seats[mine.opponent().index()].token_hash.is_none() {
            return Err(refuse(ErrorCode::NoOpponent, "nobody holds the other seat yet"));
        }
        if room.to_move() != Some(mine) {
            return Err(refuse(ErrorCode::NotYourTurn, "it is the opponent's turn"));
        }
        if ply != room.ply() {
            return Err(refuse(ErrorCode::StaleTurn, format!("{} turns are played; this turn says {ply}", room.ply())));
        }
        let turn: Turn = text.parse().map_err(|e| refuse(ErrorCode::BadNotation, format!("{text:?}: {e}")))?;
        let mut next = room.game.clone();
        next.play_turn(&turn).map_err(|e| refuse(ErrorCode::IllegalTurn, format!("{text}: {e}")))?;
        let notation = turn.to_string();
        let write = Write::AddTurn { game: room.id.clone(), ply, notation: notation.clone(), finished: next.is_over() };
        self.commit(&mut room, write, Some((ply, notation.clone()))).await?;
        // A turn answers any standing offer: the mover's own lapse, the opponent's are declined by playing on.
        room.turn_stored(next, ply, mine, notation);
        Ok(())
    }

    /// Offers, accepts or declines a draw.
    pub async fn draw(&self, r: &RoomRef, who: Role, answer: Option<bool>) -> Result<(), Refusal> {
        retrying!(self, r, self.draw_once(r, who, answer).await)
    }

    async fn draw_once(&self, r: &RoomRef, who: Role, answer: Option<bool>) -> Result<(), Refusal> {
        let mut room = r.lock().await;
        let mine = player(who)?;
        open(&room)?;
        let theirs_standing = room.draw_offer == Some(mine.opponent());
        match answer {
            None if !theirs_standing => {
                if room.draw_offer != Some(mine) {
                    let takeback = room.takeback;
                    self.store_offers(&mut room, Some(mine), takeback).await?;
                    room.draw_offer = Some(mine);
                    room.broadcast(&ServerMsg::Offer { kind: OfferKind::Draw, by: colour(mine) });
                }
                Ok(())
            }
            // Offering against a standing offer accepts it.
            None | Some(true) if theirs_standing => {
                let game = room.id.clone();
                self.commit(&mut room, Write::SetEnding { game, ending: "draw".into() }, None).await?;
                room.game.agree_draw().map_err(|e| refuse(ErrorCode::GameOver, e.to_string()))?;
                room.draw_offer = None;
                room.takeback = None;
                room.broadcast_state();
                Ok(())
            }
            Some(false) if theirs_standing => {
                let takeback = room.takeback;
                self.store_offers(&mut room, None, takeback).await?;
                room.draw_offer = None;
                room.broadcast(&ServerMsg::Declined { kind: OfferKind::Draw, by: colour(mine) });
                Ok(())
            }
            _ => Err(refuse(ErrorCode::NothingToAnswer, "the opponent has not offered a draw")),
        }
    }

    /// Resigns.
    pub async fn resign(&self, r: &RoomRef, who: Role) -> Result<(), Refusal> {
        retrying!(self, r, self.resign_once(r, who).await)
    }

    async fn resign_once(&self, r: &RoomRef, who: Role) -> Result<(), Refusal> {
        let mut room = r.lock().await;
        let mine = player(who)?;
        open(&room)?;
        let ending = format!("resign {}", mine.name());
        let game = room.id.clone();
        self.commit(&mut room, Write::SetEnding { game, ending }, None).await?;
        room.game.resign(mine).map_err(|e| refuse(ErrorCode::GameOver, e.to_string()))?;
        room.draw_offer = None;
        room.takeback = None;
        room.broadcast_state();
        Ok(())
    }

    /// Requests (`None`), accepts or declines a takeback. Accepted, it takes back the requester's last turn and the
    /// opponent's reply to it, if any, so that the requester is to move again.
    pub async fn takeback(&self, r: &RoomRef, who: Role, answer: Option<bool>) -> Result<(), Refusal> {
        retrying!(self, r, self.takeback_once(r, who, answer).await)
    }

    async fn takeback_once(&self, r: &RoomRef, who: Role, answer: Option<bool>) -> Result<(), Refusal> {
        let mut room = r.lock().await;
        let mine = player(who)?;
        open(&room)?;
        match answer {
            None => {
                if undo_count(&room, mine).is_none() {
                    return Err(refuse(ErrorCode::NothingToAnswer, "you have no turn to take back"));
                }
                if room.takeback != Some(mine) {
                    let draw = room.draw_offer;
                    self.store_offers(&mut room, draw, Some(mine)).await?;
                    room.takeback = Some(mine);
                    room.broadcast(&ServerMsg::Offer { kind: OfferKind::Takeback, by: colour(mine) });
                }
                Ok(())
            }
            Some(accept) => {
                let requester = mine.opponent();
                if room.takeback != Some(requester) {
                    return Err(refuse(ErrorCode::NothingToAnswer, "the opponent has not asked for a takeback"));
                }
                if !accept {
                    let draw = room.draw_offer;
                    self.store_offers(&mut room, draw, None).await?;
                    room.takeback = None;
                    room.broadcast(&ServerMsg::Declined { kind: OfferKind::Takeback, by: colour(mine) });
                    return Ok(());
                }
                let n = undo_count(&room, requester)
                    .ok_or_else(|| refuse(ErrorCode::NothingToAnswer, "nothing to take back"))?;
                let mut next = room.game.clone();
                for _ in 0..n {
                    next.undo().map_err(|e| refuse(ErrorCode::NothingToAnswer, e.to_string()))?;
                }
                let from_ply = next.turns().len() as u32;
                let game = room.id.clone();
                self.commit(&mut room, Write::TruncateTurns { game, from_ply }, None).await?;
                room.game = next;
                room.draw_offer = None;
                room.takeback = None;
                room.broadcast_state();
                Ok(())
            }
        }
    }

    /// Stores the standing offers of `room` as they are about to be; the caller changes them in memory once stored.
    async fn store_offers(&self, room: &mut Room, draw: Option<Side>, takeback: Option<Side>) -> Result<(), Refusal> {
        let write =
            Write::SetOffers { game: room.id.clone(), draw: draw.map(Side::name), takeback: takeback.map(Side::name) };
        self.commit(room, write, None).await
    }
}

/// The game a quick match stores: the board's default rules, both seats taken, no invite.
fn matched_game(id: &str, board: Board, spectate: &str, [white, black]: [Option<StoredSeat>; 2]) -> NewGame {
    NewGame {
        id: id.to_string(),
        variant: board.tag().to_string(),
        rules: Rules { variant: variant(board), ..Rules::default() }.to_tag(),
        invite_hash: None,
        spectate_hash: tokens::hash(spectate),
        spectate_code: spectate.to_string(),
        white,
        black,
    }
}

/// A wait as a person reads it: seconds under a minute, else minutes, rounded up.
fn in_words(wait: Duration) -> String {
    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    match seconds {
        0..=1 => "a second".to_string(),
        2..=59 => format!("{seconds} seconds"),
        60 => "a minute".to_string(),
        _ => format!("{} minutes", seconds.div_ceil(60)),
    }
}

/// How many turns to take back so that `side` is to move again before its last turn: 1 or 2, or None if it has
/// not played.
fn undo_count(room: &Room, side: Side) -> Option<usize> {
    let starts = room.game.turn_starts();
    let n = room.game.turns().len();
    (1..=2.min(n)).find(|&k| starts[n - k].side_to_move() == side)
}

/// The role of a seat.
pub fn role(side: Side) -> Role {
    match side {
        Side::White => Role::White,
        Side::Black => Role::Black,
    }
}

fn player(who: Role) -> Result<Side, Refusal> {
    match who {
        Role::White => Ok(Side::White),
        Role::Black => Ok(Side::Black),
        Role::Spectator => Err(refuse(ErrorCode::NotYourSeat, "spectators cannot play")),
    }
}

fn open(room: &Room) -> Result<(), Refusal> {
    match room.game.outcome() {
        Some(o) => Err(refuse(ErrorCode::GameOver, format!("the game is over: {o}"))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_read_as_words_rounded_up() {
        let words = |ms| in_words(Duration::from_millis(ms));
        assert_eq!(words(0), "a second");
        assert_eq!(words(1_000), "a second");
        assert_eq!(words(1_001), "2 seconds");
        assert_eq!(words(59_000), "59 seconds");
        assert_eq!(words(59_500), "a minute");
        assert_eq!(words(60_001), "2 minutes");
        assert_eq!(words(600_000), "10 minutes");
    }
}
