package storage

import (
	"errors"
	"testing"

	"ringside/engine"
)

// TestLiveReplayLifecycle: a running game's saved turns are read back
// marked in progress, replaced by later saves, and gone (and not brought
// back by a late save) once the game is finished or reset.
func TestLiveReplayLifecycle(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	ev, ids := eventWithGames(t, db, 3)
	full := gripLog(1)
	part := func(n int) *engine.Log {
		l := *full
		l.Steps = full.Steps[:n]
		l.Result = engine.Result{}
		return &l
	}
	// Not running: nothing is saved.
	if err := db.SaveLive(ids[0], part(3)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.LiveReplay(ids[0]); !errors.Is(err, ErrNotFound) {
		t.Fatalf("live replay of a scheduled game: %v, want ErrNotFound", err)
	}
	for _, id := range ids[:2] {
		if err := db.StartMatch(id); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []int{3, 40} {
		if err := db.SaveLive(ids[0], part(n)); err != nil {
			t.Fatal(err)
		}
		got, saved, err := db.LiveReplay(ids[0])
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Steps) != n || !got.InProgress || got.Players[1] != "bob" || saved.IsZero() {
			t.Fatalf("live replay: %d steps, in progress %v, players %v, saved %v; want %d steps in progress",
				len(got.Steps), got.InProgress, got.Players, saved, n)
		}
		if got.Steps[n-1].Replies[0].Line != full.Steps[n-1].Replies[0].Line {
			t.Errorf("step %d differs", n-1)
		}
	}
	if err := db.FinishMatch(ids[0], engine.Result{Ranks: []int{1, 2}}, full, 0); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveLive(ids[0], part(50)); err != nil { // a late save
		t.Fatal(err)
	}
	if _, _, err := db.LiveReplay(ids[0]); !errors.Is(err, ErrNotFound) {
		t.Errorf("live replay of a finished game: %v, want ErrNotFound", err)
	}
	var n int
	if err := db.r.QueryRow(`SELECT COUNT(*) FROM live_replays`).Scan(&n); err != nil || n != 0 {
		t.Errorf("live rows after finishing = %d (%v), want 0", n, err)
	}
	if err := db.SaveLive(ids[1], part(5)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ResetRunning(ev.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.r.QueryRow(`SELECT COUNT(*) FROM live_replays`).Scan(&n); err != nil || n != 0 {
		t.Errorf("live rows after a reset = %d (%v), want 0", n, err)
	}
}

// TestEventPace: an event's pace is stored and read back.
func TestEventPace(t *testing.T) {
	t.Parallel()
	db, ev := openWithEvent(t, 2, 2)
	if ev.Pace != 0 {
		t.Fatalf("default pace %v", ev.Pace)
	}
	cfg := ev.Config
	ev2, err := db.CreateEvent(Event{Name: "paced", Game: "grip", Config: cfg, Pace: 12.5})
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.Event(ev2.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Pace != 12.5 {
		t.Errorf("pace = %v, want 12.5", got.Pace)
	}
}
