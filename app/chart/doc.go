// Package chart draws the charts of an event as Fyne widgets: a line
// chart of ratings over time (LineChart), a pairwise score heat map
// (HeatMap), histograms of game lengths and scores (Histogram) and the
// knockout bracket (BracketTree). The widgets take plain data — numbers,
// names and engine/event results — and know no database and no runner;
// callers load the data and hand it over on the UI goroutine.
package chart
