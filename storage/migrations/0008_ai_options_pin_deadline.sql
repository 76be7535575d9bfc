-- Ringside schema 8: an AI's own game options, a pinned revision, and an
-- event's deadline.

-- options are game options only this AI's seat gets, written as
-- "coords=xy" (several separated by spaces; '' for none): a bot written
-- for another version of the protocol keeps playing the way it expects.
-- An entry keeps the options its AI had when the event was made.
ALTER TABLE ais ADD COLUMN options TEXT NOT NULL DEFAULT '';
ALTER TABLE entries ADD COLUMN options TEXT NOT NULL DEFAULT '';
-- pinned_revision, when set, is the revision events play instead of the
-- current one; the watcher still builds new revisions.
ALTER TABLE ais ADD COLUMN pinned_revision INTEGER REFERENCES revisions (id) ON DELETE SET NULL;
-- deadline: revisions built after it are not used by the event (NULL:
-- none). spec is what was written for the entry ("alice", "alice@r3"), so
-- an event created before its deadline can take the revisions built until
-- then when it first starts.
ALTER TABLE events ADD COLUMN deadline INTEGER;
ALTER TABLE entries ADD COLUMN spec TEXT NOT NULL DEFAULT '';
