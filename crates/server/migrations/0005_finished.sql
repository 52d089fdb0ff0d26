-- Whether the game is over, by its turns or by an ending, so that the sweep of abandoned games (Db::expire) keeps
-- finished games without replaying them. The server sets it with the turn that ends the game or with the ending.
-- Here it is set for the games with an ending; those that ended on the board before this column are found by
-- replaying their turns once, in Rust, right after this file is applied (db.rs, `mark_finished`).

ALTER TABLE games ADD COLUMN finished INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1));
UPDATE games SET finished = 1 WHERE ending IS NOT NULL;
-- The sweep's two queries: unfinished games by last change, games with a free seat by creation.
CREATE INDEX games_unfinished_by_update ON games (updated_at) WHERE finished = 0;
CREATE INDEX games_open_invite_by_creation ON games (created_at) WHERE invite_hash IS NOT NULL;
