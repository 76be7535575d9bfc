package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"ringside/app/service"
	"ringside/engine/games"
)

// dialogSize is w×h, or less when the window is smaller.
func dialogSize(u *UI, w, h float32) fyne.Size {
	if c := u.Win.Canvas().Size(); c.Width > 0 && c.Height > 0 {
		w, h = min(w, c.Width*0.94), min(h, c.Height*0.9)
	}
	return fyne.NewSize(w, h)
}

// newLogText shows a build log or report as the program printed it.
func newLogText(text string) *widget.Label {
	if strings.TrimSpace(text) == "" {
		text = "(nothing was printed)"
	}
	// A build log or file list keeps its lines, not its escape sequences
	// or bidi overrides (service.VisibleText).
	l := widget.NewLabelWithStyle(service.VisibleText(strings.TrimRight(text, "\n")), fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	l.Selectable = true
	return l
}

// showLogDialog shows a build log or check report under a line saying what
// it is and what to do.
func showLogDialog(u *UI, title, head, log string) *dialog.CustomDialog {
	headLabel := widget.NewLabel(wrapText(head, 110))
	content := container.NewBorder(headLabel, nil, nil, nil, container.NewScroll(newLogText(log)))
	d := dialog.NewCustom(title, "Close", content, u.Win)
	d.Resize(dialogSize(u, 960, 640))
	d.Show()
	return d
}

// gameNameList is every game's name, for the game choosers: people pick
// "Battle 2048", the AI keeps its id, battle2048 (gameIDOf).
func gameNameList() []string {
	var names []string
	for _, g := range games.All() {
		names = append(names, g.Info().Name)
	}
	return names
}

// gameIDOf is the id of the game a chooser shows as name, "" for none.
func gameIDOf(name string) string {
	for _, g := range games.All() {
		if g.Info().Name == name {
			return g.Info().ID
		}
	}
	return ""
}

// gameNameOf is the name of game id, or id for a game this build lacks.
func gameNameOf(id string) string {
	if g, err := games.Get(id); err == nil {
		return g.Info().Name
	}
	return id
}

// folderPicker is a folder entry with a button that opens the folder
// chooser; picked is called with the chosen folder.
func folderPicker(u *UI, entry *widget.Entry, picked func(string)) fyne.CanvasObject {
	choose := widget.NewButton("Choose…", func() {
		d := dialog.NewFolderOpen(func(uri fyne.ListableURI, err error) {
			if err != nil {
				u.showError("Cannot open the folder", err)
				return
			}
			if uri != nil {
				picked(uri.Path())
			}
		}, u.Win)
		// Start where the entry points, or at its parent for a folder not
		// made yet.
		dir := strings.TrimSpace(entry.Text)
		for dir != "" && dir != "/" && dir != "." && !folderExists(dir) {
			dir = filepath.Dir(dir)
		}
		if !folderExists(dir) {
			dir = ""
		}
		showFileDialog(u, d, dir)
	})
	return container.NewBorder(nil, nil, nil, choose, entry)
}

// ---- add and edit ----

// aiForm is the dialog that registers an AI or edits one.
type aiForm struct {
	s       *aisScreen
	editing *service.AIInfo // nil when adding

	name     *widget.Entry
	game     *widget.Select
	folder   *widget.Entry
	language *widget.Entry
	build    *widget.Entry
	run      *widget.Entry
	why      *widget.Label
	watch    *widget.Check
	trusted  *widget.Check
	limits   *widget.Entry
	options  *widget.Entry // game options for this AI's seat ("coords=xy")
	optHint  *widget.Label // which options the chosen game allows
	problem  *widget.Label
	save     *widget.Button
	cancel   *widget.Button
	dlg      *dialog.CustomDialog

	guessGen int    // only the newest guess fills the form in
	typedGen int    // only the newest pause in typing a folder guesses
	autoName string // the name the form gave from a folder, "" for none
	// guessedDir is the folder typed last that a guess was made for:
	// typing on past it ("/home/al" → "/home/ali") guesses again.
	guessedDir string
}

func newAIForm(s *aisScreen, editing *service.AIInfo) *aiForm {
	f := &aiForm{s: s, editing: editing}
	f.name = newEntry("the name in standings, e.g. alice")
	f.game = widget.NewSelect(gameNameList(), nil)
	f.game.PlaceHolder = "(choose the game it plays)"
	f.folder = newEntry("the folder with the program's source files")
	f.folder.OnSubmitted = func(string) { f.guess() }
	f.language = newEntry("guessed from the files")
	f.build = newEntry("nothing to build (a script)")
	f.run = newEntry("e.g. python3 bot.py or ./bot")
	f.why = widget.NewLabel("Choose the folder: Ringside guesses the language and the commands from its files; correct them if needed.")
	f.why.Importance = widget.LowImportance
	f.watch = widget.NewCheck("Watch: rebuild it whenever a file in its folder is saved", nil)
	f.watch.SetChecked(true)
	f.trusted = widget.NewCheck("Trusted: run it outside the sandbox, with your rights and files (only for programs you wrote or read)", nil)
	f.limits = newEntry("default: " + service.DefaultLimitsText())
	f.options = newEntry("none: the event's options")
	f.optHint = widget.NewLabel("")
	f.optHint.Importance = widget.LowImportance
	f.game.OnChanged = func(game string) { f.optHint.SetText(optionsHint(gameIDOf(game))) }
	f.problem = widget.NewLabel("")
	f.problem.Importance = widget.DangerImportance
	title, action := "Add an AI", "Add and build"
	if editing != nil {
		title, action = "Edit "+editing.Name, "Save"
		f.name.SetText(editing.Name)
		f.game.SetSelected(gameNameOf(editing.Game))
		f.folder.SetText(editing.SourceDir)
		f.language.SetText(editing.Language)
		f.build.SetText(editing.BuildCmd)
		f.run.SetText(editing.RunCmd)
		f.watch.SetChecked(editing.Watch)
		f.trusted.SetChecked(editing.Trusted)
		f.limits.SetText(editing.Limits)
		f.options.SetText(editing.Options)
		f.why.SetText(wrapText("Changing the folder guesses the commands again. A change of folder or commands builds a new revision; "+
			"the revisions built so far stay.", 90))
	} else if names := gameNameList(); len(names) == 1 {
		f.game.SetSelected(names[0])
	}
	// A path typed or pasted guesses too, once typing pauses on a folder
	// (set after the fields are filled in: an edit keeps its commands
	// until the folder is changed).
	f.folder.OnChanged = func(string) {
		f.typedGen++
		gen := f.typedGen
		time.AfterFunc(typedFolderPause, func() { uiDo(func() { f.typedFolder(gen) }) })
	}
	if editing != nil {
		f.guessedDir = editing.SourceDir
	}
	guessBtn := widget.NewButton("Guess again", f.guess)
	folderRow := container.NewBorder(nil, nil, nil, guessBtn, folderPicker(s.u, f.folder, f.setFolder))
	form := widget.NewForm(
		widget.NewFormItem("Name", f.name),
		widget.NewFormItem("Game", f.game),
		widget.NewFormItem("Source folder", folderRow),
		widget.NewFormItem("Language", f.language),
		widget.NewFormItem("Build command", f.build),
		widget.NewFormItem("Run command", f.run),
		widget.NewFormItem("Sandbox caps", f.limits),
		widget.NewFormItem("Game options", container.NewVBox(f.options, f.optHint)),
	)
	hint := widget.NewLabel(wrapText("Commands are split into words like a shell does, but never run through one (write sh -c '…' for that). "+
		"Builds run in a copy of the folder; the run command runs in the built copy, so ./bot is the built program.", 100))
	hint.Importance = widget.LowImportance
	content := container.NewVBox(form, f.why, hint, f.watch, f.trusted, f.problem)
	f.cancel = widget.NewButton("Cancel", func() { f.dlg.Hide() })
	f.save = widget.NewButton(action, f.submit)
	f.save.Importance = widget.HighImportance
	f.dlg = dialog.NewCustomWithoutButtons(title, content, s.u.Win)
	f.dlg.SetButtons([]fyne.CanvasObject{f.cancel, f.save})
	f.dlg.Resize(dialogSize(s.u, 820, 620))
	return f
}

func (f *aiForm) show() { f.dlg.Show() }

// typedFolderPause is how long typing in the folder field pauses before
// the path is taken as meant: "/", "/home" and "/home/alice" on the way
// to /home/alice/bot are folders too.
const typedFolderPause = 700 * time.Millisecond

// typedFolder guesses for the folder typed, after typing paused (gen is
// that pause's; a later key makes it stale), when it names a folder not
// guessed already.
func (f *aiForm) typedFolder(gen int) {
	dir := strings.TrimSpace(f.folder.Text)
	if gen != f.typedGen || dir == f.guessedDir || !folderExists(dir) {
		return
	}
	f.guessedDir = dir
	if name := strings.TrimSpace(f.name.Text); name == "" || name == f.autoName {
		f.autoName = filepath.Base(dir)
		f.name.SetText(f.autoName)
	}
	f.guess()
}

// setFolder is what choosing a folder does: fill it in and guess.
func (f *aiForm) setFolder(dir string) {
	f.guessedDir = dir // guessed below, not again as the text changes
	f.folder.SetText(dir)
	if strings.TrimSpace(f.name.Text) == "" {
		f.name.SetText(filepath.Base(dir))
	}
	f.guess()
}

// guess looks at the folder's files off the UI thread and fills in the
// language and commands, which the user may then correct.
func (f *aiForm) guess() {
	dir := strings.TrimSpace(f.folder.Text)
	if dir == "" {
		f.setProblem("Choose the folder that holds the program's source files first.")
		return
	}
	f.guessGen++
	gen := f.guessGen
	f.why.SetText("Looking at the files in " + dir + "…")
	f.s.u.goWork(func() {
		g, err := f.s.u.Svc.Guess(dir, "")
		uiDo(func() {
			if gen != f.guessGen {
				return
			}
			if err != nil {
				f.why.SetText("")
				f.setProblem("Ringside could not guess how to build and run it: " + err.Error() +
					"\nFill in the run command (and the build command, if it needs one) yourself.")
				return
			}
			f.setProblem("")
			f.language.SetText(g.Language)
			f.build.SetText(g.Build)
			f.run.SetText(g.Run)
			f.why.SetText(wrapText("Guessed "+g.Language+": "+g.Why, 100))
		})
	})
}

func (f *aiForm) setProblem(text string) {
	// Always shown, empty when all is well: showing a hidden label in a
	// dialog that is already laid out would not move what follows it.
	f.problem.SetText(wrapText(text, 100))
}

// aiSpec checks that the form is filled in and returns what it says; the
// service checks the rest.
func (f *aiForm) aiSpec() (service.NewAI, error) {
	a := service.NewAI{
		Name: strings.TrimSpace(f.name.Text), Game: gameIDOf(f.game.Selected), Dir: strings.TrimSpace(f.folder.Text),
		Language: strings.TrimSpace(f.language.Text), Build: strings.TrimSpace(f.build.Text), BuildSet: true,
		Run: strings.TrimSpace(f.run.Text), Watch: f.watch.Checked,
		Trusted: f.trusted.Checked, Limits: strings.TrimSpace(f.limits.Text), Options: strings.TrimSpace(f.options.Text),
	}
	switch {
	case a.Name == "":
		return a, formProblem("Give the AI a name: the name shown in standings, e.g. alice.")
	case a.Game == "":
		return a, formProblem("Choose the game this AI plays.")
	case a.Dir == "":
		return a, formProblem("Choose the folder that holds the program's source files.")
	case a.Run == "":
		return a, formProblem("Say how to run the program (e.g. python3 bot.py, or ./bot for a built program), or press \"Guess again\".")
	}
	return a, nil
}

// formProblem is what the form lacks, said as a sentence to the teacher
// (not an error string to wrap).
type formProblem string

func (p formProblem) Error() string { return string(p) }

// submit registers or saves the AI off the UI thread, then builds it. A
// problem keeps the dialog open and says what to fix.
func (f *aiForm) submit() {
	a, err := f.aiSpec()
	if err != nil {
		f.setProblem(err.Error())
		return
	}
	f.setProblem("")
	f.save.Disable()
	f.why.SetText("Checking the commands…")
	s := f.s
	editing := f.editing
	s.u.goWork(func() {
		var id int64 // the AI saved
		var name string
		rebuild := true
		if editing == nil {
			var reg service.Registered
			reg, err = s.u.Svc.Register(a)
			id, name = reg.AI.ID, reg.AI.Name
		} else {
			var ed service.Edited
			ed, err = s.u.Svc.EditAI(editing.ID, service.AIEdit{Name: &a.Name, Game: &a.Game, Dir: &a.Dir,
				Build: &a.Build, Run: &a.Run, Language: &a.Language, Watch: &a.Watch, Trusted: &a.Trusted, Limits: &a.Limits,
				Options: &a.Options})
			id, name, rebuild = ed.AI.ID, ed.AI.Name, ed.Rebuild
		}
		uiDo(func() {
			f.save.Enable()
			if err != nil {
				f.why.SetText("")
				f.setProblem(sentence(err))
				return
			}
			f.dlg.Hide()
			s.selected = id
			switch {
			case editing == nil:
				s.say(name + " is added; building its first revision…")
				s.startBuild(id, name+" is added, but its first build failed.")
			case rebuild:
				s.say(name + " is saved; building it with the new settings…")
				s.startBuild(id, "")
			default:
				s.say(name + " is saved")
			}
		})
		s.reload()
	})
}

// optionsHint says, in one line, which game options an AI of game may
// carry and why one would.
func optionsHint(game string) string {
	switch {
	case game == "":
		return "Choose the game to see the options its AIs may set."
	case game == "grip":
		return "This AI's seat only: coords=rc|xy. coords=xy for a bot from the 2015 arena (positions x y)."
	case game == "battle2048":
		return "This AI's seat only: protocol=final|beta. protocol=beta for a bot written for the beta rules."
	case service.AIOptionsText(game) == "none":
		return "An AI of " + game + " cannot carry game options."
	}
	return "This AI's seat only: " + service.AIOptionsText(game) + "."
}

// sentence writes an error as a sentence for a form: capital first, full
// stop last.
func sentence(err error) string {
	msg := strings.TrimSpace(err.Error() + advice(err))
	if msg == "" {
		return msg
	}
	msg = strings.ToUpper(msg[:1]) + msg[1:]
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}

// ---- new from template ----

// templateForm copies a template bot into a new folder and registers it.
type templateForm struct {
	s *aisScreen

	game    *widget.Select
	lang    *widget.Select
	name    *widget.Entry
	folder  *widget.Entry
	watch   *widget.Check
	problem *widget.Label
	create  *widget.Button
	dlg     *dialog.CustomDialog
}

// templateLanguages lists the languages game has a template in.
func templateLanguages(game string) []string {
	var out []string
	for _, t := range service.Templates() {
		if g, l, _ := strings.Cut(t, "/"); g == game {
			out = append(out, l)
		}
	}
	return out
}

func newTemplateForm(s *aisScreen) *templateForm {
	f := &templateForm{s: s}
	f.lang = widget.NewSelect(nil, nil)
	f.lang.PlaceHolder = "(choose a language)"
	f.game = widget.NewSelect(gameNameList(), func(g string) {
		langs := templateLanguages(gameIDOf(g))
		keep := f.lang.Selected
		f.lang.Options = langs
		f.lang.ClearSelected()
		for _, l := range langs {
			if l == keep {
				f.lang.SetSelected(l)
			}
		}
		f.lang.Refresh()
	})
	f.game.PlaceHolder = "(choose the game)"
	f.name = newEntry("the name in standings, e.g. alice")
	f.folder = newEntry("a new or empty folder for the bot's files")
	f.watch = widget.NewCheck("Watch: rebuild it whenever a file in its folder is saved", nil)
	f.watch.SetChecked(true)
	f.problem = widget.NewLabel("")
	f.problem.Importance = widget.DangerImportance
	form := widget.NewForm(
		widget.NewFormItem("Game", f.game),
		widget.NewFormItem("Language", f.lang),
		widget.NewFormItem("Name", f.name),
		widget.NewFormItem("Folder", folderPicker(s.u, f.folder, f.setFolder)),
	)
	hint := widget.NewLabel(wrapText("Ringside copies a small working bot into the folder, registers it and builds it. "+
		"The folder must be new or empty so nothing is overwritten; choosing a folder that has files puts the bot "+
		"in a new folder inside it, named after the AI.", 90))
	hint.Importance = widget.LowImportance
	f.create = widget.NewButton("Create and build", f.submit)
	f.create.Importance = widget.HighImportance
	cancel := widget.NewButton("Cancel", func() { f.dlg.Hide() })
	f.dlg = dialog.NewCustomWithoutButtons("New AI from a template", container.NewVBox(form, hint, f.watch, f.problem), s.u.Win)
	f.dlg.SetButtons([]fyne.CanvasObject{cancel, f.create})
	f.dlg.Resize(dialogSize(s.u, 760, 420))
	if names := gameNameList(); len(names) > 0 {
		f.game.SetSelected(names[0])
	}
	f.lang.SetSelected("python")
	return f
}

func (f *templateForm) show() { f.dlg.Show() }

// setFolder takes a chosen folder: an empty one as it is, otherwise a new
// folder inside it named after the AI.
func (f *templateForm) setFolder(dir string) {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		name := strings.TrimSpace(f.name.Text)
		if name == "" {
			name = gameIDOf(f.game.Selected) + "-" + f.lang.Selected
		}
		dir = filepath.Join(dir, name)
	}
	f.folder.SetText(dir)
}

