//! One game in memory: the engine's [`Game`], its seats, its spectators and the standing offers.

use crate::db::{StoredGame, TokenHash};
use fanorona_net::{Colour, GameState, OfferKind, PROTOCOL_VERSION, Role, SeatInfo, ServerMsg};
use fanorona_rules::record::{Record, variant_tag};
use fanorona_rules::{Game, Outcome, Rules, Side, Turn, Variant};
use std::sync::Arc;
use tokio::sync::{Notify, mpsc};

/// The way to reach one connection: its outbox, and a bell that makes it close.
#[derive(Clone, Debug)]
pub struct ConnHandle {
    /// Unique per connection for the server's lifetime.
    pub id: u64,
    /// Messages to send, already as JSON.
    pub tx: mpsc::Sender<String>,
    /// Rung to close the connection (another connection took its seat, or it cannot keep up).
    pub kill: Arc<Notify>,
    /// The protocol version the client said hello with (set before the connection enters a game).
    pub version: u32,
}

impl ConnHandle {
    /// Queues a message, as the client's protocol version reads it. A client too slow to take its messages is
    /// closed rather than allowed to grow memory; it reconnects and gets a fresh state.
    pub fn send(&self, msg: &ServerMsg) {
        if self.version < PROTOCOL_VERSION {
            self.send_text(msg.clone().for_version(self.version).to_json());
        } else {
            self.send_text(msg.to_json());
        }
    }

    /// Queues a message already as JSON.
    pub fn send_text(&self, text: String) {
        if self.tx.try_send(text).is_err() {
            self.kill.notify_one();
        }
    }
}

/// One seat.
#[derive(Debug, Default)]
pub struct Seat {
    /// The hash of the seat token, once a player holds the seat.
    pub token_hash: Option<TokenHash>,
    /// The display name.
    pub name: String,
    /// The player's connection, while connected to this server.
    pub conn: Option<ConnHandle>,
    /// The server (sharing the database) the player is connected to instead, while they are.
    pub remote: Option<String>,
}

impl Seat {
    /// Whether the player is connected, here or to another server.
    pub fn connected(&self) -> bool {
        self.conn.is_some() || self.remote.is_some()
    }
}

/// A game in memory.
#[derive(Debug)]
pub struct Room {
    /// The game id.
    pub id: String,
    /// The game, as the engine plays it.
    pub game: Game,
    /// White's and Black's seats, by [`Side::index`].
    pub seats: [Seat; 2],
    /// Watching connections.
    pub spectators: Vec<ConnHandle>,
    /// Whether the invite code can still seat someone.
    pub invite_open: bool,
    /// The side with a standing draw offer.
    pub draw_offer: Option<Side>,
    /// The side with a standing takeback request.
    pub takeback: Option<Side>,
    /// Set when the room leaves the server's map; a connection that finds it set looks the game up again.
    pub evicted: bool,
    /// The spectator token, which seated players get to share; `None` for a game loaded from a database of the
    /// schema that kept only its hash.
    pub spectate: Option<String>,
    /// The game's stored version (see [`crate::db::StoredGame::version`]): changes are stored from it.
    pub version: i64,
}

/// The protocol's colour of a side.
pub fn colour(side: Side) -> Colour {
    match side {
        Side::White => Colour::White,
        Side::Black => Colour::Black,
    }
}

/// The side of a protocol colour.
pub fn side(colour: Colour) -> Side {
    match colour {
        Colour::White => Side::White,
        Colour::Black => Side::Black,
    }
}

/// The engine's board of a `Variant` tag text.
pub fn parse_variant(tag: &str) -> Option<Variant> {
    match tag {
        "9x5" => Some(Variant::Tsivy),
        "5x5" => Some(Variant::Dimy),
        _ => None,
    }
}

impl Room {
    /// A new game with no seat taken.
    pub fn new(id: String, rules: Rules) -> Room {
        Room {
            id,
            game: Game::new(rules),
            seats: [Seat::default(), Seat::default()],
            spectators: Vec::new(),
            invite_open: true,
            draw_offer: None,
            takeback: None,
            evicted: false,
            spectate: None,
            version: 0,
        }
    }

