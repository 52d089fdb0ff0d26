//! Servers that share a PostgreSQL database: this server's heartbeat, and what it does with the other servers'
//! notices (a turn, a change, a player who came or went, a quick match made for one of its players).

use crate::hub::Hub;
use crate::notice::Notice;
use crate::pg::{ALIVE_S, HEARTBEAT_S};
use fanorona_net::Backoff;
use std::sync::Arc;
use std::time::Duration;

/// Runs this server's part of the cluster until dropped; with SQLite there is none and it never ends.
pub async fn run(hub: Arc<Hub>) {
    if hub.store.postgres().is_none() {
        return std::future::pending().await;
    }
    tokio::join!(heartbeat(hub.clone()), listen(hub));
}

/// Tells the others every [`HEARTBEAT_S`] seconds that this server is alive, and stops counting the players of
/// servers not seen for [`ALIVE_S`] seconds as connected (their places in the queue go with them).
async fn heartbeat(hub: Arc<Hub>) {
    let Some(pg) = hub.store.postgres().cloned() else { return };
    let mut tick = tokio::time::interval(Duration::from_secs(HEARTBEAT_S));
    loop {
        tick.tick().await;
        if let Err(e) = pg.heartbeat(&hub.server_id).await {
            eprintln!("heartbeat: {e}");
            continue;
        }
        match pg.bury_dead_servers(ALIVE_S).await {
            Ok(dead) if !dead.is_empty() => hub.forget_servers(&dead).await,
            Ok(_) => {}
            Err(e) => eprintln!("heartbeat: {e}"),
        }
    }
}

/// Listens to the other servers' notices, connecting again (with backoff) whenever the connection drops; after
/// each (re)connection every game in memory is read again, since notices sent meanwhile were lost.
async fn listen(hub: Arc<Hub>) {
    let Some(pg) = hub.store.postgres().cloned() else { return };
    let mut backoff = Backoff::new(std::process::id().into());
    loop {
        match pg.listen().await {
            Ok((client, mut notices)) => {
                backoff.reset();
                for r in hub.rooms_held().await {
                    let hub = hub.clone();
                    tokio::spawn(async move { hub.refresh(&r).await });
                }
                while let Some(payload) = notices.recv().await {
                    if let Some(notice) = Notice::parse(&payload) {
                        handle(&hub, notice).await;
                    }
                }
                drop(client);
                eprintln!("notices: the listening connection closed; connecting again");
            }
            Err(e) => eprintln!("notices: {e}"),
        }
        tokio::time::sleep(Duration::from_millis(backoff.next_delay_ms())).await;
    }
}

/// Acts on one notice. Notices are taken in the order they come (a player's presence depends on it); anything
/// that reads the database is spawned so that one slow game does not hold up the others' notices.
pub async fn handle(hub: &Arc<Hub>, notice: Notice) {
    if notice.server() == hub.server_id {
        return;
    }
    match notice {
        Notice::Turn { game, version, ply, turn, .. } => {
            let Some(r) = hub.room_in_memory(&game).await else { return };
            let mut room = r.lock().await;
            if room.version >= version {
                return;
            }
            if room.version + 1 == version && room.ply() == ply && room.to_move().is_some() {
                let by = room.game.position().side_to_move();
                let mut next = room.game.clone();
                if let Ok(t) = turn.parse()
                    && next.play_turn(&t).is_ok()
                {
                    room.version = version;
                    room.turn_stored(next, ply, by, turn);
                    return;
                }
            }
            drop(room);
            spawn_refresh(hub, r);
        }
        Notice::Changed { game, version, .. } => {
            if let Some(r) = hub.room_in_memory(&game).await
                && r.lock().await.version < version
            {
                spawn_refresh(hub, r);
            }
        }
        Notice::Presence { server, game, side, connected } => {
            if let Some(r) = hub.room_in_memory(&game).await {
                r.lock().await.set_remote(side, &server, connected);
            }
        }
        Notice::Ask { game, .. } => {
            let Some(r) = hub.room_in_memory(&game).await else { return };
            let here: Vec<_> = {
                let room = r.lock().await;
                fanorona_rules::Side::BOTH.into_iter().filter(|s| room.seats[s.index()].conn.is_some()).collect()
            };
            for side in here {
                let notice =
                    Notice::Presence { server: hub.server_id.clone(), game: game.clone(), side, connected: true };
                let hub = hub.clone();
                tokio::spawn(async move { hub.notify(notice).await });
            }
        }
        Notice::Matched { to, conn, game, side, .. } => {
            if to == hub.server_id {
                let hub = hub.clone();
                tokio::spawn(async move { hub.matched(conn, &game, side).await });
            }
        }
    }
}

fn spawn_refresh(hub: &Arc<Hub>, r: crate::hub::RoomRef) {
    let hub = hub.clone();
    tokio::spawn(async move {
        if let Err(e) = hub.refresh(&r).await {
            eprintln!("refresh: {}", e.message);
        }
    });
}
