// Package engine holds the rules of Ringside's games and everything that is a
// pure function of results: the game contract, replays, event formats,
// standings and ratings. Nothing here does I/O, reads a clock or starts a
// goroutine, so the same options, seed and replies always give the same game.
package engine

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Game describes one game and starts matches of it.
type Game interface {
	Info() Info
	// New validates opts (already completed with defaults by Info.Resolve)
	// and returns the initial state. players has one unique display name
	// per seat; its length is the number of seats.
	New(opts Options, players []string, seed int64) (State, error)
	// Bots lists the names of the game's built-in bots ("random", "greedy").
	Bots() []string
	// NewBot makes a built-in bot, seeded for its random choices.
	NewBot(name string, seed int64) (Bot, error)
}

// Bot is a built-in player's brain, without I/O: the CLI's "ringside bot"
// command feeds it the lines a bot process reads and writes what it
// returns, so built-in bots speak the real protocol through real pipes.
type Bot interface {
	// Hello is written once at start ("READY\n" for Grip; may be empty).
	Hello() string
	// Feed takes one input line (without its newline) and returns the text
	// to write in answer, complete with newlines, or "" while the bot is
	// still reading a multi-line input.
	Feed(line string) string
}

// Info is what a game says about itself to the CLI, the UI and the runner.
type Info struct {
	ID          string // "grip", "battle2048", "cloud"
	Name        string // human name
	Description string // one paragraph for people choosing a game
	MinSeats    int
	MaxSeats    int
	Options     []Option
	// Login, when set, is the handshake bots must go through with tokens
	// before the game (Cloud Contest's); the runner drives it on the
	// transport the game names. nil: bots are asked from their start.
	Login Login `json:"-"`
	// MaxReply is the longest reply line, in bytes, the game can accept
	// with any options; 0 sets no bound of the game's own. A longer line
	// is an invalid reply (LongReply), and the runner keeps no more of it
	// than this and a mark with its length (CutReply), so padded replies
	// do not fill the database.
	MaxReply int
	// Measured blanks in a seat's input what the runner measured rather
	// than the game decided (Battle 2048 sends the time a bot has left),
	// and names it; nil when inputs hold no measured time. Two plays of
	// a deterministic game can differ only there (DiffReplays).
	Measured func(input string) (masked, field string)
}

// Option documents one key=value option of a game.
type Option struct {
	Key     string
	Default string
	Doc     string
	Choices []string // allowed values, empty when free-form
	// PerSeat options may also be set for one seat alone, as key@SEAT
	// ("coords@2=xy"): an AI written for another version of the protocol
	// carries the setting into every match it plays (see SeatValue).
	PerSeat bool
}

// SeatKey is the key that sets option key for one seat only: "coords@2".
func SeatKey(key string, seat int) string { return key + "@" + strconv.Itoa(seat) }

// SeatValue is the value of option key for one seat: key@seat when opts
// sets it, else the option's value for every seat (Value).
func (in Info) SeatValue(opts Options, key string, seat int) string {
	if v, ok := opts[SeatKey(key, seat)]; ok {
		return v
	}
	return in.Value(opts, key)
}

// PerSeatOptions are the options of the game that one seat may set alone.
func (in Info) PerSeatOptions() []Option {
	var out []Option
	for _, o := range in.Options {
		if o.PerSeat {
			out = append(out, o)
		}
	}
	return out
}

// Options are a game's key=value settings. After Info.Resolve every key of
// the game is present.
type Options map[string]string

// Resolve checks opts against the game's options and fills in defaults. It
// refuses unknown keys and values outside an option's choices. A PerSeat
// option may also be given for one seat as key@SEAT (SEAT 0 to MaxSeats−1);
// such keys are kept as given and get no default.
func (in Info) Resolve(opts Options) (Options, error) {
	out := Options{}
	known := map[string]Option{}
	for _, o := range in.Options {
		known[o.Key] = o
		out[o.Key] = o.Default
	}
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		v := opts[k]
		o, ok := known[k]
		if base, seat, isSeat := strings.Cut(k, "@"); isSeat && !ok {
			o, ok = known[base]
			n, err := strconv.Atoi(seat)
			switch {
			case !ok:
				return nil, fmt.Errorf("%s has no option %q (options: %s)", in.ID, base, in.optionKeys())
			case !o.PerSeat:
				return nil, fmt.Errorf("option %s is the same for every seat; only %s may be set per seat", base, in.perSeatKeys())
			case err != nil || n < 0 || n >= in.MaxSeats || strconv.Itoa(n) != seat:
				return nil, fmt.Errorf("option %s: seat %q is not a seat of %s (0 to %d)", k, seat, in.ID, in.MaxSeats-1)
			}
		}
		if !ok {
			return nil, fmt.Errorf("%s has no option %q (options: %s)", in.ID, k, in.optionKeys())
		}
		if len(o.Choices) > 0 && !contains(o.Choices, v) {
			return nil, fmt.Errorf("option %s=%q: want one of %s", k, v, strings.Join(o.Choices, ", "))
		}
		out[k] = v
	}
	return out, nil
}

