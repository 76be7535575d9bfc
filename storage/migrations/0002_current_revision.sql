-- Ringside schema 2: an AI's current revision is stored, not inferred, and
-- one source (AI, content hash) makes one revision whatever process builds it.

-- current_revision is the revision that plays: the last successful build,
-- or an earlier one whose sources came back (a reverted change). A failed
-- build never changes it.
ALTER TABLE ais ADD COLUMN current_revision INTEGER REFERENCES revisions (id) ON DELETE SET NULL;
-- current_since is when current_revision was last set, so a failed build
-- older than a reverted change no longer reads as "the last build failed".
ALTER TABLE ais ADD COLUMN current_since INTEGER;

-- Before this version two processes watching one database could store the
-- same sources twice. Failed twins carry nothing worth keeping; successful
-- twins keep their numbers (events may have played them) but only the
-- first is found by its hash from now on.
DELETE FROM revisions WHERE status = 'failed' AND ai_id IS NOT NULL AND EXISTS (
	SELECT 1 FROM revisions o WHERE o.ai_id = revisions.ai_id AND o.hash = revisions.hash
		AND o.status = 'failed' AND o.id < revisions.id);
UPDATE revisions SET hash = hash || '~' || id WHERE status = 'ok' AND ai_id IS NOT NULL AND EXISTS (
	SELECT 1 FROM revisions o WHERE o.ai_id = revisions.ai_id AND o.hash = revisions.hash
		AND o.status = 'ok' AND o.id < revisions.id);
CREATE UNIQUE INDEX revisions_ai_source ON revisions (ai_id, hash, status);
DROP INDEX revisions_ai_hash;

UPDATE ais SET current_revision = (SELECT id FROM revisions r
	WHERE r.ai_id = ais.id AND r.number IS NOT NULL ORDER BY r.number DESC LIMIT 1);
UPDATE ais SET current_since = (SELECT created FROM revisions r WHERE r.id = ais.current_revision);
