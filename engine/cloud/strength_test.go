package cloud

import (
	"flag"
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/enginetest"
)

var (
	strengthFirst = flag.Int("strength.first", 0, "with -strength: number of the first game (other numbers play other fields and seeds)")
	strengthV     = flag.Bool("strength.v", false, "with -strength: log every game's points")
	strengthDiag  = flag.Bool("strength.diag", false, "with -strength: log for each game whether squad won, whether random's corner is next to squad's or opposite, the points at turn 10 and every 25 turns, and the points each seat took off each (scorer → victim) by the end and by turn 50")
)

var strengthGames = flag.Int("strength", 0, "play this many 4-player games of squad against the older built-ins and log how it fares (0: skip)")

// TestSquadStrength measures squad in 4-player games against the older
// built-ins (hunter, hunter, random, as TestSquadAgainstHunter, seats
// rotated) when run with -strength N. Squad beats the hunters in a game
// when it scores strictly more points than each of them. Besides the
// count it logs where the points come from and how squad's bots die:
// with how many of its other bots in range of the killer, which says
// whether it lost them in fights it chose or alone. It logs squad's
// slowest turn against the default limit, both as wall time (which on a
// loaded machine includes waiting for a core) and as the CPU time its
// thread spent (to the kernel's accounting tick). It only reports (183 of
// games 0–199, 91.5 %; 180 of 1000–1199, 189 of 2000–2199, 550 of
// 3000–3599, 184 of 5000–5199, 185 of 6000–6199 and 182 of 7000–7199:
// 1,653 of 1,800, 91.8 %; 186 of 8000–8199 and 184 of 9000–9199, which
// chose the leader rule's limits, and 188 of 10000–10199 and 182 of
// 11000–11199, played once after, as were 182, 178, 181 and 176 of
// 12000–12199 to 15000–15199 (1,087 of 1,200 over those six, 90.6 %);
// 50 to 80 s for 200 games on an idle core, its most CPU
// time in one turn 4 to 9 ms). -strength.first N plays games N, N+1, …
// (other fields and seeds than the usual 0, 1, …, to check that a change
// is not tuned to those), -strength.v logs each game's points and
// squad's margin over the better hunter, and -strength.diag each game's
// result, whether random's corner is next to squad's, the points every
// 25 turns and who took how many points off whom (see squadPolicy's
// comment for what it showed).
//
//	go test -tags ci -p 1 -run TestSquadStrength -v ./engine/cloud/ -args -strength=200
//	go test -tags ci -p 1 -run TestSquadStrength -v ./engine/cloud/ -args -strength=200 -strength.first=8000 -strength.diag
func TestSquadStrength(t *testing.T) {
	games := *strengthGames
	if games <= 0 {
		t.Skip("run with -strength N to play N games")
	}
	const players = 4
	plus := regexp.MustCompile(`\(\+(\d+)\)`)
	beat := 0
	from := map[string]map[string]int{} // scorer kind → victim kind → points
	var support [players]int            // squad deaths by other squad bots in range of a killer
	var slowest, mostCPU time.Duration
	// The bots' CPU time is read off this goroutine's thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for g := *strengthFirst; g < *strengthFirst+games; g++ {
		seat := g % players
		bots, kinds := squadLineup(g, players)
		o, err := New().Info().Resolve(engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		st, err := New().New(o, names[:players], int64(g))
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		var timeline []string
		var pm, early [players][players]int // scorer seat → victim seat → points (early: by turn 50)
		for i, b := range bots {
			b.Hello()
			b.Feed(strings.TrimSuffix(s.Intro(i), "\n"))
		}
		for !s.Done() {
			asks := s.Asks()
			replies := make([]engine.Reply, len(asks))
			for i, a := range asks {
				start := time.Now()
				cpu, ok := enginetest.ThreadCPU()
				out := bots[a.Seat].Feed(strings.TrimSuffix(a.Input, "\n"))
				if a.Seat == seat {
					slowest = max(slowest, time.Since(start))
					if end, ok2 := enginetest.ThreadCPU(); ok && ok2 {
						mostCPU = max(mostCPU, end-cpu)
					}
				}
				replies[i] = engine.Reply{Status: engine.Answered, Line: strings.TrimSuffix(out, "\n")}
			}
			before := append([]bot(nil), s.bots...)
			step := s.Apply(replies)
			for _, e := range step.Events {
				if e.Kind != engine.EventKill {
					continue
				}
				v := e.Seats[len(e.Seats)-1]
				pts := plus.FindAllStringSubmatch(e.Text, -1)
				for i, sc := range e.Seats[:len(e.Seats)-1] {
					if from[kinds[sc]] == nil {
						from[kinds[sc]] = map[string]int{}
					}
					if i < len(pts) {
						p, _ := strconv.Atoi(pts[i][1])
						from[kinds[sc]][kinds[v]] += p
						pm[sc][v] += p
					}
				}
			}
			for i, b := range s.bots {
				if !before[i].alive() || b.alive() || b.player != seat {
					continue
				}
				for _, k := range before {
					if !k.alive() || k.player == seat || kinds[k.player] != "hunter" || dist(k.pos, before[i].pos) > s.cfg.rng {
						continue
					}
					n := 0
					for j, m := range before {
						if j != i && m.alive() && m.player == seat && dist(m.pos, k.pos) <= s.cfg.rng {
							n++
						}
					}
					support[min(n, players-1)]++
				}
			}
			for _, m := range step.Send {
				bots[m.Seat].Feed(strings.TrimSuffix(m.Text, "\n"))
			}
			if *strengthDiag && (s.turn%25 == 0 || s.turn == 10) {
				timeline = append(timeline, fmt.Sprint(s.turn, s.points))
			}
			if *strengthDiag && s.turn == 50 {
				early = pm
			}
		}
		best := -1
		for i, k := range kinds {
			if k == "hunter" {
				best = max(best, s.points[i])
			}
		}
		won := s.points[seat] > best
		if won {
			beat++
		}
		if *strengthDiag {
			// The four start corners go round the field in seat order:
			// two seats on is the opposite corner.
			corner := "adjacent"
			if squadRandom(g) == 2 {
				corner = "opposite"
			}
			result := "lost"
			if won {
				result = "won"
			}
			t.Logf("%s game %d: %v %v random %s; timeline %s; points scorer→victim %v by turn 50 %v",
				result, g, kinds, s.points, corner, strings.Join(timeline, " "), pm, early)
		}
		if *strengthV {
			t.Logf("game %d: %v %v margin %d", g, kinds, s.points, s.points[seat]-best)
		}
	}
	t.Logf("squad against hunter, hunter, random (%d games, seats rotated): more points than both hunters in %d (%.1f %%); squad's slowest turn %v, its most CPU time in one turn %v (default limit 250ms)",
		games, beat, 100*float64(beat)/float64(games), slowest, mostCPU)
	for _, k := range []string{"squad", "hunter"} {
		n := games
		if k == "hunter" {
			n = 2 * games
		}
		t.Logf("a %s's points a game: %.0f from hunters, %.0f from squad, %.0f from random", k,
			float64(from[k]["hunter"])/float64(n), float64(from[k]["squad"])/float64(n), float64(from[k]["random"])/float64(n))
	}
	t.Logf("squad bots killed by a hunter bot with 0, 1, 2, 3+ other squad bots in range of it: %v", support)
}
