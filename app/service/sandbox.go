package service

import (
	"strings"

	"ringside/runner"
)

// SandboxSummary is the one line that says how bots are contained here
// ("Sandbox: on — …", "Sandbox: partial — this kernel cannot …"): for
// "ai check", an event's log and the app.
func SandboxSummary(sb runner.Sandbox) string {
	_, text := runner.SandboxStatus(sb)
	first, _, _ := strings.Cut(text, "\n")
	return first
}

// SandboxReport is the whole sandbox status: the summary line, then what
// is missing on this machine and why.
func SandboxReport(sb runner.Sandbox) string {
	_, text := runner.SandboxStatus(sb)
	return text
}
