-- Ringside schema 4: what went wrong for each seat of a finished game, so
-- standings and the games list can say who crashed, answered late or
-- answered nonsense without decoding replays. problems is one
-- "timeouts/invalid/crashed" triple per seat, comma-separated, in seat
-- order ("0/0/1,2/0/0"); NULL for games stored before.
ALTER TABLE matches ADD COLUMN problems TEXT;
