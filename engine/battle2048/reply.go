package battle2048

import (
	"fmt"
	"strconv"
)

// Reasons a game ends, as they appear in Result.Reason. Every reason but
// the last two names the loser's fault.
const (
	ReasonMalformedLine = "malformed_line"  // empty token (double space), tab or control character, token that is not a 32-bit integer, V below 1
	ReasonBadTokenCount = "bad_token_count" // wrong number of tokens for the phase or for M
	ReasonBadDirection  = "bad_direction"   // first token is not exactly U, R, D or L
	ReasonNoChange      = "no_change"       // the chosen slide changes nothing
	ReasonWrongSum      = "wrong_sum"       // M × 2^V ≠ 2^(X+1)
	ReasonOffBoard      = "off_board"       // a cell outside rows and columns 1..5
	ReasonOccupied      = "occupied"        // a cell that already holds a tile (or was named twice)
	ReasonNoReply       = "no_reply"        // an empty (or blank) answer line
	ReasonTurnTime      = "turn_time"       // over the opening or turn limit
	ReasonTotalTime     = "total_time"      // over the total time bank
	ReasonCrashed       = "crashed"         // the bot closed its output or died
	ReasonCannotMove    = "cannot_move"     // no direction moves the board before the turn
	ReasonHigherScore   = "higher_score"    // after the last round, the higher score won
	ReasonTieSecond     = "tie_second_player"
)

// MaxReply is the longest answer line Battle 2048 accepts, in bytes. The
// longest valid one is a turn's "D M V r1 c1 … rM cM" with M = 25 (every
// cell of the 5×5 board is named at most once): 53 tokens. Each token may
// be spelled as Java's Integer.parseInt reads it, up to 11 characters
// ("-2147483648", "+0000000005"), with a space after it: 53 × 12 = 636,
// and blanks trimmed around the line. A longer line is malformed.
const MaxReply = 1024

// Fault is a reply the game cannot accept: Reason is one of the Reason
// constants, Detail says what was wrong in plain words.
type Fault struct {
	Reason string
	Detail string
}

func (f *Fault) Error() string { return f.Reason + ": " + f.Detail }

func fault(reason, format string, args ...any) *Fault {
	return &Fault{Reason: reason, Detail: fmt.Sprintf(format, args...)}
}

// Move is a parsed half-turn answer "Command M V r1 c1 … rM cM". It has
// passed every check that needs no board: M ≥ 1, V ≥ 1 and len(Cells) == M.
// Cells may still be off the board; that is checked after the slide, as the
// referee did.
type Move struct {
	Dir   Dir
	M, V  int
	Cells []Cell
}

// String writes the move in canonical protocol form ("R 1 2 3 4").
func (m Move) String() string {
	b := make([]byte, 0, 8+8*len(m.Cells))
	b = append(b, m.Dir.String()...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(m.M), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(m.V), 10)
	for _, c := range m.Cells {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(c.Row)+1, 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(c.Col)+1, 10)
	}
	return string(b)
}

// trim removes what Java's String.trim removes: every character up to
// U+0020 at both ends. Bytes of multi-byte UTF-8 characters are all above
// 0x7F, so working on bytes gives the same result.
func trim(s string) string {
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	return s[i:j]
}

// tokens splits a trimmed line on single spaces. A double space (an empty
// token) or any other blank or control character inside the line makes it
// malformed; the referee would have failed such a token when parsing it,
// always with a presentation error, so naming it first changes nothing in
// the outcome.
func tokens(line string, buf []string) ([]string, *Fault) {
	if line == "" {
		return nil, fault(ReasonNoReply, "the answer line is empty")
	}
	start := 0
	for i := 0; i <= len(line); i++ {
		if i < len(line) {
			ch := line[i]
			if ch > ' ' {
				continue
			}
			if ch != ' ' {
				return nil, fault(ReasonMalformedLine, "character %q at byte %d; separate the numbers with single spaces only", ch, i+1)
			}
		}
		if i == start {
			return nil, fault(ReasonMalformedLine, "two spaces in a row at byte %d; separate the numbers with single spaces", i)
		}
		buf = append(buf, line[start:i])
		start = i + 1
	}
	return buf, nil
}

// ParseInt reads s as Java's Integer.parseInt does: an optional + or -
// sign, then one or more ASCII digits (leading zeros allowed), inside the
// 32-bit range.
func ParseInt(s string) (int32, bool) {
	i, neg := 0, false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		i = 1
	}
	if i == len(s) {
		return 0, false
	}
	var n int64
	for ; i < len(s); i++ {
		ch := s[i]
		if ch < '0' || ch > '9' {
			return 0, false
		}
		n = n*10 + int64(ch-'0')
		if n > 1<<31 {
			return 0, false
		}
	}
	if neg {
		n = -n
	}
	if n > 1<<31-1 {
		return 0, false
	}
	return int32(n), true
}

func notNumber(what, tok string) *Fault {
	return fault(ReasonMalformedLine, "%s is %q, not a whole number from -2147483648 to 2147483647", what, clip(tok))
}

// clip shortens a token quoted in a detail so a huge line cannot make a
// huge message.
func clip(s string) string {
	if len(s) > 24 {
		return s[:24] + "…"
	}
	return s
}

