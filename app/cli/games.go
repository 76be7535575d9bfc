package cli

import (
	"fmt"
	"strings"

	"ringside/engine/games"
)

func init() {
	register(&command{
		name: "games", usage: "", summary: "list the games with their options and built-in bots",
		help: func() string {
			return `Lists every game Ringside runs: its id (for --game), how many players it
takes, its options with defaults (for --opt KEY=VALUE) and its built-in bots
(for --bot builtin:GAME/NAME).`
		},
		run: func(c *cli, args []string) error {
			if len(args) > 0 {
				return usagef("games takes no arguments")
			}
			for _, g := range games.All() {
				in := g.Info()
				seats := fmt.Sprint(in.MinSeats)
				if in.MaxSeats != in.MinSeats {
					seats = fmt.Sprintf("%d-%d", in.MinSeats, in.MaxSeats)
				}
				fmt.Fprintf(c.stdout, "%s — %s (%s players)\n  %s\n  options:\n", in.ID, in.Name, seats, in.Description)
				for _, o := range in.Options {
					def := o.Default
					if def == "" {
						def = `""`
					}
					choices := ""
					if len(o.Choices) > 0 {
						choices = " (" + strings.Join(o.Choices, "|") + ")"
					}
					perSeat := ""
					if o.PerSeat {
						perSeat = " An AI may also carry it for its own seat (ai add --option " + o.Key + "=…)."
					}
					fmt.Fprintf(c.stdout, "    %-10s default %s%s: %s%s\n", o.Key, def, choices, o.Doc, perSeat)
				}
				var bots []string
				for _, b := range g.Bots() {
					bots = append(bots, "builtin:"+in.ID+"/"+b)
				}
				fmt.Fprintf(c.stdout, "  built-in bots: %s\n\n", strings.Join(bots, ", "))
			}
			return nil
		},
	})
}
