package service

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"ringside/engine/event"
	"ringside/runner"
	"ringside/storage"
)

// Bundle is an opened shard bundle whose manifest has been read.
type Bundle struct {
	Path     string
	SHA256   string // of the whole file
	Manifest BundleManifest
	zr       *zip.ReadCloser
}

// damaged is the error of a bundle that fails its checks.
func damaged(p, format string, args ...any) error {
	return Errorf(Invalid, "bundle %s is damaged: %s; copy it again, or export the event again with --resend", p, fmt.Sprintf(format, args...))
}

// OpenBundle opens a shard bundle and checks its manifest against its
// checksum. The members are checked as they are unpacked (Unpack).
func OpenBundle(p string) (*Bundle, error) {
	sum, err := fileSHA256(p)
	if err != nil {
		return nil, wrap(Invalid, err, "open bundle")
	}
	zr, err := zip.OpenReader(p)
	if err != nil {
		return nil, damaged(p, "not a zip file (%v)", err)
	}
	b := &Bundle{Path: p, SHA256: sum, zr: zr}
	man, err := b.member(manifestName)
	if err == nil {
		var want []byte
		if want, err = b.member(manifestSumName); err == nil && strings.TrimSpace(string(want)) != sha256Hex(man) {
			err = fmt.Errorf("%s does not match its checksum in %s", manifestName, manifestSumName)
		}
	}
	if err == nil {
		if err = json.Unmarshal(man, &b.Manifest); err != nil {
			err = fmt.Errorf("%s: %w", manifestName, err)
		}
	}
	if err == nil && b.Manifest.Format != BundleFormat {
		zr.Close()
		return nil, Errorf(Invalid, "%s is a bundle of format %q; this Ringside reads %q", p, b.Manifest.Format, BundleFormat)
	}
	if err != nil {
		zr.Close()
		return nil, damaged(p, "%v", err)
	}
	return b, nil
}

// Close closes the bundle file.
func (b *Bundle) Close() error { return b.zr.Close() }

func (b *Bundle) member(name string) ([]byte, error) {
	for _, f := range b.zr.File {
		if f.Name == name {
			r, err := f.Open()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			defer r.Close()
			data, err := io.ReadAll(io.LimitReader(r, 64<<20))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			return data, nil
		}
	}
	return nil, fmt.Errorf("it has no %s", name)
}

// Unpack writes the bundle's revision folders under dir, checking every
// member against the manifest: a member that is not listed, differs from
// its checksum or is missing makes the whole bundle refused.
func (b *Bundle) Unpack(dir string) error {
	want := map[string]ShardFile{}
	for _, f := range b.Manifest.Files {
		want[f.Path] = f
	}
	seen := map[string]bool{}
	for _, f := range b.zr.File {
		if f.Name == manifestName || f.Name == manifestSumName {
			continue
		}
		sf, ok := want[f.Name]
		if !ok {
			return damaged(b.Path, "%s is not in its manifest", f.Name)
		}
		clean := path.Clean(f.Name)
		if clean != f.Name || path.IsAbs(clean) || strings.HasPrefix(clean, "../") || !strings.HasPrefix(clean, "revisions/") {
			return damaged(b.Path, "member %q lies outside the revisions folder", f.Name)
		}
		if err := unpackFile(f, filepath.Join(dir, filepath.FromSlash(clean)), sf); err != nil {
			return damaged(b.Path, "%v", err)
		}
		seen[f.Name] = true
	}
	for p := range want {
		if !seen[p] {
			return damaged(b.Path, "%s is missing", p)
		}
	}
	return nil
}

func unpackFile(f *zip.File, dst string, want ShardFile) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	r, err := f.Open()
	if err != nil {
		return fmt.Errorf("%s: %w", f.Name, err)
	}
	defer r.Close()
	mode := f.Mode().Perm() | 0o400
	w, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w, h), r)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", f.Name, err)
	}
	if n != want.Size || hex.EncodeToString(h.Sum(nil)) != want.SHA256 {
		return fmt.Errorf("%s does not match its checksum", f.Name)
	}
	return nil
}

// ShardRun is a run of a bundle ("ringside shard run").
type ShardRun struct {
	Bundle string
	Out    string // the result file; an existing one of the same bundle is resumed
	// Concurrency 0 means this machine's cores − 1.
	Concurrency int
	// OnStart is called before the first game with how the bots are
	// contained (SandboxSummary) and the entries that run trusted,
	// without the sandbox.
	OnStart func(sandbox string, trusted []string)
	// OnResume is called when the result file already holds games.
	OnResume func(done, all int)
	// OnProgress is called after every change of the counts.
	OnProgress func(p runner.Progress)
}

// ShardReport is what a run of a bundle did.
type ShardReport struct {
	Manifest BundleManifest
	Machine  string
	Earlier  int // games found in the result file
	Played   int // games played by this run
	Elapsed  time.Duration
	Complete bool // every game of the bundle has a result
	Started  bool // the checks passed and play began: an error after it leaves a result file to resume
}

