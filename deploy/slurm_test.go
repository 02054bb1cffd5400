package deploy

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const slurmScript = "slurm/spots-swarm.sbatch"

func slurmText(t *testing.T) string {
	t.Helper()
	data, err := File(slurmScript)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestSlurmScript: the script is bash that parses; its #SBATCH lines all
// come before the first command (sbatch ignores the ones after, silently);
// it asks for two nodes at least and for SIGTERM before the time limit, so
// that the master saves its search; the key reaches every process through
// --key-file, never on a command line or in the environment; the status
// page stays on loopback.
func TestSlurmScript(t *testing.T) {
	text := slurmText(t)
	if !strings.HasPrefix(text, "#!/bin/bash\n") {
		t.Error("the script does not start with #!/bin/bash")
	}
	directives := map[string]string{}
	header := true
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if d, ok := strings.CutPrefix(line, "#SBATCH "); ok {
			if !header {
				t.Errorf("line %d: %q comes after the first command: sbatch ignores it", n, line)
			}
			name, value, _ := strings.Cut(strings.TrimSpace(d), "=")
			directives[name] = value
			continue
		}
		if line != "" && !strings.HasPrefix(line, "#") {
			header = false
		}
	}
	if directives["--nodes"] == "" || directives["--nodes"] == "1" {
		t.Errorf("--nodes=%q: the master and a worker need two nodes at least", directives["--nodes"])
	}
	if !strings.HasPrefix(directives["--signal"], "B:TERM@") {
		t.Errorf("--signal=%q: want B:TERM@SECONDS, so the script can stop the master before the time limit", directives["--signal"])
	}
	for _, bad := range []string{"--key ", "--key=", "SPOTS_SWARM_KEY"} {
		if strings.Contains(text, bad) {
			t.Errorf("the script passes the key with %q: on a command line or in the environment, others can read it", bad)
		}
	}
	if n := strings.Count(text, `--key-file "$SPOTS_KEY_FILE"`); n != 2 {
		t.Errorf("%d processes read --key-file \"$SPOTS_KEY_FILE\", want the master and the workers", n)
	}
	if !strings.Contains(text, `--status-listen "127.0.0.1:`) {
		t.Error("the master's status page is not on 127.0.0.1")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skipf("bash is not installed (%v): the script's syntax is not checked", err)
	}
	if out, err := exec.Command("bash", "-n", "-c", text).CombinedOutput(); err != nil {
		t.Errorf("bash -n: %v\n%s", err, out)
	}
}

// TestSlurmRefuses runs the script where it cannot start a swarm: each
// time it exits 2 at once, saying what is wrong and what to do, and
// starts nothing.
func TestSlurmRefuses(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skipf("bash is not installed: %v", err)
	}
	script := filepath.Join(t.TempDir(), "slurm_script") // where sbatch copies it
	if err := os.WriteFile(script, []byte(slurmText(t)), 0o755); err != nil {
		t.Fatal(err)
	}
	const key = "deploy-test-key-0123456789\n"
	// SPOTS_SOLVE=false: a command that exists, and fails if it is run.
	slurm := []string{"SLURM_JOB_NUM_NODES=3", "SLURM_JOB_ID=7", "SPOTS_SOLVE=false"}
	for _, tc := range []struct {
		name  string
		files map[string]string // in the submit directory
		env   []string
		args  []string
		want  []string
	}{
		{"no key file", nil, slurm, []string{"0*8"}, []string{"the key file swarm.key does not exist", "openssl rand -hex 32 > swarm.key", "SPOTS_KEY_FILE"}},
		{"no key file where SPOTS_KEY_FILE says", map[string]string{"swarm.key": key}, append(slurm, "SPOTS_KEY_FILE=keys/cluster.key"), []string{"0*8"}, []string{"the key file keys/cluster.key does not exist"}},
		{"an empty key file", map[string]string{"swarm.key": ""}, slurm, []string{"0*8"}, []string{"the key file swarm.key is empty"}},
		{"a directory for a key", map[string]string{"swarm.key/x": key}, slurm, []string{"0*8"}, []string{"swarm.key is not a file"}},
		{"no position", map[string]string{"swarm.key": key}, slurm, nil, []string{"no position", "SPOTS_POSITION"}},
		{"not in a Slurm job", map[string]string{"swarm.key": key}, []string{"SPOTS_SOLVE=false"}, []string{"0*8"}, []string{"not inside a Slurm job", "sbatch"}},
		{"a loopback address", map[string]string{"swarm.key": key}, append(slurm, "SPOTS_IFACE=lo"), []string{"0*8"}, []string{"a loopback address that the other nodes cannot reach", "set SPOTS_IFACE", "SPOTS_ALLOW_LOOPBACK=1"}},
		{"no spots-solve", map[string]string{"swarm.key": key}, append(slurm, "SPOTS_SOLVE=no-such-spots-solve"), []string{"0*8"}, []string{"no-such-spots-solve not found", "make build"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := exec.LookPath("ip"); err != nil && strings.Contains(strings.Join(tc.env, " "), "SPOTS_IFACE") {
				t.Skipf("ip is not installed (%v): the script reads an interface's address with it", err)
			}
			dir := t.TempDir()
			for name, content := range tc.files {
				path := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", append([]string{script}, tc.args...)...)
			cmd.Dir = dir
			cmd.Env = append(cleanEnv(), tc.env...)
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			status := -1
			if ee, ok := err.(*exec.ExitError); ok {
				status = ee.ExitCode()
			}
			if status != 2 || stdout.Len() > 0 {
				t.Errorf("exit %d (%v), stdout %q; want 2 and nothing", status, err, stdout.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr %q does not say %q", stderr.String(), w)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "spots-swarm")); err == nil {
				t.Error("it made the run's directory")
			}
		})
	}
}

// cleanEnv is the test's environment without the variables the script
// reads, so that the machine's do not leak into the cases.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SLURM_") && !strings.HasPrefix(kv, "SPOTS_") {
			env = append(env, kv)
		}
	}
	return env
}
