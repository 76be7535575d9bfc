package app

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/chart"
	"ringside/app/replay"
	"ringside/app/service"
	"ringside/engine/event"
)

// projectorEvery is how often the projector reads the standings and the
// games in play again (off the UI thread). The featured game itself is
// followed step by step through the runner's live feed.
const projectorEvery = 2 * time.Second

// projectorLinger is how long a featured game stays on screen after it
// ended before the projector moves on to another game in play.
const projectorLinger = 4 * time.Second

// projectorScale is how much larger the projector's type is than the
// app's.
const projectorScale = 1.45

// projectorTreeRoom is the most of the window's width the standings and
// a bracket's tree may take from the game beside them, when the tree does
// not fit the usual 40% even at its smallest.
const projectorTreeRoom = 0.5

// projectorPerPage is the most standings a page of the projector shows;
// fewer when they do not fit the pane (a sentence wraps onto two lines
// at 1024×768 in the projector's type: 7 fit), fewer still beside a
// bracket's tree. A class of 30 turns over its pages by itself.
const (
	projectorPerPage        = 10
	projectorPerPageBracket = 5
)

// projectorPageEvery is how long a page of the standings stays before
// the next: long enough to find one's name. A variable for tests.
var projectorPageEvery = 8 * time.Second

// projectorAuto is the pin choice that lets the projector pick the game.
const projectorAuto = "The most interesting game in play"

// projector is an event's full-screen view for a room: the standings in
// plain words, the bracket of a knockout, and a featured game playing
// live. It picks the game itself (the latest bracket round, else the
// leaders' game) unless the teacher pins one.
type projector struct {
	u  *UI
	id int64
	w  fyne.Window

	title     *widget.Label
	status    *widget.Label
	standings *widget.Label
	// standingsBox scrolls only if a page does not fit after all.
	standingsBox *container.Scroll
	more         *widget.Label // "Page 1 of 3", the pages turning by themselves
	bracket      *chart.BracketTree
	treeBox      fyne.CanvasObject
	split        *container.Split // the standings and tree | the game
	gameTitle    *widget.Label
	gameBox      *fyne.Container // the featured game's viewer, or a note
	idle         *widget.Label
	pin          *widget.Select
	// The pace of the event's games, which the teacher steps up or down
	// while it runs here: slowed to follow the final, sped up between.
	paceText       *widget.Label
	slower, faster *widget.Button

	// On the UI thread only.
	data     *projectorData
	lines    []string  // every standing in words, best first
	page     int       // the page of lines shown, from 0
	fit      int       // how many lines fit a page (perPage), 0 until known
	fitRoom  float32   // the pane's height fit was found for
	pageAt   time.Time // when that page was shown
	pinned   int64     // 0: pick automatically
	pinText  map[string]int64
	featured int64 // the game shown, 0 for none
	viewer   *replay.Viewer
	endedAt  time.Time     // when the game shown stopped being played
	stop     chan struct{} // ends following the game shown
	wake     chan struct{} // asks the loader for fresh data now
	closed   bool

	isBracket bool
}

// projectorData is what the projector shows, read off the UI thread: the
// service's view of the event (standings included), its bracket and the
// games in play.
type projectorData struct {
	*service.EventView
	tree    *event.BracketTree
	running []service.LiveGame // games in play in this process
	// elsewhere is set when another process plays the event: its games
	// cannot be followed live from here.
	elsewhere *service.Holder
}

// openProjector opens event id's projector window, full screen; bracket
// says the event is a knockout, whose tree is shown under the standings.
func openProjector(u *UI, id int64, bracket bool) *projector {
	p := &projector{u: u, id: id, wake: make(chan struct{}, 1), isBracket: bracket}
	p.w = u.App.NewWindow("Ringside · projector")
	p.w.SetIcon(Icon)
	p.build()
	p.w.SetOnClosed(func() {
		p.closed = true
		p.unfollow()
		close(p.wake)
	})
	p.w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		switch ev.Name {
		case fyne.KeyEscape:
			if p.w.FullScreen() {
				p.w.SetFullScreen(false)
			} else {
				p.w.Close()
			}
		case fyne.KeyF11:
			p.w.SetFullScreen(!p.w.FullScreen())
		}
	})
	p.w.Resize(fyne.NewSize(1024, 768))
	p.w.SetFullScreen(true)
	p.w.Show()
	u.goWork(p.loop)
	return p
}

