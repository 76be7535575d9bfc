package service

import (
	"os"
	"path/filepath"
	"runtime"
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
// the line a teacher reads (SandboxHeadline) and the whole report behind
// it (SandboxReport).
func SandboxState() (on bool, headline, report string) {
	level, text := runner.SandboxStatus(runner.Sandbox{})
	first, _, _ := strings.Cut(text, "\n")
	return level == sandbox.Full, SandboxHeadline(first), text
}

// SandboxHeadline is a sandbox summary line in the words a teacher reads:
// "Sandbox: on" when bots are fully contained — the kernel features that
// do it ("Landlock ABI 6, user/process/mount/network namespaces") are
// details for whoever asks, behind a button; a partial or missing sandbox
// keeps its sentence, which says in plain words what bots could do.
func SandboxHeadline(summary string) string {
	if head, _, ok := strings.Cut(summary, " — "); ok && head == "Sandbox: on" {
		return head
	}
	return summary
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
func AISandboxText(ai storage.AI) string { return aiSandboxTextFor(ai, runtime.GOOS) }

// aiSandboxTextFor is AISandboxText on system goos: off Linux there is no
// sandbox to be "on", whatever the AI's settings say.
func aiSandboxTextFor(ai storage.AI, goos string) string {
	switch {
	case ai.Trusted:
		return "off (trusted: runs with your rights, files and environment)"
	case goos != "linux":
		return noSandboxWords(goos)
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
func EventSandboxText(ev storage.Event) string { return eventSandboxTextFor(ev, runtime.GOOS) }

// eventSandboxTextFor is EventSandboxText on system goos.
func eventSandboxTextFor(ev storage.Event, goos string) string {
	if ev.Trusted {
		return "no sandbox (trusted)"
	}
	if goos != "linux" {
		return noSandboxWords(goos)
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

// noSandboxWords says in a few words how bots are contained on a system
// without the Linux sandbox (goos), with what a teacher can do.
func noSandboxWords(goos string) string {
	if goos == "windows" {
		return "partial (Windows: processes end with the game, memory, CPU and process caps; no file or network walls) — " + sandbox.TeacherAdvice
	}
	return "off (no sandbox on this system: bots run with your rights and files) — " + sandbox.TeacherAdvice
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

// consentFile is where the teacher's consent to run untrusted bots on a
// machine whose sandbox is weak (runner.WeakSandbox) is kept: in the data
// folder, which no bot is granted (runner.Protect), with the status it
// was given for.
func (s *Service) consentFile() string {
	return filepath.Join(s.db.DataDir(), "allow-partial-sandbox")
}

// PartialSandbox says whether untrusted bots would run here only partly
// contained, what is missing, the whole status, and whether the teacher
// has already accepted exactly that status (AllowPartialSandbox).
func (s *Service) PartialSandbox() (weak bool, missing, status string, allowed bool) {
	weak, missing, status = runner.WeakSandbox(runner.Sandbox{})
	if !weak {
		return false, "", status, true
	}
	data, err := os.ReadFile(s.consentFile())
	return true, missing, status, err == nil && string(data) == status+"\n"
}

// AllowPartialSandbox stores the teacher's consent to run untrusted bots
// with the sandbox status given (what PartialSandbox returned, as shown
// to the teacher). A later status that differs asks again.
func (s *Service) AllowPartialSandbox(status string) error {
	if err := os.MkdirAll(s.db.DataDir(), 0o700); err != nil {
		return wrap(Failed, err, "store the consent")
	}
	if err := os.WriteFile(s.consentFile(), []byte(status+"\n"), 0o600); err != nil {
		return wrap(Failed, err, "store the consent")
	}
	return nil
}

// FixAllowPartial is the Fix of an error refusing to run untrusted bots
// on a weak sandbox until the teacher consents: the CLI says
// "ringside sandbox allow-partial --db PATH" (Subject is the database),
// the app asks in a dialog.
const FixAllowPartial Fix = "allow-partial"

// checkContainment refuses to run untrusted bots on a machine whose
// sandbox is weak until the teacher has accepted it once, in words.
func (s *Service) checkContainment(sb runner.Sandbox, untrusted bool) error {
	if !untrusted || sb.Trusted {
		return nil
	}
	weak, missing, _, allowed := s.PartialSandbox()
	if !weak || allowed {
		return nil
	}
	return &Error{Code: Conflict, Fix: FixAllowPartial, Subject: s.Path(),
		Message: "not started: " + missing + "; bots that are not trusted run here only once you accept that"}
}

// CheckPlay is checkContainment for a match of bots ("ringside play").
func (s *Service) CheckPlay(sb runner.Sandbox, bots []runner.Bot) error {
	return s.checkContainment(sb, anyUntrusted(bots))
}

// NeedsConsent tells whether a match of bots could need the teacher's
// consent to a partial sandbox (CheckPlay): it runs a student's program
// in the sandbox.
func NeedsConsent(sb runner.Sandbox, bots []runner.Bot) bool {
	return !sb.Trusted && anyUntrusted(bots)
}

// anyUntrusted tells whether one of bots is a student's program run in
// the sandbox: Ringside's built-in bots are its own code.
func anyUntrusted(bots []runner.Bot) bool {
	for _, b := range bots {
		if !b.Trusted && !strings.HasPrefix(strings.TrimSpace(b.Command), runner.BuiltinPrefix) {
			return true
		}
	}
	return false
}
