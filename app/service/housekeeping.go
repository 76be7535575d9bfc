package service

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"ringside/storage"
)

// DeleteReport is what deleting an event left behind.
type DeleteReport struct {
	Games int           // games deleted with the event
	Space storage.Space // the file's pages afterwards: see Space.MostlyFree
}

// DeleteEventProgress is DeleteEvent with progress for a big event:
// progress (may be nil) is called after each batch of games with the games
// deleted so far and the total. The space freed stays in the file as free
// pages until Vacuum; the report says how much.
func (s *Service) DeleteEventProgress(id int64, progress func(done, total int)) (DeleteReport, error) {
	var rep DeleteReport
	lock, err := s.lockEvent(id, "stop it before deleting it")
	if err != nil {
		return rep, err
	}
	err = s.db.DeleteEventProgress(id, func(done, total int) {
		rep.Games = total
		if progress != nil {
			progress(done, total)
		}
	})
	// The lock row goes with the event; releasing it afterwards only
	// stops its heartbeat.
	if rerr := lock.Release(); err == nil {
		err = rerr
	}
	if err != nil {
		return rep, wrap(Failed, err, "delete event %d", id)
	}
	if rep.Space, err = s.db.Space(); err != nil {
		return rep, wrap(Failed, err, "delete event %d", id)
	}
	return rep, nil
}

// VacuumReport is the file's size on disk (with its journal) before and
// after Vacuum.
type VacuumReport struct {
	Before, After int64
}

// Vacuum compacts the database file: SQLite copies the live pages into a
// new file and replaces the old one, so the space of deleted events goes
// back to the disk. It takes about as long as copying the live data and
// needs that much free disk meanwhile; other writers wait for it.
func (s *Service) Vacuum() (VacuumReport, error) {
	rep := VacuumReport{Before: s.db.FileSize()}
	if err := s.db.Vacuum(); err != nil {
		return rep, wrap(Failed, err, "compact the database")
	}
	rep.After = s.db.FileSize()
	return rep, nil
}

// Space is how the database file's pages are used.
func (s *Service) Space() (storage.Space, error) { return s.db.Space() }

// FileSize is the database file's size on disk, in bytes.
func (s *Service) FileSize() int64 { return s.db.FileSize() }

// ResultFiles expands the arguments of an import: a file is itself, a
// folder gives its result files (*.result and *.jsonl, not recursing),
// sorted. A folder without any is an error, so a wrong folder does not
// import nothing silently.
func ResultFiles(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, wrap(Invalid, err, "result file")
		}
		if !fi.IsDir() {
			files = append(files, a)
			continue
		}
		ents, err := os.ReadDir(a)
		if err != nil {
			return nil, wrap(Invalid, err, "result folder %s", a)
		}
		var found []string
		for _, e := range ents {
			if !e.IsDir() && (strings.HasSuffix(e.Name(), ".result") || strings.HasSuffix(e.Name(), ".jsonl")) {
				found = append(found, filepath.Join(a, e.Name()))
			}
		}
		if len(found) == 0 {
			return nil, Errorf(Invalid, "%s holds no result files (*.result or *.jsonl, as \"ringside shard run BUNDLE --out NAME.result\" writes)", a)
		}
		slices.Sort(found)
		files = append(files, found...)
	}
	return files, nil
}

// Size writes a byte count as people read it: "66.0 MB".
func Size(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, i := float64(n)/unit, 0
	for v >= unit && i < 3 {
		v /= unit
		i++
	}
	return fmt.Sprintf("%.1f %cB", v, "kMGT"[i])
}
