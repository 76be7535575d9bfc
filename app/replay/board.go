package replay

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"ringside/app/internal/paint"
	"ringside/engine"
)

// board draws one game's state for the replay viewer. Show is called on
// the UI thread for every frame of a playback, so implementations keep
// their canvas objects and only change colours, texts and positions.
type board interface {
	// Object is the board's canvas object; it fills the space it is given.
	Object() fyne.CanvasObject
	// Show draws st, the state after step (nil for the initial state of a
	// replay without steps).
	Show(st engine.State, step *stepInfo)
}

// newBoard picks the renderer for a game by its ID; games without one get
// a text board that still shows the turn and the events.
func newBoard(gameID string, players []string) board {
	switch gameID {
	case "grip":
		return newGripBoard(players)
	case "battle2048":
		return newBattleBoard(players)
	case "cloud":
		return newCloudBoard(players)
	}
	return newTextBoard(gameID)
}

// playerColors tell the seats apart on every board. They avoid the warm
// colours Grip uses for falling blocks and read on light and dark themes.
var playerColors = []color.NRGBA{
	{0x1f, 0x77, 0xb4, 0xff}, // blue
	{0x2c, 0xa0, 0x2c, 0xff}, // green
	{0x94, 0x67, 0xbd, 0xff}, // purple
	{0xe3, 0x77, 0xc2, 0xff}, // pink
	{0x17, 0xbe, 0xcf, 0xff}, // cyan
	{0x8c, 0x56, 0x4b, 0xff}, // brown
	{0xbc, 0xbd, 0x22, 0xff}, // olive
	{0xff, 0x7f, 0x0e, 0xff}, // orange
}

// playerColor is seat's colour.
func playerColor(seat int) color.NRGBA {
	if seat < 0 {
		return color.NRGBA{0x80, 0x80, 0x80, 0xff}
	}
	return playerColors[seat%len(playerColors)]
}

// textOn is black or white, whichever reads better on fill.
func textOn(fill color.Color) color.Color {
	if paint.Luminance(fill) > 0.55 {
		return color.NRGBA{0x10, 0x10, 0x10, 0xff}
	}
	return color.White
}

// setFill changes a rectangle's fill and redraws it only when it changed,
// so a frame that changes little costs little.
func setFill(r *canvas.Rectangle, c color.Color) {
	if r.FillColor != nil && paint.NRGBA(r.FillColor) == paint.NRGBA(c) {
		return
	}
	r.FillColor = c
	r.Refresh()
}

// setText changes a text's string and colour and redraws it only when
// either changed. A new string also resizes the text to fit it, keeping
// its top left corner; centred texts are placed again by their callers.
func setText(t *canvas.Text, s string, c color.Color) {
	if t.Text == s && t.Color != nil && paint.NRGBA(t.Color) == paint.NRGBA(c) {
		return
	}
	if t.Text != s {
		t.Text = s
		t.Resize(t.MinSize())
	}
	t.Color = c
	t.Refresh()
}

// centreText centres t's box on (cx, cy).
func centreText(t *canvas.Text, cx, cy float32) {
	t.Alignment = fyne.TextAlignCenter
	s := t.MinSize()
	t.Move(fyne.NewPos(cx-s.Width/2, cy-s.Height/2))
	t.Resize(s)
}

// boardWidget is the widget all renderers are built on: the renderer
// holds the objects, layout is the renderer's own function and theme
// changes redraw the last state.
// seats is what every board has: the players' names and the widget.
type seats struct {
	w       *boardWidget
	players []string
}

func newSeats(players []string, min fyne.Size) seats {
	return seats{w: &boardWidget{min: min}, players: players}
}

func (s *seats) name(seat int) string { return seatName(s.players, seat) }

// Object returns the board widget.
func (s *seats) Object() fyne.CanvasObject { return s.w }

// build makes the widget of objs, laid out by layout; refresh re-applies
// theme colours and redraws the last state.
func (s *seats) build(objs []fyne.CanvasObject, layout func(fyne.Size), refresh func()) {
	s.w.objects, s.w.layout, s.w.refresh = objs, layout, refresh
	s.w.ExtendBaseWidget(s.w)
}

