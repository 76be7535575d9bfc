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

// branchArgs are the flags of "replay branch".
type branchArgs struct {
	turn, seat  int
	bot, replay string
	trusted     bool
}

// branchOptions are the flags of "replay branch", declared into a and
// written in "ringside help replay". Turn and seat have no default: -1
// marks them not given.
func branchOptions(a *branchArgs) []option {
	return []option{
		intOption(&a.turn, "turn", "T", -1, `the game's turn, as "turn" in the replay's steps (from 0)`, required),
		intOption(&a.seat, "seat", "S", -1, `the seat, from 0, as "seat" in the replay's steps`, required),
		stringOption(&a.bot, "bot", "CMD", "", "a command line, builtin:GAME/NAME, a registered AI's name (its current revision) or NAME@rN", required),
		stringOption(&a.replay, "replay", "FILE", "", `also write the branch's replay JSON to FILE; its "branch" says where it left the original and holds CMD's warm-up`, "none"),
		boolOption(&a.trusted, "trusted", "run CMD without the sandbox (the other seats run as the event ran them)"),
	}
}

func replayBranch(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("replay branch")
	var a branchArgs
	declare(fs, branchOptions(&a))
	turn, seat, bot, replay, trusted := &a.turn, &a.seat, &a.bot, &a.replay, &a.trusted
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
