package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"ringside/app/service"
	"ringside/runner"
)

func init() {
	register(&command{
		name: "shard", usage: "run BUNDLE --out RESULT [--concurrency N] [--quiet]",
		summary: "play a shard bundle of an exported event on this machine",
		help: func() string {
			return `ringside shard run BUNDLE --out RESULT plays the games of a shard bundle
written by "ringside event export" and writes their results, replays and
verdicts, with this machine's name and timings, to the file RESULT. Bring
RESULT back and merge it with "ringside event import ID RESULT".

The machine needs this Ringside binary and the runtimes the bots' run
commands use (python3, java, …); the bundle carries the built revisions.
Bots are contained exactly as at home: the event's and each entry's sandbox
setting and limits travel in the bundle (docs/sandbox.md).

` + optionsHelp(2, 19, shardRunOptions(new(shardRunArgs))) + `

A bundle whose checksums fail (a damaged copy) is refused before any game.
Recipes for GNU parallel over ssh, Slurm and Kubernetes: docs/distributed.md.`
		},
		run: runShard,
	})
}

// shardRunArgs are the flags of "shard run".
type shardRunArgs struct {
	out         string
	concurrency int
	quiet       bool
}

// shardRunOptions are the flags of "shard run", declared into a and
// written in its help.
func shardRunOptions(a *shardRunArgs) []option {
	return []option{
		stringOption(&a.out, "out", "RESULT", "", "the result file. If it exists from an earlier run of the same bundle (killed, crashed, Ctrl-C), that run is resumed: its games are kept, the rest are played.", required),
		intOption(&a.concurrency, "concurrency", "N", 0, "games at once (the home machine's setting says nothing about this one)", service.DefaultConcurrencyWords),
		boolOption(&a.quiet, "quiet", "no progress line"),
	}
}

