package build

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"ringside/runner"
)

// Guess is what Ringside makes of a source folder: the language, how to
// build it and how to run it, with the reasons in plain words.
type Guess struct {
	Language string // "go", "c", "cpp", "java", "rust", "python", "javascript", …
	Build    string // "" when nothing needs building
	Run      string // run from the built folder
	Why      string // one or two sentences a person can check
}

// scriptLangs maps a script's extension to its language and interpreter.
var scriptLangs = []struct{ ext, lang, interp string }{
	{".py", "python", "python3"},
	{".js", "javascript", "node"},
	{".mjs", "javascript", "node"},
	{".rb", "ruby", "ruby"},
	{".pl", "perl", "perl"},
	{".php", "php", "php"},
	{".lua", "lua", "lua"},
	{".sh", "shell", "sh"},
}

// GuessCommands looks at a folder's files and guesses how to build and run
// the program in it. It fails, saying what it looked for, when it finds
// nothing it knows.
func GuessCommands(dir string) (Guess, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return Guess{}, fmt.Errorf("source folder %s: %w", dir, notFoundHint(err))
	}
	if !st.IsDir() {
		return Guess{}, fmt.Errorf("source folder %s is a file, not a folder: give the folder that holds the sources", dir)
	}
	top, all, err := listSources(dir)
	if err != nil {
		return Guess{}, err
	}
	has := func(name string) bool { return top[name] }
	withExt := func(files map[string]bool, exts ...string) []string {
		var out []string
		for f := range files {
			for _, e := range exts {
				if strings.HasSuffix(f, e) {
					out = append(out, f)
				}
			}
		}
		sort.Strings(out)
		return out
	}

	switch {
	case has("go.mod"):
		return Guess{Language: "go", Build: "go build -o bot .", Run: "./bot",
			Why: "go.mod found: a Go module, built with go build into ./bot."}, nil
	case has("Cargo.toml"):
		name := cargoName(filepath.Join(dir, "Cargo.toml"))
		why := fmt.Sprintf("Cargo.toml found: a Rust package %q, built with cargo in release mode.", name)
		if name == "" {
			name = "bot"
			why = "Cargo.toml found, but no package name in it: assuming the program is called bot."
		}
		return Guess{Language: "rust", Build: "cargo build --release", Run: "target/release/" + name, Why: why}, nil
	case has("Makefile") || has("makefile") || has("GNUmakefile"):
		mk := "Makefile"
		for _, n := range []string{"GNUmakefile", "makefile", "Makefile"} {
			if has(n) {
				mk = n
			}
		}
		lang := "c"
		if len(withExt(all, ".cpp", ".cc", ".cxx", ".C")) > 0 {
			lang = "cpp"
		}
		prog, named := makeTarget(filepath.Join(dir, mk))
		why := fmt.Sprintf("%s found: built with make; it names the program %s.", mk, prog)
		if !named {
			why = fmt.Sprintf("%s found: built with make; it does not clearly name its program, so Ringside runs ./bot (give --run if it is another).", mk)
		}
		return Guess{Language: lang, Build: "make", Run: "./" + prog, Why: why}, nil
	}
	if gos := withExt(top, ".go"); len(gos) > 0 {
		return Guess{Language: "go", Build: "go build -o bot *.go", Run: "./bot",
			Why: "Go files without go.mod: the .go files of the folder are built as one program into ./bot (run \"go mod init bot\" there to build it as a module)."}, nil
	}
	if cpps := withExt(top, ".cpp", ".cc", ".cxx"); len(cpps) > 0 {
		var globs []string
		for _, e := range []string{".cpp", ".cc", ".cxx"} {
			if len(withExt(top, e)) > 0 {
				globs = append(globs, "*"+e)
			}
		}
		return Guess{Language: "cpp", Build: "g++ -O2 -o bot " + strings.Join(globs, " "), Run: "./bot",
			Why: "C++ files found: compiled together with g++ -O2 into ./bot."}, nil
	}
	if cs := withExt(top, ".c"); len(cs) > 0 {
		return Guess{Language: "c", Build: "gcc -O2 -o bot *.c -lm", Run: "./bot",
			Why: "C files found: compiled together with gcc -O2 into ./bot."}, nil
	}
	if javas := withExt(all, ".java"); len(javas) > 0 {
		build := "javac -d out *.java"
		if len(withExt(top, ".java")) < len(javas) {
			build = "javac -d out **/*.java"
		}
		class, why := javaMain(dir, javas)
		if class == "" {
			return Guess{}, fmt.Errorf("Java files in %s, but none has a main method (public static void main(String[] args)): add one, or give --run", dir)
		}
		return Guess{Language: "java", Build: build, Run: "java -cp out " + class,
			Why: "Java files found: compiled with javac into out/; " + why}, nil
	}
	for _, s := range scriptLangs {
		files := withExt(top, s.ext)
		if len(files) == 0 {
			continue
		}
		pick := ""
		for _, want := range []string{"main", "bot"} {
			if has(want + s.ext) {
				pick = want + s.ext
				break
			}
		}
		switch {
		case pick != "":
		case len(files) == 1:
			pick = files[0]
		default:
			return Guess{}, fmt.Errorf("%d %s files in %s and none is called main%s or bot%s: say which one runs with --run, e.g. --run %q",
				len(files), s.lang, dir, s.ext, s.ext, s.interp+" "+files[0])
		}
		return Guess{Language: s.lang, Run: s.interp + " " + runner.QuoteWord(pick),
			Why: fmt.Sprintf("%s script %s: nothing to build, run with %s.", s.lang, pick, s.interp)}, nil
	}
	// A lone script with a shebang line, whatever its name.
	for name := range top {
		interp := shebang(filepath.Join(dir, name))
		if interp == "" {
			continue
		}
		run := "./" + name
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil && st.Mode()&0o111 == 0 {
			run = interp + " " + runner.QuoteWord(name)
		}
		return Guess{Language: filepath.Base(interp), Run: run,
			Why: fmt.Sprintf("%s starts with #!: a %s script, nothing to build.", name, filepath.Base(interp))}, nil
	}
	return Guess{}, fmt.Errorf("no sources Ringside recognises in %s (it looks for go.mod, *.go, Cargo.toml, a Makefile, *.cpp, *.c, *.java, *.py, *.js, *.rb or a #! script): give --build and --run", dir)
}

