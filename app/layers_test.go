package app

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// layer is a dependency rule: the packages under dir (itself and below,
// except those in skip) may not import what forbid matches. With
// nonTest, only the non-test files are checked.
type layer struct {
	dir     string
	skip    []string
	nonTest bool
	why     string
	forbid  func(imp string) bool
}

func isRingside(p string) bool { return p == "ringside" || strings.HasPrefix(p, "ringside/") }

// under reports whether import path imp is pkg or below it.
func under(imp, pkg string) bool { return imp == pkg || strings.HasPrefix(imp, pkg+"/") }

func isStdlib(imp string) bool {
	first, _, _ := strings.Cut(imp, "/")
	return !strings.Contains(first, ".") && !isRingside(imp)
}

func isFyne(imp string) bool { return strings.HasPrefix(imp, "fyne.io/") }

// layers are Ringside's dependency rules: the rules know nothing but the
// standard library; the runner and storage know no UI and not each other;
// the service layer and the CLI know no Fyne; the drawing widgets know no
// storage, runner or use case; no GUI file reaches into the CLI.
var layers = []layer{
	{dir: "engine", why: "engine imports only the standard library and engine",
		forbid: func(imp string) bool { return !isStdlib(imp) && !under(imp, "ringside/engine") }},
	{dir: "runner", why: "runner imports no Fyne, no storage and no app",
		forbid: func(imp string) bool {
			return isFyne(imp) || under(imp, "ringside/storage") || under(imp, "ringside/app")
		}},
	{dir: "storage", why: "storage imports no Fyne, no runner and no app",
		forbid: func(imp string) bool {
			return isFyne(imp) || under(imp, "ringside/runner") || under(imp, "ringside/app")
		}},
	{dir: "app/service", why: "the service layer imports no Fyne and no front end",
		forbid: func(imp string) bool { return isFyne(imp) || imp == "ringside/app" || under(imp, "ringside/app/cli") }},
	{dir: "app/cli", why: "the CLI imports no Fyne and not the GUI",
		forbid: func(imp string) bool { return isFyne(imp) || imp == "ringside/app" }},
	// Its tests may still start bots and build fixtures with the runner.
	{dir: "app/class", nonTest: true, why: "the class server (non-test) imports no storage and no runner (app/service is its door to data), and not the GUI or the CLI",
		forbid: func(imp string) bool {
			return under(imp, "ringside/storage") || under(imp, "ringside/runner") || imp == "ringside/app" || under(imp, "ringside/app/cli")
		}},
	{dir: "app/chart", why: "widgets import no storage, runner or use case",
		forbid: widgetForbids},
	{dir: "app/replay", why: "widgets import no storage, runner or use case",
		forbid: widgetForbids},
	{dir: "app/internal/paint", why: "widgets import no storage, runner or use case",
		forbid: widgetForbids},
	{dir: "app", skip: appSubpackages,
		why:    "no GUI file imports the CLI",
		forbid: func(imp string) bool { return under(imp, "ringside/app/cli") }},
	// The GUI's data comes through the service's view models only. Its
	// tests may still build fixtures with storage (and start bots with
	// the runner), so test files are not checked.
	{dir: "app", skip: appSubpackages, nonTest: true,
		// The event-creation form loses its runner import in the branch
		// that gives every default one place (h-defaults): remove this
		// when it is merged.
		why:    "GUI files (non-test) import no storage and no runner: app/service is their only door to data",
		forbid: func(imp string) bool { return under(imp, "ringside/storage") || under(imp, "ringside/runner") }},
}

// appSubpackages are the packages under app that are not the GUI.
var appSubpackages = []string{"app/service", "app/cli", "app/chart", "app/replay", "app/internal"}

func widgetForbids(imp string) bool {
	return under(imp, "ringside/storage") || under(imp, "ringside/runner") || under(imp, "ringside/app/service") ||
		under(imp, "ringside/app/cli") || imp == "ringside/app"
}

// TestLayers parses every Go file of the module and checks its imports
// against the layers' rules.
func TestLayers(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// checked counts the files each rule checked (two rules may share a
	// folder).
	checked := make([]int, len(layers))
	for i, l := range layers {
		base := filepath.Join(root, filepath.FromSlash(l.dir))
		err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if rel != l.dir && (slices.Contains(l.skip, rel) || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".go") || (l.nonTest && strings.HasSuffix(p, "_test.go")) {
				return nil
			}
			f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			checked[i]++
			for _, spec := range f.Imports {
				imp, _ := strconv.Unquote(spec.Path.Value)
				if l.forbid(imp) {
					t.Errorf("%s imports %s: %s", rel, imp, l.why)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// A rule that checks nothing is a rule on a renamed folder.
	for i, l := range layers {
		if checked[i] == 0 {
			t.Errorf("no Go files checked under %s: update the layers to the tree", l.dir)
		}
	}
	if t.Failed() {
		return
	}
	for i, l := range layers {
		t.Logf("%s: %d files checked (%s)", l.dir, checked[i], l.why)
	}
}
