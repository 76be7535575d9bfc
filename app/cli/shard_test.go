package cli

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"ringside/engine"
	"ringside/runner"
)

// shardEvent is "event create" of a small Grip league; the time scale
// keeps a loaded machine from turning a slow moment into a timeout, which
// would make the same game end differently here and there.
func shardEvent(db string, turns int, entries ...string) []string {
	// Named: the default name has the minute it was created in, which two
	// databases' events need not share.
	args := []string{"event", "create", "--db", db, "--game", "grip", "--name", "shards", "--seed", "42", "--opt", "max_turns=" + strconv.Itoa(turns),
		"--time-scale", "10", "--concurrency", "1"}
	for _, e := range entries {
		args = append(args, "--entry", e)
	}
	return args
}

var bundleName = regexp.MustCompile(`(?m)^(\S+\.zip)\t(\d+) games$`)

// exportShards exports event 1 of db into n bundles and returns their
// paths and game counts.
func exportShards(t testing.TB, db, dir string, n int) ([]string, []int) {
	t.Helper()
	out := mustRingside(t, "event", "export", "1", "--db", db, "--shards", itoa(n), "--out", dir)
	var paths []string
	var games []int
	for _, m := range bundleName.FindAllStringSubmatch(out, -1) {
		paths = append(paths, m[1])
		games = append(games, atoi(t, m[2]))
	}
	if len(paths) != n {
		t.Fatalf("export wrote %d bundles, want %d:\n%s", len(paths), n, out)
	}
	return paths, games
}

// itoa is strconv.Itoa, short for argument lists.
func itoa(n int) string { return strconv.Itoa(n) }

