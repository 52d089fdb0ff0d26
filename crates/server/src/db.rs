//! SQLite storage: games, seats and turns, written by one thread that commits in groups.
//!
//! Every change goes through [`Db::write`], which returns only once the change is committed (WAL,
//! `synchronous=FULL`: on disk, so neither `kill -9` nor a power cut loses it). The server acknowledges and
//! broadcasts a turn only after that, so no acknowledged turn is ever lost. Writes wait in a queue; the writer thread
//! takes everything queued, commits it in one transaction (one savepoint per write, so one failing write does not
//! sink the others) and answers each. Under load a single disk flush covers many turns.
//!
//! Tokens are stored as SHA-256 hashes: whoever reads the database file (a backup, a leak) still cannot take a
//! seat. They are 128 random bits, not passwords, so a plain hash without salt or stretching is enough, and a
//! lookup stays one index seek. Invite codes are hashed the same way, in their canonical form; at 50 bits, a leaked
//! file could be searched for them with a lot of computing, which would give at most the free seats of games whose
//! invites have not yet expired. The spectator code is also kept in the clear, so that a game loaded again can give
//! it to its players to share: it only lets one watch, and the file holds the game's turns anyway.

use rusqlite::{Connection, OptionalExtension, params};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use std::time::{SystemTime, UNIX_EPOCH};
use tokio::sync::{mpsc, oneshot};

/// The migrations, in order: file `i` is applied when `PRAGMA user_version` is below `i + 1`.
const MIGRATIONS: &[&str] = &[
    include_str!("../migrations/0001_init.sql"),
    include_str!("../migrations/0002_offers.sql"),
    include_str!("../migrations/0003_spectate_code.sql"),
    include_str!("../migrations/0004_version.sql"),
    include_str!("../migrations/0005_finished.sql"),
];

/// The schema version (`user_version`) from which `games.finished` exists.
const FINISHED_VERSION: i64 = 5;

/// A game that nobody can join any more and nobody played: a seat still free (its invite unused), no turn, created
/// before `?1`. Whether it has an ending does not matter: a game resigned before anyone came is not worth keeping.
const UNSTARTED: &str = "invite_hash IS NOT NULL AND created_at < ?1 \
                         AND NOT EXISTS (SELECT 1 FROM turns WHERE turns.game_id = games.id)";

/// A game not over (neither by its turns nor by an ending) and unchanged since before `?1`.
const ABANDONED: &str = "finished = 0 AND ending IS NULL AND updated_at < ?1";

/// Games deleted per transaction by [`Db::expire`], so that the writer never waits long for it.
const EXPIRE_CHUNK: usize = 256;

/// The most writes committed in one transaction.
const MAX_BATCH: usize = 512;

/// A SHA-256 hash of a token.
pub type TokenHash = [u8; 32];

/// A storage error: a failure (logged; the client gets [`fanorona_net::ErrorCode::Internal`]) or a conflict (the
/// game is no longer at the version the change was made from, or the change was already made: nothing was stored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DbError {
    /// What went wrong, in English.
    pub message: String,
    /// Whether the change met a newer state of its game rather than a failure.
    pub conflict: bool,
}

impl DbError {
    /// A failure of the storage.
    pub fn new(message: impl Into<String>) -> DbError {
        DbError { message: message.into(), conflict: false }
    }

    /// A change that met a newer state of its game.
    pub fn conflict(message: impl Into<String>) -> DbError {
        DbError { message: message.into(), conflict: true }
    }
}

impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DbError {}

/// The error of [`Write::TakeSeat`] when the invite was used already: a seat really taken, not a storage failure.
pub(crate) const INVITE_USED: &str = "the invite was already used";

impl DbError {
    /// Whether this is [`Write::TakeSeat`] finding the invite used already (the seat taken), rather than a failure.
    pub fn is_invite_used(&self) -> bool {
        self.conflict && self.message == INVITE_USED
    }
}

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> Self {
        // A unique key refused the change: it was already made (a turn stored twice, a token taken).
        let unique = matches!(
            &e,
            rusqlite::Error::SqliteFailure(f, _)
                if f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                    || f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
        );
        if unique { DbError::conflict(e.to_string()) } else { DbError::new(e.to_string()) }
    }
}

/// A seat as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSeat {
    /// The hash of the seat token.
    pub token_hash: TokenHash,
    /// The display name.
    pub name: String,
}

