package app

import (
	"strings"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
	"ringside/runner/sandbox"
)

// TestPartialSandboxAskedOnce: with Landlock absent (pretended), a
// refusal to run students' bots asks the teacher in words; "Run them
// anyway" stores the consent and runs what was refused; then nothing is
// asked again.
func TestPartialSandboxAskedOnce(t *testing.T) {
	if !sandbox.Supported {
		t.Skip("no sandbox on this system")
	}
	t.Setenv("RINGSIDE_SANDBOX_PRETEND", "no-landlock")
	w, u := newTestUI(t)
	var retried atomic.Int32
	refusal := &service.Error{Code: service.Conflict, Fix: service.FixAllowPartial, Message: "not started"}
	onUI(func() { u.showErrorThen("Cannot run the event", refusal, func() { retried.Add(1) }) })
	var yes []*widget.Button
	eventually(t, "the question", func() bool {
		onUI(func() {
			yes = nil
			for _, o := range w.Canvas().Overlays().List() {
				yes = append(yes, buttons(t, o, "Run them anyway")...)
			}
		})
		return len(yes) == 1
	})
	text := overlayText(t, w)
	_, missing, status, allowed := u.Svc.PartialSandbox()
	if allowed {
		t.Fatal("consent stored before it was given")
	}
	want := wrapText(partialSandboxQuestion(missing, status), 80)
	if !strings.Contains(text, want) || !strings.Contains(text, "cannot stop bots from reading your files") {
		t.Errorf("the question:\n%s\nwant:\n%s", text, want)
	}
	onUI(func() { test.Tap(yes[0]) })
	eventually(t, "the refused action run again", func() bool { return retried.Load() == 1 })
	if _, _, _, allowed := u.Svc.PartialSandbox(); !allowed {
		t.Error("consent not stored")
	}
	closeOverlays(w)
	onUI(func() { u.showErrorThen("Cannot run the event", refusal, func() { retried.Add(1) }) })
	eventually(t, "run at once, not asked again", func() bool { return retried.Load() == 2 })
	var asked bool
	onUI(func() {
		for _, o := range w.Canvas().Overlays().List() {
			asked = asked || len(buttons(t, o, "Run them anyway")) > 0
		}
	})
	if asked {
		t.Error("asked again after consent")
	}
}
