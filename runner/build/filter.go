package build

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"ringside/runner"
)

// IgnoreFile is the file of a source folder, beside .gitignore and in the
// same simple form, that says what of the folder is not the bot's source.
const IgnoreFile = ".ringsideignore"

// DataPatterns are the files left out of a revision by default: data,
// logs, documents and archives a student keeps beside the sources (game
// logs, results, notes), which neither build nor run the bot. A file the
// build or run command names is kept, and so is one a "!" line of
// .ringsideignore or .gitignore brings back (e.g. "!book.txt").
var DataPatterns = []string{"*.csv", "*.tsv", "*.log", "*.txt", "*.out", "*.md", "*.pdf",
	"*.png", "*.jpg", "*.jpeg", "*.gif", "*.zip", "*.tar", "*.gz", "*.tgz", "*.7z", "*.rar"}

// keptNames are build files that a data pattern would leave out.
var keptNames = map[string]bool{"CMakeLists.txt": true, "requirements.txt": true}

// ignoreRule is one line of .gitignore or .ringsideignore.
type ignoreRule struct {
	pattern  string
	negate   bool // "!pattern": keep what an earlier line left out
	dirOnly  bool // "pattern/": folders only
	anchored bool // has a slash: matched against the whole relative path
	line     string
	file     string
}

// Filter decides which files of a source folder make an AI's revision:
// never version control, caches or editor files (see Ignored); not the
// build's outputs when it builds; not what the folder's .gitignore or
// .ringsideignore leave out (simple glob lines: # comments, ! to keep, a
// trailing / for folders, a slash inside to match from the folder's top,
// ** for any number of folders); and not the data and output files of
// DataPatterns, unless a command names them.
type Filter struct {
	building bool
	output   string          // the run program, relative, when a build makes it
	named    map[string]bool // relative paths the commands name
	rules    []ignoreRule
}

// NewFilter reads dir's .gitignore and .ringsideignore (at its top) for
// an AI with these commands. Missing files are no rules.
func NewFilter(dir, build, run string) (*Filter, error) {
	f := &Filter{building: strings.TrimSpace(build) != "", named: map[string]bool{}}
	for _, cmd := range []string{build, run} {
		argv, err := runner.Split(cmd)
		if err != nil {
			continue
		}
		for _, w := range argv {
			if !filepath.IsAbs(w) && !strings.ContainsAny(w, "*?[") {
				f.named[path.Clean(filepath.ToSlash(w))] = true
			}
		}
	}
	if f.building {
		if argv, err := runner.Split(run); err == nil && len(argv) > 0 && !filepath.IsAbs(argv[0]) && strings.Contains(filepath.ToSlash(argv[0]), "/") {
			f.output = path.Clean(filepath.ToSlash(argv[0]))
		}
	}
	for _, name := range []string{".gitignore", IgnoreFile} {
		rules, err := readIgnoreFile(filepath.Join(dir, name), name)
		if err != nil {
			return nil, err
		}
		f.rules = append(f.rules, rules...)
	}
	return f, nil
}

// readIgnoreFile reads one ignore file. Only a regular file is opened: a
// pipe, device or link of that name is no rules (SourceFiles lists it as
// left out), so a FIFO named .gitignore cannot hold a build for ever.
func readIgnoreFile(p, name string) ([]ignoreRule, error) {
	fl, _, err := openRegular(p)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotRegular) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	defer fl.Close()
	var rules []ignoreRule
	sc := bufio.NewScanner(io.LimitReader(fl, maxIgnoreFile))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \t\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r := ignoreRule{line: line, file: name}
		pat := line
		if strings.HasPrefix(pat, "!") {
			r.negate, pat = true, pat[1:]
		}
		pat = strings.TrimPrefix(pat, `\`) // \# and \! stand for themselves
		if strings.HasSuffix(pat, "/") {
			r.dirOnly, pat = true, strings.TrimRight(pat, "/")
		}
		if strings.Contains(pat, "/") {
			r.anchored, pat = true, strings.TrimPrefix(pat, "/")
		}
		if pat == "" {
			continue
		}
		if _, err := path.Match(pat, "x"); err != nil {
			return nil, fmt.Errorf("%s: the line %q is not a pattern Ringside can read: %v", p, line, err)
		}
		r.pattern = pat
		rules = append(rules, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	return rules, nil
}

func (r ignoreRule) match(rel string, isDir bool) bool {
	if r.dirOnly && !isDir {
		return false
	}
	if r.anchored {
		ok, _ := globMatch(r.pattern, rel)
		return ok
	}
	ok, _ := path.Match(r.pattern, path.Base(rel))
	return ok
}

// Skip reports whether a path (relative, with slashes) is left out.
func (f *Filter) Skip(rel string, isDir bool) bool { return f.Why(rel, isDir) != "" }

// Why says why a path is left out, "" when it is kept.
func (f *Filter) Why(rel string, isDir bool) string {
	if Ignored(rel, isDir, f.building) {
		return "build output, version control or an editor's file"
	}
	if !isDir && f.output != "" && rel == f.output {
		return "the program the build makes"
	}
	if f.named[rel] {
		return ""
	}
	// The last line that matches decides, as in git.
	for i := len(f.rules) - 1; i >= 0; i-- {
		r := f.rules[i]
		if r.match(rel, isDir) {
			if r.negate {
				return ""
			}
			return fmt.Sprintf("%s: %s", r.file, r.line)
		}
	}
	if isDir || keptNames[path.Base(rel)] {
		return ""
	}
	for _, p := range DataPatterns {
		if ok, _ := path.Match(p, strings.ToLower(path.Base(rel))); ok {
			return "data or output file (" + p + "); a line !" + rel + " in " + IgnoreFile + " keeps it"
		}
	}
	return ""
}

// LeftOut is a file of a source folder that is not part of a revision.
type LeftOut struct {
	Path, Why string
}

// SourceFiles lists, sorted, the files of dir that make a revision of an
// AI with these commands, and those left out with the reason (inside a
// folder left out as a whole, only the folder is named).
func SourceFiles(dir, build, run string) (kept []string, left []LeftOut, err error) {
	f, err := NewFilter(dir, build, run)
	if err != nil {
		return nil, nil, err
	}
	skip := func(rel string, isDir bool) bool {
		why := f.Why(rel, isDir)
		if why == "" {
			return false
		}
		if isDir {
			rel += "/"
		}
		left = append(left, LeftOut{rel, why})
		return true
	}
	err = walkTree(dir, skip, func(rel string, d fs.DirEntry) error {
		if why := Special(d.Type()); why != "" {
			left = append(left, LeftOut{rel, why})
		} else if !d.IsDir() {
			kept = append(kept, rel)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("list the sources of %s: %w", dir, err)
	}
	sort.Strings(kept)
	return kept, left, nil
}
