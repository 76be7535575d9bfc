package replay

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/internal/paint"
	"ringside/app/internal/visible"
	"ringside/engine"
)

// Display limits: a whole Cloud input is kilobytes on one line, and
// laying that out every frame would slow playback. The Copy input button
// always copies the exact input.
const (
	shownInputLines  = 30
	shownInputChars  = 900
	shownStderrLines = 8
	shownStderrChars = 500
)

// seatPanel is the side panel: the current step and, for each seat, what
// it was sent, what it answered and how that was judged.
type seatPanel struct {
	root   *container.Scroll
	header *widget.Label
	events *widget.Label
	cards  []*seatCard
	cols   int // columns the monospaced texts are wrapped at
}

// monoText is a monospaced label whose text the panel wraps itself at a
// column count. Fyne's own wrapping measures text by binary search, which
// for a Cloud input of a kilobyte on one line costs tens of milliseconds
// a frame; counting columns costs nothing since every glyph is as wide.
type monoText struct {
	l   *widget.Label
	raw string
}

func newMonoText() *monoText {
	l := widget.NewLabel("")
	l.TextStyle.Monospace = true
	// Clipping keeps the label's minimum width small: the panel, not the
	// longest line, decides how wide it is.
	l.Truncation = fyne.TextTruncateClip
	return &monoText{l: l}
}

func (m *monoText) set(s string, cols int) {
	m.raw = s
	setLabel(m.l, hardWrap(s, cols))
}

// hardWrap breaks every line of s after cols characters.
func hardWrap(s string, cols int) string {
	if cols < 1 {
		return s
	}
	var b strings.Builder
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		r := []rune(line)
		for len(r) > cols {
			b.WriteString(string(r[:cols]))
			b.WriteByte('\n')
			r = r[cols:]
		}
		b.WriteString(string(r))
	}
	return b.String()
}

// widthWatch is a layout that tells the panel its width before laying out,
// so wrapped texts follow the panel when it is resized.
type widthWatch struct {
	inner   fyne.Layout
	onWidth func(w float32)
}

// It also keeps clear of the scroll bar, which Fyne draws over the right
// edge of the content: the Copy input buttons sit there.
func (l *widthWatch) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	size.Width = max(0, size.Width-scrollBarRoom())
	l.onWidth(size.Width)
	l.inner.Layout(objs, size)
}

func (l *widthWatch) MinSize(objs []fyne.CanvasObject) fyne.Size {
	return l.inner.MinSize(objs).AddWidthHeight(scrollBarRoom(), 0)
}

// scrollBarRoom is the width the panel's scroll bar covers at its widest
// (when the pointer is over it), and a little air.
func scrollBarRoom() float32 {
	return theme.Size(theme.SizeNameScrollBar) + theme.Size(theme.SizeNameScrollBarRadius) + 2
}

// narrowCols is the panel width, in monospaced columns, under which the
// copy buttons drop their words.
const narrowCols = 34

// setWidth wraps the monospaced texts for a panel width w.
func (p *seatPanel) setWidth(w float32) {
	th := theme.Current()
	char := fyne.MeasureText("0", th.Size(theme.SizeNameText), fyne.TextStyle{Monospace: true}).Width
	cols := int((w - 2*th.Size(theme.SizeNameInnerPadding) - 2) / char)
	cols = max(cols, 16)
	// A narrow panel (a branch beside its original at 1024 pixels) keeps
	// the copy button's icon only, so the seat's name beside it is read
	// whole rather than as "…".
	copyText := "Copy input"
	if cols < narrowCols {
		copyText = ""
	}
	for _, c := range p.cards {
		if c.copyBtn.Text != copyText {
			c.copyBtn.SetText(copyText)
		}
	}
	if cols == p.cols {
		return
	}
	p.cols = cols
	for _, c := range p.cards {
		for _, m := range []*monoText{c.reply, c.input, c.stderr} {
			setLabel(m.l, hardWrap(m.raw, cols))
		}
	}
}

// seatCard is one seat's part of the panel. Its widgets are made once and
// only their texts change from step to step.
type seatCard struct {
	box     *fyne.Container
	status  *widget.Label
	reply   *monoText
	action  *widget.Label
	input   *monoText
	stderr  *monoText
	copyBtn *widget.Button
	// input is the exact text of the current step's input for the seat,
	// "" when it was not asked or was sent nothing.
	inputText string
}

