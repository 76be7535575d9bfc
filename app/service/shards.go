package service

import (
	"archive/zip"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"ringside/engine"
	"ringside/engine/event"
	"ringside/runner"
	"ringside/storage"
)

// A shard bundle is one zip file (archive/zip) that a worker machine plays
// with nothing but the Ringside binary and the bots' language runtimes:
//
//	manifest.json     BundleManifest: the event, its entries, the games,
//	                  and every other member with its size and SHA-256
//	manifest.sha256   the SHA-256 of manifest.json, in hex
//	revisions/r<ID>/… the built folder of each revision the games play
//
// Its result file is JSON lines: a ResultHeader, then a ResultLine per
// game played (kind "match") and per run of the bundle (kind "run").
// Lines are appended as games finish, so a run that was killed goes on
// from the file it left.
const (
	BundleFormat = "ringside-shard/1"
	ResultFormat = "ringside-shard-result/1"

	manifestName    = "manifest.json"
	manifestSumName = "manifest.sha256"
)

// BundleManifest is what a bundle carries besides the revision folders.
type BundleManifest struct {
	Format  string       `json:"format"`
	Token   string       `json:"token"`
	Event   EventRef     `json:"event"`
	Shard   int          `json:"shard"`
	Of      int          `json:"of"`
	Created string       `json:"created"`
	Play    ShardPlay    `json:"play"`
	Entries []ShardEntry `json:"entries"`
	Games   []ShardGame  `json:"games"`
	Files   []ShardFile  `json:"files"`
}

// EventRef names an event across databases: its id, name and creation
// time (Unix ms) together tell it from an event of another database that
// happens to have the same id.
type EventRef struct {
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	Created int64  `json:"created"`
}

// ShardPlay is how the event's games are played: as at home.
type ShardPlay struct {
	Game      string         `json:"game"`
	Options   engine.Options `json:"options"`
	Config    event.Config   `json:"config"`
	TimeScale float64        `json:"time_scale"`
	Trusted   bool           `json:"trusted,omitempty"`
	Limits    string         `json:"limits,omitempty"`
}

// ShardEntry is one entry of the event: how it runs, and which revision
// it is, so an import can tell that the shard played the event's own.
type ShardEntry struct {
	Index      int    `json:"index"`
	Name       string `json:"name"`
	RevisionID int64  `json:"revision_id,omitempty"`
	Hash       string `json:"hash,omitempty"` // the revision's content hash
	Command    string `json:"command"`        // a program in Folder is written relative to it ("./bot")
	// Folder is the entry's built folder inside the bundle ("" for none:
	// a built-in bot, or a command the worker must have).
	Folder  string `json:"folder,omitempty"`
	Trusted bool   `json:"trusted,omitempty"`
	Limits  string `json:"limits,omitempty"`
	// Options are the AI's own game options ("coords=xy"), for its seat.
	Options string `json:"options,omitempty"`
}

// ShardGame is one scheduled game.
type ShardGame struct {
	Match int64 `json:"match"` // the match id at home
	Index int   `json:"index"`
	Round int   `json:"round"`
	Group int   `json:"group"`
	Seed  int64 `json:"seed"`
	Seats []int `json:"seats"`
}

// ShardFile is a member of the bundle with its checksum.
type ShardFile struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// ResultHeader is the first line of a result file.
type ResultHeader struct {
	Format  string       `json:"format"`
	Token   string       `json:"token"`
	Event   EventRef     `json:"event"`
	Shard   int          `json:"shard"`
	Of      int          `json:"of"`
	Bundle  string       `json:"bundle_sha256"`
	Entries []ShardEntry `json:"entries"`
}

