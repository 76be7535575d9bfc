package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"ringside/runner/build"
	"ringside/storage"
)

// Hand-in states, as HandInView.State says them.
const (
	HandInQueued     = "queued"
	HandInBuilding   = "building"
	HandInBuilt      = "built"
	HandInFailed     = "failed"
	HandInRefused    = "refused"
	HandInSuperseded = "superseded"
)

// Late policies: what the class server does with a hand-in after the
// deadline.
const (
	LateRefuse = "refuse"
	LateKeep   = "keep"
)

// ClassStudent is a student of the class: their AI and their token's
// state (the token itself is shown only when it is made).
type ClassStudent struct {
	AIID    int64
	Name    string
	Game    string
	Issued  time.Time
	Revoked bool
	// HandIns counts the student's hand-ins; Last is the newest (nil
	// before the first).
	HandIns int
	Last    *HandInView
}

// IssuedToken is a student's new token: shown once, stored only hashed.
type IssuedToken struct {
	Student ClassStudent
	Token   string
}

// HandInFile is one file of a hand-in: its path relative to the handed-in
// folder (slashes), its bytes and whether it is executable.
type HandInFile struct {
	Path string
	Data []byte
	Exec bool
}

// Receipt is what a student gets at once for a hand-in: its ID and the
// SHA-256 of its files; the build's outcome follows on their page.
type Receipt struct {
	ID   int64  `json:"id"`
	Hash string `json:"hash"`
	Late bool   `json:"late"`
}

// HandInView is one hand-in as the student's page and the teacher's log
// show it.
type HandInView struct {
	ID      int64
	AIID    int64
	Student string
	Time    time.Time
	Hash    string
	Late    bool
	State   string // HandInQueued … HandInSuperseded
	// Revision is the revision the build made or matched (0: none);
	// Number is its number among the AI's successful builds.
	Revision int64
	Number   int
	BuildLog string // the build's log, or why it was refused or superseded
	Check    string // the check game's result in words ("" before it ran)
	Addr     string // the source address it came from
}

// ClassSettings are the teacher's choices for hand-ins.
type ClassSettings struct {
	Deadline time.Time // zero: none
	Late     string    // LateRefuse or LateKeep
}

// LateError is a hand-in refused because the deadline passed.
type LateError struct{ Deadline, At time.Time }

func (e *LateError) Error() string {
	return fmt.Sprintf("the deadline was %s; this hand-in came at %s and is refused",
		e.Deadline.UTC().Format(time.RFC3339), e.At.UTC().Format(time.RFC3339))
}

// classState is the service's hand-in queue: at most one build per
// student at a time and one waiting hand-in per student (the newest), so
// the queue never holds more than two hand-ins per student.
type classState struct {
	mu      sync.Mutex
	pending map[int64]pendingHandIn // by AI: the newest hand-in not yet building
	running map[int64]bool          // AIs whose worker runs
	sem     chan struct{}           // builds at once, across students
	ctx     context.Context
	stop    context.CancelFunc
	wg      sync.WaitGroup
	now     func() time.Time
	// OnHandIn is called after each change of a hand-in's state.
	onHandIn func(HandInView)
}

type pendingHandIn struct {
	id  int64
	dir string // the staged files
}

// ClassBuildsAtOnce is how many hand-ins build at the same time: builds
// are CPU-heavy and a class hands in all at once before a deadline.
const ClassBuildsAtOnce = 2

// HandInCheckTimeScale stretches the time limits of a hand-in's check.
// The check tells a student that the program builds, starts and speaks
// the game; a class handing in at once keeps the teacher's machine busy
// with builds and checks, and a bot late by a few milliseconds there is
// no news. Events judge time at the game's own limits.
const HandInCheckTimeScale = 2

func (s *Service) classQueue() *classState {
	s.classOnce.Do(func() {
		ctx, stop := context.WithCancel(context.Background())
		s.classSt = &classState{pending: map[int64]pendingHandIn{}, running: map[int64]bool{},
			sem: make(chan struct{}, ClassBuildsAtOnce), ctx: ctx, stop: stop, now: time.Now}
	})
	return s.classSt
}

// SetClassClock replaces the clock hand-ins are judged late by (tests).
func (s *Service) SetClassClock(now func() time.Time) { s.classQueue().now = now }

