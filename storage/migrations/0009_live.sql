-- Ringside schema 9: games followed as they are played.
-- pace is an event's turns per second (0: as fast as the bots answer), so
-- a room can watch its games; it waits between turns and never touches
-- the bots' time limits.
-- live_replays holds the turns so far of a running game, saved by the
-- process playing it about once a second, so that another process
-- ("ringside replay export") can read a game in play. A row lives only
-- while its game runs: finishing, failing or resetting the game deletes
-- it. Same codec as replays; steps is how many steps data holds.
ALTER TABLE events ADD COLUMN pace REAL NOT NULL DEFAULT 0 CHECK (pace >= 0);
CREATE TABLE live_replays (
	match_id INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
	codec    INTEGER NOT NULL,
	size     INTEGER NOT NULL,
	steps    INTEGER NOT NULL,
	saved    INTEGER NOT NULL,
	data     BLOB    NOT NULL
) STRICT;
