package app

import (
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"ringside/app/internal/fixture"
	"ringside/app/service"
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
	fixture.NeedPython(t)
	w, u, s := newAIsTestUI(t)
	root := t.TempDir()
	dir := filepath.Join(root, "alice")
	fixture.WriteFiles(t, dir, map[string]string{"bot.py": fixture.PyBot(1)})

	// Add: the folder's files fill in the commands.
	var f *aiForm
	onUI(func() {
		test.Tap(s.add)
		f = s.form
		f.game.SetSelected("grip")
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
	if r := rowText(s, "alice"); r[1] != "grip" || r[2] != "python" || r[5] != "no" || r[6] != dir {
		t.Errorf("alice's row = %q", r)
	}
	ai, err := u.DB.AIByName("alice")
	if err != nil {
		t.Fatal(err)
	}

	// Build now after a change makes revision 2.
	fixture.WriteFiles(t, dir, map[string]string{"bot.py": fixture.PyBot(2)})
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
		a, err := u.DB.AI(ai.ID)
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
	fixture.WriteFiles(t, bobDir, map[string]string{"bot.py": fixture.PyBot(1)})
	bob, err := u.DB.AddAI(storage.AI{Name: "bob", Game: "grip", Language: "python", SourceDir: bobDir, RunCmd: "python3 bot.py"})
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
		a, err := u.DB.AI(ai.ID)
		return err == nil && a.Watch
	})
	fixture.WriteFiles(t, dir, map[string]string{"bot.py": fixture.PyBot(3)})
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
	if _, err := u.DB.AIByName("bob"); err == nil {
		t.Errorf("bob is still in the database")
	}
}

// TestAIsScreenProblems checks that registration problems are said in
// plain words and keep the dialog open.
func TestAIsScreenProblems(t *testing.T) {
	fixture.NeedPython(t)
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
		f.game.SetSelected("grip")
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
	fixture.WriteFiles(t, empty, map[string]string{"nothere.py": fixture.PyBot(1)})
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
	if ais, _ := s.u.DB.ListAIs(); len(ais) != 0 {
		t.Errorf("%d AIs registered despite the problems", len(ais))
	}
}

// TestAIsScreenTemplate creates an AI from the Python template.
func TestAIsScreenTemplate(t *testing.T) {
	fixture.NeedPython(t)
	_, u, s := newAIsTestUI(t)
	dir := filepath.Join(t.TempDir(), "bots", "tess")
	// fromTemplate fills in the "From a template" form and creates.
	fromTemplate := func(name string) *templateForm {
		var f *templateForm
		onUI(func() {
			test.Tap(s.fromTemplate)
			f = s.tmplForm
			f.game.SetSelected("battle2048")
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
		return r != nil && strings.HasPrefix(r[3], "r1 · ") && r[1] == "battle2048" && r[5] == "yes"
	})
	if _, err := os.Stat(filepath.Join(dir, "bot.py")); err != nil {
		t.Errorf("the template was not copied: %v", err)
	}
	// The same folder again is refused: it is not empty.
	f := fromTemplate("tess2")
	eventuallyUI(t, "the full folder is refused", func() bool {
		return strings.Contains(f.problem.Text, "is not empty")
	})
	if _, err := u.DB.AIByName("tess2"); err == nil {
		t.Errorf("tess2 was registered into a full folder")
	}
}

// TestAIsScreenShots renders the screen and its dialogs with realistic
// data to /tmp/ais_*.png when RINGSIDE_SHOTS=1.
func TestAIsScreenShots(t *testing.T) {
	if os.Getenv("RINGSIDE_SHOTS") != "1" {
		t.Skip("set RINGSIDE_SHOTS=1 to write /tmp/ais_*.png")
	}
	fixture.NeedPython(t)
	w, u, s := newAIsTestUI(t)
	root := t.TempDir()
	add := func(name, game, lang, build, run string, watch bool, files map[string]string) storage.AI {
		dir := filepath.Join(root, "students", name)
		fixture.WriteFiles(t, dir, files)
		ai, err := u.DB.AddAI(storage.AI{Name: name, Game: game, Language: lang, SourceDir: dir, BuildCmd: build, RunCmd: run, Watch: watch})
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
	fixture.WriteFiles(t, alice.SourceDir, map[string]string{"bot.py": fixture.PyBot(2)})
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
	shot("main")
	onUI(func() { s.building[bob.ID] = true; s.refreshRow(bob.ID) })
	shot("building")
	onUI(func() { delete(s.building, bob.ID); s.refreshRow(bob.ID) })
	onUI(func() { test.Tap(s.buildLog) })
	shot("buildlog")
	closeOverlays(w)
	onUI(func() { test.Tap(s.revisions) })
	eventually(t, "revisions dialog", func() bool { return strings.Contains(overlayText(t, w), "Revisions of bob") })
	shot("revisions")
	closeOverlays(w)
	onUI(func() { s.selectAI(alice.ID); test.Tap(s.revisions) })
	eventually(t, "revisions dialog", func() bool { return strings.Contains(overlayText(t, w), "Revisions of alice") })
	shot("revisions_ok")
	closeOverlays(w)
	onUI(func() {
		test.Tap(s.add)
		s.form.game.SetSelected("grip")
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
	onUI(func() { test.Tap(s.fromTemplate) })
	shot("template")
	closeOverlays(w)
	onUI(func() { test.Tap(s.check) })
	eventually(t, "check report", func() bool { return strings.Contains(overlayText(t, w), "check alice") })
	shot("check")
	closeOverlays(w)
	onUI(func() { s.selectAI(carol.ID) })
	shot("missing")
}
