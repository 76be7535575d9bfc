package cli

import "os/exec"

// credential stands in for a user to run as: the tests that run the
// binary as another user are Linux's (students_test.go, db_test.go), and
// elsewhere ringsideAs is only given nil.
type credential struct{}

// asUser does nothing: see credential.
func asUser(*exec.Cmd, *credential) {}