// listSources returns the file names of dir's top level and the relative
// paths of every file below it, skipping what a build never needs.
func listSources(dir string) (top, all map[string]bool, err error) {
	top, all = map[string]bool{}, map[string]bool{}
	skip := func(rel string, isDir bool) bool { return Ignored(rel, isDir, true) }
	err = walkTree(dir, skip, func(rel string, d fs.DirEntry) error {
		if d.IsDir() {
			return nil
		}
		all[rel] = true
		if !strings.Contains(rel, "/") {
			top[rel] = true
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read source folder %s: %w", dir, err)
	}
	return top, all, nil
}

var cargoNameRe = regexp.MustCompile(`^\s*name\s*=\s*"([^"]+)"`)

// cargoName reads the package name from Cargo.toml: the binary cargo
// builds is called after it.
func cargoName(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			section = line
			continue
		}
		if section == "[package]" || section == "[[bin]]" {
			if m := cargoNameRe.FindStringSubmatch(line); m != nil {
				return m[1]
			}
		}
	}
	return ""
}

var (
	makeVarRe  = regexp.MustCompile(`^(TARGET|BIN|BINARY|PROG|PROGRAM|EXE|EXEC|NAME|OUT|OUTPUT)\s*[:?]?=\s*([A-Za-z0-9_.\-/]+)\s*$`)
	makeRuleRe = regexp.MustCompile(`^([A-Za-z0-9_\-/]+)\s*:([^=]|$)(.*)$`)
)

