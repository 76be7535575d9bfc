package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"ringside/engine"
	"ringside/engine/event"
)

// pingEvent is a two-seat league of fake bots playing the ping game.
func pingEvent(entries, games, conc int, turns string) *Event {
	cfg := event.Config{Format: event.League, Seats: 2, Games: games, Seed: 7}
	var bots []Bot
	for i := range entries {
		name := fmt.Sprintf("bot%d", i)
		cfg.Entries = append(cfg.Entries, event.Entry{Name: name})
		bots = append(bots, Bot{Name: name, Command: fakebot})
	}
	return &Event{Game: pingGame{}, Options: engine.Options{"turns": turns}, Config: cfg, Bots: bots, Concurrency: conc}
}

func TestEventRunsEveryGameOnce(t *testing.T) {
	e := pingEvent(4, 2, 3, "4")
	var mu sync.Mutex
	running, most := 0, 0
	scheduled := map[int]bool{}
	finished := map[int]int{}
	e.OnScheduled = func(gs []event.Game) error {
		for _, g := range gs {
			if scheduled[g.Index] {
				t.Errorf("game %d scheduled twice", g.Index)
			}
			scheduled[g.Index] = true
		}
		return nil
	}
	e.OnStart = func(g event.Game) error {
		mu.Lock()
		defer mu.Unlock()
		if !scheduled[g.Index] {
			t.Errorf("game %d started before it was scheduled", g.Index)
		}
		running++
		most = max(most, running)
		return nil
	}
	e.OnFinished = func(g event.Game, out *Outcome) error {
		mu.Lock()
		defer mu.Unlock()
		running--
		finished[g.Index]++
		if out.Log.Seed != g.Seed {
			t.Errorf("game %d played with seed %d, want %d", g.Index, out.Log.Seed, g.Seed)
		}
		return nil
	}
	var last Progress
	e.OnProgress = func(p Progress) { last = p }
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	// 4 entries: 6 pairings × 2 seeds × 2 seat orders.
	if len(finished) != 24 {
		t.Errorf("%d games finished, want 24", len(finished))
	}
	for i, n := range finished {
		if n != 1 {
			t.Errorf("game %d finished %d times", i, n)
		}
	}
	if most > 3 {
		t.Errorf("%d games ran at once, concurrency is 3", most)
	}
	if !last.Finished || last.Done != 24 {
		t.Errorf("last progress = %+v", last)
	}
}

func TestEventResumeSkipsDone(t *testing.T) {
	e := pingEvent(3, 1, 2, "2")
	all, _, err := event.Next(e.Config, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range all[:4] {
		e.Done = append(e.Done, event.Outcome{Game: g, Ranks: []int{1, 2}})
	}
	var played []int
	e.OnFinished = func(g event.Game, _ *Outcome) error { played = append(played, g.Index); return nil }
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(played) != len(all)-4 {
		t.Errorf("played %v, want only the %d games without a result", played, len(all)-4)
	}
	for _, i := range played {
		if i < 4 {
			t.Errorf("game %d had a result and was played again", i)
		}
	}
}

func TestEventPauseResumeCancel(t *testing.T) {
	e := pingEvent(4, 2, 1, "4")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	finished := make(chan int, 100)
	e.OnFinished = func(g event.Game, _ *Outcome) error { finished <- g.Index; return nil }
	errc := make(chan error, 1)
	go func() { errc <- e.Run(ctx) }()
	<-finished
	e.Pause()
	// At most the game in play when Pause came finishes; then nothing.
	drained := 0
	for quiet := false; !quiet; {
		select {
		case <-finished:
			drained++
		case <-time.After(500 * time.Millisecond):
			quiet = true
		}
	}
	if drained > 1 {
		t.Errorf("%d games finished after Pause, want at most the one in play", drained)
	}
	e.Resume()
	select {
	case <-finished:
	case <-time.After(10 * time.Second):
		t.Fatal("no game finished after Resume")
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("Run after cancel = %v, want context.Canceled", err)
	}
}

// TestEventGoesOnWhenNoBotStarts: two broken programs meeting cost them
// their games; the event still finishes.
func TestEventGoesOnWhenNoBotStarts(t *testing.T) {
	e := pingEvent(3, 1, 1, "2")
	e.Bots[0].Command = "/no/such/bot"
	e.Bots[1].Command = "/no/such/bot"
	crashed := 0
	e.OnFinished = func(g event.Game, out *Outcome) error {
		for s := range g.Seats {
			if out.Verdicts[s][engine.Crashed] > 0 {
				crashed++
			}
		}
		return nil
	}
	if err := e.Run(context.Background()); err != nil {
		t.Fatalf("Run = %v, want the event to finish", err)
	}
	// Entries 0 and 1 are broken: 2 seats in their own 2 games, 1 seat in
	// each of the 4 games against entry 2.
	if crashed != 8 {
		t.Errorf("%d crashed seats, want 8", crashed)
	}
}

// BenchmarkEventLeague plays a league of 40 games at concurrency 1 and 2,
// with the bots trusted and sandboxed; games per second at 2 over twice
// the figure at 1 is the pool's efficiency on a 2-core machine.
func BenchmarkEventLeague(b *testing.B) {
	for _, bench := range []struct {
		conc    int
		trusted bool
	}{{1, true}, {2, true}, {1, false}, {2, false}} {
		b.Run(fmt.Sprintf("concurrency=%d/%s", bench.conc, sandboxName(!bench.trusted)), func(b *testing.B) {
			conc := bench.conc
			games := 0
			start := time.Now()
			for b.Loop() {
				e := pingEvent(5, 2, conc, "200")
				e.Sandbox.Trusted = bench.trusted
				e.OnFinished = func(event.Game, *Outcome) error { games++; return nil }
				if err := e.Run(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(games)/time.Since(start).Seconds(), "games/s")
		})
	}
}
