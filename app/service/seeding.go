package service

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"ringside/runner"
	"ringside/storage"
)

// Seedings of an event's entries (EventSpec.Seeding). In a bracket the
// order of the entries is their seeding: seed 1 first, and the bracket
// places 1 v N, 2 v N−1… with the byes going to the top seeds.
const (
	// SeedListed keeps the entries in the order they were listed.
	SeedListed = "listed"
	// SeedRandom shuffles them by the event's seed.
	SeedRandom = "random"
	// SeedFromEvent orders them by another event's final standings
	// (EventSpec.SeedFrom).
	SeedFromEvent = "event"
)

// Seedings are the seedings EventSpec.Seeding takes.
var Seedings = []string{SeedListed, SeedRandom, SeedFromEvent}

// seedEntries puts spec's entries in the order of their seeding: taken
// from an event's standings (SeedFrom, its first Top), shuffled by the
// event's seed, or as listed.
func (s *Service) seedEntries(spec *EventSpec) error {
	seeding := spec.Seeding
	if seeding == "" {
		seeding = SeedListed
		if spec.SeedFrom != 0 {
			seeding = SeedFromEvent
		}
	}
	switch {
	case seeding != SeedListed && seeding != SeedRandom && seeding != SeedFromEvent:
		return Errorf(Invalid, "seeding %q: want one of %s", spec.Seeding, strings.Join(Seedings, ", "))
	case seeding == SeedFromEvent && spec.SeedFrom == 0:
		return Errorf(Invalid, "seeding from an event: say which event's standings give the seeds")
	case spec.Top < 0:
		return Errorf(Invalid, "top %d: take at least 1 entry from the event's standings", spec.Top)
	case spec.Top > 0 && spec.SeedFrom == 0:
		return Errorf(Invalid, "top %d takes the first entries of an event's standings: say which event", spec.Top)
	}
	if spec.SeedFrom != 0 {
		if len(spec.Entries) > 0 {
			return Errorf(Invalid, "the entries come from event %d's standings: list no entries besides", spec.SeedFrom)
		}
		entries, err := s.StandingsEntries(spec.SeedFrom, spec.Top)
		if err != nil {
			return err
		}
		spec.Entries = entries
	}
	if seeding == SeedRandom {
		if !spec.SeedSet {
			spec.Seed, spec.SeedSet = time.Now().UnixNano()&(1<<31-1), true
		}
		// The event's seed decides the draw, so the event says how it
		// was drawn and another made with the same seed draws alike.
		r := rand.New(rand.NewPCG(uint64(spec.Seed), 0x5eed))
		spec.Entries = append([]string(nil), spec.Entries...)
		r.Shuffle(len(spec.Entries), func(i, j int) { spec.Entries[i], spec.Entries[j] = spec.Entries[j], spec.Entries[i] })
	}
	return nil
}

// StandingsEntries is the entries of event id in the order of its final
// standings, best first (its first top when top > 0), each written so
// that it plays the very program it played there: an AI's revision as
// NAME@rN, a built-in bot by its name, a command as NAME=COMMAND. Fillers
// are left out. The event must be over.
func (s *Service) StandingsEntries(id int64, top int) ([]string, error) {
	v, err := s.EventView(id)
	if err != nil {
		return nil, err
	}
	if !v.Event.Over() {
		return nil, Errorf(Invalid, "event %d is %s: its standings are not final yet, so they cannot seed another event", id, v.Event.Status)
	}
	if v.TableErr != nil {
		return nil, wrap(Failed, v.TableErr, "the standings of event %d", id)
	}
	rows := v.Table.Rows
	if top > len(rows) {
		return nil, Errorf(Invalid, "top %d: event %d ranks only %d entries", top, id, len(rows))
	}
	if top > 0 {
		rows = rows[:top]
	}
	stored := v.Event.stored.Entries
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		if r.Entry < 0 || r.Entry >= len(stored) {
			return nil, Errorf(Failed, "event %d ranks entry %d, which it does not have", id, r.Entry)
		}
		spec, err := s.entryAgain(stored[r.Entry])
		if err != nil {
			return nil, wrap(Failed, err, "entry %s of event %d", r.Name, id)
		}
		out = append(out, spec)
	}
	return out, nil
}

// entryAgain writes e so that resolving it gives the same program.
func (s *Service) entryAgain(e storage.Entry) (string, error) {
	if e.RevisionID != 0 {
		rev, err := s.db.Revision(e.RevisionID)
		if err != nil {
			return "", err
		}
		if rev.AIID != 0 {
			ai, err := s.db.AI(rev.AIID)
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("%s@r%d", ai.Name, rev.Number), nil
		}
	}
	switch {
	case strings.HasPrefix(e.Name, runner.BuiltinPrefix):
		return e.Name, nil
	case e.Spec != "" && strings.Contains(e.Spec, "="):
		return e.Spec, nil
	case e.Command != "":
		return e.Name + "=" + e.Command, nil
	}
	return e.Spec, nil
}
