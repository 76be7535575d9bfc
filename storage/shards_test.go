package storage

import (
	"strings"
	"testing"
	"time"

	"ringside/engine"
)

// TestShardsOutBackMissing: games recorded in shards count as out; an
// import stores them in one transaction, keeps games that already have a
// result (importing again changes nothing), and refuses a game of another
// event without storing any.
func TestShardsOutBackMissing(t *testing.T) {
	t.Parallel()
	db, ev := openWithEvent(t, 2, 2)
	other := mkEvent(t, db, 2, 2)
	for _, e := range []Event{ev, other} {
		if err := db.AddMatches(e.ID, schedule(4)); err != nil {
			t.Fatal(err)
		}
	}
	ms, _ := db.Matches(ev.ID)
	oms, _ := db.Matches(other.ID)
	if c, err := db.ShardCounts(ev.ID); err != nil || c != (ShardCounts{}) {
		t.Errorf("counts of an event never exported = %+v, %v", c, err)
	}
	shards, err := db.AddShards(ev.ID, []Shard{
		{Token: "t1", Number: 1, Count: 2, File: "a.zip", SHA256: "x", Matches: []int64{ms[0].ID, ms[2].ID}},
		{Token: "t2", Number: 2, Count: 2, File: "b.zip", SHA256: "y", Matches: []int64{ms[1].ID}},
	})
	if err != nil || shards[0].ID == 0 || shards[1].EventID != ev.ID {
		t.Fatalf("AddShards = %+v, %v", shards, err)
	}
	if _, err := db.AddShards(ev.ID, []Shard{{Token: "t3", Number: 1, Count: 1, File: "c.zip", Matches: []int64{oms[0].ID}}}); err == nil ||
		!strings.Contains(err.Error(), "is not a game of event") {
		t.Errorf("a shard with another event's game: %v", err)
	}
	if sh, err := db.ShardByToken("t2"); err != nil || sh.Number != 2 || sh.File != "b.zip" {
		t.Errorf("ShardByToken = %+v, %v", sh, err)
	}
	out, err := db.OutMatches(ev.ID)
	if err != nil || len(out) != 3 || out[ms[3].ID] {
		t.Errorf("OutMatches = %v, %v", out, err)
	}
	if c, _ := db.ShardCounts(ev.ID); c != (ShardCounts{Shards: 2, Out: 3, Missing: 3}) {
		t.Errorf("counts after export = %+v", c)
	}

	res := engine.Result{Ranks: []int{1, 2}, Reason: "test", Turns: 3}
	game := func(id int64) Imported {
		return Imported{MatchID: id, Finish: Finish{Result: res, Duration: time.Second,
			Log: &engine.Log{Game: "grip", Seed: 1, Result: res}, Problems: []Problems{{}, {Timeouts: 1}}}}
	}
	// One foreign game refuses the whole batch.
	if _, _, err := db.ImportMatches(ev.ID, []Imported{game(ms[0].ID), game(oms[1].ID)}, nil); err == nil ||
		!strings.Contains(err.Error(), "is not a game of event") {
		t.Errorf("import with another event's game: %v", err)
	}
	if c, _ := db.ShardCounts(ev.ID); c.Back != 0 {
		t.Errorf("a refused import stored games: %+v", c)
	}
	stored, kept, err := db.ImportMatches(ev.ID, []Imported{game(ms[0].ID), game(ms[2].ID)}, []Rating{{Entry: 0, AfterMatch: 2, Rating: 10}})
	if err != nil || stored != 2 || kept != 0 {
		t.Fatalf("import = %d stored, %d kept, %v", stored, kept, err)
	}
	stored, kept, err = db.ImportMatches(ev.ID, []Imported{game(ms[0].ID), game(ms[2].ID), game(ms[1].ID)}, nil)
	if err != nil || stored != 1 || kept != 2 {
		t.Errorf("second import = %d stored, %d kept, %v; want 1 and 2", stored, kept, err)
	}
	if c, _ := db.ShardCounts(ev.ID); c != (ShardCounts{Shards: 2, Out: 3, Back: 3}) {
		t.Errorf("counts after import = %+v", c)
	}
	m, err := db.Match(ms[2].ID)
	if err != nil || m.Status != MatchDone || m.Problems[1].Timeouts != 1 || m.Duration != time.Second {
		t.Errorf("imported match = %+v, %v", m, err)
	}
	if _, err := db.Replay(ms[2].ID); err != nil {
		t.Errorf("imported replay: %v", err)
	}
	if outs, _ := db.Outcomes(ev.ID); len(outs) != 3 {
		t.Errorf("%d outcomes, want 3", len(outs))
	}
	if rs, _ := db.Ratings(ev.ID); len(rs) != 1 || rs[0].Rating != 10 {
		t.Errorf("ratings = %+v", rs)
	}
}