// RunShard plays a bundle's games as the event would at home (the same
// runner, sandbox and limits) and appends each result to the result file
// as it finishes. A result file left by an earlier run of the same bundle
// (killed, or stopped by ctx) is resumed: its games are not played again.
func RunShard(ctx context.Context, spec ShardRun) (rep ShardReport, err error) {
	b, err := OpenBundle(spec.Bundle)
	if err != nil {
		return rep, err
	}
	defer b.Close()
	man := b.Manifest
	rep.Manifest = man
	rep.Machine, _ = os.Hostname()
	// Absolute, because each bot starts in its folder under work: a
	// relative one, as every recipe gives (--out {}.result), would be
	// looked up from the bot's own folder and no bot would start.
	work, err := filepath.Abs(spec.Out + ".files")
	if err != nil {
		return rep, wrap(Failed, err, "result file %s", spec.Out)
	}
	if err := os.RemoveAll(work); err != nil {
		return rep, wrap(Failed, err, "clear %s", work)
	}
	defer os.RemoveAll(work)
	if err := b.Unpack(work); err != nil {
		return rep, err
	}
	if err := checkWorker(man.Entries); err != nil {
		return rep, err
	}
	header := ResultHeader{Format: ResultFormat, Token: man.Token, Event: man.Event, Shard: man.Shard, Of: man.Of,
		Bundle: b.SHA256, Entries: man.Entries}
	games := map[int64]ShardGame{}
	for _, g := range man.Games {
		games[g.Match] = g
	}
	out, earlier, err := openResult(spec.Out, header, games)
	if err != nil {
		return rep, err
	}
	defer func() {
		if cerr := out.Close(); err == nil && cerr != nil {
			err = wrap(Failed, cerr, "write %s", spec.Out)
		}
	}()
	rep.Earlier = len(earlier)
	if rep.Earlier > 0 && spec.OnResume != nil {
		spec.OnResume(rep.Earlier, len(man.Games))
	}

	ev := storage.Event{ID: man.Event.ID, Name: man.Event.Name, Game: man.Play.Game, Options: man.Play.Options,
		Config: man.Play.Config, TimeScale: man.Play.TimeScale, Trusted: man.Play.Trusted, Limits: man.Play.Limits}
	for _, e := range man.Entries {
		se := storage.Entry{Index: e.Index, Name: e.Name, RevisionID: e.RevisionID, Command: e.Command,
			Trusted: e.Trusted, Limits: e.Limits, Options: e.Options}
		if e.Folder != "" {
			dir := filepath.Join(work, filepath.FromSlash(e.Folder))
			se.Dir, se.Command = dir, runner.RevisionBot(e.Name, e.Command, dir).Command
		}
		ev.Entries = append(ev.Entries, se)
	}
	run, err := eventRunner(ev, spec.Concurrency)
	if err != nil {
		return rep, err
	}
	run.Concurrency = spec.Concurrency // the home machine's setting says nothing about this one
	if spec.OnStart != nil {
		spec.OnStart(SandboxSummary(run.Sandbox), TrustedNames(ev))
	}
	ids := map[int]int64{}
	for _, g := range man.Games {
		run.Games = append(run.Games, event.Game{Index: g.Index, Round: g.Round, Group: g.Group, Seed: g.Seed, Seats: g.Seats})
		ids[g.Index] = g.Match
	}
	for _, l := range earlier {
		run.Done = append(run.Done, event.Outcome{Game: event.Game{Index: l.Index, Seed: l.Seed, Seats: l.Seats}, Ranks: l.Result.Ranks})
	}
	run.OnProgress = spec.OnProgress
	run.OnFinished = func(g event.Game, o *runner.Outcome) error {
		res := o.Log.Result
		line := ResultLine{Kind: "match", Machine: rep.Machine, Match: ids[g.Index], Index: g.Index, Seed: g.Seed,
			Seats: g.Seats, Result: &res, Problems: problemsOf(o), Millis: o.Wall.Milliseconds(), Log: o.Log}
		if err := appendLine(out, line); err != nil {
			return wrap(Failed, err, "write %s", spec.Out)
		}
		rep.Played++
		return nil
	}
	began := time.Now()
	rep.Started = true
	runErr := run.Run(ctx)
	rep.Elapsed = time.Since(began)
	rep.Complete = rep.Earlier+rep.Played == len(man.Games)
	if rep.Played > 0 || runErr == nil {
		line := ResultLine{Kind: "run", Machine: rep.Machine, Started: began.UTC().Format(time.RFC3339),
			Seconds: rep.Elapsed.Seconds(), Games: rep.Played}
		if err := appendLine(out, line); err != nil && runErr == nil {
			runErr = wrap(Failed, err, "write %s", spec.Out)
		}
	}
	if err := out.Sync(); err != nil && runErr == nil {
		runErr = wrap(Failed, err, "write %s", spec.Out)
	}
	return rep, runErr
}

