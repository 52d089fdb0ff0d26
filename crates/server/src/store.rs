//! The storage the server runs on: SQLite ([`crate::db`], embedded, one server) or PostgreSQL ([`crate::pg`], shared
//! by several servers), behind one interface with the same guarantees.

use crate::db::{Db, DbError, ExpiredCounts, StoredGame, TokenHash, Write};
use crate::pg::PgStore;
use std::collections::HashSet;
use std::path::Path;
use std::time::Duration;

/// Where the games are stored.
#[derive(Clone)]
pub enum Store {
    /// One SQLite file, for one server.
    Sqlite(Db),
    /// A PostgreSQL database, which several servers may share.
    Postgres(PgStore),
}

impl From<Db> for Store {
    fn from(db: Db) -> Store {
        Store::Sqlite(db)
    }
}

impl From<PgStore> for Store {
    fn from(pg: PgStore) -> Store {
        Store::Postgres(pg)
    }
}

/// Whether a `--db` value names a PostgreSQL database rather than an SQLite file.
pub fn is_postgres_url(spec: &str) -> bool {
    spec.starts_with("postgres://") || spec.starts_with("postgresql://")
}

impl Store {
    /// Opens the database that `spec` names: a `postgres://` address, or else the path of an SQLite file (created
    /// if missing).
    pub async fn open(spec: &str) -> Result<Store, DbError> {
        if is_postgres_url(spec) {
            Ok(Store::Postgres(PgStore::connect(spec).await?))
        } else {
            Ok(Store::Sqlite(Db::open(Path::new(spec))?))
        }
    }

    /// The PostgreSQL store, when the games are shared.
    pub fn postgres(&self) -> Option<&PgStore> {
        match self {
            Store::Sqlite(_) => None,
            Store::Postgres(pg) => Some(pg),
        }
    }

    /// Stores a change; returns once it is committed.
    pub async fn write(&self, write: Write) -> Result<(), DbError> {
        match self {
            Store::Sqlite(db) => db.write(write).await,
            Store::Postgres(pg) => pg.write(write).await,
        }
    }

    /// Stores a change made from version `expect` of its game, raising it by one (a conflict if the stored game is
    /// at another version); with PostgreSQL, `notice` reaches every server when the change commits.
    pub async fn write_checked(
        &self,
        write: Write,
        expect: i64,
        notice: impl FnOnce() -> String,
    ) -> Result<(), DbError> {
        match self {
            Store::Sqlite(db) => db.write_checked(write, expect).await,
            Store::Postgres(pg) => pg.write_checked(write, Some(expect), Some(notice())).await,
        }
    }

    /// The game and side of a seat token's hash.
    pub async fn find_seat(&self, hash: TokenHash) -> Result<Option<(String, String)>, DbError> {
        match self {
            Store::Sqlite(db) => db.find_seat(hash).await,
            Store::Postgres(pg) => pg.find_seat(hash).await,
        }
    }

    /// The game of an unused invite code's hash, and when the game was created (Unix seconds).
    pub async fn find_invite(&self, hash: TokenHash) -> Result<Option<(String, i64)>, DbError> {
        match self {
            Store::Sqlite(db) => db.find_invite(hash).await,
            Store::Postgres(pg) => pg.find_invite(hash).await,
        }
    }

    /// The game of a spectator token's hash.
    pub async fn find_spectate(&self, hash: TokenHash) -> Result<Option<String>, DbError> {
        match self {
            Store::Sqlite(db) => db.find_spectate(hash).await,
            Store::Postgres(pg) => pg.find_spectate(hash).await,
        }
    }

    /// A whole stored game.
    pub async fn load(&self, id: String) -> Result<Option<StoredGame>, DbError> {
        match self {
            Store::Sqlite(db) => db.load(id).await,
            Store::Postgres(pg) => pg.load(id).await,
        }
    }

    /// Whether the database works (SQLite: [`Db::healthy`]; PostgreSQL: [`PgStore::healthy`]).
    pub async fn healthy(&self) -> Result<(), DbError> {
        match self {
            Store::Sqlite(db) => db.healthy().await,
            Store::Postgres(pg) => pg.healthy().await,
        }
    }

    /// Deletes the games nobody will come back to, by the rules of [`Db::expire`], keeping those of `keep`.
    pub async fn expire(
        &self,
        now: i64,
        invite_ttl: Duration,
        abandon_after: Duration,
        keep: HashSet<String>,
    ) -> Result<ExpiredCounts, DbError> {
        match self {
            Store::Sqlite(db) => db.expire(now, invite_ttl, abandon_after, keep).await,
            Store::Postgres(pg) => pg.expire(now, invite_ttl, abandon_after, keep).await,
        }
    }
}
