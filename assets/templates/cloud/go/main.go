// A starting point for a Cloud Contest bot (Ringside game "cloud"), in Go
// with the standard library only. Ringside builds it with "go build -o bot ."
// and runs ./bot, which reads RINGSIDE_HOST, RINGSIDE_PORT,
// RINGSIDE_USER_TOKEN and RINGSIDE_GAME_TOKEN from the environment; the same
// values may be given as arguments: ./bot {host} {port} {user_token}
// {game_token}. Without a port it talks over stdin/stdout (transport=stdio).
//
// The protocol, in short (docs/cloud.md has every detail). One JSON object
// per line, lines end with "\n":
//
//	server: {"status":"ok", "message":"ready to login"}
//	bot:    {"message_type":"login","user_token":"…","game_token":"…"}
//	server: {"status":"ok", "message":"logged in"}
//	        (or {"status":"error", "message":"invalid user"} and the end)
//	server: {"user_id":"you","width":30,"height":30,"bricks":[[x,y],…]}
//	then every turn:
//	server: {"turn_no":1,"players":{"you":0,…},
//	         "bots":{"bot1":{"player":"you","position":[x,y],"health":3,
//	                         "time":0,"can_shoot":[[x,y],…]},…},
//	         "empty":[[x,y],…]}
//	bot:    {"turn_no":1,"bot1":{"move":"u","fire":[x,y]},"bot2":{"move":"s","fire":[]}}
//
// Moves: u (0,-1), d (0,+1), l (-1,0), r (+1,0), s stay; x is the column,
// y the row, (0,0) the top-left corner. Shots are fired from where a bot
// stands before it moves, at any cell listed in its can_shoot; three hits
// kill. You see your own bots always and other bots only near yours. Answer
// within 250 ms, or all your bots stay that turn. Lines with "status" are
// messages (errors, timeouts): log them and carry on. Debug output goes to
// stderr, never to stdout.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net"
	"os"
	"sort"
	"strconv"
	"time"
)

type cell [2]int

type botState struct {
	Player   string `json:"player"`
	Position cell   `json:"position"`
	Health   int    `json:"health"`
	Time     int    `json:"time"`
	CanShoot []cell `json:"can_shoot"`
}

type message struct {
	Status  string              `json:"status"`
	Message string              `json:"message"`
	UserID  string              `json:"user_id"`
	Width   int                 `json:"width"`
	Height  int                 `json:"height"`
	Bricks  []cell              `json:"bricks"`
	TurnNo  *int                `json:"turn_no"`
	Bots    map[string]botState `json:"bots"`
}

type command struct {
	Move string `json:"move"`
	Fire []int  `json:"fire"`
}

var moves = []struct {
	name   string
	dx, dy int
}{{"u", 0, -1}, {"d", 0, 1}, {"l", -1, 0}, {"r", 1, 0}}

func setting(i int, env string) string {
	if len(os.Args) > i+1 && os.Args[i+1] != "" {
		return os.Args[i+1]
	}
	return os.Getenv(env)
}

// rng is seeded from RINGSIDE_SEED, which Ringside sets for each game and
// seat: the same game plays the same way every time, so when you compare
// two revisions the difference is your change, not luck. Keep it so: draw
// only from rng, never from the clock.
var rng = rand.New(rand.NewSource(seed()))

// seed is RINGSIDE_SEED, or the time when the bot is run by hand.
func seed() int64 {
	if n, err := strconv.ParseInt(os.Getenv("RINGSIDE_SEED"), 10, 64); err == nil {
		return n
	}
	return time.Now().UnixNano()
}

