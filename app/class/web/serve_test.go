package web_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ringside/app/class/web"
	"ringside/app/service"
	"ringside/runner"
)

// TestBrowserServe is TestBrowser's student through the real binary: the
// roster is made by "ringside class add", "ringside class serve" listens
// on loopback, and a headless Chromium logs in with the printed token,
// hands in a folder, gets the receipt and sees the sandboxed build's log
// and check on the student's page, which reloads itself until the build
// is done; then reads the class page at a phone's width.
func TestBrowserServe(t *testing.T) {
	chrome := chromium()
	if chrome == "" {
		t.Skip("no chromium found (apt-get install chromium): the browser test needs a real headless Chromium")
	}
	needPython(t)
	exe, err := runner.Executable() // the binary fixture.Main built
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "class.db")
	add := exec.Command(exe, "class", "add", "--db", db, "--game", "grip", "carol")
	add.Env = append(os.Environ(), "LANG=C.UTF-8")
	out, err := add.Output()
	if err != nil {
		t.Fatalf("class add: %v", err)
	}
	f := strings.Fields(string(out))
	if len(f) < 3 || f[0] != "carol" || f[1] != "token" {
		t.Fatalf("class add printed %q", out)
	}
	token := f[2]

	args := []string{"class", "serve", "--db", db, "--addr", "127.0.0.1:0"}
	if on, _, _ := service.SandboxState(); !on {
		args = append(args, "--no-sandbox")
	}
	serve := exec.Command(exe, args...)
	serve.Env = append(os.Environ(), "LANG=C.UTF-8")
	var errs bytes.Buffer
	serve.Stderr = &errs
	stdout, err := serve.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = serve.Process.Signal(syscall.SIGTERM)
		if err := serve.Wait(); err != nil {
			t.Errorf("class serve ended with %v; stderr:\n%s", err, errs.String())
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	sf := strings.Fields(line)
	if err != nil || len(sf) < 2 || sf[0] != "serving" || !strings.HasPrefix(sf[1], "https://127.0.0.1:") {
		t.Fatalf("class serve did not start: %q %v; stderr %s", line, err, errs.String())
	}
	url := sf[1]

	bctx := newBrowser(t, chrome)
	logInAndHandIn(t, bctx, url, token, botFolder(t, dir, "carol-bot", 1))
	// The build runs in the server's process: the page is read again
	// until it shows the verdict (the browser's own reloads would cut a
	// poll in the page short).
	var page string
	for !strings.Contains(page, "Check passed") && !strings.Contains(page, "failed") {
		if bctx.Err() != nil {
			t.Fatalf("no verdict on carol's page:\n%s", page)
		}
		if err := chromedp.Do(bctx, chromedp.Navigate(url+"/me")); err != nil {
			t.Fatal(err)
		}
		if page, err = chromedp.Run(bctx, chromedp.Text(chromedp.CSS(`body`))); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond) // not asserted: how often the page is read
	}
	for _, want := range []string{"built", "revision 1", "python3 -I -S -m py_compile bot.py", web.CheckShown(page)} {
		if !strings.Contains(page, want) {
			t.Errorf("carol's page after the hand-in lacks %q:\n%s", want, page)
		}
	}

	err = chromedp.Do(bctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(url+"/"), chromedp.WaitVisible(chromedp.CSS(`form.login`)))
	if err != nil {
		t.Fatalf("class page at a phone's width: %v", err)
	}
	wide, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth`))
	if err != nil {
		t.Fatal(err)
	}
	if wide {
		t.Errorf("the class page scrolls sideways at 390 px")
	}
}
