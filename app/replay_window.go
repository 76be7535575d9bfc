package app

import "fmt"

// openReplayWindow opens a stored game in the replay viewer.
func openReplayWindow(u *UI, matchID int64) {
	u.showError("Replay", usagef("the replay viewer is not in this build yet; export game %d with: ringside replay export %d", matchID, matchID))
	_ = fmt.Sprint
}
