package service

import (
	"strings"

	"ringside/runner"
	"ringside/runner/sandbox"
	"ringside/storage"
)

// SandboxSummary is the one line that says how bots are contained here
// ("Sandbox: on — …", "Sandbox: partial — this kernel cannot …"): for
// "ai check", an event's log and the app.
func SandboxSummary(sb runner.Sandbox) string {
	_, text := runner.SandboxStatus(sb)
	first, _, _ := strings.Cut(text, "\n")
	return first
}

// SandboxState says whether bots are fully contained on this machine,
// and the summary line that says how.
func SandboxState() (on bool, summary string) {
	level, text := runner.SandboxStatus(runner.Sandbox{})
	first, _, _ := strings.Cut(text, "\n")
	return level == sandbox.Full, first
}

// SandboxReport is the whole sandbox status: the summary line, then what
// is missing on this machine and why.
func SandboxReport(sb runner.Sandbox) string {
	_, text := runner.SandboxStatus(sb)
	return text
}

// CheckLimits reads sandbox caps as a person writes them ("memory=512M
// processes=64 cpu=2m") and returns them in the form they are stored in:
// only the caps that differ from the defaults, "" for none.
func CheckLimits(text string) (string, error) {
	l, err := runner.ParseLimits(text, runner.DefaultLimits)
	if err != nil {
		return "", &Error{Code: Invalid, Message: err.Error() + "; leave it empty for the defaults (" + DefaultLimitsText() + ")", Err: err}
	}
	return runner.FormatLimits(l, runner.DefaultLimits), nil
}

// AISandboxText says in a few words how an AI's games contain it.
func AISandboxText(ai storage.AI) string {
	switch {
	case ai.Trusted:
		return "off (trusted: runs with your rights, files and environment)"
	case ai.Limits != "":
		return "on, with " + ai.Limits
	}
	return "on, default caps"
}

// DefaultLimitsText is the sandbox's default caps as --limits writes them.
func DefaultLimitsText() string {
	return runner.FormatLimits(runner.DefaultLimits, sandbox.Limits{})
}

// EventSandboxText says in a few words how an event's bots are contained.
func EventSandboxText(ev storage.Event) string {
	if ev.Trusted {
		return "no sandbox (trusted)"
	}
	text := "sandboxed"
	if ev.Limits != "" {
		text += " with " + ev.Limits
	}
	if trusted := TrustedNames(ev); len(trusted) > 0 {
		text += " except " + strings.Join(trusted, ", ") + " (trusted)"
	}
	return text
}

// TrustedNames are the entries of ev that run without the sandbox.
func TrustedNames(ev storage.Event) []string {
	var names []string
	for _, e := range ev.Entries {
		if EntryTrusted(ev, e) {
			names = append(names, e.Name)
		}
	}
	return names
}

// EntryTrusted says whether entry e of ev runs without the sandbox.
func EntryTrusted(ev storage.Event, e storage.Entry) bool { return ev.Trusted || e.Trusted }
