//! PostgreSQL storage, for servers that share their games: the SQLite store's games, seats and turns, plus the
//! servers alive, one quick-match queue, and notifications that tell the other servers what changed.
//!
//! Every change is one transaction that commits before the server acknowledges it, as with SQLite. A change to a
//! game names the version it was made from and raises it by one, so two servers that both hold a game cannot both
//! apply a different change to the same state: the second meets a conflict, reads the game again and decides anew.
//! The change's notification (`pg_notify`) is sent in the same transaction, so PostgreSQL delivers it exactly when
//! the change commits, never for a change that did not.

use crate::db::{DbError, ExpiredCounts, INVITE_USED, NewGame, StoredGame, StoredSeat, TokenHash, Write, unix_now};
use deadpool_postgres::{GenericClient, Manager, ManagerConfig, Pool, RecyclingMethod};
use futures_util::StreamExt;
use std::collections::HashSet;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;
use tokio_postgres::{AsyncMessage, NoTls};

/// The channel every server listens on; each notification's payload names its game (see `crate::cluster`).
pub const CHANNEL: &str = "fanorona";

/// The migrations, in order; the number applied is kept in `schema_version`.
const MIGRATIONS: &[&str] = &[include_str!("../migrations/postgres/0001_init.sql")];

/// Connections in the pool: enough for the writes of many games at once (PostgreSQL commits concurrent
/// transactions with one disk flush), few enough for a small database server.
const POOL_SIZE: usize = 16;

/// An arbitrary key of the advisory lock under which a server applies the migrations, so that servers started
/// together do not apply them twice.
const MIGRATION_LOCK: i64 = 0x0fa9_0a0a;

/// Games deleted per statement when expiring, so that no transaction holds many rows for long.
const EXPIRE_CHUNK: u64 = 256;

/// The first key of the advisory locks that serialize quick matching, one per board.
const QUEUE_LOCK: i32 = 0x0fa9_0b0b;

/// Seconds within which a server must have been seen for its waiting players to be paired (it beats every
/// [`HEARTBEAT_S`] seconds).
pub const ALIVE_S: f64 = 10.0;

/// Seconds between a server's heartbeats.
pub const HEARTBEAT_S: u64 = 2;

impl From<tokio_postgres::Error> for DbError {
    fn from(e: tokio_postgres::Error) -> Self {
        let text = e.as_db_error().map(|d| d.to_string()).unwrap_or_else(|| e.to_string());
        // A unique key refused the change: it was already made (a turn stored twice, a token taken).
        if e.code() == Some(&SqlState::UNIQUE_VIOLATION) { DbError::conflict(text) } else { DbError::new(text) }
    }
}

impl From<deadpool_postgres::PoolError> for DbError {
    fn from(e: deadpool_postgres::PoolError) -> Self {
        DbError::new(format!("database connection: {e}"))
    }
}

/// A player waiting for a quick match, as the queue holds them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiter {
    /// The id of the server the player is connected to.
    pub server: String,
    /// The connection's id on that server.
    pub conn: i64,
    /// The display name.
    pub name: String,
    /// The hash of the seat token the player's server chose for them.
    pub token_hash: TokenHash,
}

/// The PostgreSQL database: a pool of connections, the queue of the turn writer, and the address to open the
/// listening connection with.
#[derive(Clone)]
pub struct PgStore {
    pool: Pool,
    turns: mpsc::UnboundedSender<TurnJob>,
    config: std::sync::Arc<tokio_postgres::Config>,
}

/// A turn to store ([`ADD_TURN`]'s parameters) and who waits for it.
struct TurnJob {
    game: String,
    version: i64,
    finished: bool,
    ply: i32,
    notation: String,
    notice: String,
    done: oneshot::Sender<Result<(), DbError>>,
}

/// The most turns committed in one transaction.
const MAX_BATCH: usize = 512;

/// Stores the turns queued, all those waiting in one transaction (group commit, as the SQLite writer does: one disk
/// flush for many turns, which is what makes thousands of turns a second affordable), their statements sent at once
/// (pipelined) rather than one round trip each. A turn at a version no longer stored is answered as a conflict and
/// the others still commit; if the batch fails as a whole (a lost connection), each turn is tried again alone.
async fn turn_writer(pool: Pool, mut jobs: mpsc::UnboundedReceiver<TurnJob>) {
    while let Some(first) = jobs.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        match store_turns(&pool, &batch).await {
            Ok(stored) => {
                for (job, stored) in batch.into_iter().zip(stored) {
                    let _ = job.done.send(if stored { Ok(()) } else { Err(conflict(&job.game, job.version)) });
                }
            }
            Err(_) => {
                for job in batch {
                    let alone = store_turns(&pool, std::slice::from_ref(&job)).await;
                    let _ = job.done.send(match alone {
                        Ok(stored) if stored == [true] => Ok(()),
                        Ok(_) => Err(conflict(&job.game, job.version)),
                        Err(e) => Err(e),
                    });
                }
            }
        }
    }
}

