package storage

import (
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ClassStudent is a student of the class: their AI and their token's
// hash (the token itself is never stored).
type ClassStudent struct {
	AIID      int64
	TokenHash string
	Issued    time.Time
	Revoked   time.Time // zero while the token is valid
}

// HandIn is one hand-in of a student, as the class server received it.
type HandIn struct {
	ID         int64
	AIID       int64
	Created    time.Time
	Hash       string // the SHA-256 of the files handed in
	Late       bool
	State      string // queued, building, built, failed, refused, superseded
	RevisionID int64  // the revision the build made or matched (0: none)
	Log        string // why it was refused or superseded, or the build's log
	Addr       string // the source address it came from
}

// AddClassStudent makes ai a student with the token hash given,
// replacing an earlier (perhaps revoked) token.
func (db *DB) AddClassStudent(aiID int64, tokenHash string) error {
	_, err := db.exec(`INSERT INTO class_students (ai_id, token_hash, issued, revoked) VALUES (?, ?, ?, NULL)
		ON CONFLICT(ai_id) DO UPDATE SET token_hash = excluded.token_hash, issued = excluded.issued, revoked = NULL`,
		aiID, tokenHash, db.now().UnixMilli())
	if err != nil {
		return fmt.Errorf("store the token of AI %d: %w", aiID, err)
	}
	return nil
}

// RevokeClassStudent takes a student's token back.
func (db *DB) RevokeClassStudent(aiID int64) error {
	res, err := db.exec(`UPDATE class_students SET revoked = ? WHERE ai_id = ? AND revoked IS NULL`, db.now().UnixMilli(), aiID)
	if err != nil {
		return fmt.Errorf("revoke the token of AI %d: %w", aiID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("revoke the token of AI %d: %w", aiID, ErrNotFound)
	}
	return nil
}

func scanStudent(s scanner) (ClassStudent, error) {
	var c ClassStudent
	var issued int64
	var revoked sql.NullInt64
	err := s.Scan(&c.AIID, &c.TokenHash, &issued, &revoked)
	c.Issued = time.UnixMilli(issued)
	c.Revoked = fromMillis(revoked)
	return c, err
}

// ClassStudents lists the students, by AI ID.
func (db *DB) ClassStudents() ([]ClassStudent, error) {
	out, err := collect(scanStudent)(db.r.Query(`SELECT ai_id, token_hash, issued, revoked FROM class_students ORDER BY ai_id`))
	if err != nil {
		return nil, fmt.Errorf("list the class: %w", err)
	}
	return out, nil
}

// ClassStudentByHash finds the student whose token has the hash given,
// revoked or not (the caller says which is refused and why).
func (db *DB) ClassStudentByHash(hash string) (ClassStudent, error) {
	return one(scanStudent, db.r.QueryRow(`SELECT ai_id, token_hash, issued, revoked FROM class_students WHERE token_hash = ?`, hash), "find a token")
}

// AddHandIn stores a hand-in and returns it with its ID.
func (db *DB) AddHandIn(h HandIn) (HandIn, error) {
	if h.Created.IsZero() {
		h.Created = db.now()
	}
	res, err := db.exec(`INSERT INTO class_handins (ai_id, created, hash, late, state, revision_id, log, addr) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		h.AIID, h.Created.UnixMilli(), h.Hash, h.Late, h.State, h.RevisionID, h.Log, h.Addr)
	if err != nil {
		return HandIn{}, fmt.Errorf("store a hand-in of AI %d: %w", h.AIID, err)
	}
	if h.ID, err = res.LastInsertId(); err != nil {
		return HandIn{}, fmt.Errorf("store a hand-in of AI %d: %w", h.AIID, err)
	}
	h.Created = time.UnixMilli(h.Created.UnixMilli())
	return h, nil
}

// SetHandIn records a hand-in's state, revision and log.
func (db *DB) SetHandIn(id int64, state string, revision int64, log string) error {
	if _, err := db.exec(`UPDATE class_handins SET state = ?, revision_id = ?, log = ? WHERE id = ?`, state, revision, log, id); err != nil {
		return fmt.Errorf("update hand-in %d: %w", id, err)
	}
	return nil
}

func scanHandIn(s scanner) (HandIn, error) {
	var h HandIn
	var created int64
	err := s.Scan(&h.ID, &h.AIID, &created, &h.Hash, &h.Late, &h.State, &h.RevisionID, &h.Log, &h.Addr)
	h.Created = time.UnixMilli(created)
	return h, err
}

const handInColumns = `id, ai_id, created, hash, late, state, revision_id, log, addr`

// HandIns lists an AI's hand-ins, newest first; aiID 0 lists everyone's.
func (db *DB) HandIns(aiID int64) ([]HandIn, error) {
	q, args := `SELECT `+handInColumns+` FROM class_handins ORDER BY id DESC`, []any{}
	if aiID != 0 {
		q, args = `SELECT `+handInColumns+` FROM class_handins WHERE ai_id = ? ORDER BY id DESC`, []any{aiID}
	}
	out, err := collect(scanHandIn)(db.r.Query(q, args...))
	if err != nil {
		return nil, fmt.Errorf("list hand-ins: %w", err)
	}
	return out, nil
}

// ClassSetting reads a class setting ("" when it was never set).
func (db *DB) ClassSetting(key string) (string, error) {
	var v string
	err := db.r.QueryRow(`SELECT value FROM class_settings WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read class setting %s: %w", key, err)
	}
	return v, nil
}

// SetClassSetting stores a class setting.
func (db *DB) SetClassSetting(key, value string) error {
	if _, err := db.exec(`INSERT INTO class_settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value); err != nil {
		return fmt.Errorf("store class setting %s: %w", key, err)
	}
	return nil
}

// SetPublished shows an event on the class page, or hides it.
func (db *DB) SetPublished(eventID int64, on bool) error {
	q := `INSERT OR IGNORE INTO class_published (event_id) VALUES (?)`
	if !on {
		q = `DELETE FROM class_published WHERE event_id = ?`
	}
	if _, err := db.exec(q, eventID); err != nil {
		return fmt.Errorf("publish event %d: %w", eventID, err)
	}
	return nil
}

// Published lists the IDs of the published events.
func (db *DB) Published() ([]int64, error) {
	out, err := collect(func(s scanner) (int64, error) {
		var id int64
		return id, s.Scan(&id)
	})(db.r.Query(`SELECT event_id FROM class_published ORDER BY event_id`))
	if err != nil {
		return nil, fmt.Errorf("list published events: %w", err)
	}
	return out, nil
}
