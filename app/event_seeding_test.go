package app

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
)

// TestKnockoutFromStandings: a finished league offers "Knockout from these
// standings"; the New event form it opens (a bracket, seeded from the
// league) creates a bracket whose entries, its seeds, are in the order of
// the league's standings, not the order the entrants are listed in.
func TestKnockoutFromStandings(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	// random is listed before greedy; greedy wins the league.
	league := playEvent(t, u.Svc, service.EventSpec{Game: "battle2048", Format: "league", Games: 2, Seed: 5, SeedSet: true,
		Entries: []string{"builtin:battle2048/random", "r2=builtin:battle2048/random", "builtin:battle2048/greedy"}})
	view, err := u.Svc.EventView(league.ID)
	if err != nil || view.TableErr != nil {
		t.Fatalf("league view: %v %v", err, view.TableErr)
	}
	var standings []string
	for _, r := range view.Table.Rows {
		standings = append(standings, r.Name)
	}
	if standings[0] == league.Entries[0].Name {
		t.Fatalf("the league's winner is its first entry (%q): the test needs an order unlike the list's", standings)
	}
	var ev *eventView
	onUI(func() {
		ev = newEventView(u)
		ev.apply(&eventData{EventView: view, charts: nil})
	})
	onUI(func() {
		if ev.knockout.Hidden || !ev.pause.Hidden {
			t.Errorf("a finished league: knockout shown %v, pause shown %v", !ev.knockout.Hidden, !ev.pause.Hidden)
		}
	})
	ais, err := u.Svc.AIs()
	if err != nil {
		t.Fatal(err)
	}
	evs, err := u.Svc.Events()
	if err != nil {
		t.Fatal(err)
	}
	var f *createEventForm
	onUI(func() {
		// What showKnockoutFrom does, without its reads off the UI thread.
		f = newCreateEventForm(u, ais)
		f.setEvents(evs)
		f.game.SetSelected(view.Event.Game)
		f.format.SetSelected("bracket")
		f.seeding.SetSelected(seedingLabel(view.Event))
		f.runNow.SetChecked(false)
		f.show()
	})
	// The plan counts the league's entries, not the (none) chosen.
	eventuallyUI(t, "the plan counts the standings' entries", func() bool {
		return strings.Contains(f.plan.Text, "bracket of 3 entries")
	})
	onUI(func() {
		if !slices.Contains(f.seeding.Options, seedingLabel(view.Event)) || f.seeding.Selected != seedingLabel(view.Event) {
			t.Fatalf("seeding offers %q, selected %q", f.seeding.Options, f.seeding.Selected)
		}
		f.submit()
	})
	var seeds []string
	eventually(t, "the bracket is created", func() bool {
		all, _ := u.Svc.DB().ListEvents()
		for _, e := range all {
			if e.ID != league.ID {
				got, err := u.Svc.DB().Event(e.ID)
				if err != nil {
					t.Fatal(err)
				}
				seeds = entryNames(got)
				return true
			}
		}
		return false
	})
	if !slices.Equal(seeds, standings) {
		t.Errorf("bracket seeds %q, want the league's standings %q", seeds, standings)
	}
}

// TestExportOffersTheResultsSheet: Export standings offers the results
// sheet beside CSV and Markdown, and that choice writes the sheet's page.
func TestExportOffersTheResultsSheet(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	ev := playEvent(t, u.Svc, service.EventSpec{Game: "battle2048", Format: "league", Games: 1, Seed: 2, SeedSet: true,
		Entries: []string{"builtin:battle2048/random", "builtin:battle2048/greedy"}})
	view, err := u.Svc.EventView(ev.ID)
	if err != nil || view.TableErr != nil {
		t.Fatalf("view: %v %v", err, view.TableErr)
	}
	var options []string
	onUI(func() {
		v := newEventView(u)
		v.apply(&eventData{EventView: view})
		v.onExport()
		for _, o := range u.Win.Canvas().Overlays().List() {
			walk(t, o, func(o fyne.CanvasObject) {
				if r, ok := o.(*widget.RadioGroup); ok {
					options = r.Options
				}
			})
		}
	})
	if !slices.Contains(options, resultsSheet) {
		t.Fatalf("export offers %q, not the results sheet", options)
	}
	var b strings.Builder
	if err := writeExport(&b, view, "sheet"); err != nil {
		t.Fatal(err)
	}
	if page := b.String(); !strings.HasPrefix(page, "<!DOCTYPE html>") || !strings.Contains(page, "<svg") {
		t.Errorf("the sheet export is not the page:\n%.300s", page)
	}
}
