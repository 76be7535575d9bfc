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
		return u.events.detail.loaded != nil && len(u.events.detail.loaded.outcomes) == out
	})
}
