package engine

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ReplayDiff is where two replays of one game part, and why.
type ReplayDiff struct {
	// Same is set when the games are alike move for move: the same
	// inputs (measured times aside), actions, verdicts and result.
	Same bool
	// Where the games part, when not Same: the step (from 0), its turn
	// and the seat (-1 when the difference is not one seat's).
	Step, Turn, Seat int
	// Why is "different games", "a different choice", "a timeout", "a
	// crash", "an invalid reply", "a different input" or "one game
	// ended"; Detail says what each replay holds there.
	Why, Detail string
	// Players names the seats whose players differ ("seat 3: bob@r1,
	// then bob@r2"), "" when all are the same: two revisions of one bot
	// compared on one seed.
	Players string
	// Measured is the first difference in a measured time the game sends
	// its bots (Battle 2048's TimeLeft) at or before the parting, "" when
	// there is none: the runner's clock, not a bot's choice, and a bot
	// that reads it may then choose differently.
	Measured string
	// Noise is set when the games part at a seat that is not marked
	// deterministic in both replays (Replay.Deterministic): its bot may
	// read the clock or draw unseeded randomness, so a difference there is
	// expected, not a fault of the runner. Deterministic is set when the
	// seat is marked so in both: then the difference is real. Both stay
	// false when a replay does not record it.
	Noise, Deterministic bool
}

// DiffReplays compares two replays of one game. measured blanks the times
// a game's input holds (Info.Measured); nil when it holds none.
func DiffReplays(a, b *Replay, measured func(input string) (string, string)) ReplayDiff {
	d := ReplayDiff{Seat: -1}
	switch {
	case a.Game != b.Game:
		d.Why, d.Detail = "different games", fmt.Sprintf("%s and %s", a.Game, b.Game)
		return d
	case a.Seed != b.Seed:
		d.Why, d.Detail = "different games", fmt.Sprintf("seeds %d and %d", a.Seed, b.Seed)
		return d
	case !maps.Equal(a.Options, b.Options):
		d.Why, d.Detail = "different games", fmt.Sprintf("options %s and %s", optionsText(a.Options), optionsText(b.Options))
		return d
	case len(a.Players) != len(b.Players):
		d.Why, d.Detail = "different games", fmt.Sprintf("%d and %d players", len(a.Players), len(b.Players))
		return d
	}
	var players []string
	for i := range a.Players {
		if a.Players[i] != b.Players[i] {
			players = append(players, fmt.Sprintf("seat %d: %s, then %s", i, a.Players[i], b.Players[i]))
		}
	}
	d.Players = strings.Join(players, "; ")
	for i := 0; i < len(a.Steps) || i < len(b.Steps); i++ {
		if i >= len(a.Steps) || i >= len(b.Steps) {
			d.Step, d.Seat = i, -1
			d.Why = "one game ended"
			d.Detail = fmt.Sprintf("the first ends after %d steps, the second after %d", len(a.Steps), len(b.Steps))
			if i < len(b.Steps) {
				d.Turn = b.Steps[i].Turn
			} else {
				d.Turn = a.Steps[i].Turn
			}
			return d
		}
		sa, sb := a.Steps[i], b.Steps[i]
		d.Step, d.Turn = i, sa.Turn
		if sa.Turn != sb.Turn || len(sa.Seats) != len(sb.Seats) {
			d.Why = "a different input"
			d.Detail = fmt.Sprintf("turn %d asks %s; turn %d asks %s", sa.Turn, seatsText(sa.Seats), sb.Turn, seatsText(sb.Seats))
			return d
		}
		for j := range sa.Seats {
			x, y := sa.Seats[j], sb.Seats[j]
			d.Seat = x.Seat
			if x.Seat != y.Seat {
				d.Why, d.Detail = "a different input", fmt.Sprintf("seat %d is asked in the first, seat %d in the second", x.Seat, y.Seat)
				return d
			}
			if x.Input != y.Input {
				mx, my, field := x.Input, y.Input, ""
				if measured != nil {
					mx, field = measured(x.Input)
					my, _ = measured(y.Input)
				}
				if mx != my {
					d.Why, d.Detail = "a different input", fmt.Sprintf("%q, then %q", firstDiffLine(x.Input, y.Input), firstDiffLine(y.Input, x.Input))
					return d
				}
				if d.Measured == "" {
					d.Measured = fmt.Sprintf("%s differs from turn %d on (seat %d: %q, then %q)", field, sa.Turn, x.Seat,
						firstDiffLine(x.Input, y.Input), firstDiffLine(y.Input, x.Input))
				}
			}
			if x.Verdict != y.Verdict || x.Action != y.Action {
				d.Why = verdictWhy(x.Verdict, y.Verdict)
				d.Detail = fmt.Sprintf("%s, then %s", seatText(x), seatText(y))
				d.Noise, d.Deterministic = seatKind(a, b, x.Seat)
				return d
			}
		}
	}
	d.Seat = -1
	if !slices.Equal(a.Result.Ranks, b.Result.Ranks) || a.Result.Reason != b.Result.Reason {
		d.Step, d.Why = len(a.Steps), "a different result"
		d.Detail = fmt.Sprintf("ranks %v (%s), then %v (%s)", a.Result.Ranks, a.Result.Reason, b.Result.Ranks, b.Result.Reason)
		return d
	}
	d.Same = true
	return d
}

