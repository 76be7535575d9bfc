package app

import (
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"ringside/app/internal/fixture"
	"ringside/app/service"
	"ringside/runner/build"
	"ringside/runner/runnertest"
	"ringside/storage"
)

// newAIsTestUI shows the AIs screen alone in a window on a fresh database.
func newAIsTestUI(t *testing.T) (fyne.Window, *UI, *aisScreen) {
	t.Helper()
	a := test.NewTempApp(t)
	svc, err := service.Open(filepath.Join(t.TempDir(), "ringside.db"))
	if err != nil {
		t.Fatal(err)
	}
	var w fyne.Window
	var u *UI
	var s *aisScreen
	onUI(func() {
		w = a.NewWindow("Ringside")
		u = newUI(a, w, svc)
		s = newAIsScreen(u)
		w.SetContent(s.object())
		w.Resize(fyne.NewSize(1200, 780))
	})
	t.Cleanup(func() {
		u.close() // not on the UI: it waits for goroutines that may be in uiDo
		onUI(w.Close)
	})
	return w, u, s
}

// rowText is what the table shows for the AI called name, column by column;
// nil when it is not listed.
func rowText(s *aisScreen, name string) []string {
	var out []string
	onUI(func() {
		for _, r := range s.rows {
			if r.AI.Name == name {
				for c := range aisColumns {
					out = append(out, s.cellText(r, c))
				}
			}
		}
	})
	return out
}

// overlayText is the text of every label in the window's dialogs.
func overlayText(t *testing.T, w fyne.Window) string {
	var b strings.Builder
	onUI(func() {
		for _, o := range w.Canvas().Overlays().List() {
			walk(t, o, func(o fyne.CanvasObject) {
				if l, ok := o.(*widget.Label); ok {
					b.WriteString(l.Text + "\n")
				}
			})
		}
	})
	return b.String()
}

func closeOverlays(w fyne.Window) {
	onUI(func() {
		for _, o := range w.Canvas().Overlays().List() {
			w.Canvas().Overlays().Remove(o)
		}
	})
}

