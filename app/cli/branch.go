package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strconv"

	"ringside/app/service"
)

// branchedFrom is what "replay branch" adds to the play JSON.
type branchedFrom struct {
	Match int64 `json:"match"`
	Turn  int   `json:"turn"`
	Seat  int   `json:"seat"`
}

// branchResult is the JSON that "ringside replay branch" prints.
type branchResult struct {
	playResult
	BranchedFrom branchedFrom `json:"branched_from"`
}

func replayBranch(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("replay branch")
	turn := fs.Int("turn", -1, "")
	seat := fs.Int("seat", -1, "")
	bot := fs.String("bot", "", "")
	replay := fs.String("replay", "", "")
	trusted := fs.Bool("trusted", false, "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("replay branch: give one match id (\"ringside event show ID\" lists them)")
	}
	id, err := strconv.ParseInt(pos[0], 10, 64)
	if err != nil || id <= 0 {
		return usagef("replay branch: %q is not a match id", pos[0])
	}
	switch {
	case *turn < 0:
		return usagef("replay branch: --turn T is required: the turn to branch at, as \"turn\" in the replay (from 0)")
	case *seat < 0:
		return usagef("replay branch: --seat S is required: the seat the new bot plays, from 0, as \"seat\" in the replay")
	case *bot == "":
		return usagef("replay branch: --bot CMD is required: a command, builtin:GAME/NAME, a registered AI or NAME@rN")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return withService(*dbPath, func(s *service.Service) error {
		out, err := s.Branch(ctx, service.BranchSpec{Match: id, Turn: *turn, Seat: *seat, Bot: *bot, Trusted: *trusted})
		if err != nil {
			return err
		}
		if *replay != "" {
			if err := writeReplay(*replay, out.Log); err != nil {
				return fmt.Errorf("the branch's replay: %w", err)
			}
		}
		res := branchResult{playResult: resultJSON(out), BranchedFrom: branchedFrom{Match: id, Turn: *turn, Seat: *seat}}
		if b := out.Log.Branch; b != nil && b.Seat < len(res.Seats) {
			res.Seats[b.Seat].Bot = b.Bot
		}
		return json.NewEncoder(c.stdout).Encode(res)
	})
}
