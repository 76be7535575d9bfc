package class

import (
	"context"
	"net/http"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"ringside/app/internal/fixture"
	"ringside/app/service"
)

// TestStopEndsComparison: a comparison a student started from their page
// plays on the teacher's machine; stopping the server stops it, so Serve
// returns with the comparison's event paused, not running unseen.
func TestStopEndsComparison(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3: the student's bots are Python")
	}
	t.Parallel()
	svc, toks := openClass(t, "grip", "carol")
	carol := toks[0]
	for v := range 2 {
		if _, err := svc.HandIn(carol.Student.AIID, []service.HandInFile{{Path: "bot.py", Data: []byte(fixture.PyBot(v + 1))}}, "127.0.0.1"); err != nil {
			t.Fatal(err)
		}
		wctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		err := svc.WaitHandIns(wctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
	}
	srv, err := New(svc, Options{Addr: "127.0.0.1:0", Insecure: true, NoSandbox: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx) }()

	form := url.Values{"new": {"2"}, "old": {"1"}}
	req, _ := http.NewRequest("POST", srv.URL()+"/me/compare", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+carol.Token)
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/me/compare/") {
		t.Fatalf("compare: %d %q", resp.StatusCode, loc)
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(loc, "/me/compare/"), 10, 64)
	if err != nil {
		t.Fatalf("comparison page %q: %v", loc, err)
	}
	// Two identical bots draw: the comparison plays for long, so it is
	// still running when the server stops.
	for {
		info, err := svc.EventInfo(id)
		if err != nil {
			t.Fatal(err)
		}
		if info.Status == service.EventRunning {
			break
		}
		if info.Status == service.EventFinished {
			t.Fatalf("the comparison finished before the server stopped")
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	if err := <-served; err != nil {
		t.Fatalf("serve: %v", err)
	}
	info, err := svc.EventInfo(id)
	if err != nil {
		t.Fatal(err)
	}
	if info.Status != service.EventPaused {
		t.Errorf("after the server stopped the comparison is %q, want %q", info.Status, service.EventPaused)
	}
}
