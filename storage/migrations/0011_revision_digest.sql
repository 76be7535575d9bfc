-- Ringside schema 11: a revision folder's digest.
-- digest is the SHA-256 of the whole sealed (read-only) revision folder,
-- build outputs, modes and links included, taken when the build made it;
-- a revision is verified against it before it plays. '' for revisions
-- made before schema 11: the first verification takes the folder as it
-- is then and stores its digest.
ALTER TABLE revisions ADD COLUMN digest TEXT NOT NULL DEFAULT '';
