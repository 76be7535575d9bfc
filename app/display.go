package app

import (
	"fmt"
	"net"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// DisplayMissing says why no window can be opened on display (DISPLAY) or
// wayland (WAYLAND_DISPLAY), or "" when one can be tried: none named, or
// one named that nothing answers on (a DISPLAY left over from another
// login, an ssh session without X forwarding).
func DisplayMissing(display, wayland string) string {
	switch runtime.GOOS {
	case "windows", "darwin", "ios", "android", "js":
		return ""
	}
	if useWayland && wayland != "" {
		return ""
	}
	if display == "" {
		if wayland != "" {
			// Fyne's default build draws through X11 only; a Wayland
			// desktop offers it through XWayland, which sets DISPLAY.
			return "DISPLAY is not set, and this build draws through X11 only"
		}
		return "DISPLAY and WAYLAND_DISPLAY are not set"
	}
	network, addr, ok := xServerAddr(display)
	if !ok {
		// A remote host or a form this does not know: let the driver try.
		return ""
	}
	if network == "unix" && runtime.GOOS == "linux" {
		// Linux X servers listen on an abstract socket too, and some only
		// there (a server started in another mount namespace).
		if c, err := net.DialTimeout("unix", "@"+addr, 2*time.Second); err == nil {
			c.Close()
			return ""
		}
	}
	c, err := net.DialTimeout(network, addr, 2*time.Second)
	if err != nil {
		return fmt.Sprintf("no X server answers on DISPLAY=%s", display)
	}
	c.Close()
	return ""
}

// xServerAddr is where the X server of display ("[host]:N[.S]") listens,
// for a server on this machine; ok is false for any other host.
func xServerAddr(display string) (network, addr string, ok bool) {
	host, rest, found := strings.Cut(display, ":")
	if !found || strings.Contains(host, "/") {
		return "", "", false
	}
	num, _, _ := strings.Cut(rest, ".")
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 {
		return "", "", false
	}
	switch host {
	case "", "unix":
		return "unix", "/tmp/.X11-unix/X" + strconv.Itoa(n), true
	case "localhost", "127.0.0.1", "::1":
		return "tcp", net.JoinHostPort(host, strconv.Itoa(6000+n)), true
	}
	return "", "", false
}
