package app

import (
	"crypto/tls"
	"net/http"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"ringside/app/class"
)

// The class screen adds students, opens the class on loopback (a free
// port), shows the address and fingerprint students need, logs their
// requests, and closes again; closing the window stops the server.
func TestClassScreen(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	s := u.class
	var names, game string
	onUI(func() {
		s.port.SetText("0")
		game = gameIDOf(gameNameList()[0])
	})
	toks, err := u.Svc.ClassAdd(game, []string{"ada", "grace"})
	if err != nil || len(toks) != 2 {
		t.Fatalf("add: %v", err)
	}
	onUI(func() {
		s.reload()
		for i := range s.students {
			names += s.studentLine(i) + "\n"
		}
		test.Tap(s.toggle)
	})
	if !strings.Contains(names, "ada (") || !strings.Contains(names, "grace (") || !strings.Contains(names, "no hand-in yet") {
		t.Errorf("roster shows %q", names)
	}
	var url, fp, label string
	onUI(func() {
		if s.srv != nil {
			url, fp = s.srv.URL(), s.srv.Fingerprint()
		}
		label = s.url.Text
	})
	if url == "" || !strings.Contains(label, url) || !strings.Contains(label, fp) {
		t.Fatalf("open: label %q, server %q", label, url)
	}
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true,
		VerifyConnection: func(cs tls.ConnectionState) error {
			if class.Fingerprint(cs.PeerCertificates[0].Raw) != fp {
				t.Error("the server shows another certificate than the screen")
			}
			return nil
		}}}}
	resp, err := c.Post(url+"/api/submit", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a hand-in without a token: %s", resp.Status)
	}
	// The log line comes through OnLog after the answer: wait for it.
	for found := false; !found; time.Sleep(20 * time.Millisecond) {
		onUI(func() {
			s.logMu.Lock()
			for _, l := range s.lines {
				found = found || strings.Contains(l, "POST /api/submit 401")
			}
			s.logMu.Unlock()
		})
	}
	onUI(func() { test.Tap(s.toggle) })
	for closed := false; !closed; time.Sleep(20 * time.Millisecond) {
		onUI(func() { closed = s.srv == nil && s.toggle.Text == "Open the class to the network" })
	}
	if _, err := c.Get(url + "/"); err == nil {
		t.Error("the class still answers after it was closed")
	}
}

// TestClassLogLineWhole: a log line longer than the list is cut there;
// choosing it shows it whole in a dialog.
func TestClassLogLineWhole(t *testing.T) {
	t.Parallel()
	_, u := newTestUI(t)
	s := u.class
	long := "2026-11-29T02:42:50Z 10.0.0.7 POST /api/submit 413 " + strings.Repeat("the upload is over the class's cap ", 8) + "END"
	s.addLine("an earlier line")
	s.addLine(long)
	if got := overlayText(t, u.Win); strings.Contains(got, long) {
		t.Fatalf("a dialog shows the line before it is chosen: %q", got)
	}
	onUI(func() { s.logList.Select(0) }) // newest first
	if got := overlayText(t, u.Win); !strings.Contains(got, long) {
		t.Errorf("choosing the newest line shows %q, want the line whole", got)
	}
	closeOverlays(u.Win)
}
