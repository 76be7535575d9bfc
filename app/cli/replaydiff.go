package cli

import (
	"fmt"
	"os"
	"strconv"

	"ringside/app/service"
	"ringside/engine"
	"ringside/engine/games"
)

// replayDiff is "ringside replay diff A B".
func replayDiff(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("replay diff")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("replay diff: give two replays, each a match id or a replay file (ringside replay diff 12 mine.json)")
	}
	var rps [2]*engine.Replay
	for i, arg := range pos {
		if rps[i], err = loadReplay(arg, *dbPath); err != nil {
			return err
		}
	}
	var measured func(string) (string, string)
	if g, err := games.Get(rps[0].Game); err == nil {
		measured = g.Info().Measured
	}
	d := engine.DiffReplays(rps[0], rps[1], measured)
	fmt.Fprintln(c.stdout, service.VisibleText(d.Text()))
	if !d.Same {
		return exitStatus(1)
	}
	return nil
}

// loadReplay reads arg as a replay file when one is there, else as the id
// of a stored match.
func loadReplay(arg, dbPath string) (*engine.Replay, error) {
	if data, err := os.ReadFile(arg); err == nil {
		rp, err := engine.DecodeReplay(data)
		if err != nil {
			return nil, usagef("replay diff: %s is %v (write one with \"play --replay\" or \"replay export\")", arg, err)
		}
		return rp, nil
	}
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil {
		return nil, usagef("replay diff: %q is neither a replay file nor a match id", arg)
	}
	var rp *engine.Replay
	err = withReadService(dbPath, func(s *service.Service) error {
		log, err := exportLog(s.DB(), id)
		if err != nil {
			return usagef("replay diff: match %d: %v", id, err)
		}
		rp, err = games.Expand(log)
		return err
	})
	return rp, err
}
