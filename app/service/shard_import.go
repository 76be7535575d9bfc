package service

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"time"

	"ringside/engine"
	"ringside/engine/event"
	"ringside/engine/games"
	"ringside/runner"
	"ringside/storage"
)

// ImportReport is what an import of result files did.
type ImportReport struct {
	Files    int
	Games    int      // game results read (a game in two files counts twice)
	Imported int      // stored now
	Kept     int      // had a result already (imported before, or played here): left as it was
	Differ   int      // of those, results unlike the one kept (bots that play differently each time)
	Machines []string // that played them
	Left     int      // games of the event still without a result
	Finished bool     // the event is finished now
	Next     int      // games of a next round scheduled now (adaptive formats): export again
}

// Import merges result files of an event's shards into the database, by
// match id. Every file is read and every game checked before anything is
// stored, and then all are stored in one transaction: a file of another
// event, entries that are not the event's revisions, or a game whose
// replay does not re-simulate to its recorded result refuses the whole
// import, naming the file and the game. A game that has a result already
// keeps it, so importing a file twice, or two overlapping files, changes
// nothing.
func (s *Service) Import(id int64, files []string) (ImportReport, error) {
	var rep ImportReport
	if len(files) == 0 {
		return rep, Errorf(Invalid, "give the result files to import")
	}
	lock, err := s.lockEvent(id, "import when it has stopped")
	if err != nil {
		return rep, err
	}
	defer lock.Release()
	ev, err := s.db.Event(id)
	if err != nil {
		return rep, err
	}
	g, err := games.Get(ev.Game)
	if err != nil {
		return rep, wrap(Invalid, err, "event %d", id)
	}
	if _, err := g.Info().Resolve(ev.Options); err != nil {
		return rep, wrap(Invalid, err, "event %d", id)
	}
	ms, err := s.db.Matches(id)
	if err != nil {
		return rep, err
	}
	byID := make(map[int64]storage.Match, len(ms))
	for _, m := range ms {
		byID[m.ID] = m
	}
	entries, _, err := s.shardEntries(ev, false)
	if err != nil {
		return rep, err
	}

	var read []importPick
	machines := map[string]bool{}
	for _, f := range files {
		hdr, lines, err := ReadResultFile(f)
		if err != nil {
			return rep, err
		}
		if err := checkHeader(f, hdr, ev, entries); err != nil {
			return rep, err
		}
		if err := s.checkShard(f, hdr, id); err != nil {
			return rep, err
		}
		rep.Files++
		for _, l := range lines {
			if l.Kind != "match" {
				continue
			}
			rep.Games++
			if err := checkLine(f, l, byID, id); err != nil {
				return rep, err
			}
			machines[l.Machine] = true
			read = append(read, importPick{f, l})
		}
	}

	// Every game read is checked, a repeat too: a file is refused whole.
	if err := checkReplays(g, ev, read, byID); err != nil {
		return rep, err
	}
	picks := firstOfEach(read, &rep)

	var todo []storage.Imported
	outs, err := s.db.Outcomes(id)
	if err != nil {
		return rep, err
	}
	last := -1
	for _, p := range picks {
		l := p.line
		m := byID[l.Match]
		if m.Status == storage.MatchDone {
			if m.Result != nil && !reflect.DeepEqual(m.Result.Ranks, l.Result.Ranks) {
				rep.Differ++
			}
			continue // ImportMatches counts it as kept
		}
		todo = append(todo, storage.Imported{MatchID: l.Match, Finish: storage.Finish{Result: *l.Result, Log: l.Log,
			Duration: time.Duration(l.Millis) * time.Millisecond, Problems: l.Problems}})
		outs = append(outs, event.Outcome{Game: m.Game, Ranks: l.Result.Ranks})
		last = max(last, m.Game.Index)
	}
	slices.SortFunc(outs, func(a, b event.Outcome) int { return a.Game.Index - b.Game.Index })
	var ratings []storage.Rating
	if last >= 0 {
		ratings = ratingsAfter(ev.Config, outs, last)
	}
	stored, kept, err := s.db.ImportMatches(id, todo, ratings)
	if err != nil {
		return rep, err
	}
	rep.Imported, rep.Kept = stored, rep.Kept+kept+len(picks)-len(todo)
	for m := range machines {
		rep.Machines = append(rep.Machines, m)
	}
	slices.Sort(rep.Machines)
	return rep, s.afterImport(ev, &rep)
}

