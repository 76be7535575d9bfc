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
	// Current is the ID of the revision that plays (0: none yet): the last
	// successful build, or an earlier revision whose sources came back. A
	// failed build never changes it. Only builds set it (SaveBuild,
	// SetCurrentRevision); UpdateAI leaves it alone.
	Current int64
	// CurrentSince is when Current was last set.
	CurrentSince time.Time
	// Trusted runs the AI without the sandbox; Limits overrides the
	// sandbox's caps ("memory=512M processes=64"; "" keeps the defaults).
	Trusted bool
	Limits  string
	// Options are game options only this AI's seat gets ("coords=xy";
	// several separated by spaces; "" for none).
	Options string
	// Pinned is the ID of the revision events play instead of Current (0:
	// not pinned). Only SetPin changes it; UpdateAI leaves it alone.
	Pinned int64
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
	// Digest is the revision folder's (see build.Digest), "" when not
	// known (failed builds, revisions older than schema 11).
	Digest string
}

const aiColumns = `id, name, game, language, source_dir, build_cmd, run_cmd, watch, missing, created, current_revision, current_since, trusted, limits, options, pinned_revision`

func scanAI(row scanner) (AI, error) {
	var a AI
	var created, current, since, pinned sql.NullInt64
	err := row.Scan(&a.ID, &a.Name, &a.Game, &a.Language, &a.SourceDir, &a.BuildCmd, &a.RunCmd,
		&a.Watch, &a.Missing, &created, &current, &since, &a.Trusted, &a.Limits, &a.Options, &pinned)
	a.Created, a.Current, a.CurrentSince, a.Pinned = fromMillis(created), current.Int64, fromMillis(since), pinned.Int64
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
	res, err := db.exec(`INSERT INTO ais (name, game, language, source_dir, build_cmd, run_cmd, watch, missing, created, trusted, limits, options)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.Name, a.Game, a.Language, a.SourceDir, a.BuildCmd, a.RunCmd, a.Watch, a.Missing, a.Created.UnixMilli(), a.Trusted, a.Limits, a.Options)
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
	out, err := collect(scanAI)(db.r.Query(`SELECT ` + aiColumns + ` FROM ais ORDER BY name`))
	if err != nil {
		return nil, fmt.Errorf("list AIs: %w", err)
	}
	return out, nil
}

// AIByName finds an AI by name, ignoring case.
func (db *DB) AIByName(name string) (AI, error) {
	return one(scanAI, db.r.QueryRow(`SELECT `+aiColumns+` FROM ais WHERE name = ?`, name), "AI %q", name)
}

// AI finds an AI by ID.
func (db *DB) AI(id int64) (AI, error) {
	return one(scanAI, db.r.QueryRow(`SELECT `+aiColumns+` FROM ais WHERE id = ?`, id), "AI %d", id)
}

// UpdateAI saves every field of a.ID's AI except its creation time.
func (db *DB) UpdateAI(a AI) error {
	if err := checkAI(a); err != nil {
		return fmt.Errorf("update AI %d: %w", a.ID, err)
	}
	res, err := db.exec(`UPDATE ais SET name = ?, game = ?, language = ?, source_dir = ?, build_cmd = ?,
		run_cmd = ?, watch = ?, missing = ?, trusted = ?, limits = ?, options = ? WHERE id = ?`,
		a.Name, a.Game, a.Language, a.SourceDir, a.BuildCmd, a.RunCmd, a.Watch, a.Missing, a.Trusted, a.Limits, a.Options, a.ID)
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

const revisionColumns = `id, ai_id, number, name, hash, status, build_log, artifact_dir, run_cmd, created, digest`

func scanRevision(row scanner) (Revision, error) {
	var r Revision
	var ai, num, created sql.NullInt64
	err := row.Scan(&r.ID, &ai, &num, &r.Name, &r.Hash, &r.Status, &r.BuildLog, &r.ArtifactDir, &r.RunCmd, &created, &r.Digest)
	r.AIID, r.Number, r.Created = ai.Int64, int(num.Int64), fromMillis(created)
	return r, err
}

// AddRevision stores a build (or an AI-less runnable) like SaveBuild and
// returns the stored revision.
func (db *DB) AddRevision(r Revision) (Revision, error) {
	r, _, err := db.SaveBuild(r)
	return r, err
}

// SaveBuild stores a build of an AI, or an AI-less runnable, and returns it
// with its ID and, for a successful build of an AI, its number: one more
// than the AI's latest. A successful build becomes the AI's current
// revision in the same transaction.
//
// One source makes one revision: when the AI already has a build of the
// same hash and status (another process built the same sources, or a
// failed build was forced again), that row is returned with existed set,
// its log and, for a successful build whose folder was rebuilt, its folder
// updated. So two watchers on one database cannot number the same sources
// twice.
func (db *DB) SaveBuild(r Revision) (rev Revision, existed bool, err error) {
	if r.Status != BuildOK && r.Status != BuildFailed {
		return Revision{}, false, fmt.Errorf("add revision: status %q is neither %q nor %q", r.Status, BuildOK, BuildFailed)
	}
	if r.AIID == 0 && r.Name == "" {
		return Revision{}, false, errors.New("add revision: a revision without an AI needs a name")
	}
	r.Created = time.UnixMilli(db.now().UnixMilli())
	r.Number = 0
	err = db.write(func(tx *sql.Tx) error {
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
			old, err := scanRevision(tx.QueryRow(`SELECT `+revisionColumns+` FROM revisions
				WHERE ai_id = ? AND hash = ? AND status = ?`, r.AIID, r.Hash, r.Status))
			switch {
			case err == nil:
				existed = true
				switch {
				case r.Status == BuildFailed:
					// Built again (forced): the newest log, at its time.
					if _, err := tx.Exec(`UPDATE revisions SET build_log = ?, created = ? WHERE id = ?`,
						r.BuildLog, r.Created.UnixMilli(), old.ID); err != nil {
						return err
					}
					old.BuildLog, old.Created = r.BuildLog, r.Created
				case r.ArtifactDir != "" && (r.ArtifactDir != old.ArtifactDir || r.Digest != old.Digest):
					// Its folder was deleted (or failed verification) and
					// built again.
					if _, err := tx.Exec(`UPDATE revisions SET artifact_dir = ?, digest = ? WHERE id = ?`, r.ArtifactDir, r.Digest, old.ID); err != nil {
						return err
					}
					old.ArtifactDir, old.Digest = r.ArtifactDir, r.Digest
				}
				now := r.Created
				r = old
				return setCurrent(tx, r, now)
			case !errors.Is(err, sql.ErrNoRows):
				return err
			}
			if r.Status == BuildOK {
				if err := tx.QueryRow(`SELECT coalesce(max(number), 0) + 1 FROM revisions WHERE ai_id = ? AND number IS NOT NULL`,
					r.AIID).Scan(&num); err != nil {
					return err
				}
				r.Number = int(num.Int64)
			}
		}
		res, err := tx.Exec(`INSERT INTO revisions (ai_id, number, name, hash, status, build_log, artifact_dir, run_cmd, created, digest)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			ai, num, r.Name, r.Hash, r.Status, r.BuildLog, r.ArtifactDir, r.RunCmd, r.Created.UnixMilli(), r.Digest)
		if err != nil {
			return err
		}
		r.ID, err = res.LastInsertId()
		if err != nil {
			return err
		}
		return setCurrent(tx, r, r.Created)
	})
	if err != nil {
		return Revision{}, false, fmt.Errorf("add revision of AI %d: %w", r.AIID, err)
	}
	return r, existed, nil
}

