package engine

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// cutMark ends a reply line the runner cut at the game's longest valid
// reply: CutReply(kept, 65536) is kept + "…[cut: 65536 bytes]".
const (
	cutMarkOpen  = "…[cut: "
	cutMarkClose = " bytes]"
)

// CutReply is what the runner keeps of a reply line of size bytes that is
// longer than the game's MaxReply: its first max bytes (cut back to a
// whole character) and a mark with the line's real length. The result is
// longer than max, so the game judges it invalid, and the replay keeps
// the length without the line.
func CutReply(line string, max int, size int64) string {
	n := min(max, len(line))
	for n > 0 && n < len(line) && !utf8.RuneStart(line[n]) {
		n--
	}
	return line[:n] + cutMarkOpen + strconv.FormatInt(size, 10) + cutMarkClose
}

// LongReply tells whether line is longer than the game's longest valid
// reply, and says so in plain words for the verdict: "reply of 65536
// bytes, longer than Grip's longest valid reply (64 bytes)". A line the
// runner cut (CutReply) is longer than MaxReply too, and is measured by
// the length its mark records.
func (in Info) LongReply(line string) (detail string, long bool) {
	if in.MaxReply <= 0 || len(line) <= in.MaxReply {
		return "", false
	}
	size := int64(len(line))
	if s, ok := strings.CutSuffix(line, cutMarkClose); ok {
		if i := strings.LastIndex(s, cutMarkOpen); i >= 0 {
			if n, err := strconv.ParseInt(s[i+len(cutMarkOpen):], 10, 64); err == nil && n > int64(in.MaxReply) {
				size = n
			}
		}
	}
	return fmt.Sprintf("reply of %d bytes, longer than %s's longest valid reply (%d bytes)", size, in.Name, in.MaxReply), true
}
