package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"ringside/engine"
	"ringside/engine/games"
)

func init() {
	register(&command{
		name: "bot", usage: "GAME/NAME [--seed N] [--delay DURATION] [HOST PORT USER_TOKEN GAME_TOKEN]",
		summary: "run a built-in bot on stdin/stdout (or TCP, for Cloud)",
		help: func() string {
			return `Runs one of Ringside's built-in bots as a bot process, speaking the game's
protocol on stdin/stdout exactly like a contestant's program. "ringside play"
and events start it for bot commands written builtin:GAME/NAME.

Built-in bots: ` + builtinList() + `

` + optionsHelp(2, 18, botOptions(new(int64), new(time.Duration))) + `

For games with a login (Cloud), the bot logs in with the tokens given as
arguments or in RINGSIDE_HOST, RINGSIDE_PORT, RINGSIDE_USER_TOKEN and
RINGSIDE_GAME_TOKEN, over TCP when RINGSIDE_TRANSPORT is tcp (the default when
a port is known) or over stdin/stdout when it is stdio.`
		},
		run: runBot,
	})
}

func builtinList() string {
	var names []string
	for _, g := range games.All() {
		for _, b := range g.Bots() {
			names = append(names, g.Info().ID+"/"+b)
		}
	}
	return strings.Join(names, ", ")
}

// botOptions are the flags of "bot", declared into seed and delay and
// written in its help.
func botOptions(seed *int64, delay *time.Duration) []option {
	return []option{
		int64Option(seed, "seed", "N", 1, "seeds the bot's random choices"),
		durationOption(delay, "delay", "DURATION", 0, "wait this long before every answer (e.g. 300ms), to see how a game's time limits treat a slow program", "none"),
	}
}

func runBot(c *cli, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return usagef("bot: name the bot, e.g. \"ringside bot grip/greedy\" (built-in bots: %s)", builtinList())
	}
	name := args[0]
	fs := c.flags("bot")
	seed, delay := new(int64), new(time.Duration)
	declare(fs, botOptions(seed, delay))
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	if *delay < 0 {
		return usagef("bot: --delay must not be negative")
	}
	gameID, botName, ok := strings.Cut(name, "/")
	if !ok {
		return usagef("bot: write GAME/NAME, e.g. grip/greedy (built-in bots: %s)", builtinList())
	}
	g, err := games.Get(gameID)
	if err != nil {
		return usageError{err.Error()}
	}
	bot, err := g.NewBot(botName, *seed)
	if err != nil {
		return usagef("bot %s: %v (built-in bots: %s)", name, err, builtinList())
	}
	if g.Info().Login != nil {
		conn, err := loginBot(fs.Args(), c.stdin, c.stdout)
		if err != nil {
			return err
		}
		defer conn.Close()
		return feedBot(bot, conn.reader, conn, *delay)
	}
	return feedBot(bot, bufio.NewReaderSize(c.stdin, 64<<10), c.stdout, *delay)
}

// feedBot is the whole life of a built-in bot process: hello, then one
// answer per input until the input ends.
func feedBot(bot engine.Bot, in *bufio.Reader, out io.Writer, delay time.Duration) error {
	bw := bufio.NewWriter(out)
	if h := bot.Hello(); h != "" {
		bw.WriteString(h)
		if err := bw.Flush(); err != nil {
			return nil
		}
	}
	for {
		line, err := in.ReadString('\n')
		if line != "" {
			if a := bot.Feed(strings.TrimRight(line, "\r\n")); a != "" {
				time.Sleep(delay)
				bw.WriteString(a)
				if bw.Flush() != nil {
					return nil // Ringside has gone: nothing left to do
				}
			}
		}
		if err != nil {
			return nil
		}
	}
}

// loginConn is the stream a logged-in bot plays on.
type loginConn struct {
	reader *bufio.Reader
	io.Writer
	closer io.Closer
}

func (l *loginConn) Close() error {
	if l.closer != nil {
		return l.closer.Close()
	}
	return nil
}

// loginBot connects (TCP) or stays on stdio, and logs in with the tokens.
func loginBot(args []string, stdin io.Reader, stdout io.Writer) (*loginConn, error) {
	host, port := os.Getenv("RINGSIDE_HOST"), os.Getenv("RINGSIDE_PORT")
	user, game := os.Getenv("RINGSIDE_USER_TOKEN"), os.Getenv("RINGSIDE_GAME_TOKEN")
	if len(args) >= 4 {
		host, port, user, game = args[0], args[1], args[2], args[3]
	} else if len(args) > 0 {
		return nil, usagef("bot: give all of HOST PORT USER_TOKEN GAME_TOKEN, or none")
	}
	transport := os.Getenv("RINGSIDE_TRANSPORT")
	if transport == "" && port != "" {
		transport = "tcp"
	}
	lc := &loginConn{}
	switch transport {
	case "tcp":
		conn, err := net.DialTimeout("tcp", net.JoinHostPort(host, port), 5*time.Second)
		if err != nil {
			return nil, fmt.Errorf("connect to the game at %s:%s: %w", host, port, err)
		}
		lc.reader, lc.Writer, lc.closer = bufio.NewReaderSize(conn, 64<<10), conn, conn
	default:
		lc.reader, lc.Writer = bufio.NewReaderSize(stdin, 64<<10), stdout
	}
	greeting, err := lc.reader.ReadString('\n')
	if err != nil {
		lc.Close()
		return nil, fmt.Errorf("read the greeting: %w", err)
	}
	var st struct{ Status, Message string }
	if json.Unmarshal([]byte(greeting), &st) != nil || st.Status != "ok" {
		lc.Close()
		return nil, fmt.Errorf("unexpected greeting %q", strings.TrimSpace(greeting))
	}
	login, _ := json.Marshal(map[string]string{"message_type": "login", "user_token": user, "game_token": game})
	if _, err := fmt.Fprintf(lc, "%s\n", login); err != nil {
		lc.Close()
		return nil, fmt.Errorf("send login: %w", err)
	}
	answer, err := lc.reader.ReadString('\n')
	if err != nil {
		lc.Close()
		return nil, fmt.Errorf("read the login answer: %w", err)
	}
	if json.Unmarshal([]byte(answer), &st) != nil || st.Status != "ok" {
		lc.Close()
		return nil, fmt.Errorf("login refused: %s", strings.TrimSpace(answer))
	}
	return lc, nil
}