/// A new game to store.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The game id.
    pub id: String,
    /// The `Variant` tag text.
    pub variant: String,
    /// The rules tag text.
    pub rules: String,
    /// The invite code's hash, while a seat is free.
    pub invite_hash: Option<TokenHash>,
    /// The spectator token's hash.
    pub spectate_hash: TokenHash,
    /// The spectator token itself.
    pub spectate_code: String,
    /// White's seat, if taken.
    pub white: Option<StoredSeat>,
    /// Black's seat, if taken.
    pub black: Option<StoredSeat>,
}

/// A game as stored.
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// The game id.
    pub id: String,
    /// The `Variant` tag text.
    pub variant: String,
    /// The rules tag text.
    pub rules: String,
    /// Whether the invite code is still unused.
    pub invite_open: bool,
    /// The spectator token, for games stored since the schema kept it.
    pub spectate_code: Option<String>,
    /// The ending the turns do not give, if any.
    pub ending: Option<String>,
    /// White's seat, if taken.
    pub white: Option<StoredSeat>,
    /// Black's seat, if taken.
    pub black: Option<StoredSeat>,
    /// The turns in order, in turn notation.
    pub turns: Vec<String>,
    /// The side ("white" or "black") with a standing draw offer.
    pub draw_offer: Option<String>,
    /// The side ("white" or "black") with a standing takeback request.
    pub takeback_request: Option<String>,
    /// The game's version: how many changes it has had since it was created.
    pub version: i64,
}

/// One change.
#[derive(Clone, Debug)]
pub enum Write {
    /// Stores a new game and its taken seats.
    CreateGame(NewGame),
    /// Gives the free seat to the invite's holder and uses up the invite.
    TakeSeat {
        /// The game id.
        game: String,
        /// "white" or "black".
        side: &'static str,
        /// The seat.
        seat: StoredSeat,
    },
    /// Stores turn number `ply` (0-based); fails if that turn is already stored. A turn answers every standing
    /// offer, so it clears them.
    AddTurn {
        /// The game id.
        game: String,
        /// The number of turns before it.
        ply: u32,
        /// The turn notation.
        notation: String,
        /// Whether this turn ends the game (stored as `games.finished`, which keeps it from [`Db::expire`]).
        finished: bool,
    },
    /// Deletes the turns from `from_ply` on (a takeback), and clears the standing offers.
    TruncateTurns {
        /// The game id.
        game: String,
        /// The first turn deleted.
        from_ply: u32,
    },
    /// Sets the ending the turns do not give, and clears the standing offers.
    SetEnding {
        /// The game id.
        game: String,
        /// `resign white`, `resign black` or `draw`.
        ending: String,
    },
    /// Sets the standing draw offer and takeback request.
    SetOffers {
        /// The game id.
        game: String,
        /// The side ("white" or "black") offering a draw.
        draw: Option<&'static str>,
        /// The side ("white" or "black") asking for a takeback.
        takeback: Option<&'static str>,
    },
}

/// What the writer thread is asked to do.
// Nearly every task is a write, held inline as before there were others: boxing it would cost an allocation each.
#[allow(clippy::large_enum_variant)]
enum Task {
    /// A change.
    Write(Write),
    /// Nothing, in a transaction of its batch: answered once the writer has taken it and committed.
    Probe,
    /// Ends the writer thread as a panic would, so that tests can see what a dead writer does.
    #[cfg(test)]
    Die,
}

impl Write {
    /// The game it changes.
    pub fn game(&self) -> &str {
        match self {
            Write::CreateGame(g) => &g.id,
            Write::TakeSeat { game, .. }
            | Write::AddTurn { game, .. }
            | Write::TruncateTurns { game, .. }
            | Write::SetEnding { game, .. }
            | Write::SetOffers { game, .. } => game,
        }
    }
}

struct Job {
    task: Task,
    /// The version of the game the change was made from, when it must still be the stored one.
    expect: Option<i64>,
    done: oneshot::Sender<Result<(), DbError>>,
}

/// How long [`Db::healthy`] waits for the writer and a read.
const HEALTH_WAIT: Duration = Duration::from_secs(2);

fn writer_stopped<E>(_: E) -> DbError {
    DbError::new("the database writer stopped")
}

/// The database: a writer thread fed by a queue, and a connection for reads.
#[derive(Clone)]
pub struct Db {
    jobs: mpsc::UnboundedSender<Job>,
    reader: Arc<Mutex<Connection>>,
    path: Arc<PathBuf>,
}

