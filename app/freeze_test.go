package app

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"ringside/app/internal/fixture"
	"ringside/app/service"
)

// TestAIsScreenOptionsPinDiffFiles goes through the AI screen's new
// actions: game options in the edit form (refused ones say which are
// allowed), the check's warning about a confused Grip bot, pin and unpin
// in the revisions dialog, "Show changes" between two revisions, and the
// Files dialog.
func TestAIsScreenOptionsPinDiffFiles(t *testing.T) {
	fixture.NeedPython(t)
	w, u, s := newAIsTestUI(t)
	dir := filepath.Join(t.TempDir(), "walker")
	fixture.WriteFiles(t, dir, map[string]string{"bot.py": fixture.XYBot, "notes.csv": "a,b\n"})
	// Trusted: a sandboxed Python start can miss the 1 s READY on a loaded
	// machine, and the check game here is about the warning.
	reg, err := u.Svc.Register(service.NewAI{Name: "walker", Game: "grip", Dir: dir, Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	id := reg.AI.ID
	if _, err := u.Svc.Build(context.Background(), id, service.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	s.reload()
	eventually(t, "walker is listed", func() bool { return rowText(s, "walker") != nil })

	// The check warns: the bot reads x y but is sent row column.
	onUI(func() {
		s.selectAI(id)
		test.Tap(s.check)
	})
	eventually(t, "the check report", func() bool { return strings.Contains(overlayText(t, w), "Check of walker") })
	if text := overlayText(t, w); !strings.Contains(text, "looks confused") || !strings.Contains(text, "write coords=xy under Game options") {
		t.Errorf("the check does not warn of confusion:\n%s", text)
	}
	closeOverlays(w)

	// Edit: a wrong option is refused in the form with the allowed ones.
	onUI(func() {
		test.Tap(s.edit)
		if !strings.Contains(s.form.optHint.Text, "coords=rc|xy") {
			t.Errorf("options hint for grip: %q", s.form.optHint.Text)
		}
		s.form.options.SetText("protocol=beta")
		test.Tap(s.form.save)
	})
	eventuallyUI(t, "the wrong option is refused", func() bool {
		return strings.Contains(s.form.problem.Text, "can only set coords=rc|xy")
	})
	onUI(func() {
		s.form.options.SetText("coords=xy")
		test.Tap(s.form.save)
	})
	eventually(t, "the option is saved and shown", func() bool {
		a, err := u.DB.AI(id)
		var info string
		onUI(func() { info = s.info.Text })
		return err == nil && a.Options == "coords=xy" && strings.Contains(info, "game options: coords=xy")
	})
	closeOverlays(w)

	// A second revision, then pin the first from the revisions dialog.
	fixture.WriteFiles(t, dir, map[string]string{"bot.py": strings.Replace(fixture.XYBot, "print('N', flush=True)", "print('A', flush=True)", 1)})
	if _, err := u.Svc.Build(context.Background(), id, service.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	s.reload()
	eventually(t, "r2 is current", func() bool {
		r := rowText(s, "walker")
		return r != nil && strings.HasPrefix(r[3], "r2 · ")
	})
	onUI(func() { test.Tap(s.revisions) })
	eventuallyUI(t, "the revisions dialog", func() bool {
		return s.revsView != nil && len(s.revsView.revs) == 2
	})
	v := s.revsView
	onUI(func() {
		if v.from.Selected != "r1" || v.to.Selected != "r2" {
			t.Errorf("compare %q with %q, want r1 with r2 for the newest revision", v.from.Selected, v.to.Selected)
		}
		test.Tap(v.changes)
	})
	eventually(t, "the changes are shown", func() bool {
		var ok bool
		onUI(func() {
			ok = v.diff != nil && len(v.diff.files) == 1 && strings.Contains(v.diff.files[0], "changed  bot.py  (+1 -1 lines)") &&
				strings.Contains(v.diff.text, "-        print('N', flush=True)\n+        print('A', flush=True)\n")
		})
		return ok
	})
	if text := overlayText(t, w); !strings.Contains(text, "1 file(s) changed, 0 the same.") {
		t.Errorf("the changes dialog:\n%s", text)
	}
	onUI(func() {
		v.list.Select(1) // r1
		if v.pin.Text != "Pin this revision" {
			t.Errorf("pin button on r1: %q", v.pin.Text)
		}
		test.Tap(v.pin)
	})
	eventually(t, "r1 is pinned", func() bool {
		a, err := u.DB.AI(id)
		var label, row string
		onUI(func() { label, row = v.pin.Text, s.cellText(s.rows[s.rowIndex(id)], 3) })
		return err == nil && a.Pinned != 0 && label == "Unpin" && row == "r1 · pinned"
	})
	onUI(func() {
		if !strings.Contains(s.current.Text, "Pinned to r1") || !strings.Contains(v.pinState.Text, "Pinned to r1") {
			t.Errorf("pinned state: %q / %q", s.current.Text, v.pinState.Text)
		}
		test.Tap(v.pin)
	})
	eventually(t, "unpinned", func() bool {
		a, err := u.DB.AI(id)
		var label string
		onUI(func() { label = v.pin.Text })
		return err == nil && a.Pinned == 0 && label == "Pin this revision"
	})
	closeOverlays(w)

	// Files: what makes a revision, what is left out and why.
	onUI(func() { test.Tap(s.files) })
	eventually(t, "the files dialog", func() bool {
		var ok bool
		onUI(func() {
			ok = s.filesDlg != nil && strings.Join(s.filesDlg.kept, ",") == "bot.py" &&
				len(s.filesDlg.out) == 1 && strings.HasPrefix(s.filesDlg.out[0], "notes.csv\n    data or output file")
		})
		return ok
	})
	if text := overlayText(t, w); !strings.Contains(text, "1 file(s) make a revision") || !strings.Contains(text, "1 left out, with why") {
		t.Errorf("the files dialog:\n%s", text)
	}
}

// TestCreateEventDialogDeadline: the New event dialog's deadline is read
// like "event create --deadline", refused in words when unreadable, and
// keeps revisions built after it out of the event.
func TestCreateEventDialogDeadline(t *testing.T) {
	_, u := newTestUI(t)
	build := pyAI(t, u, "alice")
	build(fixture.PyBot(1))
	time.Sleep(1100 * time.Millisecond)
	deadline := time.Now().Format(time.RFC3339)
	time.Sleep(1100 * time.Millisecond)
	build(fixture.PyBot(2))
	f := showCreateEventForm(t, u)
	onUI(func() {
		f.game.SetSelected("grip")
		f.entrants.choose("alice", "builtin:grip/greedy", "builtin:grip/random")
		f.gamesN.SetText("1")
		f.deadline.SetText("next friday")
	})
	eventuallyUI(t, "an unreadable deadline is explained", func() bool {
		return strings.Contains(f.plan.Text, `Deadline: "next friday": write a date and time`)
	})
	onUI(func() {
		f.deadline.SetText(deadline)
		f.runNow.SetChecked(false)
		f.submit()
	})
	ev := createdEvent(t, u)
	if ev.Deadline.IsZero() || !slices.Contains(entryNames(ev), "alice r1") {
		t.Errorf("event with deadline %v plays %v; want alice r1, built before the deadline", ev.Deadline, entryNames(ev))
	}
}