func (f *templateForm) setProblem(text string) {
	f.problem.SetText(wrapText(text, 90))
}

func (f *templateForm) submit() {
	game, lang := gameIDOf(f.game.Selected), f.lang.Selected
	name, dir := strings.TrimSpace(f.name.Text), strings.TrimSpace(f.folder.Text)
	switch {
	case game == "":
		f.setProblem("Choose the game the bot plays.")
		return
	case lang == "":
		f.setProblem("Choose the language of the bot.")
		return
	case name == "":
		f.setProblem("Give the AI a name: the name shown in standings, e.g. alice.")
		return
	case strings.HasPrefix(name, service.BuiltinPrefix):
		f.setProblem(fmt.Sprintf("The name %q starts with %q, which is kept for Ringside's own bots: choose another name.", name, service.BuiltinPrefix))
		return
	case dir == "":
		f.setProblem("Choose a new or empty folder for the bot's files.")
		return
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		f.setProblem(err.Error())
		return
	}
	f.setProblem("")
	f.create.Disable()
	s := f.s
	watch := f.watch.Checked
	s.u.goWork(func() {
		reg, err := s.u.Svc.NewFromTemplate(name, game, lang, abs, watch)
		ai := reg.AI
		uiDo(func() {
			f.create.Enable()
			if err != nil {
				f.setProblem(sentence(err))
				return
			}
			f.dlg.Hide()
			s.selected = ai.ID
			s.say(fmt.Sprintf("%s: the %s template for %s is in %s; building it…", ai.Name, lang, game, abs))
			s.startBuild(ai.ID, ai.Name+" is created, but its first build failed.")
		})
		s.reload()
	})
}

