-- Ringside schema: an event's games sent out in shard bundles, to be
-- played on other machines (ringside event export) and imported back.

-- A shard is one bundle file of an export. token is random and names the
-- bundle in the result file its run writes, so an import can tell which
-- export a result answers; number counts 1..count within one export.
CREATE TABLE shards (
	id       INTEGER PRIMARY KEY,
	event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
	token    TEXT    NOT NULL UNIQUE,
	number   INTEGER NOT NULL,
	count    INTEGER NOT NULL,
	file     TEXT    NOT NULL,
	sha256   TEXT    NOT NULL,
	created  INTEGER NOT NULL
) STRICT;
CREATE INDEX shards_event ON shards (event_id);

-- A match is out while it has a row here: the bundle it was last sent in.
-- It is back once its status is done. An export never sends a match that
-- is done, nor one that is out unless asked to send it again.
CREATE TABLE shard_matches (
	match_id INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
	shard_id INTEGER NOT NULL REFERENCES shards (id) ON DELETE CASCADE
) STRICT;
CREATE INDEX shard_matches_shard ON shard_matches (shard_id);
