-- TEMP placeholder so that 0003 loads on this branch; the lead's own
-- 0002 replaces it (drop this commit when merging).
SELECT 1;
