-- The spectator code itself, so that a game loaded from the database can still give it to its players to share.
-- Unlike a seat token it is kept in the clear: it only lets one watch the game, and whoever reads this file reads
-- the game's turns anyway. NULL for games made before this column (those keep only the hash).

ALTER TABLE games ADD COLUMN spectate_code TEXT;