    /// Rebuilds a stored game, replaying every turn through the engine.
    pub fn from_stored(stored: StoredGame) -> Result<Room, String> {
        let variant = parse_variant(&stored.variant).ok_or_else(|| format!("unknown variant {:?}", stored.variant))?;
        let rules = Rules::from_tag(&stored.rules, variant).map_err(|e| e.to_string())?;
        let mut room = Room::new(stored.id, rules);
        for (i, text) in stored.turns.iter().enumerate() {
            let turn: Turn = text.parse().map_err(|e| format!("stored turn {i} {text:?}: {e}"))?;
            room.game.play_turn(&turn).map_err(|e| format!("stored turn {i} {text:?}: {e}"))?;
        }
        match stored.ending.as_deref() {
            None => {}
            Some("draw") => room.game.agree_draw().map_err(|e| e.to_string())?,
            Some("resign white") => room.game.resign(Side::White).map_err(|e| e.to_string())?,
            Some("resign black") => room.game.resign(Side::Black).map_err(|e| e.to_string())?,
            Some(other) => return Err(format!("unknown ending {other:?}")),
        }
        room.invite_open = stored.invite_open;
        room.spectate = stored.spectate_code;
        room.version = stored.version;
        // An offer stands only while the game goes on (every ending clears them as it is stored).
        if !room.game.is_over() {
            room.draw_offer = stored_side(stored.draw_offer.as_deref())?;
            room.takeback = stored_side(stored.takeback_request.as_deref())?;
        }
        for (seat, stored) in room.seats.iter_mut().zip([stored.white, stored.black]) {
            if let Some(s) = stored {
                seat.token_hash = Some(s.token_hash);
                seat.name = s.name;
            }
        }
        Ok(room)
    }

