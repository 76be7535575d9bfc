package engine

// Login is a game's login handshake, which bots go through before the
// game begins (Cloud Contest's: a greeting, a login message with a user
// token and a game token, an answer). The game describes the exchange —
// the lines written, what a login looks like, where the tokens go — and
// the runner drives it: it makes the tokens, listens, starts the bots in
// their sandbox, reads and writes the connections and keeps the
// deadlines. So the runner moves bytes and knows no game's wire text.
//
// A Login is stateless and safe for use by many games at once; a
// connection's progress through a login is held by its LoginReader.
type Login interface {
	// Transport is how the bots of a game with options opts connect:
	// LoginTCP or LoginStdio.
	Transport(opts Options) string
	// Greeting is written to a connection first (it ends with a newline).
	Greeting() string
	// NewReader starts reading one login from a connection's lines.
	NewReader() LoginReader
	// Accepted is written when a login names a seat's tokens and is
	// accepted; Refused when it names no seat's (or is refused for its
	// origin): the connection is then closed. NotLogin is written over
	// TCP when a whole message came that is no login; the bot may try
	// again. Each ends with a newline.
	Accepted() string
	Refused() string
	NotLogin() string
	// Status reports whether text, a line the game writes to a bot (an
	// Ask's Input, an Introducer's intro or a Step's Message), is a
	// status line: neither a state to be answered nor one to be sent
	// again to a bot that reconnects.
	Status(text string) bool
	// Grant says where a seat's tokens go: the values of the placeholders
	// ("{name}") substituted in the bot's command line, and the variables
	// (KEY=VALUE) added to its environment.
	Grant(t Grant) (vars map[string]string, env []string)
}

// Transports of a login game.
const (
	LoginTCP   = "tcp"   // the bot connects to a loopback port the runner listens on
	LoginStdio = "stdio" // the same lines over the bot's stdin and stdout
)

// Grant is what one seat's bot is given to log in with.
type Grant struct {
	Host, Port string // the address to connect to; empty over stdio
	User       string // the seat's own token
	Game       string // the game's token, the same for every seat
	Transport  string // LoginTCP or LoginStdio
}

// LoginReader reads one login message from a connection's lines.
type LoginReader interface {
	// Add takes the next line, without its line end. done reports that
	// the lines so far make a whole message or cannot become one (the
	// reader then starts afresh); ok that the message is a login, with
	// the user and game tokens it gives.
	Add(line string) (user, game string, done, ok bool)
}
