//! The games in memory and every request that acts on them, each checked and stored before it is answered.

use crate::Config;
use crate::db::{Db, NewGame, StoredSeat, Write, unix_now};
use crate::guesses::FailedJoins;
use crate::room::{ConnHandle, Room, colour};
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

/// A refusal: the error sent back; nothing changed.
#[derive(Debug)]
pub struct Refusal {
    /// What went wrong.
    pub code: ErrorCode,
    /// Details in English.
    pub message: String,
}

impl Refusal {
    /// The error message the client gets.
    pub fn to_msg(&self) -> ServerMsg {
        ServerMsg::error(self.code, self.message.clone())
    }
}

/// A refusal with its code and details.
pub fn refuse(code: ErrorCode, message: impl Into<String>) -> Refusal {
    Refusal { code, message: message.into() }
}

fn internal(e: impl std::fmt::Display) -> Refusal {
    eprintln!("storage error: {e}");
    refuse(ErrorCode::Internal, "the server could not store this; nothing changed, try again")
}

/// A player waiting for a quick match.
struct Waiting {
    conn: ConnHandle,
    name: String,
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
    pub db: Db,
    /// The limits.
    pub config: Config,
    rooms: Mutex<HashMap<String, RoomRef>>,
    queue: StdMutex<HashMap<Board, Waiting>>,
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
    pub fn new(db: Db, config: Config) -> Hub {
        Hub {
            db,
            rooms: Mutex::new(HashMap::new()),
            queue: StdMutex::new(HashMap::new()),
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

    /// The ids of the games in memory now: someone is connected to each, so [`Db::expire`] must keep them.
    pub async fn room_ids(&self) -> HashSet<String> {
        self.rooms.lock().await.keys().cloned().collect()
    }

    /// The game `id`, from memory or else from the database.
    async fn room(&self, id: &str) -> Result<Option<RoomRef>, Refusal> {
        let mut rooms = self.rooms.lock().await;
        if let Some(r) = rooms.get(id) {
            return Ok(Some(r.clone()));
        }
        let Some(stored) = self.db.load(id.to_string()).await.map_err(internal)? else {
            return Ok(None);
        };
        let room = Room::from_stored(stored).map_err(internal)?;
        let r = Arc::new(Mutex::new(room));
        rooms.insert(id.to_string(), r.clone());
        Ok(Some(r))
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
        let empty = {
            let mut r = room.lock().await;
            if let Some(s) = r.remove(conn) {
                r.broadcast(&ServerMsg::Presence { colour: colour(s), connected: false });
            }
            r.is_empty()
        };
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
    pub fn leave_queue(&self, conn: u64) {
        let mut q = self.queue.lock().unwrap_or_else(|p| p.into_inner());
        q.retain(|_, w| w.conn.id != conn);
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
        self.db.write(Write::CreateGame(new)).await.map_err(internal)?;
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
        let id = match self.db.find_invite(hash).await.map_err(internal)? {
            Some((id, created_at)) if !self.invite_expired(created_at) => id,
            _ => {
                self.failed_joins().record(ip, Instant::now());
                return Err(refuse(
                    ErrorCode::UnknownGame,
                    "no game has this invite code (or it was used, or expired)",
                ));
            }
        };
        let (r, mut room) = self.lock_room(&id).await?;
        let free = Side::BOTH.into_iter().find(|s| room.seats[s.index()].token_hash.is_none());
        let (true, Some(mine)) = (room.invite_open, free) else {
            return Err(refuse(ErrorCode::SeatTaken, "the invite was already used"));
        };
        let token = tokens::new_token();
        let seat = StoredSeat { token_hash: tokens::hash(&token), name: name.clone() };
        let write = Write::TakeSeat { game: room.id.clone(), side: mine.name(), seat };
        self.db.write(write).await.map_err(|e| {
            if e.is_invite_used() { refuse(ErrorCode::SeatTaken, "the invite was already used") } else { internal(e) }
        })?;
        room.invite_open = false;
        let s = &mut room.seats[mine.index()];
        s.token_hash = Some(tokens::hash(&token));
        s.name = name.clone();
        s.conn = Some(me.clone());
        let spectate = room.spectate.clone();
        me.send(&ServerMsg::Seated { game: room.id.clone(), colour: colour(mine), token, spectate });
        room.broadcast_state();
        Ok(Placed::Game(r.clone(), role(mine)))
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
        let found = self.db.find_seat(tokens::hash(token)).await.map_err(internal)?;
        let (id, side_name) = found.ok_or_else(|| refuse(ErrorCode::UnknownGame, "no seat has this token"))?;
        let mine = if side_name == "white" { Side::White } else { Side::Black };
        let (r, mut room) = self.lock_room(&id).await?;
        if let Some(old) = room.seats[mine.index()].conn.replace(me.clone()) {
            old.kill.notify_one();
        }
        let seated = ServerMsg::Seated {
            game: room.id.clone(),
            colour: colour(mine),
            token: token.to_string(),
            spectate: room.spectate.clone(),
        };
        me.send(&seated);
        me.send(&room.state(role(mine)));
        room.broadcast_except(me.id, &ServerMsg::Presence { colour: colour(mine), connected: true });
        Ok(Placed::Game(r.clone(), role(mine)))
    }

    /// [`fanorona_net::ClientMsg::Spectate`].
    pub async fn spectate(&self, me: &ConnHandle, token: &str) -> Result<Placed, Refusal> {
        let found = self.db.find_spectate(tokens::hash(token)).await.map_err(internal)?;
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
        let [white, black] = seats;
        let new = NewGame {
            id: id.clone(),
            variant: board.tag().to_string(),
            rules: rules.to_tag(),
            invite_hash: None,
            spectate_hash: tokens::hash(&spectate),
            spectate_code: spectate.clone(),
            white,
            black,
        };
        if let Err(e) = self.db.write(Write::CreateGame(new)).await {
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

    /// [`fanorona_net::ClientMsg::Turn`]: checked by the engine, stored, then broadcast.
    pub async fn turn(&self, r: &RoomRef, who: Role, ply: u32, text: &str) -> Result<(), Refusal> {
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
        self.db
            .write(Write::AddTurn { game: room.id.clone(), ply, notation: notation.clone(), finished: next.is_over() })
            .await
            .map_err(internal)?;
        room.game = next;
        // A turn answers any standing offer: the mover's own lapse, the opponent's are declined by playing on.
        room.draw_offer = None;
        room.takeback = None;
        let to_move = room.to_move().map(colour);
        room.broadcast(&ServerMsg::TurnPlayed { ply, by: colour(mine), turn: notation, to_move });
        if room.game.is_over() {
            room.broadcast_state();
        }
        Ok(())
    }

    /// Offers, accepts or declines a draw.
    pub async fn draw(&self, r: &RoomRef, who: Role, answer: Option<bool>) -> Result<(), Refusal> {
        let mut room = r.lock().await;
        let mine = player(who)?;
        open(&room)?;
        let theirs_standing = room.draw_offer == Some(mine.opponent());
        match answer {
            None if !theirs_standing => {
                if room.draw_offer != Some(mine) {
                    self.store_offers(&room, Some(mine), room.takeback).await?;
                    room.draw_offer = Some(mine);
                    room.broadcast(&ServerMsg::Offer { kind: OfferKind::Draw, by: colour(mine) });
                }
                Ok(())
            }
            // Offering against a standing offer accepts it.
            None | Some(true) if theirs_standing => {
                let game = room.id.clone();
                self.db.write(Write::SetEnding { game, ending: "draw".into() }).await.map_err(internal)?;
                room.game.agree_draw().map_err(|e| refuse(ErrorCode::GameOver, e.to_string()))?;
                room.draw_offer = None;
                room.takeback = None;
                room.broadcast_state();
                Ok(())
            }
            Some(false) if theirs_standing => {
                self.store_offers(&room, None, room.takeback).await?;
                room.draw_offer = None;
                room.broadcast(&ServerMsg::Declined { kind: OfferKind::Draw, by: colour(mine) });
                Ok(())
            }
            _ => Err(refuse(ErrorCode::NothingToAnswer, "the opponent has not offered a draw")),
        }
    }

    /// Resigns.
    pub async fn resign(&self, r: &RoomRef, who: Role) -> Result<(), Refusal> {
        let mut room = r.lock().await;
        let mine = player(who)?;
        open(&room)?;
        let ending = format!("resign {}", mine.name());
        self.db.write(Write::SetEnding { game: room.id.clone(), ending }).await.map_err(internal)?;
        room.game.resign(mine).map_err(|e| refuse(ErrorCode::GameOver, e.to_string()))?;
        room.draw_offer = None;
        room.takeback = None;
        room.broadcast_state();
        Ok(())
    }

    /// Requests (`None`), accepts or declines a takeback. Accepted, it takes back the requester's last turn and the
    /// opponent's reply to it, if any, so that the requester is to move again.
    pub async fn takeback(&self, r: &RoomRef, who: Role, answer: Option<bool>) -> Result<(), Refusal> {
        let mut room = r.lock().await;
        let mine = player(who)?;
        open(&room)?;
        match answer {
            None => {
                if undo_count(&room, mine).is_none() {
                    return Err(refuse(ErrorCode::NothingToAnswer, "you have no turn to take back"));
                }
                if room.takeback != Some(mine) {
                    self.store_offers(&room, room.draw_offer, Some(mine)).await?;
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
                    self.store_offers(&room, room.draw_offer, None).await?;
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
                self.db.write(Write::TruncateTurns { game: room.id.clone(), from_ply }).await.map_err(internal)?;
                room.game = next;
                room.draw_offer = None;
                room.takeback = None;
                room.broadcast_state();
                Ok(())
            }
        }
    }

    /// Stores the standing offers of `room` as they are about to be; the caller changes them in memory once stored.
    async fn store_offers(&self, room: &Room, draw: Option<Side>, takeback: Option<Side>) -> Result<(), Refusal> {
        let write =
            Write::SetOffers { game: room.id.clone(), draw: draw.map(Side::name), takeback: takeback.map(Side::name) };
        self.db.write(write).await.map_err(internal)
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
