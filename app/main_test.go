package app

import (
	"os"
	"testing"

	"ringside/app/internal/fixture"
)

func TestMain(m *testing.M) { os.Exit(fixture.Main(m)) }