// ---- revisions ----

// revisionsColumns are the revisions list's columns and their widths.
var revisionsColumns = []column{
	{"Revision", 90}, {"Hash", 140}, {"Status", 80}, {"Built", 170}, {"Folder or first error", 420},
}

// showRevisionsDialog lists every build of ai, newest first, with the
// chosen one's log, a button that pins it (or unpins the AI), and a pair
// of revisions to compare with "Show changes".
func showRevisionsDialog(s *aisScreen, ai service.AIInfo) {
	s.u.goWork(func() {
		st, err := s.u.Svc.AIView(ai.ID)
		uiDo(func() {
			if err != nil {
				s.u.showError("Cannot read the revisions of "+ai.Name, err)
				return
			}
			s.revsView = newRevisionsView(s, st)
			s.revsView.show()
		})
	})
}

// revisionsView is the revisions dialog's content.
type revisionsView struct {
	s    *aisScreen
	u    *UI
	ai   service.AIInfo
	revs []service.RevisionInfo // newest first
	list *widget.List
	head *widget.Label
	log  *widget.Label
	dlg  *dialog.CustomDialog

	row      int           // the chosen row, -1 for none
	pinState *widget.Label // which revision plays
	pin      *widget.Button
	from, to *widget.Select // the revisions "Show changes" compares
	changes  *widget.Button
	diff     *diffDialog // the last one shown, for tests
}

