// Package textdiff compares two texts line by line and writes the result
// as a unified diff, the form "diff -u" and git print. It finds a shortest
// edit script with Myers' algorithm after taking off the common start and
// end, so the usual small change to a large file costs little.
package textdiff

import (
	"fmt"
	"strings"
)

// Kind is what an Op does.
type Kind byte

// Kinds of Op.
const (
	Equal  Kind = ' '
	Delete Kind = '-'
	Insert Kind = '+'
)

// Op is one line of an edit script: kept, deleted from a or inserted
// from b.
type Op struct {
	Kind Kind
	Line string
}

// MaxEdits bounds the search: two texts that differ in more lines than
// this (after their common start and end) are shown as "all of a removed,
// all of b added", which is still a correct diff, only not a shortest one.
// The search keeps about 2·MaxEdits² numbers (32 MB at most).
const MaxEdits = 2000

// Lines splits text into lines without their "\n". A final line without
// "\n" is kept; NoNewline tells whether text ends without one.
func Lines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// Diff returns an edit script that turns a into b: every line of a, in
// order, is kept or deleted, and every line of b is kept or inserted.
func Diff(a, b []string) []Op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := make([]Op, 0, len(a)+len(b)-pre-suf)
	for _, l := range a[:pre] {
		ops = append(ops, Op{Equal, l})
	}
	ops = append(ops, myers(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, Op{Equal, l})
	}
	return ops
}

// myers is Myers' O(ND) greedy search for a shortest edit script, keeping
// each round's furthest points to walk the path back.
func myers(a, b []string) []Op {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return replaceAll(a, b)
	}
	limit := min(n+m, MaxEdits)
	off := limit + 1
	v := make([]int, 2*limit+3)
	var trace [][]int32
	found := -1
	for d := 0; d <= limit && found < 0; d++ {
		// Only diagonals -d..d are reachable in round d; keep just those.
		snap := make([]int32, 2*d+1)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: insert b[y]
			} else {
				x = v[off+k-1] + 1 // right: delete a[x]
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = d
			}
		}
		for k := -d; k <= d; k++ {
			snap[k+d] = int32(v[off+k])
		}
		trace = append(trace, snap)
	}
	if found < 0 {
		return replaceAll(a, b)
	}
	return walkBack(a, b, trace, found)
}

// walkBack follows myers' rounds back from (len(a), len(b)), found rounds
// of edits, and returns the edit script in order.
func walkBack(a, b []string, trace [][]int32, found int) []Op {
	n, m := len(a), len(b)
	rev := make([]Op, 0, n+m)
	x, y := n, m
	for d := found; d > 0; d-- {
		prev := trace[d-1]
		at := func(k int) int { return int(prev[k+d-1]) }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, Op{Equal, a[x]})
		}
		if x == px {
			y--
			rev = append(rev, Op{Insert, b[y]})
		} else {
			x--
			rev = append(rev, Op{Delete, a[x]})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, Op{Equal, a[x]})
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

func replaceAll(a, b []string) []Op {
	ops := make([]Op, 0, len(a)+len(b))
	for _, l := range a {
		ops = append(ops, Op{Delete, l})
	}
	for _, l := range b {
		ops = append(ops, Op{Insert, l})
	}
	return ops
}

// Count returns how many lines an edit script deletes and inserts.
func Count(ops []Op) (deleted, inserted int) {
	for _, op := range ops {
		switch op.Kind {
		case Delete:
			deleted++
		case Insert:
			inserted++
		}
	}
	return deleted, inserted
}

// noNewline marks, inside Unified, a last line that has no "\n": it
// differs from the same line with one, as in diff.
const noNewline = "\x00no newline"

// Unified writes the diff of texts a and b as a unified diff with
// context lines around each change, under the headers "--- aName" and
// "+++ bName". Equal texts give "". A text that does not end in a newline
// is marked as diff does ("\ No newline at end of file").
func Unified(aName, bName, a, b string, context int) string {
	if a == b {
		return ""
	}
	ops := Diff(markedLines(a), markedLines(b))
	var w strings.Builder
	fmt.Fprintf(&w, "--- %s\n+++ %s\n", aName, bName)
	ai, bi := 0, 0 // lines of a and b before ops[i]
	for i := 0; i < len(ops); {
		if ops[i].Kind == Equal {
			ai, bi, i = ai+1, bi+1, i+1
			continue
		}
		// A hunk: context lines before the first change, then changes
		// until a run of more than 2*context unchanged lines, then
		// context lines after.
		start := max(0, i-context)
		last := i
		for j := i + 1; j < len(ops); j++ {
			if ops[j].Kind != Equal {
				if j-last-1 > 2*context {
					break
				}
				last = j
			}
		}
		end := min(len(ops), last+1+context)
		// Lines of a and b before the hunk: the context lines at its
		// start are all Equal.
		ha, hb := ai-(i-start), bi-(i-start)
		na, nb := 0, 0
		for _, op := range ops[start:end] {
			if op.Kind != Insert {
				na++
			}
			if op.Kind != Delete {
				nb++
			}
		}
		fmt.Fprintf(&w, "@@ -%s +%s @@\n", hunkRange(ha, na), hunkRange(hb, nb))
		for _, op := range ops[start:end] {
			line, cut := strings.CutSuffix(op.Line, noNewline)
			w.WriteByte(byte(op.Kind))
			w.WriteString(line)
			w.WriteByte('\n')
			if cut {
				w.WriteString("\\ No newline at end of file\n")
			}
		}
		ai, bi = ha+na, hb+nb
		i = end
	}
	return w.String()
}

// markedLines is Lines with a last line that has no "\n" marked.
func markedLines(text string) []string {
	lines := Lines(text)
	if text != "" && !strings.HasSuffix(text, "\n") {
		lines[len(lines)-1] += noNewline
	}
	return lines
}

// hunkRange is a hunk header's "start,count" (start of the line before
// an empty range, as diff writes it).
func hunkRange(before, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", before)
	case 1:
		return fmt.Sprintf("%d", before+1)
	}
	return fmt.Sprintf("%d,%d", before+1, n)
}

// Stat counts the lines Unified shows removed from a and added from b.
func Stat(a, b string) (removed, added int) {
	if a == b {
		return 0, 0
	}
	return Count(Diff(markedLines(a), markedLines(b)))
}
