package app

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"ringside/app/chart"
	"ringside/app/internal/paint"
	"ringside/app/service"
	"ringside/engine/event"
)

// historyPoints is how many points the rating-over-time chart has.
const historyPoints = 40

// chartData is what the event view's charts show, computed off the UI
// thread with the rest of eventData.
type chartData struct {
	names    []string // by entry index
	history  []event.HistoryPoint
	labels   []string // heat map rows, in standings order
	cells    [][]*float64
	lenEdges []float64
	lenCount []int
	scEdges  []float64
	scCount  []int
	tree     *event.BracketTree
	err      error
}

// eventCharts holds the event view's chart tabs: the crosstable as a heat
// map, ratings over time, game length and score distributions, and the
// bracket tree.
type eventCharts struct {
	heat       *chart.HeatMap
	rating     *chart.LineChart
	lengths    *chart.Histogram
	scores     *chart.Histogram
	bracket    *chart.BracketTree
	bracketTab *container.TabItem
	treeView   fyne.CanvasObject
	noTree     fyne.CanvasObject
	note       *widget.Label
	tabsList   []*container.TabItem
}

func newEventCharts() *eventCharts {
	c := &eventCharts{
		heat:    chart.NewHeatMap("Score of the row against the column"),
		rating:  chart.NewLineChart("Rating over the event", "games played", "rating (Elo scale)"),
		lengths: chart.NewHistogram("Game length", "turns"),
		scores:  chart.NewHistogram("Final scores", "score"),
		bracket: chart.NewBracketTree(),
		note:    widget.NewLabel(""),
	}
	c.rating.SetReference(0, "average")
	c.treeView = container.NewScroll(c.bracket)
	c.noTree = container.NewCenter(widget.NewLabel("This event is not a bracket: see the standings and the crosstable."))
	c.bracketTab = container.NewTabItem("Bracket", container.NewStack(c.treeView, c.noTree))
	// The rating chart has a tab of its own at the tab's full height: in a
	// grid with the two histograms, a 1024×768 window left its plot about
	// 45 pixels tall, its lines and axis unreadable.
	ratings := container.NewBorder(nil, c.note, nil, nil, c.rating)
	c.tabsList = []*container.TabItem{
		container.NewTabItem("Crosstable", c.heat),
		container.NewTabItem("Ratings", ratings),
		container.NewTabItem("Charts", container.NewGridWithColumns(2, c.lengths, c.scores)),
		c.bracketTab,
	}
	return c
}

func (c *eventCharts) tabs() []*container.TabItem { return c.tabsList }

// prepare computes the charts' data; it runs off the UI thread.
func (c *eventCharts) prepare(d *eventData) {
	cd := &chartData{}
	d.charts = cd
	ev := d.Event
	cd.names = make([]string, len(ev.Entries))
	for i, e := range ev.Entries {
		cd.names[i] = displayName(e.Name)
	}
	if d.TableErr != nil {
		cd.err = d.TableErr
		return
	}
	var order []int
	for _, r := range d.Table.Rows {
		order = append(order, r.Entry)
		cd.labels = append(cd.labels, displayName(r.Name))
	}
	cd.cells = chart.CrossFractions(d.Table.Cross, order)
	cd.history, cd.err = event.RatingHistory(ev.Config, d.Outcomes, historyPoints)
	var turns []int
	var scores []float64
	for _, m := range d.Games {
		if m.Status != service.GameDone || m.Result == nil {
			continue
		}
		turns = append(turns, m.Result.Turns)
		scores = append(scores, m.Result.Scores...)
	}
	cd.lenEdges, cd.lenCount = event.BinInts(turns, 12)
	if len(scores) > 0 {
		cd.scEdges, cd.scCount = event.Bin(scores, 12)
	}
	if ev.Config.Format == event.Bracket {
		if t, err := event.Tree(ev.Config, d.Outcomes); err == nil {
			cd.tree = &t
		}
	}
}

// apply shows prepared data; it runs on the UI thread.
func (c *eventCharts) apply(d *eventData) {
	cd := d.charts
	if cd == nil {
		return
	}
	if cd.err != nil {
		c.note.SetText(fmt.Sprintf("Charts unavailable: %v", cd.err))
	} else {
		c.note.SetText(fmt.Sprintf("%d games played. Ratings are fitted to every game so far; bands are 95 %% intervals.", len(d.Outcomes)))
	}
	c.heat.SetData(cd.labels, cd.cells)
	c.rating.SetSeries(chart.HistorySeries(cd.history, cd.names))
	c.lengths.SetData(cd.lenEdges, cd.lenCount)
	if cd.scEdges != nil {
		c.scores.SetData(cd.scEdges, cd.scCount)
		c.scores.Show()
	} else {
		c.scores.Hide() // Grip keeps no scores
	}
	if cd.tree != nil {
		c.bracket.SetTree(*cd.tree, cd.names)
	}
	paint.SetVisible(c.treeView, cd.tree != nil)
	paint.SetVisible(c.noTree, cd.tree == nil)
}
