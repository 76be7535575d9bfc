package cli

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"ringside/runner"
	"ringside/runner/runnertest"
)

// TestExportWritesRecipes: "event export" prints the sbatch line with the
// export's own numbers (array size = bundles, the CPUs asked for, at
// least one game at once), or writes the Slurm job script and the
// Kubernetes manifest; --k8s without an image is refused before anything
// is sent.
func TestExportWritesRecipes(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	db := filepath.Join(root, "r.db")
	mustRingside(t, shardEvent(db, 10, "builtin:grip/greedy", "builtin:grip/random", "builtin:grip/greedy", "builtin:grip/random")...)
	code, _, errs := ringside(t, "event", "export", "1", "--db", db, "--shards", "3", "--out", filepath.Join(root, "x"), "--k8s", filepath.Join(root, "job.yaml"))
	if code != 2 || !strings.Contains(errs, "--k8s needs --image") {
		t.Errorf("--k8s without --image: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(filepath.Join(root, "x")); err == nil {
		t.Errorf("a refused export wrote its folder")
	}

	dir := filepath.Join(root, "bundles")
	script, job := filepath.Join(root, "shards.sh"), filepath.Join(root, "job.yaml")
	out := mustRingside(t, "event", "export", "1", "--db", db, "--shards", "3", "--out", dir, "--cpus-per-task", "2",
		"--slurm", script, "--k8s", job, "--image", "reg.example/rs:1", "--parallelism", "2")
	for _, want := range []string{"slurm: cd " + dir + " && sbatch " + script + "\n", "kubernetes: copy " + dir + " to the root of the volume claim ringside-shards"} {
		if !strings.Contains(out, want) {
			t.Errorf("export output lacks %q:\n%s", want, out)
		}
	}
	for file, wants := range map[string][]string{
		script: {"#SBATCH --array=1-3\n", "#SBATCH --cpus-per-task=2\n", "scontrol requeue"},
		job:    {"completions: 3\n", "parallelism: 2\n", "completionMode: Indexed\n", `image: "reg.example/rs:1"`, "--concurrency 1 --quiet"},
	} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range wants {
			if !strings.Contains(string(data), w) {
				t.Errorf("%s lacks %q:\n%s", filepath.Base(file), w, data)
			}
		}
	}

	// Without --slurm the line is printed; --resend into a new folder
	// sends the same games again, in 2 bundles here.
	out = mustRingside(t, "event", "export", "1", "--db", db, "--shards", "2", "--resend", "--out", filepath.Join(root, "again"))
	want := "slurm: cd " + filepath.Join(root, "again") + " && sbatch --job-name=ringside-event-1 --array=1-2 --cpus-per-task=1 --requeue --wrap "
	if !strings.Contains(out, want) || !strings.Contains(out, "--concurrency 1 --quiet") {
		t.Errorf("export output lacks %q:\n%s", want, out)
	}
}

// docBlock is the first ```sh block of docs/distributed.md after the
// heading, with its backslash-continued lines joined.
func docBlock(t *testing.T, heading string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "distributed.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("docs/distributed.md has no %q", heading)
	}
	_, after, ok = strings.Cut(after, "```sh\n")
	block, _, ok2 := strings.Cut(after, "```")
	if !ok || !ok2 {
		t.Fatalf("no sh block under %q", heading)
	}
	block = strings.ReplaceAll(block, "\\\n", "")
	return strings.Split(strings.TrimSpace(block), "\n")
}

