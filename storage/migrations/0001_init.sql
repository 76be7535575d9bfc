-- Ringside schema 1. Times are Unix milliseconds (UTC); 0 or NULL means
-- "not yet". Enumerations are stored as readable text so the file can be
-- inspected with the sqlite3 shell.

-- Marks the file as Ringside's, so Open can tell it from another program's
-- SQLite database. 0x52494E47 is "RING" in ASCII.
PRAGMA application_id = 1380535879;

-- An AI is a contestant's program: a source folder watched for changes,
-- built into revisions.
CREATE TABLE ais (
	id         INTEGER PRIMARY KEY,
	name       TEXT    NOT NULL COLLATE NOCASE UNIQUE,
	game       TEXT    NOT NULL,
	language   TEXT    NOT NULL DEFAULT '',
	source_dir TEXT    NOT NULL DEFAULT '',
	build_cmd  TEXT    NOT NULL DEFAULT '',
	run_cmd    TEXT    NOT NULL DEFAULT '',
	watch      INTEGER NOT NULL DEFAULT 0 CHECK (watch IN (0, 1)),
	-- missing is set when the source folder disappeared; the AI and its
	-- revisions are kept so old results stay meaningful.
	missing    INTEGER NOT NULL DEFAULT 0 CHECK (missing IN (0, 1)),
	created    INTEGER NOT NULL
) STRICT;

-- A revision is one build of an AI (ai_id set; ok builds are numbered
-- 1, 2, 3… per AI, failed builds have no number), or a runnable thing
-- without an AI: a plain command line or a built-in bot (ai_id NULL, name
-- set, e.g. "builtin:grip/random").
CREATE TABLE revisions (
	id           INTEGER PRIMARY KEY,
	ai_id        INTEGER REFERENCES ais (id) ON DELETE CASCADE,
	number       INTEGER,
	name         TEXT    NOT NULL DEFAULT '',
	hash         TEXT    NOT NULL DEFAULT '',
	status       TEXT    NOT NULL CHECK (status IN ('ok', 'failed')),
	build_log    TEXT    NOT NULL DEFAULT '',
	artifact_dir TEXT    NOT NULL DEFAULT '',
	run_cmd      TEXT    NOT NULL DEFAULT '',
	created      INTEGER NOT NULL,
	CHECK (ai_id IS NOT NULL OR name <> ''),
	CHECK ((status = 'ok') = (number IS NOT NULL) OR ai_id IS NULL)
) STRICT;
CREATE UNIQUE INDEX revisions_ai_number ON revisions (ai_id, number) WHERE number IS NOT NULL;
CREATE INDEX revisions_ai_hash ON revisions (ai_id, hash);

-- An event is a league, bracket, gauntlet, Swiss or SPRT run. config is
-- the JSON of event.Config, which fixes the whole schedule.
CREATE TABLE events (
	id          INTEGER PRIMARY KEY,
	name        TEXT    NOT NULL,
	game        TEXT    NOT NULL,
	format      TEXT    NOT NULL,
	options     TEXT    NOT NULL DEFAULT '{}',
	config      TEXT    NOT NULL,
	status      TEXT    NOT NULL DEFAULT 'created'
		CHECK (status IN ('created', 'running', 'paused', 'finished', 'cancelled')),
	concurrency INTEGER NOT NULL DEFAULT 0,
	time_scale  REAL    NOT NULL DEFAULT 1,
	created     INTEGER NOT NULL,
	finished    INTEGER
) STRICT;

-- An entry is one competitor of an event, by its index in the config. It
-- keeps its own copy of the command and folder, so the event can resume
-- and be read even after its AI or revision is removed.
CREATE TABLE entries (
	id          INTEGER PRIMARY KEY,
	event_id    INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
	idx         INTEGER NOT NULL,
	name        TEXT    NOT NULL,
	revision_id INTEGER REFERENCES revisions (id) ON DELETE SET NULL,
	command     TEXT    NOT NULL DEFAULT '',
	dir         TEXT    NOT NULL DEFAULT '',
	filler      INTEGER NOT NULL DEFAULT 0 CHECK (filler IN (0, 1)),
	candidate   INTEGER NOT NULL DEFAULT 0 CHECK (candidate IN (0, 1)),
	UNIQUE (event_id, idx)
) STRICT;
CREATE INDEX entries_revision ON entries (revision_id);

-- A match is one scheduled game. seats is a comma-separated list of entry
-- indices ("0,3,1,2"); result holds the full engine.Result as JSON.
--
-- outcome is what standings read, written with the result: "idx round grp
-- seed seats ranks" ("12 0 6 4711 0,3,1,2 2,1,4,3"). Standings load every
-- finished game of an event; reading this one column from the covering
-- index matches_outcomes in a single group_concat is about five times
-- faster than scanning six columns per row through database/sql.
CREATE TABLE matches (
	id          INTEGER PRIMARY KEY,
	event_id    INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
	idx         INTEGER NOT NULL,
	round       INTEGER NOT NULL,
	grp         INTEGER NOT NULL,
	seed        INTEGER NOT NULL,
	seats       TEXT    NOT NULL,
	status      TEXT    NOT NULL DEFAULT 'scheduled'
		CHECK (status IN ('scheduled', 'running', 'done', 'error')),
	outcome     TEXT,
	result      TEXT,
	error       TEXT    NOT NULL DEFAULT '',
	started     INTEGER,
	finished    INTEGER,
	duration_ms INTEGER,
	UNIQUE (event_id, idx)
) STRICT;
CREATE INDEX matches_event_status ON matches (event_id, status, idx);
CREATE INDEX matches_outcomes ON matches (event_id, idx, outcome) WHERE status = 'done';

-- A replay is a finished (or failed) match's engine.Log in the compact
-- codec of replay.go, gzip'd. size is the uncompressed length.
CREATE TABLE replays (
	match_id INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
	codec    INTEGER NOT NULL,
	size     INTEGER NOT NULL,
	data     BLOB    NOT NULL
) STRICT;

-- ratings is the history of each entry's rating within an event, as
-- standings recompute it after a match.
CREATE TABLE ratings (
	id          INTEGER PRIMARY KEY,
	event_id    INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
	entry_idx   INTEGER NOT NULL,
	after_match INTEGER NOT NULL,
	rating      REAL    NOT NULL,
	interval    REAL    NOT NULL,
	UNIQUE (event_id, entry_idx, after_match)
) STRICT;
