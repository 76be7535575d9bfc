package textdiff

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"equal", "x\ny\n", "x\ny\n", ""},
		{"add to empty", "", "a\nb\n", "--- a\n+++ b\n@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{"remove all", "a\nb\n", "", "--- a\n+++ b\n@@ -1,2 +0,0 @@\n-a\n-b\n"},
		{"change one", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n",
			"--- a\n+++ b\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n",
			"--- a\n+++ b\n@@ -1,3 +1,4 @@\n+0\n 1\n 2\n 3\n@@ -9,4 +10,3 @@\n 9\n 10\n 11\n-12\n"},
		{"close changes share a hunk", "a\nb\nc\nd\ne\nf\ng\n", "A\nb\nc\nd\ne\nf\nG\n",
			"--- a\n+++ b\n@@ -1,7 +1,7 @@\n-a\n+A\n b\n c\n d\n e\n f\n-g\n+G\n"},
		{"newline added at end", "a\nb", "a\nb\n",
			"--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{"no newline either side", "a\nb", "a\nc",
			"--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
	}
	for _, tt := range tests {
		if got := Unified("a", "b", tt.a, tt.b, 3); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
		if tt.want != "" {
			if got, err := apply(tt.a, tt.want); err != nil || got != tt.b {
				t.Errorf("%s: applying the diff gives %q, %v; want %q", tt.name, got, err, tt.b)
			}
		}
	}
}

func TestDiffIsShortest(t *testing.T) {
	tests := []struct{ a, b string }{
		{"abcabba", "cbabac"}, // Myers' paper: 5 edits
		{"", "abc"}, {"abc", ""}, {"abc", "abc"}, {"xaxbxc", "abc"}, {"aaaa", "aa"},
	}
	for _, tt := range tests {
		a, b := strings.Split(tt.a, ""), strings.Split(tt.b, "")
		ops := Diff(a, b)
		checkScript(t, a, b, ops)
		del, ins := Count(ops)
		if want := len(a) + len(b) - 2*lcs(a, b); del+ins != want {
			t.Errorf("Diff(%q, %q): %d edits, want %d", tt.a, tt.b, del+ins, want)
		}
	}
}

// TestMaxEdits: beyond MaxEdits the diff is still correct, only longer.
func TestMaxEdits(t *testing.T) {
	var a, b []string
	for i := range MaxEdits {
		a = append(a, "a"+strconv.Itoa(i))
		b = append(b, "b"+strconv.Itoa(i))
	}
	ops := Diff(a, b)
	checkScript(t, a, b, ops)
}

func FuzzUnified(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nd\n", 3)
	f.Add("", "x", 0)
	f.Add("x\ny", "x\ny\n", 1)
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\nX\n5\n6\n7\nY\n", 1)
	f.Fuzz(func(t *testing.T, a, b string, context int) {
		if strings.Contains(a+b, "\x00") || context < 0 || context > 10 {
			t.Skip()
		}
		d := Unified("a", "b", a, b, context)
		if (d == "") != (a == b) {
			t.Fatalf("Unified(%q, %q) = %q", a, b, d)
		}
		if d == "" {
			return
		}
		got, err := apply(a, d)
		if err != nil || got != b {
			t.Fatalf("applying\n%s\nto %q gives %q, %v; want %q", d, a, got, err, b)
		}
		al, bl := Lines(a), Lines(b)
		ops := Diff(al, bl)
		checkScript(t, al, bl, ops)
		if len(al)*len(bl) < 10000 {
			del, ins := Count(ops)
			if want := len(al) + len(bl) - 2*lcs(al, bl); del+ins != want {
				t.Fatalf("%d edits, want %d", del+ins, want)
			}
		}
	})
}

// checkScript checks that ops keeps or deletes every line of a in order
// and keeps or inserts every line of b in order.
func checkScript(t *testing.T, a, b []string, ops []Op) {
	t.Helper()
	var ga, gb []string
	for _, op := range ops {
		if op.Kind != Insert {
			ga = append(ga, op.Line)
		}
		if op.Kind != Delete {
			gb = append(gb, op.Line)
		}
	}
	if strings.Join(ga, "\n") != strings.Join(a, "\n") || len(ga) != len(a) {
		t.Fatalf("script's a side %q, want %q", ga, a)
	}
	if strings.Join(gb, "\n") != strings.Join(b, "\n") || len(gb) != len(b) {
		t.Fatalf("script's b side %q, want %q", gb, b)
	}
}

func lcs(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// apply is a small, strict patch: it applies a unified diff to text,
// checking every context and removed line, the hunk counts and the
// "No newline" markers.
func apply(text, diff string) (string, error) {
	src := markedLines(text)
	lines := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		return "", fmt.Errorf("no headers")
	}
	var out []string
	pos := 0
	for i := 2; i < len(lines); {
		h := lines[i]
		as, an, _, bn, err := parseHeader(h)
		if err != nil {
			return "", fmt.Errorf("hunk header %q: %v", h, err)
		}
		start := as - 1
		if an == 0 {
			start = as
		}
		if start < pos {
			return "", fmt.Errorf("hunk %q overlaps", h)
		}
		out = append(out, src[pos:start]...)
		pos = start
		i++
		gotA, gotB := 0, 0
		for i < len(lines) && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			i++
			marked := i < len(lines) && lines[i] == "\\ No newline at end of file"
			if marked {
				i++
			}
			body := l[1:]
			if marked {
				body += noNewline
			}
			switch l[0] {
			case ' ', '-':
				if pos >= len(src) || src[pos] != body {
					return "", fmt.Errorf("line %d: have %q, diff says %q", pos+1, at(src, pos), body)
				}
				pos++
				gotA++
				if l[0] == ' ' {
					out = append(out, body)
					gotB++
				}
			case '+':
				out = append(out, body)
				gotB++
			default:
				return "", fmt.Errorf("bad line %q", l)
			}
		}
		if gotA != an || gotB != bn {
			return "", fmt.Errorf("hunk %q has %d and %d lines", h, gotA, gotB)
		}
	}
	out = append(out, src[pos:]...)
	var w strings.Builder
	for _, l := range out {
		if s, cut := strings.CutSuffix(l, noNewline); cut {
			w.WriteString(s)
		} else {
			w.WriteString(l + "\n")
		}
	}
	return w.String(), nil
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(end)"
}

func parseHeader(h string) (as, an, bs, bn int, err error) {
	f := strings.Fields(h)
	if len(f) != 4 || f[0] != "@@" || f[3] != "@@" {
		return 0, 0, 0, 0, fmt.Errorf("not a hunk header")
	}
	// A one-line range omits its count.
	rng := func(s string) (int, int, error) {
		st, n, ok := strings.Cut(s[1:], ",")
		a, err := strconv.Atoi(st)
		if err != nil {
			return 0, 0, err
		}
		if !ok {
			return a, 1, nil
		}
		b, err := strconv.Atoi(n)
		return a, b, err
	}
	if as, an, err = rng(f[1]); err != nil {
		return
	}
	bs, bn, err = rng(f[2])
	return
}
