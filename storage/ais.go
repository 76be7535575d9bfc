package storage

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	sqlite3 "modernc.org/sqlite/lib"
)

// AI is a contestant's program: a source folder, how to build it and how
// to run it.
type AI struct {
	ID        int64
	Name      string // unique, compared without case
	Game      string // the game it plays ("grip")
	Language  string
	SourceDir string
	BuildCmd  string // empty when nothing needs building (scripts)
	RunCmd    string
	Watch     bool // rebuild when the source folder changes
	Missing   bool // the source folder is gone; the AI is kept for its history
	Created   time.Time
}

// BuildStatus is how a revision's build went.
type BuildStatus string

// Build statuses.
const (
	BuildOK     BuildStatus = "ok"
	BuildFailed BuildStatus = "failed"
)

// Revision is one build of an AI, or a runnable program without an AI (a
// plain command line or a built-in bot), which then has a Name instead.
type Revision struct {
	ID   int64
	AIID int64 // 0 for a revision without an AI
	// Number counts an AI's successful builds 1, 2, 3…; it is 0 for a
	// failed build and for a revision without an AI.
	Number      int
	Name        string // required without an AI ("builtin:grip/random")
	Hash        string // content hash of the sources or artifacts
	Status      BuildStatus
	BuildLog    string
	ArtifactDir string
	RunCmd      string
	Created     time.Time
}

const aiColumns = `id, name, game, language, source_dir, build_cmd, run_cmd, watch, missing, created`

func scanAI(row interface{ Scan(...any) error }) (AI, error) {
	var a AI
	var created sql.NullInt64
	err := row.Scan(&a.ID, &a.Name, &a.Game, &a.Language, &a.SourceDir, &a.BuildCmd, &a.RunCmd,
		&a.Watch, &a.Missing, &created)
	a.Created = fromMillis(created)
	return a, err
}

func checkAI(a AI) error {
	if strings.TrimSpace(a.Name) == "" {
		return errors.New("an AI needs a name")
	}
	if a.Game == "" {
		return fmt.Errorf("AI %q: no game given", a.Name)
	}
	return nil
}

// AddAI stores a new AI and returns it with its ID and creation time.
func (db *DB) AddAI(a AI) (AI, error) {
	if err := checkAI(a); err != nil {
		return AI{}, fmt.Errorf("add AI: %w", err)
	}
	a.Created = db.now()
	res, err := db.exec(`INSERT INTO ais (name, game, language, source_dir, build_cmd, run_cmd, watch, missing, created)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.Name, a.Game, a.Language, a.SourceDir, a.BuildCmd, a.RunCmd, a.Watch, a.Missing, a.Created.UnixMilli())
	if isConstraint(err, sqlite3.SQLITE_CONSTRAINT_UNIQUE) {
		return AI{}, fmt.Errorf("add AI: an AI named %q already exists; choose another name", a.Name)
	}
	if err != nil {
		return AI{}, fmt.Errorf("add AI %q: %w", a.Name, err)
	}
	a.ID, err = res.LastInsertId()
	if err != nil {
		return AI{}, fmt.Errorf("add AI %q: %w", a.Name, err)
	}
	a.Created = time.UnixMilli(a.Created.UnixMilli())
	return a, nil
}

// ListAIs returns every AI, by name.
func (db *DB) ListAIs() ([]AI, error) {
	rows, err := db.r.Query(`SELECT ` + aiColumns + ` FROM ais ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("list AIs: %w", err)
	}
	var out []AI
	for rows.Next() {
		a, err := scanAI(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("list AIs: %w", err)
		}
		out = append(out, a)
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("list AIs: %w", err)
	}
	return out, nil
}

// AIByName finds an AI by name, ignoring case.
func (db *DB) AIByName(name string) (AI, error) {
	a, err := scanAI(db.r.QueryRow(`SELECT `+aiColumns+` FROM ais WHERE name = ?`, name))
	if errors.Is(err, sql.ErrNoRows) {
		return AI{}, fmt.Errorf("AI %q: %w (see the list of AIs)", name, ErrNotFound)
	}
	if err != nil {
		return AI{}, fmt.Errorf("AI %q: %w", name, err)
	}
	return a, nil
}