// OpenProjector is "ringside projector ID": event id on the projector,
// played by this window unless it is finished or played elsewhere.
func OpenProjector(u *UI, id int64) error {
	if u.Svc == nil {
		return fmt.Errorf("the database cannot be opened: the window says why")
	}
	ev, err := u.Svc.EventInfo(id)
	if err != nil {
		return fmt.Errorf("%w (\"ringside event list\" shows the events)", err)
	}
	if ev.Status != service.EventFinished {
		// Played elsewhere, the projector says by whom.
		if elsewhere, err := u.Svc.PlayedElsewhere(id); err != nil || !elsewhere {
			if err := u.Jobs.Start(id); err != nil {
				return err
			}
		}
	}
	u.showEvents(id)
	openProjector(u, id, ev.Config.Format == event.Bracket)
	return nil
}

func (p *projector) build() {
	p.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.title.SizeName = theme.SizeNameHeadingText
	p.title.Truncation = fyne.TextTruncateEllipsis
	p.status = newLineLabel("")
	p.standings = widget.NewLabel("Reading the standings…")
	p.standings.Wrapping = fyne.TextWrapWord
	p.more = widget.NewLabel("")
	p.more.TextStyle.Italic = true
	p.bracket = chart.NewBracketTree()
	// The whole bracket on the screen, not a scroll whose last columns
	// are cut off: it shrinks to its pane, and an 8-entry tree fits half
	// of a 1024-pixel screen (roomForTree) at this scale.
	p.bracket.MinScale = 0.45
	p.treeBox = container.NewScroll(p.bracket)
	p.gameTitle = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.gameTitle.SizeName = theme.SizeNameSubHeadingText
	p.gameTitle.Truncation = fyne.TextTruncateEllipsis
	p.idle = widget.NewLabel("")
	p.idle.Wrapping = fyne.TextWrapWord
	p.idle.Alignment = fyne.TextAlignCenter
	p.gameBox = container.NewStack(idleBox(p.idle))
	p.pin = widget.NewSelect([]string{projectorAuto}, func(s string) {
		if s == projectorAuto || s == "" {
			p.pinned = 0
		} else {
			p.pinned = p.pinText[s]
		}
		p.poke()
	})
	p.pin.SetSelected(projectorAuto)
	p.paceText = widget.NewLabel("")
	p.slower = widget.NewButtonWithIcon("Slower", theme.MediaFastRewindIcon(), func() { p.stepPace(service.SlowerPace) })
	p.faster = widget.NewButtonWithIcon("Faster", theme.MediaFastForwardIcon(), func() { p.stepPace(service.FasterPace) })
	hint := widget.NewLabel("Esc leaves full screen · F11 full screen")
	hint.TextStyle.Italic = true

	p.standingsBox = container.NewVScroll(p.standings)
	var left fyne.CanvasObject = container.NewBorder(newHeading("Standings", theme.SizeNameSubHeadingText), p.more, nil, nil,
		p.standingsBox)
	if p.isBracket {
		tree := container.NewVSplit(left, container.NewBorder(newHeading("Bracket", theme.SizeNameSubHeadingText), nil, nil, nil, p.treeBox))
		tree.Offset = 0.5
		left = tree
	}
	game := container.NewBorder(p.gameTitle, nil, nil, nil, p.gameBox)
	p.split = container.NewHSplit(left, game)
	p.split.Offset = 0.4
	pin := container.NewBorder(nil, nil, widget.NewLabel("Featured game:"), hint, p.pin)
	foot := container.NewVBox(pin, container.NewHBox(p.slower, p.faster, p.paceText))
	head := container.NewVBox(p.title, p.status)
	content := container.NewBorder(head, foot, nil, nil, p.split)
	p.w.SetContent(container.NewThemeOverride(container.NewPadded(content), &bigTheme{Theme: theme.Current(), scale: projectorScale}))
}

