-- Games, their seats and their turns. Applied once at start (PRAGMA user_version counts the applied files).

CREATE TABLE games (
    id            TEXT PRIMARY KEY,          -- public game id (16 hex digits); grants nothing by itself
    variant       TEXT NOT NULL,             -- '9x5' or '5x5', the record's Variant tag
    rules         TEXT NOT NULL,             -- the engine's rules tag text
    created_at    INTEGER NOT NULL,          -- Unix seconds
    invite_hash   BLOB UNIQUE,               -- SHA-256 of the invite code; NULL once the invite is used
    spectate_hash BLOB NOT NULL UNIQUE,      -- SHA-256 of the spectator token
    ending        TEXT,                      -- an end the turns do not give: 'resign white', 'resign black', 'draw'
    updated_at    INTEGER NOT NULL
);

CREATE TABLE seats (
    game_id    TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    side       TEXT NOT NULL CHECK (side IN ('white', 'black')),
    token_hash BLOB NOT NULL UNIQUE,          -- SHA-256 of the seat token
    name       TEXT NOT NULL,
    PRIMARY KEY (game_id, side)
);

CREATE TABLE turns (
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply      INTEGER NOT NULL,                -- 0-based: the number of turns before this one
    notation TEXT NOT NULL,                   -- engine turn notation, checked by the engine before it is stored
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
