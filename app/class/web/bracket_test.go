package web

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"ringside/app/internal/fixture"
	"ringside/app/service"
	"ringside/engine/battle2048"
	"ringside/engine/event"
)

// PublishKnockout publishes "Knockout", a bracket of five built-in bots
// (three byes in a bracket of eight), plays its first round and gives its
// id.
func PublishKnockout(t testing.TB, svc *service.Service) int64 {
	t.Helper()
	id := bracketEvent(t, svc)
	if playScheduled(t, svc, id) == 0 {
		t.Fatal("no game was scheduled")
	}
	return id
}

// bracketEvent publishes a knockout of five built-in bots (three byes in
// a bracket of eight) and gives its id.
func bracketEvent(t testing.TB, svc *service.Service) int64 {
	t.Helper()
	ev, _, err := svc.CreateEvent(service.EventSpec{Name: "Knockout", Game: "battle2048", Format: event.Bracket, Games: 1, Seed: 5, SeedSet: true,
		Entries: []string{"builtin:battle2048/greedy", "builtin:battle2048/random", "builtin:battle2048/greedy", "builtin:battle2048/random", "builtin:battle2048/greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.PublishEvent(ev.ID, true); err != nil {
		t.Fatal(err)
	}
	return ev.ID
}

// playScheduled plays every scheduled game of event id in process with
// the built-in bots its entries name, and records it as played.
func playScheduled(t testing.TB, svc *service.Service, id int64) int {
	t.Helper()
	info, err := svc.EventInfo(id)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := svc.DB().Matches(id)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range ms {
		if m.Status != "scheduled" {
			continue
		}
		players := make([]string, len(m.Game.Seats))
		bots := make([]string, len(m.Game.Seats))
		for s, e := range m.Game.Seats {
			players[s] = info.Entries[e].Name
			_, bots[s], _ = strings.Cut(strings.TrimPrefix(players[s], service.BuiltinPrefix), "/")
			bots[s], _, _ = strings.Cut(bots[s], "#")
		}
		log := fixture.PlayLog(t, battle2048.New(), nil, m.Game.Seed, players, bots, nil)
		if err := svc.DB().FinishMatch(m.ID, log.Result, log, time.Second); err != nil {
			t.Fatal(err)
		}
		n++
	}
	return n
}

// TestBracket: a knockout's page draws its rounds as columns (the
// quarter-finals, the semi-finals, the final and the champion), every
// first-round slot with its seed, the byes as byes, and once a match is
// decided exactly one of its entries marked as going through; names are
// the app's, never the built-ins' commands.
func TestBracket(t *testing.T) {
	f := newFixture(t)
	id := bracketEvent(t, f.svc)
	pub := New(f.svc, Options{}).Public()
	for _, tc := range []struct {
		name       string
		play       bool
		wantWon    int // rows marked as going through, in the first round
		wantPoints bool
	}{
		{"before any game", false, 3, false}, // the byes go through
		{"after the first round", true, 4, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.play && playScheduled(t, f.svc, id) == 0 {
				t.Fatal("no game was scheduled")
			}
			v, err := f.svc.EventView(id)
			if err != nil {
				t.Fatal(err)
			}
			b := bracketOf(v)
			if b == nil {
				t.Fatal("no bracket for a knockout")
			}
			var titles []string
			for _, r := range b.Rounds {
				titles = append(titles, r.Title)
			}
			if got := strings.Join(titles, ", "); got != "Quarter-finals, Semi-finals, Final" {
				t.Errorf("rounds %q", got)
			}
			first := b.Rounds[0]
			won, byes, seeds, points := 0, 0, map[string]bool{}, false
			for _, box := range first.Boxes {
				boxWon := 0
				for _, row := range box.Rows {
					seeds[row.Seed] = row.Seed != ""
					switch row.State {
					case "won":
						boxWon++
					case "bye":
						byes++
					}
					points = points || row.Points != ""
				}
				if boxWon > 1 {
					t.Errorf("a match with %d winners: %+v", boxWon, box)
				}
				won += boxWon
			}
			if len(first.Boxes) != 4 || byes != 3 || won != tc.wantWon || points != tc.wantPoints {
				t.Errorf("first round: %d matches, %d byes, %d through, points %v; want 4, 3, %d, %v:\n%+v",
					len(first.Boxes), byes, won, points, tc.wantWon, tc.wantPoints, first)
			}
			for _, s := range []string{"1", "2", "3", "4", "5"} {
				if !seeds[s] {
					t.Errorf("seed %s is missing from the first round", s)
				}
			}

			for _, path := range []string{"/", "/event/" + strconv.FormatInt(id, 10)} {
				code, body := get(t, pub, path, nil)
				if code != 200 {
					t.Fatalf("%s: %d\n%s", path, code, body)
				}
				for _, want := range []string{`class="bracket-box"`, "<h3>Quarter-finals</h3>", "<h3>Final</h3>", "<h3>Champion</h3>",
					`class="slot bye"`, `<span class="seed">5</span>`, "greedy (built-in)", "random #2 (built-in)"} {
					if !strings.Contains(body, want) {
						t.Errorf("%s lacks %q", path, want)
					}
				}
				if strings.Contains(body, "builtin:") {
					t.Errorf("%s shows a built-in bot's command", path)
				}
				if n := strings.Count(body, `class="slot won"`); n < tc.wantWon {
					t.Errorf("%s marks %d winners, want at least %d", path, n, tc.wantWon)
				}
			}
		})
	}
}
