package app

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ringside/app/service"
	"ringside/engine"
)

// TestEventViewShowsShardsAndImportsResults: an event exported into two
// shards shows its games out and missing; importing one shard's result
// file from the event view brings its games back into the standings.
func TestEventViewShowsShardsAndImportsResults(t *testing.T) {
	t.Parallel()
	w, u := newTestUI(t)
	ev, n, err := u.Svc.CreateEvent(service.EventSpec{Name: "club league", Game: "grip", Seed: 3, SeedSet: true,
		Options: engine.Options{"max_turns": "5"}, TimeScale: 10, Concurrency: 1,
		Entries: []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/greedy", "builtin:grip/random"}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	shards, err := u.Svc.Export(service.ExportSpec{Event: ev.ID, Shards: 2, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	result := filepath.Join(dir, "first.result")
	rep, err := service.RunShard(context.Background(), service.ShardRun{Bundle: shards[0].Path, Out: result, Concurrency: 1})
	if err != nil || !rep.Complete {
		t.Fatalf("shard run: %+v, %v", rep, err)
	}
	onUI(func() { u.showEvents(ev.ID) })
	shardLine := func() string {
		var s string
		onUI(func() {
			if d := u.events.detail; d.shards.Visible() {
				s = d.shards.Text
			}
		})
		return s
	}
	out := shards[0].Games
	eventually(t, "the shards line shows the games out", func() bool {
		return strings.Contains(shardLine(), "2 bundle(s) · "+strconv.Itoa(n)+" games out · 0 back · "+strconv.Itoa(n)+" missing")
	})
	var importButtons int
	onUI(func() { importButtons = len(buttons(t, u.events.detail.body, "Import results")) })
	if importButtons != 1 {
		t.Errorf("%d Import results buttons, want 1", importButtons)
	}
	onUI(func() { u.events.detail.importFiles(ev.ID, []string{result}) })
	eventually(t, "the imported games are back", func() bool {
		return strings.Contains(shardLine(), strconv.Itoa(out)+" back · "+strconv.Itoa(n-out)+" missing")
	})
	eventually(t, "the import says what it did", func() bool {
		return strings.Contains(overlayText(t, w), strconv.Itoa(out)+" imported, 0 already there")
	})
	eventuallyUI(t, "the standings count the games", func() bool {
		return u.events.detail.loaded != nil && len(u.events.detail.loaded.Outcomes) == out
	})
}

// TestExportedEventRunIsLocked: while an event's games are out in a
// bundle, Run is disabled with the reason and how to take them back, the
// games list says "out in a bundle", and a start is refused; after
// "event unexport" Run is enabled again.
func TestExportedEventRunIsLocked(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	ev, n, err := u.Svc.CreateEvent(service.EventSpec{Name: "sent away", Game: "grip", Seed: 5, SeedSet: true,
		Options: engine.Options{"max_turns": "5"}, TimeScale: 10, Concurrency: 1,
		Entries: []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/greedy", "builtin:grip/random"}})
	if err != nil {
		t.Fatal(err)
	}
	shards, err := u.Svc.Export(service.ExportSpec{Event: ev.ID, Shards: 1, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	onUI(func() { u.showEvents(ev.ID) })
	state := func() (text string, disabled bool, shardLine, summary string) {
		onUI(func() {
			d := u.events.detail
			text, disabled, shardLine, summary = d.run.Text, d.run.Disabled(), d.shards.Text, d.games.summary.Text
		})
		return
	}
	eventually(t, "Run is disabled with the reason", func() bool {
		text, disabled, line, summary := state()
		return text == "Exported" && disabled &&
			strings.Contains(line, "Run is locked: "+strconv.Itoa(n)+" game(s) are out in 1 bundle(s)") &&
			strings.Contains(line, "ringside event unexport "+strconv.FormatInt(ev.ID, 10)) &&
			strings.Contains(summary, strconv.Itoa(n)+" out in a bundle")
	})
	// A start from elsewhere in the app (a stale button) is refused too.
	err = u.Jobs.Start(ev.ID)
	if err == nil || !strings.Contains(err.Error(), filepath.Base(shards[0].Path)) || !strings.Contains(err.Error(), "event unexport") {
		t.Fatalf("Jobs.Start of an exported event: %v, want a refusal naming the bundle and event unexport", err)
	}
	rep, err := u.Svc.Unexport(ev.ID)
	if err != nil || rep.Games != n || len(rep.Shards) != 1 {
		t.Fatalf("Unexport: %+v, %v; want %d games of 1 bundle back", rep, err, n)
	}
	onUI(func() { u.events.detail.refreshNow() })
	eventually(t, "Run is enabled again", func() bool {
		text, disabled, line, summary := state()
		return text == "Run" && !disabled && !strings.Contains(line, "locked") && !strings.Contains(summary, "out in a bundle")
	})
}
