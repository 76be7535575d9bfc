package complexity

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxComplexity is the most a non-test function may score.
const maxComplexity = 25

// maxAllowed is how many functions may stay above maxComplexity, each for a
// reason. The list can only shrink: an entry whose function is back under
// the limit fails the gate until it is removed.
const maxAllowed = 5

// allowed names the functions (file and name, as Func.Key writes them)
// still above maxComplexity, and why.
var allowed = map[string]string{
	"app/service/events.go (*Service).prepareEvent": "every check of a new event's request, in the order " +
		"its errors are reported; to be split into one check per format",
}

// TestComplexityGate fails for any non-test function of the module above
// maxComplexity that is not allow-listed, for an allow-listed function that
// no longer is above it or no longer exists, and for a list that grew.
func TestComplexityGate(t *testing.T) {
	if len(allowed) > maxAllowed {
		t.Errorf("the allow-list holds %d functions; at most %d may stay above complexity %d", len(allowed), maxAllowed, maxComplexity)
	}
	for key, why := range allowed {
		if strings.TrimSpace(why) == "" {
			t.Errorf("allow-listed %s gives no reason", key)
		}
	}
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	funcs, err := Module(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(funcs) < 100 {
		// Walking the wrong folder would pass vacuously.
		t.Fatalf("found only %d functions under %s: is it the module root?", len(funcs), root)
	}
	seen := map[string]bool{}
	var over []Func
	for _, f := range funcs {
		if _, ok := allowed[f.Key()]; ok {
			seen[f.Key()] = true
			if f.Complexity <= maxComplexity {
				t.Errorf("%s: %s is now %d (at most %d): remove it from the allow-list", f.File, f.Name, f.Complexity, maxComplexity)
			}
			continue
		}
		if f.Complexity > maxComplexity {
			over = append(over, f)
		}
	}
	slices.SortFunc(over, func(a, b Func) int { return b.Complexity - a.Complexity })
	for _, f := range over {
		t.Errorf("%s (at most %d): split it into helpers", f, maxComplexity)
	}
	for key := range allowed {
		if !seen[key] {
			t.Errorf("allow-listed %s no longer exists: remove it from the allow-list", key)
		}
	}
}