// parseCell reads "r c" as 1-based numbers; tile is the 1-based index of
// the tile for messages, 0 for the opening. Cells off the board are kept:
// the referee checks them only after the slide.
func parseCell(tile int, r, c string) (Cell, *Fault) {
	row, ok := ParseInt(r)
	if !ok {
		return Cell{}, notNumber(cellName(tile, "row"), r)
	}
	col, ok := ParseInt(c)
	if !ok {
		return Cell{}, notNumber(cellName(tile, "column"), c)
	}
	// int is at least 32 bits; the minimum row wraps on 32-bit platforms,
	// as in the referee, and stays off the board either way.
	return Cell{int(row) - 1, int(col) - 1}, nil
}

func cellName(tile int, part string) string {
	if tile == 0 {
		return "the " + part
	}
	return "the " + ordinal(tile) + " tile's " + part
}

// ParseOpening reads the opening answer "r c": the 1-based cell of the
// opponent's board that gets the first tile. The error is a *Fault.
func ParseOpening(line string) (Cell, error) {
	var buf [2]string
	toks, f := tokens(trim(line), buf[:0])
	if f != nil {
		return Cell{}, f
	}
	if len(toks) != 2 {
		return Cell{}, fault(ReasonBadTokenCount, "got %d numbers, want 2: the row and column of the opponent's cell", len(toks))
	}
	c, f := parseCell(0, toks[0], toks[1])
	if f != nil {
		return Cell{}, f
	}
	if !c.OnBoard() {
		return Cell{}, offBoard("the cell", c)
	}
	return c, nil
}

func offBoard(what string, c Cell) *Fault {
	return fault(ReasonOffBoard, "%s %d %d is off the board (rows and columns are 1..%d)", what, int64(c.Row)+1, int64(c.Col)+1, Size)
}

// ParseMove reads a half-turn answer "Command M V r1 c1 … rM cM" and runs
// the checks that need no board, in the referee's order: at least 5
// tokens, the direction, M and V as integers, 3+2M tokens and V ≥ 1, then
// every position as integers. The error is a *Fault.
//
// The token count is compared in exact arithmetic, so a negative M never
// passes (the referee's 32-bit 3+2M wrapped for M = -2147483647).
func ParseMove(line string) (Move, error) {
	var buf [16]string
	toks, f := tokens(trim(line), buf[:0])
	if f != nil {
		return Move{}, f
	}
	return parseMoveTokens(toks, nil)
}

// parseMoveTokens checks the tokens of a trimmed line; the cells are
// appended to cells[:0], so a caller with a buffer parses without
// allocating.
func parseMoveTokens(toks []string, cells []Cell) (Move, error) {
	if len(toks) < 5 {
		return Move{}, fault(ReasonBadTokenCount, "got %d tokens, want at least 5: direction, M, V and one row and column", len(toks))
	}
	var m Move
	switch toks[0] {
	case "U":
		m.Dir = Up
	case "R":
		m.Dir = Right
	case "D":
		m.Dir = Down
	case "L":
		m.Dir = Left
	default:
		return Move{}, fault(ReasonBadDirection, "direction is %q, want one of U R D L (capital letters)", clip(toks[0]))
	}
	mm, ok := ParseInt(toks[1])
	if !ok {
		return Move{}, notNumber("M", toks[1])
	}
	vv, ok := ParseInt(toks[2])
	if !ok {
		return Move{}, notNumber("V", toks[2])
	}
	m.M, m.V = int(mm), int(vv)
	if want := 3 + 2*int64(m.M); int64(len(toks)) != want {
		if m.M < 1 {
			return Move{}, fault(ReasonBadTokenCount, "M is %d; at least one tile must be placed", m.M)
		}
		return Move{}, fault(ReasonBadTokenCount, "M is %d, so the line needs %d tokens (3 + 2M), but it has %d", m.M, want, len(toks))
	}
	if m.V < 1 {
		return Move{}, fault(ReasonMalformedLine, "V is %d; tiles are 2^V with V at least 1", m.V)
	}
	m.Cells = cells[:0]
	for i := 0; i < m.M; i++ {
		c, f := parseCell(i+1, toks[3+2*i], toks[4+2*i])
		if f != nil {
			return Move{}, f
		}
		m.Cells = append(m.Cells, c)
	}
	return m, nil
}

func ordinal(n int) string {
	switch {
	case n%100/10 != 1 && n%10 == 1:
		return strconv.Itoa(n) + "st"
	case n%100/10 != 1 && n%10 == 2:
		return strconv.Itoa(n) + "nd"
	case n%100/10 != 1 && n%10 == 3:
		return strconv.Itoa(n) + "rd"
	}
	return strconv.Itoa(n) + "th"
}

// sumOK reports whether m tiles of 2^v add up to 2^(x+1) exactly, with no
// overflow: it is true only when v ≤ x+1 and m = 2^(x+1-v).
func sumOK(m, v, x int) bool {
	if m < 1 || v < 1 || v > x+1 {
		return false
	}
	k := x + 1 - v
	return k < 62 && int64(m) == int64(1)<<k
}
