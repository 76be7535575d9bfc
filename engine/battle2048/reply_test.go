package battle2048

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestParseInt(t *testing.T) {
	cases := []struct {
		in   string
		want int32
		ok   bool
	}{
		{"2", 2, true},
		{"+2", 2, true},
		{"02", 2, true},
		{"-0", 0, true},
		{"-17", -17, true},
		{"0000000000000000000007", 7, true},
		{"2147483647", 2147483647, true},
		{"-2147483648", -2147483648, true},
		{"2147483648", 0, false},
		{"-2147483649", 0, false},
		{"99999999999999999999", 0, false},
		{"", 0, false},
		{"+", 0, false},
		{"-", 0, false},
		{"+-1", 0, false},
		{"1.0", 0, false},
		{"1e3", 0, false},
		{" 1", 0, false},
		{"0x10", 0, false},
		{"٣", 0, false}, // non-ASCII digits are refused (docs/battle2048.md)
	}
	for _, tc := range cases {
		got, ok := ParseInt(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseInt(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func reasonOf(err error) string {
	var f *Fault
	if errors.As(err, &f) {
		return f.Reason
	}
	if err != nil {
		return "not a *Fault: " + err.Error()
	}
	return ""
}

// parseCase is a reply line for a parser, the reason of the Fault it must
// give ("" when the line parses), and what a line that parses gives.
type parseCase[T any] struct {
	line   string
	reason string
	want   T
}

// checkParse runs parse, called name, over cases: each line parses to what
// it should or fails with a Fault of the right reason and a detail.
func checkParse[T any](t *testing.T, name string, parse func(string) (T, error), cases []parseCase[T]) {
	t.Helper()
	for _, tc := range cases {
		v, err := parse(tc.line)
		if got := reasonOf(err); got != tc.reason {
			t.Errorf("%s(%q): reason %q (%v), want %q", name, tc.line, got, err, tc.reason)
			continue
		}
		if err == nil && !reflect.DeepEqual(v, tc.want) {
			t.Errorf("%s(%q) = %+v, want %+v", name, tc.line, v, tc.want)
		}
		if err != nil && err.(*Fault).Detail == "" {
			t.Errorf("%s(%q): fault without detail", name, tc.line)
		}
	}
}

func TestParseMove(t *testing.T) {
	checkParse(t, "ParseMove", ParseMove, []parseCase[Move]{
		{"R 1 1 1 3", "", Move{Right, 1, 1, []Cell{{0, 2}}}},
		{"U 2 1 2 4 3 4", "", Move{Up, 2, 1, []Cell{{1, 3}, {2, 3}}}},
		{"   D 1 1 1 1   ", "", Move{Down, 1, 1, []Cell{{0, 0}}}},
		{"L +1 02 +5 05\r", "", Move{Left, 1, 2, []Cell{{4, 4}}}},
		{"\x00L 1 1 1 1\x1f", "", Move{Left, 1, 1, []Cell{{0, 0}}}},
		{"D 1 1 -1 9", "", Move{Down, 1, 1, []Cell{{-2, 8}}}}, // off the board is checked after the slide
		{"D 1 1 2147483647 -2147483648", "", Move{Down, 1, 1, []Cell{{2147483646, -2147483648 - 1}}}},
		{"", ReasonNoReply, Move{}},
		{"   \t ", ReasonNoReply, Move{}},
		{"D  1 1 1 1", ReasonMalformedLine, Move{}},
		{"D\t1 1 1 1", ReasonMalformedLine, Move{}},
		{"D 1 1 1\t1", ReasonMalformedLine, Move{}},
		{"D 1 1.0 1 2", ReasonMalformedLine, Move{}},
		{"D one 1 1 1", ReasonMalformedLine, Move{}},
		{"D 1 1 a 1", ReasonMalformedLine, Move{}},
		{"D 2 1 1 1 1 x", ReasonMalformedLine, Move{}},
		{"D 2147483648 1 1 1", ReasonMalformedLine, Move{}},
		{"D 1 0 1 1", ReasonMalformedLine, Move{}},  // V = 0
		{"D 1 -3 1 1", ReasonMalformedLine, Move{}}, // V < 1
		{"D 1 1 1", ReasonBadTokenCount, Move{}},
		{"hello", ReasonBadTokenCount, Move{}},
		{"D 0 1 1 1", ReasonBadTokenCount, Move{}},
		{"D 1 1 1 1 1 1", ReasonBadTokenCount, Move{}},
		{"D 1 2 1 1 1", ReasonBadTokenCount, Move{}},
		{"D -2147483647 1 1 1", ReasonBadTokenCount, Move{}}, // the referee's 3+2M wrapped to 5
		{"D 3 1 1 1 1 1", ReasonBadTokenCount, Move{}},
		{"d 1 2 1 2", ReasonBadDirection, Move{}},
		{"X 1 1 1 1", ReasonBadDirection, Move{}},
		{"UP 1 1 1 1", ReasonBadDirection, Move{}},
		// Order: the direction is checked before M and V, the count before V.
		{"X one 1 1 1", ReasonBadDirection, Move{}},
		{"D 2 0 1 1", ReasonBadTokenCount, Move{}},
	})
}

func TestParseOpening(t *testing.T) {
	checkParse(t, "ParseOpening", ParseOpening, []parseCase[Cell]{
		{"3 3", "", Cell{2, 2}},
		{"1 5\r", "", Cell{0, 4}},
		{" +5 01 ", "", Cell{4, 0}},
		{"", ReasonNoReply, Cell{}},
		{"3", ReasonBadTokenCount, Cell{}},
		{"1 2 3", ReasonBadTokenCount, Cell{}},
		{"a b", ReasonMalformedLine, Cell{}},
		{"1  2", ReasonMalformedLine, Cell{}},
		{"-1 2", ReasonOffBoard, Cell{}},
		{"0 1", ReasonOffBoard, Cell{}},
		{"6 1", ReasonOffBoard, Cell{}},
		{"1 6", ReasonOffBoard, Cell{}},
	})
}

func TestSumOK(t *testing.T) {
	cases := []struct {
		m, v, x int
		want    bool
	}{
		{1, 1, 0, true},
		{1, 3, 2, true}, // one 8
		{2, 2, 2, true}, // two 4s
		{4, 1, 2, true}, // four 2s
		{3, 1, 2, false},
		{1, 2, 2, false},
		{2, 32, 0, false}, // the referee's (1<<32)*2 wrapped to 2
		{1, 33, 0, false}, // 1<<33 wrapped to 2
		{1, 33, 32, true},
		{-2147483647, 1, 0, false}, // -2147483647*2 wrapped to 2
		{0, 1, 0, false},
		{1, 0, 0, false},
		{1 << 30, 1, 30, true},
		{1, 64, 63, true},
		{1, 1, 100, false},
	}
	for _, tc := range cases {
		if got := sumOK(tc.m, tc.v, tc.x); got != tc.want {
			t.Errorf("sumOK(M=%d, V=%d, X=%d) = %v, want %v", tc.m, tc.v, tc.x, got, tc.want)
		}
	}
}

func TestMoveString(t *testing.T) {
	m, err := ParseMove("R +2 01 1 2 05 5")
	if err != nil {
		t.Fatal(err)
	}
	if got := m.String(); got != "R 2 1 1 2 5 5" {
		t.Errorf("got %q", got)
	}
}

// refAccepts is a direct model of the referee's presentation checks
// (Java trim, split(" "), Integer.parseInt, which strconv.ParseInt with
// base 10 and 32 bits matches for ASCII), with the token count in exact
// arithmetic as Ringside does.
func refAccepts(line string) bool {
	toks := strings.Split(trim(line), " ")
	if len(toks) < 5 {
		return false
	}
	switch toks[0] {
	case "U", "R", "D", "L":
	default:
		return false
	}
	m, err1 := strconv.ParseInt(toks[1], 10, 32)
	v, err2 := strconv.ParseInt(toks[2], 10, 32)
	if err1 != nil || err2 != nil || int64(len(toks)) != 3+2*m || v < 1 {
		return false
	}
	for _, t := range toks[3:] {
		if _, err := strconv.ParseInt(t, 10, 32); err != nil {
			return false
		}
	}
	return true
}

// FuzzParseMove checks that any line either parses into a move that keeps
// the parser's promises and reads back the same from its canonical form,
// or fails with one of the presentation reasons and a detail; and that it
// accepts exactly the lines the model of the referee accepts.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"R 1 1 1 3", "U 2 1 2 4 3 4", "D  1 1 1 1", "D\t1", "L +1 02 +5 05\r",
		"D -2147483647 1 1 1", "D 2 32 1 1 1 2", "", "x", "R 4 1 1 1 1 2 1 3 1 4"} {
		f.Add(s)
	}
	presentation := map[string]bool{ReasonMalformedLine: true, ReasonBadTokenCount: true, ReasonBadDirection: true, ReasonNoReply: true}
	f.Fuzz(func(t *testing.T, line string) {
		m, err := ParseMove(line)
		if want := refAccepts(line); (err == nil) != want {
			t.Fatalf("ParseMove(%q): error %v, but the referee model accepts = %v", line, err, want)
		}
		if err != nil {
			var fa *Fault
			if !errors.As(err, &fa) || !presentation[fa.Reason] || fa.Detail == "" {
				t.Fatalf("ParseMove(%q): unexpected error %#v", line, err)
			}
			return
		}
		if m.M < 1 || m.V < 1 || len(m.Cells) != m.M || m.Dir > Left {
			t.Fatalf("ParseMove(%q) = %+v breaks the move invariants", line, m)
		}
		if strings.ContainsAny(trim(line), "\t\n") {
			t.Fatalf("ParseMove(%q) accepted a blank inside the line", line)
		}
		again, err := ParseMove(m.String())
		if err != nil || !reflect.DeepEqual(again, m) {
			t.Fatalf("canonical %q of %q reads back as %+v, %v", m.String(), line, again, err)
		}
	})
}

// FuzzParseOpening: any opening line gives a cell on the board or a fault.
func FuzzParseOpening(f *testing.F) {
	for _, s := range []string{"3 3", "1 5\r", "0 1", "", "a b", " +5 01 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := ParseOpening(line)
		if err != nil {
			if reasonOf(err) == "" || strings.HasPrefix(reasonOf(err), "not a") {
				t.Fatalf("ParseOpening(%q): %v", line, err)
			}
			return
		}
		if !c.OnBoard() {
			t.Fatalf("ParseOpening(%q) = %v, off the board", line, c)
		}
	})
}

func TestFaultText(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 102: "102nd"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %q, want %q", n, got, want)
		}
	}
	_, err := ParseMove("D 1 1 1 " + strings.Repeat("9", 40))
	if err == nil || !strings.HasPrefix(err.Error(), ReasonMalformedLine+": ") || !strings.Contains(err.Error(), "…") {
		t.Errorf("long token: %v", err)
	}
	_, err = ParseMove("R 12 1" + strings.Repeat(" 1 1", 10) + " x 1 1 1")
	if err == nil || !strings.Contains(err.Error(), "the 11th tile's row") {
		t.Errorf("11th tile: %v", err)
	}
}