// ResultLine is a later line of a result file: a game played (kind
// "match") or a run of the bundle that ended (kind "run").
type ResultLine struct {
	Kind    string `json:"kind"`
	Machine string `json:"machine"`
	// A game.
	Match    int64              `json:"match,omitempty"`
	Index    int                `json:"index,omitempty"`
	Seed     int64              `json:"seed,omitempty"`
	Seats    []int              `json:"seats,omitempty"`
	Result   *engine.Result     `json:"result,omitempty"`
	Problems []storage.Problems `json:"problems,omitempty"`
	Millis   int64              `json:"ms,omitempty"`
	Log      *engine.Log        `json:"log,omitempty"`
	// A run.
	Started string  `json:"started,omitempty"`
	Seconds float64 `json:"seconds,omitempty"`
	Games   int     `json:"games,omitempty"`
}

// ExportSpec is what "ringside event export" asks for.
type ExportSpec struct {
	Event  int64
	Shards int
	Dir    string
	// Resend also sends games that are out in earlier bundles and not
	// back yet (a lost or failed shard).
	Resend bool
}

// ExportedShard is one bundle written.
type ExportedShard struct {
	Path  string
	Games int
}

// refuseUsedFolder says why bundles may not go into dir: it holds the
// bundles of an earlier export. A job array hands out a folder's bundles
// by their place in it ("the 3rd bundle to task 3"), so the bundles of two
// exports in one folder would be mixed up, and games played twice or not
// at all.
func refuseUsedFolder(dir string) error {
	old, _ := filepath.Glob(filepath.Join(dir, "event-*-shard-*-of-*.zip"))
	if len(old) == 0 {
		return nil
	}
	return Errorf(Conflict, "%s already holds %d bundles of an earlier export (%s…): a job array over that folder "+
		"would mix the two exports; export into an empty folder, or move those bundles away first", dir, len(old), filepath.Base(old[0]))
}

