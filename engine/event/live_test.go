package event

import (
	"testing"
)

// TestLiveLeagueRanksByScore: mid-league, an entry that played 20 games
// at 70 % ranks above ones that played more games at less than 50 %,
// although it has fewer points.
func TestLiveLeagueRanksByScore(t *testing.T) {
	cfg := Config{Format: League, Entries: entries(3), Seats: 2, Games: 20, Seed: 1}
	sched, _, err := Schedule(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Played so far: all 40 games of e0 against e2, e0 winning 17, and
	// 20 of e1's 40 against e2, e1 winning 14; none of e0 against e1.
	type plan struct{ games, lowerWins int }
	plans := map[[2]int]plan{{0, 2}: {40, 17}, {1, 2}: {20, 14}}
	played := map[[2]int]int{}
	var done []Outcome
	for _, g := range sched {
		pair := [2]int{min(g.Seats[0], g.Seats[1]), max(g.Seats[0], g.Seats[1])}
		p, ok := plans[pair]
		if !ok || played[pair] == p.games {
			continue
		}
		winner := pair[1]
		if played[pair] < p.lowerWins {
			winner = pair[0]
		}
		played[pair]++
		ranks := []int{2, 2}
		for k, e := range g.Seats {
			if e == winner {
				ranks[k] = 1
			}
		}
		done = append(done, Outcome{Game: g, Ranks: ranks})
	}
	tab, err := Standings(cfg, done)
	if err != nil {
		t.Fatal(err)
	}
	games := map[string]int{}
	for _, r := range tab.Rows {
		games[r.Name] = r.Games
	}
	if games["e0"] != 40 || games["e1"] != 20 {
		t.Fatalf("games played %v, want e0 40 and e1 20", games)
	}
	if tab.Rows[0].Name != "e1" {
		t.Errorf("top row %s (%.0f points in %d games), want e1 with the best score per game", tab.Rows[0].Name,
			tab.Rows[0].Points, tab.Rows[0].Games)
	}
	for i, r := range tab.Rows[:len(tab.Rows)-1] {
		if r.Tied != (r.LOS < 0.95) {
			t.Errorf("row %d (%s): tied %v with LOS %.3f: the = mark and LOS disagree", i, r.Name, r.Tied, r.LOS)
		}
	}
}

// TestPlacesInMultiSeatGames: in 4-seat games a second place is counted
// as a second place, not as a loss.
func TestPlacesInMultiSeatGames(t *testing.T) {
	cfg := Config{Format: League, Entries: entries(4), Seats: 4, Games: 1, Seed: 1}
	sched, _, err := Schedule(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var done []Outcome
	for _, g := range sched {
		done = append(done, Outcome{Game: g, Ranks: byIndex(g)}) // entry e finishes (e+1)th
	}
	tab, err := Standings(cfg, done)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range tab.Rows {
		for p, n := range row.Places {
			want := 0
			if p == row.Entry {
				want = len(sched)
			}
			if n != want {
				t.Errorf("%s: places %v, want %d games in place %d only", row.Name, row.Places, len(sched), row.Entry+1)
				break
			}
		}
	}
}
