package service

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

func TestTaskConcurrency(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ cpus, want int }{{0, 1}, {1, 1}, {2, 1}, {4, 3}, {32, 31}} {
		if got := TaskConcurrency(tt.cpus); got != tt.want {
			t.Errorf("TaskConcurrency(%d) = %d, want %d", tt.cpus, got, tt.want)
		}
	}
}

// fakeRingside puts a "ringside" on PATH that prints its arguments, and
// returns the PATH to run with.
func fakeRingside(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "ringside"), []byte("#!/bin/sh\necho \"$PWD: $*\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin + string(os.PathListSeparator) + os.Getenv("PATH")
}

// bundleFolder is a folder with n bundles, named so that a byte-order
// sort and a locale's sort could differ (upper and lower case).
func bundleFolder(t *testing.T, n int) (dir string, names []string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "bundles")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		name := fmt.Sprintf("event-3-shard-%d-of-%d-%c.zip", i+1, n, "aBc"[i%3])
		names = append(names, name)
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(names) // byte order, as LC_ALL=C ls
	return dir, names
}

// TestSlurmScriptRuns runs the written job script as Slurm would run one
// array task (its environment, from the submit folder) with a fake
// ringside: each task picks its own bundle, plays at least 1 game at once
// whatever its CPUs, and a task past the last bundle fails.
func TestSlurmScriptRuns(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	path := fakeRingside(t)
	dir, names := bundleFolder(t, 3)
	for _, cpus := range []int{1, 2, 4} {
		r := Recipe{Event: 3, Bundles: len(names), Dir: dir, CPUs: cpus}
		script := filepath.Join(t.TempDir(), "shards.sh")
		if err := os.WriteFile(script, []byte(r.SlurmScript()), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"#SBATCH --array=1-3\n", fmt.Sprintf("#SBATCH --cpus-per-task=%d\n", cpus), "#SBATCH --requeue\n", "scontrol requeue"} {
			if !strings.Contains(r.SlurmScript(), want) {
				t.Errorf("cpus %d: the script lacks %q", cpus, want)
			}
		}
		for task := 1; task <= 4; task++ {
			cmd := exec.Command("bash", script)
			cmd.Dir = t.TempDir() // sbatch runs it from elsewhere; SLURM_SUBMIT_DIR says where
			cmd.Env = append(os.Environ(), "PATH="+path, "LANG=en_US.UTF-8", fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", task),
				"SLURM_SUBMIT_DIR="+dir, fmt.Sprintf("SLURM_CPUS_PER_TASK=%d", cpus))
			out, err := cmd.CombinedOutput()
			if task > len(names) {
				if err == nil || !strings.Contains(string(out), "no bundle number 4") {
					t.Errorf("task 4 of 3 bundles: %v, %s", err, out)
				}
				continue
			}
			want := fmt.Sprintf("%s: shard run %s --out %s.result --concurrency %d --quiet\n", dir, names[task-1], names[task-1], TaskConcurrency(cpus))
			if err != nil || string(out) != want {
				t.Errorf("cpus %d task %d: %v\n got %q\nwant %q", cpus, task, err, out, want)
			}
		}
	}
}

// TestSbatchLineRuns runs the printed sbatch line with a fake sbatch that
// runs the --wrap command once per array index as Slurm would (sh, in the
// submit folder): every bundle is played exactly once.
func TestSbatchLineRuns(t *testing.T) {
	t.Parallel()
	path := fakeRingside(t)
	bin := filepath.Dir(strings.SplitN(path, string(os.PathListSeparator), 2)[0] + "/x")
	sbatch := `#!/bin/sh
for a in "$@"; do
	case "$prev" in --wrap) wrap=$a ;; esac
	case "$a" in --array=*) hi=${a#--array=1-} ;; --cpus-per-task=*) echo "cpus ${a#--cpus-per-task=}" ;; esac
	prev=$a
done
i=1
while [ "$i" -le "$hi" ]; do SLURM_ARRAY_TASK_ID=$i sh -c "$wrap" || echo "task $i failed"; i=$((i + 1)); done
`
	if err := os.WriteFile(filepath.Join(bin, "sbatch"), []byte(sbatch), 0o755); err != nil {
		t.Fatal(err)
	}
	dir, names := bundleFolder(t, 5)
	for _, cpus := range []int{1, 3} {
		line := Recipe{Event: 3, Bundles: len(names), Dir: dir, CPUs: cpus}.SbatchLine()
		cmd := exec.Command("sh", "-c", line)
		cmd.Env = append(os.Environ(), "PATH="+path)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", line, err, out)
		}
		want := fmt.Sprintf("cpus %d\n", cpus)
		for _, n := range names {
			want += fmt.Sprintf("%s: shard run %s --out %s.result --concurrency %d --quiet\n", dir, n, n, TaskConcurrency(cpus))
		}
		if string(out) != want {
			t.Errorf("%s:\n got %q\nwant %q", line, out, want)
		}
	}
}