// Value is the value of option key: opts[key] when opts sets it, else the
// option's default, or "" when the game has no such option. Games read
// their options with it so that a caller may leave any of them out.
func (in Info) Value(opts Options, key string) string {
	if v, ok := opts[key]; ok {
		return v
	}
	for _, o := range in.Options {
		if o.Key == key {
			return o.Default
		}
	}
	return ""
}

func (in Info) optionKeys() string {
	keys := make([]string, len(in.Options))
	for i, o := range in.Options {
		keys[i] = o.Key
	}
	return strings.Join(keys, ", ")
}

func (in Info) perSeatKeys() string {
	var keys []string
	for _, o := range in.PerSeatOptions() {
		keys = append(keys, o.Key)
	}
	if len(keys) == 0 {
		return "none"
	}
	return strings.Join(keys, ", ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// State is one match in progress. The runner loops:
//
//	for !st.Done() {
//		asks := st.Asks()
//		replies := ask the bots (possibly none)
//		step := st.Apply(replies)
//	}
//
// Asks may be empty (a turn that needs no bot, such as a fallen player's
// turn); Apply must still advance the game then.
type State interface {
	// Asks returns the seats that must answer now, with the exact text each
	// receives. One seat in turn, or all seats at once.
	Asks() []Ask
	// Apply takes one Reply per Ask, in the same order, and advances the game.
	Apply(replies []Reply) Step
	// Done reports whether the game is over.
	Done() bool
	// Result is the outcome; valid once Done.
	Result() Result
	// Turn is the game's own turn counter, used to place timeline events.
	Turn() int
	// Clone returns an independent copy, so viewers can keep snapshots.
	Clone() State
}

// Ask is one request to one seat.
type Ask struct {
	Seat int
	// Input is written to the bot as is (it ends with a newline). Empty
	// means nothing is written and the bot is only waited for, as for a
	// READY handshake.
	Input string
	// Timeout is the wall-clock limit for the reply, before any time
	// multiplier of the event.
	Timeout time.Duration
	// Expect, when set, filters lines: a line for which it returns false is
	// noise (ignored, kept in the replay) and the runner keeps waiting. Used
	// for handshakes ("earlier lines are ignored") and for replies tagged
	// with an older turn.
	Expect func(line string) bool `json:"-"`
}

// Status is how the runner saw a bot's answer to an Ask.
type Status uint8

const (
	Answered Status = iota // a line arrived in time
	TimedOut               // no line before the deadline
	Closed                 // the bot's output closed or the process died
	Gone                   // the bot was already stopped; nothing was sent
)

var statusNames = [...]string{"answered", "timeout", "closed", "gone"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("status(%d)", s)
}

// Reply is what the runner observed for one Ask.
type Reply struct {
	Status Status
	// Line is the reply without its line end ("\n", "\r\n" or "\r"), not
	// otherwise trimmed. Empty unless Status is Answered.
	Line string
	// Elapsed is the time from the input being written to the reply line
	// being complete, after the event's time multiplier is divided out.
	Elapsed time.Duration
}

// Verdict is the judgement on one seat's reply in one step.
type Verdict uint8

const (
	OK       Verdict = iota // a valid reply in time
	Invalid                 // a reply the game could not accept
	Timeout                 // no reply in time
	Crashed                 // the bot's process died or closed its output
	NotAsked                // the seat was not asked (stopped, fallen)
)

var verdictNames = [...]string{"ok", "invalid", "timeout", "crashed", "not_asked"}

// Verdicts lists every verdict in order.
var Verdicts = []Verdict{OK, Invalid, Timeout, Crashed, NotAsked}

func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return fmt.Sprintf("verdict(%d)", v)
}

// ParseVerdict is the inverse of Verdict.String.
func ParseVerdict(s string) (Verdict, error) {
	for i, n := range verdictNames {
		if n == s {
			return Verdict(i), nil
		}
	}
	return 0, fmt.Errorf("unknown verdict %q", s)
}

// MarshalText makes verdicts readable in JSON.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads a verdict written by MarshalText.
func (v *Verdict) UnmarshalText(b []byte) error {
	p, err := ParseVerdict(string(b))
	*v = p
	return err
}

// Step is what Apply did.
type Step struct {
	// Seats has one entry per Ask, in the same order, optionally followed
	// by NotAsked entries for seats whose turn it was but that were not
	// asked (fallen, or their bot stopped), so verdict counts are complete.
	Seats []SeatStep
	// Events are worth a marker on a timeline.
	Events []Event
	// Stop lists seats whose bots must be stopped now and never asked
	// again (killed after a timeout, fallen players).
	Stop []int
	// Send lists lines to write to bots after the step, such as Cloud's
	// "turn timeout" or error status lines.
	Send []Message
}

// SeatStep is the outcome for one asked seat.
type SeatStep struct {
	Seat    int
	Verdict Verdict
	Action  string // the effective action, in the game's notation
	Detail  string // why a reply was invalid, in plain words
}

// Message is a line for one seat.
type Message struct {
	Seat int
	Text string // ends with a newline
}

// Event kinds shared by all games; games may add their own.
const (
	EventFall    = "fall"
	EventKill    = "kill"
	EventTimeout = "timeout"
	EventInvalid = "invalid"
	EventCrash   = "crash"
	EventEnd     = "end"
)

// Event is a moment worth marking on a replay timeline.
type Event struct {
	Step  int    `json:"step"` // index of the step in the replay
	Turn  int    `json:"turn"` // the game's turn number
	Kind  string `json:"kind"`
	Seats []int  `json:"seats,omitempty"`
	Text  string `json:"text"`
}

// Result is a finished game's outcome.
type Result struct {
	// Ranks has one 1-based rank per seat; equal ranks are ties.
	Ranks []int `json:"ranks"`
	// Reason says why the game ended, in the game's stable terms
	// ("last_standing", "turn_limit", "cannot_move", …).
	Reason string `json:"reason"`
	// Turns is how many turns were played, in the game's own counting.
	Turns int `json:"turns"`
	// Scores are the final scores where the game keeps them.
	Scores []float64 `json:"scores,omitempty"`
}

// Winner returns the single seat ranked 1, or -1 for a shared first place.
func (r Result) Winner() int {
	w := -1
	for s, rk := range r.Ranks {
		if rk == 1 {
			if w >= 0 {
				return -1
			}
			w = s
		}
	}
	return w
}

// RanksByOrder turns a "goodness" key per seat (higher is better) into
// 1-based competition ranks: equal keys share a rank, the next rank skips.
func RanksByOrder(key []int) []int {
	ranks := make([]int, len(key))
	for i := range key {
		r := 1
		for j := range key {
			if key[j] > key[i] {
				r++
			}
		}
		ranks[i] = r
	}
	return ranks
}

// IntOption parses value, the value of option key, as a whole number of
// unit from lo to hi; the error names the option, the value and the range.
func IntOption(key, value string, lo, hi int, unit string) (int, error) {
	n, err := strconv.Atoi(value)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("option %s=%q: want a whole number of %s from %d to %d", key, value, unit, lo, hi)
	}
	return n, nil
}

// Starter is implemented by states that can describe their start position
// as an option value, so a replay shows it and a teacher can reuse it.
type Starter interface {
	Start() string
}

// Introducer is implemented by games that send each bot a fixed text once
// every bot is logged in, before the first Ask (Cloud's field config).
// Transports that reconnect send it again.
type Introducer interface {
	Intro(seat int) string
}

// TurnTagger is implemented by games whose inputs carry their turn number
// and whose replies may (Cloud's "turn_no"). The runner pairs a login
// game's reply lines with the inputs sent by counting them, and a tag
// says outright which input a reply answers.
type TurnTagger interface {
	// InputTurn reads the turn of an input the game wrote (Ask.Input).
	InputTurn(input string) (turn int64, ok bool)
	// ReplyTurn reads the turn a bot's reply line is tagged with; ok is
	// false for a line without a whole-number tag.
	ReplyTurn(line string) (turn int64, ok bool)
}
