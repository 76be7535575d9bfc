package service

import (
	"fmt"
	"time"

	"ringside/runner"
)

// ProgressWords says where a running event is, in parts a front end joins
// its own way: "12/40 games", "3 playing", "about 2m10s left", "paused",
// "finished".
func ProgressWords(p runner.Progress) []string {
	words := []string{fmt.Sprintf("%d/%d games", p.Done, p.Scheduled)}
	if p.Running > 0 {
		words = append(words, fmt.Sprintf("%d playing", p.Running))
	}
	if p.Left > 0 {
		words = append(words, "about "+p.Left.Round(time.Second).String()+" left")
	}
	if p.Paused {
		words = append(words, "paused")
	}
	if p.Finished {
		words = append(words, "finished")
	}
	return words
}
