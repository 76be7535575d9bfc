package class

import (
	"os"
	"testing"

	"ringside/app/internal/fixture"
)

// TestMain builds the ringside binary: a hand-in's check game and a
// comparison play bots as real processes, as in class.
func TestMain(m *testing.M) { os.Exit(fixture.Main(m)) }
