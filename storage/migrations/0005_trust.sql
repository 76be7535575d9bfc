-- Ringside schema 5: how an AI's or an event's bots are contained.
-- trusted runs them without the sandbox (with the teacher's rights, files
-- and environment); limits overrides the sandbox's caps, written as
-- "memory=512M processes=64 cpu=2m" ('' keeps the defaults). An entry
-- keeps the AI's settings as they were when the event was created.
ALTER TABLE ais ADD COLUMN trusted INTEGER NOT NULL DEFAULT 0 CHECK (trusted IN (0, 1));
ALTER TABLE ais ADD COLUMN limits TEXT NOT NULL DEFAULT '';
ALTER TABLE events ADD COLUMN trusted INTEGER NOT NULL DEFAULT 0 CHECK (trusted IN (0, 1));
ALTER TABLE events ADD COLUMN limits TEXT NOT NULL DEFAULT '';
ALTER TABLE entries ADD COLUMN trusted INTEGER NOT NULL DEFAULT 0 CHECK (trusted IN (0, 1));
ALTER TABLE entries ADD COLUMN limits TEXT NOT NULL DEFAULT '';
