package cli

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// sameDefault reports whether a flag's default value (flag.Flag.DefValue)
// is the default its help states: the same number or duration, or "off"
// for a switch that is false.
func sameDefault(defValue, stated string) bool {
	if defValue == stated || (defValue == "false" && stated == "off") {
		return true
	}
	if a, err := strconv.ParseFloat(defValue, 64); err == nil {
		b, err := strconv.ParseFloat(stated, 64)
		return err == nil && a == b
	}
	if a, err := time.ParseDuration(defValue); err == nil {
		b, err := time.ParseDuration(stated)
		return err == nil && a == b
	}
	return false
}

// TestOptionsStateTheirDefaults: every flag declared from a command's
// option list is in that command's help with its default (or marked
// required), a default stated as a value is the flag's own default value,
// no two options share a name, and no option line is wider than
// helpWidth.
func TestOptionsStateTheirDefaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		command string
		opts    []option
	}{
		{"event", eventCreateOptions(new(eventCreateArgs))},
		{"event", eventRunOptions(new(eventRunArgs))},
		{"compare", compareOptions(new(compareArgs))},
		{"play", playOptions(new(playArgs))},
		{"bot", botOptions(new(int64), new(time.Duration))},
		{"watch", watchOptions(new(time.Duration), new(time.Duration))},
		{"shard", shardRunOptions(new(shardRunArgs))},
		{"ai", newAIOptions(new(newAIArgs))},
		{"ai", aiAddOptions(new(aiAddArgs))},
		{"ai", aiNewOptions(new(string))},
		{"ai", aiEditOptions(new(aiEditArgs))},
		{"ai", aiBuildOptions(new(bool), new(time.Duration))},
		{"ai", aiCheckOptions(new(aiCheckArgs))},
		{"ai", aiRemoveOptions(new(bool))},
		{"ai", []option{dbOption(new(string))}},
		{"watch", []option{dbOption(new(string))}},
		{"replay", branchOptions(new(branchArgs))},
		{"replay", replayExportOptions(new(string))},
		{"event", standingsOptions(new(bool), new(bool), new(bool))},
		{"event", exportOptions(new(exportArgs))},
	}
	for _, tt := range tests {
		t.Run(tt.command+"/"+tt.opts[0].name, func(t *testing.T) {
			code, help, errs := runCLI("help", tt.command)
			if code != 0 {
				t.Fatalf("ringside help %s: exit %d, %s", tt.command, code, errs)
			}
			flat := strings.Join(strings.Fields(help), " ")
			fs := flag.NewFlagSet(tt.command, flag.ContinueOnError)
			declare(fs, tt.opts)
			byName := map[string]option{}
			for _, o := range tt.opts {
				if _, dup := byName[o.name]; dup {
					t.Errorf("--%s is declared twice", o.name)
				}
				byName[o.name] = o
			}
			fs.VisitAll(func(f *flag.Flag) {
				o := byName[f.Name]
				if o.def == "" {
					t.Errorf("--%s states no default", f.Name)
					return
				}
				stated := "(default: " + o.def + ")"
				if strings.HasPrefix(o.def, required) {
					stated = "(" + o.def + ")"
				}
				if !strings.Contains(flat, strings.Join(strings.Fields(stated), " ")) || !strings.Contains(flat, "--"+f.Name) {
					t.Errorf("ringside help %s does not say --%s %s", tt.command, f.Name, stated)
				}
				if (o.literal || o.def == "off") && !sameDefault(f.DefValue, o.def) {
					t.Errorf("--%s: help says %q, the flag's default is %q", f.Name, o.def, f.DefValue)
				}
			})
			for _, line := range strings.Split(optionsHelp(8, 19, tt.opts), "\n") {
				if n := utf8.RuneCountInString(line); n > helpWidth {
					t.Errorf("a line of %d characters, wider than %d: %q", n, helpWidth, line)
				}
			}
		})
	}
}

// TestOptionsHelpLayout: an option's words start in the column after the
// widest flag, wrap under it, and a flag too wide for the column puts its
// words on the next line.
func TestOptionsHelpLayout(t *testing.T) {
	t.Parallel()
	var n int
	var long string
	opts := []option{
		intOption(&n, "games", "N", 2, "how many games each pairing plays, counted in cycles of the seat design"),
		stringOption(&long, "a-very-long-flag-name", "VALUE", "", "something", "none"),
	}
	// The first line is helpWidth (79) characters wide.
	want := `  --games N    how many games each pairing plays, counted in cycles of the seat
               design (default: 2)
  --a-very-long-flag-name VALUE
               something (default: none)`
	if got := optionsHelp(2, 13, opts); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// flagDecl is a flag declared straight on a flag set.
var flagDecl = regexp.MustCompile(`\bfs\.(Bool|Int|Int64|Uint|Uint64|Float64|String|Duration|Var|Func|TextVar|BoolFunc|(Bool|Int|Int64|Uint|Uint64|Float64|String|Duration)Var)\(`)

// TestFlagsOnlyFromOptions: no command declares a flag but through an
// option list (options.go), so no flag can be missing from its help or
// say no default there.
func TestFlagsOnlyFromOptions(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "options.go" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if flagDecl.MatchString(line) {
				t.Errorf("%s:%d declares a flag outside an option list: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}
