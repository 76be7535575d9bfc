package service

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ringside/engine"
	"ringside/engine/event"
)

var updateSheet = flag.Bool("update", false, "rewrite the results sheet's golden file")

// sheetView is a small finished Grip league of four, fixed: two games.
func sheetView() *EventView {
	entries := []EntryInfo{{Index: 0, Name: "alice r2"}, {Index: 1, Name: "bob r1"}, {Index: 2, Name: "carol <r1>"}, {Index: 3, Name: "dave r3"}}
	games := []GameView{
		{ID: 25, Game: event.Game{Index: 0, Seats: []int{0, 1, 2, 3}}, Status: GameDone,
			Result: &engine.Result{Ranks: []int{1, 2, 2, 4}, Reason: "last_standing"}},
		{ID: 26, Game: event.Game{Index: 1, Seats: []int{2, 3, 0, 1}}, Status: GameDone,
			Result: &engine.Result{Ranks: []int{1, 2, 3, 4}, Reason: "turn_limit"}},
	}
	table := event.Table{Format: event.League, Seats: 4, Rows: []event.Standing{
		{Entry: 0, Name: "alice r2", Rank: 1, Games: 2, Points: 1.67, Score: 0.83, Places: []int{1, 0, 1, 0}, Tied: true, LOS: 0.7},
		{Entry: 2, Name: "carol <r1>", Rank: 2, Games: 2, Points: 1.5, Score: 0.75, Places: []int{1, 1, 0, 0}, LOS: 0.96},
		{Entry: 1, Name: "bob r1", Rank: 3, Games: 2, Points: 0.5, Score: 0.25, Places: []int{0, 1, 0, 1}},
		{Entry: 3, Name: "dave r3", Rank: 3, Games: 2, Points: 0.5, Score: 0.25, Places: []int{0, 1, 0, 1}},
	}}
	return &EventView{Event: EventInfo{ID: 3, Name: "Class 3B league", Game: "grip", Config: event.Config{Format: event.League, Seats: 4},
		Status: EventFinished, Entries: entries}, Games: games, Table: table}
}

// TestSheetGolden: the results sheet of a small fixed event, byte for
// byte (go test -run TestSheetGolden -update rewrites it; review the
// diff). Places are in sports notation, games numbered in the event,
// names escaped, nothing fetched from a network.
func TestSheetGolden(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteSheet(&b, sheetView()); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "sheet.golden.html")
	if *updateSheet {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("the sheet differs from %s:\n%s", golden, got)
	}
	out := b.String()
	for _, bad := range []string{"http://", "https://", "<script", "<link", "carol <r1>", "=</td>"} {
		if bad == "http://" {
			// The SVG namespace is a name, not a fetch.
			out = strings.ReplaceAll(out, `xmlns="http://www.w3.org/2000/svg"`, "")
		}
		if strings.Contains(out, bad) {
			t.Errorf("the sheet holds %q", bad)
		}
	}
}

// TestSheetStudentGames: each student's games list its place in each game
// and its running score.
func TestSheetStudentGames(t *testing.T) {
	t.Parallel()
	v := sheetView()
	names := map[int]string{0: "alice r2", 1: "bob r1", 2: "carol", 3: "dave r3"}
	tests := []struct {
		entry  int
		places []string
		scores []float64
	}{
		{0, []string{"1st", "3rd"}, []float64{1, 2.0 / 3}},
		{1, []string{"shared 2nd", "4th"}, []float64{0.5, 0.25}},
		{2, []string{"shared 2nd", "1st"}, []float64{0.5, 0.75}},
	}
	for _, tt := range tests {
		games, scores := studentGames(v.Games, tt.entry, names)
		if len(games) != len(tt.places) {
			t.Fatalf("entry %d: %d games", tt.entry, len(games))
		}
		for i := range games {
			if games[i].Place != tt.places[i] || games[i].Number != i+1 {
				t.Errorf("entry %d game %d: place %q number %d, want %q", tt.entry, i, games[i].Place, games[i].Number, tt.places[i])
			}
			if d := scores[i] - tt.scores[i]; d > 1e-9 || d < -1e-9 {
				t.Errorf("entry %d after game %d: score %v, want %v", tt.entry, i+1, scores[i], tt.scores[i])
			}
		}
	}
}
