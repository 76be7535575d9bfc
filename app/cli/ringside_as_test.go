package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"testing"
	"time"
)

// ringsideAs runs the real binary (as cmd's user, if cred is set) and
// returns its exit code and output; a run that does not end in 3 minutes
// fails the test (a hang: the busiest machine ends any of these sooner).
func ringsideAs(t testing.TB, exe string, cred *credential, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	cmd.Env = append(os.Environ(), "LANG=C.UTF-8")
	if cred != nil {
		asUser(cmd, cred)
		cmd.Env = append(cmd.Env, "HOME=/nonexistent", "XDG_DATA_HOME=/nonexistent")
	}
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("ringside %v hangs", args)
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("ringside %v: %v", args, err)
	}
	return code, out.String(), errs.String()
}
