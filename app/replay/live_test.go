package replay

import (
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"ringside/engine"
	"ringside/engine/grip"
)

// TestLiveViewer feeds a recorded game to a live viewer a few steps at a
// time, as the runner plays them: it follows the newest step, stays where
// the user looked back while the timeline grows, jumps to now, refuses a
// step that does not fit the game, and becomes the finished replay.
func TestLiveViewer(t *testing.T) {
	test.NewTempApp(t)
	full := gripLog(t)
	head := *full
	head.Steps, head.Result = nil, engine.Result{}
	v, err := NewLiveViewer(grip.New(), &head)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if !v.Live() || v.Steps() != 0 {
		t.Fatalf("a new live viewer: live %v, %d steps", v.Live(), v.Steps())
	}
	fed := 0
	feed := func(n int) {
		t.Helper()
		n = min(n, len(full.Steps)-fed)
		if err := v.Append(full.Steps[fed : fed+n]); err != nil {
			t.Fatalf("append steps %d..%d: %v", fed, fed+n, err)
		}
		fed += n
	}
	for range 5 {
		feed(3)
		if v.Steps() != fed || v.Step() != fed-1 || !v.Following() {
			t.Fatalf("after %d steps: showing %d of %d, following %v", fed, v.Step()+1, v.Steps(), v.Following())
		}
		if want := "step " + strconv.Itoa(fed) + " / " + strconv.Itoa(fed); !strings.Contains(v.PositionText(), want) {
			t.Errorf("position %q, want %q", v.PositionText(), want)
		}
	}
	v.Seek(4)
	feed(7)
	if v.Following() || v.Step() != 4 || v.Steps() != fed {
		t.Errorf("looking back: at %d of %d, following %v; want to stay at step 5", v.Step()+1, v.Steps(), v.Following())
	}
	if v.timeline.steps != fed {
		t.Errorf("timeline has %d steps, want %d", v.timeline.steps, fed)
	}
	v.JumpToNow()
	if !v.Following() || v.Step() != fed-1 {
		t.Errorf("jump to now: at %d of %d, following %v", v.Step()+1, v.Steps(), v.Following())
	}
	bad := engine.LogStep{Replies: []engine.LogReply{{Status: engine.Answered, Line: "U"}, {Status: engine.Answered, Line: "U"}}}
	if err := v.Append([]engine.LogStep{bad}); err == nil {
		t.Error("a step with a reply too many was taken")
	}
	if v.Live() || v.Steps() != fed {
		t.Errorf("after a step that does not fit: live %v with %d steps; want the %d steps so far, no longer live", v.Live(), v.Steps(), fed)
	}
	if err := v.Finish(full); err != nil {
		t.Fatal(err)
	}
	if v.Live() || v.Steps() != len(full.Steps) || v.Step() != len(full.Steps)-1 {
		t.Errorf("finished: live %v at %d of %d; want the last of %d steps", v.Live(), v.Step()+1, v.Steps(), len(full.Steps))
	}
	if v.now.Visible() || v.liveNote.Visible() {
		t.Error("the live controls stay on a finished replay")
	}
	if err := v.Append(full.Steps[:1]); err != nil || v.Steps() != len(full.Steps) {
		t.Errorf("append after the end: %v, %d steps", err, v.Steps())
	}
}
