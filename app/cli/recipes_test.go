package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportWritesRecipes: "event export" prints the sbatch line with the
// export's own numbers (array size = bundles, the CPUs asked for, at
// least one game at once), or writes the Slurm job script and the
// Kubernetes manifest; --k8s without an image is refused before anything
// is sent.
func TestExportWritesRecipes(t *testing.T) {
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