    /// The `Variant` tag text.
    pub fn variant_tag(&self) -> &'static str {
        variant_tag(self.game.rules().variant)
    }

    /// Turns played.
    pub fn ply(&self) -> u32 {
        self.game.turns().len() as u32
    }

    /// Whose turn it is, while the game goes on.
    pub fn to_move(&self) -> Option<Side> {
        (!self.game.is_over()).then(|| self.game.position().side_to_move())
    }

    /// Whether nobody is connected.
    pub fn is_empty(&self) -> bool {
        self.spectators.is_empty() && self.seats.iter().all(|s| s.conn.is_none())
    }

    /// The full state as `role` sees it.
    pub fn state(&self, role: Role) -> ServerMsg {
        let record = Record::from_game(&self.game, &self.seats[0].name, &self.seats[1].name, "");
        let seat =
            |s: &Seat| SeatInfo { taken: s.token_hash.is_some(), name: s.name.clone(), connected: s.connected() };
        let termination = match self.game.outcome() {
            None => String::new(),
            Some(o) => termination(o).to_string(),
        };
        ServerMsg::State(GameState {
            game: self.id.clone(),
            you: role,
            ply: self.ply(),
            to_move: self.to_move().map(colour),
            result: record.tag("Result").unwrap_or("*").to_string(),
            termination,
            record: record.to_string(),
            white: seat(&self.seats[0]),
            black: seat(&self.seats[1]),
            draw_offer: self.draw_offer.map(colour),
            takeback_request: self.takeback.map(colour),
        })
    }

    /// Every connection with its role.
    fn members(&self) -> impl Iterator<Item = (&ConnHandle, Role)> {
        let white = self.seats[0].conn.iter().map(|c| (c, Role::White));
        let black = self.seats[1].conn.iter().map(|c| (c, Role::Black));
        white.chain(black).chain(self.spectators.iter().map(|c| (c, Role::Spectator)))
    }

    /// Sends a message to everybody in the game: one that every protocol version reads alike (not
    /// [`ServerMsg::Seated`]), written once for all.
    pub fn broadcast(&self, msg: &ServerMsg) {
        let text = msg.to_json();
        for (c, _) in self.members() {
            c.send_text(text.clone());
        }
    }

    /// Sends a message to everybody but one connection.
    pub fn broadcast_except(&self, except: u64, msg: &ServerMsg) {
        let text = msg.to_json();
        for (c, _) in self.members().filter(|(c, _)| c.id != except) {
            c.send_text(text.clone());
        }
    }

    /// Sends everybody the full state, each with its own role.
    pub fn broadcast_state(&self) {
        for (c, role) in self.members() {
            c.send(&self.state(role));
        }
    }

    /// Takes the game after a stored turn (numbered `ply`, played by `by`) and tells everybody; the turn answers
    /// every standing offer.
    pub fn turn_stored(&mut self, next: Game, ply: u32, by: Side, notation: String) {
        self.game = next;
        self.draw_offer = None;
        self.takeback = None;
        let to_move = self.to_move().map(colour);
        self.broadcast(&ServerMsg::TurnPlayed { ply, by: colour(by), turn: notation, to_move });
        if self.game.is_over() {
            self.broadcast_state();
        }
    }

    /// Records that the player of `side` is (`connected`) or no longer is connected to another server, and tells
    /// this server's connections when that changes what they see. A seat is held by one connection: one here gives
    /// way to the newer one there.
    pub fn set_remote(&mut self, side: Side, server: &str, connected: bool) {
        let seat = &mut self.seats[side.index()];
        let before = seat.connected();
        if connected {
            seat.remote = Some(server.to_string());
            if let Some(old) = seat.conn.take() {
                old.kill.notify_one();
            }
        } else if seat.remote.as_deref() == Some(server) {
            seat.remote = None;
        }
        let after = seat.connected();
        // A seat this server does not yet know as taken is shown with its state once it reads the change.
        if after != before && seat.token_hash.is_some() {
            self.broadcast(&ServerMsg::Presence { colour: colour(side), connected: after });
        }
    }

    /// Takes the stored state of `fresh` (the same game, read again at a newer version), keeping this room's
    /// connections, and tells them what changed as the server that made the change told its own: the turns played
    /// since, an offer made or declined, or else the whole state.
    pub fn adopt(&mut self, fresh: Room) {
        let (old_turns, old_draw, old_takeback) = (self.game.turns().len(), self.draw_offer, self.takeback);
        let extends = fresh.game.turns().len() > old_turns && fresh.game.turns()[..old_turns] == *self.game.turns();
        let same_turns = fresh.game.turns() == self.game.turns();
        let seats_same = self.seats.iter().zip(&fresh.seats).all(|(a, b)| a.token_hash == b.token_hash);
        let over_before = self.game.is_over();
        self.game = fresh.game;
        self.invite_open = fresh.invite_open;
        self.draw_offer = fresh.draw_offer;
        self.takeback = fresh.takeback;
        self.spectate = fresh.spectate.or(self.spectate.take());
        self.version = fresh.version;
        for (seat, f) in self.seats.iter_mut().zip(fresh.seats) {
            seat.token_hash = f.token_hash;
            seat.name = f.name;
        }
        let offers_clear = self.draw_offer.is_none() && self.takeback.is_none();
        if seats_same && extends && offers_clear && !over_before {
            let starts = self.game.turn_starts();
            let turns = self.game.turns();
            for ply in old_turns..turns.len() {
                let by = colour(starts[ply].side_to_move());
                let to_move = if ply + 1 == turns.len() {
                    self.to_move().map(colour)
                } else {
                    Some(colour(starts[ply + 1].side_to_move()))
                };
                let msg = ServerMsg::TurnPlayed { ply: ply as u32, by, turn: turns[ply].to_string(), to_move };
                self.broadcast(&msg);
            }
            if self.game.is_over() {
                self.broadcast_state();
            }
        } else if seats_same && same_turns && !self.game.is_over() && !over_before {
            for (kind, old, new) in
                [(OfferKind::Draw, old_draw, self.draw_offer), (OfferKind::Takeback, old_takeback, self.takeback)]
            {
                match (old, new) {
                    (None, Some(by)) => self.broadcast(&ServerMsg::Offer { kind, by: colour(by) }),
                    (Some(by), None) => self.broadcast(&ServerMsg::Declined { kind, by: colour(by.opponent()) }),
                    _ => {}
                }
            }
        } else {
            self.broadcast_state();
        }
    }

    /// Removes a connection; returns the seat it held, if any.
    pub fn remove(&mut self, conn: u64) -> Option<Side> {
        self.spectators.retain(|c| c.id != conn);
        for side in Side::BOTH {
            let seat = &mut self.seats[side.index()];
            if seat.conn.as_ref().is_some_and(|c| c.id == conn) {
                seat.conn = None;
                return Some(side);
            }
        }
        None
    }
}

/// The side of a stored `white` or `black`.
fn stored_side(text: Option<&str>) -> Result<Option<Side>, String> {
    match text {
        None => Ok(None),
        Some("white") => Ok(Some(Side::White)),
        Some("black") => Ok(Some(Side::Black)),
        Some(other) => Err(format!("unknown side {other:?}")),
    }
}

