package cloud

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/enginetest"
)

// squadLineup is game g's bots and their kinds: the squad in seat
// g%players; with 4 players the random bot squadRandom(g) seats on from
// it, hunters elsewhere.
func squadLineup(g, players int) ([]engine.Bot, []string) {
	seat := g % players
	bots := make([]engine.Bot, players)
	kinds := make([]string, players)
	for i := range bots {
		switch k := (i - seat + players) % players; {
		case k == 0:
			bots[i], kinds[i] = newSquadBot(int64(g)), "squad"
		case players == 4 && k == squadRandom(g):
			bots[i], kinds[i] = newRandomBot(int64(g*10+i)), "random"
		default:
			bots[i], kinds[i] = newHunterBot(int64(g*10+i)), "hunter"
		}
	}
	return bots, kinds
}

// squadRandom is how many seats on from the squad's the random bot sits
// in 4-player game g: it goes round the other three every four games.
func squadRandom(g int) int { return 1 + (g/4)%3 }

// squadGames plays games at default options and counts those in which the
// squad scored more points than every hunter. With 4 players the other
// seats are the old built-ins: two hunters and a random bot, the squad's
// seat rotating every game and the random bot's every four; with 2
// players it is squad against hunter, seats swapped every game.
func squadGames(t testing.TB, players, games int) (beat int, squadPts, hunterPts float64) {
	hunters := 0
	for g := range games {
		seat := g % players
		bots, kinds := squadLineup(g, players)
		s, _ := play(t, engine.Options{}, bots, int64(g))
		best := -1
		for i, k := range kinds {
			if k == "hunter" {
				best = max(best, s.points[i])
				hunterPts += float64(s.points[i])
				hunters++
			}
		}
		squadPts += float64(s.points[seat])
		if s.points[seat] > best {
			beat++
		}
	}
	return beat, squadPts / float64(games), hunterPts / float64(hunters)
}

// TestSquadAgainstHunter measures squad against hunter, the strongest
// bot before it, at default options: 200 two-player games and 200
// four-player games with -long (5 of each otherwise: the race detector
// makes them about nine times slower). Two players: it must beat hunter in at least
// 90 %. Four players (squad, hunter, hunter, random): the hunters also
// feed on each other and on the random bot, and squad finishes ahead of
// both hunters in 183 of these 200 games (91.5 %, all 20 under the
// race detector), and in 91.8 % of 1,800 games over seven sets of fields
// and seeds and 92.0 % of 2,600 over eleven (TestSquadStrength,
// -strength.first): above the 90 % issue 18 asked for. The test holds
// it to 80 % and to more points on average than a hunter, so that a
// change that loses ground fails it.
func TestSquadAgainstHunter(t *testing.T) {
	games := enginetest.ShortGames(200, 5)
	beat, sq, hu := squadGames(t, 2, games)
	t.Logf("2 players: squad beat hunter in %d of %d games (%.1f %%); %.0f points a game against hunter's %.0f", beat, games, 100*float64(beat)/float64(games), sq, hu)
	if beat*10 < games*9 {
		t.Errorf("2 players: squad beat hunter in only %d of %d games, want 90 %%", beat, games)
	}
	beat, sq, hu = squadGames(t, 4, games)
	t.Logf("4 players: squad scored more than both hunters in %d of %d games (%.1f %%); %.0f points a game against a hunter's %.0f", beat, games, 100*float64(beat)/float64(games), sq, hu)
	if beat*10 < games*8 || sq <= hu {
		t.Errorf("4 players: squad ahead of both hunters in %d of %d games with %.0f points a game against %.0f, want 80 %% and more points", beat, games, sq, hu)
	}
}

// TestSquadDeterministic: the same seeds give the same game.
func TestSquadDeterministic(t *testing.T) {
	run := func() []int {
		s, _ := play(t, engine.Options{"turns": "120"}, []engine.Bot{newSquadBot(1), newHunterBot(2), newSquadBot(3), newRandomBot(4)}, 5)
		return s.Points()
	}
	a, b := run(), run()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("two games with the same seeds: points %v and %v", a, b)
		}
	}
}

// TestSquadFocusesAndKeepsOut: with two enemies in reach, one with a life
// left, the squad kills it with one shot and spends the rest on the
// other; and a lone bot does not step into the reach of two enemies.
func TestSquadFocusesAndKeepsOut(t *testing.T) {
	s := tiny(t, 2, nil, "...aa", "..a..", "...bb")
	s.bots[4].health = 1
	out := firstAnswer(newSquadBot(1), s)
	s.Apply(answers(strings.TrimSuffix(out, "\n"), idle))
	if s.bots[4].alive() || s.points[0] != 100 || s.bots[3].health != 1 {
		t.Errorf("squad's reply %s: bot5 alive %v, points %d, bot4 has %d lives (want dead, 100, 1)", out, s.bots[4].alive(), s.points[0], s.bots[3].health)
	}
	// alice's bot2 at (0,2); bob's bot1 and bot3 at (4,1) and (4,3), 5
	// steps away: stepping right would put it within their reach next
	// turn (range 3, plus the step they can take), one gun against two.
	s = tiny(t, 2, nil, ".......", "....b..", "a......", "....b..", ".......")
	out = firstAnswer(newSquadBot(1), s)
	if strings.Contains(out, `"move":"r"`) {
		t.Errorf("a lone bot stepped toward two enemies: %s", out)
	}
}

