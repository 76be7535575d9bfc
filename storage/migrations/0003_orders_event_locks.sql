-- Ringside schema 3.

-- Multi-seat leagues now play balanced seat orders by default (every seat
-- order of each group). Leagues stored before keep the cyclic rotations
-- their schedule was made with, so a started one resumes unchanged.
UPDATE events SET config = json_set(config, '$.orders', 'rotations')
	WHERE format = 'league' AND json_extract(config, '$.seats') > 2;