// checkWorker refuses a machine that lacks a program the entries' run
// commands start (a JRE, python3), before any game: otherwise that bot
// would crash in every game, and its losses would import as real ones.
func checkWorker(entries []ShardEntry) error {
	for _, e := range entries {
		if strings.HasPrefix(strings.TrimSpace(e.Command), runner.BuiltinPrefix) {
			continue
		}
		argv, err := runner.Split(e.Command)
		if err != nil || len(argv) == 0 || strings.Contains(argv[0], "/") {
			continue // a bad command is reported when the match starts; a file in the bundle was checked
		}
		if _, err := exec.LookPath(argv[0]); err != nil {
			return Errorf(Failed, "entry %s runs %s, which is not installed on this machine (not found on PATH): %s, or play the bundle on a machine that has it; nothing was played",
				e.Name, argv[0], runner.InstallHint(argv[0]))
		}
	}
	return nil
}

// appendLine writes one line in one write, so a killed run leaves at most
// one cut line at the end.
func appendLine(f *os.File, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = f.Write(append(data, '\n'))
	return err
}

// openResult opens the result file of a bundle for appending, writing
// its header when it is new. An existing file must be of the same bundle;
// its games are returned, and a line cut by a crash is dropped.
func openResult(p string, header ResultHeader, games map[int64]ShardGame) (*os.File, []ResultLine, error) {
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, wrap(Failed, err, "open the result file")
	}
	fail := func(err error) (*os.File, []ResultLine, error) {
		f.Close()
		return nil, nil, err
	}
	hdr, lines, good, err := readResult(bufio.NewReaderSize(f, 1<<20), p)
	if err != nil {
		return fail(err)
	}
	if hdr == nil {
		// New, or cut before its header was whole; anything else is not
		// ours to overwrite.
		head := make([]byte, 64)
		n, _ := f.ReadAt(head, 0)
		if want := []byte(`{"format":"` + ResultFormat + `"`); n > 0 && !bytes.HasPrefix(want, head[:min(n, len(want))]) {
			return fail(Errorf(Invalid, "%s is not a Ringside shard result file; give another --out", p))
		}
		good = 0
	} else if hdr.Token != header.Token {
		return fail(Errorf(Invalid, "%s is the result of another bundle (shard %d of %d of event %d, %q); give this one another --out",
			p, hdr.Shard, hdr.Of, hdr.Event.ID, hdr.Event.Name))
	}
	var earlier []ResultLine
	seen := map[int64]bool{}
	for _, l := range lines {
		if l.Kind != "match" {
			continue
		}
		g, ok := games[l.Match]
		if !ok || g.Index != l.Index || l.Result == nil {
			return fail(Errorf(Invalid, "%s holds match %d, which is not a game of this bundle; give another --out", p, l.Match))
		}
		if !seen[l.Match] {
			seen[l.Match] = true
			earlier = append(earlier, l)
		}
	}
	if err := f.Truncate(good); err != nil {
		return fail(wrap(Failed, err, "repair %s", p))
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		return fail(wrap(Failed, err, "repair %s", p))
	}
	if hdr == nil {
		if err := appendLine(f, header); err != nil {
			return fail(wrap(Failed, err, "write %s", p))
		}
	}
	return f, earlier, nil
}

// readResult reads a result file: its header (nil when there is none
// yet), its whole lines, and the length of what is whole. Only the last
// line may be cut short (a killed run); a damaged line elsewhere is an
// error.
func readResult(r *bufio.Reader, name string) (*ResultHeader, []ResultLine, int64, error) {
	var hdr *ResultHeader
	var raw [][]byte
	var good int64
	for n := 1; ; n++ {
		data, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			break // a cut last line (or none) is dropped
		}
		if err != nil {
			return nil, nil, 0, wrap(Failed, err, "read %s", name)
		}
		if n == 1 {
			var h ResultHeader
			if err := json.Unmarshal(data, &h); err != nil || h.Format != ResultFormat {
				return nil, nil, 0, Errorf(Invalid, "%s is not a Ringside shard result file (its first line is no %s header)", name, ResultFormat)
			}
			hdr = &h
		} else {
			raw = append(raw, data)
		}
		good += int64(len(data))
	}
	// Decoding the replays is most of the reading: spread it over the
	// cores.
	lines := make([]ResultLine, len(raw))
	errs := make([]error, len(raw))
	onAllCores(len(raw), func(i int) { errs[i] = json.Unmarshal(raw[i], &lines[i]) })
	for i, err := range errs {
		if err != nil {
			return nil, nil, 0, Errorf(Invalid, "%s is damaged at line %d: %v", name, i+2, err)
		}
	}
	return hdr, lines, good, nil
}

// ReadResultFile reads a whole result file for an import.
func ReadResultFile(p string) (*ResultHeader, []ResultLine, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, nil, wrap(Invalid, err, "read result")
	}
	defer f.Close()
	hdr, lines, _, err := readResult(bufio.NewReaderSize(f, 1<<20), p)
	if err == nil && hdr == nil {
		err = Errorf(Invalid, "%s is empty: its run wrote nothing yet", p)
	}
	return hdr, lines, err
}