// roomForTree widens the standings' and the tree's side, up to
// projectorTreeRoom of the window, when the tree does not fit its pane
// even at its smallest; the game keeps the rest.
func (p *projector) roomForTree() {
	need := p.bracket.MinSize().Width - p.treeBox.Size().Width
	width := p.split.Size().Width
	if need <= 0 || width <= 0 {
		return
	}
	if off := min(projectorTreeRoom, p.split.Offset+float64(need+1)/float64(width)); off > p.split.Offset {
		p.split.SetOffset(off)
	}
}

// poke asks for fresh data at once.
func (p *projector) poke() {
	if p.closed {
		return
	}
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// loop reads the event every projectorEvery (or when poked) and shows it,
// until the window or the app closes.
func (p *projector) loop() {
	t := time.NewTicker(projectorEvery)
	defer t.Stop()
	for {
		d, err := p.load()
		uiDo(func() {
			if p.closed {
				return
			}
			if err != nil {
				p.status.SetText("Cannot read the event: " + err.Error())
				return
			}
			p.apply(d)
		})
		select {
		case <-t.C:
		case _, ok := <-p.wake:
			if !ok {
				return
			}
		case <-p.u.ctx.Done():
			return
		}
	}
}

func (p *projector) load() (*projectorData, error) {
	view, err := p.u.Svc.EventView(p.id)
	if err != nil {
		return nil, err
	}
	if view.TableErr != nil {
		return nil, view.TableErr
	}
	d := &projectorData{EventView: view}
	if cfg := view.Event.Config; cfg.Format == event.Bracket {
		if t, err := event.Tree(cfg, view.Outcomes); err == nil {
			d.tree = &t
		}
	}
	d.running = p.u.Svc.Live().Games(p.id)
	if h := view.Player; h != nil && len(d.running) == 0 && !p.u.Jobs.Running(p.id) {
		// Played by another process: its games in play are followed
		// through the turns it saves.
		d.elsewhere = h
		for _, m := range d.Games {
			if m.Status == service.GameRunning {
				d.running = append(d.running, service.LiveGame{Match: m.ID, Event: p.id, Index: m.Game.Index})
			}
		}
	}
	return d, nil
}

// apply shows d and picks the featured game. It runs on the UI thread.
func (p *projector) apply(d *projectorData) {
	p.data = d
	ev := d.Event
	p.w.SetTitle("Ringside · projector · " + ev.Name)
	p.showPace()
	p.title.SetText(ev.Name)
	counts := map[service.GameStatus]int{}
	for _, m := range d.Games {
		counts[m.Status]++
	}
	p.status.SetText(fmt.Sprintf("%s %s · %d of %d games played · %d being played%s", gameNameOf(ev.Game), ev.Config.Format,
		counts[service.GameDone], len(d.Games), counts[service.GameRunning], roundsInPlay(d.Games)))

	// The standings, best first, one sentence each, a page at a time.
	p.lines = service.StandingsWords(d.Table.Rows, ev.Config.Seats, displayName)
	if len(p.lines) == 0 {
		p.lines = append(p.lines, "No game has been played yet.")
	}
	page := p.page
	if !p.pageAt.IsZero() && time.Since(p.pageAt) >= projectorPageEvery {
		page++
		p.pageAt = time.Now()
	}
	p.showPage(page)
	if d.tree != nil {
		names := make([]string, len(ev.Entries))
		for i, e := range ev.Entries {
			names[i] = displayName(e.Name)
		}
		p.bracket.SetTree(*d.tree, names)
		p.roomForTree()
	}

	// The pin list: every game in play, and the game shown.
	byID := map[int64]service.GameView{}
	for _, m := range d.Games {
		byID[m.ID] = m
	}
	options := []string{projectorAuto}
	p.pinText = map[string]int64{}
	add := func(id int64, suffix string) {
		if m, ok := byID[id]; ok {
			s := d.GameTitle(m, p.rounds(), displayName) + suffix
			if _, dup := p.pinText[s]; !dup {
				p.pinText[s] = id
				options = append(options, s)
			}
		}
	}
	for _, g := range d.running {
		add(g.Match, "")
	}
	if p.pinned != 0 && !p.isRunning(p.pinned) {
		add(p.pinned, " (over)")
	}
	p.pin.Options = options
	p.pin.Refresh()

	want := p.pick()
	if want != p.featured {
		p.feature(want)
	}
	if p.featured == 0 {
		switch {
		case d.elsewhere != nil:
			p.idle.SetText(fmt.Sprintf("The games are being played by %s; none is being played right now.", d.elsewhere))
		case ev.Status == service.EventFinished:
			p.idle.SetText("The event is over.")
		default:
			p.idle.SetText("No game is being played right now.")
		}
	}
}

// showPace says the pace the event's games are played at, and offers to
// change it while the event runs in this window.
func (p *projector) showPace() {
	pace, running := p.u.Jobs.Pace(p.id)
	if !running {
		p.paceText.SetText("")
		p.slower.Disable()
		p.faster.Disable()
		return
	}
	p.paceText.SetText("Pace: " + service.PaceWords(pace))
	p.slower.Enable()
	p.faster.Enable()
}

// stepPace moves the running event's pace one step (service.SlowerPace
// or FasterPace).
func (p *projector) stepPace(step func(float64) float64) {
	pace, running := p.u.Jobs.Pace(p.id)
	if !running {
		return
	}
	if err := p.u.Jobs.SetPace(p.id, step(pace)); err != nil {
		p.status.SetText("The pace cannot be changed: " + sentence(err))
	}
	p.showPace()
}

// roundsInPlay says which rounds (heats) the games being played belong
// to, so a room knows where the event is: " · round 3 in play", " ·
// rounds 3 and 4 in play"; "" when none is played.
func roundsInPlay(games []service.GameView) string {
	var rounds []string
	seen := map[int]bool{}
	for _, m := range games {
		if m.Status == service.GameRunning && !seen[m.Game.Round] {
			seen[m.Game.Round] = true
			rounds = append(rounds, strconv.Itoa(m.Game.Round+1))
		}
	}
	switch len(rounds) {
	case 0:
		return ""
	case 1:
		return " · round " + rounds[0] + " in play"
	}
	return " · rounds " + strings.Join(rounds[:len(rounds)-1], ", ") + " and " + rounds[len(rounds)-1] + " in play"
}

// perPage is how many standings a page shows: the most that fit.
func (p *projector) perPage() int {
	most := projectorPerPage
	if p.isBracket {
		most = projectorPerPageBracket
	}
	if p.fit == 0 || p.fit > most {
		p.fit = most
	}
	return p.fit
}

// pages is how many pages the standings take.
func (p *projector) pages() int {
	return max(1, (len(p.lines)+p.perPage()-1)/p.perPage())
}

// showPage shows page i of the standings (from 0; past the last, the
// first again) and says which it is: a class of 30 is read over pages
// that turn by themselves, never cut at the 12th with "and 18 more".
func (p *projector) showPage(i int) {
	n := p.pages()
	i = (i%n + n) % n
	if p.pageAt.IsZero() {
		p.pageAt = time.Now()
	}
	p.page = i
	// A pane of another height (the window resized) finds its page size
	// afresh from the most: fit only ever shrank, so a window made
	// bigger again kept the short pages of its smallest size.
	if room := p.standingsBox.Size().Height; room != p.fitRoom {
		p.fit, p.fitRoom = 0, room
		n = p.pages()
		i = (i%n + n) % n
		p.page = i
	}
	per := p.perPage()
	p.standings.SetText(strings.Join(p.lines[i*per:min(len(p.lines), (i+1)*per)], "\n"))
	// Fewer to a page while the page does not fit its pane: whole
	// sentences, never one cut at the pane's foot.
	if room := p.standingsBox.Size().Height; room > 0 && p.standings.MinSize().Height > room && p.fit > 1 {
		p.fit--
		p.showPage(i)
		return
	}
	if n > 1 {
		p.more.SetText(fmt.Sprintf("Page %d of %d · the pages turn by themselves", i+1, n))
	} else {
		p.more.SetText("")
	}
}

// rounds is the bracket's number of rounds, 0 for other formats.
func (p *projector) rounds() int {
	if p.data == nil || p.data.tree == nil {
		return 0
	}
	return len(p.data.tree.Rounds)
}

func (p *projector) isRunning(id int64) bool {
	for _, g := range p.data.running {
		if g.Match == id {
			return true
		}
	}
	return false
}

// pick is the game to feature now: the pinned one; else the game shown
// while it is played and for projectorLinger after; else the most
// interesting game in play; else, once the event is over, its last game.
func (p *projector) pick() int64 {
	if p.pinned != 0 {
		return p.pinned
	}
	if p.featured != 0 {
		if p.isRunning(p.featured) || (p.viewer != nil && p.viewer.Live()) {
			p.endedAt = time.Time{}
			return p.featured
		}
		if p.endedAt.IsZero() {
			p.endedAt = time.Now()
		}
		if time.Since(p.endedAt) < projectorLinger {
			return p.featured
		}
	}
	if id := p.data.Featured(p.data.running); id != 0 {
		return id
	}
	if p.data.Event.Status == service.EventFinished {
		// The last game played, at its end: in a knockout, the final.
		for i := len(p.data.Games) - 1; i >= 0; i-- {
			if m := p.data.Games[i]; m.Status == service.GameDone {
				return m.ID
			}
		}
	}
	return 0
}

// feature shows match id: followed live when it is played here, as its
// replay otherwise; 0 shows nothing.
func (p *projector) feature(id int64) {
	p.unfollow()
	p.featured, p.endedAt, p.viewer = id, time.Time{}, nil
	p.gameBox.Objects = []fyne.CanvasObject{idleBox(p.idle)}
	p.gameBox.Refresh()
	if id == 0 {
		p.gameTitle.SetText("")
		return
	}
	for _, m := range p.data.Games {
		if m.ID == id {
			p.gameTitle.SetText(p.data.GameTitle(m, p.rounds(), displayName))
		}
	}
	p.idle.SetText("Opening the game…")
	stop := make(chan struct{})
	p.stop = stop
	show := func(v *replay.Viewer, _ string) {
		if p.closed || p.featured != id {
			v.Close()
			return
		}
		v.SetCompact()
		p.viewer = v
		p.gameBox.Objects = []fyne.CanvasObject{v}
		p.gameBox.Refresh()
	}
	if feed, ok := p.u.Svc.Live().Follow(id); ok {
		p.u.goWork(func() {
			defer feed.Close()
			followLive(p.u, feed, stop, show)
		})
		return
	}
	if p.data.elsewhere != nil && p.isRunning(id) {
		p.u.goWork(func() { followSaved(p.u, id, stop, show) })
		return
	}
	p.u.goWork(func() {
		log, err := p.u.Svc.Replay(id)
		var prep *replay.Prepared
		if err == nil {
			prep, err = prepareFor(log)
		}
		uiDo(func() {
			if err != nil {
				p.idle.SetText("This game cannot be shown: " + sentence(err))
				return
			}
			v := prep.Viewer()
			show(v, "")
			v.Last()
		})
	})
}

// unfollow stops following the game shown.
func (p *projector) unfollow() {
	if p.stop != nil {
		close(p.stop)
		p.stop = nil
	}
	if p.viewer != nil {
		p.viewer.Close()
	}
}

// bigTheme is the app's theme with larger type, for a room.
type bigTheme struct {
	fyne.Theme
	scale float32
}

func (t *bigTheme) Size(n fyne.ThemeSizeName) float32 {
	s := t.Theme.Size(n)
	switch n {
	case theme.SizeNameText, theme.SizeNameHeadingText, theme.SizeNameSubHeadingText, theme.SizeNameCaptionText:
		return s * t.scale
	}
	return s
}

// idleBox shows the note in place of a game across the pane's width,
// in the middle of its height: a wrapped label in a Center container got
// the width of one letter and stood its words on end ("O p e n i n g").
func idleBox(note *widget.Label) fyne.CanvasObject {
	return container.NewVBox(layout.NewSpacer(), note, layout.NewSpacer())
}