// OnHandIn sets a callback called (from a worker goroutine) whenever a
// hand-in is received or changes state.
func (s *Service) OnHandIn(f func(HandInView)) {
	q := s.classQueue()
	q.mu.Lock()
	q.onHandIn = f
	q.mu.Unlock()
}

// StopClass stops the hand-in builds and waits for the workers: a build
// under way is cancelled and its hand-in says so.
func (s *Service) StopClass() {
	q := s.classQueue()
	q.mu.Lock()
	stop := q.stop
	q.mu.Unlock()
	stop()
	q.wg.Wait()
	// A class opened again (the app's switch) builds with a fresh queue.
	q.mu.Lock()
	q.ctx, q.stop = context.WithCancel(context.Background())
	q.mu.Unlock()
}

// WaitHandIns waits until no hand-in is queued or building in this
// process, or ctx ends.
func (s *Service) WaitHandIns(ctx context.Context) error {
	q := s.classQueue()
	for {
		q.mu.Lock()
		idle := len(q.pending) == 0 && len(q.running) == 0
		q.mu.Unlock()
		if idle {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// tokenEncoding writes tokens in upper-case letters and digits 2-7, which
// are easy to read off a slip and to type.
var tokenEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// newClassToken is 160 random bits written as eight groups of four characters.
func newClassToken() (string, error) {
	b := make([]byte, 20)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make a token: %w", err)
	}
	s := tokenEncoding.EncodeToString(b)
	var groups []string
	for i := 0; i < len(s); i += 4 {
		groups = append(groups, s[i:i+4])
	}
	return strings.Join(groups, "-"), nil
}

// TokenHash is the stored form of a token: the SHA-256 of the token with
// case, spaces and dashes ignored (as a student may type it).
func TokenHash(token string) string {
	norm := strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' || r == '\t' {
			return -1
		}
		if r >= 'a' && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, token)
	sum := sha256.Sum256([]byte(norm))
	return hex.EncodeToString(sum[:])
}

// ClassDir is where the students' handed-in folders are kept.
func (s *Service) ClassDir() string { return filepath.Join(s.db.DataDir(), "class") }

// ClassAdd makes one registered AI per student, playing game, with a new
// token each. Names already registered are refused before any is added.
func (s *Service) ClassAdd(game string, names []string) ([]IssuedToken, error) {
	if err := checkGame(game); err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, Errorf(Invalid, "name at least one student")
	}
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if err := checkAIName(n); err != nil {
			return nil, err
		}
		if seen[strings.ToLower(n)] {
			return nil, Errorf(Invalid, "%s is named twice", n)
		}
		seen[strings.ToLower(n)] = true
		if old, err := s.db.AIByName(n); err == nil {
			return nil, Errorf(Conflict, "an AI named %q already exists: choose another name for this student", old.Name).withFix(FixEdit, old.Name)
		}
	}
	out := make([]IssuedToken, 0, len(names))
	for _, n := range names {
		n = strings.TrimSpace(n)
		dir := filepath.Join(s.ClassDir(), safeName(n))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return out, wrap(Failed, err, "make the hand-in folder of %s", n)
		}
		// No run command yet: the first hand-in's files are guessed from.
		ai, err := s.db.AddAI(storage.AI{Name: n, Game: game, SourceDir: dir})
		if err != nil {
			return out, wrap(Failed, err, "add student %s", n)
		}
		tok, err := s.IssueToken(ai.ID)
		if err != nil {
			return out, err
		}
		out = append(out, tok)
	}
	return out, nil
}

// safeName is a student's name as a folder name.
func safeName(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		}
		return '_'
	}, name)
}

// IssueToken gives a student (an AI) a new token, replacing and so
// revoking any earlier one; the AI becomes a student if it was not.
func (s *Service) IssueToken(ai int64) (IssuedToken, error) {
	a, err := s.db.AI(ai)
	if err != nil {
		return IssuedToken{}, &Error{Code: NotFound, Message: fmt.Sprintf("AI %d is not registered", ai), Err: err}
	}
	tok, err := newClassToken()
	if err != nil {
		return IssuedToken{}, wrap(Failed, err, "issue a token to %s", a.Name)
	}
	if err := s.db.AddClassStudent(ai, TokenHash(tok)); err != nil {
		return IssuedToken{}, wrap(Failed, err, "issue a token to %s", a.Name)
	}
	st, err := s.classStudent(a)
	return IssuedToken{Student: st, Token: tok}, err
}