func newRevisionsView(s *aisScreen, st service.AIView) *revisionsView {
	u, ai := s.u, st.AI
	v := &revisionsView{s: s, u: u, ai: ai, row: -1}
	var numbers []string
	for i := len(st.Revisions) - 1; i >= 0; i-- {
		r := st.Revisions[i]
		v.revs = append(v.revs, r)
		if r.Status == service.BuildOK {
			numbers = append(numbers, fmt.Sprintf("r%d", r.Number))
		}
	}
	header, list, _ := newColumnList(revisionsColumns, func() int { return len(v.revs) }, func(i int, cells []*widget.Label) {
		r := v.revs[i]
		for c, l := range cells {
			l.Importance = widget.MediumImportance
			if r.Status == service.BuildFailed && (c == 2 || c == 4) {
				l.Importance = widget.DangerImportance
			}
			text := revisionCell(r, c)
			if c == 0 && r.ID != 0 {
				switch {
				case r.ID == v.ai.Pinned:
					text += " · pinned"
					l.Importance = widget.HighImportance
				case r.ID == v.ai.Current:
					text += " · current"
				}
			}
			l.Text = text
		}
	})
	v.list = list
	v.head = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.log = newLogText("")
	v.list.OnSelected = v.choose
	v.pinState = widget.NewLabel("")
	v.pin = widget.NewButtonWithIcon("Pin this revision", theme.MediaPauseIcon(), v.onPin)
	v.from = widget.NewSelect(numbers, nil)
	v.to = widget.NewSelect(numbers, nil)
	v.from.PlaceHolder, v.to.PlaceHolder = "(older)", "(newer)"
	v.changes = widget.NewButtonWithIcon("Show changes", theme.SearchIcon(), v.onChanges)
	v.from.OnChanged = func(string) { v.enable() }
	v.to.OnChanged = func(string) { v.enable() }
	var content fyne.CanvasObject
	if len(v.revs) == 0 {
		content = widget.NewLabel(ai.Name + " has never been built: press Build now.")
	} else {
		tools := container.NewHBox(v.pin, widget.NewSeparator(), widget.NewLabel("Compare"), v.from, widget.NewLabel("with"), v.to, v.changes)
		top := container.NewBorder(container.NewVBox(v.pinState, tools), nil, nil, nil, container.NewBorder(header, nil, nil, nil, v.list))
		split := container.NewVSplit(top, container.NewBorder(v.head, nil, nil, nil, container.NewScroll(v.log)))
		split.Offset = 0.5
		content = split
	}
	v.dlg = dialog.NewCustom(fmt.Sprintf("Revisions of %s: %d build(s), newest first", ai.Name, len(v.revs)), "Close", content, u.Win)
	v.dlg.Resize(dialogSize(u, 1000, 680))
	v.showPin()
	if len(v.revs) > 0 {
		v.list.Select(0)
	}
	return v
}

