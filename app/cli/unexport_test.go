package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportedEventIsLocked: "event run" and "event resume" of an event
// whose games are out in bundles exit non-zero naming the bundles and the
// ways back, the statuses say "out in a bundle", "event unexport" brings
// the games home so a run finishes the event, and a result of a bundle
// taken back is refused.
func TestExportedEventIsLocked(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	db := filepath.Join(root, "club.db")
	mustRingside(t, shardEvent(db, 5, "builtin:grip/greedy", "builtin:grip/random", "builtin:grip/greedy", "builtin:grip/random")...)
	bundles, games := exportShards(t, db, filepath.Join(root, "bundles"), 2)
	out := games[0] + games[1]
	for _, verb := range []string{"run", "resume"} {
		code, stdout, errs := ringside(t, "event", verb, "1", "--db", db, "--quiet")
		if code == 0 || !strings.Contains(errs, "event 1 is exported: "+itoa(out)+" game(s) are out in 2 bundle(s)") ||
			!strings.Contains(errs, filepath.Base(bundles[0])) || !strings.Contains(errs, filepath.Base(bundles[1])) ||
			!strings.Contains(errs, "ringside event unexport 1") || !strings.Contains(errs, "ringside event import 1") {
			t.Errorf("event %s of an exported event: exit %d, stdout %q, stderr %q", verb, code, stdout, errs)
		}
	}
	show := mustRingside(t, "event", "show", "1", "--db", db)
	if n := strings.Count(show, "out in a bundle"); n != out || strings.Contains(show, "scheduled") {
		t.Errorf("event show says %d games out in a bundle, want %d and none scheduled:\n%s", n, out, show)
	}
	if list := mustRingside(t, "event", "list", "--db", db); !strings.Contains(list, itoa(out)+" out in 2 bundle(s)") {
		t.Errorf("event list does not say the games are out:\n%s", list)
	}

	result := bundles[0] + ".result"
	mustRingside(t, "shard", "run", bundles[0], "--out", result, "--concurrency", "1", "--quiet")
	un := mustRingside(t, "event", "unexport", "1", "--db", db)
	if strings.Count(un, "took back") != 2 || !strings.Contains(un, itoa(out)+" game(s) scheduled here again") {
		t.Errorf("event unexport:\n%s", un)
	}
	if show := mustRingside(t, "event", "show", "1", "--db", db); strings.Contains(show, "out in a bundle") {
		t.Errorf("after unexport, games are still out:\n%s", show)
	}
	if code, _, errs := ringside(t, "event", "import", "1", "--db", db, result); code == 0 ||
		!strings.Contains(errs, "taken back with \"ringside event unexport 1\"") || !strings.Contains(errs, "nothing imported") {
		t.Errorf("import of a bundle taken back: exit %d, %q", code, errs)
	}
	if code, _, errs := ringside(t, "event", "unexport", "1", "--db", db); code == 0 || !strings.Contains(errs, "no bundles out") {
		t.Errorf("second unexport: exit %d, %q", code, errs)
	}
	mustRingside(t, "event", "run", "1", "--db", db, "--quiet")
	if show := mustRingside(t, "event", "show", "1", "--db", db); !strings.Contains(show, "grip league, finished)") ||
		strings.Count(show, "done") != out {
		t.Errorf("after unexport and run the event is not finished with every game done:\n%s", show)
	}
}

// TestImportFolderDeleteAndVacuum: "event import" takes a folder of result
// files at once; "event delete" deletes the event and "db vacuum" gives
// the space back, saying the sizes.
func TestImportFolderDeleteAndVacuum(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	db := filepath.Join(root, "club.db")
	mustRingside(t, shardEvent(db, 5, "builtin:grip/greedy", "builtin:grip/random", "builtin:grip/greedy", "builtin:grip/random")...)
	dir := filepath.Join(root, "bundles")
	bundles, games := exportShards(t, db, dir, 2)
	for _, b := range bundles {
		mustRingside(t, "shard", "run", b, "--out", b+".result", "--concurrency", "1", "--quiet")
	}
	empty := filepath.Join(root, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := ringside(t, "event", "import", "1", "--db", db, empty); code == 0 || !strings.Contains(errs, "holds no result files") {
		t.Errorf("import of an empty folder: exit %d, %q", code, errs)
	}
	all := itoa(games[0] + games[1])
	imp := mustRingside(t, "event", "import", "1", "--db", db, dir)
	if !strings.Contains(imp, "2 file(s), "+all+" games read: "+all+" imported") || !strings.Contains(imp, "is finished") {
		t.Errorf("import of a folder:\n%s", imp)
	}
	code, stdout, errs := ringside(t, "event", "delete", "1", "--db", db)
	if code != 0 || !strings.Contains(stdout, "event 1 deleted with its "+all+" games") {
		t.Fatalf("event delete: exit %d, %q, %q", code, stdout, errs)
	}
	if list := mustRingside(t, "event", "list", "--db", db); strings.Contains(list, "grip") {
		t.Errorf("the event is still listed:\n%s", list)
	}
	code, stdout, errs = ringside(t, "db", "vacuum", "--db", db)
	if code != 0 || !strings.Contains(errs, "vacuum: "+db) || !strings.Contains(errs, " → ") {
		t.Errorf("db vacuum: exit %d, %q, %q", code, stdout, errs)
	}
	if code, _, errs := ringside(t, "db", "vacuum", "extra", "--db", db); code != 2 || !strings.Contains(errs, "takes no arguments") {
		t.Errorf("db vacuum extra: exit %d, %q", code, errs)
	}
}