// AI finds an AI by ID.
func (db *DB) AI(id int64) (AI, error) {
	a, err := scanAI(db.r.QueryRow(`SELECT `+aiColumns+` FROM ais WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return AI{}, fmt.Errorf("AI %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return AI{}, fmt.Errorf("AI %d: %w", id, err)
	}
	return a, nil
}

// UpdateAI saves every field of a.ID's AI except its creation time.
func (db *DB) UpdateAI(a AI) error {
	if err := checkAI(a); err != nil {
		return fmt.Errorf("update AI %d: %w", a.ID, err)
	}
	res, err := db.exec(`UPDATE ais SET name = ?, game = ?, language = ?, source_dir = ?, build_cmd = ?,
		run_cmd = ?, watch = ?, missing = ? WHERE id = ?`,
		a.Name, a.Game, a.Language, a.SourceDir, a.BuildCmd, a.RunCmd, a.Watch, a.Missing, a.ID)
	if isConstraint(err, sqlite3.SQLITE_CONSTRAINT_UNIQUE) {
		return fmt.Errorf("rename AI %d: an AI named %q already exists; choose another name", a.ID, a.Name)
	}
	if err != nil {
		return fmt.Errorf("update AI %q: %w", a.Name, err)
	}
	return mustAffect(res, fmt.Sprintf("update AI %d", a.ID))
}

// RemoveAI deletes an AI and its revisions. Events it played keep their
// entries (name, command, folder) and results; only the link to the
// revision is cleared.
func (db *DB) RemoveAI(id int64) error {
	res, err := db.exec(`DELETE FROM ais WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("remove AI %d: %w", id, err)
	}
	return mustAffect(res, fmt.Sprintf("remove AI %d", id))
}

// mustAffect turns "no row changed" into an ErrNotFound error.
func mustAffect(res sql.Result, what string) error {
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if n == 0 {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return nil
}

const revisionColumns = `id, ai_id, number, name, hash, status, build_log, artifact_dir, run_cmd, created`

func scanRevision(row interface{ Scan(...any) error }) (Revision, error) {
	var r Revision
	var ai, num, created sql.NullInt64
	err := row.Scan(&r.ID, &ai, &num, &r.Name, &r.Hash, &r.Status, &r.BuildLog, &r.ArtifactDir, &r.RunCmd, &created)
	r.AIID, r.Number, r.Created = ai.Int64, int(num.Int64), fromMillis(created)
	return r, err
}

// AddRevision stores a build (or an AI-less runnable) and returns it with
// its ID and, for a successful build of an AI, its number: one more than
// the AI's latest.
func (db *DB) AddRevision(r Revision) (Revision, error) {
	if r.Status != BuildOK && r.Status != BuildFailed {
		return Revision{}, fmt.Errorf("add revision: status %q is neither %q nor %q", r.Status, BuildOK, BuildFailed)
	}
	if r.AIID == 0 && r.Name == "" {
		return Revision{}, errors.New("add revision: a revision without an AI needs a name")
	}
	r.Created = time.UnixMilli(db.now().UnixMilli())
	r.Number = 0
	err := db.write(func(tx *sql.Tx) error {
		var ai, num sql.NullInt64
		if r.AIID != 0 {
			ai = sql.NullInt64{Int64: r.AIID, Valid: true}
			var exists bool
			if err := tx.QueryRow(`SELECT EXISTS (SELECT 1 FROM ais WHERE id = ?)`, r.AIID).Scan(&exists); err != nil {
				return err
			}
			if !exists {
				return fmt.Errorf("AI %d: %w", r.AIID, ErrNotFound)
			}
			if r.Status == BuildOK {
				if err := tx.QueryRow(`SELECT coalesce(max(number), 0) + 1 FROM revisions WHERE ai_id = ? AND number IS NOT NULL`,
					r.AIID).Scan(&num); err != nil {
					return err
				}
				r.Number = int(num.Int64)
			}
		}
		res, err := tx.Exec(`INSERT INTO revisions (ai_id, number, name, hash, status, build_log, artifact_dir, run_cmd, created)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			ai, num, r.Name, r.Hash, r.Status, r.BuildLog, r.ArtifactDir, r.RunCmd, r.Created.UnixMilli())
		if err != nil {
			return err
		}
		r.ID, err = res.LastInsertId()
		return err
	})
	if err != nil {
		return Revision{}, fmt.Errorf("add revision of AI %d: %w", r.AIID, err)
	}
	return r, nil
}

// Revisions lists an AI's builds, failed ones included, oldest first.
func (db *DB) Revisions(aiID int64) ([]Revision, error) {
	rows, err := db.r.Query(`SELECT `+revisionColumns+` FROM revisions WHERE ai_id = ? ORDER BY id`, aiID)
	if err != nil {
		return nil, fmt.Errorf("revisions of AI %d: %w", aiID, err)
	}
	var out []Revision
	for rows.Next() {
		r, err := scanRevision(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("revisions of AI %d: %w", aiID, err)
		}
		out = append(out, r)
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("revisions of AI %d: %w", aiID, err)
	}
	return out, nil
}

// Revision finds a revision by ID.
func (db *DB) Revision(id int64) (Revision, error) {
	r, err := scanRevision(db.r.QueryRow(`SELECT `+revisionColumns+` FROM revisions WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Revision{}, fmt.Errorf("revision %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Revision{}, fmt.Errorf("revision %d: %w", id, err)
	}
	return r, nil
}

// LatestRevision returns an AI's newest successful build: the one that
// plays. A failed build never replaces it.
func (db *DB) LatestRevision(aiID int64) (Revision, error) {
	r, err := scanRevision(db.r.QueryRow(`SELECT `+revisionColumns+` FROM revisions
		WHERE ai_id = ? AND number IS NOT NULL ORDER BY number DESC LIMIT 1`, aiID))
	if errors.Is(err, sql.ErrNoRows) {
		return Revision{}, fmt.Errorf("AI %d has no successful build yet: %w", aiID, ErrNotFound)
	}
	if err != nil {
		return Revision{}, fmt.Errorf("latest revision of AI %d: %w", aiID, err)
	}
	return r, nil
}

// RevisionByHash finds an AI's successful build with the given content
// hash, so an unchanged folder is not stored twice.
func (db *DB) RevisionByHash(aiID int64, hash string) (Revision, error) {
	r, err := scanRevision(db.r.QueryRow(`SELECT `+revisionColumns+` FROM revisions
		WHERE ai_id = ? AND hash = ? AND status = 'ok' ORDER BY id DESC LIMIT 1`, aiID, hash))
	if errors.Is(err, sql.ErrNoRows) {
		return Revision{}, fmt.Errorf("AI %d revision with hash %s: %w", aiID, hash, ErrNotFound)
	}
	if err != nil {
		return Revision{}, fmt.Errorf("AI %d revision with hash %s: %w", aiID, hash, err)
	}
	return r, nil
}
