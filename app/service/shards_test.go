package service

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"ringside/app/internal/fixture"
	"ringside/engine"
	"ringside/engine/games"
	"ringside/storage"
)

// writeResults plays every game of the bundles in process and writes
// their result files, as "ringside shard run" would.
func writeResults(tb testing.TB, bundles []ExportedShard, logs map[int64]*engine.Log, mu *sync.Mutex) []string {
	tb.Helper()
	var files []string
	for _, sh := range bundles {
		b, err := OpenBundle(sh.Path)
		if err != nil {
			tb.Fatal(err)
		}
		man := b.Manifest
		b.Close()
		g, err := games.Get(man.Play.Game)
		if err != nil {
			tb.Fatal(err)
		}
		lines := make([]ResultLine, len(man.Games))
		var wg sync.WaitGroup
		next := make(chan int)
		for range runtime.NumCPU() {
			wg.Go(func() {
				for i := range next {
					sg := man.Games[i]
					mu.Lock()
					log := logs[sg.Seed]
					mu.Unlock()
					players := make([]string, len(sg.Seats))
					bots := make([]string, len(sg.Seats))
					for k, e := range sg.Seats {
						players[k] = man.Entries[e].Name
						_, bots[k], _ = strings.Cut(man.Entries[e].Command, "/")
					}
					if log == nil {
						log = fixture.PlayLog(tb, g, man.Play.Options, sg.Seed, players, bots, func(a engine.Ask, _ int) (time.Duration, string) {
							return time.Duration(300+a.Seat*17) * time.Microsecond, ""
						})
						mu.Lock()
						logs[sg.Seed] = log
						mu.Unlock()
					}
					// Seat orders of one seed share the game but not the players.
					l := *log
					l.Players = players
					res := l.Result
					lines[i] = ResultLine{Kind: "match", Machine: "bench", Match: sg.Match, Index: sg.Index, Seed: sg.Seed,
						Seats: sg.Seats, Result: &res, Problems: make([]storage.Problems, len(sg.Seats)), Millis: 50, Log: &l}
				}
			})
		}
		for i := range man.Games {
			next <- i
		}
		close(next)
		wg.Wait()
		p := sh.Path + ".result"
		f, err := os.Create(p)
		if err != nil {
			tb.Fatal(err)
		}
		w := bufio.NewWriter(f)
		enc := json.NewEncoder(w)
		enc.Encode(ResultHeader{Format: ResultFormat, Token: man.Token, Event: man.Event, Shard: man.Shard, Of: man.Of, Entries: man.Entries})
		for _, l := range lines {
			enc.Encode(l)
		}
		if err := w.Flush(); err != nil {
			tb.Fatal(err)
		}
		f.Close()
		files = append(files, p)
	}
	return files
}