// TestAIsScreen registers, builds, checks, watches and removes AIs through
// the screen's buttons and dialogs.
func TestAIsScreen(t *testing.T) {
	runnertest.NeedPython(t)
	w, u, s := newAIsTestUI(t)
	root := t.TempDir()
	dir := filepath.Join(root, "alice")
	runnertest.WriteFiles(t, dir, map[string]string{"bot.py": fixture.PyBot(1)})

	// Add: the folder's files fill in the commands.
	var f *aiForm
	onUI(func() {
		test.Tap(s.add)
		f = s.form
		// Games are offered by name; the AI is saved with the game's id.
		for _, name := range []string{"Grip", "Battle 2048", "Cloud Contest"} {
			if !slices.Contains(f.game.Options, name) {
				t.Errorf("Add AI offers games %q, not %q", f.game.Options, name)
			}
		}
		for _, id := range []string{"grip", "battle2048", "cloud"} {
			if slices.Contains(f.game.Options, id) {
				t.Errorf("Add AI offers the game id %q, not its name", id)
			}
		}
		f.game.SetSelected("Grip")
		f.watch.SetChecked(false) // Build now is under test, not the watcher
		f.setFolder(dir)
	})
	eventuallyUI(t, "the commands are guessed", func() bool {
		return f.run.Text == "python3 bot.py" && f.language.Text == "python" && f.build.Text == ""
	})
	onUI(func() {
		if f.name.Text != "alice" {
			t.Errorf("name = %q, want the folder's name alice", f.name.Text)
		}
		test.Tap(f.save)
	})
	eventually(t, "alice is listed with revision 1", func() bool {
		r := rowText(s, "alice")
		return r != nil && strings.HasPrefix(r[3], "r1 · ") && strings.HasPrefix(r[4], "ok · ")
	})
	if r := rowText(s, "alice"); r[1] != "Grip" || r[2] != "python" || r[5] != "no" || r[6] != dir {
		t.Errorf("alice's row = %q", r)
	}
	ai, err := u.Svc.DB().AIByName("alice")
	if err != nil {
		t.Fatal(err)
	}

	// Build now after a change makes revision 2.
	runnertest.WriteFiles(t, dir, map[string]string{"bot.py": fixture.PyBot(2)})
	onUI(func() {
		s.selectAI(ai.ID)
		test.Tap(s.buildNow)
	})
	eventually(t, "revision 2 is listed", func() bool {
		r := rowText(s, "alice")
		return r != nil && strings.HasPrefix(r[3], "r2 · ")
	})
	eventuallyUI(t, "the build is reported", func() bool {
		return strings.Contains(s.message.Text, "revision 2")
	})

	// Build log and revisions.
	onUI(func() { test.Tap(s.buildLog) })
	if text := overlayText(t, w); !strings.Contains(text, "nothing to build") || !strings.Contains(text, "Revision 2") {
		t.Errorf("build log dialog shows:\n%s", text)
	}
	closeOverlays(w)
	onUI(func() { test.Tap(s.revisions) })
	eventually(t, "the revisions dialog opens", func() bool {
		return strings.Contains(overlayText(t, w), "Revisions of alice: 2 build(s)")
	})
	closeOverlays(w)

	// A failing build keeps revision 2 and shows the compiler's output.
	onUI(func() {
		test.Tap(s.edit)
		if got := s.form.game.Selected; got != "Grip" {
			t.Errorf("editing alice shows game %q, want Grip", got)
		}
		s.form.build.SetText("sh -c 'echo bot.py:1: syntax error >&2; exit 1'")
		test.Tap(s.form.save)
	})
	eventually(t, "the failed build is shown", func() bool {
		return strings.Contains(overlayText(t, w), "bot.py:1: syntax error")
	})
	eventually(t, "the row shows the failed build with r2 still current", func() bool {
		r := rowText(s, "alice")
		return strings.HasPrefix(r[3], "r2 · ") && strings.HasPrefix(r[4], "failed")
	})
	closeOverlays(w)
	onUI(func() {
		test.Tap(s.edit)
		s.form.build.SetText("")
		test.Tap(s.form.save)
	})
	// The sources are those of r2 again: no new revision.
	eventually(t, "the build is back to ok", func() bool {
		r := rowText(s, "alice")
		return strings.HasPrefix(r[3], "r2 · ") && strings.HasPrefix(r[4], "ok")
	})

	// Sandbox settings are saved without a rebuild and shown.
	onUI(func() {
		test.Tap(s.edit)
		s.form.trusted.SetChecked(true)
		s.form.limits.SetText("memory=256M")
		test.Tap(s.form.save)
	})
	eventually(t, "trust and caps are saved", func() bool {
		a, err := u.Svc.DB().AI(ai.ID)
		return err == nil && a.Trusted && a.Limits == "memory=256M"
	})
	eventuallyUI(t, "the AI's sandbox is shown", func() bool {
		return strings.Contains(s.info.Text, "Sandbox: off (trusted")
	})
	if r := rowText(s, "alice"); !strings.HasPrefix(r[3], "r2 · ") {
		t.Errorf("saving the sandbox settings rebuilt alice: %q", r)
	}

	// An AI whose folder is deleted shows as missing.
	bobDir := filepath.Join(root, "bob")
	runnertest.WriteFiles(t, bobDir, map[string]string{"bot.py": fixture.PyBot(1)})
	bob, err := u.Svc.DB().AddAI(storage.AI{Name: "bob", Game: "grip", Language: "python", SourceDir: bobDir, RunCmd: "python3 bot.py"})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(bobDir); err != nil {
		t.Fatal(err)
	}
	s.reload()
	eventually(t, "bob is shown missing", func() bool {
		r := rowText(s, "bob")
		return r != nil && strings.HasPrefix(r[6], "MISSING") && r[3] == "none yet"
	})

	// Check plays a short game and shows the report.
	closeOverlays(w)
	onUI(func() {
		s.selectAI(ai.ID)
		test.Tap(s.check)
	})
	eventually(t, "the check report appears", func() bool {
		text := overlayText(t, w)
		return strings.Contains(text, "Check of alice (grip") && strings.Contains(text, "starts")
	})
	closeOverlays(w)

	// Watch on: the watcher rebuilds on save.
	onUI(func() { s.watch.SetChecked(true) })
	eventually(t, "watching is saved", func() bool {
		a, err := u.Svc.DB().AI(ai.ID)
		return err == nil && a.Watch
	})
	runnertest.WriteFiles(t, dir, map[string]string{"bot.py": fixture.PyBot(3)})
	eventually(t, "the watcher builds a new revision", func() bool {
		r := rowText(s, "alice")
		return r != nil && r[5] == "yes" && strings.HasPrefix(r[3], "r3 · ")
	})

	// Remove asks first.
	onUI(func() {
		s.selectAI(bob.ID)
		test.Tap(s.remove)
	})
	var confirm []*widget.Button
	onUI(func() {
		for _, o := range w.Canvas().Overlays().List() {
			confirm = append(confirm, buttons(t, o, "Remove")...)
		}
	})
	if len(confirm) != 1 {
		t.Fatalf("remove dialog has %d Remove buttons", len(confirm))
	}
	onUI(func() { test.Tap(confirm[0]) })
	eventually(t, "bob is gone", func() bool { return rowText(s, "bob") == nil })
	if _, err := u.Svc.DB().AIByName("bob"); err == nil {
		t.Errorf("bob is still in the database")
	}
}