// seatKind tells whether a difference at seat is expected noise (the seat
// is not marked deterministic in one of the replays) or real (marked in
// both); neither when a replay does not say.
func seatKind(a, b *Replay, seat int) (noise, deterministic bool) {
	if len(a.Deterministic) != len(a.Players) || len(b.Deterministic) != len(b.Players) ||
		seat < 0 || seat >= len(a.Deterministic) {
		return false, false
	}
	if a.Deterministic[seat] && b.Deterministic[seat] {
		return false, true
	}
	return true, false
}

// Text says the difference in a line or two for people.
func (d ReplayDiff) Text() string {
	var b strings.Builder
	if d.Players != "" {
		fmt.Fprintf(&b, "players: %s\n", d.Players)
	}
	if d.Same {
		b.WriteString("the same game, move for move")
	} else {
		fmt.Fprintf(&b, "the games part at step %d (turn %d", d.Step, d.Turn)
		if d.Seat >= 0 {
			fmt.Fprintf(&b, ", seat %d", d.Seat)
		}
		fmt.Fprintf(&b, "): %s: %s", d.Why, d.Detail)
		switch {
		case d.Noise:
			fmt.Fprintf(&b, "\nexpected noise: seat %d is not marked deterministic (its bot may read the clock or unseeded randomness)", d.Seat)
		case d.Deterministic:
			fmt.Fprintf(&b, "\nseat %d is deterministic (a built-in or an AI marked so): not noise", d.Seat)
		}
	}
	if d.Measured != "" {
		fmt.Fprintf(&b, "\nmeasured time: %s", d.Measured)
		if d.Same {
			b.WriteString("; the runner's clock, not a choice of a bot")
		} else {
			b.WriteString(", before the games part: a bot that reads it may choose differently")
		}
	}
	return b.String()
}

func verdictWhy(x, y Verdict) string {
	for _, v := range []Verdict{x, y} {
		switch v {
		case Timeout:
			return "a timeout"
		case Crashed:
			return "a crash"
		case Invalid:
			return "an invalid reply"
		}
	}
	return "a different choice"
}

func seatText(s ReplaySeat) string {
	if s.Verdict == OK {
		return fmt.Sprintf("%q", s.Action)
	}
	t := s.Verdict.String()
	if s.Note != "" {
		t += " (" + s.Note + ")"
	} else if s.Detail != "" {
		t += " (" + s.Detail + ")"
	}
	return t
}

func seatsText(seats []ReplaySeat) string {
	var ids []string
	for _, s := range seats {
		ids = append(ids, fmt.Sprint(s.Seat))
	}
	return "seats " + strings.Join(ids, ",")
}

// firstDiffLine is the first line of x that differs from y's line there.
func firstDiffLine(x, y string) string {
	xl, yl := strings.Split(x, "\n"), strings.Split(y, "\n")
	for i, l := range xl {
		if i >= len(yl) || l != yl[i] {
			return l
		}
	}
	return ""
}

func optionsText(o Options) string {
	var kv []string
	for k, v := range o {
		kv = append(kv, k+"="+v)
	}
	slices.Sort(kv)
	return strings.Join(kv, " ")
}
