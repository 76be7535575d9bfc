package storage

import (
	"errors"
	"strings"
	"testing"
)

func TestAIs(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	bob, err := db.AddAI(AI{Name: "bob", Game: "grip", Language: "go", SourceDir: "/src/bob", BuildCmd: "go build", RunCmd: "./bob", Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	if bob.ID == 0 || bob.Created.IsZero() {
		t.Errorf("AddAI did not fill ID and Created: %+v", bob)
	}
	if _, err := db.AddAI(AI{Name: "alice", Game: "grip", RunCmd: "python3 alice.py"}); err != nil {
		t.Fatal(err)
	}

	adds := []struct {
		name string
		ai   AI
		want string
	}{
		{"same name", AI{Name: "bob", Game: "grip"}, `an AI named "bob" already exists`},
		{"same name other case", AI{Name: "BOB", Game: "grip"}, `an AI named "BOB" already exists`},
		{"no name", AI{Name: "  ", Game: "grip"}, "needs a name"},
		{"no game", AI{Name: "carol"}, "no game"},
	}
	for _, tt := range adds {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := db.AddAI(tt.ai); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("AddAI = %v, want %q", err, tt.want)
			}
		})
	}

	list, err := db.ListAIs()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Name != "alice" || list[1] != bob {
		t.Errorf("ListAIs = %+v", list)
	}
	got, err := db.AIByName("Bob")
	if err != nil || got != bob {
		t.Errorf("AIByName(Bob) = %+v, %v; want %+v", got, err, bob)
	}
	if _, err := db.AIByName("nobody"); !errors.Is(err, ErrNotFound) {
		t.Errorf("AIByName(nobody) = %v, want ErrNotFound", err)
	}

	bob.RunCmd, bob.Missing, bob.Watch = "./bob2", true, false
	if err := db.UpdateAI(bob); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.AI(bob.ID); got != bob {
		t.Errorf("after UpdateAI: %+v, want %+v", got, bob)
	}
	ren := bob
	ren.Name = "ALICE"
	if err := db.UpdateAI(ren); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("rename onto another AI = %v", err)
	}
	if err := db.UpdateAI(AI{ID: 999, Name: "x", Game: "grip"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("UpdateAI of a missing AI = %v", err)
	}

	if err := db.RemoveAI(bob.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.RemoveAI(bob.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("second RemoveAI = %v, want ErrNotFound", err)
	}
	if list, _ := db.ListAIs(); len(list) != 1 {
		t.Errorf("after RemoveAI: %+v", list)
	}
}

func TestRevisions(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	ai, err := db.AddAI(AI{Name: "bob", Game: "grip"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CurrentRevision(ai.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("CurrentRevision before any build = %v", err)
	}
	steps := []struct {
		status BuildStatus
		hash   string
		number int
	}{
		{BuildOK, "h1", 1},
		{BuildFailed, "h2", 0},
		{BuildOK, "h3", 2},
		{BuildFailed, "h4", 0},
	}
	for _, s := range steps {
		r, err := db.AddRevision(Revision{AIID: ai.ID, Status: s.status, Hash: s.hash, BuildLog: "log " + s.hash})
		if err != nil {
			t.Fatal(err)
		}
		if r.Number != s.number {
			t.Errorf("build %s got number %d, want %d", s.hash, r.Number, s.number)
		}
	}
	revs, err := db.Revisions(ai.ID)
	if err != nil || len(revs) != 4 {
		t.Fatalf("Revisions = %d, %v", len(revs), err)
	}
	latest, err := db.CurrentRevision(ai.ID)
	if err != nil || latest.Hash != "h3" || latest.Number != 2 {
		t.Errorf("CurrentRevision = %+v, %v; want h3, the last successful build", latest, err)
	}
	if r, err := db.RevisionByHash(ai.ID, "h1"); err != nil || r.Number != 1 {
		t.Errorf("RevisionByHash(h1) = %+v, %v", r, err)
	}
	if _, err := db.RevisionByHash(ai.ID, "h2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("RevisionByHash of a failed build = %v, want ErrNotFound", err)
	}
	if r, err := db.Revision(revs[1].ID); err != nil || r != revs[1] {
		t.Errorf("Revision(id) = %+v, %v; want %+v", r, err, revs[1])
	}

	bad := []struct {
		name string
		rev  Revision
		want string
	}{
		{"no status", Revision{AIID: ai.ID}, "neither"},
		{"no AI no name", Revision{Status: BuildOK}, "needs a name"},
		{"unknown AI", Revision{AIID: 999, Status: BuildOK}, "not found"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := db.AddRevision(tt.rev); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("AddRevision = %v, want %q", err, tt.want)
			}
		})
	}

	builtin, err := db.AddRevision(Revision{Name: "builtin:grip/random", Status: BuildOK, RunCmd: "ringside bot grip/random"})
	if err != nil || builtin.Number != 0 || builtin.AIID != 0 {
		t.Errorf("AI-less revision = %+v, %v", builtin, err)
	}

	// Removing the AI removes its revisions but an event entry that used
	// one keeps its name and command.
	ev, err := db.CreateEvent(Event{Name: "e", Game: "grip", Config: cfgOf("bob", "random"), Entries: []Entry{
		{Name: "bob", RevisionID: latest.ID, Command: "./bob"},
		{Name: "random", RevisionID: builtin.ID, Command: "ringside bot grip/random"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.RemoveAI(ai.ID); err != nil {
		t.Fatal(err)
	}
	if revs, _ := db.Revisions(ai.ID); len(revs) != 0 {
		t.Errorf("revisions survive their AI: %+v", revs)
	}
	got, err := db.Event(ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if e := got.Entries[0]; e.RevisionID != 0 || e.Name != "bob" || e.Command != "./bob" {
		t.Errorf("entry after its AI was removed: %+v", e)
	}
	if e := got.Entries[1]; e.RevisionID != builtin.ID {
		t.Errorf("unrelated entry lost its revision: %+v", e)
	}
}

// TestPinAndOptions: an AI's options are saved by UpdateAI, its pin only by
// SetPin, and a pin must be a successful revision of that AI.
func TestPinAndOptions(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	a, err := db.AddAI(AI{Name: "alice", Game: "grip", Options: "coords=xy"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.AddAI(AI{Name: "bob", Game: "grip"})
	if err != nil {
		t.Fatal(err)
	}
	r1, err := db.AddRevision(Revision{AIID: a.ID, Hash: "h1", Status: BuildOK})
	if err != nil {
		t.Fatal(err)
	}
	bad, err := db.AddRevision(Revision{AIID: a.ID, Hash: "h2", Status: BuildFailed})
	if err != nil {
		t.Fatal(err)
	}
	rb, err := db.AddRevision(Revision{AIID: b.ID, Hash: "h3", Status: BuildOK})
	if err != nil {
		t.Fatal(err)
	}
	for _, rev := range []int64{bad.ID, rb.ID, 9999} {
		if err := db.SetPin(a.ID, rev); err == nil {
			t.Errorf("pin to revision %d accepted", rev)
		}
	}
	if err := db.SetPin(a.ID, r1.ID); err != nil {
		t.Fatal(err)
	}
	got, err := db.AI(a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Pinned != r1.ID || got.Options != "coords=xy" {
		t.Errorf("pinned %d options %q, want %d and coords=xy", got.Pinned, got.Options, r1.ID)
	}
	got.Options, got.Pinned = "", 0
	if err := db.UpdateAI(got); err != nil {
		t.Fatal(err)
	}
	if got, _ = db.AI(a.ID); got.Pinned != r1.ID || got.Options != "" {
		t.Errorf("after UpdateAI: pinned %d options %q; UpdateAI must keep the pin and save options", got.Pinned, got.Options)
	}
	if err := db.SetPin(a.ID, 0); err != nil {
		t.Fatal(err)
	}
	if got, _ = db.AI(a.ID); got.Pinned != 0 {
		t.Errorf("unpinned AI still pinned to %d", got.Pinned)
	}
}
