package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ringside/app/service"
)

// fixture is a class of two students and two events of built-in bots,
// the first published.
type class struct {
	svc                 *service.Service
	alice, bob          Student
	published, unlisted int64
	game                int64 // a game of the published event: nobody's
}

func newFixture(t testing.TB) class {
	t.Helper()
	svc, err := service.Open(filepath.Join(t.TempDir(), "class.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	toks, err := svc.ClassAdd("battle2048", []string{"alice", "bob"})
	if err != nil {
		t.Fatal(err)
	}
	f := class{svc: svc, alice: Student{toks[0].Student.AIID, "alice"}, bob: Student{toks[1].Student.AIID, "bob"}}
	for i, name := range []string{"Friday league", "Rehearsal"} {
		ev, _, err := svc.CreateEvent(service.EventSpec{Name: name, Game: "battle2048", Games: 2, Seed: 1, SeedSet: true,
			Entries: []string{"builtin:battle2048/greedy", "builtin:battle2048/random"}})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			f.published = ev.ID
			ms, err := svc.DB().Matches(ev.ID)
			if err != nil || len(ms) == 0 {
				t.Fatalf("%d games: %v", len(ms), err)
			}
			f.game = ms[0].ID
		} else {
			f.unlisted = ev.ID
		}
	}
	if err := svc.PublishEvent(f.published, true); err != nil {
		t.Fatal(err)
	}
	return f
}

func get(t *testing.T, h http.Handler, path string, st *Student) (int, string) {
	t.Helper()
	r := httptest.NewRequest("GET", path, nil)
	if st != nil {
		r = r.WithContext(WithStudent(r.Context(), *st))
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	b, _ := io.ReadAll(w.Result().Body)
	return w.Code, string(b)
}

// TestPages asks every page as the class, as a student and as nobody, and
// checks what each may see: an unpublished event and another student's
// (or nobody's) game are "not found", the student pages need a student.
func TestPages(t *testing.T) {
	f := newFixture(t)
	site := New(f.svc, Options{})
	pub, me := site.Public(), site.Student()
	id := func(n int64) string { return strconv.FormatInt(n, 10) }
	for _, tc := range []struct {
		name    string
		h       http.Handler
		path    string
		st      *Student
		code    int
		want    []string
		notWant []string
	}{
		{"class page", pub, "/", nil, 200, []string{"Friday league", `action="/login"`, "greedy"}, []string{"Rehearsal", "Warning"}},
		{"published event", pub, "/event/" + id(f.published), nil, 200, []string{"Friday league", "Round 1"}, nil},
		{"unpublished event", pub, "/event/" + id(f.unlisted), nil, 404, nil, []string{"Rehearsal"}},
		{"style", pub, "/static/style.css", nil, 200, []string{"@media (max-width: 480px)"}, nil},
		{"me without a student", me, "/me", nil, 401, nil, nil},
		{"alice's page", me, "/me", &f.alice, 200, []string{"alice", `action="/me/handin"`, "webkitdirectory", "No hand-in yet"}, []string{"bob"}},
		{"nobody's game", me, "/me/game/" + id(f.game), &f.alice, 404, nil, nil},
		{"nobody's seat", me, "/me/game/" + id(f.game) + "/seat.json", &f.bob, 404, nil, nil},
		{"nobody's frame", me, "/me/replay/" + id(f.game) + "/frame/0.png", &f.alice, 404, nil, nil},
		{"no such game", me, "/me/game/999999", &f.alice, 404, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := get(t, tc.h, tc.path, tc.st)
			if code != tc.code {
				t.Fatalf("GET %s: %d, want %d\n%s", tc.path, code, tc.code, body)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("GET %s lacks %q", tc.path, w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(body, w) {
					t.Errorf("GET %s shows %q", tc.path, w)
				}
			}
		})
	}
}

// TestInsecureBanner: with plain HTTP every page says so.
func TestInsecureBanner(t *testing.T) {
	f := newFixture(t)
	site := New(f.svc, Options{Insecure: true})
	for _, tc := range []struct {
		h    http.Handler
		path string
		st   *Student
	}{{site.Public(), "/", nil}, {site.Public(), "/login", nil}, {site.Student(), "/me", &f.alice}} {
		if _, body := get(t, tc.h, tc.path, tc.st); !strings.Contains(body, "without encryption") {
			t.Errorf("%s has no plain-HTTP warning", tc.path)
		}
	}
}
