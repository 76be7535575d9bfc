package app

import (
	"fmt"

	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
	"ringside/engine/event"
)

// The New event form's seeding row: the order of the entries, which in a
// bracket are its seeds (1 v N, 2 v N−1…, byes to the top seeds). "As
// listed" is the entrants list's order, which the ↑ and ↓ of each row
// change (Fyne's lists have no drag and drop); programs typed under
// "Other programs" come after, in their lines' order.
const (
	seedingListed = "as listed"
	seedingRandom = "random (by the seed)"
)

// seedingLabel is how the seeding row offers event ev's standings.
func seedingLabel(ev service.EventInfo) string {
	return fmt.Sprintf("from the standings of %s (event %d)", ev.Name, ev.ID)
}

// canSeed reports whether ev's standings can seed a knockout: over, and
// ranked by results (a league, Swiss or gauntlet; not a comparison).
func canSeed(ev service.EventInfo) bool {
	return ev.Status == service.EventFinished && ev.Config.Format != event.SPRT && ev.Config.Format != event.Bracket
}

// newSeeding makes the seeding select; its choices follow the game
// (seedingChoices).
func (f *createEventForm) newSeeding() {
	f.seeding = widget.NewSelect([]string{seedingListed, seedingRandom}, func(string) { f.replan() })
	f.seeding.SetSelected(seedingListed)
}

// seedingChoices offers, besides listed and random, the standings of
// each finished event of game.
func (f *createEventForm) seedingChoices(game string) {
	if f.seeding == nil {
		return
	}
	f.seedFrom = map[string]int64{}
	opts := []string{seedingListed, seedingRandom}
	for _, ev := range f.events {
		if ev.Game == game && canSeed(ev) {
			l := seedingLabel(ev)
			f.seedFrom[l] = ev.ID
			opts = append(opts, l)
		}
	}
	f.seeding.Options = opts
	if _, ok := f.seedFrom[f.seeding.Selected]; !ok && f.seeding.Selected != seedingRandom {
		f.seeding.SetSelected(seedingListed)
	}
	f.seeding.Refresh()
}

// seedSpec sets s's seeding from the form: an event's standings take the
// place of the entrants chosen.
func (f *createEventForm) seedSpec(s *service.EventSpec) {
	switch sel := f.seeding.Selected; {
	case sel == seedingRandom:
		s.Seeding = service.SeedRandom
	case f.seedFrom[sel] != 0:
		s.Seeding, s.SeedFrom, s.Entries = service.SeedFromEvent, f.seedFrom[sel], nil
	default:
		s.Seeding = service.SeedListed
	}
}

// showKnockoutFrom opens the New event form for a bracket seeded from
// finished event ev's standings: Create is the one more click.
func showKnockoutFrom(u *UI, ev service.EventInfo) {
	openCreateEventForm(u, func(f *createEventForm) {
		f.game.SetSelected(ev.Game)
		f.format.SetSelected(string(event.Bracket))
		f.seeding.SetSelected(seedingLabel(ev))
		f.name.SetText("Knockout of " + ev.Name)
	})
}

// setEvents gives the form the events whose standings can seed.
func (f *createEventForm) setEvents(evs []service.EventInfo) {
	f.events = evs
	f.seedingChoices(f.game.Selected)
}

// seedKnockout offers "Knockout from these standings" on an event whose
// standings can seed one, in the place of Pause and Stop, which a finished
// event has no use for (the row of buttons must fit 1024 pixels).
func seedKnockout(v *eventView, ev service.EventInfo) {
	if canSeed(ev) {
		v.pause.Hide()
		v.stop.Hide()
		v.knockout.Show()
		return
	}
	v.knockout.Hide()
	v.pause.Show()
	v.stop.Show()
}
