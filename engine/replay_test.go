package engine_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"ringside/engine"
	"ringside/engine/games"
)

// TestReplayLogRoundTrip plays a game of each game with its built-in bots
// in process, expands the log, turns the replay back into a log and checks
// both are the same.
func TestReplayLogRoundTrip(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Info().ID, func(t *testing.T) {
			info := g.Info()
			opts, _ := info.Resolve(engine.Options{})
			if info.ID == "cloud" {
				opts["turns"] = "20"
			}
			players := make([]string, info.MinSeats)
			bots := make([]engine.Bot, info.MinSeats)
			for i := range players {
				players[i] = string(rune('a' + i))
				b, err := g.NewBot(g.Bots()[i%len(g.Bots())], int64(i))
				if err != nil {
					t.Fatal(err)
				}
				bots[i] = b
			}
			st, err := g.New(opts, players, 3)
			if err != nil {
				t.Fatal(err)
			}
			// The built-ins are deterministic: the log records it per seat
			// and the replay and its log carry it through.
			det := make([]bool, len(players))
			for i := range det {
				det[i] = true
			}
			log := &engine.Log{Game: info.ID, Options: opts, Seed: 3, Players: players, Deterministic: det}
			hello := make([]bool, len(bots))
			for !st.Done() {
				var step engine.LogStep
				var replies []engine.Reply
				for _, a := range st.Asks() {
					out := ""
					if !hello[a.Seat] {
						out, hello[a.Seat] = bots[a.Seat].Hello(), true
					}
					for _, line := range splitLines(a.Input) {
						out += bots[a.Seat].Feed(line)
					}
					r := engine.Reply{Status: engine.Answered, Line: firstLine(out), Elapsed: 1500}
					replies = append(replies, r)
					step.Replies = append(step.Replies, engine.LogReplyOf(r, "", ""))
				}
				st.Apply(replies)
				log.Steps = append(log.Steps, step)
			}
			log.Result = st.Result()
			// Re-simulation reaches the same result; a log cut short or
			// with a step too many does not re-simulate.
			if res, err := engine.Resimulate(g, log); err != nil || !reflect.DeepEqual(res, log.Result) {
				t.Errorf("Resimulate = %+v, %v; want %+v", res, err, log.Result)
			}
			cut := *log
			cut.Steps = log.Steps[:len(log.Steps)-1]
			if _, err := engine.Resimulate(g, &cut); err == nil {
				t.Errorf("a log without its last step re-simulates")
			}
			cut.Steps = append(append([]engine.LogStep(nil), log.Steps...), log.Steps[len(log.Steps)-1])
			if _, err := engine.Resimulate(g, &cut); err == nil {
				t.Errorf("a log with a step after the end re-simulates")
			}
			rp, err := engine.Expand(g, log)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := json.Marshal(rp)
			var back engine.Replay
			if err := json.Unmarshal(data, &back); err != nil {
				t.Fatal(err)
			}
			got, err := back.Log()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, log) {
				t.Errorf("log from replay differs from the original")
			}
			// A log that does not say (an old one, "ringside play") writes
			// no field at all: its replay is byte for byte as before.
			log.Deterministic = nil
			if rp, err = engine.Expand(g, log); err != nil {
				t.Fatal(err)
			}
			if data, _ := json.Marshal(rp); strings.Contains(string(data), "deterministic") {
				t.Errorf("a replay without deterministic seats names the field")
			}
		})
	}
}

func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\n' {
			i++
		}
		out = append(out, s[:i])
		if i < len(s) {
			i++
		}
		s = s[i:]
	}
	return out
}

func firstLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