// Export writes an event's unfinished games into shard bundles in
// spec.Dir, each with every revision its games need, and records them as
// out: exporting again never sends a finished game, nor one that is out
// unless spec.Resend. Fewer bundles than asked are written when there are
// fewer games. The event is locked meanwhile, so no local run plays
// while its games are being sent.
func (s *Service) Export(spec ExportSpec) ([]ExportedShard, error) {
	if spec.Shards < 1 {
		return nil, Errorf(Invalid, "--shards must be 1 or more, not %d", spec.Shards)
	}
	if spec.Dir == "" {
		return nil, Errorf(Invalid, "say where the bundles go with --out DIR")
	}
	lock, err := s.lockEvent(spec.Event, "stop it before exporting it")
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	ev, err := s.db.Event(spec.Event)
	if err != nil {
		return nil, err
	}
	if ev.Status == storage.EventFinished || ev.Status == storage.EventCancelled {
		return nil, Errorf(Conflict, "event %d is %s: it has no games left to export", ev.ID, ev.Status)
	}
	if ev, err = s.fixEntries(ev); err != nil {
		return nil, err
	}
	// Adaptive formats schedule a round once the one before is played.
	if _, _, err := s.scheduleNext(ev); err != nil {
		return nil, err
	}
	ms, err := s.db.Matches(ev.ID)
	if err != nil {
		return nil, err
	}
	out, err := s.db.OutMatches(ev.ID)
	if err != nil {
		return nil, err
	}
	todo, err := toExport(ev, ms, out, spec.Resend)
	if err != nil {
		return nil, err
	}
	n := min(spec.Shards, len(todo))
	if err := refuseUsedFolder(spec.Dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(spec.Dir, 0o755); err != nil {
		return nil, wrap(Failed, err, "export event %d", ev.ID)
	}
	entries, folders, err := s.shardEntries(ev, true)
	if err != nil {
		return nil, err
	}
	// Round robin, so that every shard gets games of every round and
	// their lengths even out.
	parts := make([][]storage.Match, n)
	for i, m := range todo {
		parts[i%n] = append(parts[i%n], m)
	}
	var shards []storage.Shard
	var temps []string
	defer func() {
		for _, t := range temps {
			os.Remove(t)
		}
	}()
	for k, part := range parts {
		sh, tmp, err := writeShard(spec.Dir, ev, k+1, n, part, entries, folders)
		if tmp != "" {
			temps = append(temps, tmp)
		}
		if err != nil {
			return nil, err
		}
		shards = append(shards, sh)
	}
	for _, sh := range shards {
		if _, err := os.Stat(filepath.Join(spec.Dir, sh.File)); err == nil {
			return nil, Errorf(Conflict, "%s already exists; export into another folder", filepath.Join(spec.Dir, sh.File))
		}
	}
	if _, err := s.db.AddShards(ev.ID, shards); err != nil {
		return nil, err
	}
	var done []ExportedShard
	for i, sh := range shards {
		path := filepath.Join(spec.Dir, sh.File)
		if err := os.Rename(temps[i], path); err != nil {
			return done, wrap(Failed, err, "export event %d", ev.ID)
		}
		done = append(done, ExportedShard{Path: path, Games: len(sh.Matches)})
	}
	temps = nil
	return done, nil
}

// toExport returns the event's unfinished games to send: those not out
// in a shard already, or all of them with resend; an error when there
// are none.
func toExport(ev storage.Event, ms []storage.Match, out map[int64]bool, resend bool) ([]storage.Match, error) {
	var todo []storage.Match
	away := 0
	for _, m := range ms {
		if m.Status != storage.MatchScheduled && m.Status != storage.MatchRunning {
			continue
		}
		if out[m.ID] && !resend {
			away++
			continue
		}
		todo = append(todo, m)
	}
	if len(todo) > 0 {
		return todo, nil
	}
	if away > 0 {
		return nil, Errorf(Conflict, "event %d has nothing new to export: its %d unfinished game(s) are out in shards; import their results, or send them again with --resend", ev.ID, away)
	}
	return nil, Errorf(Conflict, "event %d has no unfinished games to export", ev.ID)
}

// writeShard writes shard k of n, the games part, into a temporary file in
// dir (returned, to be renamed or removed) and returns its record.
func writeShard(dir string, ev storage.Event, k, n int, part []storage.Match, entries []ShardEntry, folders map[string]string) (storage.Shard, string, error) {
	token, err := newToken()
	if err != nil {
		return storage.Shard{}, "", wrap(Failed, err, "export event %d", ev.ID)
	}
	name := fmt.Sprintf("event-%d-shard-%d-of-%d-%s.zip", ev.ID, k, n, token[:8])
	man := BundleManifest{Format: BundleFormat, Token: token, Event: refOf(ev), Shard: k, Of: n,
		Created: time.Now().UTC().Format(time.RFC3339),
		Play: ShardPlay{Game: ev.Game, Options: ev.Options, Config: ev.Config, TimeScale: ev.TimeScale,
			Trusted: ev.Trusted, Limits: ev.Limits},
		Entries: shardNeeds(entries, part)}
	for _, m := range part {
		man.Games = append(man.Games, ShardGame{Match: m.ID, Index: m.Game.Index, Round: m.Game.Round,
			Group: m.Game.Group, Seed: m.Game.Seed, Seats: m.Game.Seats})
	}
	tmp, sum, err := writeBundle(dir, man, folders)
	if err != nil {
		return storage.Shard{}, tmp, wrap(Failed, err, "write shard %d of event %d", k, ev.ID)
	}
	ids := make([]int64, len(part))
	for i, m := range part {
		ids[i] = m.ID
	}
	return storage.Shard{Token: token, Number: k, Count: n, File: name, SHA256: sum, Matches: ids}, tmp, nil
}

// scheduleNext stores the games the event's format schedules next, if
// any, and says how many, or that the event is finished.
func (s *Service) scheduleNext(ev storage.Event) (next int, finished bool, err error) {
	outs, err := s.db.Outcomes(ev.ID)
	if err != nil {
		return 0, false, err
	}
	games, finished, err := event.Next(ev.Config, outs)
	if err != nil {
		return 0, false, wrap(Failed, err, "schedule event %d", ev.ID)
	}
	if finished {
		return 0, true, nil
	}
	return len(games), false, s.db.AddMatches(ev.ID, games)
}

// onAllCores calls f(i) for i in [0, n), on as many goroutines as there
// are cores, and returns when all calls have.
func onAllCores(n int, f func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int, 64)
	for range runtime.NumCPU() {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

func refOf(ev storage.Event) EventRef {
	return EventRef{ID: ev.ID, Name: ev.Name, Created: ev.Created.UnixMilli()}
}

func newToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// shardEntries is every entry of ev as a bundle carries it, with the
// folders (bundle path → folder here) of those that run from one. Only an
// export needs the folders to be there (pack); an import compares the
// revisions alone, and a revision folder removed since the export does
// not make its games unwelcome.
func (s *Service) shardEntries(ev storage.Event, pack bool) ([]ShardEntry, map[string]string, error) {
	folders := map[string]string{}
	out := make([]ShardEntry, len(ev.Entries))
	for i, e := range ev.Entries {
		se := ShardEntry{Index: e.Index, Name: e.Name, RevisionID: e.RevisionID, Command: e.Command,
			Trusted: e.Trusted, Limits: e.Limits, Options: e.Options}
		if e.RevisionID != 0 {
			rev, err := s.db.Revision(e.RevisionID)
			if err != nil && !errors.Is(err, storage.ErrNotFound) {
				return nil, nil, err
			}
			se.Hash = rev.Hash
		}
		if e.Dir != "" {
			if pack && !folderExists(e.Dir) {
				return nil, nil, Errorf(Failed, "entry %s cannot be exported: its folder %s is gone", e.Name, e.Dir)
			}
			se.Folder = fmt.Sprintf("revisions/e%d", e.Index)
			if e.RevisionID != 0 {
				se.Folder = fmt.Sprintf("revisions/r%d", e.RevisionID)
			}
			folders[se.Folder] = e.Dir
			// RevisionBot made a program inside the folder absolute; the
			// worker's folder is elsewhere.
			if argv, err := runner.Split(e.Command); err == nil {
				if rel, err := filepath.Rel(e.Dir, argv[0]); err == nil && filepath.IsAbs(argv[0]) && !strings.HasPrefix(rel, "..") {
					argv[0] = "./" + filepath.ToSlash(rel)
					se.Command = runner.JoinCommand(argv)
				}
			}
		}
		out[i] = se
	}
	return out, folders, nil
}

// shardNeeds is entries with the folders of only those that play in games.
func shardNeeds(entries []ShardEntry, games []storage.Match) []ShardEntry {
	plays := map[int]bool{}
	for _, m := range games {
		for _, e := range m.Game.Seats {
			plays[e] = true
		}
	}
	out := slices.Clone(entries)
	for i := range out {
		if !plays[out[i].Index] {
			out[i].Folder = ""
		}
	}
	return out
}

// writeBundle writes a bundle to a temporary file in dir and returns its
// path and SHA-256; folders maps bundle paths to the folders to pack.
func writeBundle(dir string, man BundleManifest, folders map[string]string) (tmp, sum string, err error) {
	f, err := os.CreateTemp(dir, ".shard-*.zip.tmp")
	if err != nil {
		return "", "", err
	}
	tmp = f.Name()
	if err := f.Chmod(0o644); err != nil {
		return tmp, "", err
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	h := sha256.New()
	zw := zip.NewWriter(io.MultiWriter(f, h))
	need := map[string]bool{}
	for _, e := range man.Entries {
		if e.Folder != "" && !need[e.Folder] {
			need[e.Folder] = true
			files, err := packFolder(zw, e.Folder, folders[e.Folder])
			if err != nil {
				return tmp, "", fmt.Errorf("entry %s: %w", e.Name, err)
			}
			man.Files = append(man.Files, files...)
		}
	}
	data, err := json.MarshalIndent(man, "", " ")
	if err != nil {
		return tmp, "", err
	}
	for name, body := range map[string][]byte{manifestName: data, manifestSumName: []byte(sha256Hex(data) + "\n")} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: time.Now()})
		if err != nil {
			return tmp, "", err
		}
		if _, err := w.Write(body); err != nil {
			return tmp, "", err
		}
	}
	if err := zw.Close(); err != nil {
		return tmp, "", err
	}
	return tmp, hex.EncodeToString(h.Sum(nil)), f.Sync()
}