/// The time now, in Unix seconds, as `created_at` and `updated_at` hold it.
pub fn unix_now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

fn open(path: &Path) -> Result<Connection, DbError> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

fn migrate(conn: &mut Connection) -> Result<(), DbError> {
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        if i as i64 + 1 == FINISHED_VERSION {
            mark_finished(&tx)?;
        }
        tx.pragma_update(None, "user_version", (i + 1) as i64)?;
        tx.commit()?;
    }
    Ok(())
}

/// Marks `finished` the games that ended on the board before the column existed: SQL cannot tell, the engine can, by
/// replaying them. Once, when the column is added; a game that does not replay stays unfinished.
fn mark_finished(conn: &Connection) -> Result<(), DbError> {
    let ids = conn
        .prepare("SELECT id FROM games WHERE finished = 0 AND EXISTS (SELECT 1 FROM turns WHERE game_id = games.id)")?
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    for id in ids {
        let Some(stored) = load_game(conn, id.clone())? else { continue };
        if crate::room::Room::from_stored(stored).is_ok_and(|room| room.game.is_over()) {
            conn.execute("UPDATE games SET finished = 1 WHERE id = ?1", [&id])?;
        }
    }
    Ok(())
}

fn apply(conn: &Connection, write: &Write, expect: Option<i64>) -> Result<(), DbError> {
    let t = unix_now();
    if let Some(version) = expect {
        let n = conn.execute(
            "UPDATE games SET version = version + 1 WHERE id = ?1 AND version = ?2",
            params![write.game(), version],
        )?;
        if n != 1 {
            return Err(DbError::conflict(format!("game {:?} is no longer at version {version}", write.game())));
        }
    }
    match write {
        Write::CreateGame(g) => {
            conn.execute(
                "INSERT INTO games (id, variant, rules, created_at, invite_hash, spectate_hash, spectate_code, \
                 updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?4)",
                params![
                    g.id,
                    g.variant,
                    g.rules,
                    t,
                    g.invite_hash.map(|h| h.to_vec()),
                    g.spectate_hash.to_vec(),
                    g.spectate_code
                ],
            )?;
            for (side, seat) in [("white", &g.white), ("black", &g.black)] {
                if let Some(s) = seat {
                    conn.execute(
                        "INSERT INTO seats (game_id, side, token_hash, name) VALUES (?1, ?2, ?3, ?4)",
                        params![g.id, side, s.token_hash.to_vec(), s.name],
                    )?;
                }
            }
        }
        Write::TakeSeat { game, side, seat } => {
            let used = conn.execute(
                "UPDATE games SET invite_hash = NULL, updated_at = ?2 WHERE id = ?1 AND invite_hash IS NOT NULL",
                params![game, t],
            )?;
            if used != 1 {
                return Err(DbError::conflict(INVITE_USED));
            }
            conn.execute(
                "INSERT INTO seats (game_id, side, token_hash, name) VALUES (?1, ?2, ?3, ?4)",
                params![game, side, seat.token_hash.to_vec(), seat.name],
            )?;
        }
        Write::AddTurn { game, ply, notation, finished } => {
            conn.execute(
                "INSERT INTO turns (game_id, ply, notation) VALUES (?1, ?2, ?3)",
                params![game, ply, notation],
            )?;
            conn.execute(
                "UPDATE games SET updated_at = ?2, draw_offer = NULL, takeback_request = NULL, finished = ?3 \
                 WHERE id = ?1",
                params![game, t, finished],
            )?;
        }
        Write::TruncateTurns { game, from_ply } => {
            conn.execute("DELETE FROM turns WHERE game_id = ?1 AND ply >= ?2", params![game, from_ply])?;
            conn.execute(
                "UPDATE games SET updated_at = ?2, draw_offer = NULL, takeback_request = NULL WHERE id = ?1",
                params![game, t],
            )?;
        }
        Write::SetEnding { game, ending } => {
            conn.execute(
                "UPDATE games SET ending = ?2, updated_at = ?3, draw_offer = NULL, takeback_request = NULL, \
                 finished = 1 WHERE id = ?1",
                params![game, ending, t],
            )?;
        }
        Write::SetOffers { game, draw, takeback } => {
            let changed = conn.execute(
                "UPDATE games SET draw_offer = ?2, takeback_request = ?3, updated_at = ?4 WHERE id = ?1",
                params![game, draw, takeback, t],
            )?;
            if changed != 1 {
                return Err(DbError::new(format!("no game {game:?}")));
            }
        }
    }
    Ok(())
}

