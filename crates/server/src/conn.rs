//! One WebSocket connection: hello and version check, rate limit, idle timeout, and the requests of its place.

use crate::hub::{Hub, IpGuard, Placed, Refusal, RoomRef, refuse, role};
use crate::room::ConnHandle;
use axum::extract::ws::{Message, WebSocket};
use fanorona_net::{
    ClientMsg, ErrorCode, MAX_CLIENT_MESSAGE_BYTES, MIN_PROTOCOL_VERSION, PROTOCOL_VERSION, Role, ServerMsg,
    parse_client, parse_client_bytes,
};
use futures_util::{SinkExt, StreamExt};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{Notify, mpsc};

/// Messages waiting to be written to one connection; a client that lets more pile up is closed.
const OUTBOX: usize = 256;

/// A token bucket: `rate` messages a second on average, bursts of up to `burst`.
struct Bucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    at: Instant,
}

impl Bucket {
    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Where the connection is.
enum Place {
    /// Before [`ClientMsg::Hello`].
    New,
    /// Greeted, in no game.
    Lobby,
    /// In the quick-match queue.
    Queued(tokio::sync::oneshot::Receiver<(RoomRef, fanorona_rules::Side)>),
    /// In a game.
    Game(RoomRef, Role),
}

/// What woke the connection up.
enum Event {
    /// It was told to close.
    Kill,
    /// A quick match was made (or the queue entry was dropped).
    Matched(Option<(RoomRef, fanorona_rules::Side)>),
    /// A frame, the end of the stream, or the idle timeout.
    Frame(Result<Option<Result<Message, axum::Error>>, tokio::time::error::Elapsed>),
}

/// Serves one connection until it closes, is idle too long, misbehaves or is replaced.
pub async fn run(hub: Arc<Hub>, socket: WebSocket, guard: IpGuard) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<String>(OUTBOX);
    let mut me = ConnHandle { id: hub.conn_id(), tx, kill: Arc::new(Notify::new()), version: PROTOCOL_VERSION };
    let writer = tokio::spawn(async move {
        while let Some(text) = rx.recv().await {
            if sink.send(Message::Text(text.into())).await.is_err() {
                return;
            }
        }
        let _ = sink.close().await;
    });

    let config = hub.config.clone();
    let mut bucket =
        Bucket { tokens: config.burst, rate: config.msgs_per_sec, burst: config.burst, at: Instant::now() };
    let mut strikes = 0;
    let mut place = Place::New;
    // A deadline, not a timeout per frame: pings or junk frames before the hello do not keep a connection open.
    let hello_deadline = tokio::time::Instant::now() + config.hello_timeout;
    loop {
        let deadline = match place {
            Place::New => hello_deadline,
            _ => tokio::time::Instant::now() + config.idle_timeout,
        };
        let event = {
            let matched = async {
                match &mut place {
                    Place::Queued(rx) => rx.await.ok(),
                    _ => std::future::pending().await,
                }
            };
            // Biased: a match already made is taken before the next frame, which the player may have sent in answer
            // to the `seated` message of that match.
            tokio::select! {
                biased;
                _ = me.kill.notified() => Event::Kill,
                m = matched => Event::Matched(m),
                f = tokio::time::timeout_at(deadline, stream.next()) => Event::Frame(f),
            }
        };
        let frame = match event {
            Event::Kill => break,
            Event::Matched(Some((room, side))) => {
                place = Place::Game(room, role(side));
                continue;
            }
            Event::Matched(None) => {
                place = Place::Lobby;
                continue;
            }
            Event::Frame(f) => f,
        };
        let msg = match frame {
            Err(_) => break, // idle
            Ok(None) => break,
            Ok(Some(Err(e))) => {
                if is_too_large(e) {
                    // Best effort: the read half failed, the write half may still deliver it.
                    me.send(&ServerMsg::error(ErrorCode::TooLarge, too_large_text()));
                }
                break;
            }
            Ok(Some(Ok(m))) => m,
        };
        if let Message::Close(_) = msg {
            break;
        }
        // Every frame costs a token, pings too: the WebSocket layer answers them, which is work done for the client.
        if !bucket.take() {
            strikes += 1;
            me.send(&ServerMsg::error(ErrorCode::RateLimited, "too many messages; slow down"));
            if strikes >= config.max_strikes {
                break;
            }
            continue;
        }
        let parsed = match &msg {
            Message::Text(t) => parse_client(t.as_str()),
            Message::Binary(b) => parse_client_bytes(b),
            // Pings are answered by the WebSocket layer; once greeted they count as activity (the idle timeout).
            // A close ended the loop above.
            Message::Ping(_) | Message::Pong(_) | Message::Close(_) => continue,
        };
        let msg = match parsed {
            Ok(m) => m,
            Err(e) => {
                me.send(&e.to_msg());
                strikes += 1;
                // A message over the limit is no typo: the client is broken or hostile, as with a bigger frame.
                if strikes >= config.max_strikes || matches!(place, Place::New) || e.code == ErrorCode::TooLarge {
                    break;
                }
                continue;
            }
        };
        if let Place::New = place {
            match msg {
                ClientMsg::Hello { version } if (MIN_PROTOCOL_VERSION..=PROTOCOL_VERSION).contains(&version) => {
                    me.version = version;
                    me.send(&ServerMsg::Welcome { version });
                    place = Place::Lobby;
                }
                ClientMsg::Hello { version } => {
                    let text = format!(
                        "this server speaks protocols {MIN_PROTOCOL_VERSION} to {PROTOCOL_VERSION}, the client {version}"
                    );
                    me.send(&ServerMsg::error(ErrorCode::VersionMismatch, text));
                    break;
                }
                _ => {
                    me.send(&ServerMsg::error(ErrorCode::HelloFirst, "the first message must be hello"));
                    break;
                }
            }
            continue;
        }
        if let Err(refusal) = handle(&hub, &me, guard.ip(), &mut place, msg).await {
            me.send(&refusal.to_msg());
        }
    }

