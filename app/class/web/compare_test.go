package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"ringside/app/internal/fixture"
	"ringside/app/service"
)

// TestCompare: a student with two built revisions starts "did my change
// help?", is sent to its page, which shows its progress and verdict; the
// comparison is theirs alone (another student gets 404), a second one
// waits for the first, and nonsense revisions are refused.
func TestCompare(t *testing.T) {
	needPython(t)
	f := newFixture(t)
	toks, err := f.svc.ClassAdd("grip", []string{"carol"})
	if err != nil {
		t.Fatal(err)
	}
	carol := Student{toks[0].Student.AIID, "carol"}
	for v := range 2 {
		if _, err := f.svc.HandIn(carol.AIID, []service.HandInFile{{Path: "bot.py", Data: []byte(fixture.PyBot(v + 1))}}, "127.0.0.1"); err != nil {
			t.Fatal(err)
		}
		wctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		err := f.svc.WaitHandIns(wctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
	}
	ctx, stop := context.WithCancel(context.Background())
	site := New(f.svc, Options{Context: ctx})
	defer site.Wait()
	defer stop()
	me := site.Student()
	post := func(st Student, form url.Values) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/me/compare", strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r = r.WithContext(WithStudent(r.Context(), st))
		w := httptest.NewRecorder()
		me.ServeHTTP(w, r)
		return w
	}
	if _, body := get(t, me, "/me", &carol); !strings.Contains(body, `action="/me/compare"`) {
		t.Errorf("carol's page has no comparison form")
	} else if strings.Contains(body, `http-equiv="refresh"`) {
		t.Errorf("carol's page reloads itself although her hand-ins are done")
	}
	for _, bad := range []url.Values{{"new": {"2"}, "old": {"2"}}, {"new": {"2"}, "old": {"7"}}, {"new": {"x"}}} {
		if w := post(carol, bad); w.Code != http.StatusBadRequest {
			t.Errorf("compare %v: %d, want 400", bad, w.Code)
		}
	}
	w := post(carol, url.Values{"new": {"2"}, "old": {"1"}})
	if w.Code != http.StatusSeeOther || !strings.HasPrefix(w.Header().Get("Location"), "/me/compare/") {
		t.Fatalf("compare: %d %q\n%s", w.Code, w.Header().Get("Location"), w.Body)
	}
	page := w.Header().Get("Location")
	if again := post(carol, url.Values{"new": {"2"}, "old": {"1"}}); again.Code != http.StatusTooManyRequests {
		t.Errorf("a second comparison while the first plays: %d, want 429", again.Code)
	}
	code, body := get(t, me, page, &carol)
	if code != 200 || !strings.Contains(body, "Did my change help?") || !strings.Contains(body, "carol: r2 against r1") || !strings.Contains(body, "<progress") {
		t.Errorf("carol's comparison page: %d\n%s", code, body)
	}
	if code, _ := get(t, me, page, &f.alice); code != 404 {
		t.Errorf("alice reads carol's comparison: %d, want 404", code)
	}
}

// TestPending: the student's page reloads itself while a hand-in is
// queued or building, and not once every hand-in is done.
func TestPending(t *testing.T) {
	for _, tc := range []struct {
		name   string
		states []string
		want   bool
	}{
		{"none", nil, false},
		{"queued", []string{service.HandInQueued}, true},
		{"building", []string{service.HandInBuilt, service.HandInBuilding}, true},
		{"all done", []string{service.HandInBuilt, service.HandInFailed, service.HandInSuperseded}, false},
	} {
		var hs []service.HandInView
		for _, st := range tc.states {
			hs = append(hs, service.HandInView{State: st})
		}
		if got := pending(hs); got != tc.want {
			t.Errorf("%s: pending %v, want %v", tc.name, got, tc.want)
		}
	}
}