/// Commits one batch: one transaction, one savepoint per job.
fn commit_batch(conn: &mut Connection, batch: Vec<Job>) {
    let mut results = Vec::with_capacity(batch.len());
    let outcome = (|| -> Result<(), DbError> {
        let mut tx = conn.transaction()?;
        for job in &batch {
            let mut sp = tx.savepoint()?;
            let r = match &job.task {
                Task::Write(write) => apply(&sp, write, job.expect),
                Task::Probe => Ok(()),
                #[cfg(test)]
                Task::Die => Ok(()),
            };
            if r.is_ok() {
                sp.commit()?;
            } else {
                sp.rollback()?;
            }
            results.push(r);
        }
        tx.commit()?;
        Ok(())
    })();
    for (i, job) in batch.into_iter().enumerate() {
        let r = match &outcome {
            Ok(()) => results.get(i).cloned().unwrap_or_else(|| Err(DbError::new("not applied"))),
            Err(e) => Err(e.clone()),
        };
        // The requester may have gone (its connection dropped); the write stands regardless.
        let _ = job.done.send(r);
    }
}

fn writer_loop(mut conn: Connection, mut jobs: mpsc::UnboundedReceiver<Job>) {
    while let Some(first) = jobs.blocking_recv() {
        #[cfg(test)]
        if let Task::Die = first.task {
            panic!("the database writer was told to die");
        }
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        commit_batch(&mut conn, batch);
    }
}

fn read_seat(conn: &Connection, game: &str, side: &str) -> Result<Option<StoredSeat>, DbError> {
    Ok(conn
        .query_row("SELECT token_hash, name FROM seats WHERE game_id = ?1 AND side = ?2", params![game, side], |r| {
            let hash: Vec<u8> = r.get(0)?;
            Ok((hash, r.get::<_, String>(1)?))
        })
        .optional()?
        .map(|(hash, name)| StoredSeat { token_hash: hash.try_into().unwrap_or([0; 32]), name }))
}

