package web

import (
	"os"
	"testing"

	"ringside/app/internal/fixture"
)

// TestMain builds the ringside binary: a hand-in's check game plays the
// built-in bots as real processes, as in class.
func TestMain(m *testing.M) { os.Exit(fixture.Main(m)) }
