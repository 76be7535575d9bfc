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
	"runtime"
	"sort"
	"strings"
	"sync"

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
func GuessCommands(dir string) (Guess, error) { return GuessFor(dir, "") }

// GuessFor is GuessCommands for a folder whose run command the user gave
// (run, "" when not given): the guess then only chooses the build, keeps
// that run command, and never refuses for want of an entry point it could
// run itself.
func GuessFor(dir, run string) (Guess, error) { return GuessForOS(dir, run, runtime.GOOS) }

// guessFolder is GuessFor with the POSIX rules (./bot, python3).
func guessFolder(dir, run string) (Guess, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return Guess{}, fmt.Errorf("source folder %s: %w", dir, notFoundHint(err))
	}
	if !st.IsDir() {
		return Guess{}, fmt.Errorf("source folder %s is a file, not a folder: give the folder that holds the sources", dir)
	}
	run = strings.TrimSpace(run)
	g, err := guess(dir, run)
	if err != nil {
		return Guess{}, err
	}
	if run != "" && g.Run != run {
		g.Run = run
		g.Why += " The run command is yours."
	}
	return g, nil
}

func guess(dir, userRun string) (Guess, error) {
	top, all, err := listSources(dir)
	if err != nil {
		return Guess{}, err
	}
	if g, ok := guessBuildFile(dir, top, all); ok {
		return g, nil
	}
	if g, ok, err := guessCompiled(dir, top, all, userRun); ok || err != nil {
		return g, err
	}
	if g, ok, err := guessScript(dir, top, userRun); ok || err != nil {
		return g, err
	}
	if g, ok := guessShebang(dir, top); ok {
		return g, nil
	}
	if userRun != "" {
		return Guess{Run: userRun, Why: "No sources Ringside knows how to build: your run command runs the folder as it is."}, nil
	}
	return Guess{}, fmt.Errorf("no sources Ringside recognises in %s (it looks for go.mod, *.go, Cargo.toml, a Makefile, *.cpp, *.c, *.java, *.py, *.js, *.rb or a #! script): give --build and --run", dir)
}

// guessBuildFile guesses from a build file at the top of the folder:
// go.mod, Cargo.toml or a Makefile, in that order. ok is false without one.
func guessBuildFile(dir string, top, all map[string]bool) (g Guess, ok bool) {
	has := func(name string) bool { return top[name] }
	switch {
	case has("go.mod"):
		return Guess{Language: "go", Build: "go build -o bot .", Run: "./bot",
			Why: "go.mod found: a Go module, built with go build into ./bot."}, true
	case has("Cargo.toml"):
		name := cargoName(filepath.Join(dir, "Cargo.toml"))
		why := fmt.Sprintf("Cargo.toml found: a Rust package %q, built with cargo in release mode.", name)
		if name == "" {
			name = "bot"
			why = "Cargo.toml found, but no package name in it: assuming the program is called bot."
		}
		return Guess{Language: "rust", Build: "cargo build --release", Run: "target/release/" + name, Why: why}, true
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
		return Guess{Language: lang, Build: "make", Run: "./" + prog, Why: why}, true
	}
	return Guess{}, false
}

// guessScript guesses an interpreted language's script at the top of the
// folder, main or bot first, else the only one. ok is false without any;
// several with none of those names need the user's run command.
func guessScript(dir string, top map[string]bool, userRun string) (g Guess, ok bool, err error) {
	for _, s := range scriptLangs {
		files := withExt(top, s.ext)
		if len(files) == 0 {
			continue
		}
		pick := ""
		for _, want := range []string{"main", "bot"} {
			if top[want+s.ext] {
				pick = want + s.ext
				break
			}
		}
		switch {
		case pick != "":
		case len(files) == 1:
			pick = files[0]
		case userRun != "":
			return Guess{Language: s.lang, Run: userRun,
				Why: fmt.Sprintf("%d %s files: nothing to build.", len(files), s.lang)}, true, nil
		default:
			return Guess{}, true, fmt.Errorf("%d %s files in %s and none is called main%s or bot%s: say which one runs with --run, e.g. --run %q",
				len(files), s.lang, dir, s.ext, s.ext, s.interp+" "+files[0])
		}
		return Guess{Language: s.lang, Run: s.interp + " " + runner.QuoteWord(asFile(pick)),
			Why: fmt.Sprintf("%s script %s: nothing to build, run with %s.", s.lang, pick, s.interp)}, true, nil
	}
	return Guess{}, false, nil
}