func newSeatPanel(players []string, copyInput func(string)) *seatPanel {
	p := &seatPanel{header: widget.NewLabel(""), events: widget.NewLabel(""), cols: 40}
	p.header.TextStyle.Bold = true
	p.header.SizeName = theme.SizeNameSubHeadingText
	p.header.Truncation = fyne.TextTruncateEllipsis
	p.events.Wrapping = fyne.TextWrapWord
	p.events.Hide()
	list := container.New(&widthWatch{inner: layout.NewVBoxLayout(), onWidth: p.setWidth}, p.header, p.events)
	for i, name := range players {
		c := &seatCard{
			status: widget.NewLabel(""),
			reply:  newMonoText(),
			action: widget.NewLabel(""),
			input:  newMonoText(),
			stderr: newMonoText(),
		}
		c.status.Wrapping = fyne.TextWrapWord
		c.action.Wrapping = fyne.TextWrapWord
		c.stderr.l.Importance = widget.WarningImportance
		c.stderr.l.Hide()
		c.copyBtn = widget.NewButtonWithIcon("Copy input", theme.ContentCopyIcon(), func() {
			if c.inputText != "" {
				copyInput(c.inputText)
			}
		})
		dot := canvas.NewCircle(playerColor(i))
		dotBox := container.NewGridWrap(fyne.NewSize(14, 14), dot)
		title := widget.NewLabelWithStyle(fmt.Sprintf("%s (seat %d)", name, i), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		// Wrapped, not cut: the seat's name is what the card is about.
		title.Wrapping = fyne.TextWrapWord
		head := container.NewBorder(nil, nil, container.NewCenter(dotBox), c.copyBtn, title)
		c.box = container.NewVBox(widget.NewSeparator(), head, c.status, c.reply.l, c.action, c.input.l, c.stderr.l)
		p.cards = append(p.cards, c)
		list.Add(c.box)
	}
	p.root = container.NewVScroll(list)
	return p
}

// setLabel changes a label's text only when it differs, since SetText
// relays the label out even for the same text.
func setLabel(l *widget.Label, s string) {
	if l.Text != s {
		l.SetText(s)
	}
}

func setImportance(l *widget.Label, imp widget.Importance) {
	if l.Importance != imp {
		l.Importance = imp
		l.Refresh()
	}
}

// excerpt keeps at most maxLines lines and maxChars bytes of s and says
// how much was left out.
func excerpt(s string, maxLines, maxChars int) string {
	s = strings.TrimSuffix(s, "\n")
	cut := false
	if len(s) > maxChars {
		s, cut = s[:maxChars], true
		// Keep whole UTF-8 characters: only the end can be cut in one.
		for i := 1; i < utf8.UTFMax && len(s) > 0; i++ {
			if r, size := utf8.DecodeLastRuneInString(s); r != utf8.RuneError || size > 1 {
				break
			}
			s = s[:len(s)-1]
		}
	}
	if n := strings.Count(s, "\n"); n >= maxLines {
		i := 0
		for range maxLines {
			i += strings.IndexByte(s[i:], '\n') + 1
		}
		s, cut = s[:i-1], true
	}
	// A bot's output keeps its lines and tabs, not its escape sequences
	// or bidi overrides.
	s = visible.Text(s)
	if cut {
		s += "\n…"
	}
	return s
}

// verdictImportance colours a verdict: fine, suspicious, failed, absent.
func verdictImportance(v engine.Verdict) widget.Importance {
	switch v {
	case engine.OK:
		return widget.SuccessImportance
	case engine.Invalid:
		return widget.WarningImportance
	case engine.Timeout, engine.Crashed:
		return widget.DangerImportance
	}
	return widget.LowImportance
}

// show fills the panel for step (nil: no step, the start of the game).
func (p *seatPanel) show(step *stepInfo, lastTurn int) {
	p.fill(step, lastTurn)
	// Texts changed height and parts were shown or hidden: lay the panel
	// out again.
	p.root.Refresh()
}

func (p *seatPanel) fill(step *stepInfo, lastTurn int) {
	if step == nil {
		setLabel(p.header, "Start: no step played")
		for _, c := range p.cards {
			c.clear("not asked yet")
		}
		return
	}
	// The turn alone: the game's own count, which the board's caption
	// shows too. The log's step number beside it ("Step 228 of 807 · turn
	// 226 of 805") read as two clocks disagreeing; the counter under the
	// board keeps it for finding a step.
	setLabel(p.header, fmt.Sprintf("Turn %d of %d", step.Turn, lastTurn))
	var ev []string
	for _, e := range step.Events {
		ev = append(ev, e.Kind+": "+e.Text)
	}
	setLabel(p.events, strings.Join(ev, "\n"))
	paint.SetVisible(p.events, len(ev) > 0)

	for seat, c := range p.cards {
		j := -1
		for k, a := range step.Asks {
			if a.Seat == seat {
				j = k
				break
			}
		}
		var ss *engine.SeatStep
		for k := range step.Seats {
			if step.Seats[k].Seat == seat {
				ss = &step.Seats[k]
				break
			}
		}
		noise := step.noise(seat)
		if j < 0 {
			msg := "not asked in this step"
			if ss != nil {
				msg = "not asked: " + ss.Detail
				if ss.Detail == "" {
					msg = "not asked"
				}
			}
			c.clear(msg)
			if noise != "" {
				c.reply.set("printed while not asked:\n"+excerpt(noise, shownStderrLines, shownStderrChars), p.cols)
				paint.SetVisible(c.reply.l, true)
			}
			continue
		}
		c.fill(step.Asks[j], step.Replies[j], ss, noise, p.cols)
	}
}

func (c *seatCard) clear(msg string) {
	c.inputText = ""
	setLabel(c.status, msg)
	setImportance(c.status, widget.LowImportance)
	paint.SetVisible(c.reply.l, false)
	paint.SetVisible(c.action, false)
	paint.SetVisible(c.input.l, false)
	paint.SetVisible(c.stderr.l, false)
	if !c.copyBtn.Disabled() {
		c.copyBtn.Disable()
	}
}

func (c *seatCard) fill(ask engine.Ask, lr engine.LogReply, ss *engine.SeatStep, noise string, cols int) {
	c.inputText = ask.Input
	verdict := engine.NotAsked
	status := lr.Status.String()
	if ss != nil {
		verdict = ss.Verdict
		status = ss.Verdict.String()
	}
	setLabel(c.status, fmt.Sprintf("%s · %.2f ms", status, float64(lr.Micros)/1000))
	setImportance(c.status, verdictImportance(verdict))

	var reply string
	switch {
	case lr.Status != engine.Answered:
		reply = "no reply (" + lr.Status.String() + ")"
	case lr.Line == "":
		reply = "reply: (an empty line)"
	default:
		reply = "reply: " + excerpt(lr.Line, shownInputLines, shownInputChars)
	}
	if lr.Note != "" {
		reply += "\nrunner: " + lr.Note
	}
	if noise != "" {
		reply += "\nignored lines: " + excerpt(noise, shownStderrLines, shownStderrChars)
	}
	c.reply.set(reply, cols)
	paint.SetVisible(c.reply.l, true)

	action := ""
	if ss != nil {
		action = "action: " + ss.Action
		if ss.Action == "" {
			action = "action: none"
		}
		if ss.Detail != "" {
			action += "\n" + ss.Detail
		}
	}
	setLabel(c.action, action)
	paint.SetVisible(c.action, action != "")

	if ask.Input == "" {
		c.input.set("input: nothing is written; the bot is only waited for", cols)
		if !c.copyBtn.Disabled() {
			c.copyBtn.Disable()
		}
	} else {
		in := excerpt(ask.Input, shownInputLines, shownInputChars)
		if len(in) < len(ask.Input)-1 {
			in += fmt.Sprintf(" (%d bytes in all: Copy input copies everything)", len(ask.Input))
		}
		c.input.set("input:\n"+in, cols)
		if c.copyBtn.Disabled() {
			c.copyBtn.Enable()
		}
	}
	paint.SetVisible(c.input.l, true)

	if lr.Stderr != "" {
		c.stderr.set("stderr:\n"+excerpt(lr.Stderr, shownStderrLines, shownStderrChars), cols)
	}
	paint.SetVisible(c.stderr.l, lr.Stderr != "")
}