// makeTarget finds the program a Makefile builds: a TARGET-like variable,
// else the first real target (the first prerequisite of "all"). It returns
// "bot", false when the Makefile does not say.
func makeTarget(path string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "bot", false
	}
	defer f.Close()
	notProgram := map[string]bool{"all": true, "clean": true, "install": true, "test": true, "run": true,
		"check": true, "distclean": true, "default": true}
	var first string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "\t") || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		if m := makeVarRe.FindStringSubmatch(strings.TrimSpace(line)); m != nil && !strings.HasSuffix(m[2], ".o") {
			return strings.TrimPrefix(m[2], "./"), true
		}
		m := makeRuleRe.FindStringSubmatch(line)
		if m == nil || first != "" {
			continue
		}
		name := m[1]
		if name == "all" || name == "default" {
			for _, dep := range strings.Fields(m[2] + m[3]) {
				if !strings.ContainsAny(dep, "$%.") && !notProgram[dep] {
					first = dep
					break
				}
			}
			continue
		}
		if !notProgram[name] && !strings.Contains(name, ".") {
			first = name
		}
	}
	if first != "" {
		return strings.TrimPrefix(first, "./"), true
	}
	return "bot", false
}

var (
	javaMainRe    = regexp.MustCompile(`(public\s+)?static\s+(public\s+)?void\s+main\s*\(`)
	javaPackageRe = regexp.MustCompile(`(?m)^\s*package\s+([A-Za-z0-9_.]+)\s*;`)
)

// javaMain finds the class with a main method among the .java files (paths
// relative to dir): Main or Bot when several have one.
func javaMain(dir string, javas []string) (class, why string) {
	var found []string
	for _, rel := range javas {
		data, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil || !javaMainRe.Match(data) {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(rel), ".java")
		if m := javaPackageRe.FindSubmatch(data); m != nil {
			name = string(m[1]) + "." + name
		}
		found = append(found, name)
	}
	if len(found) == 0 {
		return "", ""
	}
	sort.Strings(found)
	for _, want := range []string{"Main", "Bot"} {
		for _, c := range found {
			if c == want || strings.HasSuffix(c, "."+want) {
				return c, fmt.Sprintf("class %s has main.", c)
			}
		}
	}
	if len(found) > 1 {
		return found[0], fmt.Sprintf("classes %s have main; running %s (give --run to choose).", strings.Join(found, ", "), found[0])
	}
	return found[0], fmt.Sprintf("class %s has main.", found[0])
}

// shebang returns the interpreter named on a file's #! line ("python3" for
// "#!/usr/bin/env python3"), or "".
func shebang(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, _ := f.Read(buf)
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	rest, ok := strings.CutPrefix(line, "#!")
	if !ok {
		return ""
	}
	words := strings.Fields(rest)
	if len(words) == 0 {
		return ""
	}
	if filepath.Base(words[0]) == "env" && len(words) > 1 {
		return words[1]
	}
	return words[0]
}

// CheckCommands tells, before anything is built, whether an AI's commands
// can work here: the folder exists, the build program is installed, and the
// run program is installed or is a file the folder has or the build makes.
// The error says plainly what is missing and what to do.
func CheckCommands(dir, build, run string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("source folder %s: %w", dir, notFoundHint(err))
	}
	if !st.IsDir() {
		return fmt.Errorf("source folder %s is a file, not a folder", dir)
	}
	if strings.TrimSpace(build) != "" {
		argv, err := runner.Split(build)
		if err != nil {
			return fmt.Errorf("build command: %w", err)
		}
		if _, err := exec.LookPath(argv[0]); err != nil {
			if !strings.Contains(argv[0], "/") {
				return runner.MissingProgram(argv[0], "build")
			}
			if _, err := os.Stat(filepath.Join(dir, argv[0])); err != nil {
				return fmt.Errorf("the build command starts %s, which is not in %s: fix the build command", argv[0], dir)
			}
		}
	}
	if strings.TrimSpace(run) == "" {
		return errors.New("no run command: give --run, e.g. --run \"python3 bot.py\"")
	}
	if strings.HasPrefix(strings.TrimSpace(run), runner.BuiltinPrefix) {
		return nil
	}
	argv, err := runner.Split(run)
	if err != nil {
		return fmt.Errorf("run command: %w", err)
	}
	return runner.CheckRun(dir, argv, strings.TrimSpace(build) != "")
}

func notFoundHint(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return errors.New("no such folder; check the path")
	}
	return err
}
