package app

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// countingLabel counts its refreshes.
type countingLabel struct {
	widget.Label
	refreshes int
}

func newCountingLabel(text string) *countingLabel {
	l := &countingLabel{}
	l.Text = text
	l.ExtendBaseWidget(l)
	return l
}

func (l *countingLabel) Refresh() {
	l.refreshes++
	l.Label.Refresh()
}

// TestTabContentRefreshesWhatIsSeen: switching tabs refreshes the screen
// that comes into view, not the hidden ones; a theme change reaches every
// screen, hidden or not.
func TestTabContentRefreshesWhatIsSeen(t *testing.T) {
	onUI(func() {
		a := test.NewTempApp(t)
		a.Settings().SetTheme(test.Theme())
		w := a.NewWindow("tabs")
		screens := []*countingLabel{newCountingLabel("one"), newCountingLabel("two"), newCountingLabel("three")}
		tabs := container.NewAppTabs()
		for i, s := range screens {
			tabs.Append(container.NewTabItem(string(rune('A'+i)), newTabContent(s)))
		}
		counts := func() []int { return []int{screens[0].refreshes, screens[1].refreshes, screens[2].refreshes} }
		// Screens are built before the tabs are shown: showing the
		// window refreshes none of them again.
		w.SetContent(tabs)
		w.Resize(fyne.NewSize(400, 300))
		if got := counts(); !equalInts(got, []int{0, 0, 0}) {
			t.Errorf("showing the tabs refreshed the new screens %v times, want none", got)
		}
		diff := func(before []int) []int {
			now := counts()
			return []int{now[0] - before[0], now[1] - before[1], now[2] - before[2]}
		}
		for _, step := range []struct {
			what string
			do   func()
			want []int // refreshes of each screen
		}{
			{"select the second tab", func() { tabs.SelectIndex(1) }, []int{0, 1, 0}},
			{"select the third tab", func() { tabs.SelectIndex(2) }, []int{0, 0, 1}},
			{"refresh the tabs", func() { tabs.Refresh() }, []int{0, 0, 0}},
			{"back to the first", func() { tabs.SelectIndex(0) }, []int{1, 0, 0}},
		} {
			before := counts()
			step.do()
			if got := diff(before); !equalInts(got, step.want) {
				t.Errorf("%s: screens refreshed %v times, want %v", step.what, got, step.want)
			}
		}
		before := counts()
		a.Settings().SetTheme(test.NewTheme())
		for i, n := range diff(before) {
			if n == 0 {
				t.Errorf("another theme: screen %d (hidden: %v) was not refreshed", i, i != 0)
			}
		}
	})
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// BenchmarkSwitchTabs switches the main window through its five screens.
func BenchmarkSwitchTabs(b *testing.B) {
	_, u := newTestUI(b)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		onUI(func() { u.tabs.SelectIndex(i % len(u.tabs.Items)) })
	}
}
