// Package runnertest holds helpers for tests of how Ringside builds and
// runs bot processes, shared by the runner's own tests, the app's and the
// tests of the ringside binary.
package runnertest
