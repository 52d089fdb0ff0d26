-- The PostgreSQL schema: the SQLite schema's games, seats and turns (same columns, same checks), and what servers
-- that share the database need besides: who is alive, and one quick-match queue for all of them.

CREATE TABLE games (
    id               TEXT PRIMARY KEY,       -- public game id (16 hex digits); grants nothing by itself
    variant          TEXT NOT NULL,          -- '9x5' or '5x5', the record's Variant tag
    rules            TEXT NOT NULL,          -- the engine's rules tag text
    created_at       BIGINT NOT NULL,        -- Unix seconds
    invite_hash      BYTEA UNIQUE,           -- SHA-256 of the invite code; NULL once the invite is used
    spectate_hash    BYTEA NOT NULL UNIQUE,  -- SHA-256 of the spectator token
    spectate_code    TEXT,                   -- the spectator token itself (it only lets one watch)
    ending           TEXT,                   -- an end the turns do not give: 'resign white', 'resign black', 'draw'
    draw_offer       TEXT CHECK (draw_offer IN ('white', 'black')),
    takeback_request TEXT CHECK (takeback_request IN ('white', 'black')),
    updated_at       BIGINT NOT NULL,
    finished         BOOLEAN NOT NULL DEFAULT FALSE, -- over, by its turns or an ending: never expired
    version          BIGINT NOT NULL DEFAULT 0 -- one more for every change: a change names the version it was made from
);

-- The sweep's two queries: unfinished games by last change, games with a free seat by creation.
CREATE INDEX games_unfinished_by_update ON games (updated_at) WHERE NOT finished;
CREATE INDEX games_open_invite_by_creation ON games (created_at) WHERE invite_hash IS NOT NULL;

CREATE TABLE seats (
    game_id    TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    side       TEXT NOT NULL CHECK (side IN ('white', 'black')),
    token_hash BYTEA NOT NULL UNIQUE,        -- SHA-256 of the seat token
    name       TEXT NOT NULL,
    PRIMARY KEY (game_id, side)
);

CREATE TABLE turns (
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply      INTEGER NOT NULL,               -- 0-based: the number of turns before this one
    notation TEXT NOT NULL,                  -- engine turn notation, checked by the engine before it is stored
    PRIMARY KEY (game_id, ply)
);

-- Every running server, by the id it chose at start; a server not seen for a while is taken for dead.
CREATE TABLE servers (
    id      TEXT PRIMARY KEY,
    seen_at TIMESTAMPTZ NOT NULL
);

-- Players waiting for a quick match, on any server. The server that pairs two creates the game with the waiting
-- player's seat token hash, chosen by the waiting player's server, which alone knows the token.
CREATE TABLE queue (
    server     TEXT NOT NULL,
    conn       BIGINT NOT NULL,
    board      TEXT NOT NULL,
    name       TEXT NOT NULL,
    token_hash BYTEA NOT NULL,
    entered_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (server, conn)
);
CREATE INDEX queue_by_board ON queue (board, entered_at);