// BenchmarkExportImport10k exports a 10,000-game Grip league into 4
// shards and imports their result files (every replay re-simulated):
// seconds, not minutes, is the goal. The results are made in process
// (not timed); the same seeds' games are reused across iterations.
func BenchmarkExportImport10k(b *testing.B) {
	logs := map[int64]*engine.Log{}
	var mu sync.Mutex
	var exportTime, importTime, exportCPU, importCPU time.Duration
	var games int
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		s, err := Open(filepath.Join(dir, "club.db"))
		if err != nil {
			b.Fatal(err)
		}
		// 5 entries in 4 seats: 20 games a cycle.
		ev, n, err := s.CreateEvent(EventSpec{Game: "grip", Seed: 1, SeedSet: true, Games: 500,
			Options: engine.Options{"max_turns": "200"},
			Entries: []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/greedy", "builtin:grip/random", "builtin:grip/greedy"}})
		if err != nil {
			b.Fatal(err)
		}
		games = n
		b.StartTimer()
		began, cpu := time.Now(), cpuTime()
		bundles, err := s.Export(ExportSpec{Event: ev.ID, Shards: 4, Dir: filepath.Join(dir, "bundles")})
		exportTime, exportCPU = exportTime+time.Since(began), exportCPU+cpuTime()-cpu
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		files := writeResults(b, bundles, logs, &mu)
		b.StartTimer()
		began, cpu = time.Now(), cpuTime()
		rep, err := s.Import(ev.ID, files)
		importTime, importCPU = importTime+time.Since(began), importCPU+cpuTime()-cpu
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if rep.Imported != n || !rep.Finished {
			b.Fatalf("import: %+v, want %d games and the event finished", rep, n)
		}
		s.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(games), "games")
	b.ReportMetric(exportTime.Seconds()/float64(b.N), "export-s")
	b.ReportMetric(importTime.Seconds()/float64(b.N), "import-s")
	// On a machine shared with other work the wall times above mostly
	// measure the others; the CPU time this process spent does not.
	b.ReportMetric(exportCPU.Seconds()/float64(b.N), "export-cpu-s")
	b.ReportMetric(importCPU.Seconds()/float64(b.N), "import-cpu-s")
}

// TestRunShardResumesAndRefusesDamage: a bundle whose manifest was
// changed is refused; a result file cut in the middle of a line (a
// killed run) is resumed without the cut line, and nothing is played
// twice.
func TestRunShardResumesAndRefusesDamage(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	dir := t.TempDir()
	ev, n, err := s.CreateEvent(EventSpec{Game: "grip", Seed: 9, SeedSet: true, TimeScale: 10, Concurrency: 1,
		Options: engine.Options{"max_turns": "5"},
		Entries: []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/greedy", "builtin:grip/random"}})
	if err != nil {
		t.Fatal(err)
	}
	bundles, err := s.Export(ExportSpec{Event: ev.ID, Shards: 1, Dir: filepath.Join(dir, "b")})
	if err != nil || len(bundles) != 1 || bundles[0].Games != n {
		t.Fatalf("export: %v, %v", bundles, err)
	}
	if c, err := s.ShardCounts(ev.ID); err != nil || c != (storage.ShardCounts{Shards: 1, Out: n, Missing: n}) {
		t.Errorf("counts after export = %+v, %v", c, err)
	}
	out := filepath.Join(dir, "r")
	if _, err := RunShard(context.Background(), ShardRun{Bundle: bundles[0].Path, Out: out, Concurrency: 1}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(out)
	lines := strings.SplitAfter(string(data), "\n")
	// Keep the header and 3 games, and half of the 4th game's line.
	cut := strings.Join(lines[:4], "") + lines[4][:len(lines[4])/2]
	if err := os.WriteFile(out, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := RunShard(context.Background(), ShardRun{Bundle: bundles[0].Path, Out: out, Concurrency: 1})
	if err != nil || rep.Earlier != 3 || rep.Played != n-3 || !rep.Complete {
		t.Fatalf("resumed run: %+v, %v; want 3 kept and %d played", rep, err, n-3)
	}
	hdr, got, err := ReadResultFile(out)
	if err != nil || hdr.Token == "" {
		t.Fatal(hdr, err)
	}
	seen := map[int64]int{}
	for _, l := range got {
		if l.Kind == "match" {
			seen[l.Match]++
		}
	}
	if len(seen) != n {
		t.Errorf("%d games in the result, want %d", len(seen), n)
	}
	for id, k := range seen {
		if k != 1 {
			t.Errorf("match %d is in the result %d times", id, k)
		}
	}
	imp, err := s.Import(ev.ID, []string{out, out})
	if err != nil || imp.Imported != n || imp.Kept != n || !imp.Finished {
		t.Errorf("import = %+v, %v", imp, err)
	}
	if c, err := s.ShardCounts(ev.ID); err != nil || c != (storage.ShardCounts{Shards: 1, Out: n, Back: n}) {
		t.Errorf("counts after import = %+v, %v", c, err)
	}
	if _, err := s.Export(ExportSpec{Event: ev.ID, Shards: 1, Dir: filepath.Join(dir, "again")}); ErrorCode(err) != Conflict {
		t.Errorf("export of a finished event: %v", err)
	}
}

// FuzzReadResult: no input makes the result reader panic, and what it
// keeps of a file is whole lines.
func FuzzReadResult(f *testing.F) {
	hdr, _ := json.Marshal(ResultHeader{Format: ResultFormat, Token: "t"})
	f.Add(string(hdr) + "\n" + `{"kind":"match","match":1,"index":0,"result":{"ranks":[1,2]}}` + "\n")
	f.Add(string(hdr) + "\n" + `{"kind":"run","machine":"x"}` + "\n" + `{"kind":"ma`)
	f.Add(`{"format":"ringside-shard-result/1"`)
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		h, lines, good, err := readResult(bufio.NewReader(strings.NewReader(s)), "fuzz")
		if err != nil {
			return
		}
		if good > int64(len(s)) || (good > 0 && s[good-1] != '\n') {
			t.Errorf("kept %d bytes of %q: not whole lines", good, s)
		}
		if h == nil && len(lines) > 0 {
			t.Errorf("lines without a header")
		}
		_ = fmt.Sprint(lines)
	})
}

// TestExportAdaptiveRoundsAndResend: a Swiss event goes out a round at a
// time (the next round exists once the one before is imported), and
// --resend sends again the games still out.
func TestExportAdaptiveRoundsAndResend(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	dir := t.TempDir()
	ev, first, err := s.CreateEvent(EventSpec{Game: "battle2048", Format: "swiss", Games: 2, Seed: 4, SeedSet: true,
		TimeScale: 10, Options: engine.Options{"rounds": "15"},
		Entries: []string{"builtin:battle2048/greedy", "builtin:battle2048/random", "builtin:battle2048/greedy", "builtin:battle2048/random"}})
	if err != nil {
		t.Fatal(err)
	}
	b1, err := s.Export(ExportSpec{Event: ev.ID, Shards: 2, Dir: filepath.Join(dir, "r1")})
	if err != nil || len(b1) != 2 || b1[0].Games+b1[1].Games != first {
		t.Fatalf("export of round 1: %+v, %v; want %d games", b1, err, first)
	}
	if _, err := s.Export(ExportSpec{Event: ev.ID, Shards: 2, Dir: filepath.Join(dir, "none")}); ErrorCode(err) != Conflict ||
		!strings.Contains(err.Error(), "--resend") {
		t.Errorf("export with every game out: %v", err)
	}
	again, err := s.Export(ExportSpec{Event: ev.ID, Shards: 1, Dir: filepath.Join(dir, "again"), Resend: true})
	if err != nil || len(again) != 1 || again[0].Games != first {
		t.Fatalf("--resend: %+v, %v", again, err)
	}
	var results []string
	for i, b := range append(b1, again...) {
		out := filepath.Join(dir, fmt.Sprintf("r%d.result", i))
		if _, err := RunShard(context.Background(), ShardRun{Bundle: b.Path, Out: out, Concurrency: 1}); err != nil {
			t.Fatal(err)
		}
		results = append(results, out)
	}
	rep, err := s.Import(ev.ID, results)
	if err != nil || rep.Imported != first || rep.Kept != first || rep.Next == 0 || rep.Finished {
		t.Fatalf("import of round 1 = %+v, %v; want %d imported, %d kept and round 2 scheduled", rep, err, first, first)
	}
	// Round 2 into round 1's folder would mix the two exports' bundles
	// for a job array over that folder: refused, and nothing is sent.
	before, err := s.db.OutMatches(ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Export(ExportSpec{Event: ev.ID, Shards: 3, Dir: filepath.Join(dir, "r1")}); ErrorCode(err) != Conflict ||
		!strings.Contains(err.Error(), "already holds 2 bundles of an earlier export") {
		t.Errorf("export into a used folder: %v", err)
	}
	if out, err := s.db.OutMatches(ev.ID); err != nil || len(out) != len(before) {
		t.Errorf("a refused export sent games: %d out before, %d after (%v)", len(before), len(out), err)
	}
	b2, err := s.Export(ExportSpec{Event: ev.ID, Shards: 3, Dir: filepath.Join(dir, "r2")})
	if err != nil || len(b2) == 0 {
		t.Fatalf("export of round 2: %v", err)
	}
	n := 0
	for _, b := range b2 {
		n += b.Games
	}
	if n != rep.Next {
		t.Errorf("round 2 sent %d games, want the %d scheduled", n, rep.Next)
	}
}
