package runner

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"ringside/engine"
	"ringside/runner/runnertest"
)

// knockGame is the ping game behind a login of its own, which shares
// nothing with Cloud's but the idea: the runner must drive any game's
// handshake from what the game's engine.Login says.
type knockGame struct{ pingGame }

func (knockGame) Info() engine.Info {
	info := pingGame{}.Info()
	info.ID, info.Name, info.Login = "knock", "Knock", knockLogin{}
	info.Options = append(info.Options, engine.Option{Key: "transport", Default: "tcp", Doc: "how bots connect",
		Choices: []string{engine.LoginTCP, engine.LoginStdio}})
	return info
}

// New starts the ping game past its READY handshake: the login is the
// handshake here.
func (g knockGame) New(opts engine.Options, players []string, seed int64) (engine.State, error) {
	st, err := g.pingGame.New(opts, players, seed)
	if err != nil {
		return nil, err
	}
	st.(*pingState).ready = true
	return st, nil
}

// knockLogin: "KNOCK KNOCK", "IT IS <user> FOR <game>", "COME IN" or "GO
// AWAY"; the user token goes in the command line's {who}, the address
// and the game token in KNOCK_* variables.
type knockLogin struct{}

func (knockLogin) Transport(opts engine.Options) string { return opts["transport"] }
func (knockLogin) Greeting() string                     { return "KNOCK KNOCK\n" }
func (knockLogin) NewReader() engine.LoginReader        { return knockReader{} }
func (knockLogin) Accepted() string                     { return "COME IN\n" }
func (knockLogin) Refused() string                      { return "GO AWAY\n" }
func (knockLogin) NotLogin() string                     { return "SAY WHO\n" }
func (knockLogin) Status(text string) bool              { return strings.HasPrefix(text, "NOTE ") }
func (knockLogin) Grant(g engine.Grant) (map[string]string, []string) {
	return map[string]string{"who": g.User},
		[]string{"KNOCK_ADDR=" + net.JoinHostPort(g.Host, g.Port), "KNOCK_GAME=" + g.Game, "KNOCK_TRANSPORT=" + g.Transport}
}

type knockReader struct{}

func (knockReader) Add(line string) (user, game string, done, ok bool) {
	f := strings.Fields(line)
	if len(f) != 5 || f[0] != "IT" || f[1] != "IS" || f[3] != "FOR" {
		return "", "", true, false
	}
	return f[2], f[4], true, true
}

var (
	knockbotOnce sync.Once
	knockbotBin  string
	knockbotErr  error
)

func buildKnockBot(t *testing.T) string {
	t.Helper()
	knockbotOnce.Do(func() {
		knockbotBin = filepath.Join(filepath.Dir(fakebot), "knockbot")
		if _, err := os.Stat(knockbotBin); err == nil && os.Getenv("RINGSIDE_TEST_BINS") != "" {
			return
		}
		knockbotErr = runnertest.GoBuild(knockbotBin, "./testdata/knockbot")
	})
	if knockbotErr != nil {
		t.Fatalf("build knockbot: %v", knockbotErr)
	}
	return knockbotBin
}

// TestLoginOfAnyGame plays the knock game over both transports: the bots
// get their tokens where the game says (a placeholder, variables), hear
// the game's greeting and answers, and a login with a wrong token is
// turned away with the game's words.
func TestLoginOfAnyGame(t *testing.T) {
	bin := buildKnockBot(t)
	good, wrong := bin+" -user {who}", bin+" -user nobody"
	for _, tt := range []struct {
		transport string
		second    string // the second seat's command
		// note is what the second seat's note says, "" for a seat that
		// played. Over TCP the bot is still running when it is turned
		// away: its exit status 3 says it heard "GO AWAY".
		note string
	}{
		{engine.LoginStdio, good, ""},
		{engine.LoginTCP, good, ""},
		{engine.LoginStdio, wrong, "login refused: wrong tokens"},
		{engine.LoginTCP, wrong, "exited before logging in: exit status 3"},
	} {
		name := fmt.Sprintf("%s/%s", tt.transport, map[bool]string{true: "wrong token", false: "good"}[tt.second == wrong])
		t.Run(name, func(t *testing.T) {
			out, err := Play(context.Background(), Match{Game: knockGame{}, TimeScale: 5,
				Options: engine.Options{"transport": tt.transport, "turns": "6"},
				Bots:    []Bot{{Name: "a", Command: good}, {Name: "b", Command: tt.second}}})
			if err != nil {
				t.Fatal(err)
			}
			if got := counts(out, 0); got[engine.OK] != 3 || out.Notes[0] != "" {
				t.Errorf("seat 1: verdicts %v, note %q, stderr %q; want 3 ok and no note", got, out.Notes[0], out.Stderr[0])
			}
			got := counts(out, 1)
			switch {
			case tt.note == "" && (got[engine.OK] != 3 || out.Notes[1] != ""):
				t.Errorf("seat 2: verdicts %v, note %q, stderr %q; want 3 ok and no note", got, out.Notes[1], out.Stderr[1])
			case tt.note != "" && (got[engine.OK] != 0 || !strings.Contains(out.Notes[1], tt.note)):
				t.Errorf("seat 2: verdicts %v, note %q; want no ok and a note saying %q", got, out.Notes[1], tt.note)
			}
		})
	}
}
