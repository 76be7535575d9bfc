package storage

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestDataDirIsPerDatabase(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	open2 := func(name string) *DB {
		db, err := Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	a, b := open2("class.db"), open2("classB.db")
	if got, want := a.DataDir(), filepath.Join(dir, "class-data"); got != want {
		t.Errorf("DataDir = %s, want %s", got, want)
	}
	samA, err := a.AddAI(AI{Name: "sam", Game: "grip"})
	if err != nil {
		t.Fatal(err)
	}
	samB, err := b.AddAI(AI{Name: "sam", Game: "grip"})
	if err != nil {
		t.Fatal(err)
	}
	if a.RevisionsDir(samA) == b.RevisionsDir(samB) {
		t.Fatalf("two databases share %s", a.RevisionsDir(samA))
	}
	tests := []struct {
		path string
		want bool
	}{
		{filepath.Join(a.DataDir(), "revisions", "sam-1", "abc"), true},
		{a.DataDir(), false},
		{filepath.Join(b.DataDir(), "revisions", "sam-1"), false},
		{filepath.Join(dir, "revisions", "sam"), false},
		{filepath.Join(a.DataDir(), "..", "elsewhere"), false},
	}
	for _, tt := range tests {
		if got := a.Owns(tt.path); got != tt.want {
			t.Errorf("Owns(%s) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

// TestRemoveRevisionFoldersKeepsOtherDatabases is the "two classes in one
// folder" case: removing sam's files in classB.db leaves class.db's sam
// alone, and old shared folders are reported, not deleted.
func TestRemoveRevisionFoldersKeepsOtherDatabases(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var dbs []*DB
	var sams []AI
	var revs [][]Revision
	for _, name := range []string{"class.db", "classB.db"} {
		db, err := Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		sam, err := db.AddAI(AI{Name: "sam", Game: "grip"})
		if err != nil {
			t.Fatal(err)
		}
		folder := filepath.Join(db.RevisionsDir(sam), "abc123")
		if err := os.MkdirAll(folder, 0o755); err != nil {
			t.Fatal(err)
		}
		r, err := db.AddRevision(Revision{AIID: sam.ID, Hash: "abc123", Status: BuildOK, ArtifactDir: folder})
		if err != nil {
			t.Fatal(err)
		}
		dbs, sams, revs = append(dbs, db), append(sams, sam), append(revs, []Revision{r})
	}
	legacy := filepath.Join(dir, "revisions", "sam", "old")
	if err := os.MkdirAll(legacy, 0o755); err != nil {
		t.Fatal(err)
	}
	withLegacy := append(revs[1], Revision{ArtifactDir: legacy})
	removed, kept, err := dbs[1].RemoveRevisionFolders(sams[1], withLegacy)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 1 || removed[0] != revs[1][0].ArtifactDir {
		t.Errorf("removed %v, want only %s", removed, revs[1][0].ArtifactDir)
	}
	if len(kept) != 1 || kept[0] != legacy {
		t.Errorf("kept %v, want the legacy folder %s", kept, legacy)
	}
	for _, p := range []string{revs[0][0].ArtifactDir, legacy} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s is gone: %v", p, err)
		}
	}
	if _, err := os.Stat(dbs[1].RevisionsDir(sams[1])); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("classB's sam folder still there: %v", err)
	}
}

func TestLockAIExcludesOtherHandles(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "r.db")
	a := openAt(t, path)
	b := openAt(t, path)
	unlock, err := a.LockAI(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := b.LockAI(ctx, 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("second lock while held = %v, want a deadline error", err)
	}
	other, err := b.LockAI(context.Background(), 2)
	if err != nil {
		t.Fatalf("another AI's lock: %v", err)
	}
	other()
	unlock()
	again, err := b.LockAI(context.Background(), 1)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	again()
}

func TestSaveBuildOneRevisionPerSource(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	ai, err := db.AddAI(AI{Name: "erin", Game: "grip"})
	if err != nil {
		t.Fatal(err)
	}
	current := func() int {
		t.Helper()
		r, err := db.CurrentRevision(ai.ID)
		if err != nil {
			t.Fatal(err)
		}
		return r.Number
	}
	r1, existed, err := db.SaveBuild(Revision{AIID: ai.ID, Hash: "h1", Status: BuildOK, ArtifactDir: "/x/h1"})
	if err != nil || existed || r1.Number != 1 {
		t.Fatalf("first build = %+v, existed %v, %v", r1, existed, err)
	}
	r2, _, err := db.SaveBuild(Revision{AIID: ai.ID, Hash: "h2", Status: BuildOK, ArtifactDir: "/x/h2"})
	if err != nil || r2.Number != 2 || current() != 2 {
		t.Fatalf("second build = %+v, %v; current %d", r2, err, current())
	}
	// The same sources from another process: the same revision, no r3.
	twin, existed, err := db.SaveBuild(Revision{AIID: ai.ID, Hash: "h2", Status: BuildOK, ArtifactDir: "/y/h2"})
	if err != nil || !existed || twin.ID != r2.ID || twin.Number != 2 || twin.ArtifactDir != "/y/h2" {
		t.Fatalf("twin = %+v, existed %v, %v", twin, existed, err)
	}
	f1, _, err := db.SaveBuild(Revision{AIID: ai.ID, Hash: "bad", Status: BuildFailed, BuildLog: "first"})
	if err != nil || current() != 2 {
		t.Fatalf("failed build = %v; current %d, want 2", err, current())
	}
	f2, existed, err := db.SaveBuild(Revision{AIID: ai.ID, Hash: "bad", Status: BuildFailed, BuildLog: "second"})
	if err != nil || !existed || f2.ID != f1.ID || f2.BuildLog != "second" {
		t.Fatalf("failed twice = %+v, existed %v, %v", f2, existed, err)
	}
	if err := db.SetCurrentRevision(ai.ID, r1.ID); err != nil || current() != 1 {
		t.Fatalf("SetCurrentRevision(r1) = %v; current %d", err, current())
	}
	if err := db.SetCurrentRevision(ai.ID, f1.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("a failed build made current: %v", err)
	}
	revs, err := db.Revisions(ai.ID)
	if err != nil || len(revs) != 3 {
		t.Errorf("revisions = %d, %v; want 3 (h1, h2, bad)", len(revs), err)
	}
	got, err := db.AI(ai.ID)
	if err != nil || got.Current != r1.ID {
		t.Errorf("AI.Current = %d, %v; want %d", got.Current, err, r1.ID)
	}
}

// TestMigrationKeepsTwinsApart opens a schema 1 database in which two
// watchers stored the same sources twice, as they could before schema 2.
func TestMigrationKeepsTwinsApart(t *testing.T) {
	t.Parallel()
	migs, err := loadMigrations(migrationFiles)
	if err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(t.TempDir(), "old.db")
	old, err := open(abs, migs[:1])
	if err != nil {
		t.Fatal(err)
	}
	ai := AI{ID: 1}
	for _, q := range []string{
		`INSERT INTO ais (id, name, game, created) VALUES (1, 'erin', 'grip', 1)`,
		`INSERT INTO revisions (ai_id, number, hash, status, created) VALUES (1, 1, 'h1', 'ok', 1)`,
		`INSERT INTO revisions (ai_id, number, hash, status, created) VALUES (1, NULL, 'bad', 'failed', 2)`,
		`INSERT INTO revisions (ai_id, number, hash, status, created) VALUES (1, NULL, 'bad', 'failed', 3)`,
		`INSERT INTO revisions (ai_id, number, hash, status, created) VALUES (1, 2, 'h2', 'ok', 4)`,
		`INSERT INTO revisions (ai_id, number, hash, status, created) VALUES (1, 3, 'h2', 'ok', 5)`,
	} {
		if _, err := old.w.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	old.Close()
	db := openAt(t, abs)
	revs, err := db.Revisions(ai.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(revs) != 4 {
		t.Errorf("%d revisions after the migration, want 4 (one failed twin dropped)", len(revs))
	}
	cur, err := db.CurrentRevision(ai.ID)
	if err != nil || cur.Number != 3 {
		t.Errorf("current = %+v, %v; want r3, the newest build", cur, err)
	}
	if r, err := db.RevisionByHash(ai.ID, "h2"); err != nil || r.Number != 2 {
		t.Errorf("h2 = %+v, %v; want r2, the first of the twins", r, err)
	}
	if _, existed, err := db.SaveBuild(Revision{AIID: ai.ID, Hash: "h2", Status: BuildOK}); err != nil || !existed {
		t.Errorf("h2 again: existed %v, %v", existed, err)
	}
}
