package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestSwitchDatabase: a file that is not a database gets a screen with a
// way on, not a dead end; choosing another database shows the app on it,
// and the next start opens it again.
func TestSwitchDatabase(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "notes.db")
	if err := os.WriteFile(bad, []byte("my lesson notes, not a database\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var u *UI
	var a fyne.App
	onUI(func() {
		a = test.NewTempApp(t)
		u = NewUI(a, bad)
	})
	text := func() string {
		var b strings.Builder
		onUI(func() {
			walk(t, u.Win.Content(), func(o fyne.CanvasObject) {
				switch x := o.(type) {
				case *widget.Label:
					b.WriteString(x.Text + "\n")
				case *widget.Button:
					b.WriteString("[" + x.Text + "]\n")
				}
			})
		})
		return b.String()
	}
	if s := text(); !strings.Contains(s, "cannot open its database") || !strings.Contains(s, "[Open another database…]") ||
		!strings.Contains(s, "[New database…]") || strings.Contains(s, "ringside --db") {
		t.Fatalf("the error screen:\n%s", s)
	}
	if b, _ := os.ReadFile(bad); !strings.HasPrefix(string(b), "my lesson notes") {
		t.Fatal("the file was changed")
	}
	good := filepath.Join(dir, "class.db")
	switchDatabase(u, good)
	eventually(t, "the app shows the new database", func() bool {
		var ok bool
		onUI(func() {
			_, tabs := u.Win.Content().(*container.AppTabs)
			ok = tabs && strings.Contains(u.Win.Title(), "class.db")
		})
		return ok
	})
	if got := a.Preferences().String(prefDatabase); got != good {
		t.Errorf("remembered database %q, want %q", got, good)
	}
	var next *UI
	onUI(func() { next = NewUI(a, "") })
	if next.Svc == nil || next.Svc.Path() != good {
		t.Errorf("the next start opened %v", next.Svc)
	}
	t.Cleanup(func() {
		next.Win.Close()
		u.Win.Close()
	})
}
