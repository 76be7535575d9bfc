package app

import (
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"ringside/app/internal/fixture"
)

// TestHomeSaysAnotherAppHasTheDatabase: a second app on a class's
// database says so on the Home screen, with the other's process, and the
// line goes once that app closes, or is gone without closing.
func TestHomeSaysAnotherAppHasTheDatabase(t *testing.T) {
	old := othersEvery
	othersEvery = 50 * time.Millisecond
	t.Cleanup(func() { othersEvery = old })
	tests := []struct {
		name string
		stop func(other *exec.Cmd, stdin io.Closer)
	}{
		{"closed", func(_ *exec.Cmd, stdin io.Closer) { stdin.Close() }},
		{"killed", func(other *exec.Cmd, _ io.Closer) { other.Process.Kill() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "class.db")
			other, stdin := fixture.OtherApp(t, path)
			var u *UI
			onUI(func() { u = NewUI(test.NewTempApp(t), path) })
			t.Cleanup(func() { u.Win.Close() })
			others := func() (string, bool) {
				var text string
				var shown bool
				onUI(func() { text, shown = u.home.others.Text, u.home.others.Visible() })
				return text, shown
			}
			eventually(t, "Home names the other app", func() bool {
				text, shown := others()
				return shown && strings.Contains(text, "also open in another Ringside window") &&
					strings.Contains(text, fmt.Sprintf("process %d on ", other.Process.Pid))
			})
			tt.stop(other, stdin)
			other.Wait()
			eventually(t, "the line goes with the other app", func() bool {
				text, shown := others()
				return !shown && text == ""
			})
		})
	}
}
