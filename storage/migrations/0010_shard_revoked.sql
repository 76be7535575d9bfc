-- Ringside schema: a bundle taken back with "ringside event unexport".
-- Its games are scheduled again at home, and a later import of its
-- results is refused: revoked is when it was taken back (Unix ms), NULL
-- for a bundle still valid.
ALTER TABLE shards ADD COLUMN revoked INTEGER;
