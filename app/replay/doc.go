// Package replay draws a recorded game as a Fyne widget: Viewer re-simulates
// an engine.Log and shows the game's board at any step (Grip, Battle 2048
// and Cloud have boards of their own, other games a text fallback), a
// panel with each seat's exact input, reply and verdict, a timeline of the
// game's events and playback controls. It takes the log as data and knows
// no database and no runner: app loads the log and opens the window.
package replay
