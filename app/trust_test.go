package app

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"ringside/app/internal/fixture"
	"ringside/app/service"
)

// TestAIsScreenAfterARevert: the AIs screen and its Check name and play
// the revision whose sources came back, as the CLI does.
func TestAIsScreenAfterARevert(t *testing.T) {
	fixture.NeedPython(t)
	w, u, s := newAIsTestUI(t)
	src := filepath.Join(t.TempDir(), "erin")
	fixture.WriteFiles(t, src, map[string]string{"bot.py": fixture.PyBot(1)})
	reg, err := u.Svc.Register(service.NewAI{Name: "erin", Game: "grip", Dir: src})
	if err != nil {
		t.Fatal(err)
	}
	id := reg.AI.ID
	build := func(content string) service.BuildOutcome {
		t.Helper()
		fixture.WriteFiles(t, src, map[string]string{"bot.py": content})
		out, err := u.Svc.Build(context.Background(), id, service.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	build(fixture.PyBot(1))
	build(fixture.PyBot(2))
	build(fixture.PyBot(3))
	build(fixture.PyBot(3) + "\nthis is not python(\n")
	if out := build(fixture.PyBot(1)); !out.Unchanged || out.Rev.Number != 1 {
		t.Fatalf("the revert built %+v", out.Rev)
	}
	s.reload()
	eventually(t, "erin shows revision 1 as current", func() bool {
		r := rowText(s, "erin")
		return r != nil && strings.HasPrefix(r[3], "r1 · ")
	})
	onUI(func() {
		s.selectAI(id)
		test.Tap(s.check)
	})
	eventually(t, "the check tested revision 1", func() bool {
		text := overlayText(t, w)
		// Whether the short game passes on a loaded machine is not the
		// point here: which revision it played is.
		return strings.Contains(text, "Check of erin (grip, revision 1,") && strings.Contains(text, "starts")
	})
}

// TestCreateEventDialogRefusesEntriesThatCannotStart: the New event
// dialog goes through the same check as "event create".
func TestCreateEventDialogRefusesEntriesThatCannotStart(t *testing.T) {
	w, u := newTestUI(t)
	var f *createEventForm
	onUI(func() {
		f = newCreateEventForm(u, nil)
		f.game.SetSelected("grip")
		f.entrants.SetSelected([]string{"builtin:grip/greedy"})
		f.commands.SetText("zed=pyhton3 bot.py")
		f.create()
	})
	eventually(t, "the refusal is shown", func() bool {
		text := strings.Join(strings.Fields(overlayText(t, w)), " ")
		return strings.Contains(text, "ntry zed cannot start") && strings.Contains(text, "pyhton3 is not installed")
	})
	if evs, err := u.DB.ListEvents(); err != nil || len(evs) != 0 {
		t.Errorf("events after the refusal: %d, %v", len(evs), err)
	}
}