func (v *revisionsView) show() { v.dlg.Show() }

// choose shows the chosen build's log and makes it the newer side of the
// comparison, with the successful build before it as the older side.
func (v *revisionsView) choose(row int) {
	if row < 0 || row >= len(v.revs) {
		return
	}
	v.row = row
	r := v.revs[row]
	what := "Failed build"
	if r.Status == service.BuildOK {
		what = fmt.Sprintf("Revision %d", r.Number)
		v.to.SetSelected(fmt.Sprintf("r%d", r.Number))
		v.from.ClearSelected()
		for _, older := range v.revs[row+1:] {
			if older.Status == service.BuildOK {
				v.from.SetSelected(fmt.Sprintf("r%d", older.Number))
				break
			}
		}
	}
	v.head.SetText(fmt.Sprintf("%s (%s), %s: build log", what, service.ShortHash(r.Hash), r.Created.Format("2006-01-02 15:04:05")))
	text := r.BuildLog
	if strings.TrimSpace(text) == "" {
		text = "(nothing was printed)"
	}
	v.log.SetText(strings.TrimRight(text, "\n"))
	v.showPin()
}

// showPin says which revision plays and labels the pin button for the
// chosen row: pin it, or unpin when it is the pinned one.
func (v *revisionsView) showPin() {
	pinned := ""
	for _, r := range v.revs {
		if r.ID == v.ai.Pinned {
			pinned = fmt.Sprintf("r%d", r.Number)
		}
	}
	if pinned == "" {
		v.pinState.SetText("Not pinned: events play the current revision, the newest one that built (or the one the sources are back to).")
	} else {
		v.pinState.SetText("Pinned to " + pinned + ": events play it while new saves go on being built. Unpin to play the current revision again.")
	}
	v.enable()
}

