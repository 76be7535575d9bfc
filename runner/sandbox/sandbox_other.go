//go:build !linux

package sandbox

import (
	"errors"
	"net"
	"os"
	"runtime"
	"time"
)

// Supported tells whether this system has the sandbox; elsewhere bots
// run trusted and Status says so.
const Supported = false

// Launch is the start of a sandboxed bot; not on this system.
type Launch struct {
	Accept func(net.Conn)
}

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
func (l *Launch) Pid() int                                   { return 0 }
func (l *Launch) Wait() string                               { return errUnsupported.Error() }
func (l *Launch) Kill()                                      {}
func Probe(exe string, noLandlock bool) Features             { return Features{} }
func Prewarm(exe string)                                     {}
func DropWarm(exe string)                                    {}
func Main()                                                  { os.Exit(2) }
func PretendNamespacesRefused(on bool)                       {}
func Spawners() []int                                        { return nil }

// Status says that this system has no sandbox.
func Status(exe string, noLandlock bool) (Level, string) {
	return Off, NoSandboxStatus(runtime.GOOS)
}
