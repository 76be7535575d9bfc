package service

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Recipe is what a job engine needs to play the bundles of one export:
// the numbers docs/distributed.md's recipes once asked the organiser to
// work out by hand (the array size, the CPUs a task asks for, the games a
// task plays at once), computed by "event export" so a recipe runs as
// written.
type Recipe struct {
	Event int64
	// Bundles is how many bundles the export wrote into its folder: the
	// Slurm array size and the Kubernetes completions. A job array hands
	// out a folder's bundles by their place in it (export refuses a used
	// folder, so the folder holds exactly these).
	Bundles int
	// Dir is the bundles' folder as given to export; jobs run inside it.
	Dir string
	// CPUs is what one task (a Slurm array task, a pod) asks for; 1 or
	// more. A node with fewer CPUs never runs the task, so the default is
	// 1, which every node has.
	CPUs int
	// Parallelism is how many pods a Kubernetes Job runs at once; 0 is
	// DefaultParallelism, never more than Bundles.
	Parallelism int
	// Image is the Kubernetes worker image: the Ringside binary and the
	// runtimes the bots' run commands use.
	Image string
}

// ShardsClaim is fixed, not an option: the manifest says it.
const (
	// ShardsClaim is the PersistentVolumeClaim the Kubernetes Job mounts
	// at /shards; the bundles' folder is copied to its root.
	ShardsClaim = "ringside-shards"
)

// TaskConcurrency is the games one task plays at once on cpus CPUs: one
// CPU is left to the runner and the sandbox's watchers, but never fewer
// than 1 game (0 would mean "the whole machine's cores − 1" to shard run,
// on a node shared with other tasks).
func TaskConcurrency(cpus int) int {
	return max(1, cpus-1)
}

func (r Recipe) jobName() string { return fmt.Sprintf("ringside-event-%d", r.Event) }

func (r Recipe) parallelism() int {
	p := r.Parallelism
	if p <= 0 {
		p = DefaultParallelism
	}
	return max(1, min(p, r.Bundles))
}

// pickBundle is the shell line that sets $bundle to the bundle of task
// number index (1-based) in the current folder. LC_ALL=C: every node
// must sort the folder alike, whatever its locale.
func pickBundle(index string) string {
	return `bundle=$(LC_ALL=C ls -1 -- *.zip | sed -n "` + index + `p")`
}

// SbatchLine is one command that submits the bundles as a Slurm array
// from the machine that sees the bundles' folder, without a script file.
func (r Recipe) SbatchLine() string {
	wrap := pickBundle("${SLURM_ARRAY_TASK_ID}") + ` && test -n "$bundle" && exec ringside shard run "$bundle" --out "$bundle.result" --concurrency ` +
		fmt.Sprint(TaskConcurrency(r.CPUs)) + ` --quiet`
	return fmt.Sprintf("cd %s && sbatch --job-name=%s --array=1-%d --cpus-per-task=%d --requeue --wrap %s",
		shQuote(r.Dir), r.jobName(), r.Bundles, max(1, r.CPUs), shQuote(wrap))
}

// SlurmScript is the job script of the Slurm array, to be submitted from
// the bundles' folder ("cd DIR && sbatch FILE").
func (r Recipe) SlurmScript() string {
	return fmt.Sprintf(`#!/bin/bash
# Written by "ringside event export %[1]d": one array task per bundle of
# event %[1]d (%[2]d bundles). Copy the bundles' folder where every node
# sees it, then submit from inside it:  cd %[3]s && sbatch THIS_FILE
# A task that failed (a lost node):  scontrol requeue JOBID_TASK  (e.g.
# 1234_7); one that was cancelled: sbatch --array=7 THIS_FILE. Either way
# it resumes its result file. Then copy *.result back and run
# ringside event import %[1]d FOLDER on the laptop.
#SBATCH --job-name=%[4]s
#SBATCH --array=1-%[2]d
#SBATCH --cpus-per-task=%[5]d
#SBATCH --requeue
set -euo pipefail
cd "${SLURM_SUBMIT_DIR:-.}"
%[6]s
if [ -z "$bundle" ]; then
	echo "no bundle number ${SLURM_ARRAY_TASK_ID} in $PWD" >&2
	exit 1
fi
# Games at once: one CPU for the runner, but never fewer than 1 game.
cpus=${SLURM_CPUS_PER_TASK:-1}
concurrency=$(( cpus > 1 ? cpus - 1 : 1 ))
exec ringside shard run "$bundle" --out "$bundle.result" --concurrency "$concurrency" --quiet
`, r.Event, r.Bundles, shQuote(r.Dir), r.jobName(), max(1, r.CPUs), pickBundle("${SLURM_ARRAY_TASK_ID}"))
}

// K8sJob is a Kubernetes Indexed Job manifest (batch/v1) that plays the
// bundles, one pod per completion index, from the bundles' folder copied
// to the root of the PersistentVolumeClaim ShardsClaim.
func (r Recipe) K8sJob() string {
	cpus := max(1, r.CPUs)
	folder := filepath.Base(filepath.Clean(r.Dir))
	return fmt.Sprintf(`# Written by "ringside event export %[1]d": one pod per bundle of event %[1]d.
# Copy the folder %[2]s to the root of the PersistentVolumeClaim %[3]s,
# then: kubectl apply -f THIS_FILE. When the Job completes, copy
# %[2]s/*.result back and run ringside event import %[1]d FOLDER.
apiVersion: batch/v1
kind: Job
metadata:
  name: %[4]s
spec:
  completionMode: Indexed
  completions: %[5]d
  parallelism: %[6]d
  backoffLimitPerIndex: 3
  template:
    spec:
      restartPolicy: Never
      hostUsers: false
      containers:
        - name: shard
          image: %[7]s
          command: ["/bin/sh", "-c"]
          args:
            - |
              set -eu
              cd %[8]s
              %[9]s
              test -n "$bundle"
              exec ringside shard run "$bundle" --out "$bundle.result" --concurrency %[10]d --quiet
          resources:
            requests:
              cpu: "%[11]d"
              memory: %[12]dGi
            limits:
              cpu: "%[11]d"
          volumeMounts:
            - name: shards
              mountPath: /shards
      volumes:
        - name: shards
          persistentVolumeClaim:
            claimName: %[3]s
`, r.Event, folder, ShardsClaim, r.jobName(), r.Bundles, r.parallelism(), yamlString(r.Image),
		shQuote("/shards/"+folder), pickBundle("$((JOB_COMPLETION_INDEX + 1))"), TaskConcurrency(cpus), cpus, TaskConcurrency(cpus))
}

// shQuote quotes s for sh when it needs it.
func shQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`*?[]{}()<>|&;#~!") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// yamlString is s as a YAML double-quoted scalar.
func yamlString(s string) string {
	return fmt.Sprintf("%q", s)
}