// loopbackSSH starts an sshd on a free loopback port that lets the
// current user in with a key made for the test and gives its sessions
// PATH=pathDir first (the workers' "ringside on the PATH"); it returns an
// ssh_config naming that worker "worker". It skips when sshd, ssh or
// ssh-keygen is missing.
func loopbackSSH(t *testing.T, dir, pathDir string) string {
	t.Helper()
	sshd, err := exec.LookPath("sshd")
	if err != nil {
		if sshd, err = exec.LookPath("/usr/sbin/sshd"); err != nil {
			t.Skip("sshd is not installed (Debian package openssh-server; .ci/run installs it): skipping the GNU parallel over ssh recipe")
		}
	}
	for _, p := range []string{"ssh", "ssh-keygen"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed (Debian package openssh-client): skipping the GNU parallel over ssh recipe", p)
		}
	}
	if os.Geteuid() == 0 {
		// sshd's privilege separation folder, which the Debian service
		// makes at boot; a container that never started the service has
		// none.
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			t.Skipf("cannot make sshd's /run/sshd: %v", err)
		}
	}
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"hostkey", "userkey"} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", filepath.Join(dir, k)).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v\n%s", err, out)
		}
	}
	pub, err := os.ReadFile(filepath.Join(dir, "userkey.pub"))
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(dir, "authorized_keys"), string(pub))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	mustWrite(t, filepath.Join(dir, "sshd_config"), fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s
AuthorizedKeysFile %s
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
PidFile none
SetEnv PATH=%s:/usr/local/bin:/usr/bin:/bin
`, port, filepath.Join(dir, "hostkey"), filepath.Join(dir, "authorized_keys"), pathDir))
	config := filepath.Join(dir, "ssh_config")
	mustWrite(t, config, fmt.Sprintf(`Host worker
  HostName 127.0.0.1
  Port %d
  User %s
  IdentityFile %s
  IdentitiesOnly yes
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  LogLevel ERROR
  BatchMode yes
`, port, me.Username, filepath.Join(dir, "userkey")))
	d := exec.Command(sshd, "-D", "-e", "-f", filepath.Join(dir, "sshd_config"))
	var log strings.Builder
	d.Stderr = &log
	runnertest.Start(t, d)
	// Wait for the event: the first login that works.
	var out []byte
	for range 100 {
		if out, err = exec.Command("ssh", "-F", config, "worker", "ringside", "help", "shard").CombinedOutput(); err == nil {
			return config
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no ssh login to the loopback sshd: %v\n%s\nsshd: %s", err, out, log.String())
	return ""
}

func mustWrite(t *testing.T, file, text string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestDocParallelRecipeOverSSH runs docs/distributed.md's GNU parallel
// block as written, read from the doc itself, with an sshd on loopback as
// the worker; then plays the same event locally and checks, with replay
// diff, that every imported game is the local one move for move.
func TestDocParallelRecipeOverSSH(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"parallel", "rsync", "bash"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed (.ci/run installs it): skipping the GNU parallel over ssh recipe", p)
		}
	}
	exe, err := runner.Executable()
	if err != nil {
		t.Fatal(err)
	}
	lines := docBlock(t, "## GNU parallel over ssh")
	root := t.TempDir()
	config := loopbackSSH(t, t.TempDir(), filepath.Dir(exe))
	home := filepath.Join(root, "home")
	env := append(os.Environ(), "LANG=C.UTF-8", "HOME="+home, "XDG_DATA_HOME="+filepath.Join(home, "data"),
		"PARALLEL_SSH=ssh -F "+config, "PARALLEL_HOME="+filepath.Join(home, ".parallel"),
		"PATH="+filepath.Dir(exe)+string(os.PathListSeparator)+os.Getenv("PATH"))
	run := func(dir string, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return string(out)
	}
	// The doc's event 3, in the default database (the doc gives no --db)
	// and in a local one: the same three events, so the same match ids.
	local := filepath.Join(root, "local.db")
	create := []string{"event", "create", "--game", "battle2048", "--seed", "7", "--opt", "rounds=60", "--time-scale", "10",
		"--entry", "builtin:battle2048/greedy", "--entry", "builtin:battle2048/random", "--entry", "builtin:battle2048/search"}
	for range 3 {
		run(root, exe, create...)
		run(root, exe, append(create, "--db", local)...)
	}
	mustWrite(t, filepath.Join(root, "workers.txt"), "2/worker\n")
	out := run(root, "bash", "-c", "set -euo pipefail\n"+strings.Join(lines, "\n"))
	if !strings.Contains(out, "is finished") {
		t.Fatalf("the recipe did not finish event 3:\n%s", out)
	}
	run(root, exe, "event", "run", "3", "--quiet", "--db", local)
	ids := regexp.MustCompile(`(?m)^(\d+)\s+\d+\s`).FindAllStringSubmatch(run(root, exe, "event", "show", "3"), -1)
	if len(ids) == 0 {
		t.Fatal("event 3 shows no games")
	}
	for _, m := range ids {
		a, b := filepath.Join(root, "a"+m[1]+".json"), filepath.Join(root, "b"+m[1]+".json")
		run(root, exe, "replay", "export", m[1], "--out", a)
		run(root, exe, "replay", "export", m[1], "--out", b, "--db", local)
		if d := run(root, exe, "replay", "diff", a, b); !strings.Contains(d, "the same game, move for move") {
			t.Errorf("match %s over ssh and here:\n%s", m[1], d)
		}
	}
	t.Logf("%d games played over ssh, each the same as here", len(ids))
}