fn conflict(game: &str, version: i64) -> DbError {
    DbError::conflict(format!("game {game:?} is no longer at version {version}"))
}

/// Stores `batch` in one transaction; for each turn, whether it was stored (false: its game was at another version).
async fn store_turns(pool: &Pool, batch: &[TurnJob]) -> Result<Vec<bool>, DbError> {
    let mut client = pool.get().await?;
    let statement = client.prepare_cached(ADD_TURN).await?;
    let tx = client.transaction().await?;
    let t = unix_now();
    let counts = futures_util::future::try_join_all(batch.iter().map(|j| {
        let params: [&(dyn ToSql + Sync); 8] =
            [&j.game, &j.version, &t, &j.finished, &j.ply, &j.notation, &CHANNEL, &j.notice];
        let (tx, statement) = (&tx, &statement);
        async move { tx.execute(statement, &params).await }
    }))
    .await?;
    tx.commit().await?;
    Ok(counts.into_iter().map(|n| n == 1).collect())
}

fn hash_of(bytes: Vec<u8>) -> TokenHash {
    bytes.try_into().unwrap_or([0; 32])
}

/// Runs one statement, prepared once per connection (a statement given as text would be parsed at every call, a
/// round trip of its own).
async fn exec(tx: &impl GenericClient, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<u64, DbError> {
    let statement = tx.prepare_cached(sql).await?;
    Ok(tx.execute(&statement, params).await?)
}

/// A turn stored in one statement (one round trip, committed on its own): the version checked and raised, the turn
/// inserted, and the notice sent, all or nothing. No row back: the game was not at the expected version.
const ADD_TURN: &str = "WITH game AS (UPDATE games SET version = version + 1, updated_at = $3, draw_offer = NULL, \
    takeback_request = NULL, finished = $4 WHERE id = $1 AND version = $2 RETURNING id), \
    turn AS (INSERT INTO turns (game_id, ply, notation) SELECT id, $5, $6 FROM game RETURNING game_id) \
    SELECT pg_notify($7, $8) FROM turn";

async fn apply(tx: &impl GenericClient, write: &Write, expect: Option<i64>) -> Result<(), DbError> {
    let t = unix_now();
    if let Some(version) = expect {
        let n = exec(
            tx,
            "UPDATE games SET version = version + 1 WHERE id = $1 AND version = $2",
            &[&write.game(), &version],
        )
        .await?;
        if n != 1 {
            return Err(DbError::conflict(format!("game {:?} is no longer at version {version}", write.game())));
        }
    }
    match write {
        Write::CreateGame(g) => {
            exec(
                tx,
                "INSERT INTO games (id, variant, rules, created_at, invite_hash, spectate_hash, spectate_code, \
                 updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $4)",
                &[
                    &g.id,
                    &g.variant,
                    &g.rules,
                    &t,
                    &g.invite_hash.map(|h| h.to_vec()),
                    &g.spectate_hash.to_vec(),
                    &g.spectate_code,
                ],
            )
            .await?;
            for (side, seat) in [("white", &g.white), ("black", &g.black)] {
                if let Some(s) = seat {
                    exec(
                        tx,
                        "INSERT INTO seats (game_id, side, token_hash, name) VALUES ($1, $2, $3, $4)",
                        &[&g.id, &side, &s.token_hash.to_vec(), &s.name],
                    )
                    .await?;
                }
            }
        }
        Write::TakeSeat { game, side, seat } => {
            let used = exec(
                tx,
                "UPDATE games SET invite_hash = NULL, updated_at = $2 WHERE id = $1 AND invite_hash IS NOT NULL",
                &[game, &t],
            )
            .await?;
            if used != 1 {
                return Err(DbError::conflict(INVITE_USED));
            }
            exec(
                tx,
                "INSERT INTO seats (game_id, side, token_hash, name) VALUES ($1, $2, $3, $4)",
                &[game, side, &seat.token_hash.to_vec(), &seat.name],
            )
            .await?;
        }
        Write::AddTurn { game, ply, notation, finished } => {
            let ply = i32::try_from(*ply).map_err(|_| DbError::new("turn number out of range"))?;
            exec(tx, "INSERT INTO turns (game_id, ply, notation) VALUES ($1, $2, $3)", &[game, &ply, notation]).await?;
            exec(
                tx,
                "UPDATE games SET updated_at = $2, draw_offer = NULL, takeback_request = NULL, finished = $3 \
                 WHERE id = $1",
                &[game, &t, finished],
            )
            .await?;
        }
        Write::TruncateTurns { game, from_ply } => {
            let from = i32::try_from(*from_ply).map_err(|_| DbError::new("turn number out of range"))?;
            exec(tx, "DELETE FROM turns WHERE game_id = $1 AND ply >= $2", &[game, &from]).await?;
            exec(
                tx,
                "UPDATE games SET updated_at = $2, draw_offer = NULL, takeback_request = NULL WHERE id = $1",
                &[game, &t],
            )
            .await?;
        }
        Write::SetEnding { game, ending } => {
            exec(
                tx,
                "UPDATE games SET ending = $2, updated_at = $3, draw_offer = NULL, takeback_request = NULL, \
                 finished = TRUE WHERE id = $1",
                &[game, ending, &t],
            )
            .await?;
        }
        Write::SetOffers { game, draw, takeback } => {
            let changed = exec(
                tx,
                "UPDATE games SET draw_offer = $2, takeback_request = $3, updated_at = $4 WHERE id = $1",
                &[game, draw, takeback, &t],
            )
            .await?;
            if changed != 1 {
                return Err(DbError::new(format!("no game {game:?}")));
            }
        }
    }
    Ok(())
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://user:password@host:port/dbname`) and applies the migrations.
    pub async fn connect(url: &str) -> Result<PgStore, DbError> {
        let config: tokio_postgres::Config = url.parse().map_err(|e| DbError::new(format!("{url}: {e}")))?;
        let manager =
            Manager::from_config(config.clone(), NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
        let pool =
            Pool::builder(manager).max_size(POOL_SIZE).build().map_err(|e| DbError::new(format!("pool: {e}")))?;
        let (turns, jobs) = mpsc::unbounded_channel();
        tokio::spawn(turn_writer(pool.clone(), jobs));
        let store = PgStore { pool, turns, config: config.into() };
        store.migrate().await?;
        Ok(store)
    }

    async fn migrate(&self) -> Result<(), DbError> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await?;
        tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (applied INTEGER NOT NULL)").await?;
        let applied: i32 = match tx.query_opt("SELECT applied FROM schema_version", &[]).await? {
            Some(row) => row.get(0),
            None => {
                tx.execute("INSERT INTO schema_version (applied) VALUES (0)", &[]).await?;
                0
            }
        };
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(applied.max(0) as usize) {
            tx.batch_execute(sql).await?;
            tx.execute("UPDATE schema_version SET applied = $1", &[&(i as i32 + 1)]).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Stores a change; returns once it is committed.
    pub async fn write(&self, write: Write) -> Result<(), DbError> {
        self.write_checked(write, None, None).await
    }

    /// Stores a change made from version `expect` of its game (which it raises by one; a conflict if the stored game
    /// is at another version), and sends `notice` to every listening server when it commits.
    pub async fn write_checked(
        &self,
        write: Write,
        expect: Option<i64>,
        notice: Option<String>,
    ) -> Result<(), DbError> {
        let (write, expect, notice) = match (write, expect, notice) {
            (Write::AddTurn { game, ply, notation, finished }, Some(version), Some(notice)) => {
                let ply = i32::try_from(ply).map_err(|_| DbError::new("turn number out of range"))?;
                let (done, wait) = oneshot::channel();
                let job = TurnJob { game, version, finished, ply, notation, notice, done };
                self.turns.send(job).map_err(|_| DbError::new("the turn writer stopped"))?;
                return wait.await.map_err(|_| DbError::new("the turn writer stopped"))?;
            }
            other => other,
        };
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        apply(&tx, &write, expect).await?;
        if let Some(payload) = notice {
            tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &payload]).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Sends `payload` to every listening server (this one included).
    pub async fn notify(&self, payload: &str) -> Result<(), DbError> {
        let client = self.pool.get().await?;
        client.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &payload]).await?;
        Ok(())
    }

    /// Whether the turn writer runs and the database answers a read of the games within 2 s.
    pub async fn healthy(&self) -> Result<(), DbError> {
        if self.turns.is_closed() {
            return Err(DbError::new("the turn writer stopped"));
        }
        let probe = async {
            let client = self.pool.get().await?;
            client.execute("SELECT 1 FROM games LIMIT 1", &[]).await?;
            Ok(())
        };
        tokio::time::timeout(Duration::from_secs(2), probe)
            .await
            .map_err(|_| DbError::new("the database did not answer within 2 s"))?
    }

    /// Deletes the games nobody will come back to, by the rules of [`crate::db::Db::expire`]: never started and
    /// created more than `invite_ttl` before `now`, or not over and unchanged for `abandon_after`; never those of
    /// `keep`. In chunks, each deletion checking its rule again, so that a game changed meanwhile is kept.
    pub async fn expire(
        &self,
        now: i64,
        invite_ttl: Duration,
        abandon_after: Duration,
        keep: HashSet<String>,
    ) -> Result<ExpiredCounts, DbError> {
        const UNSTARTED: &str = "invite_hash IS NOT NULL AND created_at < $1 \
                                 AND NOT EXISTS (SELECT 1 FROM turns WHERE turns.game_id = games.id)";
        const ABANDONED: &str = "NOT finished AND ending IS NULL AND updated_at < $1";
        let before = |d: Duration| now.saturating_sub(i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        let keep: Vec<String> = keep.into_iter().collect();
        let client = self.pool.get().await?;
        let mut counts = ExpiredCounts::default();
        for (rule, cutoff, count) in [
            (UNSTARTED, before(invite_ttl), &mut counts.unstarted),
            (ABANDONED, before(abandon_after), &mut counts.abandoned),
        ] {
            let sql = format!(
                "DELETE FROM games WHERE id IN (SELECT id FROM games WHERE {rule} AND NOT (id = ANY($2)) \
                 LIMIT {EXPIRE_CHUNK} FOR UPDATE SKIP LOCKED) AND {rule}"
            );
            loop {
                let n = client.execute(&sql, &[&cutoff, &keep]).await?;
                *count += n as usize;
                if n < EXPIRE_CHUNK {
                    break;
                }
            }
        }
        Ok(counts)
    }

    /// The stored version of the game `id`, if it exists.
    pub async fn version(&self, id: &str) -> Result<Option<i64>, DbError> {
        let client = self.pool.get().await?;
        let statement = client.prepare_cached("SELECT version FROM games WHERE id = $1").await?;
        Ok(client.query_opt(&statement, &[&id]).await?.map(|r| r.get(0)))
    }

    /// The game and side of a seat token's hash.
    pub async fn find_seat(&self, hash: TokenHash) -> Result<Option<(String, String)>, DbError> {
        let client = self.pool.get().await?;
        let row = client.query_opt("SELECT game_id, side FROM seats WHERE token_hash = $1", &[&hash.to_vec()]).await?;
        Ok(row.map(|r| (r.get(0), r.get(1))))
    }

    /// The game of an unused invite code's hash, and when the game was created (Unix seconds).
    pub async fn find_invite(&self, hash: TokenHash) -> Result<Option<(String, i64)>, DbError> {
        let client = self.pool.get().await?;
        let row =
            client.query_opt("SELECT id, created_at FROM games WHERE invite_hash = $1", &[&hash.to_vec()]).await?;
        Ok(row.map(|r| (r.get(0), r.get(1))))
    }

    /// The game of a spectator token's hash.
    pub async fn find_spectate(&self, hash: TokenHash) -> Result<Option<String>, DbError> {
        let client = self.pool.get().await?;
        let row = client.query_opt("SELECT id FROM games WHERE spectate_hash = $1", &[&hash.to_vec()]).await?;
        Ok(row.map(|r| r.get(0)))
    }

    /// A whole stored game, read in one snapshot.
    pub async fn load(&self, id: String) -> Result<Option<StoredGame>, DbError> {
        let mut client = self.pool.get().await?;
        let tx = client
            .build_transaction()
            .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .await?;
        let Some(row) = tx
            .query_opt(
                "SELECT variant, rules, invite_hash IS NOT NULL, ending, draw_offer, takeback_request, \
                 spectate_code, version FROM games WHERE id = $1",
                &[&id],
            )
            .await?
        else {
            return Ok(None);
        };
        let mut seats = [None, None];
        for r in tx.query("SELECT side, token_hash, name FROM seats WHERE game_id = $1", &[&id]).await? {
            let side: String = r.get(0);
            let seat = StoredSeat { token_hash: hash_of(r.get(1)), name: r.get(2) };
            seats[usize::from(side == "black")] = Some(seat);
        }
        let turns = tx
            .query("SELECT notation FROM turns WHERE game_id = $1 ORDER BY ply", &[&id])
            .await?
            .into_iter()
            .map(|r| r.get(0))
            .collect();
        tx.commit().await?;
        let [white, black] = seats;
        Ok(Some(StoredGame {
            id,
            variant: row.get(0),
            rules: row.get(1),
            invite_open: row.get(2),
            ending: row.get(3),
            draw_offer: row.get(4),
            takeback_request: row.get(5),
            spectate_code: row.get(6),
            version: row.get(7),
            white,
            black,
            turns,
        }))
    }

    /// Opens a connection that listens on [`CHANNEL`]: the payloads arrive on the receiver, which ends when the
    /// connection does. Keep the returned client: the connection closes with it.
    pub async fn listen(&self) -> Result<(tokio_postgres::Client, mpsc::UnboundedReceiver<String>), DbError> {
        let (client, mut connection) = self.config.connect(NoTls).await?;
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
            while let Some(Ok(message)) = messages.next().await {
                if let AsyncMessage::Notification(n) = message
                    && tx.send(n.payload().to_string()).is_err()
                {
                    return;
                }
            }
        });
        client.batch_execute(&format!("LISTEN {CHANNEL}")).await?;
        Ok((client, rx))
    }

    /// Marks the server `id` alive now.
    pub async fn heartbeat(&self, id: &str) -> Result<(), DbError> {
        let client = self.pool.get().await?;
        client
            .execute(
                "INSERT INTO servers (id, seen_at) VALUES ($1, now()) ON CONFLICT (id) DO UPDATE SET seen_at = now()",
                &[&id],
            )
            .await?;
        Ok(())
    }

    /// Forgets the servers not seen for `dead_after_s` seconds and their players' places in the queue; returns their
    /// ids, so that this server can stop counting their players as connected.
    pub async fn bury_dead_servers(&self, dead_after_s: f64) -> Result<Vec<String>, DbError> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let dead: Vec<String> = tx
            .query(
                "DELETE FROM servers WHERE seen_at < now() - make_interval(secs => $1) RETURNING id",
                &[&dead_after_s],
            )
            .await?
            .into_iter()
            .map(|r| r.get(0))
            .collect();
        tx.execute("DELETE FROM queue WHERE server NOT IN (SELECT id FROM servers)", &[]).await?;
        tx.commit().await?;
        Ok(dead)
    }

    /// Takes a player out of the queue; whether they were in it.
    pub async fn dequeue(&self, server: &str, conn: i64) -> Result<bool, DbError> {
        let client = self.pool.get().await?;
        Ok(client.execute("DELETE FROM queue WHERE server = $1 AND conn = $2", &[&server, &conn]).await? == 1)
    }

    /// Quick match for `me` on `board`, in one transaction: pairs with the player who has waited longest on a server
    /// seen alive in the last [`ALIVE_S`] seconds (taking them out of the queue, storing the game `make` builds for
    /// them and sending `make`'s notice), or else puts `me` in the queue. Matching for one board is serialized
    /// across servers by an advisory lock, so two players who ask at once on different servers are paired with
    /// each other, never both left waiting nor both given the same third player.
    pub async fn pair_or_wait(
        &self,
        board: &str,
        me: &Waiter,
        make: impl FnOnce(&Waiter) -> (NewGame, String),
    ) -> Result<Option<Waiter>, DbError> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        tx.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", &[&QUEUE_LOCK, &board]).await?;
        let row = tx
            .query_opt(
                "SELECT server, conn, name, token_hash FROM queue \
                 WHERE board = $1 AND NOT (server = $2 AND conn = $3) \
                 AND server IN (SELECT id FROM servers WHERE seen_at > now() - make_interval(secs => $4)) \
                 ORDER BY entered_at LIMIT 1",
                &[&board, &me.server, &me.conn, &ALIVE_S],
            )
            .await?;
        let Some(row) = row else {
            tx.execute(
                "INSERT INTO queue (server, conn, board, name, token_hash) VALUES ($1, $2, $3, $4, $5)",
                &[&me.server, &me.conn, &board, &me.name, &me.token_hash.to_vec()],
            )
            .await?;
            tx.commit().await?;
            return Ok(None);
        };
        let waiter = Waiter { server: row.get(0), conn: row.get(1), name: row.get(2), token_hash: hash_of(row.get(3)) };
        tx.execute("DELETE FROM queue WHERE server = $1 AND conn = $2", &[&waiter.server, &waiter.conn]).await?;
        let (game, notice) = make(&waiter);
        apply(&tx, &Write::CreateGame(game), None).await?;
        tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &notice]).await?;
        tx.commit().await?;
        Ok(Some(waiter))
    }
}
