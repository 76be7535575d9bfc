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

	bctx := newBrowser(t, exe)
	logInAndHandIn(t, bctx, url, toks[0].Token, botFolder(t, dir, "carol-bot", 1))
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
	for _, want := range []string{"built", "revision 1", "python3 -I -S -m py_compile bot.py", web.CheckShown(handins)} {
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
	// The desktop viewer draws the log with the names the app shows.
	f, err := replay.NewFramesOf(service.ShownLog(log))
	if err != nil {
		t.Fatal(err)
	}
	want := f.Render(50, fyne.NewSize(640, 480))
	if d := differing(got, want); d > want.Bounds().Dx()*want.Bounds().Dy()/200 {
		t.Errorf("the browser's frame at %q differs from the desktop board's in %d pixels (%v against %v)", pos, d, got.Bounds(), want.Bounds())
	}
	saveShot(t, "class-replay.png", shot)

	followLive(t, bctx, svc, url)
	classPages(t, bctx, svc, url)
}

// followLive: carol opens her game in play; the viewer shows its newest
// step and moves on as steps are saved while "follow" is on; scrubbing
// back turns follow off and keeps the step chosen while the game goes
// on; follow again shows the newest; the game's end stops the polling.
func followLive(t *testing.T, bctx context.Context, svc *service.Service, url string) {
	game, full, save, finish := web.LiveCup(t, svc, "Grip live")
	save(20)
	pos := func(want string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.getElementById('pos').textContent.startsWith(%q)`, want))
	}
	following := func(on bool) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.getElementById('follow').checked === %v`, on))
	}
	// frameLoaded waits for the board shown to be the one at the end of
	// the address src ends with.
	frameLoaded := func(src string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](fmt.Sprintf(`(() => { const i = document.getElementById('frame'); return i.src.endsWith(%q) && i.complete && i.naturalWidth > 0 })()`, src))
	}
	n := len(full.Steps)
	for i, step := range []struct {
		do   func()
		acts []chromedp.Action[chromedp.Void]
	}{
		{nil, []chromedp.Action[chromedp.Void]{chromedp.Navigate(fmt.Sprintf("%s/me/game/%d", url, game)), chromedp.WaitVisible(chromedp.CSS(`#follow`)),
			following(true), pos("step 20 / 20")}},
		{func() { save(60) }, []chromedp.Action[chromedp.Void]{pos("step 60 / 60"),
			frameLoaded("/frame/59.png?of=60")}},
		// Scrubbing back: follow goes off.
		{nil, []chromedp.Action[chromedp.Void]{chromedp.SetValue(chromedp.CSS(`#scrub`), "10"),
			chromedp.Evaluate[chromedp.Void](`document.getElementById('scrub').dispatchEvent(new Event('input'))`),
			following(false), pos("step 11 / 60")}},
		// The game goes on; the viewer stays where the student is.
		{func() { save(80) }, []chromedp.Action[chromedp.Void]{chromedp.Poll[chromedp.Void](`document.getElementById('viewer').dataset.steps === '80'`),
			chromedp.Poll[chromedp.Void](`document.getElementById('scrub').max === '79'`), pos("step 11 / 80")}},
		// Follow again: the newest step.
		{nil, []chromedp.Action[chromedp.Void]{chromedp.Click(chromedp.CSS(`#follow`)), following(true), pos("step 80 / 80"), frameLoaded("/frame/79.png?of=80")}},
		// The end: the last step, and no more following.
		{finish, []chromedp.Action[chromedp.Void]{pos(fmt.Sprintf("step %d / %d", n, n)), frameLoaded(fmt.Sprintf("/frame/%d.png", n-1)),
			chromedp.Poll[chromedp.Void](`document.getElementById('follow').disabled`)}},
	} {
		if step.do != nil {
			step.do()
		}
		for _, a := range step.acts {
			if err := chromedp.Do(bctx, a); err != nil {
				text, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.getElementById('pos') ? document.getElementById('pos').textContent : location.href`))
				t.Fatalf("follow the game in play, step %d: %v (shown: %s)", i, err, text)
			}
		}
		if i == 4 { // following the game in play
			shot, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			saveShot(t, "class-follow.png", shot)
		}
	}
}

// classPages: the class page with a knockout's bracket, a game in play
// and the standings, at a laptop's width and at a phone's (390 px): the
// page never wider than the screen, only the bracket's box scrolls.
func classPages(t *testing.T, bctx context.Context, svc *service.Service, url string) {
	web.PublishKnockout(t, svc)
	game, _, save, _ := web.LiveCup(t, svc, "Grip final")
	save(40)
	for _, tc := range []struct {
		shot          string
		width, height int64
		bracketScroll bool // the bracket is wider than its box
	}{
		{"class-page.png", 1024, 768, false},
		{"class-phone.png", 390, 844, true},
	} {
		err := chromedp.Do(bctx,
			chromedp.EmulateViewport(tc.width, tc.height),
			chromedp.Navigate(url+"/"),
			chromedp.WaitVisible(chromedp.Search(`//h2[contains(., "Knockout")]`)),
			chromedp.Poll[chromedp.Void](fmt.Sprintf(`(() => { const i = document.querySelector('img[src="/game/%d/frame/39.png"]'); return i && i.complete && i.naturalWidth > 0 })()`, game)),
		)
		if err != nil {
			t.Fatalf("class page at %d px: %v", tc.width, err)
		}
		wide, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth`))
		if err != nil {
			t.Fatal(err)
		}
		if wide {
			t.Errorf("the class page scrolls sideways at %d px", tc.width)
		}
		scrolls, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`(() => { const b = document.querySelector('.bracket-box'); return b.scrollWidth > b.clientWidth })()`))
		if err != nil {
			t.Fatal(err)
		}
		if scrolls != tc.bracketScroll {
			t.Errorf("at %d px the bracket scrolls in its box: %v, want %v", tc.width, scrolls, tc.bracketScroll)
		}
		text, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS(`main`)))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"Quarter-finals", "Final", "Champion", "bye", "greedy (built-in)", "in play: round 1"} {
			if !strings.Contains(text, want) {
				t.Errorf("the class page at %d px lacks %q", tc.width, want)
			}
		}
		if strings.Contains(text, "builtin:") {
			t.Errorf("the class page shows a built-in bot's command")
		}
		shot, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		saveShot(t, tc.shot, shot)
	}
}

// newBrowser starts a headless Chromium for the test, at a laptop's
// window size; it is stopped when the test ends.
func newBrowser(t *testing.T, exe string) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe),
		// The server's certificate is its own, self-signed: a student's
		// browser asks once; this one is told.
		chromedp.IgnoreCertErrors, chromedp.NoSandbox, chromedp.WindowSize(1024, 768))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelB := chromedp.NewContext(actx)
	bctx, cancelT := context.WithTimeout(bctx, 3*time.Minute)
	t.Cleanup(func() {
		cancelT()
		cancelB()
		cancelA()
	})
	return bctx
}

// botFolder writes a student's folder with a Python Grip bot in it.
func botFolder(t *testing.T, dir, name string, v int) string {
	t.Helper()
	folder := filepath.Join(dir, name)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(folder, "bot.py"), []byte(fixture.PyBot(v)), 0o644); err != nil {
		t.Fatal(err)
	}
	return folder
}

// logInAndHandIn logs in at url with token, hands in folder through the
// folder picker as a student picks it, and waits for the receipt.
func logInAndHandIn(t *testing.T, bctx context.Context, url, token, folder string) {
	t.Helper()
	for i, step := range []chromedp.Action[chromedp.Void]{
		chromedp.Navigate(url + "/login"),
		chromedp.SendKeys(chromedp.CSS(`input[name=token]`), token),
		chromedp.Submit(chromedp.CSS(`input[name=token]`)),
		chromedp.WaitVisible(chromedp.CSS(`#handin`)),
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