// importPick is one game read from a result file.
type importPick struct {
	file string
	line ResultLine
}

// checkShard refuses result file f when its header answers a shard this
// database never exported for event id, or one taken back since.
func (s *Service) checkShard(f string, hdr *ResultHeader, id int64) error {
	sh, err := s.db.ShardByToken(hdr.Token)
	if err != nil {
		return Errorf(Invalid, "%s answers shard %d of %d, which this database never exported for event %d; nothing imported", f, hdr.Shard, hdr.Of, id)
	}
	if !sh.Revoked.IsZero() {
		return Errorf(Conflict, "%s answers shard %d of %d (%s), which was taken back with \"ringside event unexport %d\" on %s: its games were scheduled here again; nothing imported",
			f, hdr.Shard, hdr.Of, sh.File, id, sh.Revoked.Local().Format("2006-01-02 15:04"))
	}
	return nil
}

// checkLine refuses a game of result file f that is not the event's game
// of that match id (its index, seed and seats), or that lacks its result
// or replay.
func checkLine(f string, l ResultLine, byID map[int64]storage.Match, id int64) error {
	m, ok := byID[l.Match]
	if !ok {
		return Errorf(Invalid, "%s: match %d is not a game of event %d; nothing imported", f, l.Match, id)
	}
	if m.Game.Index != l.Index || m.Game.Seed != l.Seed || !slices.Equal(m.Game.Seats, l.Seats) {
		return Errorf(Invalid, "%s: match %d is game %d with seed %d and seats %v here, not game %d with seed %d and seats %v; nothing imported",
			f, l.Match, m.Game.Index+1, m.Game.Seed, m.Game.Seats, l.Index+1, l.Seed, l.Seats)
	}
	if l.Result == nil || l.Log == nil {
		return Errorf(Invalid, "%s: match %d has no result or no replay; nothing imported", f, l.Match)
	}
	return nil
}

// checkReplays re-simulates every game read and refuses the import at the
// first whose replay does not give its recorded result. Re-simulating is
// most of the work: it is spread over the cores.
func checkReplays(g engine.Game, ev storage.Event, read []importPick, byID map[int64]storage.Match) error {
	want, err := wantedOptions(g.Info(), ev, read, byID)
	if err != nil {
		return err
	}
	errs := make([]error, len(read))
	onAllCores(len(read), func(i int) {
		errs[i] = checkReplay(g, read[i].line, byID[read[i].line.Match], want[i])
	})
	for i, err := range errs {
		if err != nil {
			p := read[i]
			return Errorf(Invalid, "%s: match %d (game %d): %v; the file was changed or damaged: nothing imported", p.file, p.line.Match, p.line.Index+1, err)
		}
	}
	return nil
}

// wantedOptions returns, per game read, the options (JSON) it must have
// recorded. They depend on its seats alone, and a league has few seat
// orders and many games: each is worked out once.
func wantedOptions(info engine.Info, ev storage.Event, read []importPick, byID map[int64]storage.Match) ([][]byte, error) {
	bySeats := map[string][]byte{}
	want := make([][]byte, len(read))
	for i, p := range read {
		seats := byID[p.line.Match].Game.Seats
		key := fmt.Sprint(seats)
		if _, ok := bySeats[key]; !ok {
			var err error
			if bySeats[key], err = matchOptions(info, ev, seats); err != nil {
				return nil, wrap(Invalid, err, "event %d", ev.ID)
			}
		}
		want[i] = bySeats[key]
	}
	return want, nil
}

// firstOfEach keeps the first game read of each match; the repeats count
// as kept in rep, and as differing where their ranks differ.
func firstOfEach(read []importPick, rep *ImportReport) []importPick {
	var picks []importPick
	chosen := map[int64]int{} // match id → index in picks
	for _, p := range read {
		if k, ok := chosen[p.line.Match]; ok {
			if !reflect.DeepEqual(picks[k].line.Result.Ranks, p.line.Result.Ranks) {
				rep.Differ++
			}
			rep.Kept++
			continue
		}
		chosen[p.line.Match] = len(picks)
		picks = append(picks, p)
	}
	return picks
}

