package runner

import (
	"sync"
	"time"

	"ringside/engine"
)

// replyCount pairs the reply lines of one connection to a bot with the
// states sent on it, for login games (Cloud), whose replies need not say
// which state they answer. Lines are counted, not guessed: each line
// answers the oldest state sent before it arrived that no line has
// answered yet. A line that so answers an older state than the latest
// one sent is late: that state's turn is over, and the line is noise, not
// the answer to the current state. So a bot that was late once is back in
// step with its next line. A line when every state is answered answers
// none and is noise too. A line tagged with a turn (see engine.TurnTagger)
// answers that turn's state, whatever the count says, and the count
// follows it: a bot that tags is never out of step, even after it left a
// state unanswered.
type replyCount struct {
	mu       sync.Mutex
	tags     engine.TurnTagger // nil: the game has no tags
	recent   []sentState       // the latest states sent, oldest first
	sent     int               // states sent on this connection
	answered int               // of them, the ones a line has answered
}

// sentState is one state written to the bot.
type sentState struct {
	turn   int64 // its tag, if it has one
	tagged bool
	at     time.Time // just before it was written
}

// countKept is how many of the latest states are remembered: a line is
// matched against the states sent before it arrived, and lines are
// counted within moments of their arrival.
const countKept = 8

func newReplyCount() *replyCount { return &replyCount{} }

// tagged makes the count go by the game's turn tags.
func (c *replyCount) tagged(tags engine.TurnTagger) {
	c.mu.Lock()
	c.tags = tags
	c.mu.Unlock()
}

// reset starts counting afresh: a new connection.
func (c *replyCount) reset() {
	c.mu.Lock()
	c.recent, c.sent, c.answered = c.recent[:0], 0, 0
	c.mu.Unlock()
}

// state records a state written at at.
func (c *replyCount) state(text string, at time.Time) {
	s := sentState{at: at}
	c.mu.Lock()
	if c.tags != nil {
		s.turn, s.tagged = c.tags.InputTurn(text)
	}
	if len(c.recent) == countKept {
		c.recent = append(c.recent[:0], c.recent[1:]...)
	}
	c.recent = append(c.recent, s)
	c.sent++
	c.mu.Unlock()
}

// stale counts a line that arrived at at and reports whether it is noise:
// it answers an older state than the latest one sent before it arrived,
// or no state at all.
func (c *replyCount) stale(text string, at time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	var turn int64
	tagged := false
	if c.tags != nil {
		turn, tagged = c.tags.ReplyTurn(text)
	}
	// The states sent before the line arrived: a line read just after a
	// state was written may have arrived just before.
	n, k := c.sent, len(c.recent)
	for k > 0 && at.Before(c.recent[k-1].at) {
		n, k = n-1, k-1
	}
	if tagged {
		for i := k - 1; i >= 0; i-- {
			s := c.recent[i]
			if !s.tagged || s.turn != turn {
				continue
			}
			// The line answers the state n-(k-1-i).
			c.answered = max(c.answered, n-(k-1-i))
			return i != k-1
		}
		if k > 0 && c.recent[k-1].tagged && turn > c.recent[k-1].turn {
			// A turn not sent yet: the game says what is wrong with it.
			c.answered = n
			return false
		}
		// An older turn than any remembered.
		return true
	}
	if c.answered >= n {
		return true
	}
	c.answered++
	return c.answered < n
}
