package app

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
)

// checkDialog shows what an AI's check found: one row per thing checked,
// with a mark and the first problem in plain words, and the build log or
// the bot's error output beneath when that explains the problem.
type checkDialog struct {
	dlg   *dialog.CustomDialog
	title string
	rows  []checkRow
}

// checkRow is one line of the check: "answers in time", its result.
type checkRow struct {
	what string
	ok   bool
	text string
}

// checkTitle is the check's outcome in one line.
func checkTitle(res service.CheckResult) string {
	name := res.Build.AI.Name
	if res.Passed() {
		return fmt.Sprintf("%s is ready to play (revision %d)", name, res.Revision.Number)
	}
	return name + " does not pass the check"
}

// checkRows turns a check result into the rows the dialog shows.
func checkRows(res service.CheckResult) (rows []checkRow, log string) {
	switch {
	case res.BuildErr != nil:
		return []checkRow{{"builds", false, res.BuildErr.Error()}}, ""
	case res.Build.Failed():
		return []checkRow{{"builds", false, "the build failed: " + service.FirstError(res.Build.Rev.BuildLog)}}, res.Build.Rev.BuildLog
	}
	rows = append(rows, checkRow{"builds", true, fmt.Sprintf("ok: revision %d (%s) plays", res.Revision.Number,
		service.ShortHash(res.Revision.Hash))})
	if res.Report == nil {
		return rows, ""
	}
	for _, it := range res.Report.Items {
		rows = append(rows, checkRow{it.What, it.OK, it.Text})
	}
	if !res.Passed() {
		log = res.Report.Stderr
	}
	return rows, log
}

func showCheckDialog(u *UI, res service.CheckResult) *checkDialog {
	d := &checkDialog{title: checkTitle(res)}
	var log string
	d.rows, log = checkRows(res)
	head := "One short game against the game's random built-in bots went well: it starts, answers in time and answers validly."
	if !res.Passed() {
		head = "Fix the first problem below, save, and press Check again. This is what the program did in one short game against the game's built-in bots."
	}
	grid := container.NewVBox()
	for _, r := range d.rows {
		icon := widget.NewIcon(theme.ConfirmIcon())
		if !r.ok {
			icon = widget.NewIcon(theme.NewErrorThemedResource(theme.CancelIcon()))
		}
		what := widget.NewLabelWithStyle(r.what, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		text := widget.NewLabel(r.text)
		text.Wrapping = fyne.TextWrapWord
		if !r.ok {
			text.Importance = widget.DangerImportance
		}
		grid.Add(container.NewBorder(nil, nil, container.NewHBox(icon, what), nil, text))
	}
	if res.Report != nil && res.Report.Rank > 0 && res.Report.Answers > 0 {
		grid.Add(widget.NewLabel(fmt.Sprintf("It played %d turns against built-in random bots and finished %s of %d.",
			res.Report.Turns, ordinal(res.Report.Rank), res.Report.Seats)))
	}
	body := fyne.CanvasObject(grid)
	if strings.TrimSpace(log) != "" {
		what := "Its error output ends with:"
		if res.Build.Failed() {
			what = "The build printed:"
		}
		body = container.NewBorder(grid, nil, nil, nil, container.NewBorder(widget.NewLabel(what), nil, nil, nil,
			container.NewScroll(newLogText(log))))
	}
	ai := res.Build.AI
	what := fmt.Sprintf("Check of %s (%s)", ai.Name, ai.Game)
	if res.Revision.ID != 0 {
		what = fmt.Sprintf("Check of %s (%s, revision %d, %s)", ai.Name, ai.Game, res.Revision.Number, service.ShortHash(res.Revision.Hash))
	}
	subject := widget.NewLabelWithStyle(what, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	content := container.NewBorder(container.NewVBox(subject, widget.NewLabel(wrapText(head, 110))), nil, nil, nil, body)
	d.dlg = dialog.NewCustom(d.title, "Close", content, u.Win)
	d.dlg.Resize(dialogSize(u, 900, 560))
	d.dlg.Show()
	return d
}

// ordinal writes 1 as "1st", 2 as "2nd"…
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}