func atoi(t testing.TB, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// matchLines counts the games in a result file (its whole lines after
// the header).
func matchLines(t *testing.T, path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	return strings.Count(string(data), `{"kind":"match"`) - strings.Count(string(data[bytes.LastIndexByte(data, '\n')+1:]), `{"kind":"match"`)
}

// eventPicture is everything of event 1 that must not depend on where
// its games were played: the schedule with every result, the standings,
// and every replay with its times set to zero (the only thing that
// differs between two runs of the same game).
func eventPicture(t *testing.T, db string) (show, standings string, replays map[string]engine.Replay) {
	t.Helper()
	show = mustRingside(t, "event", "show", "1", "--db", db)
	standings = mustRingside(t, "event", "standings", "1", "--db", db, "--json")
	replays = map[string]engine.Replay{}
	// The games are the rows under the MATCH header.
	_, rows, ok := strings.Cut(show, "\nMATCH")
	if !ok {
		t.Fatalf("event show has no MATCH header:\n%s", show)
	}
	for _, line := range strings.Split(rows, "\n")[1:] {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		var rp engine.Replay
		if err := json.Unmarshal([]byte(mustRingside(t, "replay", "export", f[0], "--db", db)), &rp); err != nil {
			t.Fatal(err)
		}
		for i := range rp.Steps {
			for j := range rp.Steps[i].Seats {
				rp.Steps[i].Seats[j].Millis = 0
			}
		}
		replays[f[0]] = rp
	}
	return show, standings, replays
}

// TestShardsPlayAsAtHome is the whole story through the real
// binary: an event with a registered AI (with an option of its own seat,
// coords=xy) exported into 3 shards, each run
// (one killed with SIGKILL halfway and run again), the results imported;
// standings, every result and every replay are those of the same event
// played at home with the same seed.
func TestShardsPlayAsAtHome(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	src := filepath.Join(root, "erin")
	home, away := filepath.Join(root, "home.db"), filepath.Join(root, "away.db")
	addPyBot(t, src, "erin", home, away)
	for _, db := range []string{home, away} {
		// An option of erin's own seat must reach the worker and come back.
		mustRingside(t, "ai", "edit", "erin", "--option", "coords=xy", "--db", db)
		mustRingside(t, shardEvent(db, 40, "erin", "builtin:grip/greedy", "builtin:grip/random", "builtin:grip/greedy", "builtin:grip/random")...)
	}
	mustRingside(t, "event", "run", "1", "--db", home, "--quiet")

	bundles, games := exportShards(t, away, filepath.Join(root, "bundles"), 3)
	if code, _, errs := ringside(t, "event", "export", "1", "--db", away, "--shards", "3", "--out", filepath.Join(root, "again")); code == 0 ||
		!strings.Contains(errs, "nothing new to export") {
		t.Errorf("second export: exit %d, %q; want nothing sent twice", code, errs)
	}
	// The bundle carries erin's built folder, checked on arrival.
	broken := filepath.Join(root, "broken.zip")
	rewriteZip(t, bundles[0], broken, func(name string, data []byte) []byte {
		if strings.HasSuffix(name, "bot.py") {
			return append(data, []byte("\n# changed on the way\n")...)
		}
		return data
	})
	if code, _, errs := ringside(t, "shard", "run", broken, "--out", broken+".result"); code != 2 ||
		!strings.Contains(errs, "is damaged") || !strings.Contains(errs, "bot.py does not match its checksum") {
		t.Errorf("damaged bundle: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(broken + ".result"); err == nil {
		t.Errorf("a refused bundle left a result file")
	}

	results := make([]string, len(bundles))
	for i, b := range bundles {
		results[i] = b + ".result"
		if i != 1 {
			mustRingside(t, "shard", "run", b, "--out", results[i], "--concurrency", "1")
			continue
		}
		killHalfway(t, b, results[i], games[i])
		out := mustRingside(t, "shard", "run", b, "--out", results[i], "--concurrency", "1")
		if !strings.Contains(out, "resuming") || !strings.Contains(out, "from an earlier run") {
			t.Errorf("second run of the killed shard:\n%s", out)
		}
	}
	for i, r := range results {
		if n := matchLines(t, r); n != games[i] {
			t.Errorf("%s holds %d games, want %d (each once)", r, n, games[i])
		}
	}
	out := mustRingside(t, "event", "import", "1", "--db", away, results[2], results[0], results[1])
	if !strings.Contains(out, "40 imported, 0 already there") || !strings.Contains(out, "40 back, 0 missing") || !strings.Contains(out, "is finished") {
		t.Errorf("import:\n%s", out)
	}
	wantShow, wantStandings, wantReplays := eventPicture(t, home)
	show, standings, replays := eventPicture(t, away)
	if show != wantShow {
		t.Errorf("results differ from the event played at home:\nshards:\n%s\nhome:\n%s", show, wantShow)
	}
	if standings != wantStandings {
		t.Errorf("standings differ:\nshards:\n%s\nhome:\n%s", standings, wantStandings)
	}
	if len(replays) != 40 {
		t.Errorf("%d replays, want 40", len(replays))
	}
	for id, rp := range wantReplays {
		if !reflect.DeepEqual(replays[id], rp) {
			t.Errorf("replay of match %s differs from home's", id)
		}
	}
	// Importing again, in any order and overlap, changes nothing.
	out = mustRingside(t, "event", "import", "1", "--db", away, results[1], results[0], results[1], results[2])
	if !strings.Contains(out, "0 imported") {
		t.Errorf("second import:\n%s", out)
	}
	if again, _, _ := eventPicture(t, away); again != show {
		t.Errorf("a second import changed the event")
	}
}

// killHalfway starts a shard run, SIGKILLs it once about half its games
// are in the result file, and checks that it left a half-done file.
func killHalfway(t *testing.T, bundle, result string, games int) {
	t.Helper()
	exe, err := runner.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "shard", "run", bundle, "--out", result, "--concurrency", "1")
	cmd.Env = append(os.Environ(), "LANG=C.UTF-8")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for matchLines(t, result) < games/2 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the shard run wrote %d of %d games in a minute", matchLines(t, result), games)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if n := matchLines(t, result); n == 0 || n >= games {
		t.Fatalf("killed run left %d of %d games; want a half-done file", n, games)
	}
}