/// The record's `Termination` words for an outcome.
fn termination(o: Outcome) -> &'static str {
    use fanorona_rules::DrawReason;
    match o {
        Outcome::NoPieces { .. } => "no pieces",
        Outcome::NoMoves { .. } => "no moves",
        Outcome::Resignation { .. } => "resignation",
        Outcome::Draw(DrawReason::Repetition) => "repetition",
        Outcome::Draw(DrawReason::NoCapture) => "no capture limit",
        Outcome::Draw(DrawReason::Agreement) => "agreement",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::StoredSeat;
    use fanorona_net::parse_server;

    #[test]
    fn stored_games_replay_with_their_ending() {
        let stored = StoredGame {
            id: "g".into(),
            variant: "9x5".into(),
            rules: Rules::default().to_tag(),
            invite_open: false,
            spectate_code: Some("watch".into()),
            ending: Some("resign black".into()),
            white: Some(StoredSeat { token_hash: [1; 32], name: "A".into() }),
            black: Some(StoredSeat { token_hash: [2; 32], name: "B \"q\"".into() }),
            turns: vec!["d3-e3A".into(), "f4-f3A".into()],
            draw_offer: None,
            takeback_request: None,
            version: 5,
        };
        let room = Room::from_stored(stored.clone()).unwrap();
        assert_eq!(room.version, 5);
        assert_eq!(room.ply(), 2);
        assert_eq!(room.to_move(), None);
        assert_eq!(room.spectate.as_deref(), Some("watch"));
        let ServerMsg::State(s) = room.state(Role::White) else { panic!() };
        assert_eq!(s.result, "1-0");
        assert_eq!(s.termination, "resignation");
        // The record text carries the names and reads back to the same game.
        let back = Record::load(&s.record).unwrap();
        assert_eq!(back.turns().len(), 2);
        assert!(s.record.contains("B \\\"q\\\""));

        let bad = StoredGame { turns: vec!["a1-a2".into()], ..stored.clone() };
        assert!(Room::from_stored(bad).is_err());

        // Standing offers come back with a game that goes on; an ending outranks them.
        let going = StoredGame {
            ending: None,
            draw_offer: Some("black".into()),
            takeback_request: Some("white".into()),
            ..stored.clone()
        };
        let room = Room::from_stored(going.clone()).unwrap();
        assert_eq!((room.draw_offer, room.takeback), (Some(Side::Black), Some(Side::White)));
        let ServerMsg::State(s) = room.state(Role::Black) else { panic!() };
        assert_eq!((s.draw_offer, s.takeback_request), (Some(Colour::Black), Some(Colour::White)));
        let over = StoredGame { draw_offer: Some("black".into()), ..stored };
        assert_eq!(Room::from_stored(over).unwrap().draw_offer, None);
        let damaged = StoredGame { draw_offer: Some("grey".into()), ..going };
        assert!(Room::from_stored(damaged).unwrap_err().contains("grey"));
    }

    #[test]
    fn a_copy_read_again_tells_its_connections_what_changed() {
        let (tx, mut rx) = mpsc::channel(64);
        let conn = ConnHandle { id: 1, tx, kill: Arc::new(Notify::new()), version: PROTOCOL_VERSION };
        let stored = |turns: &[&str], draw: Option<&str>, version| StoredGame {
            id: "g".into(),
            variant: "9x5".into(),
            rules: Rules::default().to_tag(),
            invite_open: false,
            spectate_code: None,
            ending: None,
            white: Some(StoredSeat { token_hash: [1; 32], name: "A".into() }),
            black: Some(StoredSeat { token_hash: [2; 32], name: "B".into() }),
            turns: turns.iter().map(|t| t.to_string()).collect(),
            draw_offer: draw.map(str::to_string),
            takeback_request: None,
            version,
        };
        let mut room = Room::from_stored(stored(&[], None, 1)).unwrap();
        room.seats[1].conn = Some(conn);
        let mut heard =
            || std::iter::from_fn(|| rx.try_recv().ok()).map(|t| parse_server(&t).unwrap()).collect::<Vec<_>>();
        // Two turns played elsewhere: each as a turn, with whose move it is after it.
        room.adopt(Room::from_stored(stored(&["d3-e3A", "f4-f3A"], None, 3)).unwrap());
        let turn = |ply, by, turn: &str, to_move| ServerMsg::TurnPlayed { ply, by, turn: turn.into(), to_move };
        assert_eq!(
            heard(),
            vec![
                turn(0, Colour::White, "d3-e3A", Some(Colour::Black)),
                turn(1, Colour::Black, "f4-f3A", Some(Colour::White))
            ]
        );
        assert_eq!(room.version, 3);
        // An offer made, then declined.
        room.adopt(Room::from_stored(stored(&["d3-e3A", "f4-f3A"], Some("white"), 4)).unwrap());
        assert_eq!(heard(), vec![ServerMsg::Offer { kind: OfferKind::Draw, by: Colour::White }]);
        room.adopt(Room::from_stored(stored(&["d3-e3A", "f4-f3A"], None, 5)).unwrap());
        assert_eq!(heard(), vec![ServerMsg::Declined { kind: OfferKind::Draw, by: Colour::Black }]);
        // A takeback: the whole state, as the server that granted it sends.
        room.adopt(Room::from_stored(stored(&["d3-e3A"], None, 6)).unwrap());
        let ServerMsg::State(s) = &heard()[0] else { panic!("a state") };
        assert_eq!((s.ply, s.you), (1, Role::Black));
    }
}