// setCurrent makes a successful build of an AI its current revision.
func setCurrent(tx *sql.Tx, r Revision, at time.Time) error {
	if r.AIID == 0 || r.Status != BuildOK {
		return nil
	}
	_, err := tx.Exec(`UPDATE ais SET current_revision = ?, current_since = ? WHERE id = ?`, r.ID, at.UnixMilli(), r.AIID)
	return err
}

// SetCurrentRevision makes an AI's successful revision the one that plays:
// a build found the sources of that revision again.
func (db *DB) SetCurrentRevision(aiID, revID int64) error {
	res, err := db.w.Exec(`UPDATE ais SET current_revision = ?, current_since = ? WHERE id = ? AND EXISTS (
		SELECT 1 FROM revisions WHERE id = ? AND ai_id = ? AND status = 'ok')`, revID, db.now().UnixMilli(), aiID, revID, aiID)
	if err != nil {
		return fmt.Errorf("make revision %d current for AI %d: %w", revID, aiID, err)
	}
	return mustAffect(res, fmt.Sprintf("make revision %d current for AI %d", revID, aiID))
}

// SetPin makes events play an AI's successful revision revID instead of
// its current one; revID 0 unpins. Builds go on as before.
func (db *DB) SetPin(aiID, revID int64) error {
	var res sql.Result
	var err error
	if revID == 0 {
		res, err = db.exec(`UPDATE ais SET pinned_revision = NULL WHERE id = ?`, aiID)
	} else {
		res, err = db.exec(`UPDATE ais SET pinned_revision = ? WHERE id = ? AND EXISTS (
			SELECT 1 FROM revisions WHERE id = ? AND ai_id = ? AND status = 'ok')`, revID, aiID, revID, aiID)
	}
	if err != nil {
		return fmt.Errorf("pin AI %d to revision %d: %w", aiID, revID, err)
	}
	return mustAffect(res, fmt.Sprintf("pin AI %d to revision %d", aiID, revID))
}

