package storage

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"ringside/engine"
	"ringside/engine/event"
)

// openTemp opens a fresh database in a test folder.
func openTemp(t testing.TB) *DB {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "ringside.db"))
}

// openAt opens the database at path for the rest of the test, which
// closes it.
func openAt(t testing.TB, path string) *DB {
	t.Helper()
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	return db
}

// gripLog is a realistic finished 1000-turn Grip game: a READY handshake
// answered by 4 seats, then 999 steps of one reply each.
func gripLog(seed uint64) *engine.Log {
	r := rand.New(rand.NewPCG(seed, 7))
	log := &engine.Log{
		Game:    "grip",
		Options: engine.Options{"turns": "1000", "size": "18"},
		Seed:    int64(seed),
		Players: []string{"alice", "bob", "carol", "dave"},
		Result:  engine.Result{Ranks: []int{2, 1, 4, 3}, Reason: "turn_limit", Turns: 1000, Scores: []float64{310, 402, 97, 205}},
	}
	hand := engine.LogStep{Replies: make([]engine.LogReply, 4)}
	for i := range hand.Replies {
		hand.Replies[i] = engine.LogReply{Status: engine.Answered, Line: "READY", Micros: 500 + r.Int64N(29500)}
	}
	log.Steps = append(log.Steps, hand)
	for range 999 {
		log.Steps = append(log.Steps, engine.LogStep{Replies: []engine.LogReply{{
			Status: engine.Answered,
			Line:   string("URDLAN"[r.IntN(6)]),
			Micros: 500 + r.Int64N(29500),
		}}})
	}
	return log
}

// mkEvent creates an event of n entries for the "grip" game.
func mkEvent(t testing.TB, db *DB, n, seats int) Event {
	t.Helper()
	cfg := event.Config{Format: event.League, Seats: seats, Games: 1, Seed: 42}
	for i := range n {
		cfg.Entries = append(cfg.Entries, event.Entry{Name: fmt.Sprintf("bot%d", i)})
	}
	ev, err := db.CreateEvent(Event{Name: "test league", Game: "grip", Options: engine.Options{"turns": "1000"}, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// schedule makes n two-seat games on entries 0 and 1, swapping seats.
func schedule(n int) []event.Game {
	gs := make([]event.Game, n)
	for i := range gs {
		gs[i] = event.Game{Round: 0, Index: i, Seats: []int{i % 2, 1 - i%2}, Seed: int64(1000 + i/2), Group: i / 2}
	}
	return gs
}

// openWithEvent opens a fresh database with a league of n entries for
// games of the given seats in it: the start of most event and match tests.
func openWithEvent(t testing.TB, n, seats int) (*DB, Event) {
	t.Helper()
	db := openTemp(t)
	return db, mkEvent(t, db, n, seats)
}

// eventWithGames creates a two-entry, two-seat league in db with the n
// games of schedule(n) added, and returns it with its matches' IDs in
// schedule order: the start of most match tests.
func eventWithGames(t testing.TB, db *DB, n int) (Event, []int64) {
	t.Helper()
	ev := mkEvent(t, db, 2, 2)
	if err := db.AddMatches(ev.ID, schedule(n)); err != nil {
		t.Fatal(err)
	}
	return ev, matchIDs(t, db, ev.ID)
}

// matchIDs returns the IDs of an event's matches in schedule order.
func matchIDs(t testing.TB, db *DB, eventID int64) []int64 {
	t.Helper()
	ms, err := db.Matches(eventID)
	if err != nil {
		t.Fatal(err)
	}
	return idsOf(ms)
}

// idsOf returns the IDs of ms, in order.
func idsOf(ms []Match) []int64 {
	ids := make([]int64, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return ids
}