// packFolder adds every file under dir to zw below prefix, keeping the
// modes (a built program stays executable), and lists them with their
// checksums. Symbolic links are packed as the files they point to.
func packFolder(zw *zip.Writer, prefix, dir string) ([]ShardFile, error) {
	var files []ShardFile
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := os.Stat(path)
		if err != nil {
			return err
		}
		if info.IsDir() || !info.Mode().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		hdr, err := zip.FileInfoHeader(info)
		if err != nil {
			return err
		}
		hdr.Name, hdr.Method = prefix+"/"+filepath.ToSlash(rel), zip.Deflate
		w, err := zw.CreateHeader(hdr)
		if err != nil {
			return err
		}
		src, err := os.Open(path)
		if err != nil {
			return err
		}
		defer src.Close()
		h := sha256.New()
		n, err := io.Copy(io.MultiWriter(w, h), src)
		if err != nil {
			return fmt.Errorf("pack %s: %w", path, err)
		}
		files = append(files, ShardFile{Path: hdr.Name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))})
		return nil
	})
	return files, err
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// fileSHA256 is the SHA-256 of a file's contents.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ShardCounts says how an exported event's games are: out, back, missing.
func (s *Service) ShardCounts(id int64) (storage.ShardCounts, error) {
	return s.db.ShardCounts(id)
}

