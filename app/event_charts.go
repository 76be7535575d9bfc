package app

import (
	"fyne.io/fyne/v2/container"
)

// eventCharts holds the event view's chart tabs.
type eventCharts struct{}

func newEventCharts() *eventCharts                { return &eventCharts{} }
func (c *eventCharts) tabs() []*container.TabItem { return nil }
func (c *eventCharts) prepare(d *eventData)       {}
func (c *eventCharts) apply(d *eventData)         {}
