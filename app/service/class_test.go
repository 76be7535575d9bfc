package service

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"ringside/runner/runnertest"
)

const classBot = "import sys\nprint('READY', flush=True)\nfor line in sys.stdin:\n    if line.strip() == 'EOD':\n        print('N', flush=True)\n"

func classService(t *testing.T) *Service {
	t.Helper()
	s := openTemp(t)
	t.Cleanup(s.StopClass) // before the database closes
	return s
}

// A token opens its student's AI as typed from a slip (any case, with or
// without dashes); the database keeps only its hash; a revoked or
// reissued one opens nothing.
func TestClassTokens(t *testing.T) {
	t.Parallel()
	s := classService(t)
	toks, err := s.ClassAdd("grip", []string{"ada", "grace"})
	if err != nil || len(toks) != 2 || toks[0].Token == toks[1].Token {
		t.Fatalf("add: %v %v", toks, err)
	}
	ada := toks[0]
	if len(strings.ReplaceAll(ada.Token, "-", "")) != 32 {
		t.Errorf("token %q: want 160 bits in 32 characters", ada.Token)
	}
	stored, _ := s.db.ClassStudents()
	for _, c := range stored {
		if c.TokenHash == ada.Token || c.TokenHash != TokenHash(ada.Token) && c.AIID == ada.Student.AIID {
			t.Errorf("stored %q for token %q: want its SHA-256 only", c.TokenHash, ada.Token)
		}
	}
	for _, typed := range []string{ada.Token, strings.ToLower(ada.Token), strings.ReplaceAll(ada.Token, "-", " ")} {
		if st, err := s.StudentByToken(typed); err != nil || st.Name != "ada" {
			t.Errorf("token typed %q: %v %v", typed, st, err)
		}
	}
	again, err := s.IssueToken(ada.Student.AIID)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeToken(toks[1].Student.AIID); err != nil {
		t.Fatal(err)
	}
	for _, dead := range []string{ada.Token, toks[1].Token, "", "AAAA"} {
		if _, err := s.StudentByToken(dead); err == nil {
			t.Errorf("token %q still opens", dead)
		}
	}
	if st, err := s.StudentByToken(again.Token); err != nil || st.Name != "ada" {
		t.Errorf("reissued token: %v", err)
	}
}

// One build per student at a time: hand-ins that queue behind a busy
// build slot are superseded by the newest, which alone is built.
func TestClassNewestHandInWins(t *testing.T) {
	t.Parallel()
	runnertest.NeedPython(t)
	s := classService(t)
	toks, err := s.ClassAdd("grip", []string{"ada"})
	if err != nil {
		t.Fatal(err)
	}
	ai := toks[0].Student.AIID
	q := s.classQueue()
	for i := 0; i < ClassBuildsAtOnce; i++ {
		q.sem <- struct{}{} // every build slot busy
	}
	var ids []int64
	for i := 0; i < 3; i++ {
		rc, err := s.HandIn(ai, []HandInFile{{Path: "bot.py", Data: []byte(classBot + strings.Repeat("#\n", i))}}, "10.0.0.7")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, rc.ID)
	}
	for i := 0; i < ClassBuildsAtOnce; i++ {
		<-q.sem
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := s.WaitHandIns(ctx); err != nil {
		t.Fatal(err)
	}
	hs, err := s.HandIns(ai)
	if err != nil || len(hs) != 3 {
		t.Fatalf("hand-ins: %v %v", hs, err)
	}
	want := map[int64]string{ids[0]: HandInSuperseded, ids[1]: HandInSuperseded, ids[2]: HandInBuilt}
	for _, h := range hs {
		if h.State != want[h.ID] || h.Addr != "10.0.0.7" {
			t.Errorf("hand-in %d: %s from %s, want %s; log %q", h.ID, h.State, h.Addr, want[h.ID], h.BuildLog)
		}
		if h.State == HandInSuperseded && !strings.Contains(h.BuildLog, "superseded by hand-in") {
			t.Errorf("hand-in %d does not say what superseded it: %q", h.ID, h.BuildLog)
		}
		if h.State == HandInBuilt && (h.Number != 1 || !checkRan(h.Check)) {
			t.Errorf("the newest: revision %d, check %q", h.Number, h.Check)
		}
	}
}

// checkRan says whether a good bot's check passed, or failed only because
// the machine was too busy to judge it (its words say so, and that it is
// not the bot's fault): on a loaded machine a quick bot's answer can be
// late while other programs hold the CPU.
func checkRan(check string) bool {
	if strings.Contains(check, "Check passed") {
		return true
	}
	for _, line := range strings.Split(check, "\n") {
		if strings.Contains(line, ": ok") || line == "" || line == "Check failed." {
			continue
		}
		if !strings.Contains(line, "the machine was busy then") {
			return false
		}
	}
	return strings.Contains(check, "the machine was busy then")
}

// After the deadline a hand-in is refused with the deadline and the time,
// or kept marked late, as the teacher chose (an injected clock).
func TestClassDeadline(t *testing.T) {
	t.Parallel()
	s := classService(t)
	toks, err := s.ClassAdd("grip", []string{"ada"})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Date(2026, 11, 29, 14, 30, 0, 0, time.UTC)
	s.SetClassClock(func() time.Time { return deadline.Add(time.Minute) })
	files := []HandInFile{{Path: "bot.py", Data: []byte("print(1)\n")}}
	cases := []struct {
		late    string
		refused bool
	}{{LateRefuse, true}, {LateKeep, false}}
	for _, c := range cases {
		if err := s.SetClassSettings(ClassSettings{Deadline: deadline, Late: c.late}); err != nil {
			t.Fatal(err)
		}
		rc, err := s.HandIn(toks[0].Student.AIID, files, "10.0.0.7")
		var le *LateError
		if c.refused {
			if !errors.As(err, &le) || !strings.Contains(err.Error(), "the deadline was 2026-11-29T14:30:00Z; this hand-in came at 2026-11-29T14:31:00Z") {
				t.Errorf("late, %s: %v", c.late, err)
			}
			continue
		}
		if err != nil || !rc.Late {
			t.Errorf("late, %s: %+v %v", c.late, rc, err)
		}
	}
	for _, bad := range []string{"../x.py", "/etc/x", "a//b", "./a"} {
		if _, err := s.HandIn(toks[0].Student.AIID, []HandInFile{{Path: bad}}, ""); err == nil {
			t.Errorf("path %q accepted", bad)
		}
	}
}