impl Db {
    /// Opens (creating if needed) the database at `path` and applies the migrations.
    pub fn open(path: &Path) -> Result<Db, DbError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| DbError::new(format!("{}: {e}", dir.display())))?;
        }
        let mut writer = open(path)?;
        migrate(&mut writer)?;
        let reader = open(path)?;
        let (tx, rx) = mpsc::unbounded_channel();
        std::thread::Builder::new()
            .name("db-writer".into())
            .spawn(move || writer_loop(writer, rx))
            .map_err(|e| DbError::new(e.to_string()))?;
        Ok(Db { jobs: tx, reader: Arc::new(Mutex::new(reader)), path: Arc::new(path.to_path_buf()) })
    }

    /// Stores a change; returns once it is committed to disk.
    pub async fn write(&self, write: Write) -> Result<(), DbError> {
        self.run(Task::Write(write), None).await
    }

    /// Stores a change made from version `expect` of its game, which it raises by one; refused as a conflict if the
    /// stored game is at another version.
    pub async fn write_checked(&self, write: Write, expect: i64) -> Result<(), DbError> {
        self.run(Task::Write(write), Some(expect)).await
    }

    async fn run(&self, task: Task, expect: Option<i64>) -> Result<(), DbError> {
        let (done, wait) = oneshot::channel();
        self.jobs.send(Job { task, expect, done }).map_err(writer_stopped)?;
        wait.await.map_err(writer_stopped)?
    }

    /// Whether the database works: an empty job goes through the writer's queue and commits, and a read of the games
    /// table answers, both within 2 s. An error says which failed: a dead or stuck writer, a failing disk.
    pub async fn healthy(&self) -> Result<(), DbError> {
        let probe = async {
            self.run(Task::Probe, None).await?;
            self.read(|c| Ok(c.execute_batch("SELECT 1 FROM games LIMIT 1")?)).await
        };
        tokio::time::timeout(HEALTH_WAIT, probe)
            .await
            .map_err(|_| DbError::new(format!("the database did not answer within {} s", HEALTH_WAIT.as_secs())))?
    }

    /// Makes the writer thread die (panic), for tests of what follows.
    #[cfg(test)]
    pub(crate) async fn kill_writer(&self) {
        let _ = self.run(Task::Die, None).await;
    }

    async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, DbError> + Send + 'static,
    ) -> Result<T, DbError> {
        let reader = self.reader.clone();
        tokio::task::spawn_blocking(move || {
            let conn = reader.lock().unwrap_or_else(|p| p.into_inner());
            f(&conn)
        })
        .await
        .map_err(|e| DbError::new(e.to_string()))?
    }

    /// The game and side of a seat token's hash.
    pub async fn find_seat(&self, hash: TokenHash) -> Result<Option<(String, String)>, DbError> {
        self.read(move |c| {
            Ok(c.query_row("SELECT game_id, side FROM seats WHERE token_hash = ?1", [hash.to_vec()], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?)
        })
        .await
    }

    /// The game of an unused invite code's hash, and when the game was created (Unix seconds), from which the
    /// invite's age is counted.
    pub async fn find_invite(&self, hash: TokenHash) -> Result<Option<(String, i64)>, DbError> {
        self.read(move |c| {
            Ok(c.query_row("SELECT id, created_at FROM games WHERE invite_hash = ?1", [hash.to_vec()], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?)
        })
        .await
    }

    /// The game of a spectator token's hash.
    pub async fn find_spectate(&self, hash: TokenHash) -> Result<Option<String>, DbError> {
        self.read(move |c| {
            Ok(c.query_row("SELECT id FROM games WHERE spectate_hash = ?1", [hash.to_vec()], |r| r.get(0))
                .optional()?)
        })
        .await
    }

    /// A whole stored game.
    pub async fn load(&self, id: String) -> Result<Option<StoredGame>, DbError> {
        // One read transaction, so that the game, its seats and its turns are of one moment.
        self.read(move |c| {
            let tx = c.unchecked_transaction()?;
            load_game(&tx, id)
        })
        .await
    }

    /// Deletes the games nobody will come back to, and says how many: those never started (a seat still free, no
    /// turn) created more than `invite_ttl` before `now` (Unix seconds), when their invite has expired, and those not
    /// over and unchanged for `abandon_after`. Finished games are kept, and so are the games of `keep` (those in the
    /// server's memory, which someone is connected to). Each deletion checks its rule again in its own transaction,
    /// so a game changed meanwhile is kept. Runs on a connection of its own, in chunks, so that reads and writes go
    /// on meanwhile.
    pub async fn expire(
        &self,
        now: i64,
        invite_ttl: Duration,
        abandon_after: Duration,
        keep: HashSet<String>,
    ) -> Result<ExpiredCounts, DbError> {
        let path = self.path.clone();
        let before = |d: Duration| now.saturating_sub(i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        let (invite_before, abandoned_before) = (before(invite_ttl), before(abandon_after));
        tokio::task::spawn_blocking(move || {
            let mut conn = open(&path)?;
            Ok(ExpiredCounts {
                unstarted: delete_where(&mut conn, UNSTARTED, invite_before, &keep)?,
                abandoned: delete_where(&mut conn, ABANDONED, abandoned_before, &keep)?,
            })
        })
        .await
        .map_err(|e| DbError::new(e.to_string()))?
    }
}

/// How many games [`Db::expire`] deleted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExpiredCounts {
    /// Never started, their invite expired.
    pub unstarted: usize,
    /// Not over and untouched for the abandonment time.
    pub abandoned: usize,
}

/// Deletes the games that meet `rule` (a condition on `games` with the time `?1`) at `cutoff`, but those of `keep`;
/// their seats and turns go with them (`ON DELETE CASCADE`).
fn delete_where(conn: &mut Connection, rule: &str, cutoff: i64, keep: &HashSet<String>) -> Result<usize, DbError> {
    let ids = conn
        .prepare(&format!("SELECT id FROM games WHERE {rule}"))?
        .query_map([cutoff], |r| r.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    let ids: Vec<String> = ids.into_iter().filter(|id| !keep.contains(id)).collect();
    let mut deleted = 0;
    for chunk in ids.chunks(EXPIRE_CHUNK) {
        let tx = conn.transaction()?;
        {
            let mut delete = tx.prepare(&format!("DELETE FROM games WHERE id = ?2 AND {rule}"))?;
            for id in chunk {
                deleted += delete.execute(params![cutoff, id])?;
            }
        }
        tx.commit()?;
    }
    Ok(deleted)
}

/// A whole stored game, read on `c`.
fn load_game(c: &Connection, id: String) -> Result<Option<StoredGame>, DbError> {
    let Some((variant, rules, invite_open, ending, draw_offer, takeback_request, spectate_code, version)) = c
        .query_row(
            "SELECT variant, rules, invite_hash IS NOT NULL, ending, draw_offer, takeback_request, \
             spectate_code, version FROM games WHERE id = ?1",
            [&id],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, bool>(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get::<_, i64>(7)?,
                ))
            },
        )
        .optional()?
    else {
        return Ok(None);
    };
    let white = read_seat(c, &id, "white")?;
    let black = read_seat(c, &id, "black")?;
    let mut stmt = c.prepare_cached("SELECT notation FROM turns WHERE game_id = ?1 ORDER BY ply")?;
    let turns = stmt.query_map([&id], |r| r.get(0))?.collect::<Result<Vec<String>, _>>()?;
    Ok(Some(StoredGame {
        id,
        variant,
        rules,
        invite_open,
        spectate_code,
        ending,
        white,
        black,
        turns,
        draw_offer,
        takeback_request,
        version,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(b: u8, name: &str) -> StoredSeat {
        StoredSeat { token_hash: [b; 32], name: name.into() }
    }

    /// A 9×5 game `id` with the invite `[9; 32]`, the spectator token `"watch"` (hash `[8; 32]`) and White's seat
    /// `[1; 32]` taken.
    fn new_game(id: &str) -> NewGame {
        NewGame {
            id: id.into(),
            variant: "9x5".into(),
            rules: String::new(),
            invite_hash: Some([9; 32]),
            spectate_hash: [8; 32],
            spectate_code: "watch".into(),
            white: Some(seat(1, "A")),
            black: None,
        }
    }

    #[tokio::test]
    async fn writes_read_back_and_survive_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/games.sqlite3");
        let db = Db::open(&path).unwrap();
        let before = unix_now();
        db.write(Write::CreateGame(new_game("g1"))).await.unwrap();
        let (id, created_at) = db.find_invite([9; 32]).await.unwrap().unwrap();
        assert_eq!(id, "g1");
        assert!((before..=unix_now()).contains(&created_at), "{created_at}");
        db.write(Write::TakeSeat { game: "g1".into(), side: "black", seat: seat(2, "B") }).await.unwrap();
        // An invite seats one player only.
        assert!(db.write(Write::TakeSeat { game: "g1".into(), side: "black", seat: seat(3, "C") }).await.is_err());
        assert_eq!(db.find_invite([9; 32]).await.unwrap(), None);
        for (ply, t) in ["d3-e3A", "f4-f3A", "e3-f2W"].iter().enumerate() {
            db.write(Write::AddTurn { game: "g1".into(), ply: ply as u32, notation: t.to_string(), finished: false })
                .await
                .unwrap();
        }
        // A turn number already stored is refused, and the others in its batch still commit.
        let dup = db.write(Write::AddTurn { game: "g1".into(), ply: 1, notation: "x".into(), finished: false });
        let end = db.write(Write::SetEnding { game: "g1".into(), ending: "draw".into() });
        let (dup, end) = tokio::join!(dup, end);
        assert!(dup.is_err());
        end.unwrap();
        db.write(Write::TruncateTurns { game: "g1".into(), from_ply: 2 }).await.unwrap();
        drop(db);

        let db = Db::open(&path).unwrap();
        let g = db.load("g1".into()).await.unwrap().unwrap();
        assert_eq!(g.turns, vec!["d3-e3A", "f4-f3A"]);
        assert_eq!(g.ending.as_deref(), Some("draw"));
        assert!(!g.invite_open);
        assert_eq!(g.black, Some(seat(2, "B")));
        assert_eq!(db.find_seat([1; 32]).await.unwrap(), Some(("g1".into(), "white".into())));
        assert_eq!(db.find_spectate([8; 32]).await.unwrap().as_deref(), Some("g1"));
        assert_eq!(g.spectate_code.as_deref(), Some("watch"));
        assert!(db.load("nope".into()).await.unwrap().is_none());
    }

    const DAY: i64 = 24 * 60 * 60;

    /// Sets a game's creation and last change `days` back from now, as time would.
    fn age(path: &Path, game: &str, days: i64) {
        let conn = Connection::open(path).unwrap();
        conn.execute(
            "UPDATE games SET created_at = created_at - ?2, updated_at = updated_at - ?2 WHERE id = ?1",
            params![game, days * DAY],
        )
        .unwrap();
    }

    #[tokio::test]
    async fn expiry_deletes_unstarted_and_abandoned_games_and_keeps_finished_and_kept_ones() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.sqlite3");
        let db = Db::open(&path).unwrap();
        let mut next = 10u8;
        let mut game = |id: &str, open_seat: bool| {
            next += 2;
            let (invite, black) = if open_seat { (Some([next; 32]), None) } else { (None, Some(seat(next, "B"))) };
            NewGame {
                id: id.into(),
                invite_hash: invite,
                spectate_hash: [next + 1; 32],
                white: Some(seat(next + 1, "A")),
                black,
                ..new_game(id)
            }
        };
        let turn =
            |game: &str, finished| Write::AddTurn { game: game.into(), ply: 0, notation: "d3-e3A".into(), finished };
        let games = [
            game("unstarted-old", true),
            game("unstarted-new", true),
            game("abandoned", false),
            game("abandoned-kept", false),
            game("played-recently", false),
            game("won-on-the-board", false),
            game("resigned", false),
            game("never-played", false),
        ];
        for g in games {
            db.write(Write::CreateGame(g)).await.unwrap();
        }
        for g in ["abandoned", "abandoned-kept", "played-recently"] {
            db.write(turn(g, false)).await.unwrap();
        }
        db.write(turn("won-on-the-board", true)).await.unwrap();
        db.write(Write::SetEnding { game: "resigned".into(), ending: "resign white".into() }).await.unwrap();
        age(&path, "unstarted-old", 2);
        for g in ["abandoned", "abandoned-kept", "won-on-the-board", "resigned", "never-played"] {
            age(&path, g, 31);
        }
        age(&path, "played-recently", 28);
        let keep = HashSet::from(["abandoned-kept".to_string()]);
        let (ttl, month) = (Duration::from_secs(DAY as u64), Duration::from_secs(30 * DAY as u64));
        let n = db.expire(unix_now(), ttl, month, keep.clone()).await.unwrap();
        assert_eq!(n, ExpiredCounts { unstarted: 1, abandoned: 2 });
        for gone in ["unstarted-old", "abandoned", "never-played"] {
            assert!(db.load(gone.into()).await.unwrap().is_none(), "{gone} kept");
        }
        for kept in ["unstarted-new", "abandoned-kept", "played-recently", "won-on-the-board", "resigned"] {
            assert!(db.load(kept.into()).await.unwrap().is_some(), "{kept} deleted");
        }
        // Their seats and turns went with them.
        let conn = Connection::open(&path).unwrap();
        let orphans: i64 = conn
            .query_row(
                "SELECT (SELECT count(*) FROM seats WHERE game_id NOT IN (SELECT id FROM games)) + \
                 (SELECT count(*) FROM turns WHERE game_id NOT IN (SELECT id FROM games))",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(orphans, 0);
        // Nothing more to do; a day later the other unstarted game goes too.
        assert_eq!(db.expire(unix_now(), ttl, month, keep.clone()).await.unwrap(), ExpiredCounts::default());
        let n = db.expire(unix_now() + DAY + 1, ttl, month, keep).await.unwrap();
        assert_eq!(n, ExpiredCounts { unstarted: 1, abandoned: 0 });
    }

    #[tokio::test]
    async fn games_won_on_the_board_before_the_finished_column_are_marked_finished() {
        use fanorona_rules::{Game, Rules};
        // A whole game of random legal turns: it ends within 1000 (the no-capture draw rule).
        let mut game = Game::new(Rules::default());
        let mut pick = 7usize;
        while !game.is_over() {
            let turns = game.position().legal_turns();
            pick = pick.wrapping_mul(31).wrapping_add(17);
            game.play_turn(&turns[pick % turns.len()]).unwrap();
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v3.sqlite3");
        {
            let mut conn = Connection::open(&path).unwrap();
            let tx = conn.transaction().unwrap();
            for sql in &MIGRATIONS[..3] {
                tx.execute_batch(sql).unwrap();
            }
            tx.pragma_update(None, "user_version", 3).unwrap();
            for (i, id) in ["over", "going-on", "resigned"].iter().enumerate() {
                tx.execute(
                    "INSERT INTO games (id, variant, rules, created_at, spectate_hash, updated_at) \
                     VALUES (?1, '9x5', '', 0, ?2, 0)",
                    params![id, vec![i as u8; 32]],
                )
                .unwrap();
            }
            tx.execute("UPDATE games SET ending = 'resign black' WHERE id = 'resigned'", []).unwrap();
            for (ply, turn) in (0i64..).zip(game.turns()) {
                tx.execute("INSERT INTO turns VALUES ('over', ?1, ?2)", params![ply, turn.to_string()]).unwrap();
                if ply < 3 {
                    tx.execute("INSERT INTO turns VALUES ('going-on', ?1, ?2)", params![ply, turn.to_string()])
                        .unwrap();
                }
            }
            tx.commit().unwrap();
        }
        let db = Db::open(&path).unwrap();
        let conn = Connection::open(&path).unwrap();
        let finished = |id: &str| -> bool {
            conn.query_row("SELECT finished FROM games WHERE id = ?1", [id], |r| r.get(0)).unwrap()
        };
        assert!(finished("over") && finished("resigned") && !finished("going-on"));
        // So a month later only the game that goes on is abandoned.
        let n =
            db.expire(40 * DAY, Duration::ZERO, Duration::from_secs(30 * DAY as u64), HashSet::new()).await.unwrap();
        assert_eq!(n, ExpiredCounts { unstarted: 0, abandoned: 1 });
        assert!(db.load("over".into()).await.unwrap().is_some());
    }

    #[tokio::test]
    async fn health_fails_once_the_writer_died() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("games.sqlite3")).unwrap();
        db.healthy().await.unwrap();
        db.kill_writer().await;
        let e = db.healthy().await.unwrap_err();
        assert!(e.message.contains("writer stopped"), "{e}");
        // Reads still work, so only the probe through the writer tells.
        assert!(db.find_seat([1; 32]).await.unwrap().is_none());
    }

    #[tokio::test]
    async fn offers_are_stored_and_every_answer_clears_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.sqlite3");
        let db = Db::open(&path).unwrap();
        let game = NewGame { invite_hash: None, black: Some(seat(2, "B")), ..new_game("g") };
        db.write(Write::CreateGame(game)).await.unwrap();
        let offers = |draw, takeback| Write::SetOffers { game: "g".into(), draw, takeback };
        db.write(offers(Some("white"), Some("black"))).await.unwrap();
        drop(db);
        let db = Db::open(&path).unwrap();
        let g = db.load("g".into()).await.unwrap().unwrap();
        assert_eq!((g.draw_offer.as_deref(), g.takeback_request.as_deref()), (Some("white"), Some("black")));
        // The schema refuses a side that is not one, and an unknown game is an error, not a silent no-op.
        assert!(db.write(offers(Some("grey"), None)).await.is_err());
        assert!(db.write(Write::SetOffers { game: "nope".into(), draw: None, takeback: None }).await.is_err());

        let cleared = |g: &StoredGame| g.draw_offer.is_none() && g.takeback_request.is_none();
        db.write(Write::AddTurn { game: "g".into(), ply: 0, notation: "d3-e3A".into(), finished: false })
            .await
            .unwrap();
        assert!(cleared(&db.load("g".into()).await.unwrap().unwrap()));
        db.write(offers(None, Some("white"))).await.unwrap();
        db.write(Write::TruncateTurns { game: "g".into(), from_ply: 0 }).await.unwrap();
        assert!(cleared(&db.load("g".into()).await.unwrap().unwrap()));
        db.write(offers(Some("black"), None)).await.unwrap();
        db.write(Write::SetEnding { game: "g".into(), ending: "draw".into() }).await.unwrap();
        assert!(cleared(&db.load("g".into()).await.unwrap().unwrap()));
    }

    #[tokio::test]
    async fn a_database_of_the_first_schema_is_migrated_with_its_games() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite3");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(MIGRATIONS[0]).unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
            conn.execute(
                "INSERT INTO games (id, variant, rules, created_at, spectate_hash, updated_at) \
                 VALUES ('old', '9x5', '', 0, zeroblob(32), 0)",
                [],
            )
            .unwrap();
        }
        let db = Db::open(&path).unwrap();
        let g = db.load("old".into()).await.unwrap().unwrap();
        assert_eq!((g.draw_offer, g.takeback_request), (None, None));
        // Its spectator code was never stored: only the hash finds the game.
        assert_eq!(g.spectate_code, None);
        assert_eq!(db.find_spectate([0; 32]).await.unwrap().as_deref(), Some("old"));
        db.write(Write::SetOffers { game: "old".into(), draw: Some("black"), takeback: None }).await.unwrap();
        drop(db);
        let conn = Connection::open(&path).unwrap();
        let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
        assert_eq!(version, MIGRATIONS.len() as i64);
    }
}
