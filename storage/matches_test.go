package storage

import (
	"database/sql"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/event"
)

func TestAddMatchesIsIdempotent(t *testing.T) {
	t.Parallel()
	db, ev := openWithEvent(t, 2, 2)
	games := schedule(6)
	if err := db.AddMatches(ev.ID, games[:4]); err != nil {
		t.Fatal(err)
	}
	ids := matchIDs(t, db, ev.ID)
	if err := db.FinishMatch(ids[0], engine.Result{Ranks: []int{1, 2}}, nil, time.Second); err != nil {
		t.Fatal(err)
	}
	// A resumed scheduler adds the whole schedule again, plus new games.
	if err := db.AddMatches(ev.ID, games); err != nil {
		t.Fatal(err)
	}
	ms, err := db.Matches(ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 6 {
		t.Fatalf("%d matches after adding the schedule twice, want 6", len(ms))
	}
	for i, m := range ms {
		if !reflect.DeepEqual(m.Game, games[i]) {
			t.Errorf("match %d is %+v, want %+v", i, m.Game, games[i])
		}
	}
	if ms[0].Status != MatchDone {
		t.Errorf("re-adding the schedule reset a finished game to %s", ms[0].Status)
	}

	changed := []struct {
		name string
		edit func(g *event.Game)
	}{
		{"seed", func(g *event.Game) { g.Seed++ }},
		{"seats", func(g *event.Game) { g.Seats = []int{1, 0} }},
		{"round", func(g *event.Game) { g.Round = 3 }},
		{"group", func(g *event.Game) { g.Group = 9 }},
	}
	for _, tt := range changed {
		t.Run(tt.name, func(t *testing.T) {
			g := games[2]
			g.Seats = append([]int(nil), g.Seats...)
			tt.edit(&g)
			err := db.AddMatches(ev.ID, []event.Game{g})
			if err == nil || !strings.Contains(err.Error(), "game 2 is already stored") {
				t.Errorf("AddMatches with a changed game = %v", err)
			}
		})
	}
	if err := db.AddMatches(999, games); !errors.Is(err, ErrNotFound) {
		t.Errorf("AddMatches to a missing event = %v", err)
	}
}

func TestMatchLifecycle(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	ev, ids := eventWithGames(t, db, 5)
	win := engine.Result{Ranks: []int{1, 2}, Reason: "last_standing", Turns: 40}
	draw := engine.Result{Ranks: []int{1, 1}, Reason: "turn_limit", Turns: 1000, Scores: []float64{3, 3}}

	steps := []struct {
		name string
		do   func() error
		want string // error text, "" for success
	}{
		{"start 0", func() error { return db.StartMatch(ids[0]) }, ""},
		{"start 0 again", func() error { return db.StartMatch(ids[0]) }, "it is running and cannot be started"},
		{"finish 0", func() error { return db.FinishMatch(ids[0], win, gripLog(1), 1500*time.Millisecond) }, ""},
		{"finish 0 again", func() error { return db.FinishMatch(ids[0], draw, nil, 0) }, "save match " + fmt.Sprint(ids[0]) + ": it is done and cannot be finished again"},
		{"fail 0 after done", func() error { return db.FailMatch(ids[0], "x", nil, 0) }, "it is done and cannot be failed"},
		{"finish 1 unstarted", func() error { return db.FinishMatch(ids[1], draw, nil, time.Second) }, ""},
		{"finish 2 with 3 ranks", func() error { return db.FinishMatch(ids[2], engine.Result{Ranks: []int{1, 2, 3}}, gripLog(2), 0) }, "the result has 3 ranks but the game has 2 seats"},
		{"start 2", func() error { return db.StartMatch(ids[2]) }, ""},
		{"fail 2", func() error { return db.FailMatch(ids[2], "bot b did not start: exec: ./b: not found", nil, 0) }, ""},
		{"start 3", func() error { return db.StartMatch(ids[3]) }, ""},
		{"finish missing", func() error { return db.FinishMatch(999, win, nil, 0) }, "save match 999: not found"},
		{"start missing", func() error { return db.StartMatch(999) }, "not found"},
	}
	for _, s := range steps {
		err := s.do()
		if s.want == "" && err != nil {
			t.Errorf("%s: %v", s.name, err)
		}
		if s.want != "" && (err == nil || !strings.Contains(err.Error(), s.want)) {
			t.Errorf("%s: err = %v, want %q", s.name, err, s.want)
		}
	}

	ms, err := db.Matches(ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	wantStatus := []MatchStatus{MatchDone, MatchDone, MatchError, MatchRunning, MatchScheduled}
	for i, m := range ms {
		if m.Status != wantStatus[i] {
			t.Errorf("match %d status %s, want %s", i, m.Status, wantStatus[i])
		}
	}
	if m := ms[0]; !reflect.DeepEqual(m.Result, &win) || m.Duration != 1500*time.Millisecond || m.Started.IsZero() || m.Finished.IsZero() {
		t.Errorf("finished match 0 = %+v", m)
	}
	if m := ms[2]; m.Result != nil || !strings.Contains(m.Error, "did not start") {
		t.Errorf("failed match 2 = %+v", m)
	}
	if _, err := db.Replay(ids[2]); !errors.Is(err, ErrNotFound) {
		t.Errorf("replay of a match refused for its ranks = %v, want none stored", err)
	}
	if _, err := db.Replay(ids[1]); !errors.Is(err, ErrNotFound) {
		t.Errorf("replay of a match finished without a log = %v, want ErrNotFound", err)
	}

	pending, err := db.PendingMatches(ev.ID)
	if err != nil || len(pending) != 1 || pending[0].ID != ids[4] {
		t.Errorf("PendingMatches = %+v, %v; want only game 4", pending, err)
	}
	n, err := db.ResetRunning(ev.ID)
	if err != nil || n != 1 {
		t.Errorf("ResetRunning = %d, %v; want 1", n, err)
	}
	pending, err = db.PendingMatches(ev.ID)
	if err != nil || len(pending) != 2 || pending[0].ID != ids[3] || !pending[0].Started.IsZero() {
		t.Errorf("PendingMatches after reset = %+v, %v; want games 3 and 4", pending, err)
	}
	if n, _ := db.ResetRunning(ev.ID); n != 0 {
		t.Errorf("second ResetRunning reset %d", n)
	}

	outs, err := db.Outcomes(ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []event.Outcome{
		{Game: schedule(5)[0], Ranks: []int{1, 2}},
		{Game: schedule(5)[1], Ranks: []int{1, 1}},
	}
	if !reflect.DeepEqual(outs, want) {
		t.Errorf("Outcomes = %+v, want %+v", outs, want)
	}
	// Appending to one outcome's slices must not overwrite the next's.
	_ = append(outs[0].Game.Seats, 9)
	_ = append(outs[0].Ranks, 9)
	if !reflect.DeepEqual(outs, want) {
		t.Errorf("outcomes share memory: %+v", outs)
	}
}

func TestFinishMatchIsAtomic(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	ev, ids := eventWithGames(t, db, 1)
	id := ids[0]
	if err := db.StartMatch(id); err != nil {
		t.Fatal(err)
	}
	// The replay insert fails after the match row was updated in the same
	// transaction: nothing of the finish may remain.
	if _, err := db.w.Exec(`CREATE TEMP TRIGGER no_replays BEFORE INSERT ON replays
		BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END`); err != nil {
		t.Fatal(err)
	}
	err := db.FinishMatch(id, engine.Result{Ranks: []int{2, 1}}, gripLog(3), time.Second)
	if err == nil || !strings.Contains(err.Error(), "disk full (test)") || !strings.Contains(err.Error(), fmt.Sprintf("save match %d", id)) {
		t.Fatalf("FinishMatch = %v, want the replay failure", err)
	}
	m, err := db.Match(id)
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != MatchRunning || m.Result != nil || !m.Finished.IsZero() {
		t.Errorf("a failed FinishMatch left %+v", m)
	}
	if outs, _ := db.Outcomes(ev.ID); len(outs) != 0 {
		t.Errorf("a failed FinishMatch left an outcome")
	}
	if _, err := db.w.Exec(`DROP TRIGGER no_replays`); err != nil {
		t.Fatal(err)
	}
	if err := db.FinishMatch(id, engine.Result{Ranks: []int{2, 1}}, gripLog(3), time.Second); err != nil {
		t.Fatalf("FinishMatch after the failure: %v", err)
	}
}

func TestConcurrentWriters(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	const workers, perWorker = 6, 15
	ev, ids := eventWithGames(t, db, workers*perWorker)
	logs := []*engine.Log{gripLog(1), gripLog(2)}
	var wg sync.WaitGroup
	errs := make(chan error, workers*(perWorker*4+2))
	for w := range workers {
		wg.Go(func() {
			for k := range perWorker {
				i := w*perWorker + k
				if err := db.StartMatch(ids[i]); err != nil {
					errs <- err
				}
				if i%7 == 3 {
					if err := db.FailMatch(ids[i], "crashed", logs[i%2], time.Millisecond); err != nil {
						errs <- err
					}
				} else if err := db.FinishMatch(ids[i], engine.Result{Ranks: []int{1 + i%2, 2 - i%2}}, logs[i%2], time.Second); err != nil {
					errs <- err
				}
				if err := db.AddRatings(ev.ID, []Rating{{Entry: w % 2, AfterMatch: i, Rating: float64(i)}}); err != nil {
					errs <- err
				}
				if _, err := db.Outcomes(ev.ID); err != nil {
					errs <- err
				}
			}
			if _, err := db.AddAI(AI{Name: fmt.Sprint("ai", w), Game: "grip"}); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	outs, err := db.Outcomes(ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for i := range ids {
		if i%7 == 3 {
			failed++
		}
	}
	if len(outs) != len(ids)-failed {
		t.Errorf("%d outcomes, want %d", len(outs), len(ids)-failed)
	}
	for _, o := range outs {
		i := o.Game.Index
		if !reflect.DeepEqual(o.Ranks, []int{1 + i%2, 2 - i%2}) {
			t.Errorf("game %d ranks %v", i, o.Ranks)
		}
	}
	if rs, _ := db.Ratings(ev.ID); len(rs) != len(ids) {
		t.Errorf("%d rating points, want %d", len(rs), len(ids))
	}
	if ais, _ := db.ListAIs(); len(ais) != workers {
		t.Errorf("%d AIs, want %d", len(ais), workers)
	}
	for i, id := range ids {
		lg, err := db.Replay(id)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(lg, logs[i%2]) {
			t.Errorf("replay of game %d differs from the log saved", i)
		}
	}
}

func TestRatings(t *testing.T) {
	t.Parallel()
	db, ev := openWithEvent(t, 3, 2)
	in := []Rating{
		{Entry: 1, AfterMatch: 0, Rating: 12.5, Interval: 80},
		{Entry: 0, AfterMatch: 0, Rating: -12.5, Interval: 80},
		{Entry: 0, AfterMatch: 1, Rating: 3, Interval: 60},
	}
	if err := db.AddRatings(ev.ID, in); err != nil {
		t.Fatal(err)
	}
	// A recomputation after a resume replaces the point.
	if err := db.AddRatings(ev.ID, []Rating{{Entry: 0, AfterMatch: 1, Rating: 4, Interval: 55}}); err != nil {
		t.Fatal(err)
	}
	got, err := db.Ratings(ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []Rating{in[1], in[0], {Entry: 0, AfterMatch: 1, Rating: 4, Interval: 55}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Ratings = %+v, want %+v", got, want)
	}
	if err := db.AddRatings(999, in); err == nil {
		t.Error("AddRatings to a missing event succeeded")
	}
}

func TestParseInts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []int
		err  bool
	}{
		{"", nil, false},
		{"0", []int{0}, false},
		{"1,2,3", []int{1, 2, 3}, false},
		{"12,-3", []int{12, -3}, false},
		{"1,", nil, true},
		{",1", nil, true},
		{"1,,2", nil, true},
		{"1 2", nil, true},
		{"-", nil, true},
		{"99999999999999999999", nil, true},
	}
	for _, tt := range tests {
		got, err := parseInts(tt.in, nil)
		if (err != nil) != tt.err || (!tt.err && !reflect.DeepEqual(got, tt.want)) {
			t.Errorf("parseInts(%q) = %v, %v; want %v (error %v)", tt.in, got, err, tt.want, tt.err)
		}
		if !tt.err {
			if s := formatInts(got); s != tt.in {
				t.Errorf("formatInts(%v) = %q, want %q", got, s, tt.in)
			}
			if n := countInts(tt.in); n != len(tt.want) {
				t.Errorf("countInts(%q) = %d", tt.in, n)
			}
		}
	}
}

func FuzzParseInts(f *testing.F) {
	for _, s := range []string{"", "1,2", "-5,0,17", "1,,2", "9223372036854775807"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		xs, err := parseInts(s, nil)
		if err != nil {
			return
		}
		back, err := parseInts(formatInts(xs), nil)
		if err != nil || !reflect.DeepEqual(back, xs) {
			t.Errorf("%q → %v → %q → %v, %v", s, xs, formatInts(xs), back, err)
		}
	})
}

func TestParseOutcomes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []event.Outcome
		err  string
	}{
		{"", nil, ""},
		{"3 1 2 -99 0,1 2,1", []event.Outcome{{Game: event.Game{Index: 3, Round: 1, Group: 2, Seed: -99, Seats: []int{0, 1}}, Ranks: []int{2, 1}}}, ""},
		{"0 0 0 5 1,0,2 1,1,3;1 0 0 5 0,2,1 3,1,1", []event.Outcome{
			{Game: event.Game{Seed: 5, Seats: []int{1, 0, 2}}, Ranks: []int{1, 1, 3}},
			{Game: event.Game{Index: 1, Seed: 5, Seats: []int{0, 2, 1}}, Ranks: []int{3, 1, 1}},
		}, ""},
		{"0 0 0 5 0,1", nil, "want \"index round group seed seats ranks\""},
		{"0 0 0 5 0,1 1,2 extra", nil, "damaged outcome"},
		{"x 0 0 5 0,1 1,2", nil, "invalid syntax"},
		{"0 0 0 5 0,,1 1,2", nil, "bad integer list"},
		{"0 0 0 5 0,1 1,2;", nil, "damaged outcome \"\""},
	}
	for _, tt := range tests {
		got, err := parseOutcomes(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("parseOutcomes(%q) error = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseOutcomes(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

func FuzzParseOutcomes(f *testing.F) {
	f.Add("0 0 0 5 1,0,2 1,1,3;1 0 0 5 0,2,1 3,1,1")
	f.Add("3 1 2 -99 0,1 2,1")
	f.Fuzz(func(t *testing.T, s string) {
		outs, err := parseOutcomes(s)
		if err != nil {
			return
		}
		var b strings.Builder
		for i, o := range outs {
			if i > 0 {
				b.WriteByte(';')
			}
			fmt.Fprintf(&b, "%d %d %d %d %s %s", o.Game.Index, o.Game.Round, o.Game.Group, o.Game.Seed,
				formatInts(o.Game.Seats), formatInts(o.Ranks))
		}
		back, err := parseOutcomes(b.String())
		if err != nil || !reflect.DeepEqual(back, outs) {
			t.Errorf("%q → %+v → %q → %+v, %v", s, outs, b.String(), back, err)
		}
	})
}

// TestOutcomesUseCoveringIndex guards the design that makes loading
// standings cheap: the query must read only the index matches_outcomes.
func TestOutcomesUseCoveringIndex(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	rows, err := db.r.Query(`EXPLAIN QUERY PLAN `+outcomesQuery, 1)
	if err != nil {
		t.Fatal(err)
	}
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := closeRows(rows); err != nil {
		t.Fatal(err)
	}
	if p := strings.Join(plan, "; "); !strings.Contains(p, "COVERING INDEX matches_outcomes") {
		t.Errorf("outcomes query plan is %q, want the covering index matches_outcomes", p)
	}
}

func TestMatchCounts(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	ev, ids := eventWithGames(t, db, 3)
	if err := db.FinishMatch(ids[1], engine.Result{Ranks: []int{1, 2}}, nil, 0); err != nil {
		t.Fatal(err)
	}
	done, all, err := db.MatchCounts(ev.ID)
	if err != nil || done != 1 || all != 3 {
		t.Errorf("MatchCounts = %d, %d, %v; want 1, 3", done, all, err)
	}
}

// A game's result and its rating points are saved together or not at all:
// a failure while writing the points leaves the game unfinished, with no
// replay, so a resume plays it again instead of keeping a result whose
// point is lost.
func TestFinishMatchRatedIsOneTransaction(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	ev, ids := eventWithGames(t, db, 2)
	if err := db.StartMatch(ids[0]); err != nil {
		t.Fatal(err)
	}
	// SQLite stores NaN as NULL, which the NOT NULL rating column refuses:
	// the second point fails after the result and the first point are in.
	bad := []Rating{{Entry: 0, AfterMatch: 0, Rating: 5}, {Entry: 1, AfterMatch: 0, Rating: math.NaN()}}
	err := db.FinishMatchRated(ids[0], engine.Result{Ranks: []int{1, 2}}, gripLog(1), time.Second, bad)
	if err == nil || !strings.Contains(err.Error(), "rating of entry 1 after game 0") {
		t.Fatalf("err = %v, want the failed rating named", err)
	}
	m, err := db.Match(ids[0])
	if err != nil || m.Status != MatchRunning || m.Result != nil {
		t.Fatalf("after a failed save the match is %+v (%v); want it still running, without a result", m, err)
	}
	if _, err := db.Replay(ids[0]); !errors.Is(err, ErrNotFound) {
		t.Errorf("a replay was kept: %v", err)
	}
	if rs, _ := db.Ratings(ev.ID); len(rs) != 0 {
		t.Errorf("rating points kept without their game: %+v", rs)
	}
	good := []Rating{{Entry: 0, AfterMatch: 0, Rating: 5, Interval: 9}, {Entry: 1, AfterMatch: 0, Rating: -5, Interval: 9}}
	if err := db.FinishMatchRated(ids[0], engine.Result{Ranks: []int{1, 2}}, gripLog(1), time.Second, good); err != nil {
		t.Fatal(err)
	}
	if m, _ := db.Match(ids[0]); m.Status != MatchDone {
		t.Errorf("match is %s", m.Status)
	}
	if rs, _ := db.Ratings(ev.ID); !reflect.DeepEqual(rs, good) {
		t.Errorf("ratings %+v, want %+v", rs, good)
	}
}

// Problems round-trip through their stored text; a seat's timeouts under
// load add a fourth number, and rows written before it still read.
func TestProblemsText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		stored string
		want   []Problems
	}{
		{"1/2/3,0/0/0", []Problems{{Timeouts: 1, Invalid: 2, Crashed: 3}, {}}},
		{"0/0/0/4,2/0/0", []Problems{{Busy: 4}, {Timeouts: 2}}},
		{"x/y", nil},
	}
	for _, tt := range tests {
		got := parseProblems(sql.NullString{String: tt.stored, Valid: true})
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseProblems(%q) = %v, want %v", tt.stored, got, tt.want)
		}
		if tt.want != nil {
			if back := formatProblems(got).String; back != tt.stored {
				t.Errorf("formatProblems(%v) = %q, want %q", got, back, tt.stored)
			}
		}
	}
}