// RevokeToken takes a student's token back: it no longer opens anything.
func (s *Service) RevokeToken(ai int64) error {
	err := s.db.RevokeClassStudent(ai)
	if errors.Is(err, storage.ErrNotFound) {
		return Errorf(NotFound, "AI %d has no valid token to revoke", ai)
	}
	return wrap(Failed, err, "revoke")
}

// StudentNamed finds a student by their AI's name.
func (s *Service) StudentNamed(name string) (ClassStudent, error) {
	ai, err := s.aiByName(name)
	if err != nil {
		return ClassStudent{}, err
	}
	return s.classStudent(ai)
}

func (s *Service) classStudent(ai storage.AI) (ClassStudent, error) {
	all, err := s.db.ClassStudents()
	if err != nil {
		return ClassStudent{}, err
	}
	for _, c := range all {
		if c.AIID == ai.ID {
			return s.studentView(ai, c)
		}
	}
	return ClassStudent{}, Errorf(NotFound, "%s is not a student of the class (no token)", ai.Name)
}

func (s *Service) studentView(ai storage.AI, c storage.ClassStudent) (ClassStudent, error) {
	st := ClassStudent{AIID: ai.ID, Name: ai.Name, Game: ai.Game, Issued: c.Issued, Revoked: !c.Revoked.IsZero()}
	hs, err := s.HandIns(ai.ID)
	if err != nil {
		return st, err
	}
	st.HandIns = len(hs)
	if len(hs) > 0 {
		st.Last = &hs[0]
	}
	return st, nil
}

// ClassRoster lists the students, by name.
func (s *Service) ClassRoster() ([]ClassStudent, error) {
	all, err := s.db.ClassStudents()
	if err != nil {
		return nil, err
	}
	out := make([]ClassStudent, 0, len(all))
	for _, c := range all {
		ai, err := s.db.AI(c.AIID)
		if err != nil {
			continue // removed meanwhile
		}
		st, err := s.studentView(ai, c)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name) })
	return out, nil
}

// StudentByToken finds the student a token belongs to. Unknown and
// revoked tokens are refused alike, so a guesser learns nothing; the
// hashes are compared in constant time.
func (s *Service) StudentByToken(tok string) (ClassStudent, error) {
	h := TokenHash(tok)
	c, err := s.db.ClassStudentByHash(h)
	if err != nil || subtle.ConstantTimeCompare([]byte(c.TokenHash), []byte(h)) != 1 || !c.Revoked.IsZero() {
		return ClassStudent{}, Errorf(NotFound, "this token opens nothing: check it against your slip, or ask your teacher for a new one")
	}
	ai, err := s.db.AI(c.AIID)
	if err != nil {
		return ClassStudent{}, Errorf(NotFound, "this token opens nothing: check it against your slip, or ask your teacher for a new one")
	}
	return s.studentView(ai, c)
}

// ClassSettings reads the deadline and the late policy.
func (s *Service) ClassSettings() (ClassSettings, error) {
	var cs ClassSettings
	d, err := s.db.ClassSetting("deadline")
	if err != nil {
		return cs, err
	}
	if d != "" {
		if cs.Deadline, err = time.Parse(time.RFC3339Nano, d); err != nil {
			return cs, wrap(Failed, err, "read the class deadline")
		}
	}
	if cs.Late, err = s.db.ClassSetting("late"); err != nil {
		return cs, err
	}
	if cs.Late == "" {
		cs.Late = LateRefuse
	}
	return cs, nil
}

// SetClassSettings stores the deadline (zero: none) and the late policy.
func (s *Service) SetClassSettings(cs ClassSettings) error {
	if cs.Late != LateRefuse && cs.Late != LateKeep {
		return Errorf(Invalid, "late hand-ins are %q or %q, not %q", LateRefuse, LateKeep, cs.Late)
	}
	d := ""
	if !cs.Deadline.IsZero() {
		d = cs.Deadline.UTC().Format(time.RFC3339Nano)
	}
	if err := s.db.SetClassSetting("deadline", d); err != nil {
		return err
	}
	return s.db.SetClassSetting("late", cs.Late)
}

