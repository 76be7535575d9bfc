//go:build !wayland

package app

// useWayland is whether this build's window driver speaks Wayland (Fyne's
// "wayland" build tag) rather than X11.
const useWayland = false
