package grip

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/enginetest"
)

// searchScore is how search fared against the greedy bots of its games.
type searchScore struct {
	games, ahead, level, behind, alone, turnLimit int
	// unlearned counts the games search stood past turn 40 in without
	// having worked out the coords order, or having it wrong.
	unlearned int
}

// playSearch plays games of search against greedy, greedy and random
// (search in seat g%4, random in each of the three other seats in turn)
// and compares search's rank with every greedy bot's: ahead of both,
// level (not behind either, but sharing rank 1 with a survivor), or behind
// one of them. kv are the game's options.
// ggrLineup is game g's bots against search: search in seat g%4, the
// random bot in a seat that goes round the other three, greedy bots in
// the other two (listed in greedy).
func ggrLineup(g int) (bots [Seats]engine.Bot, search *SearchBot, greedy []int) {
	seat := g % Seats
	rnd := (seat + 1 + (g/Seats)%3) % Seats
	for i := range bots {
		switch i {
		case seat:
			search = NewSearchBot(int64(g))
			bots[i] = search
		case rnd:
			bots[i] = NewRandomBot(int64(g*Seats + i))
		default:
			bots[i] = NewGreedyBot(int64(g*Seats + i))
			greedy = append(greedy, i)
		}
	}
	return bots, search, greedy
}

func playSearch(t testing.TB, games int, kv ...string) searchScore {
	sc := searchScore{games: games}
	order := 1 // the order search should learn: 1 rc, 2 xy
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i] == OptCoords && kv[i+1] == CoordsXY {
			order = 2
		}
	}
	for g := range games {
		bots, search, greedy := ggrLineup(g)
		seat := g % Seats
		st := playBots(t, int64(g), bots, kv...)
		r := st.Result()
		if p := st.Player(seat); search.g.xy != order && (!p.Fallen || p.FellAt >= 40) {
			sc.unlearned++
		}
		ahead, behind := true, false
		for _, o := range greedy {
			ahead = ahead && r.Ranks[seat] < r.Ranks[o]
			behind = behind || r.Ranks[seat] > r.Ranks[o]
		}
		switch {
		case ahead:
			sc.ahead++
		case behind:
			sc.behind++
		default:
			sc.level++
		}
		if r.Winner() == seat {
			sc.alone++
		}
		if r.Reason == ReasonTurnLimit {
			sc.turnLimit++
		}
	}
	return sc
}

// TestSearchAgainstGreedy measures search against the strongest bot before
// it in 4-player games (search, two greedy, one random; seats rotated):
// 100 games with -long, 2 otherwise (TestSearchStrength with -strength
// plays 200 of each line-up). Search finishes ahead of both greedy bots
// in 93 of these 100 games (level in 3 at the turn limit, behind in 4;
// greedy in its seat manages about 1 in 40). What the test holds it to,
// the 90 % issue 18 asked for: ahead of both in at least 90 % of the
// games, and behind a greedy bot in at most 10 %.
func TestSearchAgainstGreedy(t *testing.T) {
	games := enginetest.ShortGames(100, 2)
	sc := playSearch(t, games)
	t.Logf("search vs greedy, greedy, random (%d games): ahead of both greedy %d (%.1f %%), level %d, behind %d; won alone %d; %d games reached the turn limit",
		sc.games, sc.ahead, 100*float64(sc.ahead)/float64(games), sc.level, sc.behind, sc.alone, sc.turnLimit)
	if sc.behind*10 > games {
		t.Errorf("search finished behind a greedy bot in %d of %d games, want at most 10 %%", sc.behind, games)
	}
	if games >= 100 && sc.ahead*100 < games*90 {
		t.Errorf("search finished ahead of both greedy bots in only %d of %d games, want at least 90 %%", sc.ahead, games)
	}
	if sc.unlearned > 0 {
		t.Errorf("search stood past turn 40 without the coords order right in %d of %d games", sc.unlearned, games)
	}
}

