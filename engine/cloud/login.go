package cloud

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"ringside/engine"
)

// Login is Cloud Contest's login handshake (the seed's protocol, steps 1
// and 2): the server greets, the bot sends its tokens as a JSON login
// message, the server says whether they are right. The runner drives it.
type Login struct{}

// Lines of the handshake, spelt as the seed text spells them, with a
// blank after the comma: clients written from it compare them character
// by character.
const (
	greetingLine      = `{"status":"ok", "message":"ready to login"}` + "\n"
	loggedInLine      = `{"status":"ok", "message":"logged in"}` + "\n"
	invalidLine       = `{"status":"error", "message":"invalid user"}` + "\n"
	expectedLoginLine = `{"status":"error", "message":"expected a login message"}` + "\n"
)

// Transport is the "transport" option: tcp unless it says stdio.
func (Login) Transport(opts engine.Options) string {
	if opts["transport"] == engine.LoginStdio {
		return engine.LoginStdio
	}
	return engine.LoginTCP
}

// Greeting is the seed's "ready to login".
func (Login) Greeting() string { return greetingLine }

// Accepted is the seed's "logged in".
func (Login) Accepted() string { return loggedInLine }

// Refused is the seed's "invalid user".
func (Login) Refused() string { return invalidLine }

// NotLogin answers a whole JSON message that is no login.
func (Login) NotLogin() string { return expectedLoginLine }

// Status tells a status line ({"status":…}), which is neither a state
// nor its answer, from the game's other lines.
func (Login) Status(text string) bool { return strings.HasPrefix(text, `{"status"`) }

// Grant fills the placeholders {host} {port} {user_token} {game_token}
// of a bot's command line and sets the same values (and the transport)
// in its environment, the recommended way: command lines are visible to
// other processes.
func (Login) Grant(g engine.Grant) (map[string]string, []string) {
	vars := map[string]string{"host": g.Host, "port": g.Port, "user_token": g.User, "game_token": g.Game}
	env := []string{"RINGSIDE_HOST=" + g.Host, "RINGSIDE_PORT=" + g.Port, "RINGSIDE_USER_TOKEN=" + g.User,
		"RINGSIDE_GAME_TOKEN=" + g.Game, "RINGSIDE_TRANSPORT=" + g.Transport}
	return vars, env
}

// NewReader starts reading a login message.
func (Login) NewReader() engine.LoginReader { return &loginText{} }

// loginMsg is what a bot sends to log in. The seed text writes the game
// token's key with a space; both spellings are accepted.
type loginMsg struct {
	Type      string `json:"message_type"`
	User      string `json:"user_token"`
	Game      string `json:"game_token"`
	GameSpace string `json:"game token"`
}

func parseLogin(text []byte) (user, game string, ok bool) {
	var m loginMsg
	if err := json.Unmarshal(text, &m); err != nil || m.Type != "login" {
		return "", "", false
	}
	if m.Game == "" {
		m.Game = m.GameSpace
	}
	return m.User, m.Game, true
}

// Bounds of a login message gathered over several lines.
const (
	maxLoginLines = 16
	maxLoginBytes = 4 << 10
)

// loginText gathers a login message line by line. The seed prints its
// login over two lines, so a JSON object may span several: lines are
// joined until they make a whole JSON value. Blank lines before it are
// skipped; a line that cannot begin or continue an object ends the
// attempt.
type loginText struct {
	buf   []byte
	lines int
}

// Add takes the next line. done reports that the lines so far are a
// whole message or cannot become one; ok that they are a login, with its
// tokens.
func (t *loginText) Add(line string) (user, game string, done, ok bool) {
	if len(t.buf) == 0 && strings.TrimSpace(line) == "" {
		return "", "", false, false
	}
	t.buf = append(append(t.buf, line...), '\n')
	t.lines++
	text := t.buf
	if json.Valid(text) {
		t.buf, t.lines = t.buf[:0], 0
		user, game, ok = parseLogin(text)
		return user, game, true, ok
	}
	if t.lines < maxLoginLines && len(text) <= maxLoginBytes && unfinishedObject(text) {
		return "", "", false, false
	}
	t.buf, t.lines = t.buf[:0], 0
	return "", "", true, false
}

// unfinishedObject reports whether text is the beginning of a JSON object
// that more text could complete.
func unfinishedObject(text []byte) bool {
	if t := bytes.TrimLeft(text, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return false
	}
	var v json.RawMessage
	return errors.Is(json.NewDecoder(bytes.NewReader(text)).Decode(&v), io.ErrUnexpectedEOF)
}