// OutShards returns the bundles of event id still out: games sent and not
// back. While there are any, the event is locked against a local run.
func (s *Service) OutShards(id int64) ([]storage.Shard, error) {
	return s.db.OutShards(id)
}

// exportedError refuses to run an event whose games are out in bundles:
// played here too, their later import would be dropped as "already
// there", losing the other machines' work. It names the bundles and the
// two ways to take them back.
func exportedError(id int64, out []storage.Shard) error {
	games := 0
	names := make([]string, 0, len(out))
	for _, sh := range out {
		games += sh.Missing
		names = append(names, fmt.Sprintf("%s (shard %d of %d, %d game(s))", sh.File, sh.Number, sh.Count, sh.Missing))
	}
	return Errorf(Conflict, "event %d is exported: %d game(s) are out in %d bundle(s): %s; import their results with \"ringside event import %d FILE|FOLDER...\", or take them back with \"ringside event unexport %d\" (their results are refused after that)",
		id, games, len(out), strings.Join(names, ", "), id, id)
}

// checkNotExported is the lock an export puts on an event: nil when no
// games are out, else exportedError.
func checkNotExported(db *storage.DB, id int64) error {
	out, err := db.OutShards(id)
	if err != nil {
		return err
	}
	if len(out) > 0 {
		return exportedError(id, out)
	}
	return nil
}

// UnexportReport is what "ringside event unexport" did.
type UnexportReport struct {
	Shards []storage.Shard // the bundles taken back
	Games  int             // games scheduled here again
}

// Unexport takes back every bundle of event id that is out: its games not
// back are scheduled here again (a run plays them), and the bundles are
// revoked, so importing their results later is refused rather than
// mixing two plays of one game. Games already imported keep their
// results.
func (s *Service) Unexport(id int64) (UnexportReport, error) {
	var rep UnexportReport
	lock, err := s.lockEvent(id, "stop it before taking its bundles back")
	if err != nil {
		return rep, err
	}
	defer lock.Release()
	shards, games, err := s.db.Unexport(id)
	if err != nil {
		return rep, wrap(Failed, err, "unexport event %d", id)
	}
	if len(shards) == 0 {
		return rep, Errorf(Conflict, "event %d has no bundles out: nothing to take back", id)
	}
	rep.Shards, rep.Games = shards, games
	return rep, nil
}
