package service

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"ringside/engine/event"
)

// placesTable is a 4-seat league of four: bob and carol equal on score (a
// true tie on the ranking key), none of it separated by the games.
func placesTable() event.Table {
	return event.Table{Format: event.League, Seats: 4, Rows: []event.Standing{
		{Entry: 0, Name: "alice r1", Rank: 1, Games: 4, Points: 3, Score: 0.75, Places: []int{2, 1, 1, 0}, Wins: 2, Losses: 2, Tied: true, LOS: 0.6},
		{Entry: 1, Name: "bob r1", Rank: 2, Games: 4, Points: 2, Score: 0.5, Places: []int{1, 1, 1, 1}, Wins: 1, Losses: 3, Tied: true, LOS: 0.5},
		{Entry: 2, Name: "carol r1", Rank: 2, Games: 4, Points: 2, Score: 0.5, Places: []int{1, 1, 1, 1}, Wins: 1, Losses: 3, LOS: 0.97},
		{Entry: 3, Name: "dave r1", Rank: 4, Games: 4, Points: 1, Score: 0.25, Places: []int{0, 1, 1, 2}, Losses: 4},
	}}
}

// TestPlacesInSportsNotation: places are shared only on a true tie (1, 2,
// 2, 4), never marked "=" for rows the games have not separated; those are
// said in words, "not yet" only while the event is played.
func TestPlacesInSportsNotation(t *testing.T) {
	t.Parallel()
	tab := placesTable()
	var places []string
	for i := range tab.Rows {
		places = append(places, PlaceText(tab.Rows, i))
	}
	if got := strings.Join(places, ","); got != "1,2,2,4" {
		t.Errorf("places = %s, want 1,2,2,4", got)
	}
	tests := []struct {
		over bool
		want []string
	}{
		{false, []string{"not yet separated from bob r1", "not yet separated from carol r1", "", ""}},
		{true, []string{"not separated from bob r1", "not separated from carol r1", "", ""}},
	}
	for _, tt := range tests {
		for i, want := range tt.want {
			if got := SeparationText(tab.Rows, i, tt.over); got != want {
				t.Errorf("over %v, row %d: %q, want %q", tt.over, i, got, want)
			}
		}
	}
}

// TestStandingsExportsGivePlaces: every format writes the same places, the
// text and Markdown without "="; the CSV of a 4-seat game counts 1st, 2nd,
// 3rd and 4th places instead of wins and losses.
func TestStandingsExportsGivePlaces(t *testing.T) {
	t.Parallel()
	tab := placesTable()
	for _, format := range []string{"text", "md", "csv"} {
		var b bytes.Buffer
		if err := WriteStandings(&b, tab, nil, format, false); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		out := b.String()
		if strings.Contains(out, "=") && format != "md" || strings.Contains(out, "1=") || strings.Contains(out, "2=") {
			t.Errorf("%s marks a place with =:\n%s", format, out)
		}
		if format != "csv" && !strings.Contains(out, "not yet separated from bob r1") {
			t.Errorf("%s does not say alice is not yet separated from bob:\n%s", format, out)
		}
		if format == "csv" {
			recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			head := strings.Join(recs[0][:8], ",")
			if head != "place,name,games,points,1st,2nd,3rd,4th" {
				t.Errorf("csv head = %s", head)
			}
			if strings.Contains(strings.Join(recs[0], ","), "losses") {
				t.Errorf("csv of a 4-seat game counts losses: %v", recs[0])
			}
			var got []string
			for _, r := range recs[1:] {
				got = append(got, r[0]+" "+r[1]+" "+strings.Join(r[4:8], "/"))
			}
			want := "1 alice r1 2/1/1/0;2 bob r1 1/1/1/1;2 carol r1 1/1/1/1;4 dave r1 0/1/1/2"
			if strings.Join(got, ";") != want {
				t.Errorf("csv rows = %s, want %s", strings.Join(got, ";"), want)
			}
		}
	}
}
