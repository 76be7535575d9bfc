package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"ringside/app/internal/fixture"
	"ringside/app/replay"
	"ringside/app/service"
	"ringside/engine"
	"ringside/engine/grip"
)

// played is a class whose two students handed in Python Grip bots, built
// in the sandbox, and a finished game of the published event in which
// both play: every seat printed its own secret on stderr.
type played struct {
	svc        *service.Service
	alice, bob Student
	other      Student // a student of the class who is not in the game
	game       int64
	seatOf     map[string]int // student → seat in the game
	log        *engine.Log
}

func newPlayed(t testing.TB) played {
	t.Helper()
	needPython(t)
	f := newFixture(t)
	svc := f.svc
	p := played{svc: svc, seatOf: map[string]int{}, other: f.alice}
	toks, err := svc.ClassAdd("grip", []string{"carol", "dave"})
	if err != nil {
		t.Fatal(err)
	}
	p.alice = Student{toks[0].Student.AIID, "carol"}
	p.bob = Student{toks[1].Student.AIID, "dave"}
	for i, st := range []Student{p.alice, p.bob} {
		if _, err := svc.HandIn(st.AIID, []service.HandInFile{{Path: "bot.py", Data: []byte(fixture.PyBot(i + 1))}}, "127.0.0.1"); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := svc.WaitHandIns(ctx); err != nil {
		t.Fatal(err)
	}
	p.game, p.seatOf, p.log = PlayCup(t, svc)
	return p
}

// PlayCup makes the published event "Grip cup" of the class's carol and
// dave (each with a built revision) and two built-in bots, and records
// its game as played: every seat printed its own secret on stderr. It
// gives the game, each student's seat and the game's log.
func PlayCup(t testing.TB, svc *service.Service) (int64, map[string]int, *engine.Log) {
	t.Helper()
	id, seatOf, log := cup(t, svc, "Grip cup")
	if err := svc.DB().FinishMatch(id, log.Result, log, time.Second); err != nil {
		t.Fatal(err)
	}
	return id, seatOf, log
}

// LiveCup is PlayCup's event, named name, with its game in play:
// save(n) stores the game's first n steps as the process playing it does
// (every LiveSaveEvery), finish records it as played. It gives the game
// and its whole log.
func LiveCup(t testing.TB, svc *service.Service, name string) (game int64, full *engine.Log, save func(n int), finish func()) {
	t.Helper()
	game, _, full = cup(t, svc, name)
	if err := svc.DB().StartMatch(game); err != nil {
		t.Fatal(err)
	}
	save = func(n int) {
		part := *full
		part.Steps, part.Result = full.Steps[:n], engine.Result{}
		if err := svc.DB().SaveLive(game, &part); err != nil {
			t.Fatal(err)
		}
	}
	finish = func() {
		if err := svc.DB().FinishMatch(game, full.Result, full, time.Second); err != nil {
			t.Fatal(err)
		}
	}
	return game, full, save, finish
}

// cup makes the published event name of carol, dave and two built-in
// bots, and plays its game in process (not recorded): every seat prints
// its own secret on stderr.
func cup(t testing.TB, svc *service.Service, name string) (int64, map[string]int, *engine.Log) {
	t.Helper()
	seatOf := map[string]int{}
	ev, _, err := svc.CreateEvent(service.EventSpec{Name: name, Game: "grip", Games: 1, Seed: 3, SeedSet: true,
		Entries: []string{"carol", "dave", "builtin:grip/greedy", "builtin:grip/random"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.PublishEvent(ev.ID, true); err != nil {
		t.Fatal(err)
	}
	ms, err := svc.DB().Matches(ev.ID)
	if err != nil || len(ms) == 0 {
		t.Fatalf("%d games: %v", len(ms), err)
	}
	m := ms[0]
	players := make([]string, len(m.Game.Seats))
	bots := make([]string, len(m.Game.Seats))
	for seat, e := range m.Game.Seats {
		players[seat] = []string{"carol r1", "dave r1", "builtin:grip/greedy", "builtin:grip/random"}[e]
		bots[seat] = "random"
		if e < 2 {
			seatOf[[]string{"carol", "dave"}[e]] = seat
		}
	}
	// The game is played in process by built-in bots in every seat: what
	// the pages must get right is whose seat is whose, not the bots.
	log := fixture.PlayLog(t, grip.New(), nil, m.Game.Seed, players, bots, func(a engine.Ask, turn int) (time.Duration, string) {
		return time.Millisecond, fmt.Sprintf("secret of seat %d\n", a.Seat)
	})
	return m.ID, seatOf, log
}

// TestStudentGame: a student sees their hand-in's receipt, build log and
// check, their game with their place, its replay's frames (the desktop
// viewer's boards) and their own seat's lines; the other student gets 404
// for every part of that game's own-seat view, and never another seat's
// stderr.
func TestStudentGame(t *testing.T) {
	p := newPlayed(t)
	site := New(p.svc, Options{})
	me := site.Student()
	game := strconv.FormatInt(p.game, 10)

	code, body := get(t, me, "/me", &p.alice)
	if code != 200 {
		t.Fatalf("/me: %d %s", code, body)
	}
	for _, want := range []string{"built", "revision 1", CheckShown(body), "Grip cup", "/me/game/" + game, "of 4"} {
		if !strings.Contains(body, want) {
			t.Errorf("carol's page lacks %q", want)
		}
	}

	code, body = get(t, me, "/me/game/"+game, &p.alice)
	if code != 200 || !strings.Contains(body, `data-steps="`+strconv.Itoa(len(p.log.Steps))+`"`) {
		t.Fatalf("carol's game page: %d\n%s", code, body)
	}

	code, body = get(t, me, "/me/game/"+game+"/seat.json", &p.alice)
	if code != 200 {
		t.Fatalf("seat.json: %d %s", code, body)
	}
	var seat struct {
		Seat  int `json:"seat"`
		Steps []seatStep
	}
	if err := json.Unmarshal([]byte(body), &seat); err != nil {
		t.Fatal(err)
	}
	own := fmt.Sprintf("secret of seat %d", p.seatOf["carol"])
	if seat.Seat != p.seatOf["carol"] || !strings.Contains(body, own) {
		t.Errorf("carol's seat.json is seat %d without %q", seat.Seat, own)
	}
	for s := range 4 {
		if other := fmt.Sprintf("secret of seat %d", s); s != seat.Seat && strings.Contains(body, other) {
			t.Errorf("carol's seat.json shows %q", other)
		}
	}

	// The frame is the desktop viewer's board for the same step.
	code, body = get(t, me, "/me/replay/"+game+"/frame/50.png", &p.alice)
	if code != 200 {
		t.Fatalf("frame: %d %s", code, body)
	}
	img, err := png.Decode(bytes.NewReader([]byte(body)))
	if err != nil {
		t.Fatal(err)
	}
	stored, err := p.svc.Replay(p.game)
	if err != nil {
		t.Fatal(err)
	}
	f, err := replay.NewFramesOf(service.ShownLog(stored))
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := png.Encode(&want, f.Render(50, fyne.NewSize(640, 480))); err != nil {
		t.Fatal(err)
	}
	if wimg, _ := png.Decode(bytes.NewReader(want.Bytes())); wimg.Bounds() != img.Bounds() {
		t.Errorf("frame is %v, the viewer's %v", img.Bounds(), wimg.Bounds())
	}
	if !bytes.Equal([]byte(body), want.Bytes()) {
		t.Errorf("the served frame 50 differs from the board drawn for step 50")
	}

	// dave plays in the game too: he gets his own seat, never carol's.
	code, body = get(t, me, "/me/game/"+game+"/seat.json", &p.bob)
	if code != 200 || strings.Contains(body, own) || !strings.Contains(body, fmt.Sprintf("secret of seat %d", p.seatOf["dave"])) {
		t.Errorf("dave's seat.json (%d) is not his own seat's:\n%.300s", code, body)
	}
	for _, path := range []string{"/me/game/" + game + "/seat.json", "/me/game/" + game, "/me/replay/" + game + "/frame/50.png"} {
		if code, _ := get(t, me, path, &p.other); code != 404 {
			t.Errorf("alice, not in the game, gets %d at %s, want 404", code, path)
		}
	}
}

// CheckShown (for this package's tests and web_test's) is what a student's page says of a good bot's check:
// "Check passed", or where a busy machine (thirty builds, the rest of the
// suite) made an answer late, the check's own words for that, which fail
// it without blaming the bot.
func CheckShown(page string) string {
	if !strings.Contains(page, "Check passed") && strings.Contains(page, "the machine was busy then") {
		return "the machine was busy then"
	}
	return "Check passed"
}
