-- A game's version: every change to a game adds one, and a change names the version it was made from, so that
-- servers sharing a database never apply a change to a game that another server changed meanwhile.

ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
