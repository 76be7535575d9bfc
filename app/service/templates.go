package service

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"ringside/assets"
)

// Templates names every template bot as GAME/LANGUAGE.
func Templates() []string {
	var out []string
	gameDirs, _ := fs.ReadDir(assets.Templates, "templates")
	for _, g := range gameDirs {
		langs, _ := fs.ReadDir(assets.Templates, "templates/"+g.Name())
		for _, l := range langs {
			out = append(out, g.Name()+"/"+l.Name())
		}
	}
	sort.Strings(out)
	return out
}

// TemplateLanguages lists the languages game has a template in.
func TemplateLanguages(game string) []string {
	var out []string
	for _, t := range Templates() {
		if g, l, _ := strings.Cut(t, "/"); g == game {
			out = append(out, l)
		}
	}
	return out
}

// CopyTemplate writes the template of game and lang into dir, which must
// be new or empty so that nobody's work is overwritten.
func CopyTemplate(game, lang, dir string) error {
	root := "templates/" + game + "/" + lang
	if _, err := fs.Stat(assets.Templates, root); err != nil {
		return Errorf(Invalid, "no template for game %q in language %q (templates: %s)", game, lang, strings.Join(Templates(), ", "))
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return Errorf(Conflict, "%s is not empty; give a new or empty folder so nothing is overwritten", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return wrap(Failed, err, "copy the template into %s", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return wrap(Failed, err, "copy the template")
	}
	return fs.WalkDir(assets.Templates, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		if rel == "" {
			return nil
		}
		to := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(rel, ".template")))
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := assets.Templates.ReadFile(p)
		if err != nil {
			return err
		}
		mode := fs.FileMode(0o644)
		if strings.HasPrefix(string(data), "#!") {
			mode = 0o755
		}
		if err := os.WriteFile(to, data, mode); err != nil {
			return wrap(Failed, err, "write %s", path.Base(to))
		}
		return nil
	})
}

// NewFromTemplate copies the template of game and lang into dir and
// registers it as name. Like Register, it does not build.
func (s *Service) NewFromTemplate(name, game, lang, dir string, watch bool) (Registered, error) {
	name = strings.TrimSpace(name)
	if err := checkAIName(name); err != nil {
		return Registered{}, err
	}
	// Before copying, so a taken name leaves no folder behind.
	if old, err := s.db.AIByName(name); err == nil {
		return Registered{}, Errorf(Conflict, "an AI named %q already exists: choose another name, or change that AI", old.Name).withFix(FixEdit, old.Name)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Registered{}, Errorf(Invalid, "folder %s: %v", dir, err)
	}
	if err := CopyTemplate(game, lang, abs); err != nil {
		return Registered{}, err
	}
	reg, err := s.Register(NewAI{Name: name, Game: game, Dir: abs, Watch: watch})
	if err != nil {
		return Registered{}, wrap(Failed, err, "the template is in %s, but it cannot be registered", abs)
	}
	return reg, nil
}
