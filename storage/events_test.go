package storage

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"ringside/engine"
	"ringside/engine/event"
)

func cfgOf(names ...string) event.Config {
	cfg := event.Config{Format: event.Gauntlet, Seats: 2, Games: 2, Seed: 7}
	for i, n := range names {
		cfg.Entries = append(cfg.Entries, event.Entry{Name: n, Candidate: i == 0})
	}
	return cfg
}

func TestEvents(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	cfg := cfgOf("a", "b", "c")
	cfg.Entries[2].Filler = true
	ev, err := db.CreateEvent(Event{Name: "gauntlet", Game: "battle2048", Options: engine.Options{"size": "4"},
		Config: cfg, Concurrency: 3, TimeScale: 2.5,
		Entries: []Entry{{Name: "a", Command: "./a", Dir: "/a"}, {Name: "b"}, {Name: "c"}}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.Event(ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, ev) {
		t.Errorf("Event(%d) =\n%+v\nwant\n%+v", ev.ID, got, ev)
	}
	if got.Status != EventCreated || !got.Entries[0].Candidate || !got.Entries[2].Filler || got.Entries[0].Dir != "/a" {
		t.Errorf("entries or status not as configured: %+v", got)
	}

	// Entries are made from the config when none are given.
	ev2, err := db.CreateEvent(Event{Name: "plain", Game: "grip", Config: cfgOf("x", "y")})
	if err != nil || len(ev2.Entries) != 2 || ev2.Entries[1].Name != "y" || ev2.TimeScale != 1 {
		t.Errorf("CreateEvent without entries = %+v, %v", ev2, err)
	}

	bad := []struct {
		name string
		ev   Event
		want string
	}{
		{"no name", Event{Game: "grip", Config: cfgOf("a")}, "needs a name"},
		{"no game", Event{Name: "e", Config: cfgOf("a")}, "no game"},
		{"bad status", Event{Name: "e", Game: "grip", Config: cfgOf("a"), Status: "won"}, `unknown status "won"`},
		{"entry count", Event{Name: "e", Game: "grip", Config: cfgOf("a", "b"), Entries: []Entry{{Name: "a"}}}, "1 entries but the config lists 2"},
		{"entry name", Event{Name: "e", Game: "grip", Config: cfgOf("a"), Entries: []Entry{{Name: "z"}}}, `entry 0 is "z" but the config names "a"`},
		{"unknown revision", Event{Name: "e", Game: "grip", Config: cfgOf("a"), Entries: []Entry{{Name: "a", RevisionID: 99}}}, "entry 0 (a): revision 99 does not exist"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := db.CreateEvent(tt.ev); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("CreateEvent = %v, want %q", err, tt.want)
			}
		})
	}

	list, err := db.ListEvents()
	if err != nil || len(list) != 2 || list[0].ID != ev2.ID {
		t.Errorf("ListEvents = %+v, %v; want 2 events, newest first", list, err)
	}

	statuses := []struct {
		status   EventStatus
		finished bool
	}{
		{EventRunning, false}, {EventPaused, false}, {EventFinished, true}, {EventRunning, false}, {EventCancelled, true},
	}
	for _, s := range statuses {
		if err := db.SetEventStatus(ev.ID, s.status); err != nil {
			t.Fatal(err)
		}
		got, _ := db.Event(ev.ID)
		if got.Status != s.status || got.Finished.IsZero() == s.finished {
			t.Errorf("after SetEventStatus(%s): status %s, finished %v", s.status, got.Status, got.Finished)
		}
	}
	if err := db.SetEventStatus(ev.ID, "exploded"); err == nil {
		t.Error("SetEventStatus accepted an unknown status")
	}
	if err := db.SetEventStatus(999, EventRunning); !errors.Is(err, ErrNotFound) {
		t.Errorf("SetEventStatus of a missing event = %v", err)
	}
	if _, err := db.Event(999); !errors.Is(err, ErrNotFound) {
		t.Errorf("Event(999) = %v", err)
	}
}

func TestDeleteEventCascades(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	ev, ids := eventWithGames(t, db, 2)
	if err := db.FinishMatch(ids[0], engine.Result{Ranks: []int{1, 2}}, gripLog(1), 0); err != nil {
		t.Fatal(err)
	}
	if err := db.AddRatings(ev.ID, []Rating{{Entry: 0, AfterMatch: 0, Rating: 10}}); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteEvent(ev.ID); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"entries", "matches", "replays", "ratings"} {
		var n int
		if err := db.r.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s has %d rows after DeleteEvent (%v)", table, n, err)
		}
	}
}