func main() {
	host, port := setting(0, "RINGSIDE_HOST"), setting(1, "RINGSIDE_PORT")
	user, game := setting(2, "RINGSIDE_USER_TOKEN"), setting(3, "RINGSIDE_GAME_TOKEN")
	if host == "" {
		host = "127.0.0.1"
	}
	var r io.Reader = os.Stdin
	var w io.Writer = os.Stdout
	if port != "" {
		conn, err := net.Dial("tcp", net.JoinHostPort(host, port))
		if err != nil {
			fmt.Fprintln(os.Stderr, "connect:", err)
			os.Exit(1)
		}
		defer conn.Close()
		r, w = conn, conn
	}
	in := bufio.NewReader(r)
	out := bufio.NewWriter(w)
	send := func(v any) {
		data, _ := json.Marshal(v)
		out.Write(append(data, '\n'))
		out.Flush()
	}
	read := func() (message, bool) {
		line, err := in.ReadBytes('\n')
		if err != nil && len(line) == 0 {
			return message{}, false
		}
		var m message
		if err := json.Unmarshal(line, &m); err != nil {
			fmt.Fprintln(os.Stderr, "not JSON:", string(line))
		}
		return m, true
	}

	if m, ok := read(); !ok || m.Status != "ok" {
		fmt.Fprintln(os.Stderr, "unexpected greeting:", m.Message)
		os.Exit(1)
	}
	send(map[string]string{"message_type": "login", "user_token": user, "game_token": game})
	if m, ok := read(); !ok || m.Status != "ok" {
		fmt.Fprintln(os.Stderr, "login refused:", m.Message)
		os.Exit(1)
	}

	var me string
	var width, height int
	walls := map[cell]bool{}
	for {
		m, ok := read()
		if !ok {
			return
		}
		switch {
		case m.Status != "":
			fmt.Fprintln(os.Stderr, "server says:", m.Message)
		case m.UserID != "":
			me, width, height = m.UserID, m.Width, m.Height
			for _, b := range m.Bricks {
				walls[b] = true
			}
		case m.TurnNo != nil:
			reply := map[string]any{"turn_no": *m.TurnNo}
			for id, c := range decide(m.Bots, me, width, height, walls) {
				reply[id] = c
			}
			send(reply)
		}
	}
}

// decide fires each bot at the weakest enemy it can hit (no shots wasted
// on a bot already doomed this turn) and walks it towards the nearest enemy
// it sees, or wanders when it sees none.
func decide(bots map[string]botState, me string, width, height int, walls map[cell]bool) map[string]command {
	var mine, enemies []string
	occupied := map[cell]bool{}
	livesLeft := map[string]int{}
	for id, b := range bots {
		if b.Health <= 0 {
			continue
		}
		occupied[b.Position] = true
		if b.Player == me {
			mine = append(mine, id)
		} else {
			enemies = append(enemies, id)
			livesLeft[id] = b.Health
		}
	}
	byNumber := func(ids []string) {
		sort.Slice(ids, func(i, j int) bool {
			a, _ := strconv.Atoi(ids[i][3:])
			b, _ := strconv.Atoi(ids[j][3:])
			return a < b
		})
	}
	byNumber(mine)
	byNumber(enemies)
	free := func(c cell, taken map[cell]bool) bool {
		return c[0] >= 0 && c[0] < width && c[1] >= 0 && c[1] < height && !walls[c] && !occupied[c] && !taken[c]
	}
	commands := map[string]command{}
	taken := map[cell]bool{}
	for _, id := range mine {
		b := bots[id]
		cmd := command{
			Fire: aim(b, bots, enemies, livesLeft),
			Move: walk(b.Position, bots, enemies, func(c cell) bool { return free(c, taken) }),
		}
		x, y := b.Position[0], b.Position[1]
		for _, mv := range moves {
			if mv.name == cmd.Move {
				x, y = x+mv.dx, y+mv.dy
			}
		}
		taken[cell{x, y}] = true
		commands[id] = cmd
	}
	return commands
}

// aim returns where bot b fires: at the enemy with the fewest lives left
// among those it can hit, taking the life off livesLeft; no shot ([]) when
// it reaches none that is not already doomed this turn.
func aim(b botState, bots map[string]botState, enemies []string, livesLeft map[string]int) []int {
	reach := map[cell]bool{}
	for _, c := range b.CanShoot {
		reach[c] = true
	}
	target := ""
	for _, e := range enemies {
		if reach[bots[e].Position] && livesLeft[e] > 0 && (target == "" || livesLeft[e] < livesLeft[target]) {
			target = e
		}
	}
	if target == "" {
		return []int{}
	}
	livesLeft[target]--
	p := bots[target].Position
	return []int{p[0], p[1]}
}

// walk returns the move from pos: a step towards the nearest enemy seen
// while it is more than 2 cells away, else (no enemy in sight) a random
// free step, or "s" to stay.
func walk(pos cell, bots map[string]botState, enemies []string, free func(cell) bool) string {
	x, y := pos[0], pos[1]
	if len(enemies) > 0 {
		near, dist := cell{}, -1
		for _, e := range enemies {
			p := bots[e].Position
			if d := abs(p[0]-x) + abs(p[1]-y); dist < 0 || d < dist {
				near, dist = p, d
			}
		}
		if dist > 2 {
			for _, mv := range moves {
				c := cell{x + mv.dx, y + mv.dy}
				if free(c) && abs(near[0]-c[0])+abs(near[1]-c[1]) < dist {
					return mv.name
				}
			}
		}
		return "s"
	}
	var options []string
	for _, mv := range moves {
		if free(cell{x + mv.dx, y + mv.dy}) {
			options = append(options, mv.name)
		}
	}
	if len(options) == 0 {
		return "s"
	}
	return options[rng.Intn(len(options))]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
