package runner

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  string
	}{
		{in: "./bot", want: []string{"./bot"}},
		{in: "  python3   bot.py  --level 3 ", want: []string{"python3", "bot.py", "--level", "3"}},
		{in: `java -cp "my dir" Main`, want: []string{"java", "-cp", "my dir", "Main"}},
		{in: `echo 'a "b" c'`, want: []string{"echo", `a "b" c`}},
		{in: `echo "a \"b\" \$HOME \x"`, want: []string{"echo", `a "b" $HOME \x`}},
		{in: `a\ b c`, want: []string{"a b", "c"}},
		{in: `x""y ''`, want: []string{"xy", ""}},
		{in: "$HOME/bot", want: []string{"$HOME/bot"}},
		{in: "a\tb", want: []string{"a", "b"}},
		{in: "", err: "empty command"},
		{in: "   ", err: "empty command"},
		{in: `echo 'open`, err: "unclosed single quote"},
		{in: `echo "open`, err: "unclosed double quote"},
		{in: `echo \`, err: "lone backslash"},
	}
	for _, tt := range tests {
		got, err := Split(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Split(%q) error = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Split(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Split(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzSplit checks that quoting every word and splitting again gives the
// words back, and that Split never panics.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"a b", `"a b" c`, `'x' "y\"" z\ w`, "", `\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := Split(s)
		if err != nil {
			return
		}
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, "'"+strings.ReplaceAll(w, "'", `'\''`)+"'")
		}
		again, err := Split(strings.Join(quoted, " "))
		if err != nil {
			t.Fatalf("re-split of %q: %v", quoted, err)
		}
		if !reflect.DeepEqual(again, words) {
			t.Fatalf("round trip %q: got %q want %q", s, again, words)
		}
	})
}
