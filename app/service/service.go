// Package service holds Ringside's use cases, written once for both front
// ends: the command line (app/cli) and the desktop app (app). Opening the
// database, resolving an entry, registering, editing, building, checking
// and removing an AI, watching source folders, creating and running
// events, comparing two bots and writing standings all live here.
//
// It prints nothing and knows no Fyne. Results come back as data, errors
// as *Error with a Code and a Fix that each front end words its own way
// ("run ringside ai build alice" in a terminal, a Build button in the app).
// Long work reports through OnX callbacks called from the worker's
// goroutine.
package service

import (
	"errors"
	"fmt"
	"sync"

	"ringside/runner"
	"ringside/storage"
)

// Service is one open database and the use cases on it. It is safe for
// concurrent use.
type Service struct {
	db *storage.DB
	// builds serialises builds of one AI within this process; LockAI
	// does it across processes.
	builds keyedMutex
	live   *Live
	// classSt is the class server's hand-in queue, made on first use.
	classOnce sync.Once
	classSt   *classState
}

// Open opens the database at path, or the default one when path is empty,
// creating it if needed. A newer schema or a damaged file is refused and
// never touched; every error names the file.
func Open(path string) (*Service, error) {
	path, err := dbPath(path)
	if err != nil {
		return nil, err
	}
	db, err := storage.Open(path)
	if err != nil {
		return nil, &Error{Code: Failed, Message: err.Error(), Subject: path, Err: err}
	}
	return New(db), nil
}

// OpenReadOnly opens the database at path for reading only: it works on
// read-only media and never creates a file, so a mistyped path is an
// error. Without a path, a missing default database is created as by
// Open (a first start).
func OpenReadOnly(path string) (*Service, error) {
	p, err := dbPath(path)
	if err != nil {
		return nil, err
	}
	db, err := storage.OpenReadOnly(p)
	var none *storage.NoDatabaseError
	if path == "" && errors.As(err, &none) {
		return Open(path)
	}
	if err != nil {
		return nil, &Error{Code: Failed, Message: err.Error(), Subject: p, Err: err}
	}
	return New(db), nil
}

// dbPath is path, or the default database's when it is empty.
func dbPath(path string) (string, error) {
	if path != "" {
		return path, nil
	}
	p, err := storage.DefaultPath()
	if err != nil {
		return "", &Error{Code: Invalid, Message: fmt.Sprintf("find the default database: %v; give one with --db PATH", err), Err: err}
	}
	return p, nil
}

// New makes a service over an open database. From now on no bot of this
// process is granted the database, its journal or its data folder, even
// if its command line names them (runner.Protect).
func New(db *storage.DB) *Service {
	if p := db.Path(); p != "" {
		runner.Protect(p, p+"-wal", p+"-shm", p+"-journal", db.DataDir())
	}
	return &Service{db: db, live: newLive()}
}

// Live follows the games this process is playing.
func (s *Service) Live() *Live { return s.live }

// DB is the database, for plain reads that need no use case (events,
// matches, replays).
func (s *Service) DB() *storage.DB { return s.db }

// Path is the database file.
func (s *Service) Path() string { return s.db.Path() }

// Close closes the database.
func (s *Service) Close() error { return s.db.Close() }
