package main

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spots-dev/spots/deploy"
	"github.com/spots-dev/spots/internal/cmdtest"
)

// slurmPorts are the offsets from SPOTS_PORT of the ports a job of
// deploy/slurm/spots-swarm.sbatch listens on with three workers on one
// machine: jobs, gossip, status, and each worker's gossip (11 + its local
// task id).
var slurmPorts = []int{0, 1, 2, 11, 12, 13}

// freePortBase returns a port p such that p plus each of offsets is free
// on 127.0.0.1 now.
func freePortBase(t *testing.T, offsets []int) int {
	t.Helper()
	for range 100 {
		base := 20000 + rand.IntN(11900) // below the ephemeral range, see cmdtest.FreeAddr
		var held []net.Listener
		ok := true
		for _, o := range offsets {
			l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(base+o))
			if err != nil {
				ok = false
				break
			}
			held = append(held, l)
		}
		for _, l := range held {
			l.Close()
		}
		if ok {
			return base
		}
	}
	t.Fatal("no free range of ports on 127.0.0.1")
	return 0
}

// TestDeploySlurm runs deploy/slurm/spots-swarm.sbatch as sbatch would on
// a job of three nodes, all of them this machine: the script as it is,
// copied out of the repository and run by bash in the directory it was
// "submitted" from, which holds the key file; spots-solve on PATH is this
// test binary; srun is testdata/slurm/srun, which starts the tasks of a
// step as local processes; SPOTS_IFACE=lo gives every "node" the address
// 127.0.0.1 (allowed by SPOTS_ALLOW_LOOPBACK=1), and SPOTS_PORT free
// ports. Every node runs a worker group, the master's too. The master's status page is read
// before the workers start; the job must end with the master's exit 0, the
// position's result and one certificate, and every process gone.
func TestDeploySlurm(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"bash", "ip", "awk"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (%v): the batch script needs it", tool, err)
		}
	}
	dir := slurmJobDir(t)
	submit := filepath.Join(dir, "submit")
	base := freePortBase(t, slurmPorts)
	job := startSlurmJob(t, dir, base)
	status := "127.0.0.1:" + strconv.Itoa(base+2)
	checkStatusPage(t, "http://"+status+"/status.json", &job.stderr)
	if err := os.WriteFile(filepath.Join(dir, "gate"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	job.wait(t, 2*time.Minute)
	out, errs := job.stdout.String(), job.stderr.String()
	for _, want := range []string{
		deployPosition + "  L  ",
		fmt.Sprintf("ssh -N -L %d:%s -J login1 ", base+2, status),
		"a worker group on each of the 3 nodes",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout does not say %q:\n%s", want, out)
		}
	}
	if n := strings.Count(errs, "the master says the solve is over"); n != 3 || strings.Contains(errs, "srun's workers exited") {
		t.Errorf("%d workers were told the solve is over, want 3, and none failed:\n%s", n, errs)
	}
	if files, _ := filepath.Glob(filepath.Join(submit, "spots-swarm", "certificates", "*.arrow")); len(files) != 1 {
		t.Errorf("%d certificates in spots-swarm/certificates, want 1", len(files))
	}
	// Nothing of the job is left: the process group is empty.
	if err := syscall.Kill(-job.cmd.Process.Pid, 0); err == nil {
		t.Error("processes of the job are still running after the script ended")
	}
}

// slurmJobDir makes the directory of a Slurm job: bin/ (srun, and
// spots-solve, which runs this test binary as the command), submit/ (the
// directory it was submitted from, holding the key file) and slurm_script,
// the batch script as the repository has it.
func slurmJobDir(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script, err := deploy.File("slurm/spots-swarm.sbatch")
	if err != nil {
		t.Fatal(err)
	}
	srun, err := os.ReadFile(filepath.Join("testdata", "slurm", "srun"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, d := range []string{"bin", "submit"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range map[string]string{
		"bin/srun":        string(srun),
		"bin/spots-solve": fmt.Sprintf("#!/bin/sh\nSPOTS_TEST_MAIN=1 exec '%s' \"$@\"\n", self),
		"slurm_script":    string(script),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "submit", "swarm.key"), []byte(deployKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// slurmJob is the batch script of a job, running.
type slurmJob struct {
	cmd            *exec.Cmd
	stdout, stderr cmdtest.Buffer
	done           chan error
}

// startSlurmJob runs the batch script of the job in dir as sbatch would on
// a job of three nodes with ports from base. The script, master, srun and
// workers are one process group, all killed if the test ends first.
func startSlurmJob(t *testing.T, dir string, base int) *slurmJob {
	t.Helper()
	j := &slurmJob{cmd: exec.Command("bash", filepath.Join(dir, "slurm_script"), deployPosition), done: make(chan error, 1)}
	j.cmd.Dir = filepath.Join(dir, "submit")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SLURM_") && !strings.HasPrefix(kv, "SPOTS_") && !strings.HasPrefix(kv, "PATH=") {
			j.cmd.Env = append(j.cmd.Env, kv)
		}
	}
	j.cmd.Env = append(j.cmd.Env, "PATH="+filepath.Join(dir, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"),
		"SLURM_JOB_ID=4242", "SLURM_JOB_NUM_NODES=3", "SLURM_SUBMIT_HOST=login1", "SLURM_CPUS_ON_NODE=1",
		"SPOTS_IFACE=lo", "SPOTS_ALLOW_LOOPBACK=1", "SPOTS_PORT="+strconv.Itoa(base), "SRUN_GATE="+filepath.Join(dir, "gate"))
	j.cmd.Stdout, j.cmd.Stderr = &j.stdout, &j.stderr
	j.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := j.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { j.done <- j.cmd.Wait() }()
	t.Cleanup(func() {
		syscall.Kill(-j.cmd.Process.Pid, syscall.SIGKILL)
		if err := <-j.done; err != nil || t.Failed() {
			t.Logf("batch script: %v\nstdout: %s\nstderr: %s", err, j.stdout.String(), j.stderr.String())
		}
	})
	return j
}

// wait waits for the batch script to end, and fails the test unless it
// ends with success within timeout.
func (j *slurmJob) wait(t *testing.T, timeout time.Duration) {
	t.Helper()
	select {
	case err := <-j.done:
		j.done <- err // for Cleanup
		if err != nil {
			t.Fatalf("the batch script: %v\nstdout: %s\nstderr: %s", err, j.stdout.String(), j.stderr.String())
		}
	case <-time.After(timeout):
		t.Fatalf("the batch script still runs after %v\nstdout: %s\nstderr: %s", timeout, j.stdout.String(), j.stderr.String())
	}
}