func (v *revisionsView) enable() {
	ok := v.row >= 0 && v.row < len(v.revs) && v.revs[v.row].Status == service.BuildOK
	if ok && v.revs[v.row].ID == v.ai.Pinned {
		v.pin.SetText("Unpin")
	} else {
		v.pin.SetText("Pin this revision")
	}
	setEnabled(v.pin, ok || v.ai.Pinned != 0 && v.row < 0)
	setEnabled(v.changes, v.from.Selected != "" && v.to.Selected != "")
}

// onPin pins the AI to the chosen revision, or unpins it when the chosen
// revision is its pin.
func (v *revisionsView) onPin() {
	if v.row < 0 || v.row >= len(v.revs) {
		return
	}
	r := v.revs[v.row]
	id := v.ai.ID
	unpin := r.ID == v.ai.Pinned
	v.u.goWork(func() {
		var err error
		if unpin {
			_, err = v.u.Svc.UnpinAI(id)
		} else {
			_, err = v.u.Svc.PinAI(id, r.Number)
		}
		st, rerr := v.u.Svc.AIView(id)
		uiDo(func() {
			if err == nil {
				err = rerr
			}
			if err != nil {
				v.u.showError("Cannot pin "+v.ai.Name, err)
				return
			}
			v.ai = st.AI
			v.list.Refresh()
			v.showPin()
			if unpin {
				v.s.say(v.ai.Name + " is no longer pinned: its current revision plays")
			} else {
				v.s.say(fmt.Sprintf("%s is pinned to revision %d: events play it; new builds wait", v.ai.Name, r.Number))
			}
		})
		v.s.reload()
	})
}

