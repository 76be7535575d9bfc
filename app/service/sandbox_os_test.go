package service

import (
	"strings"
	"testing"

	"ringside/runner/sandbox"
	"ringside/storage"
)

// TestSandboxTextsForEachOS checks that no screen or CLI line calls bots
// sandboxed on a system without the Linux sandbox, and that the words say
// what a teacher can do.
func TestSandboxTextsForEachOS(t *testing.T) {
	tests := []struct {
		goos         string
		ai           storage.AI
		ev           storage.Event
		want, wantEv string // a part each text must have
		notWant      string
	}{
		{goos: "linux", ai: storage.AI{}, want: "on, default caps", wantEv: "sandboxed"},
		{goos: "linux", ai: storage.AI{Limits: "memory=1G"}, ev: storage.Event{Limits: "memory=1G"}, want: "on, with memory=1G", wantEv: "sandboxed with memory=1G"},
		{goos: "windows", ai: storage.AI{Limits: "memory=1G"}, ev: storage.Event{Limits: "memory=1G"}, want: "partial (Windows", wantEv: "memory, CPU and process caps; no file or network walls", notWant: "sandboxed"},
		{goos: "darwin", want: "off (no sandbox", wantEv: "Linux VM", notWant: "sandboxed"},
		{goos: "darwin", ai: storage.AI{Trusted: true}, ev: storage.Event{Trusted: true}, want: "off (trusted", wantEv: "no sandbox (trusted)"},
	}
	for _, tt := range tests {
		ai, ev := aiSandboxTextFor(tt.ai, tt.goos), eventSandboxTextFor(tt.ev, tt.goos)
		if !strings.Contains(ai, tt.want) || !strings.Contains(ev, tt.wantEv) {
			t.Errorf("%s: AI %q (want %q), event %q (want %q)", tt.goos, ai, tt.want, ev, tt.wantEv)
		}
		if tt.notWant != "" && (strings.Contains(ai, tt.notWant) || strings.Contains(ev, tt.notWant) || strings.HasPrefix(ai, "on")) {
			t.Errorf("%s: AI %q or event %q claims a sandbox", tt.goos, ai, ev)
		}
		if tt.goos != "linux" && !tt.ai.Trusted && !strings.Contains(ai, sandbox.TeacherAdvice) {
			t.Errorf("%s: AI %q lacks the teacher's advice", tt.goos, ai)
		}
	}
	for goos, head := range map[string]string{"windows": "Sandbox: partial", "darwin": "Sandbox: off", "freebsd": "Sandbox: off"} {
		if s := sandbox.NoSandboxStatus(goos); !strings.HasPrefix(s, head) || !strings.Contains(s, sandbox.TeacherAdvice) {
			t.Errorf("%s: status %q, want %q… with the advice", goos, s, head)
		}
	}
}