// kfield is one field of the Kubernetes schema table below: its JSON kind
// ("string", "integer", "boolean", "object", "array", "quantity": a
// string or a number), its fields (objects; any other is refused, as
// kubectl's strict field validation does), its element (arrays), the
// values allowed, and whether it is required.
type kfield struct {
	kind     string
	fields   map[string]kfield
	elem     *kfield
	enum     []string
	required bool
}

func kobj(fields map[string]kfield) kfield { return kfield{kind: "object", fields: fields} }
func karr(e kfield) kfield                 { return kfield{kind: "array", elem: &e} }

var (
	kstr  = kfield{kind: "string"}
	kint  = kfield{kind: "integer"}
	kbool = kfield{kind: "boolean"}
	kqty  = kfield{kind: "quantity"}
	kmap  = kfield{kind: "map"} // string to string (labels, annotations, resource lists' keys are open)
)

func req(f kfield) kfield { f.required = true; return f }

// jobV1 is the part of the Kubernetes batch/v1 Job schema (API reference,
// Kubernetes 1.33: Job, JobSpec, PodTemplateSpec, PodSpec, Container,
// ResourceRequirements, VolumeMount, Volume) that a manifest of ours may
// use, field names and types as the API defines them.
var jobV1 = func() kfield {
	resources := kobj(map[string]kfield{
		"requests": {kind: "resources"}, "limits": {kind: "resources"},
	})
	container := kobj(map[string]kfield{
		"name": req(kstr), "image": kstr, "command": karr(kstr), "args": karr(kstr), "workingDir": kstr,
		"env":             karr(kobj(map[string]kfield{"name": req(kstr), "value": kstr})),
		"imagePullPolicy": {kind: "string", enum: []string{"Always", "Never", "IfNotPresent"}},
		"resources":       resources,
		"volumeMounts":    karr(kobj(map[string]kfield{"name": req(kstr), "mountPath": req(kstr), "readOnly": kbool, "subPath": kstr})),
	})
	volume := kobj(map[string]kfield{
		"name":                  req(kstr),
		"persistentVolumeClaim": kobj(map[string]kfield{"claimName": req(kstr), "readOnly": kbool}),
		"emptyDir":              kobj(map[string]kfield{"medium": kstr, "sizeLimit": kqty}),
	})
	pod := kobj(map[string]kfield{
		"restartPolicy":                 req(kfield{kind: "string", enum: []string{"Never", "OnFailure"}}), // a Job's pods may not be Always
		"hostUsers":                     kbool,
		"containers":                    req(karr(container)),
		"volumes":                       karr(volume),
		"nodeSelector":                  kmap,
		"serviceAccountName":            kstr,
		"terminationGracePeriodSeconds": kint,
	})
	meta := kobj(map[string]kfield{"name": kstr, "namespace": kstr, "labels": kmap, "annotations": kmap})
	return kobj(map[string]kfield{
		"apiVersion": req(kfield{kind: "string", enum: []string{"batch/v1"}}),
		"kind":       req(kfield{kind: "string", enum: []string{"Job"}}),
		"metadata":   req(meta),
		"spec": req(kobj(map[string]kfield{
			"completionMode":          {kind: "string", enum: []string{"NonIndexed", "Indexed"}},
			"completions":             kint,
			"parallelism":             kint,
			"backoffLimit":            kint,
			"backoffLimitPerIndex":    kint,
			"maxFailedIndexes":        kint,
			"activeDeadlineSeconds":   kint,
			"ttlSecondsAfterFinished": kint,
			"suspend":                 kbool,
			"template":                req(kobj(map[string]kfield{"metadata": meta, "spec": req(pod)})),
		})),
	})
}()