// TestSquadDilutesItsLosses: bob's bot is about to kill alice's bot2,
// which has one life left; alice's bot1 has nobody else to shoot, so it
// fires at bot2 too, and bob's kill is worth 50 points instead of 100.
// bot2 still spends its own shot on bob's bot.
func TestSquadDilutesItsLosses(t *testing.T) {
	s := tiny(t, 2, nil, "a..a.b.")
	s.bots[1].health = 1
	out := firstAnswer(newSquadBot(1), s)
	if !regexp.MustCompile(`"bot1":\{"move":"[udlrs]","fire":\[3,0\]\}`).MatchString(out) {
		t.Errorf("squad's reply %s: bot1 does not fire at bot2's cell (3,0)", out)
	}
	if !regexp.MustCompile(`"bot2":\{"move":"[udlrs]","fire":\[5,0\]\}`).MatchString(out) {
		t.Errorf("squad's reply %s: bot2 does not fire at bob's bot at (5,0)", out)
	}
	s.Apply(answers(strings.TrimSuffix(out, "\n"), `{"bot3":{"move":"s","fire":[3,0]}}`))
	if s.bots[1].alive() || s.points[1] != 50 {
		t.Errorf("after squad's reply %s: bot2 alive %v, bob has %d points (want dead, 50)", out, s.bots[1].alive(), s.points[1])
	}
}

// TestSquadRenewsItsLastLife: alice's bot2 is down to its last life and
// no enemy of hers is near, so bot1 shoots it: it dies, nobody scores,
// and it comes back whole. With bob's bot five steps from bot2 (near
// enough to step in and fight, too far to shoot it now) bot2 is left
// alone.
func TestSquadRenewsItsLastLife(t *testing.T) {
	s := tiny(t, 2, nil, "a..a.......", "...........", "..........b")
	s.bots[1].health = 1
	out := firstAnswer(newSquadBot(1), s)
	if !regexp.MustCompile(`"bot1":\{"move":"[udlrs]","fire":\[3,0\]\}`).MatchString(out) {
		t.Errorf("squad's reply %s: bot1 does not fire at bot2's cell (3,0)", out)
	}
	s.Apply(answers(strings.TrimSuffix(out, "\n"), idle))
	if s.bots[1].alive() || s.points[0] != 0 || s.points[1] != 0 {
		t.Errorf("after squad's reply %s: bot2 alive %v, points %v (want dead, nobody scoring)", out, s.bots[1].alive(), s.points)
	}
	s = tiny(t, 2, nil, "a..a....b..", "...........", "...........")
	s.bots[1].health = 1
	out = firstAnswer(newSquadBot(1), s)
	if strings.Contains(out, `"fire":[3,0]`) {
		t.Errorf("squad's reply %s: it fires at its own bot2 with bob's bot near", out)
	}
}

// BenchmarkSquadTurn is one squad turn in a default four-player game at
// turn 100, when the fighting is on.
func BenchmarkSquadTurn(b *testing.B) {
	s, err := newGame(b, engine.Options{}, 4, 3)
	if err != nil {
		b.Fatal(err)
	}
	bots := []engine.Bot{newSquadBot(1), newHunterBot(2), newHunterBot(3), newRandomBot(4)}
	for seat, bt := range bots {
		bt.Feed(strings.TrimSuffix(s.Intro(seat), "\n"))
	}
	var in string
	for s.Turn() < 100 {
		asks := s.Asks()
		replies := make([]engine.Reply, len(asks))
		for i, a := range asks {
			replies[i] = engine.Reply{Status: engine.Answered, Line: strings.TrimSuffix(bots[i].Feed(strings.TrimSuffix(a.Input, "\n")), "\n")}
		}
		s.Apply(replies)
		in = strings.TrimSuffix(s.Input(0), "\n")
	}
	sq := bots[0]
	for b.Loop() {
		sq.Feed(in)
	}
}

// TestSquadTurnTimes plays default four-player games and logs the
// squad's slowest turn against the default limit of 250 ms. It does not
// fail on time (a shared machine cannot time a turn); BenchmarkSquadTurn
// measures one.
func TestSquadTurnTimes(t *testing.T) {
	enginetest.LogSlowestTurn(t, "squad", 4, 1, defaultTurnMs*time.Millisecond, func(g int) time.Duration {
		bots := []engine.Bot{newSquadBot(int64(g)), newHunterBot(2), newSquadBot(int64(g + 1)), newRandomBot(4)}
		_, _, took := playTimed(t, engine.Options{}, bots, int64(g))
		return max(took[0], took[2])
	})
}

// TestSquadLeader pins who the squad takes for the leader: another player
// squadLeadBy points or more ahead of every other player but the squad,
// whatever the squad's own points; nobody in a two-player game or a tie.
func TestSquadLeader(t *testing.T) {
	tests := []struct {
		name   string
		points map[string]int
		want   string
	}{
		{"clear lead", map[string]int{"me": 0, "a": 700, "b": 400, "c": 100}, "a"},
		{"lead of exactly squadLeadBy", map[string]int{"me": 0, "a": 300 + squadLeadBy, "b": 300, "c": 0}, "a"},
		{"lead just short", map[string]int{"me": 0, "a": 299 + squadLeadBy, "b": 300, "c": 0}, ""},
		{"the squad's own points do not count", map[string]int{"me": 5000, "a": 700, "b": 100}, "a"},
		{"the squad ahead of a leader still names it", map[string]int{"me": 900, "a": 700, "b": 0, "c": 0}, "a"},
		{"tie at the top", map[string]int{"me": 0, "a": 700, "b": 700, "c": 0}, ""},
		{"one other player: no leader", map[string]int{"me": 0, "a": 700}, ""},
		{"nothing scored", map[string]int{"me": 0, "a": 0, "b": 0, "c": 0}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sq := &squadPolicy{points: tt.points}
			if got := sq.leader("me"); got != tt.want {
				t.Errorf("leader of %v = %q, want %q", tt.points, got, tt.want)
			}
		})
	}
}