// onChanges compares the two chosen revisions off the UI thread.
func (v *revisionsView) onChanges() {
	from, err1 := service.ParseRevision(v.from.Selected)
	to, err2 := service.ParseRevision(v.to.Selected)
	if err1 != nil || err2 != nil {
		return
	}
	id := v.ai.ID
	v.u.goWork(func() {
		d, err := v.u.Svc.DiffRevisions(id, from, to)
		uiDo(func() {
			if err != nil {
				v.u.showError("Cannot compare the revisions", err)
				return
			}
			v.diff = showDiffDialog(v.u, d)
		})
	})
}

// diffDialog shows what changed between two revisions: the files with
// their line counts, then the unified diff of the text files.
type diffDialog struct {
	dlg   *dialog.CustomDialog
	files []string // the file list's lines
	text  string   // the diffs
}

func showDiffDialog(u *UI, d service.RevisionDiff) *diffDialog {
	dd := &diffDialog{}
	for _, f := range d.Files {
		dd.files = append(dd.files, fmt.Sprintf("%-8s %s  (%s)", f.Kind, f.Path, service.ChangeText(f)))
	}
	var b strings.Builder
	for _, f := range d.Files {
		if f.Unified != "" {
			b.WriteString(f.Unified)
			b.WriteString("\n")
		}
	}
	dd.text = b.String()
	head := fmt.Sprintf("%d file(s) changed, %d the same.", len(d.Files), d.Same)
	if len(d.Files) == 0 {
		head = fmt.Sprintf("The two revisions have the same %d file(s).", d.Same)
	}
	list := newLogText(strings.Join(dd.files, "\n"))
	if len(dd.files) == 0 {
		list = newLogText("(no file changed)")
	}
	diffText := newLogText(dd.text)
	if dd.text == "" {
		diffText = newLogText("(no text file changed)")
	}
	split := container.NewVSplit(container.NewScroll(list), container.NewScroll(diffText))
	split.Offset = 0.25
	content := container.NewBorder(widget.NewLabel(head), nil, nil, nil, split)
	dd.dlg = dialog.NewCustom(fmt.Sprintf("Changes in %s from r%d to r%d", d.AI.Name, d.From.Number, d.To.Number), "Close", content, u.Win)
	dd.dlg.Resize(dialogSize(u, 1000, 700))
	dd.dlg.Show()
	return dd
}

// filesDialog shows which files of an AI's folder make its revisions and
// which are left out, with why.
type filesDialog struct {
	dlg       *dialog.CustomDialog
	kept, out []string
}

