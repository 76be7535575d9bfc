package service

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/event"
	"ringside/runner/runnertest"
	"ringside/storage"
)

// eventually waits up to 20 s for cond, polling.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(runnertest.Patience(t)); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestLiveFollowsAPacedGame: a viewer following a game in play gets every
// step the runner plays, in order, then the stored replay; meanwhile the
// turns so far reach the database for other processes, marked in
// progress; the pace is the event's.
func TestLiveFollowsAPacedGame(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	ev, _, err := s.CreateEvent(EventSpec{Game: "battle2048", Format: event.League, Games: 1, Seed: 5, SeedSet: true,
		Pace: 6, Entries: []string{"builtin:battle2048/greedy", "builtin:battle2048/random"}, Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := s.DB().Event(ev.ID); got.Pace != 6 {
		t.Fatalf("stored pace %v, want 6", got.Pace)
	}
	job, err := s.EventJob(ev.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if job.Run.Pace != 6 {
		t.Fatalf("run pace %v, want the event's 6", job.Run.Pace)
	}
	ran := make(chan error, 1)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() { ran <- job.Start(ctx) }()

	var games []LiveGame
	eventually(t, "a game in play", func() bool { games = s.Live().Games(ev.ID); return len(games) == 1 })
	feed, ok := s.Live().Follow(games[0].Match)
	if !ok {
		t.Fatal("cannot follow the game in play")
	}
	defer feed.Close()

	// Meanwhile another process would read the turns so far.
	eventually(t, "the turns so far in the database", func() bool {
		log, _, err := s.DB().LiveReplay(games[0].Match)
		return err == nil && log.InProgress && len(log.Steps) > 0
	})

	var got [][]string
	var u LiveUpdate
	for !u.Ended {
		select {
		case <-feed.C:
		case <-time.After(runnertest.Patience(t)):
			t.Fatal("no news from the live game")
		}
		u = feed.Take()
		for _, st := range u.Steps {
			got = append(got, replyLines(st))
		}
	}
	if u.Final == nil || u.Stopped != "" {
		t.Fatalf("game ended without its replay: %q", u.Stopped)
	}
	if u.Header.Game != "battle2048" || len(u.Header.Players) != 2 {
		t.Errorf("header = %+v", u.Header)
	}
	stored, err := s.DB().Replay(games[0].Match)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(stored.Steps) || len(u.Final.Steps) != len(stored.Steps) {
		t.Fatalf("followed %d steps, final %d, stored %d", len(got), len(u.Final.Steps), len(stored.Steps))
	}
	for i, st := range stored.Steps {
		if g, w := fmt.Sprint(got[i]), fmt.Sprint(replyLines(st)); g != w {
			t.Fatalf("step %d followed as %s, stored as %s", i, g, w)
		}
	}
	if _, _, err := s.DB().LiveReplay(games[0].Match); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("live copy after the game: %v, want none", err)
	}
	stop() // the second game need not be watched
	select {
	case err := <-ran:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("event did not stop")
	}
}

// replyLines is a step's replies as "status line" texts; the remarks the
// runner adds when a game ends are in the stored replay only.
func replyLines(st engine.LogStep) []string {
	var out []string
	for _, r := range st.Replies {
		out = append(out, fmt.Sprintf("%v %q", r.Status, r.Line))
	}
	return out
}

// BenchmarkLiveRecord is what publishing one step costs the goroutine
// playing a game, with two viewers following it: compare with a turn's
// round trip to a bot (runner's BenchmarkRoundTripRunner, tens of µs).
func BenchmarkLiveRecord(b *testing.B) {
	l := newLive()
	log := &engine.Log{Game: "grip", Players: []string{"a", "b", "c", "d"}}
	step := engine.LogStep{Replies: []engine.LogReply{{Status: engine.Answered, Line: "U", Micros: 812}}}
	var f1, f2 *LiveFeed
	n := 0
	for b.Loop() {
		if n%1000 == 0 {
			// A new game of 1000 steps, with two viewers.
			if f1 != nil {
				f1.Close()
				f2.Close()
			}
			l.begin(1, 0, 7)
			f1, _ = l.Follow(7)
			f2, _ = l.Follow(7)
			log.Steps = log.Steps[:0]
		}
		log.Steps = append(log.Steps, step)
		l.record(1, 0, log)
		if n++; n%16 == 0 {
			// Viewers take what came, as they would every frame.
			f1.Take()
			f2.Take()
		}
	}
}