// Revisions lists an AI's builds, failed ones included, oldest first.
func (db *DB) Revisions(aiID int64) ([]Revision, error) {
	out, err := collect(scanRevision)(db.r.Query(`SELECT `+revisionColumns+` FROM revisions WHERE ai_id = ? ORDER BY id`, aiID))
	if err != nil {
		return nil, fmt.Errorf("revisions of AI %d: %w", aiID, err)
	}
	return out, nil
}

// Revision finds a revision by ID.
func (db *DB) Revision(id int64) (Revision, error) {
	return one(scanRevision, db.r.QueryRow(`SELECT `+revisionColumns+` FROM revisions WHERE id = ?`, id), "revision %d", id)
}

// CurrentRevision returns the revision of an AI that plays (see
// AI.Current). An AI that was never built successfully has none: the error
// wraps ErrNotFound.
func (db *DB) CurrentRevision(aiID int64) (Revision, error) {
	return one(scanRevision, db.r.QueryRow(`SELECT `+prefixed("r.", revisionColumns)+` FROM ais a
		JOIN revisions r ON r.id = a.current_revision WHERE a.id = ?`, aiID), "current revision of AI %d", aiID)
}

// prefixed qualifies every column of a comma-separated list with p.
func prefixed(p, columns string) string {
	cols := strings.Split(columns, ", ")
	for i, c := range cols {
		cols[i] = p + c
	}
	return strings.Join(cols, ", ")
}

// RevisionByHash finds an AI's successful build with the given content
// hash, so an unchanged folder is not stored twice.
func (db *DB) RevisionByHash(aiID int64, hash string) (Revision, error) {
	return db.revisionBySource(aiID, hash, BuildOK)
}

// FailedBuild finds an AI's failed build of the given content hash, so the
// same broken sources are not built again and again.
func (db *DB) FailedBuild(aiID int64, hash string) (Revision, error) {
	return db.revisionBySource(aiID, hash, BuildFailed)
}

func (db *DB) revisionBySource(aiID int64, hash string, status BuildStatus) (Revision, error) {
	return one(scanRevision, db.r.QueryRow(`SELECT `+revisionColumns+` FROM revisions
		WHERE ai_id = ? AND hash = ? AND status = ?`, aiID, hash, status), "AI %d revision with hash %s", aiID, hash)
}

// SetRevisionDigest stores a revision folder's digest (after a rebuild in
// place, or the first verification of a revision older than schema 11).
func (db *DB) SetRevisionDigest(id int64, digest string) error {
	return db.write(func(tx *sql.Tx) error {
		_, err := tx.Exec(`UPDATE revisions SET digest = ? WHERE id = ?`, digest, id)
		return err
	})
}