func runShard(c *cli, args []string) error {
	if len(args) == 0 || args[0] != "run" {
		return usagef("shard: write \"ringside shard run BUNDLE --out RESULT\"")
	}
	fs := c.flags("shard run")
	var a shardRunArgs
	declare(fs, shardRunOptions(&a))
	out, conc, quiet := &a.out, &a.concurrency, &a.quiet
	pos, err := parseInterleaved(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("shard run: give one bundle file (from \"ringside event export\")")
	}
	if *out == "" {
		return usagef("shard run: say where the results go with --out RESULT")
	}
	if *conc < 0 {
		return usagef("shard run: --concurrency must be 0 (this machine's cores − 1) or more")
	}
	spec := service.ShardRun{Bundle: pos[0], Out: *out, Concurrency: *conc}
	spec.OnStart = func(sandbox string, trusted []string) {
		fmt.Fprintf(c.stdout, "%s: %s\n", pos[0], sandbox)
		if len(trusted) > 0 {
			fmt.Fprintf(c.stdout, "%s: trusted, so without the sandbox: %s\n", pos[0], strings.Join(trusted, ", "))
		}
	}
	spec.OnResume = func(done, all int) {
		fmt.Fprintf(c.stdout, "resuming %s: %d of %d games are in it already\n", *out, done, all)
	}
	showProgress := !*quiet && isTerminal(c.stderr)
	if showProgress {
		spec.OnProgress = func(p runner.Progress) { fmt.Fprint(c.stderr, "\r"+progressLine(p)+"  ") }
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := service.RunShard(ctx, spec)
	if showProgress {
		fmt.Fprintln(c.stderr)
	}
	m := rep.Manifest
	if err != nil && rep.Started {
		return fmt.Errorf("shard %d of %d of event %d stopped: %w; run the same command again to go on", m.Shard, m.Of, m.Event.ID, err)
	}
	if err != nil && m.Token != "" {
		return fmt.Errorf("shard %d of %d of event %d: %w", m.Shard, m.Of, m.Event.ID, err)
	}
	if err != nil {
		return err
	}
	rate := 0.0
	if s := rep.Elapsed.Seconds(); s > 0 {
		rate = float64(rep.Played) / s
	}
	fmt.Fprintf(c.stdout, "shard %d of %d of event %d (%s) on %s: %d games played in %.1f s (%.2f games/s), %d from an earlier run\n",
		m.Shard, m.Of, m.Event.ID, m.Event.Name, rep.Machine, rep.Played, rep.Elapsed.Seconds(), rate, rep.Earlier)
	if ctx.Err() != nil || !rep.Complete {
		fmt.Fprintf(c.stdout, "interrupted: run the same command again to play the %d games left\n", len(m.Games)-rep.Earlier-rep.Played)
		return nil
	}
	fmt.Fprintf(c.stdout, "all %d games are in %s; import it with: ringside event import %d %s\n", len(m.Games), *out, m.Event.ID, shellQuote(*out))
	return nil
}

// exportArgs are the flags of "event export".
type exportArgs struct {
	shards int
	out    string
	resend bool
	// The recipes' numbers (service.Recipe).
	cpus, parallelism int
	slurm, k8s, image string
}

// exportOptions are the flags of "event export", declared into a and
// written in "ringside help event".
func exportOptions(a *exportArgs) []option {
	return []option{
		intOption(&a.shards, "shards", "N", 0, "how many bundles", required),
		stringOption(&a.out, "out", "DIR", "", "the folder the bundles go to", required),
		boolOption(&a.resend, "resend", "send again the games of bundles still out"),
		intOption(&a.cpus, "cpus-per-task", "N", service.DefaultTaskCPUs, "CPUs each Slurm task or Kubernetes pod asks for; no more than a node has (sinfo -o %c); it plays N−1 games at once, at least 1"),
		stringOption(&a.slurm, "slurm", "FILE", "", "write the Slurm array job script to FILE (submit it from inside DIR)", "none: the sbatch line is printed"),
		stringOption(&a.k8s, "k8s", "FILE", "", "write a Kubernetes Indexed Job manifest to FILE (needs --image)", "none"),
		stringOption(&a.image, "image", "IMAGE", "", "the Kubernetes worker image: ringside and the bots' runtimes", "none"),
		intOption(&a.parallelism, "parallelism", "N", service.DefaultParallelism, "pods of the Kubernetes Job at once (no more than the bundles)"),
	}
}

func eventExport(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("event export")
	var a exportArgs
	declare(fs, exportOptions(&a))
	shards, out, resend := &a.shards, &a.out, &a.resend
	id, err := eventID(fs, args)
	if err != nil {
		return err
	}
	if *shards < 1 {
		return usagef("event export: say how many bundles with --shards N (1 or more)")
	}
	if *out == "" {
		return usagef("event export: say which folder the bundles go to with --out DIR")
	}
	if a.cpus < 1 || a.parallelism < 1 {
		return usagef("event export: --cpus-per-task and --parallelism must be 1 or more")
	}
	if a.k8s != "" && a.image == "" {
		return usagef("event export: --k8s needs --image IMAGE, the worker image (ringside and the bots' runtimes)")
	}
	return withService(*dbPath, func(s *service.Service) error {
		written, err := s.Export(service.ExportSpec{Event: id, Shards: *shards, Dir: *out, Resend: *resend})
		if err != nil {
			return err
		}
		total := 0
		for _, w := range written {
			fmt.Fprintf(c.stdout, "%s\t%d games\n", w.Path, w.Games)
			total += w.Games
		}
		fmt.Fprintf(c.stdout, "event %d: %d games out in %d shard(s); on each worker: ringside shard run BUNDLE --out RESULT; then: ringside event import %d RESULT...%s\n",
			id, total, len(written), id, dbArg(*dbPath))
		if len(written) == 0 {
			return nil
		}
		return writeRecipes(c, service.Recipe{Event: id, Bundles: len(written), Dir: *out, CPUs: a.cpus,
			Parallelism: a.parallelism, Image: a.image}, a)
	})
}

// writeRecipes prints the Slurm submission line, or writes the job script
// and the Kubernetes manifest asked for, with the export's numbers in
// them (docs/distributed.md).
func writeRecipes(c *cli, r service.Recipe, a exportArgs) error {
	if a.slurm == "" {
		fmt.Fprintf(c.stdout, "slurm: %s\n", r.SbatchLine())
	} else {
		if err := os.WriteFile(a.slurm, []byte(r.SlurmScript()), 0o755); err != nil {
			return fmt.Errorf("write the Slurm job script: %w", err)
		}
		abs, err := filepath.Abs(a.slurm)
		if err != nil {
			abs = a.slurm
		}
		fmt.Fprintf(c.stdout, "slurm: cd %s && sbatch %s\n", shellQuote(r.Dir), shellQuote(abs))
	}
	if a.k8s != "" {
		if err := os.WriteFile(a.k8s, []byte(r.K8sJob()), 0o644); err != nil {
			return fmt.Errorf("write the Kubernetes manifest: %w", err)
		}
		fmt.Fprintf(c.stdout, "kubernetes: copy %s to the root of the volume claim %s, then: kubectl apply -f %s\n",
			shellQuote(r.Dir), service.ShardsClaim, shellQuote(a.k8s))
	}
	return nil
}

func eventImport(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("event import")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return usagef("event import: give the event id and one or more result files or folders (ringside event import ID RESULT|FOLDER...)")
	}
	id, err := strconv.ParseInt(pos[0], 10, 64)
	if err != nil || id <= 0 {
		return usagef("event import: %q is not an event id (\"ringside event list\" shows them)", pos[0])
	}
	files, err := service.ResultFiles(pos[1:])
	if err != nil {
		return err
	}
	return withService(*dbPath, func(s *service.Service) error {
		rep, err := s.Import(id, files)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "event %d: %d file(s), %d games read: %d imported, %d already there", id, rep.Files, rep.Games, rep.Imported, rep.Kept)
		if rep.Differ > 0 {
			fmt.Fprintf(c.stdout, " (%d of them played to another result elsewhere; the first result is kept)", rep.Differ)
		}
		fmt.Fprintln(c.stdout)
		if len(rep.Machines) > 0 {
			fmt.Fprintf(c.stdout, "played on: %s\n", strings.Join(rep.Machines, ", "))
		}
		counts, err := s.ShardCounts(id)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "shards: %d games out, %d back, %d missing\n", counts.Out, counts.Back, counts.Missing)
		switch {
		case rep.Finished:
			fmt.Fprintf(c.stdout, "event %d is finished\n", id)
			return printStandings(c.stdout, s, id, "text")
		case rep.Next > 0:
			fmt.Fprintf(c.stdout, "the next round's %d games are scheduled: export them with ringside event export %d --shards N --out DIR%s\n", rep.Next, id, dbArg(*dbPath))
		default:
			fmt.Fprintf(c.stdout, "%d games still to play\n", rep.Left)
		}
		return nil
	})
}