// matchOptions is, as JSON, the options a game of ev with these seats
// plays with and records: the event's, and as key@SEAT those of the AIs
// in its seats (coords=xy), as the runner adds them.
func matchOptions(info engine.Info, ev storage.Event, seats []int) ([]byte, error) {
	bots := make([]runner.Bot, len(seats))
	for i, e := range seats {
		if e >= 0 && e < len(ev.Entries) {
			bots[i].Options = entryOptions(ev.Entries[e].Options)
		}
	}
	opts, err := info.Resolve(runner.SeatOptions(ev.Options, bots))
	if err != nil {
		return nil, fmt.Errorf("the event's options: %w", err)
	}
	return json.Marshal(opts)
}

// checkHeader refuses a result file of another event, or whose entries
// are not the event's revisions.
func checkHeader(f string, hdr *ResultHeader, ev storage.Event, entries []ShardEntry) error {
	if hdr.Event.ID != ev.ID {
		return Errorf(Invalid, "%s holds results of event %d (%q), not of event %d (%q): import it with \"ringside event import %d\"; nothing imported",
			f, hdr.Event.ID, hdr.Event.Name, ev.ID, ev.Name, hdr.Event.ID)
	}
	if hdr.Event.Created != ev.Created.UnixMilli() {
		return Errorf(Invalid, "%s holds results of an event %d (%q) of another database, not of this database's event %d (%q); nothing imported",
			f, hdr.Event.ID, hdr.Event.Name, ev.ID, ev.Name)
	}
	if len(hdr.Entries) != len(entries) {
		return Errorf(Invalid, "%s was played with %d entries, but event %d has %d; nothing imported", f, len(hdr.Entries), ev.ID, len(entries))
	}
	for i, got := range hdr.Entries {
		want := entries[i]
		if got.Index != want.Index || got.Name != want.Name || got.RevisionID != want.RevisionID || got.Hash != want.Hash {
			return Errorf(Invalid, "%s: entry %d was played as %s (revision %d, hash %.12s), but event %d's entry %d is %s (revision %d, hash %.12s): the shard played other revisions; nothing imported",
				f, i+1, got.Name, got.RevisionID, got.Hash, ev.ID, i+1, want.Name, want.RevisionID, want.Hash)
		}
		if got.Options != want.Options {
			return Errorf(Invalid, "%s: entry %d (%s) was played with options %q, but event %d plays it with %q: the bundle came from an older Ringside or was changed; export again with --resend; nothing imported",
				f, i+1, got.Name, got.Options, ev.ID, want.Options)
		}
	}
	return nil
}

// checkReplay re-simulates a game played elsewhere and compares the
// result the game reaches with the one recorded.
// want is the options it must record (matchOptions), as JSON.
func checkReplay(g engine.Game, l ResultLine, m storage.Match, want []byte) error {
	log := l.Log
	if log.Game != g.Info().ID || log.Seed != m.Game.Seed || len(log.Players) != len(m.Game.Seats) {
		return fmt.Errorf("its replay is of %s, seed %d, %d players, not %s, seed %d, %d players",
			log.Game, log.Seed, len(log.Players), g.Info().ID, m.Game.Seed, len(m.Game.Seats))
	}
	if got, _ := json.Marshal(log.Options); string(got) != string(want) {
		return fmt.Errorf("its replay was played with options %s, not the event's %s", got, want)
	}
	res, err := engine.Resimulate(g, log)
	if err != nil {
		return fmt.Errorf("its replay does not re-simulate: %w", err)
	}
	for _, rec := range []engine.Result{*l.Result, log.Result} {
		if !reflect.DeepEqual(normal(res), normal(rec)) {
			return fmt.Errorf("its replay re-simulates to ranks %v (%s, %d turns), not the recorded ranks %v (%s, %d turns)",
				res.Ranks, res.Reason, res.Turns, rec.Ranks, rec.Reason, rec.Turns)
		}
	}
	return nil
}

// normal makes an empty and a missing score list equal, as JSON does.
func normal(r engine.Result) engine.Result {
	if len(r.Scores) == 0 {
		r.Scores = nil
	}
	return r
}

// afterImport finishes an event whose games are all played, or schedules
// an adaptive format's next round.
func (s *Service) afterImport(ev storage.Event, rep *ImportReport) error {
	done, all, err := s.db.MatchCounts(ev.ID)
	if err != nil {
		return err
	}
	rep.Left = all - done
	if rep.Left > 0 {
		return nil
	}
	next, finished, err := s.scheduleNext(ev)
	if err != nil {
		return err
	}
	if finished {
		rep.Finished = true
		return s.db.SetEventStatus(ev.ID, storage.EventFinished)
	}
	rep.Next, rep.Left = next, next
	return nil
}
