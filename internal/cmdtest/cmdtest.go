// Package cmdtest runs the project's commands in their tests: in process
// through their run function (Run), or as real processes that can be sent
// signals and killed (Start), by re-executing the test binary with
// SPOTS_TEST_MAIN=1, which the command's TestMain turns into its main
// (Main).
package cmdtest

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// Run calls a command's run function with args and returns its exit
// status and what it wrote to standard output and standard error.
func Run(t testing.TB, run func(args []string, stdout, stderr io.Writer) int, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	status := run(args, &stdout, &stderr)
	return status, stdout.String(), stderr.String()
}

// childEnv marks the test binary run as the command itself.
const childEnv = "SPOTS_TEST_MAIN"

// Main is for a command's TestMain: in a process started by Start it runs
// the command (runMain) and exits with its status; otherwise it returns
// and the tests run.
func Main(runMain func() int) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(runMain())
	}
}

// isolateCache gives the test binary, and every process it starts, a
// cache directory of its own (XDG_CACHE_HOME): a command that keeps state
// there (spots-solve's default checkpoints) must not read a user's, nor
// one test read another run's. It returns the directory's removal.
func isolateCache() func() {
	dir, err := os.MkdirTemp("", "spots-test-cache")
	if err != nil {
		return func() {}
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	return func() { os.RemoveAll(dir) }
}

// Process is a command running as a process of its own.
type Process struct {
	Cmd            *exec.Cmd
	Stdout, Stderr Buffer
	done           chan error
}

// Start starts the command (the test binary, see Main) with args and the
// extra environment variables env ("NAME=value"). The process is killed
// when the test ends, and its output logged if the test failed.
func Start(t testing.TB, env []string, args ...string) *Process {
	t.Helper()
	return StartInput(t, env, nil, args...)
}

// StartInput is Start with standard input read from stdin (nil: none).
func StartInput(t testing.TB, env []string, stdin io.Reader, args ...string) *Process {
	t.Helper()
	return StartIO(t, env, stdin, nil, args...)
}

// StartIO is Start with standard input read from stdin (nil: none) and
// standard output written to stdout (an *os.File is the process's own:
// /dev/full, a pipe the test reads or not), or to p.Stdout if nil.
func StartIO(t testing.TB, env []string, stdin io.Reader, stdout io.Writer, args ...string) *Process {
	t.Helper()
	p := &Process{Cmd: exec.Command(os.Args[0], args...), done: make(chan error, 1)}
	p.Cmd.Env = append(append(os.Environ(), childEnv+"=1"), env...)
	p.Cmd.Stdin = stdin
	p.Cmd.Stdout, p.Cmd.Stderr = &p.Stdout, &p.Stderr
	if stdout != nil {
		p.Cmd.Stdout = stdout
	}
	if err := p.Cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.Cmd.Wait() }()
	t.Cleanup(func() {
		p.Cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("%v\nstdout: %s\nstderr: %s", p.Cmd.Args[1:], p.Stdout.String(), p.Stderr.String())
		}
	})
	return p
}

// Wait returns the exit status, failing the test if the process is still
// running after timeout.
func (p *Process) Wait(t testing.TB, timeout time.Duration) int {
	t.Helper()
	select {
	case err := <-p.done:
		p.done <- err // for Cleanup
		if err == nil {
			return 0
		}
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		t.Fatalf("%v: %v", p.Cmd.Args, err)
	case <-time.After(timeout):
		t.Fatalf("%v still running after %v\nstdout: %s\nstderr: %s", p.Cmd.Args, timeout, p.Stdout.String(), p.Stderr.String())
	}
	return -1
}

// Buffer is a bytes.Buffer that a test may read while a process writes to
// it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