// showState calls show with st when st is the board's kind of state S;
// a board shown another game's state keeps what it shows.
func showState[S engine.State](st engine.State, show func(S)) {
	if s, ok := st.(S); ok {
		show(s)
	}
}

// nameFit cuts a player's name to a width, keeping its end: names like
// "builtin:cloud/random#2" differ only there. It remembers its last answer,
// since boards ask again on every frame.
type nameFit struct {
	name, fit string
	width     float32
	size      float32
}

// clip returns name as it fits width in t's style, cut in the middle
// with an ellipsis when too long.
func (f *nameFit) clip(name string, t *canvas.Text, width float32) string {
	if name == f.name && width == f.width && t.TextSize == f.size {
		return f.fit
	}
	f.name, f.width, f.size = name, width, t.TextSize
	f.fit = clipMiddle(name, t, width)
	return f.fit
}

// clipMiddle shortens s to fit width in t's style by putting an ellipsis
// in its middle, keeping twice as much of the end as of the start.
func clipMiddle(s string, t *canvas.Text, width float32) string {
	fits := func(c string) bool { return fyne.MeasureText(c, t.TextSize, t.TextStyle).Width <= width }
	if fits(s) {
		return s
	}
	r := []rune(s)
	for keep := len(r) - 1; keep > 0; keep-- {
		tail := (2*keep + 2) / 3
		c := string(r[:keep-tail]) + "…" + string(r[len(r)-tail:])
		if fits(c) {
			return c
		}
	}
	return "…"
}

// chipsPerRow is how many players' chips go in a row of width avail:
// most, but fewer (half as many, so rows stay even) when a name would be
// cut otherwise. A narrow board (a branch beside its original on a
// 1024-pixel projector) then shows "alice r1" whole on two rows instead
// of "a… r1" on one; only a name too long even then is cut.
func chipsPerRow(names []string, t *canvas.Text, avail float32, most int) int {
	need := float32(0)
	for _, n := range names {
		need = max(need, fyne.MeasureText(n, t.TextSize, t.TextStyle).Width)
	}
	n := max(1, most)
	for n > 1 && avail/float32(n)-18-chipGap < need {
		n = (n + 1) / 2
	}
	return n
}

// seatName is a seat's player name, or "player N" when the replay has none.
func seatName(players []string, seat int) string {
	if seat < len(players) {
		return players[seat]
	}
	return "player " + strconv.Itoa(seat)
}

type boardWidget struct {
	widget.BaseWidget
	objects []fyne.CanvasObject
	min     fyne.Size
	layout  func(size fyne.Size)
	refresh func() // re-applies theme colours and redraws the last state
}

func (b *boardWidget) CreateRenderer() fyne.WidgetRenderer { return &boardRenderer{b: b} }

type boardRenderer struct{ b *boardWidget }

func (r *boardRenderer) Layout(size fyne.Size)        { r.b.layout(size) }
func (r *boardRenderer) MinSize() fyne.Size           { return r.b.min }
func (r *boardRenderer) Objects() []fyne.CanvasObject { return r.b.objects }
func (r *boardRenderer) Destroy()                     {}
func (r *boardRenderer) Refresh() {
	if r.b.refresh != nil {
		r.b.refresh()
	}
	r.b.layout(r.b.Size())
	for _, o := range r.b.objects {
		o.Refresh()
	}
}

// textBoard is the fallback for games without a renderer.
type textBoard struct {
	label *widget.Label
	game  string
}

func newTextBoard(game string) *textBoard {
	l := widget.NewLabel("")
	l.Wrapping = fyne.TextWrapWord
	return &textBoard{label: l, game: game}
}

func (b *textBoard) Object() fyne.CanvasObject { return b.label }

func (b *textBoard) Show(st engine.State, step *stepInfo) {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s has no board renderer yet.\nTurn %d", b.game, st.Turn())
	if step != nil {
		for _, e := range step.Events {
			fmt.Fprintf(&sb, "\n%s: %s", e.Kind, e.Text)
		}
	}
	b.label.SetText(sb.String())
}