var quantity = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$`)

// kcheck lists where v breaks f.
func kcheck(v any, f kfield, at string) []string {
	var bad []string
	switch f.kind {
	case "string":
		s, ok := v.(string)
		if !ok {
			return []string{fmt.Sprintf("%s: want a string, not %T", at, v)}
		}
		if f.enum != nil && !slices.Contains(f.enum, s) {
			bad = append(bad, fmt.Sprintf("%s: %q is not one of %v", at, s, f.enum))
		}
	case "integer":
		if n, ok := v.(float64); !ok || n != float64(int64(n)) {
			bad = append(bad, fmt.Sprintf("%s: want an integer, not %v", at, v))
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			bad = append(bad, fmt.Sprintf("%s: want a boolean, not %v", at, v))
		}
	case "quantity":
		if s := fmt.Sprint(v); !quantity.MatchString(s) {
			bad = append(bad, fmt.Sprintf("%s: %q is not a quantity", at, s))
		}
	case "resources":
		m, ok := v.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: want a map of resources", at)}
		}
		for k, q := range m {
			if k != "cpu" && k != "memory" && k != "ephemeral-storage" {
				bad = append(bad, fmt.Sprintf("%s.%s: not a resource", at, k))
			}
			bad = append(bad, kcheck(q, kqty, at+"."+k)...)
		}
	case "map":
		m, ok := v.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: want a map", at)}
		}
		for k, s := range m {
			bad = append(bad, kcheck(s, kstr, at+"."+k)...)
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			return []string{fmt.Sprintf("%s: want a list, not %T", at, v)}
		}
		for i, e := range a {
			bad = append(bad, kcheck(e, *f.elem, fmt.Sprintf("%s[%d]", at, i))...)
		}
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: want an object, not %T", at, v)}
		}
		for k, e := range m {
			sub, known := f.fields[k]
			if !known {
				bad = append(bad, fmt.Sprintf("%s.%s: unknown field", at, k))
				continue
			}
			bad = append(bad, kcheck(e, sub, at+"."+k)...)
		}
		for k, sub := range f.fields {
			if _, ok := m[k]; sub.required && !ok {
				bad = append(bad, fmt.Sprintf("%s.%s: required", at, k))
			}
		}
	}
	return bad
}

// yamlToJSON reads YAML with python3's yaml module (PyYAML, Debian's
// python3-yaml): Ringside's module has no YAML reader of its own.
func yamlToJSON(t *testing.T, yaml string) any {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: cannot read the manifest's YAML")
	}
	if exec.Command(py, "-c", "import yaml").Run() != nil {
		t.Skip("python3's yaml module is not installed (Debian package python3-yaml; .ci/run installs it): cannot read the manifest's YAML")
	}
	cmd := exec.Command(py, "-c", "import json, sys, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)")
	cmd.Stdin = strings.NewReader(yaml)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the manifest is not YAML: %v\n%s", err, yaml)
	}
	var v any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestK8sJobManifest checks the written manifest against the Job v1
// schema table above and against what an Indexed Job of these bundles
// must say; then runs its container's command as the pod would, with a
// fake ringside, for every completion index. No Kubernetes cluster runs
// it here.
func TestK8sJobManifest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		bundles, cpus, parallelism int
		wantPar, wantConc          int
	}{
		{40, 4, 0, 10, 3},
		{3, 1, 0, 3, 1},
		{7, 2, 5, 5, 1},
		{2, 8, 9, 2, 7},
	}
	path := fakeRingside(t)
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d bundles", tt.bundles), func(t *testing.T) {
			r := Recipe{Event: 3, Bundles: tt.bundles, Dir: "some/where/bundles", CPUs: tt.cpus, Parallelism: tt.parallelism, Image: "reg.example/ringside:1"}
			v := yamlToJSON(t, r.K8sJob())
			if bad := kcheck(v, jobV1, "job"); len(bad) > 0 {
				t.Fatalf("not a batch/v1 Job:\n%s\n%s", strings.Join(bad, "\n"), r.K8sJob())
			}
			job := v.(map[string]any)
			spec := job["spec"].(map[string]any)
			pod := spec["template"].(map[string]any)["spec"].(map[string]any)
			c := pod["containers"].([]any)[0].(map[string]any)
			for _, chk := range []struct {
				what      string
				got, want any
			}{
				{"name", job["metadata"].(map[string]any)["name"], "ringside-event-3"},
				{"completionMode", spec["completionMode"], "Indexed"},
				{"completions", spec["completions"], float64(tt.bundles)},
				{"parallelism", spec["parallelism"], float64(tt.wantPar)},
				// backoffLimitPerIndex needs restartPolicy Never (Kubernetes refuses OnFailure with it).
				{"restartPolicy", pod["restartPolicy"], "Never"},
				{"image", c["image"], "reg.example/ringside:1"},
				{"cpu", c["resources"].(map[string]any)["requests"].(map[string]any)["cpu"], fmt.Sprint(tt.cpus)},
				{"claim", pod["volumes"].([]any)[0].(map[string]any)["persistentVolumeClaim"].(map[string]any)["claimName"], ShardsClaim},
			} {
				if fmt.Sprint(chk.got) != fmt.Sprint(chk.want) {
					t.Errorf("%s = %v, want %v", chk.what, chk.got, chk.want)
				}
			}
			// The container's command, as the pod runs it, in a copy of
			// the claim: index i plays the (i+1)th bundle.
			claim := t.TempDir()
			dir, names := bundleFolder(t, tt.bundles)
			if err := os.Rename(dir, filepath.Join(claim, "bundles")); err != nil {
				t.Fatal(err)
			}
			var argv []string
			for _, a := range append(c["command"].([]any), c["args"].([]any)...) {
				argv = append(argv, strings.ReplaceAll(a.(string), "/shards/", claim+"/"))
			}
			for i := range tt.bundles {
				cmd := exec.Command(argv[0], argv[1:]...)
				cmd.Env = append(os.Environ(), "PATH="+path, fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i))
				out, err := cmd.CombinedOutput()
				want := fmt.Sprintf("%s/bundles: shard run %s --out %s.result --concurrency %d --quiet\n", claim, names[i], names[i], tt.wantConc)
				if err != nil || string(out) != want {
					t.Errorf("index %d: %v\n got %q\nwant %q", i, err, out, want)
				}
			}
		})
	}
}

// TestK8sSchemaTableRefuses: the schema table is a real check; a manifest
// with a misspelt field, a wrong type or a pod that restarts Always is
// refused.
func TestK8sSchemaTableRefuses(t *testing.T) {
	t.Parallel()
	good := Recipe{Event: 3, Bundles: 4, Dir: "b", CPUs: 2, Image: "x"}.K8sJob()
	for _, tt := range []struct{ from, to, want string }{
		{"completionMode: Indexed", "completionsMode: Indexed", "job.spec.completionsMode: unknown field"},
		{"completions: 4", "completions: four", "job.spec.completions: want an integer"},
		{"restartPolicy: Never", "restartPolicy: Always", `"Always" is not one of`},
		{"completionMode: Indexed", "completionMode: indexed", `"indexed" is not one of`},
		{"claimName: ringside-shards", "claim: ringside-shards", "claimName: required"},
	} {
		bad := strings.Replace(good, tt.from, tt.to, 1)
		if bad == good {
			t.Fatalf("%q is not in the manifest", tt.from)
		}
		got := strings.Join(kcheck(yamlToJSON(t, bad), jobV1, "job"), "\n")
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s → %s: problems %q, want %q", tt.from, tt.to, got, tt.want)
		}
	}
}