// TestAIsScreenProblems checks that registration problems are said in
// plain words and keep the dialog open.
func TestAIsScreenProblems(t *testing.T) {
	runnertest.NeedPython(t)
	_, _, s := newAIsTestUI(t)
	root := t.TempDir()
	var f *aiForm
	onUI(func() {
		test.Tap(s.add)
		f = s.form
		test.Tap(f.save)
	})
	problem := func() string {
		var p string
		onUI(func() {
			if f.problem.Text != "" {
				p = f.problem.Text
			}
		})
		return p
	}
	if p := problem(); !strings.Contains(p, "Give the AI a name") {
		t.Errorf("empty form: problem = %q", p)
	}
	empty := filepath.Join(root, "empty")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	onUI(func() {
		f.game.SetSelected("Grip")
		f.setFolder(empty)
	})
	eventually(t, "the failed guess is explained", func() bool {
		return strings.Contains(problem(), "could not guess") && strings.Contains(problem(), "Fill in the run command")
	})
	onUI(func() {
		f.run.SetText("python3 nothere.py")
		test.Tap(f.save)
	})
	eventually(t, "the wrong file name is explained", func() bool {
		return strings.Contains(problem(), "nothere.py is not in")
	})
	onUI(func() {
		f.name.SetText("builtin:x")
		test.Tap(f.save)
	})
	eventually(t, "a built-in bot's name is refused", func() bool {
		return strings.Contains(problem(), "kept for built-in bots")
	})
	runnertest.WriteFiles(t, empty, map[string]string{"nothere.py": fixture.PyBot(1)})
	onUI(func() {
		f.name.SetText("zoe")
		f.limits.SetText("ram=1G")
		test.Tap(f.save)
	})
	eventually(t, "an unknown cap is explained", func() bool {
		return strings.Contains(problem(), `Limit "ram": no such limit`) && strings.Contains(problem(), "memory=1G")
	})
	onUI(func() {
		if f.limits.Text != "ram=1G" || f.name.Text != "zoe" {
			t.Errorf("the form lost what was typed: name %q, caps %q", f.name.Text, f.limits.Text)
		}
	})
	if ais, _ := s.u.Svc.DB().ListAIs(); len(ais) != 0 {
		t.Errorf("%d AIs registered despite the problems", len(ais))
	}
}

// TestAIsScreenTemplate creates an AI from the Python template.
func TestAIsScreenTemplate(t *testing.T) {
	runnertest.NeedPython(t)
	_, u, s := newAIsTestUI(t)
	dir := filepath.Join(t.TempDir(), "bots", "tess")
	// fromTemplate fills in the "From a template" form and creates.
	fromTemplate := func(name string) *templateForm {
		var f *templateForm
		onUI(func() {
			test.Tap(s.fromTemplate)
			f = s.tmplForm
			f.game.SetSelected("Battle 2048")
			f.lang.SetSelected("python")
			f.name.SetText(name)
			f.folder.SetText(dir)
			test.Tap(f.create)
		})
		return f
	}
	fromTemplate("tess")
	eventually(t, "tess is listed with revision 1", func() bool {
		r := rowText(s, "tess")
		return r != nil && strings.HasPrefix(r[3], "r1 · ") && r[1] == "Battle 2048" && r[5] == "yes"
	})
	if _, err := os.Stat(filepath.Join(dir, "bot.py")); err != nil {
		t.Errorf("the template was not copied: %v", err)
	}
	// The same folder again is refused: it is not empty.
	f := fromTemplate("tess2")
	eventuallyUI(t, "the full folder is refused", func() bool {
		return strings.Contains(f.problem.Text, "is not empty")
	})
	if _, err := u.Svc.DB().AIByName("tess2"); err == nil {
		t.Errorf("tess2 was registered into a full folder")
	}
}