// TestSearchLearnsXY plays search in coords=xy games (the 2015 referee's
// order, an option; 40 games with -long, 2 otherwise): it weighs the documented order more until its
// moves show which one its input uses, and must then play as well as in
// rc games. Over these 40 games it finishes ahead of both greedy bots
// in 38 (38 too when both readings weighed alike), level in 1.
func TestSearchLearnsXY(t *testing.T) {
	games := enginetest.ShortGames(40, 2)
	sc := playSearch(t, games, OptCoords, CoordsXY)
	t.Logf("search vs greedy, greedy, random in coords=xy games (%d): ahead of both greedy %d, level %d, behind %d",
		sc.games, sc.ahead, sc.level, sc.behind)
	if sc.unlearned > 0 {
		t.Errorf("search stood past turn 40 without noticing coords=xy in %d of %d games", sc.unlearned, games)
	}
	if games >= 40 && sc.ahead*100 < games*85 {
		t.Errorf("search finished ahead of both greedy bots in only %d of %d coords=xy games, want at least 85 %%", sc.ahead, games)
	}
}

// TestSearchDeterministic: the same seeds give the same game.
func TestSearchDeterministic(t *testing.T) {
	record := func() string {
		bots := [Seats]engine.Bot{NewSearchBot(3), NewGreedyBot(4), NewRandomBot(5), NewSearchBot(6)}
		s := playBots(t, 9, bots, OptMaxTurns, "300")
		var b strings.Builder
		for _, p := range s.Players() {
			b.WriteString(FormatStart([Seats]Piece{p.Piece, p.Piece, p.Piece, p.Piece}))
		}
		r := s.Result()
		b.WriteString(r.Reason)
		return b.String()
	}
	enginetest.SameTwice(t, record)
}

// TestSearchTurnTimes plays search through whole games, checks that every
// answer is one valid command, and logs its slowest turn against the
// default limit of 100 ms. It does not fail on time: a test on a shared
// machine cannot time a turn; BenchmarkSearchTurn measures one.
func TestSearchTurnTimes(t *testing.T) {
	enginetest.LogSlowestTurn(t, BotSearch, 8, 1, 100*time.Millisecond, func(g int) time.Duration {
		bots := [Seats]engine.Bot{NewSearchBot(int64(g)), NewGreedyBot(int64(g)), NewSearchBot(int64(g + 1)), NewRandomBot(int64(g))}
		_, took := playTimed(t, int64(g), bots)
		return max(took[0], took[2])
	})
}

// BenchmarkSearchTurn is one search turn in a busy position, the turn
// player free to act: four players up, several blocks falling (depth 3),
// the same with one of them fallen (depth 3 with longer rollouts, and
// two opponents' attacks together), and with two fallen (a duel: depth
// 5, and the hunt).
func BenchmarkSearchTurn(b *testing.B) {
	blocks := "0\n40\n0 0 0 4 0 0\n0 8 0 0 0 -3\n0 0 0 0 12 0\n0 0 0 0 0 0\n-10 0 0 0 0 0\n0 0 0 0 0 0\n"
	for _, bc := range []struct{ name, players string }{
		{"four", "4 4 R 0\n4 9 L 0\n12 3 U 1\n14 14 U 0\nEOD\n"},
		{"three", "4 4 R 0\n4 9 L 0\n12 3 U 1\n-1 -1 U 0\nEOD\n"},
		{"duel", "4 4 R 0\n4 9 L 0\n-1 -1 U 0\n-1 -1 U 0\nEOD\n"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			bot := NewSearchBot(1)
			bot.g.xy = 1
			in := blocks + bc.players
			for b.Loop() {
				feed(bot, in)
			}
		})
	}
}

