package service

import (
	"reflect"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/event"
	"ringside/runner"
	"ringside/storage"
)

// TestEventInfo: the event as the front ends see it resolves the stored
// zeros (concurrency 0 is the runner's default for the seats, time scale 0
// is 1) and marks every entry of a trusted event trusted.
func TestEventInfo(t *testing.T) {
	t.Parallel()
	entries := []storage.Entry{{Index: 0, Name: "alice r1"}, {Index: 1, Name: "bob r2", Trusted: true}}
	tests := []struct {
		name        string
		ev          storage.Event
		concurrency int
		timeScale   float64
		trusted     []bool
	}{
		{"defaults", storage.Event{Config: event.Config{Seats: 4}, Entries: entries},
			runner.DefaultConcurrency(4), 1, []bool{false, true}},
		{"chosen", storage.Event{Config: event.Config{Seats: 2}, Concurrency: 3, TimeScale: 2.5, Entries: entries},
			3, 2.5, []bool{false, true}},
		{"trusted event", storage.Event{Config: event.Config{Seats: 2}, Trusted: true, Entries: entries},
			runner.DefaultConcurrency(2), 1, []bool{true, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info := eventInfo(tt.ev)
			if info.Concurrency != tt.concurrency || info.TimeScale != tt.timeScale {
				t.Errorf("concurrency %d, time scale %g; want %d, %g", info.Concurrency, info.TimeScale, tt.concurrency, tt.timeScale)
			}
			var trusted []bool
			for _, e := range info.Entries {
				trusted = append(trusted, e.Trusted)
			}
			if !reflect.DeepEqual(trusted, tt.trusted) {
				t.Errorf("entries trusted %v, want %v", trusted, tt.trusted)
			}
			if info.SandboxText != EventSandboxText(tt.ev) {
				t.Errorf("sandbox text %q", info.SandboxText)
			}
		})
	}
}

// TestEventView: an event's view carries its games with their state, the
// finished games' outcomes and problems, and the same standings as
// Standings (the CLI's): computed in one place.
func TestEventView(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	ev, _, err := s.CreateEvent(EventSpec{Game: "battle2048", Games: 4, Seed: 1, SeedSet: true,
		Entries: []string{"builtin:battle2048/greedy", "builtin:battle2048/random"}})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := s.DB().Matches(ev.ID)
	if err != nil || len(ms) < 2 {
		t.Fatalf("%d games: %v", len(ms), err)
	}
	ranks := []int{1, 2}
	if ms[0].Game.Seats[0] != 0 {
		ranks = []int{2, 1}
	}
	if err := s.DB().Finish(ms[0].ID, storage.Finish{Result: engine.Result{Ranks: ranks, Reason: "higher_score", Turns: 40},
		Duration: time.Second, Problems: []storage.Problems{{Timeouts: 2}, {}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.DB().StartMatch(ms[1].ID); err != nil {
		t.Fatal(err)
	}

	v, err := s.EventView(ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Event.ID != ev.ID || v.Event.Name != ev.Name || len(v.Event.Entries) != 2 {
		t.Errorf("event %+v", v.Event)
	}
	if len(v.Games) != len(ms) || v.Games[0].Status != GameDone || v.Games[1].Status != GameRunning ||
		v.Games[2].Status != GameScheduled || v.Games[0].Result == nil {
		t.Fatalf("games %+v", v.Games)
	}
	if len(v.Outcomes) != 1 || v.TableErr != nil {
		t.Fatalf("%d outcomes, standings error %v", len(v.Outcomes), v.TableErr)
	}
	_, table, err := s.Standings(ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v.Table, table) {
		t.Errorf("view standings %+v\nStandings %+v", v.Table, table)
	}
	if v.Table.Rows[0].Entry != 0 || v.Table.Rows[0].Wins != 1 {
		t.Errorf("greedy should lead after its win: %+v", v.Table.Rows)
	}
	if p := v.Problems[ms[0].Game.Seats[0]]; p.Timeouts != 2 {
		t.Errorf("problems by entry %+v", v.Problems)
	}
	if v.Player != nil || v.Elsewhere != nil || v.Shards != (ShardCounts{}) || len(v.OutShards) != 0 {
		t.Errorf("played by %v, elsewhere %v, shards %+v, out %v", v.Player, v.Elsewhere, v.Shards, v.OutShards)
	}
}
