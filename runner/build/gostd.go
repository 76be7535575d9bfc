package build

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// goStdPackages are the standard library packages students' Go bots
// import most (the templates' and the usual containers and maths):
// their compiled form is what a new AI's first Go build is given.
var goStdPackages = []string{
	"bufio", "bytes", "container/heap", "encoding/json", "errors", "fmt", "io", "math", "math/rand",
	"math/rand/v2", "net", "os", "slices", "sort", "strconv", "strings", "sync", "time",
}

// goStdSeedVersion changes when the seed's layout or making changes, so
// an old seed is not reused.
const goStdSeedVersion = "1"

// seedMu makes the seed once per process: a class's Go AIs built side by
// side wait for the first one's seed instead of each making it.
var seedMu sync.Mutex

// seedGoCache gives a Go build an AI cache that has never held Go's
// build cache the standard library's packages already compiled. Go
// ships no compiled standard library, so each AI's first build compiled
// fmt, encoding/json, net and the rest again: 13 to 25 s of CPU a
// student, the most of a class's first builds. The seed is compiled once
// per toolchain into the user's cache folder, by a contained build of
// those packages alone in an empty folder: no student's file takes part
// in it, and each AI gets a copy of its own (never a link), so no build
// can reach another AI's through it. It is only a head start: when the
// seed cannot be made or copied, the build compiles them itself.
func seedGoCache(ctx context.Context, argv []string, cache string, timeout time.Duration) {
	if len(argv) == 0 || strings.TrimSuffix(filepath.Base(argv[0]), ".exe") != "go" {
		return
	}
	dst := filepath.Join(cache, "go-build")
	if _, err := os.Lstat(dst); err == nil || !os.IsNotExist(err) {
		return
	}
	seed, ok := goStdSeed(ctx, argv[0], timeout)
	if !ok {
		return
	}
	tmp, err := os.MkdirTemp(cache, ".go-build-")
	if err != nil {
		return
	}
	if copySeed(seed, tmp) != nil || os.Rename(tmp, dst) != nil {
		os.RemoveAll(tmp)
	}
}

// goStdSeed is the seed's build cache for the toolchain goCmd runs,
// made when missing; ok is false when it cannot be had.
func goStdSeed(ctx context.Context, goCmd string, timeout time.Duration) (dir string, ok bool) {
	root, err := os.UserCacheDir()
	if err != nil {
		return "", false
	}
	goPath, err := exec.LookPath(goCmd)
	if err != nil {
		return "", false
	}
	// The toolchain's identity: a seed is only ever given to builds by
	// the Go it was compiled with.
	id, err := exec.CommandContext(ctx, goPath, "env", "GOVERSION", "GOROOT", "GOOS", "GOARCH", "GOAMD64", "GOEXPERIMENT").Output()
	if err != nil {
		return "", false
	}
	sum := sha256.Sum256([]byte(goStdSeedVersion + "\n" + goPath + "\n" + string(id) + strings.Join(goStdPackages, " ")))
	seed := filepath.Join(root, "ringside", "go-std", hex.EncodeToString(sum[:8]))
	done := filepath.Join(seed, "done")
	seedMu.Lock()
	defer seedMu.Unlock()
	if _, err := os.Stat(done); err == nil {
		return filepath.Join(seed, "go-build"), true
	}
	if err := os.MkdirAll(filepath.Dir(seed), 0o700); err != nil {
		return "", false
	}
	tmp, err := os.MkdirTemp(filepath.Dir(seed), ".seed-")
	if err != nil {
		return "", false
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	src := filepath.Join(tmp, "src")
	if err := os.Mkdir(src, 0o700); err != nil {
		return "", false
	}
	// Built as a student's Go build is (runStep, cacheEnv): the same
	// environment gives the packages the same cache keys.
	st := step{dir: src, argv: append([]string{goCmd, "build"}, goStdPackages...), env: cacheEnv(tmp), write: []string{src, tmp}}
	if !runStep(ctx, st, timeout, io.Discard) {
		return "", false
	}
	if err := os.WriteFile(filepath.Join(tmp, "done"), nil, 0o600); err != nil {
		return "", false
	}
	// Another process may have made it meanwhile: either is as good.
	if err := os.Rename(tmp, seed); err != nil {
		if _, err := os.Stat(done); err != nil {
			return "", false
		}
	}
	return filepath.Join(seed, "go-build"), true
}

// copySeed copies the seed's regular files and folders to dst.
func copySeed(seed, dst string) error {
	return filepath.WalkDir(seed, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(seed, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o700)
		case !d.Type().IsRegular():
			return nil
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}
