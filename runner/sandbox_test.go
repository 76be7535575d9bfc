package runner

import (
	"testing"

	"ringside/runner/sandbox"
)

func TestSandboxStatus(t *testing.T) {
	level, text := SandboxStatus(Sandbox{})
	t.Logf("%s", text)
	if level == sandbox.Off {
		t.Errorf("level off: %s", text)
	}
	level, text = SandboxStatus(Sandbox{PretendNoLandlock: true})
	t.Logf("%s", text)
	if level != sandbox.Partial {
		t.Errorf("pretending no Landlock: level %v, want partial: %s", level, text)
	}
}
