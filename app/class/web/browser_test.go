package web_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"github.com/chromedp/chromedp"

	"ringside/app/class"
	"ringside/app/class/web"
	"ringside/app/internal/fixture"
	"ringside/app/replay"
	"ringside/app/service"
)

// chromium is the headless browser's path, or "" when none is installed.
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// TestBrowser drives a real headless Chromium against the real class
// server (TLS with its own certificate): a student logs in with the token
// on their slip, hands in a folder through the folder picker, sees the
// receipt, the build log and the check, then their game, and scrubs its
// replay to step 50: the frame the browser shows is the desktop viewer's
// board for that step. The class page is then read at a phone's width.
func TestBrowser(t *testing.T) {
	exe := chromium()
	if exe == "" {
		t.Skip("no chromium found (apt-get install chromium): the browser test needs a real headless Chromium")
	}
	needPython(t)
	dir := t.TempDir()
	svc, err := service.Open(filepath.Join(dir, "class.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	toks, err := svc.ClassAdd("grip", []string{"carol", "dave"})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := class.New(svc, class.Options{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx) }()
	t.Cleanup(func() {
		stop()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	url := srv.URL()

	folder := filepath.Join(dir, "carol-bot")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(folder, "bot.py"), []byte(fixture.PyBot(1)), 0o644); err != nil {
		t.Fatal(err)
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe),
		// The server's certificate is its own, self-signed: a student's
		// browser asks once; this one is told.
		chromedp.IgnoreCertErrors, chromedp.NoSandbox, chromedp.WindowSize(1024, 768))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	bctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	bctx, cancelT := context.WithTimeout(bctx, 90*time.Second)
	defer cancelT()

	for i, step := range []chromedp.Action[chromedp.Void]{
		chromedp.Navigate(url + "/login"),
		chromedp.SendKeys(chromedp.CSS(`input[name=token]`), toks[0].Token),
		chromedp.Submit(chromedp.CSS(`input[name=token]`)),
		chromedp.WaitVisible(chromedp.CSS(`#handin`)),
		// The folder picker is given the folder, as a student picks it.
		chromedp.SetUploadFiles(chromedp.CSS(`input[name=file]`), []string{folder}),
		chromedp.Click(chromedp.CSS(`#handin button`)),
		chromedp.Poll[chromedp.Void](`document.getElementById('receipt').textContent.startsWith('receipt: hand-in #')`),
	} {
		if err := chromedp.Do(bctx, step); err != nil {
			body, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : location.href`))
			t.Fatalf("log in and hand in, step %d: %v\n%s", i, err, body)
		}
	}
	receipt, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS(`#receipt`)))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("receipt: %s", receipt)
	if err := svc.WaitHandIns(bctx); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(bctx, chromedp.Navigate(url+"/me")); err != nil {
		t.Fatal(err)
	}
	handins, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS(`body`)))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"built", "revision 1", "python3 -I -m py_compile bot.py", "Check passed"} {
		if !strings.Contains(handins, want) {
			t.Errorf("carol's page after the hand-in lacks %q:\n%s", want, handins)
		}
	}

	// dave hands in as well (through the service), and the cup is played.
	if _, err := svc.HandIn(toks[1].Student.AIID, []service.HandInFile{{Path: "bot.py", Data: []byte(fixture.PyBot(2))}}, "127.0.0.1"); err != nil {
		t.Fatal(err)
	}
	if err := svc.WaitHandIns(bctx); err != nil {
		t.Fatal(err)
	}
	game, _, _ := web.PlayCup(t, svc)

	if err := chromedp.Do(bctx, chromedp.Navigate(url+"/me"), chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`a[href="/me/game/%d"]`, game)))); err != nil {
		t.Fatalf("carol's page with her game: %v", err)
	}
	mePNG, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	saveShot(t, "class-student.png", mePNG)

	err = chromedp.Do(bctx,
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`a[href="/me/game/%d"]`, game))),
		chromedp.WaitVisible(chromedp.CSS(`#scrub`)),
		chromedp.SetValue(chromedp.CSS(`#scrub`), "50"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('scrub').dispatchEvent(new Event('input'))`),
		chromedp.WaitVisible(chromedp.Search(`//span[@id="pos"][starts-with(., "step 51 /")]`)),
		chromedp.Poll[chromedp.Void](`document.getElementById('frame').complete && document.getElementById('frame').src.endsWith('/frame/50.png')`),
	)
	if err != nil {
		t.Fatalf("scrub the replay: %v", err)
	}
	pos, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS(`#pos`)))
	if err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(bctx, chromedp.Screenshot(chromedp.CSS(`#frame`)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	log, err := svc.Replay(game)
	if err != nil {
		t.Fatal(err)
	}
	f, err := replay.NewFramesOf(log)
	if err != nil {
		t.Fatal(err)
	}
	want := f.Render(50, fyne.NewSize(640, 480))
	if d := differing(got, want); d > want.Bounds().Dx()*want.Bounds().Dy()/200 {
		t.Errorf("the browser's frame at %q differs from the desktop board's in %d pixels (%v against %v)", pos, d, got.Bounds(), want.Bounds())
	}
	saveShot(t, "class-replay.png", shot)

	// The class page on a phone: nothing wider than the screen.
	err = chromedp.Do(bctx,
		chromedp.EmulateViewport(390, 844),
		chromedp.Navigate(url+"/"),
		chromedp.WaitVisible(chromedp.Search(`//h2[contains(., "Grip cup")]`)),
	)
	if err != nil {
		t.Fatalf("class page at a phone's width: %v", err)
	}
	wide, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth`))
	if err != nil {
		t.Fatal(err)
	}
	phone, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if wide {
		t.Errorf("the class page scrolls sideways at 390 px")
	}
	saveShot(t, "class-phone.png", phone)
}

// differing counts pixels whose channels differ by more than a rounding
// step (a browser may decode a PNG through its colour management).
func differing(a, b image.Image) int {
	if a.Bounds().Size() != b.Bounds().Size() {
		return a.Bounds().Dx() * a.Bounds().Dy()
	}
	n := 0
	ao, bo := a.Bounds().Min, b.Bounds().Min
	for y := 0; y < a.Bounds().Dy(); y++ {
		for x := 0; x < a.Bounds().Dx(); x++ {
			ar, ag, ab, _ := a.At(ao.X+x, ao.Y+y).RGBA()
			br, bg, bb, _ := b.At(bo.X+x, bo.Y+y).RGBA()
			if far(ar, br) || far(ag, bg) || far(ab, bb) {
				n++
			}
		}
	}
	return n
}

func far(a, b uint32) bool { return max(a, b)-min(a, b) > 3<<8 }

// saveShot keeps a screenshot in RINGSIDE_SHOTS (the docs' screenshots
// are made so) and otherwise in the test's log folder.
func saveShot(t *testing.T, name string, png []byte) {
	dir := os.Getenv("RINGSIDE_SHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Error(err)
	}
}

// needPython skips a test whose students' bots are Python when there is
// no python3 (the class package imports nothing of the runner's, not even
// its test helpers).
func needPython(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3: the students' bots are Python")
	}
}
