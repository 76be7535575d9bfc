package event

import (
	"encoding/json"
	"testing"
)

// FuzzEvent builds events from arbitrary parameters and plays them to the
// end with arbitrary results: no panic, a consistent schedule, standings
// that encode.
func FuzzEvent(f *testing.F) {
	f.Add(byte(0), byte(4), byte(0), byte(1), int64(1), []byte{1, 2, 1, 1})
	f.Add(byte(1), byte(6), byte(2), byte(0), int64(2), []byte{2, 1, 3, 4})
	f.Add(byte(2), byte(5), byte(0), byte(2), int64(3), []byte{1})
	f.Add(byte(3), byte(7), byte(0), byte(2), int64(4), []byte{2, 2, 1})
	f.Add(byte(4), byte(2), byte(0), byte(30), int64(5), []byte{1, 2, 2, 1, 1, 1})
	f.Fuzz(func(t *testing.T, format, n, seats, games byte, seed int64, results []byte) {
		if len(results) == 0 {
			results = []byte{1}
		}
		cfg := Config{
			Format:  Formats[int(format)%len(Formats)],
			Entries: entries(2 + int(n)%12),
			Seats:   2 + int(seats)%3,
			Games:   1 + int(games)%4,
			Seed:    seed,
			Elo1:    5,
		}
		if cfg.Format == SPRT {
			cfg.Games = 2 * (1 + int(games)%60)
		}
		if cfg.Format == Gauntlet {
			cfg.Entries[0].Candidate = true
		}
		if int(n)%5 == 4 {
			cfg.Entries[len(cfg.Entries)-1].Filler = true
		}
		if Validate(cfg) != nil {
			return
		}
		ref := func(g Game) []int {
			key := make([]int, len(g.Seats))
			for s := range key {
				key[s] = int(results[(g.Index*len(key)+s)%len(results)])
			}
			return normalize(key)
		}
		_, done := run(t, cfg, ref)
		tab, err := Standings(cfg, done)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := json.Marshal(tab); err != nil {
			t.Fatal(err)
		}
		if cfg.Format == Bracket {
			if tree, err := Tree(cfg, done); err != nil || tree.Champion < 0 {
				t.Fatalf("bracket without champion: %v", err)
			}
		}
	})
}
