-- Ringside schema 3.

-- Multi-seat leagues now play balanced seat orders by default (a design
-- in which every entry follows every other equally often). Leagues stored
-- before keep the cyclic rotations their schedule was made with, so a
-- started one resumes unchanged.
UPDATE events SET config = json_set(config, '$.orders', 'rotations')
	WHERE format = 'league' AND json_extract(config, '$.seats') > 2;

-- One process runs an event at a time. A runner holds its event's row:
-- its pid and host, when it started (pstart: the process's own start time
-- as the system counts it, to tell a reused pid from the holder; 0 where
-- unknown), when it took the lock and its last heartbeat (Unix ms). The
-- row is removed when the run ends; a holder that died leaves it, and the
-- next runner takes it over (see storage.LockEvent).
CREATE TABLE event_locks (
	event_id  INTEGER PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
	pid       INTEGER NOT NULL,
	host      TEXT    NOT NULL,
	pstart    INTEGER NOT NULL DEFAULT 0,
	started   INTEGER NOT NULL,
	heartbeat INTEGER NOT NULL
) STRICT;
