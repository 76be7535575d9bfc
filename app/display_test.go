package app

import (
	"net"
	"runtime"
	"strings"
	"testing"
)

// TestDisplayMissing: ringside without a usable display says why in one
// line instead of a driver's stack trace. An X server is played by a
// listener on the abstract socket Linux X servers use.
func TestDisplayMissing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the X socket paths are Linux's")
	}
	l, err := net.Listen("unix", "@/tmp/.X11-unix/X4712")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, tt := range []struct {
		display, wayland, want string
	}{
		{"", "", "DISPLAY and WAYLAND_DISPLAY are not set"},
		{"", "wayland-0", "this build draws through X11 only"},
		{":4711", "", "no X server answers on DISPLAY=:4711"},
		{"unix:4711.0", "", "no X server answers on DISPLAY=unix:4711.0"},
	} {
		if got := DisplayMissing(tt.display, tt.wayland); !strings.Contains(got, tt.want) {
			t.Errorf("DisplayMissing(%q, %q) = %q, want %q", tt.display, tt.wayland, got, tt.want)
		}
	}
	// One that answers, and those the driver is left to try: another
	// host, a form this does not know.
	for _, display := range []string{":4712", ":4712.0", "elsewhere.example:0", "not a display"} {
		if got := DisplayMissing(display, ""); got != "" {
			t.Errorf("DisplayMissing(%q, \"\") = %q, want \"\"", display, got)
		}
	}
}
