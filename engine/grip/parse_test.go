package grip

import (
	"strings"
	"testing"
)

func TestParseReply(t *testing.T) {
	tests := []struct {
		line   string
		cmd    byte
		ok     bool
		detail string
	}{
		{"U", 'U', true, ""},
		{"R", 'R', true, ""},
		{"D", 'D', true, ""},
		{"L", 'L', true, ""},
		{"A", 'A', true, ""},
		{"N", 'N', true, ""},
		{"  A  ", 'A', true, ""},
		{"\tL\r", 'L', true, ""},
		{"U D", 'U', true, ""},
		{"R extra tokens 12", 'R', true, ""},
		{"A\x00", 'A', true, ""},
		{"\u3000D\u00a0", 'D', true, ""},
		{"", 'N', false, "empty line"},
		{" \t \r", 'N', false, "empty line"},
		{"u", 'N', false, `"u" is not a command; commands are upper case`},
		{"n", 'N', false, "upper case"},
		{"UP", 'N', false, `"UP" is not a command; want one of U R D L A N`},
		{"U\tD", 'N', false, `"U\tD" is not a command`},
		{"U,D", 'N', false, "not a command"},
		{"X", 'N', false, `"X" is not a command`},
		{"1", 'N', false, "not a command"},
		{"  U", 'U', true, ""},
		{" U", 'U', true, ""},
		// Two spaces: the first token is still U.
		{"U  D", 'U', true, ""},
		{strings.Repeat("Z", 60), 'N', false, `"ZZZZZZZZZZZZZZZZZZZZZZZZ…"`},
		// Longer than any reply Grip needs: invalid, however it starts.
		{"U" + strings.Repeat(" ", MaxReply-1), 'U', true, ""},
		{"U" + strings.Repeat(" ", MaxReply), 'N', false, "reply of 65 bytes, longer than Grip's longest valid reply (64 bytes)"},
		{"A " + strings.Repeat("x", 65534), 'N', false, "reply of 65536 bytes, longer than Grip's longest valid reply (64 bytes)"},
	}
	for _, tt := range tests {
		cmd, detail, ok := ParseReply(tt.line)
		if cmd != tt.cmd || ok != tt.ok || !strings.Contains(detail, tt.detail) || (tt.ok && detail != "") {
			t.Errorf("ParseReply(%q) = %c, %q, %v; want %c, %q, %v", tt.line, cmd, detail, ok, tt.cmd, tt.detail, tt.ok)
		}
	}
}

func FuzzParseReply(f *testing.F) {
	for _, s := range []string{"U", " A ", "u", "", "U D", "U\tD", "UP", "\u3000N", "R\r", "\xff", "READY"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		cmd, detail, ok := ParseReply(line)
		if strings.IndexByte(Commands, cmd) < 0 {
			t.Fatalf("ParseReply(%q): command %q is not one of %s", line, cmd, Commands)
		}
		trimmed := TrimLine(line)
		if ok {
			if detail != "" {
				t.Fatalf("ParseReply(%q): valid with detail %q", line, detail)
			}
			if trimmed[0] != cmd || (len(trimmed) > 1 && trimmed[1] != ' ') {
				t.Fatalf("ParseReply(%q) = %c, but the first token of %q is not that", line, cmd, trimmed)
			}
		} else if cmd != 'N' || detail == "" {
			t.Fatalf("ParseReply(%q): invalid with command %c and detail %q", line, cmd, detail)
		}
		// Blanks around the line never change the verdict.
		cmd2, _, ok2 := ParseReply(" \t" + line + "\r ")
		if cmd2 != cmd || ok2 != ok {
			t.Fatalf("ParseReply(%q) = %c %v but with blanks around %c %v", line, cmd, ok, cmd2, ok2)
		}
	})
}

func FuzzParseStart(f *testing.F) {
	for _, s := range []string{"14,0,D/17,14,L/10,14,U/5,2,R", "0,0,U/0,3,R/9,9,D/17,17,L", "", "1,1,U", "+1,0,D/17,14,L/10,14,U/5,2,R"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseStart(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "option start: ") {
				t.Fatalf("ParseStart(%q): error %q does not name the option", s, err)
			}
			return
		}
		for i, x := range p {
			if !onBoard(x.Row, x.Col) || strings.IndexByte(Directions, x.Dir) < 0 {
				t.Fatalf("ParseStart(%q): player %d = %+v", s, i, x)
			}
			for j := range i {
				if manhattan(x.Row, x.Col, p[j].Row, p[j].Col) < MinStartDistance {
					t.Fatalf("ParseStart(%q): players %d and %d too close", s, j, i)
				}
			}
		}
		again, err := ParseStart(FormatStart(p))
		if err != nil || again != p {
			t.Fatalf("ParseStart(%q) = %v, but its format %q reads back as %v, %v", s, p, FormatStart(p), again, err)
		}
	})
}