    match std::mem::replace(&mut place, Place::Lobby) {
        Place::Game(room, _) => hub.leave(&room, me.id).await,
        Place::Queued(mut rx) => {
            hub.leave_queue(me.id).await;
            if let Ok((room, _)) = rx.try_recv() {
                hub.leave(&room, me.id).await;
            }
        }
        Place::New | Place::Lobby => {}
    }
    // The writer ends once every copy of the outbox is gone (the game no longer holds one); what was queued, such
    // as a last error, is still sent. A client that does not read is cut off.
    drop(me);
    let abort = writer.abort_handle();
    if tokio::time::timeout(Duration::from_secs(2), writer).await.is_err() {
        abort.abort();
    }
    drop(guard);
}

/// Whether a read failed because the frame or message was over the WebSocket layer's limit.
fn is_too_large(e: axum::Error) -> bool {
    use tokio_tungstenite::tungstenite::Error;
    matches!(e.into_inner().downcast_ref::<Error>(), Some(Error::Capacity(_)))
}

/// The text of [`ErrorCode::TooLarge`] for a message the WebSocket layer refused unread.
fn too_large_text() -> String {
    format!("a message is at most {MAX_CLIENT_MESSAGE_BYTES} bytes")
}

/// One request after the hello, from a client at `ip`.
async fn handle(hub: &Hub, me: &ConnHandle, ip: IpAddr, place: &mut Place, msg: ClientMsg) -> Result<(), Refusal> {
    let not_in_game = || refuse(ErrorCode::NotInGame, "join or create a game first");
    let already = || refuse(ErrorCode::AlreadyInGame, "this connection is already in a game or queue");
    match msg {
        ClientMsg::Ping => {
            me.send(&ServerMsg::Pong);
            return Ok(());
        }
        ClientMsg::Hello { .. } => {
            // The version was settled by the first hello.
            me.send(&ServerMsg::Welcome { version: me.version });
            return Ok(());
        }
        ClientMsg::CancelQuickMatch => {
            if let Place::Queued(_) = place {
                hub.leave_queue(me.id).await;
                *place = Place::Lobby;
            }
            return Ok(());
        }
        _ => {}
    }
    let placing = matches!(
        msg,
        ClientMsg::Create { .. }
            | ClientMsg::Join { .. }
            | ClientMsg::Resume { .. }
            | ClientMsg::Spectate { .. }
            | ClientMsg::QuickMatch { .. }
    );
    match place {
        Place::Lobby if placing => {
            let placed = match msg {
                ClientMsg::Create { board, rules, colour, name } => {
                    hub.create(me, ip, board, &rules, colour, name).await
                }
                ClientMsg::Join { invite, name } => hub.join(me, ip, &invite, name).await,
                ClientMsg::Resume { token } => hub.resume(me, &token).await,
                ClientMsg::Spectate { token } => hub.spectate(me, &token).await,
                ClientMsg::QuickMatch { board, name } => hub.quick_match(me, board, name).await,
                _ => unreachable!("only placing messages get here"),
            }?;
            *place = match placed {
                Placed::Game(room, role) => Place::Game(room, role),
                Placed::Queued(_, rx) => Place::Queued(rx),
            };
            Ok(())
        }
        Place::Lobby => Err(not_in_game()),
        Place::Queued(_) => Err(if placing { already() } else { not_in_game() }),
        Place::New => Err(refuse(ErrorCode::HelloFirst, "the first message must be hello")),
        Place::Game(..) if placing => Err(already()),
        Place::Game(room, who) => {
            let (room, who) = (room.clone(), *who);
            match msg {
                ClientMsg::Turn { ply, turn } => hub.turn(&room, who, ply, &turn).await,
                ClientMsg::OfferDraw => hub.draw(&room, who, None).await,
                ClientMsg::AcceptDraw => hub.draw(&room, who, Some(true)).await,
                ClientMsg::DeclineDraw => hub.draw(&room, who, Some(false)).await,
                ClientMsg::Resign => hub.resign(&room, who).await,
                ClientMsg::RequestTakeback => hub.takeback(&room, who, None).await,
                ClientMsg::AcceptTakeback => hub.takeback(&room, who, Some(true)).await,
                ClientMsg::DeclineTakeback => hub.takeback(&room, who, Some(false)).await,
                ClientMsg::Sync => {
                    me.send(&room.lock().await.state(who));
                    Ok(())
                }
                _ => Ok(()),
            }
        }
    }
}
