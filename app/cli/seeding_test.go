package cli

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestBracketSeededFromStandings: "event create --format bracket
// --from-event 1 --top N" takes a finished league's first N entries as
// seeds in the order of its standings, and "event show" names each seed;
// an unfinished event, a top beyond its entries or entries listed besides
// are refused with the reason.
func TestBracketSeededFromStandings(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "s.db")
	createEvent(t, db)
	// Not finished yet: its standings cannot seed.
	code, _, errs := runCLI("event", "create", "--db", db, "--game", "battle2048", "--format", "bracket", "--from-event", "1")
	if code == 0 || !strings.Contains(errs, "not final") {
		t.Errorf("seeding from an unplayed event: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI("event", "run", "1", "--db", db, "--quiet"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	code, out, errs := runCLI("event", "standings", "1", "--db", db, "--csv")
	if code != 0 {
		t.Fatalf("standings: exit %d: %s", code, errs)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) != 5 {
		t.Fatalf("standings csv: %v\n%s", err, out)
	}
	var order []string
	for _, r := range recs[1:] {
		order = append(order, r[1])
	}
	tests := []struct {
		name  string
		args  []string
		seeds []string // "" fails with want in stderr
		want  string
	}{
		{"top 3", []string{"--from-event", "1", "--top", "3"}, order[:3], ""},
		{"all", []string{"--from-event", "1"}, order, ""},
		{"top beyond", []string{"--from-event", "1", "--top", "5"}, nil, "ranks only 4"},
		{"entries besides", []string{"--from-event", "1", "--entry", "builtin:battle2048/random"}, nil, "list no entries besides"},
		{"top without event", []string{"--top", "2", "--entry", "builtin:battle2048/random"}, nil, "say which event"},
		{"unknown seeding", []string{"--from-event", "1", "--seeding", "alphabetical"}, nil, "want one of listed, random, event"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"event", "create", "--db", db, "--game", "battle2048", "--format", "bracket", "--games", "1"}, tt.args...)
			code, out, errs := runCLI(args...)
			if tt.seeds == nil {
				if code == 0 || !strings.Contains(errs, tt.want) {
					t.Errorf("exit %d, want an error with %q: %s%s", code, tt.want, out, errs)
				}
				return
			}
			if code != 0 {
				t.Fatalf("create: exit %d: %s", code, errs)
			}
			id := strings.TrimSuffix(strings.Fields(out)[1], ":") // "event 2: …"
			code, show, errs := runCLI("event", "show", id, "--db", db)
			if code != 0 {
				t.Fatalf("show: exit %d: %s", code, errs)
			}
			var want []string
			for i, name := range tt.seeds {
				want = append(want, strconv.Itoa(i+1)+" "+name)
			}
			if line := "seeds: " + strings.Join(want, ", "); !strings.Contains(show, line+"\n") {
				t.Errorf("event show lacks %q:\n%s", line, show)
			}
		})
	}
}

// TestEventSheet: "event sheet ID --out FILE" writes the event's results
// sheet, a page that needs no network, with its places and games; an
// unknown event is refused.
func TestEventSheet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	createEvent(t, db)
	if code, _, errs := runCLI("event", "run", "1", "--db", db, "--quiet"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	out := filepath.Join(dir, "sheet.html")
	code, stdout, errs := runCLI("event", "sheet", "1", "--db", db, "--out", out)
	if code != 0 || !strings.Contains(stdout, "written to "+out) {
		t.Fatalf("sheet: exit %d: %s%s", code, stdout, errs)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	for _, want := range []string{"<!DOCTYPE html>", "final standings", `<td class="n">1</td>`, "<svg", "<h2>1. "} {
		if !strings.Contains(page, want) {
			t.Errorf("the sheet lacks %q", want)
		}
	}
	if strings.Contains(page, "<script") || strings.Contains(page, "https://") {
		t.Error("the sheet fetches or runs something")
	}
	if code, _, errs := runCLI("event", "sheet", "9", "--db", db); code == 0 || !strings.Contains(errs, "9") {
		t.Errorf("an unknown event: exit %d, %s", code, errs)
	}
}
