package cloud

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"ringside/engine"
)

func TestLoginText(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		user  string // "" with ok false: not a login
		ok    bool
	}{
		{"one line", []string{`{"message_type":"login","user_token":"u","game_token":"g"}`}, "u", true},
		{"the seed's two lines", []string{`{"message_type":"login", "user_token":"u",`, `"game token":"g"}`}, "u", true},
		{"one key a line", []string{"{", `"message_type": "login",`, `"user_token": "u",`, `"game_token": "g"`, "}"}, "u", true},
		{"blank lines first", []string{"", "  ", `{"message_type":"login","user_token":"u","game_token":"g"}`}, "u", true},
		{"not an object", []string{`hello`}, "", false},
		{"an object, not a login", []string{`{"message_type":"logout"}`}, "", false},
		{"an unfinished string cannot go on", []string{`{"message_type":"login", "user_token":"u`, `", "game_token":"g"}`}, "", false},
		{"garbage after a beginning", []string{`{"message_type":`, `]`}, "", false},
		{"trailing text", []string{`{"message_type":"login","user_token":"u","game_token":"g"} x`}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var lt loginText
			var user, game string
			var done, ok bool
			for i, l := range tt.lines {
				user, game, done, ok = lt.Add(l)
				if done && i < len(tt.lines)-1 {
					if ok {
						t.Fatalf("a login after line %d of %d", i+1, len(tt.lines))
					}
					break
				}
			}
			if !done && tt.ok {
				t.Fatalf("the lines did not make a message")
			}
			if ok != tt.ok || user != tt.user || (ok && game != "g") {
				t.Errorf("login = %q %q %v, want %q %v", user, game, ok, tt.user, tt.ok)
			}
		})
	}
	// A message that never ends is given up, within bounds.
	var lt loginText
	for i := range maxLoginLines {
		if _, _, done, _ := lt.Add(`{"a":[`); done {
			if i+1 != maxLoginLines {
				t.Errorf("an endless object given up after %d lines, want %d", i+1, maxLoginLines)
			}
			return
		}
	}
	t.Errorf("an endless object was never given up")
}

// FuzzLoginText feeds the login reader arbitrary lines: it never holds
// more than its bounds, and a login that is one valid JSON text is read
// the same whether it comes on one line or split where the seed splits.
func FuzzLoginText(f *testing.F) {
	f.Add("{\"message_type\":\"login\", \"user_token\":\"123abcd\",\n\"game token\":\"1234abcd\"}", "u", "g")
	f.Add("{\n\n\"a\":[1,2\n", "", "")
	f.Add("\"x\n}\n{", "\x00", "\xff")
	f.Fuzz(func(t *testing.T, data, user, game string) {
		var lt loginText
		for _, l := range strings.Split(data, "\n") {
			lt.Add(l)
			if lt.lines > maxLoginLines || len(lt.buf) > maxLoginBytes+len(l)+1 {
				t.Fatalf("holding %d lines, %d bytes", lt.lines, len(lt.buf))
			}
		}
		u, _ := json.Marshal(user)
		g, _ := json.Marshal(game)
		one := `{"message_type":"login","user_token":` + string(u) + `,"game token":` + string(g) + `}`
		wantU, wantG, _ := parseLogin([]byte(one))
		var split loginText
		split.Add(`{"message_type":"login", "user_token":` + string(u) + `,`)
		gotU, gotG, done, ok := split.Add(`"game token":` + string(g) + `}`)
		if !done || !ok || gotU != wantU || gotG != wantG {
			t.Errorf("split login = %q %q %v %v, want %q %q", gotU, gotG, done, ok, wantU, wantG)
		}
	})
}

// TestLoginDescribesTheSeedsHandshake: the runner takes every line and
// every name of the handshake from the game, so they are the seed's here.
func TestLoginDescribesTheSeedsHandshake(t *testing.T) {
	lg, ok := Game{}.Info().Login.(Login)
	if !ok {
		t.Fatalf("Info().Login = %T, want cloud.Login", Game{}.Info().Login)
	}
	for _, tt := range []struct{ name, got, want string }{
		{"greeting", lg.Greeting(), `{"status":"ok", "message":"ready to login"}` + "\n"},
		{"accepted", lg.Accepted(), `{"status":"ok", "message":"logged in"}` + "\n"},
		{"refused", lg.Refused(), `{"status":"error", "message":"invalid user"}` + "\n"},
		{"not a login", lg.NotLogin(), `{"status":"error", "message":"expected a login message"}` + "\n"},
		{"tcp by default", lg.Transport(engine.Options{}), engine.LoginTCP},
		{"tcp", lg.Transport(engine.Options{"transport": "tcp"}), engine.LoginTCP},
		{"stdio", lg.Transport(engine.Options{"transport": "stdio"}), engine.LoginStdio},
	} {
		if tt.got != tt.want {
			t.Errorf("%s = %q, want %q", tt.name, tt.got, tt.want)
		}
	}
	for _, tt := range []struct {
		line   string
		status bool
	}{
		{lg.Greeting(), true}, {`{"status":"error", "message":"turn timeout"}` + "\n", true},
		{`{"turn_no":1,"players":{}}` + "\n", false}, {`{"user_id":"a","width":5}` + "\n", false},
	} {
		if got := lg.Status(tt.line); got != tt.status {
			t.Errorf("Status(%q) = %v, want %v", tt.line, got, tt.status)
		}
	}
	vars, env := lg.Grant(engine.Grant{Host: "127.0.0.1", Port: "4000", User: "uu", Game: "gg", Transport: engine.LoginTCP})
	wantVars := map[string]string{"host": "127.0.0.1", "port": "4000", "user_token": "uu", "game_token": "gg"}
	if !maps.Equal(vars, wantVars) {
		t.Errorf("Grant vars = %v, want %v", vars, wantVars)
	}
	wantEnv := []string{"RINGSIDE_HOST=127.0.0.1", "RINGSIDE_PORT=4000", "RINGSIDE_USER_TOKEN=uu", "RINGSIDE_GAME_TOKEN=gg", "RINGSIDE_TRANSPORT=tcp"}
	if !slices.Equal(env, wantEnv) {
		t.Errorf("Grant env = %v, want %v", env, wantEnv)
	}
	// Each reader is a connection's own: one half-read login does not
	// spill into another connection's.
	a, b := lg.NewReader(), lg.NewReader()
	if _, _, done, _ := a.Add(`{"message_type":"login",`); done {
		t.Fatalf("half a login was a whole message")
	}
	if u, _, done, ok := b.Add(`{"message_type":"login","user_token":"u","game_token":"g"}`); !done || !ok || u != "u" {
		t.Errorf("second reader: %q %v %v", u, done, ok)
	}
}