// ClassSetting and SetClassSetting keep other class data (the server's
// certificate) by key.
func (s *Service) ClassSetting(key string) (string, error) { return s.db.ClassSetting(key) }

// SetClassSetting stores a class setting by key.
func (s *Service) SetClassSetting(key, value string) error { return s.db.SetClassSetting(key, value) }

// PublishEvent shows an event on the class page (on) or hides it.
func (s *Service) PublishEvent(id int64, on bool) error {
	if _, err := s.db.Event(id); err != nil {
		return &Error{Code: NotFound, Message: fmt.Sprintf("event %d does not exist", id), Err: err}
	}
	return s.db.SetPublished(id, on)
}

// PublishedEvents lists the events the class page shows, newest first.
func (s *Service) PublishedEvents() ([]EventSummary, error) {
	ids, err := s.db.Published()
	if err != nil {
		return nil, err
	}
	on := map[int64]bool{}
	for _, id := range ids {
		on[id] = true
	}
	all, err := s.EventList()
	if err != nil {
		return nil, err
	}
	var out []EventSummary
	for _, e := range all {
		if on[e.Event.ID] {
			out = append(out, e)
		}
	}
	return out, nil
}

// HandIns lists a student's hand-ins, newest first; ai 0 lists the whole
// class's (the teacher's log).
func (s *Service) HandIns(ai int64) ([]HandInView, error) {
	hs, err := s.db.HandIns(ai)
	if err != nil {
		return nil, err
	}
	names := map[int64]string{}
	nums := map[int64]int{}
	out := make([]HandInView, len(hs))
	for i, h := range hs {
		if _, ok := names[h.AIID]; !ok {
			if a, err := s.db.AI(h.AIID); err == nil {
				names[h.AIID] = a.Name
				if revs, err := s.db.Revisions(a.ID); err == nil {
					for _, r := range revs {
						nums[r.ID] = r.Number
					}
				}
			}
		}
		log, check, _ := strings.Cut(h.Log, checkSep)
		out[i] = HandInView{ID: h.ID, AIID: h.AIID, Student: names[h.AIID], Time: h.Created, Hash: h.Hash, Late: h.Late,
			State: h.State, Revision: h.RevisionID, Number: nums[h.RevisionID], BuildLog: log, Check: check, Addr: h.Addr}
	}
	return out, nil
}

// checkSep parts a stored hand-in log into the build log and the check
// result.
const checkSep = "\x00check\x00"

