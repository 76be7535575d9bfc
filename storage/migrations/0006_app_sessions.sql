-- Ringside schema 6.

-- The desktop apps that have this database open, so a second window on
-- the same class says so instead of opening silently: each app's pid and
-- host, its process start time (pstart, to tell a reused pid; 0 where
-- unknown), when it opened the database and its last heartbeat (Unix ms).
-- An app removes its row when it closes; a crashed one leaves it, and a
-- row whose process is gone is not counted (see storage.OtherApps).
CREATE TABLE app_sessions (
	pid       INTEGER NOT NULL,
	host      TEXT    NOT NULL,
	pstart    INTEGER NOT NULL DEFAULT 0,
	started   INTEGER NOT NULL,
	heartbeat INTEGER NOT NULL,
	PRIMARY KEY (pid, host, started)
) STRICT;
