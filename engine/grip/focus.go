package grip

import "strings"

// Focus: search learns from the game how closely each opponent plays the
// greedy model, and weighs the terms of value that concern an opponent
// (its fall, its doom, its pressure, its hemmed block, the shot at it) by
// that: a predictable, greedy-like player weighs 1, an erratic one down
// to focusMin. Search's own safety is never weighed down.

// Tuning of the focus (see SearchBot.observe).
var (
	focusMin = 0.5 // the weight of the most erratic opponent
	// focusMinObs: until that many of an opponent's commands were seen, its
	// average regret is taken over focusMinObs (the others counted as
	// greedy's), so one odd command does not make it erratic.
	focusMinObs = 4
	// focusRegretCap bounds what one command adds to an opponent's
	// regret: a random bot's walk onto a falling block would otherwise
	// outweigh everything else it did.
	focusRegretCap = 20.0
	// focusScale is the average regret above greedyNoise at which an
	// opponent gets focusMin.
	focusScale = 6.0
)

// observe reconstructs the round that led from b.prev (the input search
// answered last, with b.prevCmd) to v: it plays search's command on the
// state of b.prev, then each following seat's command as read from how
// its line changed, scoring each with the greedy model against that
// seat's best command. If the round rebuilt gives exactly v, the regrets
// count toward the seats' weights. Rounds with a gap other than one
// round, or with the coords order unknown at either end, are skipped.
func (b *SearchBot) observe(v *view) {
	if !b.prevKnown || b.g.xy == 0 || v.turn-b.prev.turn != Seats || v.id != b.prev.id {
		return
	}
	s := *stateOf(&b.prev)
	s.play(b.prevCmd)
	var obs [Seats]int
	var regret [Seats]float64
	for range Seats - 1 {
		seat := s.turn % Seats
		p := s.players[seat]
		if p.Fallen || p.Wait > 0 {
			s.play('N')
			continue
		}
		cmd, ok := inferCommand(&s, seat, v.players[seat])
		if ok {
			ov := viewOf(&s, seat)
			r := greedyBest(&ov) - modelGreedy.score(&ov, cmd)
			obs[seat]++
			regret[seat] += min(max(r-greedyNoise, 0), focusRegretCap)
		}
		s.play(cmd)
	}
	if !matches(&s, v) {
		return
	}
	for i := range Seats {
		b.focusObs[i] += obs[i]
		b.focusRegret[i] += regret[i]
	}
}

// inferCommand reads the command seat played on s's turn from its line q
// in the next input: a new facing is a move that way, a wait of
// attackWait-1 an attack, a new square with the same facing a move
// forward, and otherwise N. The last is ambiguous where a move forward
// would have been cancelled, but N and that move leave the same position
// and score alike. It reports false where the command cannot be told (the
// player fell and its square is not shown).
func inferCommand(s *State, seat int, q botPlayer) (byte, bool) {
	p := s.players[seat]
	switch {
	case q.dir != p.Dir:
		if strings.IndexByte(Directions, q.dir) < 0 {
			return 'N', false
		}
		return q.dir, true
	case q.wait == attackWait-1:
		return 'A', true
	case !q.alive:
		// Same facing, no attack: N, or a move forward onto a block that
		// fell; the square is not shown.
		ov := viewOf(s, seat)
		dr, dc := step(p.Dir)
		if canEnter(&ov, seat, p.Row+dr, p.Col+dc) {
			return 'N', false
		}
		return 'N', true
	case q.r != p.Row || q.c != p.Col:
		return p.Dir, true
	}
	return 'N', true
}

// matches reports whether s shows what v does: the turn, the blocks and
// every player's line.
func matches(s *State, v *view) bool {
	if s.turn != v.turn || s.blocks != v.blocks {
		return false
	}
	for i, p := range s.players {
		q := v.players[i]
		if p.Fallen == q.alive {
			return false
		}
		if q.alive && (p.Row != q.r || p.Col != q.c || p.Dir != q.dir || p.Wait != q.wait) {
			return false
		}
	}
	return true
}

// focusWeight is opponent i's weight in value: down from 1 to focusMin as
// its average regret (above greedyNoise) grows to focusScale.
func (b *SearchBot) focusWeight(i int) float64 {
	avg := b.focusRegret[i] / float64(max(b.focusObs[i], focusMinObs))
	return 1 - (1-focusMin)*min(avg/focusScale, 1)
}