// HandInHash is the SHA-256 of a hand-in's files: paths and bytes, in
// path order.
func HandInHash(files []HandInFile) string {
	sorted := append([]HandInFile(nil), files...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	h := sha256.New()
	for _, f := range sorted {
		fmt.Fprintf(h, "%d:%s\x00%d:", len(f.Path), f.Path, len(f.Data))
		h.Write(f.Data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// checkHandInPath refuses a path that would leave the handed-in folder.
func checkHandInPath(p string) error {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || strings.ContainsRune(p, 0) {
		return fmt.Errorf("path %q: want a relative path with forward slashes", p)
	}
	for _, part := range strings.Split(p, "/") {
		if part == "" || part == "." || part == ".." {
			return fmt.Errorf("path %q: no empty, . or .. parts", p)
		}
	}
	return nil
}

// HandIn takes a student's files (already within the server's caps),
// answers at once with a receipt and builds in the background: the files
// replace the student's folder, and the build and check are those of a
// watched folder (the same source filter, the sandboxed build, the same
// lineage, pins and Compare). A hand-in after the deadline is refused with
// a *LateError, or kept marked late, as the class settings say. A newer
// hand-in of the same student supersedes a queued older one.
func (s *Service) HandIn(ai int64, files []HandInFile, from string) (Receipt, error) {
	a, err := s.db.AI(ai)
	if err != nil {
		return Receipt{}, Errorf(NotFound, "AI %d is not registered", ai)
	}
	if len(files) == 0 {
		return Receipt{}, Errorf(Invalid, "the hand-in holds no files")
	}
	for _, f := range files {
		if err := checkHandInPath(f.Path); err != nil {
			return Receipt{}, Errorf(Invalid, "hand-in refused: %v", err)
		}
	}
	cs, err := s.ClassSettings()
	if err != nil {
		return Receipt{}, err
	}
	q := s.classQueue()
	now := q.now()
	hash := HandInHash(files)
	late := !cs.Deadline.IsZero() && now.After(cs.Deadline)
	if late && cs.Late == LateRefuse {
		le := &LateError{Deadline: cs.Deadline, At: now}
		h, err := s.db.AddHandIn(storage.HandIn{AIID: ai, Created: now, Hash: hash, Late: true, State: HandInRefused, Log: le.Error(), Addr: from})
		if err == nil {
			s.notifyHandIn(h.ID)
		}
		return Receipt{}, &Error{Code: Conflict, Message: le.Error(), Err: le}
	}
	h, err := s.db.AddHandIn(storage.HandIn{AIID: ai, Created: now, Hash: hash, Late: late, State: HandInQueued, Addr: from})
	if err != nil {
		return Receipt{}, wrap(Failed, err, "store the hand-in of %s", a.Name)
	}
	dir := filepath.Join(s.ClassDir(), "incoming", fmt.Sprintf("%d", h.ID))
	if err := writeHandIn(dir, files); err != nil {
		_ = s.db.SetHandIn(h.ID, HandInFailed, 0, "the server could not store the files: "+err.Error())
		os.RemoveAll(dir)
		return Receipt{}, wrap(Failed, err, "store the hand-in of %s", a.Name)
	}
	s.enqueue(ai, pendingHandIn{id: h.ID, dir: dir})
	s.notifyHandIn(h.ID)
	return Receipt{ID: h.ID, Hash: hash, Late: late}, nil
}

func writeHandIn(dir string, files []HandInFile) error {
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return err
		}
		mode := os.FileMode(0o600)
		if f.Exec {
			mode = 0o700
		}
		// O_EXCL: a path given twice is refused, not overwritten.
		fh, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if err != nil {
			return fmt.Errorf("write %s: %w", f.Path, err)
		}
		if _, err := fh.Write(f.Data); err != nil {
			fh.Close()
			return fmt.Errorf("write %s: %w", f.Path, err)
		}
		if err := fh.Close(); err != nil {
			return fmt.Errorf("write %s: %w", f.Path, err)
		}
	}
	return nil
}

func (s *Service) notifyHandIn(id int64) {
	q := s.classQueue()
	q.mu.Lock()
	f := q.onHandIn
	q.mu.Unlock()
	if f == nil {
		return
	}
	hs, err := s.db.HandIns(0)
	if err != nil {
		return
	}
	for _, h := range hs {
		if h.ID == id {
			views, err := s.HandIns(h.AIID)
			if err != nil {
				return
			}
			for _, v := range views {
				if v.ID == id {
					f(v)
					return
				}
			}
		}
	}
}

// enqueue puts a hand-in in its student's slot, superseding a queued
// older one, and starts the student's worker if it is not running.
func (s *Service) enqueue(ai int64, p pendingHandIn) {
	q := s.classQueue()
	q.mu.Lock()
	old, had := q.pending[ai]
	q.pending[ai] = p
	start := !q.running[ai]
	if start {
		q.running[ai] = true
		q.wg.Add(1)
	}
	q.mu.Unlock()
	if had {
		os.RemoveAll(old.dir)
		_ = s.db.SetHandIn(old.id, HandInSuperseded, 0, fmt.Sprintf("superseded by hand-in %d, which came before this one was built: only the newest is built", p.id))
		s.notifyHandIn(old.id)
	}
	if start {
		go s.classWorker(ai)
	}
}

// classWorker builds a student's hand-ins one at a time until none waits.
func (s *Service) classWorker(ai int64) {
	q := s.classQueue()
	defer q.wg.Done()
	q.mu.Lock()
	ctx := q.ctx
	q.mu.Unlock()
	for {
		q.mu.Lock()
		p, ok := q.pending[ai]
		if !ok {
			delete(q.running, ai)
			q.mu.Unlock()
			return
		}
		q.mu.Unlock()
		select {
		case q.sem <- struct{}{}:
		case <-ctx.Done():
		}
		q.mu.Lock()
		// The newest may have replaced p while this waited for a slot.
		p = q.pending[ai]
		delete(q.pending, ai)
		q.mu.Unlock()
		if ctx.Err() != nil {
			os.RemoveAll(p.dir)
			_ = s.db.SetHandIn(p.id, HandInFailed, 0, "the class server stopped before this hand-in was built: hand in again")
			s.notifyHandIn(p.id)
			continue
		}
		s.buildHandIn(ctx, ai, p)
		<-q.sem
	}
}

// buildHandIn puts a hand-in's files in the student's folder and builds
// and checks them as a watched folder's.
func (s *Service) buildHandIn(ctx context.Context, ai int64, p pendingHandIn) {
	_ = s.db.SetHandIn(p.id, HandInBuilding, 0, "")
	s.notifyHandIn(p.id)
	state, rev, log := s.buildStaged(ctx, ai, p)
	_ = s.db.SetHandIn(p.id, state, rev, log)
	s.notifyHandIn(p.id)
}

func (s *Service) buildStaged(ctx context.Context, ai int64, p pendingHandIn) (state string, rev int64, log string) {
	a, err := s.db.AI(ai)
	if err != nil {
		os.RemoveAll(p.dir)
		return HandInFailed, 0, "the student's AI is no longer registered"
	}
	if err := replaceDir(a.SourceDir, p.dir); err != nil {
		return HandInFailed, 0, "the server could not put the files in place: " + err.Error()
	}
	if strings.TrimSpace(a.RunCmd) == "" {
		// The first hand-in says how to build and run: guessed as for a
		// folder registered without commands; later ones keep them.
		g, err := build.GuessFor(a.SourceDir, "")
		if err != nil {
			return HandInFailed, 0, "Ringside could not tell how to build and run these files: " + err.Error()
		}
		a.BuildCmd, a.RunCmd, a.Language = g.Build, g.Run, g.Language
		if err := s.db.UpdateAI(a); err != nil {
			return HandInFailed, 0, "the server could not store the commands: " + err.Error()
		}
	}
	res, err := s.Check(ctx, ai, CheckOptions{TimeScale: HandInCheckTimeScale})
	if err != nil {
		return HandInFailed, 0, "the build could not run: " + err.Error()
	}
	if res.BuildErr != nil {
		return HandInFailed, 0, "the build could not run: " + res.BuildErr.Error()
	}
	log = res.Build.Rev.BuildLog
	if res.Build.Unchanged {
		log = "These sources were built before (revision " + fmt.Sprint(res.Build.Rev.Number) + "); its log:\n" + log
	}
	if res.Build.Failed() {
		return HandInFailed, res.Build.Rev.ID, log
	}
	return HandInBuilt, res.Build.Rev.ID, log + checkSep + checkText(res)
}

// checkText is a check's result in a few lines.
func checkText(res CheckResult) string {
	if res.Report == nil {
		return "not checked"
	}
	var b strings.Builder
	if res.Passed() {
		fmt.Fprintf(&b, "Check passed: %d turns, %d answers, place %d of %d.\n", res.Report.Turns, res.Report.Answers, res.Report.Rank, res.Report.Seats)
	} else {
		b.WriteString("Check failed.\n")
	}
	for _, it := range res.Report.Items {
		fmt.Fprintf(&b, "%s: %s\n", it.What, it.Text)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w.Text)
	}
	return b.String()
}

// replaceDir makes staged the contents of dir: the old folder is moved
// aside and removed, so a build never sees a mix of two hand-ins.
func replaceDir(dir, staged string) error {
	old := dir + ".old"
	os.RemoveAll(old)
	if err := os.Rename(dir, old); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := os.Rename(staged, dir); err != nil {
		return err
	}
	return os.RemoveAll(old)
}

// FailStaleHandIns marks hand-ins a stopped server left queued or
// building as failed, saying to hand in again; the class server calls it
// when it starts.
func (s *Service) FailStaleHandIns() error {
	hs, err := s.db.HandIns(0)
	if err != nil {
		return err
	}
	for _, h := range hs {
		if h.State == HandInQueued || h.State == HandInBuilding {
			if err := s.db.SetHandIn(h.ID, HandInFailed, 0, "the class server stopped before this hand-in was built: hand in again"); err != nil {
				return err
			}
		}
	}
	os.RemoveAll(filepath.Join(s.ClassDir(), "incoming"))
	return nil
}