// guessShebang finds a lone script with a shebang line, whatever its name
// (the first in name order).
func guessShebang(dir string, top map[string]bool) (Guess, bool) {
	names := make([]string, 0, len(top))
	for name := range top {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		interp := shebang(filepath.Join(dir, name))
		if interp == "" {
			continue
		}
		run := "./" + name
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil && st.Mode()&0o111 == 0 {
			run = interp + " " + runner.QuoteWord(asFile(name))
		}
		return Guess{Language: filepath.Base(interp), Run: run,
			Why: fmt.Sprintf("%s starts with #!: a %s script, nothing to build.", name, filepath.Base(interp))}, true
	}
	return Guess{}, false
}

// asFile writes a student's file name (a relative slash path) so that no
// program takes it for an option: "-toolexec=sh t.go" to go build, "@opts.c"
// to gcc (a file of options), "+x" to some tools become "./-toolexec=sh
// t.go", "./@opts.c". Other names stay as they are.
func asFile(rel string) string {
	if rel != "" && strings.ContainsRune("-@+", rune(rel[0])) {
		return "./" + rel
	}
	return rel
}

// withExt returns the files of a set whose names end in one of exts, sorted.
func withExt(files map[string]bool, exts ...string) []string {
	var out []string
	for f := range files {
		for _, e := range exts {
			if strings.HasSuffix(f, e) {
				out = append(out, f)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// compiled is what one compiled language makes of a folder.
type compiled struct {
	lang, name string   // "cpp", "C++"
	files      []string // its source files
	mains      []string // the files (Java: classes) with an entry point
	g          Guess
	err        error // why its files cannot be built as one program
}

var (
	cMainRe  = lazyRegexp(`(?m)^[ \t]*(?:static[ \t]+)?(?:(?:signed|unsigned)[ \t]+)?(?:int|void|auto)[ \t\r\n]+main[ \t]*\(`)
	goMainRe = lazyRegexp(`(?m)^func[ \t]+main[ \t]*\(`)
)

// guessCompiled weighs the compiled languages of a folder without a build
// file: which can be built as one program (C, C++ and Go files link into
// one, so two files with a main are two programs), what the contest's own
// run.sh or compile.sh use, which has an entry point, and how many files
// each has. ok is false when the folder has no compiled sources.
func guessCompiled(dir string, top, all map[string]bool, userRun string) (g Guess, ok bool, err error) {
	conv, convWhy, convClass := contestConvention(dir, top)
	cands := compiledCandidates(dir, top, all, userRun, convClass)
	if len(cands) == 0 {
		return Guess{}, false, nil
	}
	var chosen *compiled
	reason := ""
	for _, c := range cands {
		if c.lang == conv && c.err == nil {
			chosen, reason = c, convWhy
		}
	}
	if chosen == nil {
		chosen = mostLikely(cands)
	}
	if chosen == nil {
		return Guess{}, true, noneBuilds(dir, cands)
	}
	g = chosen.g
	if len(cands) > 1 {
		reason = whyChosen(cands, chosen, reason)
	}
	if reason != "" {
		g.Why = reason + " " + g.Why
	}
	return g, true, nil
}

// compiledCandidates returns what each compiled language with files in the
// folder makes of it: Go, C++, C, then Java. convClass is the Java class
// the contest's run.sh starts, if any.
func compiledCandidates(dir string, top, all map[string]bool, userRun, convClass string) []*compiled {
	var cands []*compiled
	linked := func(lang, name string, files []string, build, why string, mainRe func() *regexp.Regexp) {
		if len(files) == 0 {
			return
		}
		c := &compiled{lang: lang, name: name, files: files, mains: filesMatching(dir, files, mainRe()),
			g: Guess{Language: lang, Build: build, Run: "./bot", Why: why}}
		if len(c.mains) > 1 {
			c.err = fmt.Errorf("%s each have their own main: separate programs, not one bot", strings.Join(c.mains, " and "))
		}
		cands = append(cands, c)
	}
	linked("go", "Go", withExt(top, ".go"), "go build -o bot *.go",
		"Go files without go.mod: the .go files of the folder are built as one program into ./bot (run \"go mod init bot\" there to build it as a module).", goMainRe)
	var globs []string
	for _, e := range []string{".cpp", ".cc", ".cxx"} {
		if len(withExt(top, e)) > 0 {
			globs = append(globs, "*"+e)
		}
	}
	linked("cpp", "C++", withExt(top, ".cpp", ".cc", ".cxx"), "g++ -O2 -o bot "+strings.Join(globs, " "),
		"C++ files found: compiled together with g++ -O2 into ./bot.", cMainRe)
	linked("c", "C", withExt(top, ".c"), "gcc -O2 -o bot *.c -lm",
		"C files found: compiled together with gcc -O2 into ./bot.", cMainRe)
	if c := javaCandidate(dir, top, all, userRun, convClass); c != nil {
		cands = append(cands, c)
	}
	return cands
}

// javaCandidate is what Java makes of the folder, or nil without Java files.
func javaCandidate(dir string, top, all map[string]bool, userRun, convClass string) *compiled {
	javas := withExt(all, ".java")
	if len(javas) == 0 {
		return nil
	}
	build := "javac -d out *.java"
	if len(withExt(top, ".java")) < len(javas) {
		build = "javac -d out **/*.java"
	}
	classes := javaMains(dir, javas)
	c := &compiled{lang: "java", name: "Java", files: javas, mains: classes}
	class, why := pickJavaMain(classes, convClass)
	switch {
	case class != "":
		c.g = Guess{Language: "java", Build: build, Run: "java -cp out " + class,
			Why: "Java files found: compiled with javac into out/; " + why}
	case userRun != "":
		c.g = Guess{Language: "java", Build: build, Run: userRun, Why: "Java files found: compiled with javac into out/."}
	default:
		c.err = errors.New("none of the Java files has a main method (public static void main(String[] args))")
	}
	return c
}

// mostLikely picks among the candidates that build: an entry point counts
// more than the number of files; the order of cands breaks ties. It is nil
// when none builds.
func mostLikely(cands []*compiled) *compiled {
	score := func(c *compiled) int {
		n := len(c.files)
		if len(c.mains) == 1 || (c.lang == "java" && len(c.mains) > 0) {
			n += 1000
		}
		return n
	}
	var chosen *compiled
	for _, c := range cands {
		if c.err == nil && (chosen == nil || score(c) > score(chosen)) {
			chosen = c
		}
	}
	return chosen
}

// noneBuilds says why none of the candidates builds, for the one with the
// most files, and what to do.
func noneBuilds(dir string, cands []*compiled) error {
	c := cands[0]
	for _, o := range cands {
		if len(o.files) > len(c.files) {
			c = o
		}
	}
	fix := "give --build and --run for the one that is the bot"
	switch {
	case c.lang == "java":
		fix = "add one, or give --run"
	case c.lang == "cpp" || c.lang == "c":
		fix = fmt.Sprintf("say which is the bot, e.g. --build %q --run ./bot", strings.Fields(c.g.Build)[0]+" -O2 -o bot "+runner.QuoteWord(asFile(c.mains[0])))
	case c.lang == "go":
		fix = fmt.Sprintf("say which is the bot, e.g. --build %q --run ./bot", "go build -o bot "+runner.QuoteWord(asFile(c.mains[0])))
	}
	return fmt.Errorf("%s in %s: %v; %s", plural(len(c.files), c.name+" file"), dir, c.err, fix)
}

// whyChosen explains the choice of chosen over the other candidates:
// reason (the contest's convention) when there is one, else the files and
// entry point that decided, and what was left out.
func whyChosen(cands []*compiled, chosen *compiled, reason string) string {
	var others []string
	for _, c := range cands {
		if c == chosen {
			continue
		}
		what := plural(len(c.files), c.name+" file")
		switch {
		case c.err != nil:
			what += ": " + c.err.Error()
		case len(c.mains) == 0 && c.lang != "java":
			what += " (none with a main)"
		}
		others = append(others, what)
	}
	if reason != "" {
		return reason + " Left out: " + strings.Join(others, "; ") + "."
	}
	reason = fmt.Sprintf("%s chosen over %s", plural(len(chosen.files), chosen.name+" file"), strings.Join(others, "; "))
	if len(chosen.mains) == 1 && chosen.lang != "java" {
		reason += fmt.Sprintf(": %s has the entry point", chosen.mains[0])
	}
	return reason + "."
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// filesMatching returns the files (relative to dir) whose contents match re.
func filesMatching(dir string, files []string, re *regexp.Regexp) []string {
	var out []string
	for _, rel := range files {
		if data, err := readSource(filepath.Join(dir, rel)); err == nil && re.Match(data) {
			out = append(out, rel)
		}
	}
	return out
}

// contestConvention reads the run.sh and compile.sh that contests ship
// with their sample AIs: the language whose tools they call, why, and the
// Java class run.sh starts ("" when it names none).
func contestConvention(dir string, top map[string]bool) (lang, why, class string) {
	tools := map[string]string{"java": "java", "javac": "java", "g++": "cpp", "clang++": "cpp", "c++": "cpp",
		"gcc": "c", "clang": "c", "cc": "c", "go": "go"}
	for _, script := range []string{"run.sh", "compile.sh"} {
		if !top[script] {
			continue
		}
		data, err := readSource(filepath.Join(dir, script))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			words := strings.Fields(line)
			for len(words) > 0 && (words[0] == "exec" || words[0] == "time" || strings.Contains(words[0], "=")) {
				words = words[1:]
			}
			if len(words) == 0 || strings.HasPrefix(words[0], "#") {
				continue
			}
			l, known := tools[filepath.Base(words[0])]
			if !known {
				continue
			}
			if l == "java" && filepath.Base(words[0]) == "java" {
				class = javaClassArg(words[1:])
			}
			return l, fmt.Sprintf("%s calls %s (%q), the contest's own convention:", script, words[0], strings.TrimSpace(line)), class
		}
	}
	return "", "", ""
}

func isJavaValueOption(a string) bool {
	return a == "-cp" || a == "-classpath" || a == "--class-path" || a == "-p" || a == "--module-path"
}

// javaClassArg returns the main class of java's arguments: the first word
// that is not an option or an option's value.
func javaClassArg(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case isJavaValueOption(a):
			i++
		case a == "-jar":
			return ""
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
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

var cargoNameRe = lazyRegexp(`^\s*name\s*=\s*"([^"]+)"`)

// cargoName reads the package name from Cargo.toml: the binary cargo
// builds is called after it.
func cargoName(path string) string {
	f, _, err := openRegular(path)
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
			if m := cargoNameRe().FindStringSubmatch(line); m != nil {
				return m[1]
			}
		}
	}
	return ""
}

var (
	makeVarRe  = lazyRegexp(`^(TARGET|BIN|BINARY|PROG|PROGRAM|EXE|EXEC|NAME|OUT|OUTPUT)\s*[:?]?=\s*([A-Za-z0-9_.\-/]+)\s*$`)
	makeRuleRe = lazyRegexp(`^([A-Za-z0-9_\-/]+)\s*:([^=]|$)(.*)$`)
)

// makeTarget finds the program a Makefile builds: a TARGET-like variable,
// else the first real target (the first prerequisite of "all"). It returns
// "bot", false when the Makefile does not say.
func makeTarget(path string) (string, bool) {
	f, _, err := openRegular(path)
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
		if m := makeVarRe().FindStringSubmatch(strings.TrimSpace(line)); m != nil && !strings.HasSuffix(m[2], ".o") {
			return strings.TrimPrefix(m[2], "./"), true
		}
		m := makeRuleRe().FindStringSubmatch(line)
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
	// Modifiers in any order: public static final void main, static
	// public void main, …; static is checked apart.
	javaMainRe    = lazyRegexp(`((?:\b(?:public|protected|private|static|final|synchronized|strictfp)\s+)+)void\s+main\s*\(`)
	javaStaticRe  = lazyRegexp(`\bstatic\b`)
	javaPackageRe = lazyRegexp(`(?m)^\s*package\s+([A-Za-z0-9_.]+)\s*;`)
)

// javaMains returns the classes, sorted, among the .java files (paths
// relative to dir) that have a static main method.
func javaMains(dir string, javas []string) []string {
	var found []string
	for _, rel := range javas {
		data, err := readSource(filepath.Join(dir, rel))
		if err != nil {
			continue
		}
		hasMain := false
		for _, m := range javaMainRe().FindAllSubmatch(data, -1) {
			if javaStaticRe().Match(m[1]) {
				hasMain = true
				break
			}
		}
		if !hasMain {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(rel), ".java")
		if m := javaPackageRe().FindSubmatch(data); m != nil {
			name = string(m[1]) + "." + name
		}
		found = append(found, name)
	}
	sort.Strings(found)
	return found
}

// pickJavaMain chooses the class to run among those with main: the one
// run.sh names (prefer), else Main or Bot when several have one.
func pickJavaMain(found []string, prefer string) (class, why string) {
	if len(found) == 0 {
		return "", ""
	}
	for _, want := range []string{prefer, "Main", "Bot"} {
		for _, c := range found {
			if want != "" && (c == want || strings.HasSuffix(c, "."+want)) {
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
	f, _, err := openRegular(path)
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
	if err := runner.CheckRun(dir, argv, strings.TrimSpace(build) != ""); err != nil {
		return err
	}
	return checkJavaPair(build, argv)
}

// checkJavaPair checks that a java run command looks for its class where
// javac puts it: "javac -d out" with "java SampleAI" (the class path is
// then the folder, not out/) builds and then fails at every start.
func checkJavaPair(build string, run []string) error {
	bargv, err := runner.Split(build)
	if err != nil || len(bargv) == 0 || filepath.Base(bargv[0]) != "javac" || filepath.Base(run[0]) != "java" {
		return nil
	}
	out, ok := javacOut(bargv)
	if !ok || javaClassArg(run[1:]) == "" {
		return nil // nothing Ringside can reason about
	}
	cp, cpAt, rest, jar := javaClassPath(run)
	if jar {
		return nil
	}
	for _, entry := range strings.Split(cp, string(os.PathListSeparator)) {
		if filepath.Clean(entry) == filepath.Clean(out) || strings.HasSuffix(entry, "*") {
			return nil
		}
	}
	class := javaClassArg(run[1:])
	fixed := append([]string{run[0], "-cp", out}, rest...)
	where := "the folder the run command starts in"
	if cpAt >= 0 {
		where = fmt.Sprintf("the class path %s", cp)
	}
	outText := out + "/"
	if out == "." {
		outText = "the folder itself"
	}
	quoted := make([]string, len(fixed))
	for i, w := range fixed {
		quoted[i] = runner.QuoteWord(w)
	}
	return fmt.Errorf("the build (%s) puts the compiled classes in %s, but the run command looks for %s in %s, so it would never start: run it with --run %q (or change the build's -d)",
		build, outText, orWord(class, "the main class"), where, strings.Join(quoted, " "))
}

// javacOut returns where javac's arguments put the classes (-d, else the
// folder: "."); ok is false where Ringside cannot tell: an empty or
// several folders, or sources below the folder, whose classes land beside
// them.
func javacOut(bargv []string) (out string, ok bool) {
	out = "."
	for i := 1; i < len(bargv)-1; i++ {
		if bargv[i] == "-d" {
			out = bargv[i+1]
		}
	}
	if out == "" || strings.Contains(out, string(os.PathListSeparator)) {
		return "", false
	}
	if out == "." {
		for _, w := range bargv[1:] {
			if strings.Contains(w, "/") && !strings.HasPrefix(w, "-") {
				return "", false
			}
		}
	}
	return out, true
}

// javaClassPath returns a java command's class path ("." when it gives
// none), the place of its option in run (−1 without), the rest of the
// command without it (the other options, the class and the program's own
// arguments), and whether it runs a jar.
func javaClassPath(run []string) (cp string, cpAt int, rest []string, jar bool) {
	cp, cpAt, rest = ".", -1, []string{}
	for i := 1; i < len(run); i++ {
		a := run[i]
		if !strings.HasPrefix(a, "-") && (i == 1 || !isJavaValueOption(run[i-1])) {
			rest = append(rest, run[i:]...) // the class and the program's own arguments
			break
		}
		switch {
		case a == "-jar":
			return cp, cpAt, rest, true
		case (a == "-cp" || a == "-classpath" || a == "--class-path") && i+1 < len(run):
			cp, cpAt = run[i+1], i
			i++
			continue
		case strings.HasPrefix(a, "--class-path="):
			cp, cpAt = strings.TrimPrefix(a, "--class-path="), i
			continue
		}
		rest = append(rest, a)
	}
	return cp, cpAt, rest, false
}

func orWord(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

func notFoundHint(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return errors.New("no such folder; check the path")
	}
	return err
}

// lazyRegexp compiles expr on first use: every start of the ringside
// binary (each sandboxed bot's launcher, each built-in bot) would
// otherwise compile the build guesser's expressions for nothing.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