// rewriteZip copies a zip file, passing each member through change.
func rewriteZip(t *testing.T, from, to string, change func(name string, data []byte) []byte) {
	t.Helper()
	zr, err := zip.OpenReader(from)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		hdr := f.FileHeader
		w, err := zw.CreateHeader(&hdr)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(change(f.Name, data))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// editResult copies a result file, passing each game's line, decoded,
// through change with its number (0, 1, …), and the header with -1.
func editResult(t *testing.T, from, to string, change func(n int, line map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	n := 0
	for sc.Scan() {
		var line map[string]any
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.UseNumber() // seeds are int64
		if err := dec.Decode(&line); err != nil {
			t.Fatal(err)
		}
		switch {
		case line["format"] != nil:
			change(-1, line) // the header
		case line["kind"] == "match":
			change(n, line)
			n++
		}
		b, _ := json.Marshal(line)
		out.Write(append(b, '\n'))
	}
	if err := os.WriteFile(to, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// swapRanks changes who won a game: the seats ranked 1 and last trade.
func swapRanks(ranks []any) {
	best, worst := 0, 0
	rank := func(i int) string { return string(ranks[i].(json.Number)) }
	for i := range ranks {
		if rank(i) < rank(best) {
			best = i
		}
		if rank(i) > rank(worst) {
			worst = i
		}
	}
	ranks[best], ranks[worst] = ranks[worst], ranks[best]
}

// TestImportRefusesTamperedAndForeignResults: a result whose rank was
// changed (in the result alone, or in the replay's too) and a result of
// another event are refused with a message naming the problem, and the
// database is left as it was.
func TestImportRefusesTamperedAndForeignResults(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	db := filepath.Join(root, "club.db")
	bots := []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/greedy", "builtin:grip/random"}
	mustRingside(t, shardEvent(db, 40, bots...)...)
	mustRingside(t, append(shardEvent(db, 40, bots...), "--name", "the other one")...)
	bundles, games := exportShards(t, db, filepath.Join(root, "b"), 1)
	result := filepath.Join(root, "r.result")
	mustRingside(t, "shard", "run", bundles[0], "--out", result, "--concurrency", "1")

	before1 := mustRingside(t, "event", "show", "1", "--db", db)
	before2 := mustRingside(t, "event", "show", "2", "--db", db)
	unchanged := func(what string) {
		t.Helper()
		if mustRingside(t, "event", "show", "1", "--db", db) != before1 || mustRingside(t, "event", "show", "2", "--db", db) != before2 {
			t.Errorf("%s: a refused import changed the database", what)
		}
		if out := mustRingside(t, "event", "list", "--db", db); strings.Contains(out, "/") && !strings.Contains(out, "0/"+itoa(games[0])) {
			t.Errorf("%s: games were stored:\n%s", what, out)
		}
	}

	tamperedRank := filepath.Join(root, "rank.result")
	editResult(t, result, tamperedRank, func(n int, line map[string]any) {
		if n == 3 {
			swapRanks(line["result"].(map[string]any)["ranks"].([]any))
		}
	})
	tamperedBoth := filepath.Join(root, "both.result")
	editResult(t, result, tamperedBoth, func(n int, line map[string]any) {
		if n == 3 {
			ranks := line["result"].(map[string]any)["ranks"].([]any)
			swapRanks(ranks)
			line["log"].(map[string]any)["result"].(map[string]any)["ranks"] = ranks
		}
	})
	otherRevision := filepath.Join(root, "revision.result")
	editResult(t, result, otherRevision, func(n int, line map[string]any) {
		if n == -1 {
			line["entries"].([]any)[1].(map[string]any)["hash"] = "0123456789abcdef"
		}
	})
	otherOptions := filepath.Join(root, "options.result")
	editResult(t, result, otherOptions, func(n int, line map[string]any) {
		if n == -1 {
			line["entries"].([]any)[0].(map[string]any)["options"] = "coords=xy"
		}
	})
	seatOption := filepath.Join(root, "seat.result")
	editResult(t, result, seatOption, func(n int, line map[string]any) {
		if n == 2 {
			line["log"].(map[string]any)["options"].(map[string]any)["coords@1"] = "xy"
		}
	})
	for _, tt := range []struct {
		name  string
		event string
		files []string
		want  []string
	}{
		{"other options", "1", []string{otherOptions}, []string{`entry 1 (builtin:grip/greedy) was played with options "coords=xy"`, "export again with --resend", "nothing imported"}},
		{"a seat played with an option", "1", []string{seatOption}, []string{"seat.result: match 3 (game 3)", `"coords@1":"xy"`, "nothing imported"}},
		{"changed rank", "1", []string{result, tamperedRank}, []string{"rank.result: match 4 (game 4)", "re-simulates to ranks", "nothing imported"}},
		{"changed rank in the replay too", "1", []string{tamperedBoth}, []string{"both.result: match 4 (game 4)", "re-simulates to ranks", "nothing imported"}},
		{"another event", "2", []string{result}, []string{"holds results of event 1", "not of event 2", "ringside event import 1", "nothing imported"}},
		{"other revisions", "1", []string{otherRevision}, []string{"entry 2 was played as builtin:grip/random", "hash 0123456789ab", "the shard played other revisions", "nothing imported"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := ringside(t, append([]string{"event", "import", tt.event, "--db", db}, tt.files...)...)
			if code != 2 || strings.Count(errs, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 with one line", code, out, errs)
			}
			for _, w := range tt.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q lacks %q", errs, w)
				}
			}
			unchanged(tt.name)
		})
	}
	// An event that does not exist is named as such, not as one to stop.
	for _, args := range [][]string{{"event", "import", "9", "--db", db, result}, {"event", "export", "9", "--db", db, "--shards", "2", "--out", filepath.Join(root, "x")}} {
		code, _, errs := ringside(t, args...)
		if code != 1 || !strings.Contains(errs, "there is no event 9") || !strings.Contains(errs, `"ringside event list" shows the events`) || strings.Contains(errs, "stop") {
			t.Errorf("%v: exit %d, %q; want exit 1 saying there is no event 9", args, code, errs)
		}
	}
	// The genuine file still goes in.
	if out := mustRingside(t, "event", "import", "1", "--db", db, result); !strings.Contains(out, itoa(games[0])+" imported") {
		t.Errorf("genuine import:\n%s", out)
	}
}

// TestShardRunRefusesAnotherBundlesResult: --out naming the result of
// another bundle, or a file that is no result, is refused untouched.
func TestShardRunRefusesAnotherBundlesResult(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	db := filepath.Join(root, "club.db")
	mustRingside(t, shardEvent(db, 3, "builtin:grip/greedy", "builtin:grip/random", "builtin:grip/greedy", "builtin:grip/random")...)
	bundles, _ := exportShards(t, db, filepath.Join(root, "b"), 2)
	r0 := filepath.Join(root, "r0")
	mustRingside(t, "shard", "run", bundles[0], "--out", r0, "--concurrency", "1")
	before, _ := os.ReadFile(r0)
	if code, _, errs := ringside(t, "shard", "run", bundles[1], "--out", r0); code != 2 || !strings.Contains(errs, "result of another bundle (shard 1 of 2") ||
		strings.Contains(errs, "run the same command again") {
		t.Errorf("exit %d, %q", code, errs)
	}
	notes := filepath.Join(root, "notes.txt")
	os.WriteFile(notes, []byte("my notes, no newline"), 0o644)
	if code, _, errs := ringside(t, "shard", "run", bundles[1], "--out", notes); code != 2 || !strings.Contains(errs, "not a Ringside shard result file") {
		t.Errorf("exit %d, %q", code, errs)
	}
	if after, _ := os.ReadFile(r0); !bytes.Equal(before, after) {
		t.Errorf("a refused run changed the other bundle's result")
	}
	if after, _ := os.ReadFile(notes); string(after) != "my notes, no newline" {
		t.Errorf("a refused run changed %s: %q", notes, after)
	}
}

// erinEvent makes a new folder with a database in it, the Python AI erin
// and a 10-game Grip event of erin against built-in bots.
func erinEvent(t *testing.T) (root, db string) {
	t.Helper()
	root = t.TempDir()
	db = filepath.Join(root, "club.db")
	addPyBot(t, filepath.Join(root, "erin"), "erin", db)
	mustRingside(t, shardEvent(db, 10, "erin", "builtin:grip/greedy", "builtin:grip/random", "builtin:grip/greedy")...)
	return root, db
}

// TestShardRunRefusesAWorkerWithoutARuntime: a worker that lacks a
// program a bot's run command starts (here python3, hidden by PATH) is
// refused before any game, naming the entry and the program, instead of
// playing every game of that bot as a crash that would import as real.
func TestShardRunRefusesAWorkerWithoutARuntime(t *testing.T) {
	t.Parallel()
	exe, err := runner.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root, db := erinEvent(t)
	bundles, _ := exportShards(t, db, filepath.Join(root, "b"), 1)
	result := filepath.Join(root, "r.result")
	cmd := exec.Command(exe, "shard", "run", bundles[0], "--out", result)
	cmd.Env = append(os.Environ(), "LANG=C.UTF-8", "PATH="+t.TempDir())
	var errs bytes.Buffer
	cmd.Stderr = &errs
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("shard run without python3: %v, want exit 1", err)
	}
	for _, want := range []string{"entry erin r1 runs python3", "not installed on this machine", "apt-get install python3", "nothing was played"} {
		if !strings.Contains(errs.String(), want) {
			t.Errorf("stderr %q lacks %q", errs.String(), want)
		}
	}
	if strings.Contains(errs.String(), "run the same command again") {
		t.Errorf("stderr %q says to run again, which would fail the same way", errs.String())
	}
	if _, err := os.Stat(result); err == nil {
		t.Errorf("a refused run left a result file")
	}
}

// TestGNUParallelRecipe runs docs/distributed.md's GNU parallel command on
// this machine, with the local sshlogin ":" and 2 job slots: bundles in,
// results back, imported. The recipe names bundles and results relative
// to the bundles' folder, as every worker does; a registered AI must
// start from its unpacked folder there like the built-in bots.
func TestGNUParallelRecipe(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("parallel"); err != nil {
		t.Skip("GNU parallel is not installed (Debian package \"parallel\"; .ci/run installs it): skipping the recipe test")
	}
	exe, err := runner.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root, db := erinEvent(t)
	dir := filepath.Join(root, "bundles")
	bundles, _ := exportShards(t, db, dir, 4)
	args := []string{"--will-cite", "-S", "2/:", "--joblog", filepath.Join(root, "shards.log"), "--trc", "{}.result",
		"ringside", "shard", "run", "{}", "--out", "{}.result", "--concurrency", "1", "--quiet", ":::"}
	for _, b := range bundles {
		args = append(args, filepath.Base(b))
	}
	cmd := exec.Command("parallel", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LANG=C.UTF-8", "PATH="+filepath.Dir(exe)+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("parallel: %v\n%s", err, out)
	}
	results, _ := filepath.Glob(filepath.Join(dir, "*.result"))
	if len(results) != 4 {
		t.Fatalf("%d result files came back, want 4:\n%s", len(results), out)
	}
	for _, r := range results {
		data, err := os.ReadFile(r)
		if err != nil {
			t.Fatal(err)
		}
		if m := failedStart.Find(data); m != nil {
			t.Errorf("%s: a bot did not start on the worker: %s", filepath.Base(r), m)
		}
	}
	imported := mustRingside(t, append([]string{"event", "import", "1", "--db", db}, results...)...)
	if !strings.Contains(imported, "48 imported") || !strings.Contains(imported, "is finished") {
		t.Errorf("import:\n%s", imported)
	}
}

// failedStart finds, in a result file, a seat whose program could not be
// started.
var failedStart = regexp.MustCompile(`"x":"cannot start(\\.|[^"\\])*"`)

// BenchmarkShardRun plays the same 40 Grip games (5 entries, 4 seats, 60
// turns at most, one game at a time) with a local "ringside event run"
// and with "ringside shard run" of the event exported into one bundle,
// through the real binary, one right after the other in every iteration
// so that both see the same load of a shared machine. games/s of the two
// should be equal within noise: the bundle costs nothing at play time.
// Creating and exporting the events is not timed.
func BenchmarkShardRun(b *testing.B) {
	entries := []string{"builtin:grip/greedy", "builtin:grip/random", "builtin:grip/greedy", "builtin:grip/random", "builtin:grip/greedy"}
	const games = 40
	exe, err := runner.Executable()
	if err != nil {
		b.Fatal(err)
	}
	// Not ringside(): a loaded machine may take longer than its limit.
	timed := func(args ...string) time.Duration {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, exe, args...)
		cmd.Env = append(os.Environ(), "LANG=C.UTF-8")
		began := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("ringside %v: %v\n%s", args, err, out)
		}
		return time.Since(began)
	}
	var local, shard time.Duration
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		home, away := filepath.Join(dir, "home.db"), filepath.Join(dir, "away.db")
		mustRingside(b, shardEvent(home, 60, entries...)...)
		mustRingside(b, shardEvent(away, 60, entries...)...)
		bundles, n := exportShards(b, away, filepath.Join(dir, "b"), 1)
		if n[0] != games {
			b.Fatalf("%d games in the bundle, want %d", n[0], games)
		}
		b.StartTimer()
		local += timed("event", "run", "1", "--db", home, "--quiet")
		shard += timed("shard", "run", bundles[0], "--out", filepath.Join(dir, "r"), "--concurrency", "1", "--quiet")
	}
	b.ReportMetric(float64(games*b.N)/local.Seconds(), "event-run-games/s")
	b.ReportMetric(float64(games*b.N)/shard.Seconds(), "shard-run-games/s")
	b.ReportMetric(local.Seconds()/shard.Seconds(), "shard/event-speed")
}