func showFilesDialog(u *UI, r aiRow, src service.Sources) *filesDialog {
	fd := &filesDialog{}
	var body fyne.CanvasObject
	name := service.Visible(r.AI.Name)
	head := fmt.Sprintf("The files of %s that a build takes now (the folder as it is); revision folders hold these and what the build makes.", name)
	if cur := r.Current; cur != nil {
		head += fmt.Sprintf(" Current revision: r%d, built %s.", cur.Number, service.WhenText(cur.Created))
	}
	if src.Problem != "" {
		body = widget.NewLabel("The folder cannot be listed: " + service.Visible(src.Problem))
	} else {
		// One line per file, whatever its name holds (a newline, an
		// escape sequence, U+202E): service.Visible.
		for _, f := range src.Files {
			fd.kept = append(fd.kept, service.Visible(f))
		}
		for _, l := range src.LeftOut {
			fd.out = append(fd.out, fmt.Sprintf("%s\n    %s", service.Visible(l.Path), service.Visible(l.Why)))
		}
		kept := newLogText(strings.Join(fd.kept, "\n"))
		if len(fd.kept) == 0 {
			kept = newLogText("(no file: nothing would build)")
		}
		out := newLogText(strings.Join(fd.out, "\n"))
		if len(fd.out) == 0 {
			out = newLogText("(nothing is left out)")
		}
		keptBox := container.NewBorder(widget.NewLabelWithStyle(fmt.Sprintf("%d file(s) make a revision", len(fd.kept)),
			fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, nil, nil, container.NewScroll(kept))
		outBox := container.NewBorder(widget.NewLabelWithStyle(fmt.Sprintf("%d left out, with why", len(fd.out)),
			fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, nil, nil, container.NewScroll(out))
		split := container.NewHSplit(keptBox, outBox)
		split.Offset = 0.3
		body = split
	}
	hint := widget.NewLabel(wrapText("Left out: version control, caches and editor files, build outputs, what .gitignore or "+
		".ringsideignore leave out, and data files (*.csv, *.txt, *.log, …) unless a command names them or a line such as "+
		"!book.txt in .ringsideignore keeps them.", 120))
	hint.Importance = widget.LowImportance
	content := container.NewBorder(widget.NewLabel(wrapText(head, 120)), hint, nil, nil, body)
	fd.dlg = dialog.NewCustom("Files of "+name, "Close", content, u.Win)
	fd.dlg.Resize(dialogSize(u, 960, 600))
	fd.dlg.Show()
	return fd
}

// revisionCell is what the revisions list shows in column col of r.
func revisionCell(r service.RevisionInfo, col int) string {
	switch col {
	case 0:
		if r.Status == service.BuildOK {
			return fmt.Sprintf("r%d", r.Number)
		}
		return "—"
	case 1:
		return service.ShortHash(r.Hash)
	case 2:
		return string(r.Status)
	case 3:
		return r.Created.Format("2006-01-02 15:04:05")
	case 4:
		if r.Status == service.BuildOK {
			return r.ArtifactDir
		}
		return service.FirstError(r.BuildLog)
	}
	return ""
}

// ---- check ----

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
	// details, when set, are behind a button on the row: the sandbox's
	// whole report, which a teacher need not read.
	details string
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
		return []checkRow{{what: "builds", text: res.BuildErr.Error()}}, ""
	case res.Build.Failed():
		return []checkRow{{what: "builds", text: "the build failed: " + service.FirstError(res.Build.Rev.BuildLog)}}, res.Build.Rev.BuildLog
	}
	rows = append(rows, checkRow{what: "builds", ok: true, text: fmt.Sprintf("ok: revision %d (%s) plays", res.Revision.Number,
		service.ShortHash(res.Revision.Hash))})
	if res.Sandbox != "" {
		rows = append(rows, checkRow{what: "sandbox", ok: !strings.Contains(res.Sandbox, "partial") && !strings.Contains(res.Sandbox, "off"),
			text: strings.TrimPrefix(service.SandboxHeadline(res.Sandbox), "Sandbox: "), details: res.SandboxReport})
	}
	if opts := res.Build.AI.Options; opts != "" {
		rows = append(rows, checkRow{what: "game options", ok: true, text: service.AIOptionsShown(opts)})
	}
	if res.Report == nil {
		return rows, ""
	}
	for _, it := range res.Report.Items {
		rows = append(rows, checkRow{what: it.What, ok: it.OK, text: it.Text})
	}
	for _, w := range res.Warnings {
		text := w.Text
		if w.Option != "" {
			text += " If that is it: Edit, and write " + w.Option + " under Game options."
		}
		rows = append(rows, checkRow{what: "warning", ok: true, text: text})
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
	head := "Short games against the game's random built-in bots went well: it starts, answers in time and answers validly."
	if !res.Passed() {
		head = "Fix the first problem below, save, and press Check again. This is what the program did in short games against the game's built-in bots."
	}
	grid := container.NewVBox()
	for _, r := range d.rows {
		icon := widget.NewIcon(theme.ConfirmIcon())
		if r.what == "warning" {
			icon = widget.NewIcon(theme.NewWarningThemedResource(theme.WarningIcon()))
		}
		if !r.ok {
			icon = widget.NewIcon(theme.NewErrorThemedResource(theme.CancelIcon()))
		}
		what := widget.NewLabelWithStyle(r.what, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		text := widget.NewLabel(r.text)
		text.Wrapping = fyne.TextWrapWord
		if !r.ok {
			text.Importance = widget.DangerImportance
		}
		if r.what == "warning" {
			text.Importance = widget.WarningImportance
		}
		var more fyne.CanvasObject
		if r.details != "" {
			details := r.details
			more = widget.NewButton("Details…", func() { showSandboxDetails(u, details) })
		}
		grid.Add(container.NewBorder(nil, nil, container.NewHBox(icon, what), more, text))
	}
	if played := res.PlayedWords(); played != "" {
		grid.Add(widget.NewLabel(wrapText("It played "+played+".", 110)))
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
