//go:build !linux

package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"time"
)

// Supported tells whether this system has the sandbox; elsewhere bots
// run trusted and Status says so.
const Supported = false

// Launch is the start of a sandboxed bot; not on this system.
type Launch struct{ Cmd *exec.Cmd }

// Result is how a sandboxed bot ended.
type Result struct {
	Features          Features
	Exit, Limit       string
	Failure           string
	ProcessCapReached bool
}

var errUnsupported = errors.New("the sandbox needs Linux")

func NewLaunch(exe string, p Policy) *Launch                 { return &Launch{} }
func (l *Launch) Start(stdin, stdout, stderr *os.File) error { return errUnsupported }
func (l *Launch) Features(time.Duration) (Features, bool)    { return Features{}, false }
func (l *Launch) Finish() Result                             { return Result{} }
func Probe(exe string, noLandlock bool) Features             { return Features{} }
func Prewarm(exe string, network bool)                       {}
func DropWarm(exe string, network bool)                      {}
func Main()                                                  { os.Exit(2) }
func PretendNamespacesRefused(on bool)                       {}

// Status says that this system has no sandbox.
func Status(exe string, noLandlock bool) (Level, string) {
	return Off, "Sandbox: off — this system is not Linux: bots run with your full rights, files and environment"
}
