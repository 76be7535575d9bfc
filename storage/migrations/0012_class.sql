-- Ringside schema 12: the class server (issue 33).
-- class_students: one row per student AI with the SHA-256 of their token
-- (never the token itself); revoked is when the token was taken back (Unix
-- ms), NULL while it is valid.
CREATE TABLE class_students (
	ai_id      INTEGER PRIMARY KEY REFERENCES ais(id) ON DELETE CASCADE,
	token_hash TEXT NOT NULL UNIQUE,
	issued     INTEGER NOT NULL,
	revoked    INTEGER
);
-- class_handins: every hand-in, refused ones included, with where it came
-- from. state is queued, building, built, failed, refused or superseded.
CREATE TABLE class_handins (
	id          INTEGER PRIMARY KEY,
	ai_id       INTEGER NOT NULL REFERENCES ais(id) ON DELETE CASCADE,
	created     INTEGER NOT NULL,
	hash        TEXT NOT NULL,
	late        INTEGER NOT NULL DEFAULT 0,
	state       TEXT NOT NULL,
	revision_id INTEGER NOT NULL DEFAULT 0,
	log         TEXT NOT NULL DEFAULT '',
	addr        TEXT NOT NULL DEFAULT ''
);
CREATE INDEX class_handins_ai ON class_handins(ai_id, id);
-- class_settings: the teacher's choices (deadline, late policy) and the
-- server's certificate, by key.
CREATE TABLE class_settings (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
-- class_published: the events the class page shows.
CREATE TABLE class_published (
	event_id INTEGER PRIMARY KEY REFERENCES events(id) ON DELETE CASCADE
);