// searchView builds a turn input for seat 0 on turn t: the given block
// timers (block row, block column, timer) and players as "r c D S" (an
// empty string for a fallen one).
func searchView(t int, blocks [][3]int, players [Seats]string) view {
	v := view{id: 0, turn: t}
	for _, b := range blocks {
		v.blocks[b[0]][b[1]] = b[2]
	}
	for i, p := range players {
		if p == "" {
			continue
		}
		var r, c, w int
		var d string
		if _, err := fmt.Sscanf(p, "%d %d %s %d", &r, &c, &d, &w); err != nil {
			panic(err)
		}
		v.players[i] = botPlayer{r: r, c: c, dir: d[0], wait: w, alive: true}
	}
	return v
}

// TestSearchEscapes checks the exact fall check: every way off a falling
// block, with the board edge, fallen blocks and the distance rule in the
// way, the others standing still.
func TestSearchEscapes(t *testing.T) {
	far := [Seats]string{1: "0 17 L 0", 2: "17 17 L 0", 3: "0 10 L 0"}
	with := func(p0, p1 string) [Seats]string {
		ps := far
		ps[0] = p0
		if p1 != "" {
			ps[1] = p1
		}
		return ps
	}
	tests := []struct {
		name    string
		blocks  [][3]int
		players [Seats]string
		want    bool
	}{
		{"stable block", nil, with("16 1 U 0", ""), true},
		// One own turn before the block falls; three moves up, two right.
		{"corner, one turn", [][3]int{{5, 0, 4}}, with("17 1 U 0", ""), false},
		{"corner, three turns", [][3]int{{5, 0, 12}}, with("17 1 U 0", ""), true},
		{"one step right", [][3]int{{5, 0, 4}}, with("15 2 U 0", ""), true},
		// The step right would come within 3 of player 1; up is fallen.
		{"step right blocked by a player", [][3]int{{5, 0, 4}, {4, 0, -10}}, with("15 2 U 0", "15 6 L 0"), false},
		{"step up instead", [][3]int{{5, 0, 4}}, with("15 2 U 0", "15 6 L 0"), true},
		// Sitting out the only turn it had.
		{"waiting", [][3]int{{5, 0, 4}}, with("15 2 U 2", ""), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := searchView(0, tt.blocks, tt.players)
			s := stateOf(&v)
			if got := NewSearchBot(1).escapes(s, 0, noAttack); got != tt.want {
				t.Errorf("escapes = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestSearchExposure checks the charge for attacks the model may not
// predict: an opponent facing the bot's block, or one move away from a
// line through it, when the bot could not walk off in time; and two
// opponents attacking one after the other, where either attack alone
// leaves the bot a way off (pair).
func TestSearchExposure(t *testing.T) {
	tests := []struct {
		name     string
		turn, me int
		players  [Seats]string
		pair     bool
		want     float64
	}{
		// Next door, facing it: the block falls after one own turn of
		// the bot, which needs two moves up.
		{"facing, next block", 1, 0, [Seats]string{"16 1 U 0", "16 5 L 0", "0 17 L 0", "0 10 L 0"}, false, valueExposed},
		// Two moves up in two own turns.
		{"facing, two blocks away", 1, 0, [Seats]string{"16 1 U 0", "16 8 L 0", "0 17 L 0", "0 10 L 0"}, false, 0},
		// Facing up, it must turn first (its move left is cancelled
		// by the distance rule), then attack: two own turns of the bot,
		// enough for two moves up, not for three.
		{"turn first, two moves", 1, 0, [Seats]string{"16 1 U 0", "16 5 U 0", "0 17 L 0", "0 10 L 0"}, false, 0},
		{"turn first, three moves", 1, 0, [Seats]string{"17 1 U 0", "17 5 U 0", "0 17 L 0", "0 10 L 0"}, false, valueExposed / 2},
		{"out of line", 1, 0, [Seats]string{"16 1 U 0", "10 10 L 0", "0 17 L 0", "0 4 L 0"}, false, 0},
		// From a game the bot lost that way: seat 1 attacks along block
		// row 3 (the bot steps up out of it) and seat 0, one move later,
		// along block row 2.
		{"pair: one drives it onto the other's line", 111, 2, [Seats]string{"7 5 D 0", "10 11 L 0", "9 8 R 0"}, true, valueExposed},
		{"pair: the second too far to follow", 111, 2, [Seats]string{"1 1 D 0", "10 11 L 0", "9 8 R 0"}, true, 0},
		// Seat 1 faces away, but a move left turns it onto block row 3;
		// its attack then drives the bot onto seat 0's line, as above.
		{"pair: the first turns to it first", 111, 2, [Seats]string{"7 5 D 0", "10 11 U 0", "9 8 R 0"}, true, valueExposed},
		// Nobody faces the bot's block, and no one move turns anyone
		// onto its block row or column.
		{"pair: nobody facing it", 111, 2, [Seats]string{"7 5 D 0", "16 16 U 0", "9 8 R 0"}, true, 0},
		// Four players left: the pair is charged too.
		{"pair: four players", 111, 2, [Seats]string{"7 5 D 0", "10 11 L 0", "9 8 R 0", "17 17 L 0"}, true, valueExposed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := searchView(tt.turn, nil, tt.players)
			v.id = tt.me
			s := stateOf(&v)
			b := NewSearchBot(1)
			for i, p := range s.players {
				if tt.pair && i != tt.me && !p.Fallen && !b.escapes(s, tt.me, attackPlan{who: i, moveAt: -1, attackAt: nextFree(s, i)}) {
					t.Fatalf("seat %d's attack alone dooms the bot: not a position for two attacks", i)
				}
			}
			if got := b.exposure(s, tt.me); got != tt.want {
				t.Errorf("exposure = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestSearchExposureSittingOut: after its own attack the bot sits out
// two turns, long enough for an opponent to move, turn and attack. From
// a game the bot lost that way: it attacked down block column 2 from block (0, 2); seat 3 moved left,
// up, turned right (the move cancelled by the distance rule) and attacked
// along block row 0 before the bot could get off. From one square
// further left two commands do it.
func TestSearchExposureSittingOut(t *testing.T) {
	falling := [][3]int{{1, 2, 3}, {2, 2, 7}, {3, 2, 11}, {4, 2, 15}, {5, 2, 19}}
	tests := []struct {
		name    string
		players [Seats]string
		want    float64
	}{
		{"two commands, then an attack", [Seats]string{"12 13 L 0", "", "1 7 D 2", "3 4 L 0"}, valueExposed},
		// As in the game: left, up, right (cancelled), then the attack.
		{"three commands, then an attack", [Seats]string{"12 13 L 0", "", "1 7 D 2", "3 5 U 0"}, valueExposed},
		{"too far for three commands", [Seats]string{"12 13 L 0", "", "1 7 D 2", "9 4 L 0"}, 0},
		// A duel's search is deep enough to see it coming.
		{"duel", [Seats]string{"", "", "1 7 D 2", "3 4 L 0"}, 0},
		// Free to act, the bot answers the first command on its turn.
		{"free to act", [Seats]string{"12 13 L 0", "", "1 7 D 0", "3 4 L 0"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := searchView(107, falling, tt.players)
			v.id = 2
			s := stateOf(&v)
			if got := NewSearchBot(1).exposure(s, 2); got != tt.want {
				t.Errorf("exposure = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestSearchLearnsOrderFromCancelledMove: at (0, 5) read row first, U is
// cancelled by the edge; read column first the bot stands at row 5 and U
// takes it to row 4. Whether its numbers change after U tells the order.
func TestSearchLearnsOrderFromCancelledMove(t *testing.T) {
	players := [Seats]string{"0 5 U 0", "10 10 L 0", "17 17 L 0", "17 0 L 0"}
	for _, tt := range []struct {
		name  string
		after string
		want  int
	}{
		{"unchanged: row first", "0 5 U 0", 1},
		{"column changed: column first", "0 4 U 0", 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := NewSearchBot(1)
			b.prev, b.prevCmd = searchView(0, nil, players), 'U'
			next := players
			next[0] = tt.after
			v := searchView(4, nil, next)
			b.learnOrder(&v)
			if b.g.xy != tt.want {
				t.Errorf("order = %d, want %d", b.g.xy, tt.want)
			}
		})
	}
}

// TestSearchTrap checks the duel trap: a plan of at most two attacks
// that the last opponent cannot survive, whatever it does. Player 1 sits
// in the top-left corner block; the edges close two of its sides. An
// attack along the row of blocks below it makes holes there, and the
// second one, along its own row, comes before they close. Every plan
// found is checked again by trying every sequence of the opponent's
// commands, without escape's shortcuts.
func TestSearchTrap(t *testing.T) {
	tests := []struct {
		name     string
		blocks   [][3]int
		me, opp  string
		attacks  int // the fewest the plan needs; 0: no plan
		firstCmd byte
	}{
		{"one attack, below fallen", [][3]int{{1, 0, -10}}, "1 9 L 0", "1 1 U 0", 1, 'A'},
		{"open below, in its row", nil, "1 9 L 0", "1 1 U 0", 0, 0},
		{"parallel row, then its own", nil, "3 10 L 0", "1 1 U 0", 2, 'A'},
		{"parallel row from nearer", nil, "3 7 L 0", "0 0 U 0", 2, 'A'},
		// One row further down the move up takes two turns: the holes
		// close before the second attack's blocks fall.
		{"too far below", nil, "4 10 L 0", "1 1 U 0", 0, 0},
		// A move left first would take the bot within reach of the
		// opponent, which can stand in its way.
		{"a move it can block", nil, "3 9 L 0", "1 1 U 0", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := searchView(0, tt.blocks, [Seats]string{0: tt.me, 1: tt.opp})
			s := stateOf(&v)
			b := NewSearchBot(1)
			plan, ok := b.trap(s, 0, 2)
			if ok != (tt.attacks > 0) {
				t.Fatalf("trap found = %v, want %v", ok, tt.attacks > 0)
			}
			if !ok {
				return
			}
			if plan.script[0].cmd != tt.firstCmd {
				t.Errorf("first command %c, want %c (plan %+v)", plan.script[0].cmd, tt.firstCmd, plan.script[:plan.n])
			}
			if _, one := b.trap(s, 0, 1); one != (tt.attacks == 1) {
				t.Errorf("one-attack plan found = %v, want %v", one, tt.attacks == 1)
			}
			if survives(*s, 1, &plan, s.turn+trapWindow) {
				t.Errorf("the opponent survives plan %+v", plan.script[:plan.n])
			}
		})
	}
}

// survives reports whether player who is still on the board on turn end
// under some sequence of its moves (or N), player plan.who following plan
// and everybody else standing still.
func survives(s State, who int, plan *attackPlan, end int) bool {
	for {
		if s.players[who].Fallen {
			return false
		}
		if s.turn >= end || s.done {
			return true
		}
		seat := s.turn % Seats
		if seat == who && s.players[who].Wait == 0 {
			for _, c := range []byte("NURDL") {
				n := s
				n.play(c)
				if survives(n, who, plan, end) {
					return true
				}
			}
			return false
		}
		cmd := byte('N')
		if seat == plan.who {
			cmd, _ = plan.command(s.turn)
		}
		s.play(cmd)
	}
}

// TestSearchHunt checks hunt and follow in duels against greedy bots
// with tie-breaks of their own: where a plan is found, following it
// (hunting again when the game leaves it) must see the opponent fall and
// the bot stand for every seed of the opponent.
func TestSearchHunt(t *testing.T) {
	tests := []struct {
		name     string
		blocks   [][3]int
		me, opp  string
		third    string // a second opponent in seat 1, as greedy plays it; empty in a duel
		found    bool
		firstCmd byte // 0: any
	}{
		// It just attacked: it sits out two turns in the bot's line.
		{"sitting out, in line", nil, "10 7 D 0", "14 7 U 2", "", true, 'A'},
		// A turn to face it first; it still sits out one turn and has
		// two squares to go sideways.
		{"sitting out, facing away", nil, "10 7 L 0", "14 7 U 2", "", true, 'D'},
		{"free, far away", nil, "2 2 R 0", "15 15 L 0", "", false, 0},
		// Free and in line, but a step left takes it into the next block
		// before an attack can fall.
		{"free, in line", nil, "10 6 D 0", "14 6 U 0", "", false, 0},
		// With three players left the hunt goes on: the same kill,
		// whatever the other opponent far away does meanwhile.
		{"three left, sitting out, in line", nil, "10 7 D 0", "14 7 U 2", "2 15 L 0", true, 'A'},
		{"three left, sitting out, facing away", nil, "10 7 L 0", "14 7 U 2", "2 15 L 0", true, 'D'},
		{"three left, both free, far away", nil, "2 2 R 0", "15 15 L 0", "15 3 U 0", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := searchView(0, tt.blocks, [Seats]string{0: tt.me, 1: tt.third, 2: tt.opp})
			b := NewSearchBot(1)
			cmd, ok := b.follow(stateOf(&v), 0)
			budget := huntBudget
			if tt.third != "" {
				budget = huntBudget3
			}
			if b.huntNodes > budget {
				t.Errorf("the hunt played %d commands, more than its budget of %d", b.huntNodes, budget)
			}
			if ok != tt.found {
				t.Fatalf("hunt found = %v (plan %q), want %v", ok, b.hunting, tt.found)
			}
			if !ok {
				return
			}
			if tt.firstCmd != 0 && cmd != tt.firstCmd {
				t.Errorf("first command %c (plan %q), want %c", cmd, b.hunting, tt.firstCmd)
			}
			for seed := range int64(8) {
				s := stateOf(&v)
				b := NewSearchBot(1)
				var greedy [Seats]*GreedyBot
				for _, i := range []int{1, 2} {
					greedy[i] = NewGreedyBot(seed*Seats + int64(i))
					greedy[i].xy = 1
				}
				for end := s.turn + 60; !s.done && s.turn < end && !s.players[2].Fallen; {
					switch seat := s.turn % Seats; {
					case s.players[seat].Fallen:
						s.play('N')
					case seat == 0 && s.players[0].Wait == 0:
						cmd, ok := b.follow(s, 0)
						if !ok {
							t.Fatalf("seed %d: turn %d: the hunt was lost", seed, s.turn)
						}
						s.play(cmd)
					case seat == 2 || seat == 1 && tt.third != "":
						gv := viewOf(s, seat)
						s.play(greedy[seat].decide(gv))
					default:
						s.play('N')
					}
				}
				if s.players[0].Fallen || !s.players[2].Fallen {
					t.Errorf("seed %d: after turn %d the bot fell = %v, the opponent fell = %v", seed, s.turn, s.players[0].Fallen, s.players[2].Fallen)
				}
			}
		})
	}
}

// TestSearchStirs checks that in a duel with nothing to fear search
// neither stands still nor keeps away: from standoffs taken from duels
// against greedy, where it used to answer N for hundreds of turns, it
// steps to another square no farther from the opponent, and the step is
// safe (it can still get off every block that falls); and back in the
// same position it answers something else.
func TestSearchStirs(t *testing.T) {
	tests := []struct {
		name    string
		me, opp string
	}{
		{"facing each other two blocks apart", "9 12 L 0", "10 8 R 0"},
		{"one row of blocks apart", "8 15 R 0", "10 6 U 0"},
		{"far apart", "5 5 R 0", "9 14 U 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := searchView(600, nil, [Seats]string{0: tt.me, 2: tt.opp})
			b := NewSearchBot(1)
			b.g.xy = 1
			cmd := b.choose(v)
			s := stateOf(&v)
			before := manhattan(s.players[0].Row, s.players[0].Col, s.players[2].Row, s.players[2].Col)
			s.play(cmd)
			p, o := s.players[0], s.players[2]
			if p.Row == v.players[0].r && p.Col == v.players[0].c {
				t.Fatalf("search answered %c and stayed on its square", cmd)
			}
			if after := manhattan(p.Row, p.Col, o.Row, o.Col); after > before {
				t.Errorf("search answered %c: %d squares from the opponent, was %d", cmd, after, before)
			}
			if !b.escapes(s, 0, noAttack) {
				t.Errorf("search answered %c onto a block it cannot get off", cmd)
			}
			// Back in the same position, it answers otherwise, so that
			// the two bots do not go round the same loop to the turn limit.
			if again := b.choose(v); again == cmd {
				t.Errorf("search answered %c twice in the same position", cmd)
			}
		})
	}
}

// TestSearchValuesHemmedOpponent: a position is worth more to search
// the more of the sides of its opponent's block the board edge and
// fallen blocks close (valueHemmed), and that weighs more than the
// greedy bot's own view of the squares (valuePressure).
func TestSearchValuesHemmedOpponent(t *testing.T) {
	value := func(blocks [][3]int, opp string) float64 {
		v := searchView(1, blocks, [Seats]string{"1 1 U 0", opp})
		return NewSearchBot(1).value(stateOf(&v), 0)
	}
	open := value(nil, "10 10 L 0")
	for _, tt := range []struct {
		name   string
		blocks [][3]int
		opp    string
		sides  float64 // closed sides, the edge counting twice
	}{
		{"corner", nil, "16 16 L 0", 4},
		{"edge", nil, "16 10 L 0", 2},
		{"fallen block beside", [][3]int{{3, 2, -10}}, "10 10 L 0", 1},
		{"falling block beside", [][3]int{{2, 3, 5}}, "10 10 L 0", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := value(tt.blocks, tt.opp) - open
			// At least 50 a side: the greedy bot's view alone gains a few.
			if want := tt.sides * valueHemmed; got < tt.sides*50 || math.Abs(got-want) > 25 {
				t.Errorf("value gained %v against the opponent in the open, want about %v", got, want)
			}
		})
	}
}

// TestSearchBudget: once the turn's budget of lines is spent, search stops
// weighing commands. With a budget of one line it weighs U only, so it
// answers nothing but U (and N where it must wait, A where its hunt finds
// a sure attack); without the budget the same game has other answers too.
func TestSearchBudget(t *testing.T) {
	for _, budgeted := range []bool{false, true} {
		search := NewSearchBot(7)
		if budgeted {
			search.budget = 1
		}
		rec := &answers{Bot: search, seen: map[byte]int{}}
		bots := [Seats]engine.Bot{rec, NewGreedyBot(1), NewGreedyBot(2), NewRandomBot(3)}
		playBots(t, 7, bots)
		others := 0
		for cmd, n := range rec.seen {
			if !strings.ContainsRune("UNA", rune(cmd)) {
				others += n
			}
		}
		switch {
		case budgeted && others > 0:
			t.Errorf("with the budget spent after one line, search answered %v", rec.seen)
		case !budgeted && others == 0:
			t.Errorf("without a budget search answered only U, N and A (%v): the test shows nothing", rec.seen)
		}
	}
}

// answers counts a bot's answers by command.
type answers struct {
	engine.Bot
	seen map[byte]int
}

func (a *answers) Feed(line string) string {
	out := a.Bot.Feed(line)
	if out != "" {
		a.seen[out[0]]++
	}
	return out
}