// TestAIsScreenShots renders the screen and its dialogs with realistic
// data to /tmp/ais_*.png when RINGSIDE_SHOTS=1.
func TestAIsScreenShots(t *testing.T) {
	if os.Getenv("RINGSIDE_SHOTS") != "1" {
		t.Skip("set RINGSIDE_SHOTS=1 to write /tmp/ais_*.png")
	}
	runnertest.NeedPython(t)
	w, u, s := newAIsTestUI(t)
	root := t.TempDir()
	add := func(name, game, lang, build, run string, watch bool, files map[string]string) storage.AI {
		dir := filepath.Join(root, "students", name)
		runnertest.WriteFiles(t, dir, files)
		ai, err := u.Svc.DB().AddAI(storage.AI{Name: name, Game: game, Language: lang, SourceDir: dir, BuildCmd: build, RunCmd: run, Watch: watch})
		if err != nil {
			t.Fatal(err)
		}
		return ai
	}
	build := func(ai storage.AI) {
		if _, err := u.Svc.Build(context.Background(), ai.ID, service.BuildOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	alice := add("alice", "grip", "python", "", "python3 bot.py", false, map[string]string{"bot.py": fixture.PyBot(1)})
	build(alice)
	runnertest.WriteFiles(t, alice.SourceDir, map[string]string{"bot.py": fixture.PyBot(2)})
	build(alice)
	bob := add("bob", "grip", "cpp", "sh -c 'echo \"bot.cpp:12:5: error: expected ; before return\" >&2; exit 1'", "./bot", false,
		map[string]string{"bot.cpp": "int main() { return 0 }\n"})
	build(bob)
	carol := add("carol-with-a-long-name", "battle2048", "python", "", "python3 bot.py", false, map[string]string{"bot.py": fixture.PyBot(1)})
	build(carol)
	os.RemoveAll(carol.SourceDir)
	add("dave", "cloud", "python", "", "python3 bot.py", false, map[string]string{"bot.py": fixture.PyBot(1)})
	s.reload()
	eventually(t, "the rows are loaded", func() bool { return rowText(s, "dave") != nil })
	onUI(func() { s.selectAI(bob.ID) })

	shot := func(name string) {
		t.Helper()
		out, err := os.Create("/tmp/ais_" + name + ".png")
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		onUI(func() {
			if err := png.Encode(out, w.Canvas().Capture()); err != nil {
				t.Error(err)
			}
		})
	}
	// dialog opens a dialog on the UI goroutine, waits until it says want
	// (at once when want is empty), shoots it as name and closes it.
	dialog := func(name, want string, open func()) {
		t.Helper()
		onUI(open)
		if want != "" {
			eventually(t, "the "+name+" dialog", func() bool { return strings.Contains(overlayText(t, w), want) })
		}
		shot(name)
		closeOverlays(w)
	}
	shot("main")
	onUI(func() { s.building[bob.ID] = true; s.refreshRow(bob.ID) })
	shot("building")
	onUI(func() { delete(s.building, bob.ID); s.refreshRow(bob.ID) })
	dialog("buildlog", "", func() { test.Tap(s.buildLog) })
	dialog("revisions", "Revisions of bob", func() { test.Tap(s.revisions) })
	dialog("revisions_ok", "Revisions of alice", func() { s.selectAI(alice.ID); test.Tap(s.revisions) })
	onUI(func() {
		test.Tap(s.add)
		s.form.game.SetSelected("Grip")
		s.form.setFolder(alice.SourceDir)
	})
	eventuallyUI(t, "guess", func() bool {
		return s.form.run.Text != ""
	})
	shot("add")
	onUI(func() { test.Tap(s.form.save) })
	eventuallyUI(t, "a problem", func() bool {
		return s.form.problem.Text != ""
	})
	shot("add_problem")
	closeOverlays(w)
	dialog("template", "", func() { test.Tap(s.fromTemplate) })
	dialog("check", "Check of alice", func() { test.Tap(s.check) })
	onUI(func() { s.selectAI(carol.ID) })
	shot("missing")
}

// pyAI registers a Python Grip AI named name, in a new folder, and
// returns the function that saves content as its bot.py and builds it.
// It skips t without python3.
func pyAI(t *testing.T, u *UI, name string) func(content string) service.BuildOutcome {
	t.Helper()
	runnertest.NeedPython(t)
	src := filepath.Join(t.TempDir(), name)
	runnertest.WriteFiles(t, src, map[string]string{"bot.py": fixture.PyBot(1)})
	reg, err := u.Svc.Register(service.NewAI{Name: name, Game: "grip", Dir: src})
	if err != nil {
		t.Fatal(err)
	}
	return func(content string) service.BuildOutcome {
		t.Helper()
		runnertest.WriteFiles(t, src, map[string]string{"bot.py": content})
		out, err := u.Svc.Build(context.Background(), reg.AI.ID, service.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
}

// TestAIsScreenAfterARevert: the AIs screen and its Check name and play
// the revision whose sources came back, as the CLI does.
func TestAIsScreenAfterARevert(t *testing.T) {
	w, u, s := newAIsTestUI(t)
	build := pyAI(t, u, "erin")
	build(fixture.PyBot(1))
	build(fixture.PyBot(2))
	build(fixture.PyBot(3))
	build(fixture.PyBot(3) + "\nthis is not python(\n")
	out := build(fixture.PyBot(1))
	if !out.Unchanged || out.Rev.Number != 1 {
		t.Fatalf("the revert built %+v", out.Rev)
	}
	s.reload()
	eventually(t, "erin shows revision 1 as current", func() bool {
		r := rowText(s, "erin")
		return r != nil && strings.HasPrefix(r[3], "r1 · ")
	})
	onUI(func() {
		s.selectAI(out.Rev.AIID)
		test.Tap(s.check)
	})
	eventually(t, "the check tested revision 1", func() bool {
		text := overlayText(t, w)
		// Whether the short game passes on a loaded machine is not the
		// point here: which revision it played is.
		return strings.Contains(text, "Check of erin (grip, revision 1,") && strings.Contains(text, "starts")
	})
}

// TestAIsScreenOptionsPinDiffFiles goes through the AI screen's new
// actions: game options in the edit form (refused ones say which are
// allowed), the check's warning about a confused Grip bot, pin and unpin
// in the revisions dialog, "Show changes" between two revisions, and the
// Files dialog.
func TestAIsScreenOptionsPinDiffFiles(t *testing.T) {
	runnertest.NeedPython(t)
	w, u, s := newAIsTestUI(t)
	dir := filepath.Join(t.TempDir(), "walker")
	runnertest.WriteFiles(t, dir, map[string]string{"bot.py": fixture.XYBot, "notes.csv": "a,b\n"})
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
		a, err := u.Svc.DB().AI(id)
		var info string
		onUI(func() { info = s.info.Text })
		return err == nil && a.Options == "coords=xy" && strings.Contains(info, "game options: coords=xy")
	})
	closeOverlays(w)

	// A second revision, then pin the first from the revisions dialog.
	runnertest.WriteFiles(t, dir, map[string]string{"bot.py": strings.Replace(fixture.XYBot, "print('N', flush=True)", "print('A', flush=True)", 1)})
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
		a, err := u.Svc.DB().AI(id)
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
		a, err := u.Svc.DB().AI(id)
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

// An AI's name and its files' names are shown with their escape
// sequences, newlines and bidi overrides made visible: in the list, and
// one line per file in the Files dialog.
func TestAINamesAndFilesShownVisibly(t *testing.T) {
	_, u, s := newAIsTestUI(t)
	r := aiRow{AI: service.AIInfo{Name: "al\u202eice\x1b[2J", Game: "grip"}}
	var cell string
	var fd *filesDialog
	onUI(func() {
		cell = s.cellText(r, 0)
		fd = showFilesDialog(u, r, service.Sources{Files: []string{"two\nlines.py", "gnp.\u202etxt"},
			LeftOut: []build.LeftOut{{Path: "x\x1b]0;t\a.csv", Why: "data"}}})
	})
	if cell != `al\u202eice\x1b[2J` {
		t.Errorf("list cell %q", cell)
	}
	if got := strings.Join(fd.kept, "|"); got != `two\nlines.py|gnp.\u202etxt` {
		t.Errorf("files shown %q", got)
	}
	if len(fd.out) != 1 || !strings.HasPrefix(fd.out[0], `x\x1b]0;t\x07.csv`+"\n") {
		t.Errorf("left out shown %q", fd.out)
	}
}

// TestAIFormGuessesATypedFolder: a folder path typed (or pasted) into the
// Add AI form guesses the language and commands as Choose… does, and
// names the AI after the folder; a path that names no folder yet guesses
// nothing.
func TestAIFormGuessesATypedFolder(t *testing.T) {
	_, _, s := newAIsTestUI(t)
	dir := filepath.Join(t.TempDir(), "carol")
	runnertest.WriteFiles(t, dir, map[string]string{"bot.py": fixture.PyBot(1)})
	var f *aiForm
	onUI(func() {
		test.Tap(s.add)
		f = s.form
		f.game.SetSelected("Grip")
		test.Type(f.folder, dir[:len(dir)-2]) // not a folder yet
		if f.run.Text != "" || f.name.Text != "" {
			t.Errorf("half a path guessed run %q, name %q", f.run.Text, f.name.Text)
		}
		test.Type(f.folder, dir[len(dir)-2:])
	})
	eventuallyUI(t, "the commands are guessed from the typed folder", func() bool {
		return f.run.Text == "python3 bot.py" && f.language.Text == "python"
	})
	onUI(func() {
		if f.name.Text != "carol" {
			t.Errorf("name = %q, want the folder's name carol", f.name.Text)
		}
	})
}

// TestAIDetailLineNotCutAt1024: on a 1024×768 projector the AI's detail
// line (game, language, build and run commands) is shown to its last word,
// wrapped rather than ended in "…".
func TestAIDetailLineNotCutAt1024(t *testing.T) {
	w, u, s := newAIsTestUI(t)
	dir := t.TempDir()
	runnertest.WriteFiles(t, dir, map[string]string{"bot.py": fixture.PyBot(1)})
	run := "python3 -u bot.py --strategy cautious --depth 3 --log-level warning --seed-from-environment --end-marker ZZLAST"
	if _, err := u.Svc.DB().AddAI(storage.AI{Name: "alice", Game: "grip", Language: "python", SourceDir: dir, RunCmd: run}); err != nil {
		t.Fatal(err)
	}
	onUI(func() { w.Resize(fyne.NewSize(1024, 768)); s.reload() })
	eventuallyUI(t, "alice is shown", func() bool { return strings.Contains(s.info.Text, "ZZLAST") })
	var shown string
	onUI(func() {
		w.Resize(fyne.NewSize(1024, 768))
		shown = strings.Join(renderedTexts(s.info), " ")
	})
	if !strings.Contains(shown, "ZZLAST") || strings.Contains(shown, "…") {
		t.Errorf("the detail line at 1024 px shows %q, want it whole, ending in ZZLAST", shown)
	}
}

// renderedTexts is every text o draws, in render order.
func renderedTexts(o fyne.CanvasObject) []string {
	switch x := o.(type) {
	case *canvas.Text:
		return []string{x.Text}
	case fyne.Widget:
		var out []string
		for _, c := range test.WidgetRenderer(x).Objects() {
			out = append(out, renderedTexts(c)...)
		}
		return out
	case *fyne.Container:
		var out []string
		for _, c := range x.Objects {
			out = append(out, renderedTexts(c)...)
		}
		return out
	}
	return nil
}

// TestAIListShowsANewAI: a newly added AI is selected and scrolled into
// view, even when it takes the row of the AI selected before while the
// list was scrolled elsewhere.
func TestAIListShowsANewAI(t *testing.T) {
	w, u, s := newAIsTestUI(t)
	dir := t.TempDir()
	add := func(name string) int64 {
		ai, err := u.Svc.DB().AddAI(storage.AI{Name: name, Game: "grip", Language: "python", SourceDir: dir, RunCmd: "python3 bot.py"})
		if err != nil {
			t.Fatal(err)
		}
		return ai.ID
	}
	var ids []int64
	for i := range 30 {
		ids = append(ids, add(fmt.Sprintf("ai%02d", i)))
	}
	onUI(func() { w.Resize(fyne.NewSize(1024, 768)); s.reload() })
	eventuallyUI(t, "30 AIs are listed", func() bool { return len(s.rows) == 30 })
	onUI(func() {
		s.selectAI(ids[20])
		s.list.ScrollToOffset(0) // the teacher scrolled back to the top
	})
	// What Save in the Add form does: the new AI is the one to show.
	id := add("ai19x") // sorts between ai19 and ai20: row 20, where ai20 was
	onUI(func() { s.selected = id; s.reload() })
	eventuallyUI(t, "the new AI is listed", func() bool { return len(s.rows) == 31 })
	onUI(func() {
		if r, ok := s.selectedRow(); !ok || r.AI.Name != "ai19x" || s.title.Text != "ai19x" {
			t.Errorf("selected %q (title %q), want the new AI ai19x", r.AI.Name, s.title.Text)
		}
		if s.list.GetScrollOffset() == 0 {
			t.Errorf("the list stays at the top; the new AI at row %d is out of view", s.rowIndex(id))
		}
	})
}
